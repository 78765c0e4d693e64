"""The bridge to the compiled core (``kingisdead._core``, Rust; see docs/architecture.md).

Two engines implement the same rules:

- ``"core"``: the compiled core, used underneath the public API wherever it is
  faster (legal-move lists, random play, the search, the solver);
- ``"reference"``: the pure-Python modules (:mod:`kingisdead.rules` and
  friends), written to be read next to the rulebook.

The test suite checks the two against each other on every position of seeded
random games. The default is the core; ``KINGISDEAD_ENGINE=reference`` in the
environment, or :func:`use_engine`, selects the reference explicitly. Only the
engine's other modules import this one: everything else asks
:mod:`kingisdead.engine`, which calls the functions here when the core is in
use (and the reference's ``check_move`` for the words of a move the core refuses).

A state crosses into the core as the :class:`~kingisdead.state.GameState`
itself, which the core reads field by field by name, and comes back as a new
one that the core builds the same way (a finished game with its
:class:`~kingisdead.scoring.Result` from the core's own verdict and scoring
steps, put in words by :func:`kingisdead.scoring.build_result`); a
move is the ``(card, action, court)`` triple that
:class:`~kingisdead.moves.Move` already is.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from random import Random
from typing import TYPE_CHECKING, Any

from .board import CARDS, CUNNING
from .edition import FIRST, Edition
from .moves import PASS, Move
from .scoring import Result, Step, build_result

if TYPE_CHECKING:
    from .state import GameState

try:
    from . import _core
except ImportError:  # pragma: no cover - only a source tree without a built core
    _core = None  # type: ignore[assignment]

ENGINES = ("core", "reference")

_engine = os.environ.get("KINGISDEAD_ENGINE", "core")


def check_environment() -> None:
    """Raise ValueError if ``KINGISDEAD_ENGINE`` names no engine (every engine call checks it)."""
    if _engine not in ENGINES:
        raise ValueError(f"KINGISDEAD_ENGINE must be one of {', '.join(ENGINES)}, not {_engine!r}")


def available() -> bool:
    """Whether the compiled core is built and importable."""
    return _core is not None


def active() -> bool:
    """Whether calls go to the compiled core (ValueError for a bad ``KINGISDEAD_ENGINE``)."""
    if _engine == "reference":
        return False
    check_environment()
    return _core is not None


def engine() -> str:
    """The engine in use: ``"core"`` when it is selected and built, else ``"reference"``."""
    return "core" if active() else "reference"


def _checked(name: str) -> str:
    if name not in ENGINES:
        raise ValueError(f"unknown engine {name!r} (expected one of {', '.join(ENGINES)})")
    if name == "core":
        require()
    return name


def chosen(name: str | None) -> str:
    """The engine a call runs on: ``name`` if given (ValueError for an unknown one), else the one in use."""
    return engine() if name is None else _checked(name)


def set_engine(name: str) -> None:
    """Select ``"core"`` or ``"reference"`` for the whole process (ValueError for anything else,
    RuntimeError for the core when it is not built)."""
    global _engine
    _engine = _checked(name)


@contextmanager
def use_engine(name: str) -> Iterator[None]:
    """Run a block with one engine, then restore the previous choice."""
    global _engine
    previous = _engine
    set_engine(name)
    try:
        yield
    finally:
        _engine = previous


def require() -> Any:
    """The extension module, or a clear error when it is not built."""
    if _core is None:
        raise RuntimeError("the compiled core is not built: run `pip install -e .` (needs cargo)")
    return _core


# -- crossing the boundary --------------------------------------------------------

_KINDS = (*CARDS, *CUNNING)
"""Each card number's kind: the seven cards, then the advanced game's Cunning cards."""


def to_move(t: tuple) -> Move:
    """A Move from the core's ``(card, action, court)``."""
    card, action, court = t
    if card is None:
        return PASS
    return Move(_KINDS[card], tuple(action), court)


def _seed(rng: Random) -> int:
    return rng.getrandbits(64)


# -- the rules ----------------------------------------------------------------------

def new_game(players: int, variant: str, seed: int, first_player: int = 0, edition: Edition = FIRST) -> GameState:
    """The game ``seed`` sets up in ``edition``: the same draws as :class:`kingisdead.setup.SetupDraws` makes."""
    return require().new_game(players, variant == "mordred", seed & (2**64 - 1), first_player, edition)


_COURTS = tuple((code // 4, code % 4) for code in range(32))
"""Court calls by the core's code ``region * 4 + faction``."""
_new_tuple = tuple.__new__


def legal_moves(s: GameState) -> list[Move]:
    """Every legal move, pass first, in the reference engine's order."""
    if s._result is not None:
        return []
    moves: list[Move] = []
    extend = moves.extend
    for card, action, courts in require().legal_moves(s):
        if card < 0:
            moves.append(PASS)
            continue
        kind = _KINDS[card]
        # tuple.__new__ builds each Move without a Python-level __new__ call (many thousands per list).
        extend([_new_tuple(Move, (kind, action, _COURTS[c] if c >= 0 else None)) for c in courts])
    return moves


def legal_move_groups(s: GameState) -> list[tuple[int, tuple[int, ...], tuple[tuple[int, int], ...]]]:
    """The legal card moves grouped by action: ``(card, action, court calls)`` in the order of
    :func:`legal_moves`, the pass left out; no court calls: the action alone is the move."""
    if s._result is not None:
        return []
    return [(card, tuple(action), tuple(_COURTS[c] for c in courts if c >= 0))
            for card, action, courts in require().legal_moves(s) if card >= 0]


def count_legal_moves(s: GameState) -> int:
    """How many legal moves there are (without building them in Python)."""
    return 0 if s._result is not None else require().count_legal_moves(s)


def card_actions(s: GameState, card: int) -> list[tuple[int, ...]]:
    """Every legal action of ``card`` (as :func:`kingisdead.rules.card_actions`)."""
    return [tuple(a) for a in require().card_actions(s, int(card))]


def is_legal(s: GameState, move: Move) -> bool:
    """Whether the core finds ``move`` legal in ``s`` (False for anything that is not a move)."""
    if s._result is not None:
        return False
    try:
        return bool(require().is_legal(s, move))
    except (TypeError, OverflowError):  # a field the core cannot even read: no move of this game
        return False


def play(s: GameState, move: Move) -> GameState:
    """A new state: ``move`` played on ``s`` (ValueError if it is not legal there)."""
    return require().play(s, move)


def successors(s: GameState) -> list[tuple[Move, GameState]]:
    """Every legal move with the state after it."""
    return [(to_move(m), after) for m, after in require().successors(s)]


def outcome(s: GameState) -> tuple[str, tuple[int, ...], int | None, tuple[int, ...], tuple[Step, ...]] | None:
    """The core's verdict on a finished game: (ending, winners, ruler, ranking, steps), or None.

    ``steps`` are the core's own scoring steps (:class:`kingisdead.scoring.Step`),
    which :attr:`GameState.result` of a state the core built holds too."""
    result = require().outcome(s)
    if result is None:
        return None
    ending, winners, ruler, ranking, steps = result
    return ending, tuple(winners), ruler, tuple(ranking), tuple(
        Step(kind, faction, tuple(values), tuple(kept)) for kind, faction, values, kept in steps)


def score(s: GameState, ending: str) -> Result:
    """The result of ``s`` ended by ``ending``, scored by the core (its verdict and steps)."""
    ending, winners, ruler, ranking, steps = require().score(s, ending)
    return build_result(s, ending, winners, ruler, ranking, steps)


def last_card_applies(s: GameState) -> bool:
    """Whether the last-card rule binds the player to move (as :func:`kingisdead.lastcard.last_card_applies`)."""
    return bool(require().last_card_applies(s))


def sample_move(s: GameState, rng: Random) -> Move:
    """A random legal move from the core's fast sampler; ``s`` is unchanged."""
    move, _ = require().play_random(s, _seed(rng))
    return to_move(move)


def playout(s: GameState, rng: Random) -> tuple[list[Move], GameState]:
    """Random moves from ``s`` to the end: the moves and the final state (``s`` is unchanged)."""
    moves, final = require().playout(s, _seed(rng))
    return [to_move(m) for m in moves], final


def random_games(players: int, variant: str, games: int, seed: int, edition: Edition = FIRST) -> tuple[int, int]:
    """Play ``games`` seeded random games in ``edition`` inside the core: (games, moves played).

    ValueError for a setup the edition lacks (the second edition's Mordred variant)."""
    return require().random_games(players, variant == "mordred", games, seed, edition)


NO_RULER = 255
""":attr:`RandomOutcomes.rulers` of a game without a single ruler."""


@dataclass(frozen=True)
class RandomOutcomes:
    """How each game of a batch of random games ended: entry ``k`` of every field is game ``first + k``."""

    endings: bytes
    """The ending as an index into :data:`kingisdead.scoring.ENDINGS`."""
    winners: bytes
    """Bit ``p`` set when seat ``p`` won."""
    rulers: bytes
    """The single ruler's seat (:attr:`kingisdead.scoring.Result.ruler`), or :data:`NO_RULER`."""
    moves: memoryview
    """Moves played, passes included (unsigned 16-bit integers)."""


def random_outcomes(start: GameState, seed: int, first: int, games: int) -> RandomOutcomes:
    """Games ``first`` to ``first + games - 1`` of ``kingisdead simulate --seed seed`` with random bots,
    played inside the core in one call (the GIL released meanwhile).

    Game ``index`` is set up as ``start`` was (its players and variant) from seed ``seed + index``,
    and played by the fast sampler from the seed the per-game loop gives it, the first
    ``getrandbits(64)`` of ``Random(kingisdead.cli.derive_seed(seed, index))``: the same games, game
    for game, as :func:`playout` of each. Seeds are taken modulo 2**64. Raises ValueError for a
    negative ``first`` or ``games``.
    """
    if first < 0 or games < 0:
        raise ValueError(f"random_outcomes needs a first game and a number of games of at least 0, "
                         f"not {first} and {games}")
    mask = 2**64 - 1
    endings, winners, rulers, moves = require().random_outcomes(start, seed & mask, first & mask, games)
    return RandomOutcomes(endings, winners, rulers, memoryview(moves).cast("H"))


def evaluate(s: GameState) -> list[float]:
    """The heuristic value per player (as :func:`kingisdead.evaluation.evaluate`)."""
    return require().evaluate(s)


def ranked_candidates(s: GameState, rng: Random, per_card: int) -> list[tuple[float, Move]]:
    """Candidate moves with their value for the mover, best first (as the reference's)."""
    return [(v, to_move(m)) for v, m in require().ranked_candidates(s, _seed(rng), per_card)]


def greedy_moves(s: GameState) -> list[Move]:
    """The legal moves after which :func:`evaluate` likes the mover's position best (ties within 1e-9)."""
    return [to_move(m) for m in require().greedy_moves(s)]


def perft(s: GameState, depth: int) -> tuple[int, int]:
    """(move sequences of ``depth`` plies, distinct positions they reach), counted in the core."""
    return tuple(require().perft(s, depth))  # type: ignore[return-value]


# -- the compiled search and learning tools (no reference twin: core only) ------------

def search(s: GameState, seconds: float | None, iterations: int | None, seed: int, knobs: tuple,
           include: list[Move], threads: int) -> tuple[list[tuple], int, float]:
    """The core's search of ``s`` (``kingisdead.bots.mcts.core_search`` gives the arguments' meaning):
    ``(root moves as (move, visits, value, prior), iterations, seconds)``, each move as :func:`to_move`
    takes it. RuntimeError when the core is not built."""
    return require().search(s, seconds, iterations, seed, knobs, include, threads)


def network(path: str) -> Any:
    """The core's network read from a weight file (``_core.Network``; ValueError for a file that is
    not one, OSError when unreadable, RuntimeError without the core)."""
    return require().Network(path)


def feature_count() -> int:
    """How many features the core's networks read (``FEATURES``)."""
    return int(require().FEATURES)


def guided_search(s: GameState, seconds: float | None, iterations: int | None, seed: int, knobs: tuple,
                  include: list[Move], threads: int, net: Any, weights: tuple) -> tuple[list[tuple], int, float]:
    """The core's search guided by ``net`` (:func:`network`), answered as :func:`search`."""
    return require().guided_search(s, seconds, iterations, seed, knobs, include, threads, net, weights)


def solve(s: GameState, node_limit: int, seconds: float | None) -> tuple[int, tuple, int] | None:
    """The core's exact solver: ``(value, move, nodes)``, or None past the limits (ValueError for a
    finished game or one that is not a 2-player game)."""
    return require().solve(s, node_limit, seconds)


def vector_env(players: int, mordred: bool, seed: int, seeds: Any, same_step: bool, edition: Edition) -> Any:
    """The core's batch of games stepped together (``_core.VecEnv``; see kingisdead.interfaces.vector)."""
    return require().VecEnv(players, mordred, seed, seeds, same_step, edition)


def selfplay_game(players: int, mordred: bool, setup_seed: int, play_seed: int, budget: int, explore: float,
                  temperature: float, knobs: tuple) -> dict[str, Any]:
    """One self-play game played in the core: its record as raw arrays (see kingisdead.learning.selfplay)."""
    return require().selfplay_game(players, mordred, setup_seed, play_seed, budget, explore, temperature, knobs)


def features_batch(states: list[GameState], seats: list[int]) -> bytes:
    """The core's features of each state from its seat, as little-endian float32 bytes."""
    return require().features_batch(states, seats)
