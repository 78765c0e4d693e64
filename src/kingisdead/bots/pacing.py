"""A reserve of cards kept for the struggles still to come: the pace of the levels below strong.

Why. The greedy bots judge a move one move deep, by the heuristic's projection
(:mod:`kingisdead.evaluation`): every unresolved region as if it went to its
leader now. Nearly every card changes some projected leader, so nearly every
card looks like a gain; the next player's card changes it back and looks like
a gain too. A struggle ends only when every player passes in turn, so such
players spend card after card on the first struggle. Measured
(``benchmarks/eval_game_shape.py``, docs/bots.md): 80-90% of all cards went
on the first struggle of a 4-player game, as in random play, and with the
Mordred variant the emptied board let the Loyalists end nearly one game in
five by struggle 2. The search, which sees the answer coming, spent less than
half. A newcomer watching such a game sees a flurry of cards over regions
nobody is contesting yet, then struggles of passes.

The rule. A player holds 8 cards for 8 struggles. While a struggle is
contested, the paced bots keep :data:`RESERVE_SHARE` of an even share for
each struggle still to come after it: :func:`card_reserve` cards,
``floor(8 * later / 8 * 3/4)`` with ``later`` struggles after this one (5 on
the first struggle, so at most 3 cards go on it; none on the last). A card play
that would dip into the reserve becomes a pass. The one exception: when
passing would end the game at once with the player (or their team) losing,
there is nothing left to keep the cards for, and the card is played.

The bots' choice of card is their own (the same heuristic, the same seeded
draws): the paced greedy plays exactly greedy's move whenever it has a card
to spare. Measured (docs/bots.md): with the reserve the lower levels
spend about a third of their cards on the first struggle at every table size,
4-player Mordred games last about as long as the search's, and the paced
greedy beats the unpaced one (154 of 200 two-player games). A share of 1/2 or
1 was about as strong against the unpaced greedy; at 3/4 the first struggle
looks most like the search's.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from .. import engine
from ..board import HAND_SIZE, NUM_REGIONS
from ..moves import PASS, Move

if TYPE_CHECKING:
    from ..state import GameState

RESERVE_SHARE = Fraction(3, 4)
"""Share of an even spread of the starting hand over the struggles to come that the paced bots keep."""


def card_reserve(s: GameState) -> int:
    """Cards the player to move keeps for the struggles after the one now contested (0 on the last one)."""
    later = max(NUM_REGIONS - s.resolved - 1, 0)
    return int(HAND_SIZE * later * RESERVE_SHARE / NUM_REGIONS)


def paced(s: GameState, move: Move) -> Move:
    """``move``, or a pass where ``move`` is a card the player would keep (:func:`card_reserve`).

    A card is played all the same when passing would end the game at once with the player not among
    the winners: the reserve is for struggles that would then never come.
    """
    if move.is_pass:
        return move
    me = s.player
    if s.cards_left(me) > card_reserve(s):
        return move
    after = s.copy()
    engine.play(after, PASS)
    result = after.result
    if result is not None and me not in result.winners:
        return move
    return PASS
