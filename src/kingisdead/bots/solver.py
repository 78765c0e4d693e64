"""Exact endgame solver for two players: the result with best play from both sides.

The game has no chance after the setup and players alternate strictly with two
players, so a plain negamax over ``legal_moves`` with alpha-beta pruning and a
transposition table proves the result. Values are from the point of view of
the player to move: +1 a win, 0 a shared win (both tied and neither played a
card), -1 a loss. Only three values exist, so most branches are cut at once.

The tree grows with the cards still in hand (each card play has up to a few
hundred moves), so the solver gives up, returning None, after a node limit.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .. import engine
from ..engine import chosen, to_move
from ..engine import solve as _core_solve
from ..evaluation import evaluate
from ..moves import PASS, Move

if TYPE_CHECKING:
    from ..state import GameState

EXACT, LOWER, UPPER = 0, 1, 2


@dataclass(frozen=True)
class Solution:
    value: int
    """+1: the player to move wins with best play; 0: a shared win; -1: a loss."""
    move: Move
    """A move that achieves ``value``."""
    nodes: int


class _OutOfNodes(Exception):
    pass


def terminal_value(s: GameState) -> int:
    """The finished game's value for the player whose turn it would be."""
    return terminal_value_for(s, s.player)


def terminal_value_for(s: GameState, player: int) -> int:
    """The finished game's value for ``player`` (+1, 0 or -1)."""
    winners = s._result.winners  # type: ignore[union-attr]
    me = player in winners
    other = (player + 1) % 2 in winners
    return 0 if me and other else 1 if me else -1


def cards_left(s: GameState) -> int:
    return sum(s.hands)


def solvable(s: GameState, max_cards: int) -> bool:
    """Whether the solver is worth trying: two players, game running, at most ``max_cards`` in all hands."""
    return s.players == 2 and s._result is None and cards_left(s) <= max_cards


class Solver:
    """Negamax with alpha-beta and a transposition table, for one root position."""

    def __init__(self, node_limit: int, seconds: float | None = None) -> None:
        self.node_limit = node_limit
        self.deadline = time.perf_counter() + seconds if seconds is not None else math.inf
        self.nodes = 0
        self.table: dict[tuple, tuple[int, int]] = {}

    def solve(self, s: GameState) -> Solution | None:
        if s.players != 2:
            raise ValueError("the exact solver is for two players")
        if s._result is not None:
            raise ValueError("the game is over: there is nothing to solve")
        try:
            alpha, best = -2, None
            for move, child in self._children(s):
                value = -self._negamax(child, -1, min(1, -alpha))  # values lie in [-1, 1]
                if value > alpha:
                    alpha, best = value, move
                    if alpha == 1:
                        break
        except _OutOfNodes:
            return None
        assert best is not None
        return Solution(alpha, best, self.nodes)

    def _children(self, s: GameState) -> list[tuple[Move, GameState]]:
        """Each legal move with the state after it, the heuristic's favourites first (for early cuts)."""
        me = s.player
        if not any(s.hands[me * 7:me * 7 + 7]):
            after = s.copy()
            engine.play(after, PASS)
            return [(PASS, after)]
        scored = []
        seen = set()
        for move in engine.legal_moves(s):
            after = s.copy()
            engine.play(after, move)
            key = after.key()
            if key in seen:  # another move already leads to this very position
                continue
            seen.add(key)
            value = 2.0 * terminal_value_for(after, me) if after._result is not None else evaluate(after)[me]
            scored.append((value, move, after))
        scored.sort(key=lambda x: -x[0])
        return [(move, after) for _, move, after in scored]

    def _negamax(self, s: GameState, alpha: int, beta: int) -> int:
        if s._result is not None:
            return terminal_value(s)
        self.nodes += 1
        if self.nodes > self.node_limit or (self.nodes & 255 == 0 and time.perf_counter() > self.deadline):
            raise _OutOfNodes
        key = s.key()
        entry = self.table.get(key)
        if entry is not None:
            value, flag = entry
            if flag == EXACT:
                return value
            if flag == LOWER:
                alpha = max(alpha, value)
            else:
                beta = min(beta, value)
            if alpha >= beta:
                return value
        original_alpha = alpha
        best = -2
        for _, child in self._children(s):
            value = -self._negamax(child, -beta, -alpha)
            if value > best:
                best = value
                if best > alpha:
                    alpha = best
                    if alpha >= beta:
                        break
        flag = UPPER if best <= original_alpha else LOWER if best >= beta else EXACT
        self.table[key] = (best, flag)
        return best


def solve(s: GameState, node_limit: int = 200_000, seconds: float | None = None,
          engine: str | None = None) -> Solution | None:
    """The exact value and a best move for the player to move, or None past ``node_limit`` nodes or ``seconds``.

    The compiled core solves when it is the engine in use (:mod:`kingisdead.core`),
    with the GIL released; :class:`Solver` is the reference (``engine="reference"``
    asks for it). Raises ValueError for a game that is over or not a 2-player game.
    """
    if chosen(engine) == "core":
        solution = _core_solve(s, node_limit, seconds)
        if solution is None:
            return None
        value, move, nodes = solution
        return Solution(value, to_move(move), nodes)
    return Solver(node_limit, seconds).solve(s)
