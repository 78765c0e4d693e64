"""A quick judgement of who is on course to win, for greedy play and search.

The projection assumes every unresolved region goes to the faction now
leading in it (a tie or an empty region to the Saxons), ranks the factions as
the coronation would, and scores each player by how far they lead the others
in the followers that matter. It is a heuristic, not a rule.

Search calls :func:`evaluate` hundreds of thousands of times a move, so it
reads the state's flat lists directly and avoids building intermediate lists.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from .board import NUM_REGIONS, SAXONS

if TYPE_CHECKING:
    from .state import GameState

CARD_VALUE = 1.02
"""Worth of a card in hand, in followers of the ruling faction.

Just above one follower: a card whose only gain is the follower it calls to
court is worth keeping (passing), since whoever holds cards late decides the
last struggles. Measured: greedy play over drawn moves beat random play in
about 90% of 2-player games with this value, against about 70% with 0.4
or 1.2 (docs/bots.md).
"""
PROJECTED_WEIGHT = 0.8
"""How much a region counts while only projected (a resolved one counts 1)."""
SPREAD = 3.0
"""Lead in weighted followers that makes a position about 76% won (tanh(1))."""


def _leader(board: list[int], region: int) -> int:
    """Who would win the region's struggle now: the strictly largest kind, else the Saxons."""
    base = region * 4
    a, b, c, d = board[base], board[base + 1], board[base + 2], board[base + 3]
    best = max(a, b, c, d)
    if best == 0:
        return SAXONS
    if (a == best) + (b == best) + (c == best) + (d == best) > 1:
        return SAXONS
    return 0 if a == best else 1 if b == best else 2 if c == best else 3


def projected_control(s: GameState) -> list[int]:
    """Control of every region if each unresolved one went to its current leader."""
    control = s.control
    return [control[r] if control[r] >= 0 else _leader(s.board, r) for r in range(NUM_REGIONS)]


def strengths(s: GameState) -> list[float]:
    """Each player's weighted court plus cards in hand (teams pooled with 4 players)."""
    n = s.players
    control, board, courts, hands = s.control, s.board, s.courts, s.hands
    held = [0, 0, 0, 0, 0]
    projected = [0, 0, 0, 0, 0]
    for r in range(NUM_REGIONS):
        c = control[r]
        if c >= 0:
            held[c] += 1
        else:
            projected[_leader(board, r)] += 1
    if held[SAXONS] + projected[SAXONS] >= s.edition.invasion:
        # Heading for an invasion: complete sets decide, and followers towards them count a little.
        strength = []
        for p in range(n):
            a, b, c = courts[p * 3], courts[p * 3 + 1], courts[p * 3 + 2]
            strength.append(min(a, b, c) * 2.0 + (a + b + c) * 0.2)
    else:
        expected = [held[f] + PROJECTED_WEIGHT * projected[f] for f in range(3)]
        top = max(expected) or 1.0
        w0, w1, w2 = ((e / top) ** 3 for e in expected)
        strength = [w0 * courts[p * 3] + w1 * courts[p * 3 + 1] + w2 * courts[p * 3 + 2] for p in range(n)]
    for p in range(n):
        strength[p] += CARD_VALUE * (sum(hands[p * 7:p * 7 + 7]) + s.cunning[p].bit_count())
    if n == 4:
        team = (strength[0] + strength[2], strength[1] + strength[3])
        strength = [team[0], team[1], team[0], team[1]]
    return strength


def evaluate(s: GameState) -> list[float]:
    """A value per player in [-1, 1], higher is better.

    A finished game gives +1 to winners and -1 to the others (as the RL
    rewards do). A running one compares players' courts, each faction weighted
    by how likely it is to rule (resolved regions count fully, projected ones
    :data:`PROJECTED_WEIGHT`), plus :data:`CARD_VALUE` for every card still in
    hand: a card kept is a chance to have the last word in a struggle.
    """
    n = s.players
    result = s._result
    if result is not None:
        return [1.0 if p in result.winners else -1.0 for p in range(n)]
    strength = strengths(s)
    values = []
    for p in range(n):
        rival = max(strength[q] for q in range(n) if q != p and (n != 4 or q % 2 != p % 2))
        values.append(0.95 * math.tanh((strength[p] - rival) / SPREAD))
    return values
