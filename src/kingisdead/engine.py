"""The rules as the engine in use plays them: the one place that picks the engine.

Two engines implement the same rules: the compiled core (:mod:`kingisdead.core`,
Rust) and the pure-Python reference (:mod:`kingisdead.rules` and friends). Which
one is in use is set once, by ``KINGISDEAD_ENGINE`` or :func:`kingisdead.core.use_engine`;
everything that may run on either engine (the state's methods, the move builder,
the bots, the command line) calls the functions here instead of asking
:func:`kingisdead.core.active` itself. Each function gives the same answer on
both engines (the test suite checks them against each other); the core is
simply faster. A call that names its engine explicitly (the search's and the
solver's ``engine=`` argument) resolves it with :func:`kingisdead.core.chosen`.
"""

from __future__ import annotations

from random import Random
from typing import TYPE_CHECKING

from . import core, rules, scoring
from .moves import Move

if TYPE_CHECKING:
    from .edition import Edition
    from .scoring import Result
    from .state import GameState


def name() -> str:
    """The engine in use: ``"core"`` or ``"reference"`` (ValueError for a bad ``KINGISDEAD_ENGINE``)."""
    return core.engine()


def compiled() -> bool:
    """Whether the engine in use is the compiled core."""
    return core.active()


def new_game(players: int, variant: str, seed: int, first_player: int, edition: Edition) -> GameState:
    """The game ``seed`` sets up in ``edition`` (ValueError for a player count, variant or
    first player the game lacks)."""
    from .setup import check_setup_arguments, setup_from_seed

    if core.active():
        check_setup_arguments(players, variant, first_player, edition)
        return core.new_game(players, variant, seed, first_player, edition)
    return setup_from_seed(players, variant, seed, first_player, edition)


def legal_moves(s: GameState) -> list[Move]:
    """Every legal move, pass first, each once, in the reference's order."""
    return core.legal_moves(s) if core.active() else rules.legal_moves(s)


def legal_move_groups(s: GameState) -> list[tuple[int, tuple[int, ...], tuple[tuple[int, int], ...]]]:
    """The legal card moves grouped by action: ``(card, action, court calls)`` in the order of
    :func:`legal_moves`, the pass left out; no court calls: the action alone is the move."""
    if core.active():
        return core.legal_move_groups(s)
    courts: dict[tuple[int, tuple[int, ...]], list[tuple[int, int]]] = {}
    for m in rules.legal_moves(s):
        if m.card is not None:
            calls = courts.setdefault((int(m.card), m.action), [])
            if m.court is not None:
                calls.append(m.court)
    return [(card, action, tuple(calls)) for (card, action), calls in courts.items()]


def card_actions(s: GameState, card: int) -> list[tuple[int, ...]]:
    """Every legal action of ``card`` in the reference's order (:func:`kingisdead.rules.card_actions`)."""
    return core.card_actions(s, card) if core.active() else rules.card_actions(s, card)


def is_legal(s: GameState, move: Move) -> bool:
    """Whether ``move`` is legal in ``s`` (False for anything that is not a move of this game)."""
    if core.active():
        return core.is_legal(s, move)
    try:
        rules.check_move(s, move)
    except ValueError:
        return False
    return True


def play(s: GameState, move: Move) -> None:
    """Play ``move``, known to be legal (see :func:`kingisdead.rules.check_move`), on ``s`` in place."""
    if core.active():
        after = core.play(s, move)
        for field in type(s).__slots__:
            setattr(s, field, getattr(after, field))
    else:
        rules.play(s, move)


def sample_move(s: GameState, rng: Random) -> Move:
    """A random legal move from the fast sampler, without listing them all; ``s`` is unchanged."""
    return core.sample_move(s, rng) if core.active() else rules.sample_move(s, rng)


def playout(s: GameState, rng: Random) -> tuple[list[Move], GameState]:
    """Random moves from the fast sampler to the end: the moves and the final state (``s`` is unchanged)."""
    if core.active():
        return core.playout(s, rng)
    final = s.copy()
    moves = []
    while final.result is None:
        moves.append(rules.play_random(final, rng))
    return moves, final


def last_card_applies(s: GameState) -> bool:
    """Whether the last-card rule binds the player to move."""
    return core.last_card_applies(s) if core.active() else rules.last_card_applies(s)


def greedy_moves(s: GameState) -> list[Move]:
    """The legal moves after which the heuristic (:func:`kingisdead.evaluation.evaluate`) likes
    the mover's position best, ties within 1e-9 kept, in the order of :func:`legal_moves`."""
    if core.active():
        return core.greedy_moves(s)
    from .evaluation import evaluate

    me = s.player
    best: list[Move] = []
    best_value = -2.0
    for move in rules.legal_moves(s):
        after = s.copy()
        rules.play(after, move)
        value = evaluate(after)[me]
        if value > best_value + 1e-9:
            best, best_value = [move], value
        elif value > best_value - 1e-9:
            best.append(move)
    return best


def ranked_candidates(s: GameState, rng: Random, per_card: int) -> list[tuple[float, Move]]:
    """Candidate moves (``per_card`` drawn actions per card) with their value for the mover, best first."""
    if core.active():
        return core.ranked_candidates(s, rng, per_card)
    from .bots.candidates import ranked_candidates as reference

    return reference(s, rng, per_card)


def score(s: GameState, ending: str) -> Result:
    """The result of ``s``, ended by ``ending``, with the engine's own scoring steps."""
    return core.score(s, ending) if core.active() else scoring.score(s, ending)
