"""The door to the rules: every rule question asks a function here, and only here is the engine picked.

Two engines implement the same rules: the compiled core (:mod:`kingisdead.core`,
the bridge to the Rust module ``kingisdead._core``) and the pure-Python
reference (:mod:`kingisdead.rules`, :mod:`kingisdead.cunning`, :mod:`kingisdead.lastcard`,
:mod:`kingisdead.legality`, :mod:`kingisdead.playout`, :mod:`kingisdead.scoring`,
:mod:`kingisdead.setup`). These nine modules are the engine; everything else
(the state's methods, the move builder, the bots, the web, the interfaces, the
command line) imports this module and never those (a test walks every module's
imports to keep it so). Which engine is in use is set once, by
``KINGISDEAD_ENGINE`` or :func:`use_engine`. Each function gives the same answer
on both engines (the test suite checks them against each other); the core is
simply faster. A few questions only the reference answers (the rule an illegal
move breaks, the result's sentences, the court calls on a board still being
built, the reference's seeded random play); they are asked here too, so that a
caller never needs to know which engine holds the answer. A call that names
its engine explicitly (the search's and the solver's ``engine=`` argument)
resolves it with :func:`chosen`; the compiled search and learning tools, which
have no reference twin, are re-exported here from :mod:`kingisdead.core`.
"""

from __future__ import annotations

from random import Random
from typing import TYPE_CHECKING

from . import core, lastcard, legality, rules, scoring
from . import playout as sampler
from .core import (  # noqa: F401  (re-exported: the engine's selection, and the compiled tools without a reference twin)
    NO_RULER,
    RandomOutcomes,
    check_environment,
    feature_count,
    features_batch,
    guided_search,
    network,
    random_outcomes,
    search,
    selfplay_game,
    solve,
    to_move,
    use_engine,
    vector_env,
)
from .moves import IllegalMoveError, Move, make_move
from .rules import UndoBan
from .setup import SetupDraws, check_setup_arguments, setup_from_seed

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


def require_compiled() -> None:
    """Raise RuntimeError when the compiled core is not built (for tools that need it whatever the
    engine in use: self-play, the vector environment)."""
    core.require()


def chosen(name: str | None) -> str:
    """The engine a call runs on: ``name`` if given (ValueError for an unknown one, RuntimeError for
    the core when it is not built), else the one in use."""
    return core.chosen(name)


def check_setup(players: int, variant: str, first_player: int, edition: Edition) -> None:
    """Raise ValueError for a player count, variant or first player that ``edition`` lacks."""
    check_setup_arguments(players, variant, first_player, edition)


def setup_draws(players: int, variant: str, first_player: int, edition: Edition) -> SetupDraws:
    """The setup as explicit random draws, one at a time (OpenSpiel's chance nodes): the draws
    :func:`new_game` makes from a seed (ValueError as :func:`check_setup`)."""
    return SetupDraws(players, variant, first_player, edition)


def new_game(players: int, variant: str, seed: int, first_player: int, edition: Edition) -> GameState:
    """The game ``seed`` sets up in ``edition`` (ValueError for a player count, variant or
    first player the game lacks)."""
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


def check_move(s: GameState, move: Move) -> Move:
    """``move`` in its canonical spelling when it is legal in ``s``; IllegalMoveError naming the rule
    it breaks otherwise. The core judges; only a move it refuses is put to the reference, whose
    errors name the rule (so the words are the same on both engines)."""
    if _core_readable(move) and core.is_legal(s, move):
        return make_move(move.card, move.action, move.court)
    checked = legality.check_move(s, move)
    if core.active():  # the engines disagree: a bug, said as such rather than played
        raise IllegalMoveError(f"the compiled core refuses {move!r}, which the reference allows")
    return checked


def is_legal(s: GameState, move: Move) -> bool:
    """Whether ``move`` is legal in ``s`` (False for anything that is not a move of this game)."""
    if core.active():
        return core.is_legal(s, move)
    try:
        legality.check_move(s, move)
    except ValueError:
        return False
    return True


def _core_readable(move: Move) -> bool:
    """Whether the core is in use and ``move`` is a Move whose fields it can read as they are."""
    return (core.active() and isinstance(move, Move) and type(move.action) is tuple
            and (move.court is None or type(move.court) is tuple))


def apply(s: GameState, move: Move) -> None:
    """Judge ``move`` and play it on ``s`` in place: IllegalMoveError naming the rule it breaks (``s`` unchanged)
    when it is not legal. With the core one call judges and plays (it refuses an illegal move); only a refused
    move is judged again, by :func:`check_move`, to name the rule."""
    if not _core_readable(move):
        play(s, check_move(s, move))
        return
    try:
        after = core.play(s, move)
    except (ValueError, TypeError, OverflowError):
        check_move(s, move)  # raises, naming the rule
        raise IllegalMoveError(f"the compiled core refuses to play {move!r}, which it finds legal") from None
    _take(s, after)


def play(s: GameState, move: Move) -> None:
    """Play ``move``, known to be legal (see :func:`check_move`), on ``s`` in place (the core raises
    ValueError for an illegal one; the reference does not check)."""
    if core.active():
        _take(s, core.play(s, move))
    else:
        rules.play(s, move)


def _take(s: GameState, after: GameState) -> None:
    """Make ``s`` the position ``after`` (in place: callers hold ``s``)."""
    for field in type(s).__slots__:
        setattr(s, field, getattr(after, field))


def sample_move(s: GameState, rng: Random) -> Move:
    """A random legal move from the fast sampler, without listing them all; ``s`` is unchanged."""
    return core.sample_move(s, rng) if core.active() else sampler.sample_move(s, rng)


def playout(s: GameState, rng: Random) -> tuple[list[Move], GameState]:
    """Random moves from the fast sampler to the end: the moves and the final state (``s`` is unchanged)."""
    if core.active():
        return core.playout(s, rng)
    final = s.copy()
    moves = []
    while final.result is None:
        moves.append(sampler.play_random(final, rng))
    return moves, final


def play_unchecked(s: GameState, move: Move) -> None:
    """Play ``move`` on ``s`` in place without any check, as the reference does: for the preview of a
    move still being built (an action whose court call is not chosen yet), which the core, playing
    only whole legal moves, refuses. The state is for showing (its view, with what every player passing
    from it would bring), never for a game to go on with."""
    rules.play(s, move)


def play_random(s: GameState, rng: Random) -> Move:
    """Play, on ``s`` in place, the random legal move the reference's sampler draws from ``rng``; the
    move. The same draws on both engines (the Python search's rollouts replay by their seed; the
    core's own sampler, :func:`sample_move`, draws differently)."""
    return sampler.play_random(s, rng)


def play_card(s: GameState, card: int, action: tuple[int, ...]) -> None:
    """Play ``card`` with ``action`` (legal) from the mover's hand on ``s`` in place, without the court
    call and without passing the turn: the state a court call is then chosen in."""
    rules.play_card(s, card, action)


def finish_turn(s: GameState, court: tuple[int, int] | None) -> None:
    """End the mover's turn on ``s`` in place after :func:`play_card`: the court call ``(region, faction)``
    (one of :func:`court_calls`, or None where there is none), then the next player to move."""
    rules.finish_turn(s, court)


def court_calls(s: GameState) -> list[tuple[int, int]]:
    """The court calls open on ``s``'s board: ``(region, faction)`` in the rules' order."""
    return rules.court_options(s.board, s.open)


def court_calls_after(s: GameState, card: int, action: tuple[int, ...]) -> list[tuple[int, int]]:
    """The court calls open once ``card``'s (legal, canonical) ``action`` has moved its followers,
    before the last-card rule (see :func:`legal_moves` for what that leaves)."""
    return rules.court_options_after(s, card, action)


def faction_targets(s: GameState, faction: int) -> tuple[int, ...]:
    """The unresolved regions ``faction``'s followers may be placed in now (by the Settlements cards)."""
    return rules.faction_targets(s, faction)


def undo_ban(edition: Edition, player: int, reverse: tuple[int, ...]) -> UndoBan | None:
    """The undo ban :attr:`GameState.undo_ban` keeps when the others may not make the exchange
    ``reverse`` (an action tuple) that undoes ``player``'s last one: judged by effect, the one
    spelling of its effect, or None for an exchange that changes nothing (a swap within one
    faction); under ``reversal="exact"`` the literal ``reverse``. Both engines keep this form."""
    return rules.ban_on(edition, player, tuple(reverse))


def last_card_applies(s: GameState) -> bool:
    """Whether the last-card rule binds the player to move."""
    return core.last_card_applies(s) if core.active() else lastcard.last_card_applies(s)


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
    """Candidate moves (``per_card`` drawn actions per card) with their value for the mover, best first
    (the reference's in the advanced game: the core's candidates, like its search, know the standard cards)."""
    if core.active() and not s.edition.advanced:
        return core.ranked_candidates(s, rng, per_card)
    from .bots.candidates import ranked_candidates as reference

    return reference(s, rng, per_card)


def faction_ranking(s: GameState) -> list[list[int]]:
    """The factions in groups of equal rank, strongest first (:func:`kingisdead.scoring.faction_ranking`;
    the reference answers on both engines: the end screen's table of factions asks it)."""
    return scoring.faction_ranking(s)


def score(s: GameState, ending: str) -> Result:
    """The result of ``s`` ended by ``ending`` (``"coronation"``, ``"invasion"`` or ``"mordred"``),
    with the engine's own scoring steps (:class:`kingisdead.scoring.Step`)."""
    return core.score(s, ending) if core.active() else scoring.score(s, ending)
