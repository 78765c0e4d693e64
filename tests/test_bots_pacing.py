"""The levels below strong keep a reserve of cards for the struggles to come (issue 30, point 9).

Before, three intermediate bots spent about nine cards in ten on the first struggle of a 4-player game and
Mordred's rebellion ended one game in five by struggle 2 (benchmarks/eval_game_shape.py, docs/bots.md).
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from kingisdead import GameState
from kingisdead.bots import (
    CarelessBot,
    GreedyBot,
    PacedCarelessBot,
    PacedGreedyBot,
    make_bot,
)
from kingisdead.bots.pacing import card_reserve, paced
from kingisdead.moves import PASS
from positions import FULL_HAND, build

CARDS = 8


def first_struggle_shape(level: str, players: int, variant: str, seeds: range) -> tuple[list[float], list[tuple[int, str]]]:
    """Per game: the share of all cards played on struggle 1, and (struggles resolved, ending)."""
    shares, ends = [], []
    for seed in seeds:
        state = GameState.new(players, variant, seed)
        bots = [make_bot(level, seed * 10 + seat) for seat in range(players)]
        on_first = None
        while not state.is_over():
            state.apply(bots[state.player].choose(state))
            if on_first is None and state.resolved >= 1:
                on_first = players * CARDS - sum(state.hands)
        assert state.result is not None
        shares.append((on_first if on_first is not None else players * CARDS - sum(state.hands)) / (players * CARDS))
        ends.append((state.resolved, state.result.ending))
    return shares, ends


@pytest.mark.parametrize("level", ["beginner", "intermediate"])
def test_four_player_mordred_games_keep_cards_for_later_struggles(level):
    """The newcomer's game (4 players, Mordred): the old intermediate (greedy) spent 88% of all cards on struggle 1
    over these seeds and 5 of the 20 games were over by struggle 2; the old beginner (careless) spent 76%."""
    shares, ends = first_struggle_shape(level, 4, "mordred", range(7000, 7020))
    assert sum(shares) / len(shares) < 0.5
    assert max(shares) <= 0.5
    assert sum(resolved <= 2 and ending == "mordred" for resolved, ending in ends) <= 2
    assert sum(resolved >= 5 for resolved, _ in ends) >= 12  # most games reach the second half


def test_the_old_greedy_still_spends_its_hand_on_the_first_struggle():
    """The measurement above tells the two apart: the unpaced greedy (still the ``greedy`` bot) fails it."""
    shares, _ = first_struggle_shape("greedy", 4, "mordred", range(7000, 7010))
    assert sum(shares) / len(shares) > 0.75


def test_the_reserve_by_struggle():
    """8 cards for 8 struggles, three quarters of an even share kept for the struggles after this one."""
    assert [card_reserve(SimpleNamespace(resolved=r)) for r in range(8)] == [5, 4, 3, 3, 2, 1, 0, 0]


def first_struggle(hand: list[str], passes: int = 0, variant: str = "standard", opponent_court: str = "SW") -> GameState:
    """Struggle 1 of a 2-player game, seat 0 to move holding ``hand``; Caledonia (contested) held by 3 Scots (by
    2 Loyalists in the Mordred variant)."""
    regions = {"Cal": "SSS", "Din": "SW", "Ebo": "WR", "Dev": "SW", "Cae": "WW", "Rat": "RS", "Lon": "RR", "Aqu": "WR"}
    if variant == "mordred":
        regions |= {"Cal": "LL", "Din": "SWL"}
    return build(2, variant, regions=regions, order=["Cal", "Din", "Ebo", "Dev", "Cae", "Rat", "Lon", "Aqu"],
                 courts=["SW", opponent_court], hands=[hand, FULL_HAND[:6]], played_order=[0, 1], to_move=0,
                 passes=passes)


def test_a_card_that_would_dip_into_the_reserve_is_kept():
    """Three Scots hold Caledonia, the contested region, and the card greedy likes (a Garrison between Ratae and
    Aquae Sulis, far down the order) leaves it alone: the paced bot keeps its 5 cards (the first struggle's
    reserve) and passes. With a sixth card to spare it plays greedy's own move."""
    at_reserve = first_struggle(FULL_HAND[:5])
    greedy = GreedyBot(1).choose(at_reserve)
    assert not greedy.is_pass
    after = at_reserve.copy()
    after.apply(greedy)
    contested = at_reserve.order[0] * 4
    assert after.board[contested:contested + 4] == at_reserve.board[contested:contested + 4] == [3, 0, 0, 0]
    assert PacedGreedyBot(1).choose(at_reserve) == PASS
    assert paced(at_reserve, greedy) == PASS

    spare = first_struggle(FULL_HAND[:6])
    assert PacedGreedyBot(1).choose(spare) == GreedyBot(1).choose(spare) != PASS
    assert PacedCarelessBot(4).choose(spare) == CarelessBot(4).choose(spare)


def test_the_reserve_is_spent_when_passing_loses_the_game_at_once():
    """Mordred: the opponent has passed and two Loyalists hold the contested region, so a pass ends the game
    with the opponent ahead at court. No later struggle to keep cards for: the card is played."""
    doomed = first_struggle(FULL_HAND[:5], passes=1, variant="mordred", opponent_court="SWRS")
    after = doomed.copy()
    after.apply(PASS)
    assert after.result is not None and after.result.ending == "mordred" and after.result.winners == (1,)
    move = PacedGreedyBot(1).choose(doomed)
    assert not move.is_pass and move == GreedyBot(1).choose(doomed)
    # The same position without the opponent's pass: the struggle goes on, the reserve is kept.
    assert PacedGreedyBot(1).choose(first_struggle(FULL_HAND[:5], variant="mordred", opponent_court="SWRS")) == PASS


def test_levels_below_strong_are_the_paced_bots_and_the_plain_ones_remain():
    assert isinstance(make_bot("beginner"), PacedCarelessBot)
    assert isinstance(make_bot("intermediate"), PacedGreedyBot)
    assert type(make_bot("greedy")) is GreedyBot and type(make_bot("careless")) is CarelessBot
    assert isinstance(make_bot("paced-greedy"), PacedGreedyBot)


@pytest.mark.parametrize("level", ["beginner", "intermediate"])
def test_one_seed_decides_every_draw(level):
    def game() -> list:
        state = GameState.new(3, "mordred", 11)
        bots = [make_bot(level, 110 + seat) for seat in range(3)]
        moves = []
        while not state.is_over():
            moves.append(bots[state.player].choose(state))
            state.apply(moves[-1])
        return moves

    assert game() == game()
