"""Bots: anything that, given a state, chooses a legal move.

Every bot is built from a name (``make_bot("greedy", seed=1)``) so that the
command line, the arena and the web app accept the same names. A name may
carry a thinking budget after a colon: ``mcts:2s`` (seconds per move) or
``mcts:500`` (search iterations per move). The levels for people
(``beginner``, ``intermediate``, ``strong``, ``max``) are names too; see
:mod:`.levels` and docs/bots.md. Every bot plays either edition through the
engine, except those guided by the learned network (``master``, ``mcts-net``,
``mcts-net-b``): it was trained on the first edition, so :func:`make_bot` refuses
them for the second.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from random import Random
from typing import Protocol

from .. import engine
from ..edition import Edition, get_edition
from ..moves import Move
from ..state import GameState
from .budget import Budget
from .mcts import SearchConfig, only_move, search
from .pacing import paced
from .solver import solvable, solve


class Bot(Protocol):
    """Chooses a move for the player to move; never changes the state it is given."""

    name: str

    def choose(self, state: GameState) -> Move: ...


def random_move(state: GameState, rng: Random) -> Move:
    """A random legal move from the fast sampler (the compiled core's when it is in use)."""
    return engine.sample_move(state, rng)


class RandomBot:
    """The fast sampler: a random legal move without listing them all (see :func:`kingisdead.engine.sample_move`)."""

    name = "random"

    def __init__(self, seed: int = 0, budget: Budget | None = None) -> None:
        self.rng = Random(seed)

    def choose(self, state: GameState) -> Move:
        return random_move(state, self.rng)


class UniformBot:
    """Uniform over the list of legal moves (slow: lists up to ~19,000 moves a turn)."""

    name = "uniform"

    def __init__(self, seed: int = 0, budget: Budget | None = None) -> None:
        self.rng = Random(seed)

    def choose(self, state: GameState) -> Move:
        return self.rng.choice(state.legal_moves())


class GreedyBot:
    """One-move lookahead: the move after which :func:`evaluate` likes its position best.

    Ties are broken at random (seeded), so greedy games still vary.
    """

    name = "greedy"

    def __init__(self, seed: int = 0, budget: Budget | None = None) -> None:
        self.rng = Random(seed)

    def choose(self, state: GameState) -> Move:
        return self.rng.choice(engine.greedy_moves(state))


class CarelessBot:
    """Greedy over a few drawn moves only, and every other move at random: a forgiving opponent.

    Measured: it beats random play in about three games in four and loses to
    greedy in about two in three (docs/bots.md).
    """

    name = "careless"
    blunder_rate = 0.5
    per_card = 1

    def __init__(self, seed: int = 0, budget: Budget | None = None) -> None:
        self.rng = Random(seed)

    def choose(self, state: GameState) -> Move:
        if self.rng.random() < self.blunder_rate:
            return random_move(state, self.rng)
        return engine.ranked_candidates(state, self.rng, self.per_card)[0][1]


class PacedGreedyBot(GreedyBot):
    """:class:`GreedyBot` keeping a reserve of cards for the struggles to come (:mod:`.pacing`): the
    intermediate level.

    Its move is greedy's whenever it has a card to spare, a pass when greedy's card would dip into
    the reserve.
    """

    name = "paced-greedy"

    def choose(self, state: GameState) -> Move:
        return paced(state, super().choose(state))


class PacedCarelessBot(CarelessBot):
    """:class:`CarelessBot` keeping a reserve of cards for the struggles to come (:mod:`.pacing`), with a
    random move two times in three: the beginner level.

    Its random moves are paced too: a random card that would dip into the reserve becomes a pass.
    The reserve alone made the careless bot almost as strong as the paced greedy (in 200 4-player
    games it won 53%, where the unpaced one won 37% against greedy), since a random card spent
    within the reserve costs far less than random play that empties a hand. One random move more in
    six restores about the old distance (docs/bots.md).
    """

    name = "paced-careless"
    blunder_rate = 2 / 3

    def choose(self, state: GameState) -> Move:
        return paced(state, super().choose(state))


DEFAULT_SEARCH_BUDGET = Budget(seconds=1.0)


class SearchBot:
    """Monte Carlo tree search (see :mod:`.mcts`), with the exact solver for small 2-player endgames.

    It runs in the compiled core when that is the engine in use; ``engine``
    pins one (:class:`ReferenceSearchBot` pins the pure-Python search).
    """

    name = "mcts"
    engine: str | None = None
    """``"core"``, ``"reference"``, or None for the engine in use (:mod:`kingisdead.core`)."""
    solver_limits = {"core": (6, 500_000), "reference": (2, 20_000)}
    """Per engine: the solver is tried when at most this many cards are left in both
    hands together, and gives up past this many nodes."""

    def __init__(self, seed: int = 0, budget: Budget | None = None, config: SearchConfig | None = None) -> None:
        self.rng = Random(seed)
        self.budget = budget or DEFAULT_SEARCH_BUDGET
        self.config = config or SearchConfig()

    def choose(self, state: GameState) -> Move:
        forced = only_move(state)
        if forced is not None:
            return forced
        start = time.perf_counter()
        proven = self.proven_move(state)
        if proven is not None:
            return proven
        return search(state, self.budget_left(start), self.rng, self.config, engine=self.engine).best

    def budget_left(self, start: float) -> Budget:
        """The budget minus the time the solver used (at least a tenth of it stays for the search)."""
        if self.budget.seconds is None:
            return self.budget
        spent = time.perf_counter() - start
        return Budget(max(self.budget.seconds - spent, self.budget.seconds / 10), self.budget.iterations)

    def proven_move(self, state: GameState) -> Move | None:
        """The solver's move when it proves a win or a shared win within half the budget."""
        cards, nodes = self.solver_limits[engine.chosen(self.engine)]
        if not solvable(state, cards):
            return None
        seconds = self.budget.seconds / 2 if self.budget.seconds is not None else None
        solution = solve(state, nodes, seconds, engine=self.engine)
        return solution.move if solution is not None and solution.value >= 0 else None


class ReferenceSearchBot(SearchBot):
    """The same search in pure Python (the reference engine), to measure the core against."""

    name = "mcts-reference"
    engine = "reference"


def _guided(seed: int = 0, budget: Budget | None = None) -> Bot:
    from .master import MasterBot

    return MasterBot(seed, budget or DEFAULT_SEARCH_BUDGET, threads=1)


def _guided_b(seed: int = 0, budget: Budget | None = None) -> Bot:
    from .master import SECOND_NETWORK_VARIABLE, MasterBot, default_network

    return MasterBot(seed, budget or DEFAULT_SEARCH_BUDGET, os.environ.get(SECOND_NETWORK_VARIABLE) or default_network(),
                     threads=1)


def _determinised(seed: int = 0, budget: Budget | None = None) -> Bot:
    from .determinised import DeterminisedBot

    return DeterminisedBot(seed, budget)


def _levels() -> dict[str, Callable[..., Bot]]:
    from .levels import LEVELS

    return {name: level.make for name, level in LEVELS.items()}


BOTS: dict[str, Callable[..., Bot]] = {
    "random": RandomBot,
    "uniform": UniformBot,
    "greedy": GreedyBot,
    "careless": CarelessBot,
    "paced-greedy": PacedGreedyBot,
    "paced-careless": PacedCarelessBot,
    "mcts": SearchBot,
    "mcts-reference": ReferenceSearchBot,
    "mcts-net": _guided,
    "mcts-net-b": _guided_b,
    "determinised": _determinised,
}
"""Bot factories by name: ``BOTS[name](seed)`` or ``BOTS[name](seed, budget)``."""


def split_name(spec: str) -> tuple[str, Budget | None]:
    """'mcts:2s' -> ('mcts', 2 seconds); a name without a colon has no budget of its own."""
    name, _, budget = spec.strip().lower().partition(":")
    return name, Budget.parse(budget) if budget else None


NETWORK_BOTS = frozenset({"master", "mcts-net", "mcts-net-b"})
"""The bots guided by the learned network, which play only the editions it was trained on."""

SEAT_VIEW_BOTS = frozenset({"random", "uniform", "determinised"})
"""The bots that play the advanced game: they choose among their own legal moves without looking at another
hand (the others' search and heuristics read every hand, which the advanced game keeps secret)."""


def make_bot(name: str, seed: int = 0, budget: Budget | None = None, edition: str | Edition = "first") -> Bot:
    """A bot by name (``name`` or ``name:budget``) to play games of ``edition``.

    A budget in the name wins over ``budget``; bots that do not search ignore
    budgets. Raises ValueError for an unknown name (listing the known ones),
    a bad budget or edition, for a network-guided bot in an edition no
    network was trained for, and for a bot that would see the hidden hands of
    the advanced game (:data:`SEAT_VIEW_BOTS` play it).
    """
    base, own_budget = split_name(name)
    try:
        factory = BOTS[base]
    except KeyError:
        raise ValueError(f"unknown bot {name!r} (known: {', '.join(sorted(BOTS))})") from None
    if get_edition(edition).advanced and base not in SEAT_VIEW_BOTS:
        raise ValueError(f"the {base} bot does not play the advanced game: it would see the secret hands "
                         f"(bots that play it: {', '.join(sorted(SEAT_VIEW_BOTS))})")
    if base in NETWORK_BOTS:
        from .master import check_edition

        check_edition(get_edition(edition))
    return factory(seed, own_budget or budget)


BOTS.update(_levels())
