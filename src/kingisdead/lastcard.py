"""The 3-player last card (the first edition's rule; the second edition's option ``last_card="must_win"``).

With three players, the last card of the game may only be played by a move that
wins the game outright once everyone passes to the end. The reference of the
compiled core's ``core/src/lastcard.rs``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import cunning, rules
from .board import FIRST_CUNNING, LOYALISTS, MORDRED_FLAGS, NUM_REGIONS, SAXONS, Card, Cunning

if TYPE_CHECKING:
    from .moves import Move
    from .state import GameState

ALL_REGIONS = (1 << NUM_REGIONS) - 1
PLAYABLE_CUNNING = ~(1 << (Cunning.PLOT - FIRST_CUNNING))
"""The mask that keeps a hand's Cunning cards but Plot, which is never played."""


def last_card_applies(s: GameState) -> bool:
    """3 players, the player to move holds the one card left to play, every other hand is empty, and the
    edition's ``last_card`` is ``"must_win"`` (the first edition's rule; the second edition's default is
    ``"free"``: "a card may always be played").

    In the advanced game the Cunning cards count; Plot, never played, is not the mover's card to play, but
    another hand that holds only Plot is not empty: which card a hand holds is secret, so the rule binds on
    what the table sees (the other hands' counts), never on another seat's hidden cards.
    """
    p = s.player
    return (s.edition.last_card == "must_win" and s.players == 3 and _playable(s, p) == 1
            and all(s.cards_left(other) == 0 for other in range(3) if other != p))


def _playable(s: GameState, player: int) -> int:
    """The cards ``player`` can still play."""
    return sum(s.hands[player * 7:player * 7 + 7]) + (s.cunning[player] & PLAYABLE_CUNNING).bit_count()


def wins_outright(s: GameState, move: Move, memo: dict[tuple, bool] | None = None) -> bool:
    """Whether the mover wins the game that follows when everyone passes to the end.

    ``memo`` shares work between moves whose remaining struggles end alike and
    that call the same faction to court (all the final scoring can tell apart).
    """
    card, action, court = move.card, move.action, move.court
    board, order = s.board[:], s.order
    if card is not None and card >= FIRST_CUNNING:
        after = s.copy()
        cunning.carry_out(after, card, action)
        board, order = after.board, after.order
    elif card == Card.CROWN and action:
        order = order[:]
        i, j = order.index(action[0]), order.index(action[1])
        order[i], order[j] = order[j], order[i]
    elif card is not None:
        rules.move_followers(board, s.stock[:], card, action)
    if court is not None:
        board[court[0] * 4 + court[1]] -= 1
    key = (_remaining_outcomes(s, board, order), None if court is None else court[1])
    if memo is not None and key in memo:
        return memo[key]
    after = s.copy()
    rules.play(after, move)
    while after._result is None:
        rules.resolve(after)  # every player passes: each struggle ends in turn
    wins = after._result.winners == (s.player,)
    if memo is not None:
        memo[key] = wins
    return wins


def _remaining_outcomes(s: GameState, board: list[int], order: list[int]) -> tuple[int, ...]:
    """Who wins each remaining struggle, in order, if every player passes from now on.

    ``board`` and ``order`` are those after the move (``board`` is modified).
    """
    outcomes = []
    saxons, loyalists, resolved = s.saxons, s.stock[LOYALISTS], ~s.open & ALL_REGIONS
    for position in range(s.resolved, NUM_REGIONS):
        region = order[position]
        counts = board[region * 4:region * 4 + 4]
        best = max(counts)
        winner = counts.index(best) if best and counts.count(best) == 1 else SAXONS
        outcomes.append(winner)
        resolved |= 1 << region
        if winner == SAXONS:
            saxons += 1
            if saxons >= s.edition.invasion:
                break
        elif winner == LOYALISTS:
            break
        flag = MORDRED_FLAGS[region]
        if s.mordred and loyalists and not resolved >> flag & 1:
            loyalists -= 1
            board[flag * 4 + LOYALISTS] += 1
    return tuple(outcomes)
