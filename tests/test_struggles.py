"""Turns, passes, the end of a power struggle, its resolution, and Mordred's Loyalists."""

from __future__ import annotations

import pytest
from positions import assert_illegal, build, followers

from kingisdead import PASS, Region
from kingisdead.board import REGION_CODES, Faction, region_by_code

pytestmark = pytest.mark.usefixtures("each_engine")
"""Every rule test runs on both engines: the compiled core and the reference."""

S, W, R, L = 0, 1, 2, 3
SAXONS = 4


def pass_round(state, count):
    for _ in range(count):
        state.apply("pass")
    return state


@pytest.mark.parametrize("players", [2, 3, 4])
def test_struggle_ends_when_all_players_pass_in_a_row(players):
    s = build(players, regions={"Cal": "S", "Dev": "W"}, order=["Cal"])
    pass_round(s, players - 1)
    assert s.resolved == 0 and s.passes == players - 1
    s.apply("pass")
    assert s.resolved == 1 and s.passes == 0
    assert s.control[Region.CALEDONIA] == S


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_card_resets_the_pass_count(players):
    s = build(players, regions={"Cal": "S", "Dev": "WW"}, order=["Cal"])
    pass_round(s, players - 1)
    s.apply("Crown Ebo<>Lon *Lon +Dev:W")
    assert s.passes == 0
    pass_round(s, players - 1)
    assert s.resolved == 0
    s.apply("pass")
    assert s.resolved == 1


def test_a_player_who_passed_may_play_later_in_the_same_struggle():
    s = build(regions={"Cal": "S", "Dev": "WW"}, order=["Cal"])
    s.apply("pass").apply("Crown Ebo<>Lon *Lon +Dev:W")
    assert s.current_player == 0
    s.apply("Settlements S>Cal W>Cal R>Cal +Cal:W")
    assert followers(s, "Cal") == "SSR"


def test_turns_go_round_the_table():
    s = build(4, regions={"Dev": "WWWW"})
    seen = []
    for _ in range(3):
        seen.append(s.current_player)
        s.apply("pass")
    seen.append(s.current_player)
    assert seen == [0, 1, 2, 3]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_play_continues_with_the_player_after_the_last_to_pass(players):
    s = build(players, regions={"Cal": "S", "Dev": "WW"}, order=["Cal"], to_move=1)
    s.apply("Crown Ebo<>Lon *Lon +Dev:W")  # seat 1 plays, then everyone passes, seat 1 last
    pass_round(s, players)
    assert s.resolved == 1
    assert s.current_player == 2 % players


def test_the_next_struggle_is_the_next_region_card():
    s = build(regions={"Cal": "S"}, order=["Rat", "Cal", "Lon"])
    assert s.contested == Region.RATAE
    pass_round(s, 2)
    assert s.contested == Region.CALEDONIA
    pass_round(s, 2)
    assert s.contested == Region.LONDINIUM
    assert s.control[Region.CALEDONIA] == S and s.control[Region.RATAE] == SAXONS


def test_resolution_strict_majority_takes_control():
    s = build(regions={"Cal": "SSWR"}, order=["Cal"])
    stock = list(s.stock)
    pass_round(s, 2)
    assert s.control[Region.CALEDONIA] == S
    assert followers(s, "Cal") == ""
    assert s.stock[:3] == [stock[0] + 2, stock[1] + 1, stock[2] + 1]
    assert s.saxons == 0


@pytest.mark.parametrize("crowd", ["SW", "SSWWR", "SWR", ""])
def test_resolution_tie_or_empty_region_gives_a_saxon_token(crowd):
    s = build(regions={"Cal": crowd, "Dev": "S"}, order=["Cal"])
    pass_round(s, 2)
    assert s.control[Region.CALEDONIA] == SAXONS
    assert s.saxons == 1
    assert followers(s, "Cal") == ""


def test_resolved_region_is_closed_for_ever():
    s = build(regions={"Cal": "SS", "Din": "W"}, order=["Cal"])
    pass_round(s, 2)
    assert s.control[Region.CALEDONIA] == S
    assert_illegal(s, "Settlements S>Cal W>Din R>Din +Din:W", "Caledonia is resolved")
    assert_illegal(s, "Garrison Cal:S<>Din:W +Din:W", "Caledonia is resolved")
    assert_illegal(s, "Ambassador Cal:S<>Din:W +Din:W", "Caledonia is resolved")
    assert_illegal(s, "Scots Cal Din +Din:W", "Caledonia is resolved")
    assert_illegal(s, "Crown Cal<>Din *Din +Din:W", "Caledonia is resolved")
    assert_illegal(s, "Crown Din<>Lon *Din +Cal:S", "court call: Caledonia is resolved")


def test_passes_change_nothing_but_the_turn():
    s = build(3, regions={"Cal": "SS", "Din": "W"})
    before = (s.board[:], s.stock[:], s.courts[:], s.hands[:], s.order[:], s.resolved)
    s.apply("pass")
    assert (s.board, s.stock, s.courts, s.hands, s.order, s.resolved) == before
    assert s.current_player == 1 and s.passes == 1


def test_a_player_with_no_cards_can_only_pass():
    s = build(regions={"Cal": "SS", "Din": "W"}, hands=[[], ["Crown"]])
    assert s.legal_moves() == [PASS]
    assert [c.kind for c in s.builder().options()] == ["pass"]
    assert_illegal(s, "Settlements S>Cal W>Din R>Din +Din:W", "player 1 has no Settlements card left")


# -- Mordred ---------------------------------------------------------------------------------

MORDRED_FLAG_RULING = {
    "Cal": "Aqu", "Din": "Aqu", "Rat": "Aqu", "Dev": "Aqu",
    "Cae": "Din", "Ebo": "Din", "Lon": "Din", "Aqu": "Din",
}
"""Where a Loyalist goes after each resolution, written out from the rulings."""


@pytest.mark.parametrize("resolved", REGION_CODES)
def test_mordred_loyalist_added_to_the_flagged_region(resolved):
    flagged = MORDRED_FLAG_RULING[resolved]
    s = build(2, "mordred", regions={resolved: "S", "Rat" if resolved != "Rat" else "Lon": "W"}, order=[resolved])
    supply = s.stock[L]
    pass_round(s, 2)
    assert s.control[region_by_code(resolved)] == S
    assert followers(s, flagged) == "L"
    assert s.stock[L] == supply - 1
    assert sum(s.followers(r, L) for r in Region) == 1


def test_mordred_loyalist_added_after_a_saxon_resolution_too():
    s = build(2, "mordred", regions={"Cae": "SW", "Rat": "W"}, order=["Cae"])
    pass_round(s, 2)
    assert s.control[Region.CAERLEON] == SAXONS
    assert followers(s, "Din") == "L" and s.stock[L] == 8


def test_mordred_loyalist_not_added_when_the_flagged_region_is_resolved():
    s = build(2, "mordred", regions={"Cal": "S"}, control={"Aqu": "W"}, order=["Cal"])
    pass_round(s, 2)
    assert s.stock[L] == 9
    assert sum(s.followers(r, L) for r in Region) == 0


def test_mordred_loyalist_not_added_when_the_supply_is_empty():
    s = build(2, "mordred", regions={"Cal": "S", "Rat": "LLLLWWWWW", "Ebo": "LLLLL"}, order=["Cal"])
    assert s.stock[L] == 0
    pass_round(s, 2)
    assert followers(s, "Aqu") == ""
    assert s.stock[L] == 0


def test_mordred_loyalists_count_for_the_majority_and_their_win_ends_the_game():
    s = build(2, "mordred", regions={"Cal": "LLS", "Dev": "W"}, order=["Cal"], courts=["W", ""])
    pass_round(s, 2)
    assert s.control[Region.CALEDONIA] == Faction.LOYALISTS
    assert s.is_over() and s.result.ending == "mordred"
    assert s.stock[L] == 9  # the Loyalists went back to their supply
    assert s.legal_moves() == []
    assert_illegal(s, "pass", "the game is over")


def test_mordred_loyalist_tie_gives_a_saxon_token():
    s = build(2, "mordred", regions={"Cal": "LS", "Dev": "W"}, order=["Cal"])
    pass_round(s, 2)
    assert s.control[Region.CALEDONIA] == SAXONS
    assert not s.is_over()


def test_mordred_loyalists_go_back_to_their_supply_when_a_faction_wins():
    s = build(2, "mordred", regions={"Cal": "SSL", "Dev": "W"}, order=["Cal"])
    pass_round(s, 2)
    assert s.control[Region.CALEDONIA] == S
    assert s.stock[L] == 9 - 1  # back to supply, then one placed in Aquae Sulis
    assert followers(s, "Aqu") == "L"
