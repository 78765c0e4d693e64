"""A quick judgement of who is on course to win, for greedy play and search.

The projection assumes every unresolved region goes to the faction now
leading in it (a tie or an empty region to the Saxons), ranks the factions as
the coronation would, and scores each player by how far they lead the others
in the followers that matter. It is a heuristic, not a rule.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from .board import NUM_REGIONS, SAXON_INVASION, SAXONS

if TYPE_CHECKING:
    from .state import GameState

CARD_VALUE = 0.4
"""Worth of a card in hand, in followers of the ruling faction."""


def projected_control(s: GameState) -> list[int]:
    """Control of every region if each unresolved one went to its current leader."""
    control = s.control[:]
    board = s.board
    for r in range(NUM_REGIONS):
        if control[r] < 0:
            counts = board[r * 4:r * 4 + 4]
            best = max(counts)
            control[r] = counts.index(best) if best and counts.count(best) == 1 else SAXONS
    return control


def evaluate(s: GameState) -> list[float]:
    """A value per player in [-1, 1], higher is better.

    A finished game gives +1 to winners and -1 to the others (as the RL
    rewards do). A running one compares players' courts, each faction weighted
    by how likely it is to rule (resolved regions count fully, projected ones
    half), plus a little for every card still in hand: a card kept is a chance
    to have the last word in a struggle.
    """
    n = s.players
    result = s.result
    if result is not None:
        return [1.0 if p in result.winners else -1.0 for p in range(n)]
    projected = projected_control(s)
    courts, control = s.courts, s.control
    if projected.count(SAXONS) >= SAXON_INVASION:
        strength = [min(courts[p * 3:p * 3 + 3]) * 2.0 + sum(courts[p * 3:p * 3 + 3]) * 0.2 for p in range(n)]
    else:
        expected = [control.count(f) + 0.5 * (projected.count(f) - control.count(f)) for f in range(3)]
        top = max(expected) or 1.0
        weights = [(e / top) ** 3 for e in expected]
        strength = [sum(weights[f] * courts[p * 3 + f] for f in range(3)) for p in range(n)]
    strength = [strength[p] + CARD_VALUE * sum(s.hands[p * 7:p * 7 + 7]) for p in range(n)]
    if n == 4:
        team = [strength[0] + strength[2], strength[1] + strength[3]]
        strength = [team[p % 2] for p in range(4)]
    values = []
    for p in range(n):
        rival = max(strength[q] for q in range(n) if q != p and (n != 4 or q % 2 != p % 2))
        values.append(0.95 * math.tanh((strength[p] - rival) / 3.0))
    return values
