"""Each counted rule guarded from both sides of its threshold, in both engines.

An engine off by one (ending at the third Saxon token, dealing one card more
or fewer, resolving a struggle one pass early or late, a Loyalist too many)
fails one of these tests.
"""

from __future__ import annotations

import pytest
from positions import build

from kingisdead import GameState
from kingisdead.board import NUM_REGIONS

pytestmark = pytest.mark.usefixtures("each_engine")


def test_the_third_saxon_token_does_not_end_the_game(each_engine):
    s = build(control={"Cal": "X", "Din": "X", "Ebo": "S"}, regions={"Dev": "SW", "Rat": "SS"},
              order=["Dev"], courts=["SWR", "S"])
    s.apply("pass").apply("pass")
    assert s.saxons == 3 and s.resolved == 4
    assert not s.is_over() and s.legal_moves()


def test_the_fourth_saxon_token_ends_the_game(each_engine):
    s = build(control={"Cal": "X", "Din": "X", "Ebo": "X"}, regions={"Dev": "SW", "Rat": "SS"},
              order=["Dev"], courts=["SWR", "S"])
    s.apply("pass").apply("pass")
    assert s.saxons == 4 and s.is_over() and s.result.ending == "invasion"


@pytest.mark.parametrize(("players", "variant"), [(2, "standard"), (3, "standard"), (4, "mordred")])
def test_each_player_is_dealt_exactly_eight_cards(each_engine, players, variant):
    s = GameState.new(players, variant, seed=3)
    assert [sum(s.hands[p * 7:p * 7 + 7]) for p in range(players)] == [8] * players


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_struggle_ends_at_the_last_of_one_pass_per_player_not_before(each_engine, players):
    s = GameState.new(players, seed=4)
    for _ in range(players - 1):
        s.apply("pass")
    assert s.resolved == 0 and s.passes == players - 1
    s.apply("pass")
    assert s.resolved == 1 and s.passes == 0


def test_a_card_play_restarts_the_count_of_passes(each_engine):
    s = GameState.new(3, seed=4)
    s.apply("pass").apply("pass")
    s.apply(s.legal_moves()[-1])
    s.apply("pass").apply("pass")
    assert s.resolved == 0
    s.apply("pass")
    assert s.resolved == 1


@pytest.mark.parametrize(("players", "per_faction"), [(2, 16), (3, 18), (4, 18)])
def test_followers_in_play_per_faction(each_engine, players, per_faction):
    s = GameState.new(players, seed=6)
    for f in range(3):
        on_board = sum(s.board[r * 4 + f] for r in range(NUM_REGIONS))
        assert on_board + s.stock[f] + sum(s.courts[f::3]) == per_faction


def test_mordred_has_nine_loyalists_two_of_them_on_the_board(each_engine):
    s = GameState.new(3, "mordred", seed=6)
    on_board = sum(s.board[r * 4 + 3] for r in range(NUM_REGIONS))
    assert on_board == 2 and on_board + s.stock[3] == 9


def test_one_loyalist_joins_the_flagged_region_after_a_resolution(each_engine):
    s = build(3, "mordred", regions={"Cal": "SSW", "Din": "L", "Aqu": "L"}, order=["Cal"])
    assert s.stock[3] == 7
    s.apply("pass").apply("pass").apply("pass")
    assert s.control[0] == 0 and not s.is_over()
    assert s.followers(7, 3) == 2 and s.stock[3] == 6  # Caledonia's flag: Aquae Sulis


def test_no_loyalist_is_added_when_the_supply_is_empty(each_engine):
    s = build(3, "mordred", regions={"Cal": "SSW", "Din": "LLLL", "Aqu": "LLLLL"}, order=["Cal"])
    assert s.stock[3] == 0
    s.apply("pass").apply("pass").apply("pass")
    assert s.followers(7, 3) == 5 and s.stock[3] == 0
