"""Hints and game analysis: ranked moves with a win chance, and the cost of each move in a record.

Both come from the search bot's tree (:mod:`kingisdead.bots.mcts`): the win
chance of a move is the mean reward the search saw after it, for the player
who moves (1 a win, 0 a loss; the heuristic's judgement, rescaled to 0-1, where
the search stopped before the end). With two players and few cards left the
exact solver's verdict is added. Estimates from a short search are rough: the
more visits a move got, the more its figure means.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from random import Random
from typing import Any

from . import engine
from .bots import SearchBot
from .bots.budget import Budget
from .bots.determinised import determinised_search
from .bots.mcts import SearchResult, only_move, search
from .bots.solver import Solution, solvable, solve
from .moves import Move
from .record import GameRecord
from .scoring import Result
from .state import GameState

DEFAULT_BUDGET = Budget(iterations=2000)
"""About 15 ms a position in the compiled core (a 76-move game in about a second)."""
ALTERNATIVES = 3
"""Moves kept per analysed position besides the one played (:attr:`MoveAnnotation.alternatives`)."""
SOLVER_NODES = 50_000
"""Nodes the exact solver may visit per analysed position (small endgames prove in far fewer)."""
LINE_BUDGET = Budget(iterations=200)
"""The search per move of a best line (:func:`best_line`): about 1.5 ms a move in the compiled core."""


@dataclass(frozen=True)
class MoveEstimate:
    move: str
    """The move in the notation of the game's edition."""
    win_chance: float
    """Estimated chance that the mover wins after this move (0-1)."""
    visits: int
    """How often the search looked at the move (its figure's weight)."""


@dataclass(frozen=True)
class PositionAnalysis:
    player: int
    """Seat to move (0-based)."""
    moves: list[MoveEstimate]
    """The moves the search considered, best first."""
    exact: int | None
    """With two players and few cards left: +1 the mover wins with best play, 0 a shared win, -1 a loss."""
    exact_move: str | None
    iterations: int
    seconds: float

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class MoveAnnotation:
    number: int
    """1-based move number in the record."""
    player: int
    played: str
    best: str
    played_chance: float
    best_chance: float
    loss: float
    """How much win chance the played move gave away against the best one found (0 if it was the best)."""
    forced: bool
    """True when the player had no choice (no card left: pass)."""
    alternatives: tuple[MoveEstimate, ...] = ()
    """The moves the search ranked first (up to ALTERNATIVES, the best one included), to offer as choices."""


@dataclass(frozen=True)
class StruggleOutcome:
    """A struggle resolved along a line."""

    number: int
    """1-based: the struggle's place in the game (1-8)."""
    region: int
    ruler: int
    """Who took the region: 0-2 a faction, 3 the Loyalists, 4 the invaders (Saxons, or instability)."""


@dataclass(frozen=True)
class Line:
    """A move and what the engine expects to follow it: the consequences a hint's reason is drawn from."""

    moves: tuple[str, ...]
    """The move judged, then the search's choice for every player in turn, to the end of the game."""
    struggles: tuple[StruggleOutcome, ...]
    """The struggles resolved along the line, in order."""
    result: Result
    """How the line ends: the ending, the winners and the comparisons that decided (:class:`Result`)."""
    ends_at: int
    """The struggles resolved when the line ends (the game's last struggle, 1-8; 0 if none)."""


def best_line(state: GameState, move: Move, budget: Budget = LINE_BUDGET, seed: int = 0) -> Line:
    """``move`` played in ``state``, then the search's best move for whoever is to move, to the game's end.

    Every player plays the search's choice with ``budget`` (the search's idea of best play, so a
    short budget gives a rough line), and from where the exact solver proves the game within
    ``SOLVER_NODES`` nodes (two players, few cards left) its move: there the line is best play.
    One seed decides it all, so a line repeats exactly. In the advanced game the line is played in
    one deal of the hidden cards drawn from the mover's view (the mover cannot know the real one).
    Raises ValueError for a finished game and IllegalMoveError for an illegal ``move``.
    """
    if state.is_over():
        raise ValueError("the game is over: there is no line to follow")
    rng = Random(seed)
    s = (state.view(state.player).sample(rng) if state.edition.advanced else state).after(move)
    moves = [state.notation(move)]
    struggles = [StruggleOutcome(n + 1, s.order[n], s.control[s.order[n]]) for n in range(state.resolved, s.resolved)]
    while (result := s.result) is None:
        chosen = only_move(s) or _solved(s) or search(s, budget, rng).best
        resolved = s.resolved
        moves.append(s.notation(chosen))
        s.apply(chosen)
        struggles += [StruggleOutcome(n + 1, s.order[n], s.control[s.order[n]]) for n in range(resolved, s.resolved)]
    return Line(tuple(moves), tuple(struggles), result, s.resolved)


def _solved(state: GameState) -> Move | None:
    """The exact solver's best move where it proves the game within SOLVER_NODES nodes, else None."""
    solution = _solution(state, SOLVER_NODES)
    return None if solution is None else solution.move


def _solution(state: GameState, solver_nodes: int) -> Solution | None:
    """The exact solver's proof where the position is small enough for the engine in use (the search bot's
    limits) and a proof takes at most ``solver_nodes`` nodes, else None; None in the advanced game, whose
    deals the solver does not play."""
    if state.edition.advanced:
        return None
    cards, nodes = SearchBot.solver_limits[engine.name()]
    return solve(state, min(nodes, solver_nodes)) if solvable(state, cards) else None


def analyse_position(state: GameState, budget: Budget = DEFAULT_BUDGET, seed: int = 0,
                     top: int | None = None, include: tuple[Move, ...] = (),
                     solver_nodes: int = SOLVER_NODES) -> PositionAnalysis:
    """Rank moves for the player to move with an estimated win chance (best first), in the edition's notation.

    With two players and few cards left, the exact solver gets up to
    ``solver_nodes`` nodes first (a node budget, not a time limit, so that an
    analysis repeats exactly); a proof it finds is added as ``exact``. In the
    advanced game the search is the mover's own (:func:`determinised_search`
    over deals drawn from their view) and no proof is sought (it would read the
    hidden hands).
    """
    if state.is_over():
        raise ValueError("the game is over: there is no move to analyse")
    exact = exact_move = None
    result: SearchResult
    if state.edition.advanced:
        result = determinised_search(state.view(state.player), budget, Random(seed), include=include)
    else:
        solution = _solution(state, solver_nodes)
        if solution is not None:
            exact, exact_move = solution.value, solution.move
            include = (*include, solution.move)
        result = search(state, budget, Random(seed), include=include)
    ranked = sorted(result.moves, key=lambda m: (-m.visits, -m.value))
    estimates = [MoveEstimate(state.notation(m.move), round(m.value, 4), m.visits) for m in ranked]
    if exact_move is not None and exact is not None:
        # The proof outranks sampling: the proven move goes first, with its exact chance,
        # and no other move can be worth more than best play (in a proven loss, every move loses).
        proven = state.notation(exact_move)
        best = (exact + 1) / 2
        estimates = [MoveEstimate(e.move, best if e.move == proven else min(e.win_chance, best), e.visits)
                     for e in estimates]
        estimates.sort(key=lambda e: e.move != proven)
    return PositionAnalysis(state.player, estimates[:top] if top else estimates, exact,
                            None if exact_move is None else state.notation(exact_move),
                            result.iterations, round(result.seconds, 3))


def analyse_record(record: GameRecord, budget: Budget = DEFAULT_BUDGET, seed: int = 0) -> list[MoveAnnotation]:
    """Every move of a record with the best alternative found and the win chance it lost."""
    state = record.start()
    notes = []
    for number, text in enumerate(record.moves, start=1):
        move = state.parse(text)
        player = state.player
        if only_move(state) is not None:
            notes.append(MoveAnnotation(number, player, text, text, 0.0, 0.0, 0.0, True))
        else:
            analysis = analyse_position(state, budget, seed + number, include=(move,))
            played = state.notation(move)
            chances = {e.move: e.win_chance for e in analysis.moves}
            best = analysis.moves[0]
            played_chance = chances.get(played, 0.0)
            loss = max(0.0, best.win_chance - played_chance) if best.move != played else 0.0
            notes.append(MoveAnnotation(number, player, played, best.move, played_chance, best.win_chance,
                                        round(loss, 4), False, tuple(analysis.moves[:ALTERNATIVES])))
        state.apply(move)
    return notes


def load(text: str) -> GameRecord | GameState:
    """A record or a position from its JSON text (told apart by its ``format``)."""
    from . import position

    data = json.loads(text)
    if isinstance(data, dict) and data.get("format") == "kingisdead-record":
        return GameRecord.from_dict(data)
    return position.from_dict(data)
