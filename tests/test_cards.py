"""Every action card, including its partial ("as much as possible") cases, and the court call."""

from __future__ import annotations

from random import Random

import pytest
from positions import FULL_HAND, assert_illegal, build, followers, hand_without

from kingisdead import Card, Move, Region, engine, parse_move, rules
from kingisdead import legality
from kingisdead.board import FACTION_CARD, HOMES, NEIGHBOURS, Faction
from kingisdead.moves import NONE

pytestmark = pytest.mark.usefixtures("each_engine")
"""Every rule test runs on both engines: the compiled core and the reference."""

CAL, DIN, EBO, DEV, CAE, RAT, LON, AQU = (int(r) for r in Region)
S, W, R, L = 0, 1, 2, 3
FULL = FULL_HAND


def options(state, card: Card) -> list[tuple[int, ...]]:
    """The card's legal actions from the engine under test."""
    return state.card_actions(card)


def region_set(codes: str) -> set[int]:
    return {int(Region[name]) for name in codes.split()}


# -- Crown --------------------------------------------------------------------------

def test_crown_swaps_two_region_cards_and_places_the_token():
    s = build(regions={"Dev": "S"}, order=["Cal", "Din", "Ebo", "Dev", "Cae", "Rat", "Lon", "Aqu"])
    s.apply("Crown Ebo<>Aqu *Aqu +Dev:S")
    assert s.order == [CAL, DIN, AQU, DEV, CAE, RAT, LON, EBO]
    assert s.crowns[AQU] == 0 and s.crowns[EBO] == -1
    assert s.top_card(0) is Card.CROWN


def test_crown_may_swap_the_contested_card():
    s = build(regions={"Dev": "S"}, order=["Cal", "Din", "Ebo", "Dev", "Cae", "Rat", "Lon", "Aqu"])
    assert s.contested == Region.CALEDONIA
    s.apply("Crown Cal<>Lon *Cal +Dev:S")
    assert s.contested == Region.LONDINIUM
    assert s.crowns[CAL] == 0


def test_crown_options_are_every_pair_of_face_up_uncrowned_cards_times_two_tokens():
    s = build(regions={"Dev": "S"}, control={"Cal": "S", "Din": "X"}, crowns={"Aqu": 1},
              hands=[hand_without(), hand_without("Crown")])
    free = [EBO, DEV, CAE, RAT, LON]
    assert rules.swappable_cards(s) == free
    assert sorted(options(s, Card.CROWN)) == sorted(
        (a, b, c) for i, a in enumerate(free) for b in free[i + 1:] for c in (a, b))
    assert len(options(s, Card.CROWN)) == 5 * 4


def test_crown_token_locks_a_card_against_swaps():
    s = build(regions={"Dev": "S"}, crowns={"Lon": 1}, hands=[hand_without(), hand_without("Crown")])
    assert_illegal(s, "Crown Ebo<>Lon *Ebo +Dev:S", "Crown", "Londinium", "Crown token")


def test_crown_cannot_swap_a_resolved_card():
    s = build(regions={"Dev": "S"}, control={"Cal": "S"})
    assert_illegal(s, "Crown Cal<>Lon *Lon +Dev:S", "Crown", "Caledonia is resolved")


def test_crown_token_goes_on_one_of_the_swapped_cards():
    s = build(regions={"Dev": "S"})
    assert_illegal(s, "Crown Ebo<>Lon *Aqu +Dev:S", "Crown token goes on one of the two swapped cards")


def test_crown_must_swap_when_two_cards_can_be_swapped():
    s = build(regions={"Dev": "S"})
    assert_illegal(s, "Crown +Dev:S", "Crown", "must swap")


def test_crown_with_fewer_than_two_swappable_cards_swaps_nothing_and_places_no_token():
    # Six cards resolved, one of the two face-up cards crowned: one swappable card is left.
    s = build(regions={"Dev": "S"}, control={"Cal": "S", "Din": "W", "Ebo": "R", "Cae": "X", "Rat": "S", "Aqu": "W"},
              order=["Lon", "Dev"], crowns={"Lon": 1}, hands=[hand_without(), hand_without("Crown")])
    assert options(s, Card.CROWN) == [()]
    order_before = list(s.order)
    s.apply("Crown +Dev:S")
    assert s.order == order_before
    assert s.crowns.count(0) == 0
    assert s.hand(0).get(Card.CROWN) is None


def test_crown_with_one_face_up_card_cannot_name_a_swap():
    s = build(regions={"Dev": "S"}, control={"Cal": "S", "Din": "W", "Ebo": "R", "Cae": "X", "Rat": "S",
                                              "Aqu": "W", "Lon": "R"})
    assert_illegal(s, "Crown Dev<>Lon *Dev +Dev:S", "fewer than two region cards can be swapped")


# -- Garrison -------------------------------------------------------------------------

def test_garrison_two_for_one_across_a_border():
    s = build(regions={"Dev": "SSW", "Ebo": "R"})
    s.apply("Garrison Dev:SW>Ebo:R +Ebo:S")
    assert followers(s, "Dev") == "SR"
    assert followers(s, "Ebo") == "W"
    assert s.court(0) == (1, 0, 0)


def test_garrison_two_for_one_only_across_a_border():
    s = build(regions={"Dev": "SS", "Lon": "R"})
    assert_illegal(s, "Garrison Dev:SS>Lon:R +Dev:S", "Garrison: Deva does not border Londinium")


def test_garrison_two_for_one_options_are_exact():
    # Deva (S,S,W) borders Eboracum (R) and Din Eidyn (W); Eboracum and Din Eidyn hold one each.
    s = build(regions={"Dev": "SSW", "Ebo": "R", "Din": "W"})
    assert sorted(options(s, Card.GARRISON)) == sorted([
        (DEV, S, S, EBO, R), (DEV, S, W, EBO, R),
        (DEV, S, S, DIN, W), (DEV, S, W, DIN, W),
    ])


def test_garrison_one_for_one_only_when_no_two_for_one():
    s = build(regions={"Dev": "S", "Ebo": "R", "Lon": "W", "Cal": "W"})
    assert sorted(options(s, Card.GARRISON)) == sorted([(EBO, R, DEV, S), (EBO, R, LON, W)])
    s.apply("Garrison Dev:S<>Ebo:R +Cal:W")
    assert followers(s, "Dev") == "R" and followers(s, "Ebo") == "S"


def test_garrison_one_for_one_illegal_when_a_two_for_one_exists_anywhere():
    # The 2-for-1 is far away (Caledonia to Din Eidyn); Deva/Eboracum may still not swap 1 for 1.
    s = build(regions={"Dev": "S", "Ebo": "R", "Cal": "WW", "Din": "R"})
    assert_illegal(s, "Garrison Dev:S<>Ebo:R +Cal:W", "Garrison", "2-for-1 exchange exists")


def test_garrison_no_exchange_when_no_bordering_regions_hold_followers():
    s = build(regions={"Cal": "SS", "Ebo": "W", "Aqu": "R"})
    assert options(s, Card.GARRISON) == [()]
    s.apply("Garrison +Cal:S")
    assert followers(s, "Cal") == "S" and followers(s, "Ebo") == "W"


def test_garrison_must_exchange_when_an_exchange_exists():
    s = build(regions={"Dev": "SS", "Ebo": "R"})
    assert_illegal(s, "Garrison +Dev:S", "Garrison", "exchange is possible")


def test_garrison_cannot_reach_into_a_resolved_region():
    s = build(regions={"Dev": "SS"}, control={"Ebo": "R"})
    assert_illegal(s, "Garrison Dev:SS>Ebo:R +Dev:S", "Garrison: Eboracum is resolved")


def test_garrison_needs_the_followers_it_moves():
    s = build(regions={"Dev": "SW", "Ebo": "R"})
    assert_illegal(s, "Garrison Dev:SS>Ebo:R +Dev:S", "Garrison: Deva has 1 Scots follower(s), not 2")


# -- Ambassador -------------------------------------------------------------------------

def test_ambassador_exchanges_between_any_two_unresolved_regions():
    # Caledonia and Aquae Sulis are far apart: the Ambassador needs no border.
    s = build(regions={"Cal": "S", "Aqu": "R"})
    assert options(s, Card.AMBASSADOR) == [(CAL, S, AQU, R)]
    s.apply("Ambassador Cal:S<>Aqu:R +Aqu:S")
    assert followers(s, "Cal") == "R" and followers(s, "Aqu") == ""


def test_ambassador_options_are_every_follower_pair_of_two_regions():
    s = build(regions={"Cal": "SW", "Din": "R", "Lon": "WW"})
    assert sorted(options(s, Card.AMBASSADOR)) == sorted([
        (CAL, S, DIN, R), (CAL, W, DIN, R), (CAL, S, LON, W), (CAL, W, LON, W), (DIN, R, LON, W),
    ])


def test_ambassador_not_with_a_resolved_region():
    s = build(regions={"Cal": "S", "Lon": "R"}, control={"Aqu": "W"})
    assert_illegal(s, "Ambassador Cal:S<>Aqu:W +Cal:S", "Ambassador: Aquae Sulis is resolved")


def test_ambassador_no_exchange_when_only_one_region_holds_followers():
    s = build(regions={"Rat": "SWR"})
    assert options(s, Card.AMBASSADOR) == [()]
    s.apply("Ambassador +Rat:W")
    assert followers(s, "Rat") == "SR"


def test_ambassador_is_one_for_one():
    s = build(regions={"Dev": "SS", "Ebo": "R"})
    assert_illegal(s, Move(Card.AMBASSADOR, (DEV, S, S, EBO, R), (DEV, S)), "Ambassador exchanges one follower for one")


# -- exchanges of the same faction, Loyalists ----------------------------------------------

@pytest.mark.parametrize("move", ["Ambassador Cal:S<>Lon:S +Aqu:R", "Garrison Dev:S<>Ebo:S +Aqu:R"])
def test_exchange_of_the_same_faction_is_legal_and_changes_no_region(move):
    s = build(regions={"Cal": "S", "Lon": "S", "Dev": "S", "Ebo": "S", "Aqu": "R"})
    before = s.board[:]
    s.apply(move)
    assert followers(s, "Aqu") == ""
    after = s.board[:]
    after[AQU * 4 + R] += 1
    assert after == before


def test_exchanges_may_move_loyalists():
    s = build(variant="mordred", regions={"Din": "LL", "Ebo": "W"})
    assert (DIN, L, L, EBO, W) in options(s, Card.GARRISON)
    s.apply("Garrison Din:LL>Ebo:W +Din:W")
    assert followers(s, "Din") == "" and followers(s, "Ebo") == "LL"
    s = build(variant="mordred", regions={"Din": "L", "Aqu": "S"})
    s.apply("Ambassador Din:L<>Aqu:S +Din:S")
    assert followers(s, "Aqu") == "L" and followers(s, "Din") == ""


def test_loyalists_are_never_called_to_court():
    s = build(variant="mordred", regions={"Din": "LS"})
    assert rules.court_options(s.board, s.open) == [(DIN, S)]
    assert_illegal(s, "Settlements S>Din W>Din R>Din +Din:L", "Loyalists are never called to court")


# -- no immediate undo -------------------------------------------------------------------

def test_no_immediate_undo_reverse_exchange_illegal_for_the_next_player():
    s = build(regions={"Dev": "SSW", "Ebo": "RR", "Lon": "W"})
    s.apply("Garrison Dev:SW>Ebo:R +Lon:W")
    assert followers(s, "Dev") == "SR" and followers(s, "Ebo") == "SWR"
    assert_illegal(s, "Garrison Ebo:SW>Dev:R +Ebo:R", "Garrison", "immediately undo player 1's exchange")
    assert (EBO, S, W, DEV, R) not in options(s, Card.GARRISON)


def test_no_immediate_undo_also_forbids_the_ambassador_reverse():
    s = build(regions={"Dev": "SW", "Lon": "RR"}, hands=[hand_without(), hand_without()])
    s.apply("Ambassador Dev:S<>Lon:R +Lon:R")
    assert_illegal(s, "Ambassador Dev:R<>Lon:S +Dev:W", "Ambassador", "immediately undo")
    assert (DEV, R, LON, S) not in options(s, Card.AMBASSADOR)


def test_no_immediate_undo_across_garrison_and_ambassador():
    # An Ambassador between bordering regions, reversed by a 1-for-1 Garrison: still an undo.
    s = build(regions={"Dev": "S", "Ebo": "W", "Cal": "R"})
    s.apply("Ambassador Ebo:W<>Dev:S +Cal:R")
    assert options(s, Card.GARRISON) == [()]
    assert_illegal(s, "Garrison Ebo:S<>Dev:W +Dev:W", "Garrison", "immediately undo")


def test_no_immediate_undo_not_lifted_by_passes():
    s = build(players=3, regions={"Dev": "SW", "Lon": "RR"})
    s.apply("Ambassador Dev:S<>Lon:R +Lon:R").apply("pass")
    assert_illegal(s, "Ambassador Dev:R<>Lon:S +Dev:W", "immediately undo player 1's exchange")


def test_no_immediate_undo_ignores_court_calls_made_meanwhile():
    # The court call takes the Romano-British follower that just arrived in Deva; the exact
    # reverse stays banned as long as it can be made (Deva still has a Romano-British).
    s = build(players=3, regions={"Dev": "SWWR", "Lon": "RRS"})
    s.apply("Ambassador Dev:S<>Lon:R +Dev:R")
    assert followers(s, "Dev") == "WWR"
    assert s.undo_ban == (0, (DEV, 2, LON, 0))  # Deva may not get its Scot back for a Romano-British
    s.apply("pass")
    assert_illegal(s, "Ambassador Dev:R<>Lon:S +Lon:R", "immediately undo player 1's exchange")
    s.apply("Ambassador Dev:W<>Lon:S +Lon:R")


def test_no_immediate_undo_lifted_by_another_card():
    s = build(players=3, regions={"Dev": "SW", "Lon": "RR"})
    s.apply("Ambassador Dev:S<>Lon:R +Lon:R")
    s.apply("Settlements S>Cal W>Cal R>Cal +Cal:S")
    s.apply("Ambassador Dev:R<>Lon:S +Dev:W")
    assert followers(s, "Dev") == "S" and followers(s, "Lon") == "R"


def test_no_immediate_undo_lifted_by_resolution():
    s = build(regions={"Dev": "SW", "Lon": "RR", "Cal": "S"}, order=["Cal"])
    s.apply("Ambassador Dev:S<>Lon:R +Lon:R").apply("pass").apply("pass")
    assert s.resolved == 1 and s.current_player == 1
    assert s.undo_ban is None
    s.apply("Ambassador Dev:R<>Lon:S +Dev:W")
    assert followers(s, "Dev") == "S" and followers(s, "Lon") == "R"


def test_own_exchange_may_be_undone():
    # Player 1 exchanges with the Ambassador and reverses it with the Garrison (1 for 1,
    # since no region holds two followers): the ban is only for the other players.
    s = build(regions={"Dev": "S", "Ebo": "W", "Cal": "R"})
    s.apply("Ambassador Ebo:W<>Dev:S +Cal:R").apply("pass")
    assert s.current_player == 0
    assert options(s, Card.GARRISON) == [(EBO, S, DEV, W)]
    s.apply("Garrison Ebo:S<>Dev:W +Dev:S")
    assert followers(s, "Ebo") == "W" and followers(s, "Dev") == ""


def test_exchange_that_changed_nothing_can_be_repeated():
    s = build(regions={"Dev": "SW", "Lon": "SR"})
    s.apply("Ambassador Dev:S<>Lon:S +Dev:W")
    assert s.undo_ban is None
    s.apply("Ambassador Dev:S<>Lon:S +Lon:R")
    assert followers(s, "Dev") == "S" and followers(s, "Lon") == "S"


def test_garrison_falls_back_to_one_for_one_when_the_only_two_for_one_would_undo():
    # After Cal:SS>Din:W the only 2-for-1 left is its reverse; the Garrison then swaps 1 for 1.
    s = build(regions={"Cal": "SS", "Din": "W", "Lon": "R"})
    s.apply("Garrison Cal:SS>Din:W +Lon:R")
    assert options(s, Card.GARRISON) == [(CAL, W, DIN, S)]
    assert_illegal(s, "Garrison Din:SS>Cal:W +Din:S", "immediately undo")
    s.apply("Garrison Cal:W<>Din:S +Din:S")
    assert followers(s, "Cal") == "S" and followers(s, "Din") == "W"


# -- no immediate undo, judged by effect ----------------------------------------------------
# The ruling's example: Garrison Dev:SW>Ebo:S moves one Welsh follower from Deva to
# Eboracum. Every exchange that moves one Welsh back (Eboracum -W, Deva +W) is an undo,
# however it is spelled.

UNDO_SPELLINGS = ["Garrison Ebo:SW>Dev:S +Ebo:R", "Garrison Ebo:WR>Dev:R +Ebo:S", "Garrison Ebo:WW>Dev:W +Ebo:R"]


def ruling_example(players: int = 2, **kwargs):
    """After player 1's Garrison Dev:SW>Ebo:S: Deva holds S W R, Eboracum S W W R."""
    regions = {"Dev": "SWWR", "Ebo": "SWR", "Lon": "R", **kwargs.pop("regions", {})}
    s = build(players, regions=regions, **kwargs)
    s.apply("Garrison Dev:SW>Ebo:S +Lon:R")
    assert followers(s, "Dev") == "SWR" and followers(s, "Ebo") == "SWWR"
    return s


def test_exchange_effect_is_canonical_whatever_the_spelling():
    # 2-for-1: the region giving two comes first; delta is its change (S, W, R, L).
    assert rules.exchange_effect((DEV, S, W, EBO, S)) == (DEV, EBO, (0, -1, 0, 0))
    undo = {rules.exchange_effect(a) for a in [(EBO, S, W, DEV, S), (EBO, W, R, DEV, R), (EBO, W, W, DEV, W)]}
    assert undo == {(EBO, DEV, (0, -1, 0, 0))}
    # 1-for-1: the lower-numbered region first, whichever side is written first.
    assert rules.exchange_effect((LON, S, DEV, R)) == (DEV, LON, (1, 0, -1, 0))
    assert rules.exchange_effect((DEV, R, LON, S)) == (DEV, LON, (1, 0, -1, 0))
    assert rules.exchange_effect((DIN, L, AQU, S)) == (DIN, AQU, (1, 0, 0, -1))
    # Same faction both ways: no change; no exchange: no effect.
    assert rules.exchange_effect((DEV, W, EBO, W)) == (EBO, DEV, (0, 0, 0, 0))
    assert rules.exchange_effect(()) is None


@pytest.mark.parametrize("length", [4, 5])
def test_spell_effect_spells_exactly_the_effect(length):
    # Every change an exchange can make, spelled back, has that change: the position file's spelling.
    kinds = range(4)
    actions = ([(a, f1, f2, b, g) for a, b in ((EBO, DEV), (DEV, EBO)) for f1 in kinds for f2 in kinds if f1 <= f2
                for g in kinds] if length == 5 else
               [(a, f, b, g) for a, b in ((DEV, LON), (LON, DEV)) for f in kinds for g in kinds])
    for action in actions:
        effect = rules.exchange_effect(action)
        if rules.changes_nothing(effect):
            continue
        assert rules.exchange_effect(rules.spell_effect(effect)) == effect, action
    with pytest.raises(ValueError, match="no exchange has"):
        rules.spell_effect((DEV, LON, (0, 0, 0, 0)))


@pytest.mark.parametrize("spelling", UNDO_SPELLINGS)
def test_no_immediate_undo_judged_by_effect_every_spelling_is_banned(spelling):
    s = ruling_example()
    assert_illegal(s, spelling, "Garrison: this would immediately undo player 1's exchange")
    action = parse_move(spelling).action
    assert action not in options(s, Card.GARRISON)
    assert not any(m.card is Card.GARRISON and m.action == action for m in s.legal_moves())


def test_no_immediate_undo_judged_by_effect_leaves_every_other_exchange():
    # The Garrison keeps every 2-for-1 whose effect differs (so no 1-for-1 fallback).
    s = ruling_example()
    everything = {(a, f1, f2, b, g)
                  for a, b in ((DEV, EBO), (EBO, DEV))
                  for f1, f2 in rules._pairs_in(s.board, a)
                  for g in rules._kinds_in(s.board, b)}
    banned = {parse_move(m).action for m in UNDO_SPELLINGS}
    assert banned <= everything
    assert set(options(s, Card.GARRISON)) == everything - banned
    s.copy().apply("Garrison Ebo:SR>Dev:S +Ebo:W")  # Eboracum -R: not an undo
    assert_illegal(s, "Garrison Dev:W<>Ebo:S +Ebo:R", "2-for-1 exchange exists")


def test_no_immediate_undo_judged_by_effect_with_loyalists():
    s = build(variant="mordred", regions={"Dev": "SWL", "Ebo": "SWL", "Lon": "R"})
    s.apply("Garrison Dev:SW>Ebo:S +Lon:R")
    assert followers(s, "Dev") == "SL" and followers(s, "Ebo") == "SWWL"
    assert_illegal(s, "Garrison Ebo:WL>Dev:L +Ebo:S", "immediately undo player 1's exchange")
    assert_illegal(s, "Garrison Ebo:SW>Dev:S +Ebo:S", "immediately undo player 1's exchange")
    assert (EBO, W, L, DEV, L) not in options(s, Card.GARRISON)
    s.apply("Garrison Ebo:SL>Dev:L +Ebo:W")  # Eboracum -S: another change


def test_no_immediate_undo_judged_by_effect_not_lifted_by_passes():
    # Four players: the partner (seat 2) and the next opponent (seat 3) are banned too.
    s = ruling_example(4)
    s.apply("pass")
    assert_illegal(s, "Garrison Ebo:WW>Dev:W +Ebo:R", "immediately undo player 1's exchange")
    s.apply("pass")
    assert_illegal(s, "Garrison Ebo:WR>Dev:R +Ebo:S", "immediately undo player 1's exchange")
    assert s.passes == 2 and s.undo_ban is not None


def test_no_immediate_undo_judged_by_effect_lifted_by_a_card_and_not_set_by_a_same_faction_exchange():
    s = ruling_example(3, regions={"Cal": "S", "Aqu": "SR"})
    s.apply("Ambassador Cal:S<>Aqu:S +Aqu:R")  # same faction both ways: no region changes
    assert s.undo_ban is None
    s.apply("Garrison Ebo:WW>Dev:W +Ebo:R")  # player 1's exchange reversed: the ban was lifted
    assert followers(s, "Dev") == "SWWR" and followers(s, "Ebo") == "SW"


def test_no_immediate_undo_judged_by_effect_does_not_bind_the_exchanging_player():
    # The same board and ban (spelled one way), with the exchanging player or another to move.
    # (Built directly: in play, a player never holds a second Garrison to reverse their own 2-for-1.)
    def position(to_move: int):
        return build(regions={"Dev": "SWR", "Ebo": "SWWR"}, to_move=to_move,
                     hands=[hand_without("Ambassador"), hand_without("Ambassador")], played_order=[1, 0],
                     undo_ban={"player": 0, "exchange": "Ebo:SW>Dev:S"})
    own, other = position(0), position(1)
    for spelling in UNDO_SPELLINGS:
        action = parse_move(spelling).action
        assert action in options(own, Card.GARRISON)
        assert action not in options(other, Card.GARRISON)
        own.after(spelling)
        assert_illegal(other, spelling, "immediately undo player 1's exchange")


def test_no_immediate_undo_judged_by_effect_a_one_for_one_never_reverses_a_two_for_one():
    s = ruling_example()
    unbanned = s.copy()
    unbanned.undo_ban = None
    assert options(s, Card.AMBASSADOR) == options(unbanned, Card.AMBASSADOR)
    s.apply("Ambassador Dev:W<>Ebo:S +Ebo:R")


def test_no_immediate_undo_judged_by_effect_garrison_falls_back_only_when_no_two_for_one_remains():
    # Only the banned 2-for-1 existed: the 1-for-1s decide (as in the exact-reverse case).
    s = build(regions={"Cal": "SS", "Din": "W", "Lon": "R"})
    s.apply("Garrison Cal:SS>Din:W +Lon:R")
    assert options(s, Card.GARRISON) == [(CAL, W, DIN, S)]
    # After the ruling's example other 2-for-1s remain, so no 1-for-1 is allowed.
    s = ruling_example()
    assert all(len(a) == 5 for a in options(s, Card.GARRISON))


def test_no_immediate_undo_judged_by_effect_for_the_ambassador():
    s = build(regions={"Dev": "SW", "Lon": "RR"})
    s.apply("Ambassador Dev:S<>Lon:R +Lon:R")
    for spelling in ["Ambassador Dev:R<>Lon:S +Dev:W", "Ambassador Lon:S<>Dev:R +Dev:W"]:
        assert_illegal(s, spelling, "Ambassador: this would immediately undo player 1's exchange")
    # The same ban loaded from a position written the other way round.
    loaded = build(regions={"Dev": "WR", "Lon": "S"}, to_move=1, hands=[hand_without("Ambassador"), FULL],
                   undo_ban={"player": 0, "exchange": "Lon:S<>Dev:R"})
    assert (DEV, R, LON, S) not in options(loaded, Card.AMBASSADOR)
    assert_illegal(loaded, "Ambassador Dev:R<>Lon:S +Dev:W", "immediately undo player 1's exchange")
    assert loaded == build(regions={"Dev": "WR", "Lon": "S"}, to_move=1, hands=[hand_without("Ambassador"), FULL],
                           undo_ban={"player": 0, "exchange": "Dev:R<>Lon:S"})


def test_no_immediate_undo_judged_by_effect_in_the_fast_sampler():
    # Player 2 holds only a Garrison: the sampler must never draw a banned spelling.
    s = ruling_example(hands=[FULL, ["Garrison"]])
    banned = rules.exchange_effect(parse_move(UNDO_SPELLINGS[0]).action)
    drawn = set()
    for seed in range(400):
        move = engine.sample_move(s, Random(seed))  # the engine under test
        assert legality.check_move(s, move) == move
        if move.card is Card.GARRISON:
            assert rules.exchange_effect(move.action) != banned
            drawn.add(move.action)
    assert len(drawn) >= 8


# -- Settlements ---------------------------------------------------------------------------

def test_settlements_places_one_of_each_faction_in_any_unresolved_regions():
    s = build(regions={"Dev": "S"}, control={"Cal": "S", "Din": "W"})
    opens = [EBO, DEV, CAE, RAT, LON, AQU]
    assert sorted(options(s, Card.SETTLEMENTS)) == sorted((a, b, c) for a in opens for b in opens for c in opens)
    stock = list(s.stock)
    s.apply("Settlements S>Lon W>Lon R>Aqu +Lon:W")
    assert followers(s, "Lon") == "S" and followers(s, "Aqu") == "R"
    assert s.stock[:3] == [stock[0] - 1, stock[1] - 1, stock[2] - 1]


def test_settlements_skips_a_faction_whose_stock_is_empty():
    # All 16 Welsh of a 2-player game are on the board or at court (a court of 2 before any card
    # play): Settlements places only Scots and Romano-British.
    s = build(regions={"Dev": "S", "Cae": "W" * 12}, courts=["WW", "WW"], stock={"Welsh": 0})
    assert all(action[W] == NONE for action in options(s, Card.SETTLEMENTS))
    assert len(options(s, Card.SETTLEMENTS)) == 8 * 8
    assert_illegal(s, "Settlements S>Lon W>Lon R>Lon +Dev:S", "no Welsh follower is left in the stock")
    s.apply("Settlements S>Lon R>Lon +Dev:S")
    assert followers(s, "Lon") == "SR"


def test_settlements_places_every_faction_that_has_stock():
    s = build(regions={"Dev": "S"})
    assert_illegal(s, "Settlements S>Lon R>Lon +Dev:S", "Welsh follower is in the stock, so it must be placed")


def test_settlements_with_an_empty_stock_places_nothing():
    s = build(regions={"Dev": "S" * 15, "Cae": "W" * 15, "Lon": "R" * 14}, courts=["WR", "SR"])
    assert s.stock[:3] == [0, 0, 0]
    assert options(s, Card.SETTLEMENTS) == [(NONE, NONE, NONE)]
    s.apply("Settlements +Dev:S")


def test_settlements_never_into_a_resolved_region():
    s = build(regions={"Dev": "S"}, control={"Cal": "S"})
    assert_illegal(s, "Settlements S>Cal W>Lon R>Lon +Dev:S", "Settlements: Caledonia is resolved")


# -- Scots, Welsh, Romano-British -------------------------------------------------------------

@pytest.mark.parametrize("card", [Card.SCOTS, Card.WELSH, Card.ROMANO_BRITISH])
def test_faction_card_home_counts_as_controlled_while_unresolved(card):
    faction = FACTION_CARD[card]
    s = build(regions={"Rat": "S"})
    targets = [r for r in range(8) if NEIGHBOURS[HOMES[faction]] >> r & 1]
    assert list(rules.faction_targets(s, faction)) == targets
    assert sorted(options(s, card)) == sorted((a, b) for a in targets for b in targets if a <= b)


def test_scots_place_two_followers_next_to_controlled_regions():
    # Caledonia (home, unresolved) borders only Din Eidyn; Scots control Ratae too.
    s = build(regions={"Dev": "W"}, control={"Rat": "S"})
    targets = region_set("DIN_EIDYN DEVA EBORACUM CAERLEON LONDINIUM AQUAE_SULIS")
    assert set(rules.faction_targets(s, Faction.SCOTS)) == targets
    stock = s.stock[S]
    s.apply("Scots Din Aqu +Dev:W")
    assert followers(s, "Din") == "S" and followers(s, "Aqu") == "S"
    assert s.stock[S] == stock - 2
    s2 = build(regions={"Dev": "W"}, control={"Rat": "S"})
    s2.apply("Scots Lon Lon +Dev:W")
    assert followers(s2, "Lon") == "SS"


def test_faction_card_home_itself_only_if_it_borders_another_controlled_region():
    s = build(regions={"Dev": "S"})
    assert CAE not in rules.faction_targets(s, Faction.WELSH)
    assert_illegal(s, "Welsh Cae Cae +Dev:S", "Welsh: Caerleon does not border a region the Welsh control")
    s = build(regions={"Dev": "S"}, control={"Aqu": "W"})
    assert CAE in rules.faction_targets(s, Faction.WELSH)
    s.apply("Welsh Cae Cae +Dev:S")
    assert followers(s, "Cae") == "WW"


def test_faction_card_resolved_home_no_longer_counts():
    # Caledonia fell to the Welsh: the Scots control nothing, so the Scots card places nothing.
    s = build(regions={"Dev": "S"}, control={"Cal": "W"})
    assert options(s, Card.SCOTS) == [()]
    assert_illegal(s, "Scots Din Din +Dev:S", "no unresolved region borders a region the Scots control")
    s.apply("Scots +Dev:S")


def test_faction_card_places_one_when_only_one_in_stock():
    s = build(regions={"Dev": "S", "Cal": "R" * 11}, courts=["RR", "RR"])
    assert s.stock[R] == 1
    targets = rules.faction_targets(s, Faction.ROMANO_BRITISH)
    assert sorted(options(s, Card.ROMANO_BRITISH)) == [(r,) for r in targets]
    assert_illegal(s, "Romano-British Ebo Ebo +Dev:S", "stock holds 1 Romano-British follower(s); place exactly 1")
    s.apply("Romano-British Ebo +Dev:S")
    assert followers(s, "Ebo") == "R" and s.stock[R] == 0


def test_faction_card_places_none_when_the_stock_is_empty():
    s = build(regions={"Dev": "S", "Cal": "R" * 12}, courts=["RR", "RR"], stock={"Romano-British": 0})
    assert options(s, Card.ROMANO_BRITISH) == [()]
    s.apply("Romano-British +Dev:S")


def test_faction_card_places_none_when_no_region_qualifies():
    # Scots home and its only neighbour resolved to others: no unresolved region borders a Scots region.
    s = build(regions={"Dev": "W"}, control={"Cal": "X", "Din": "W"})
    assert rules.faction_targets(s, Faction.SCOTS) == ()
    assert options(s, Card.SCOTS) == [()]


def test_faction_card_never_into_a_resolved_region():
    s = build(regions={"Dev": "W"}, control={"Din": "S"})
    assert DIN not in rules.faction_targets(s, Faction.SCOTS)
    assert_illegal(s, "Scots Din Ebo +Dev:W", "Scots: Din Eidyn is resolved")


def test_faction_card_must_place_two_when_it_can():
    s = build(regions={"Dev": "W"})
    assert_illegal(s, "Scots Din +Dev:W", "2 Scots followers can be placed, so both must be")


# -- the court call ------------------------------------------------------------------------

def test_court_call_any_faction_follower_from_any_unresolved_region():
    s = build(regions={"Cal": "S", "Lon": "WR", "Dev": "R"}, control={"Aqu": "W"})
    assert sorted(rules.court_options(s.board, s.open)) == [(CAL, S), (DEV, R), (LON, W), (LON, R)]
    s.apply("Crown Cal<>Lon *Lon +Lon:W")
    assert s.court(0) == (0, 1, 0) and followers(s, "Lon") == "R"


def test_court_call_may_take_a_follower_the_card_just_placed():
    s = build(regions={"Dev": "W"})
    s.apply("Scots Din Din +Din:S")
    assert followers(s, "Din") == "S" and s.court(0) == (1, 0, 0)


def test_court_call_is_required_when_a_follower_can_be_called():
    s = build(regions={"Dev": "W"})
    assert_illegal(s, "Scots Din Din", "court call: a follower must be called to court")


def test_court_call_not_from_a_region_without_that_follower():
    s = build(regions={"Dev": "W"})
    assert_illegal(s, "Crown Dev<>Lon *Dev +Dev:S", "court call: Deva has no Scots follower to call")


def test_no_court_call_when_the_board_holds_no_follower():
    s = build()
    assert rules.court_options(s.board, s.open) == []
    assert_illegal(s, "Crown Dev<>Lon *Dev +Dev:S", "no unresolved region has a follower to call")
    s.apply("Crown Dev<>Lon *Dev")
    assert s.court(0) == (0, 0, 0)


def test_a_card_can_always_be_played_even_with_no_effect():
    # Nothing on the board and an empty stock of Scots: every card is still playable. All 18 Scots
    # of a 3-player game are at court; player 1, with a full hand, holds 2 (a court grows only by
    # card plays), players 2 and 3 have played 6 cards each to hold 8.
    s = build(3, courts=["SS", "S" * 8, "S" * 8], stock={"Scots": 0})
    moves = s.legal_moves()
    assert {m.card for m in moves[1:]} == set(Card)
    assert Move(Card.SCOTS, (), None) in moves and Move(Card.GARRISON, (), None) in moves


def test_a_card_is_played_once():
    s = build(regions={"Dev": "WW"}, hands=[hand_without("Garrison"), hand_without()])
    assert_illegal(s, "Garrison Dev:W<>Ebo:W +Dev:W", "Garrison: player 1 has no Garrison card left")
    assert all(m.card is not Card.GARRISON for m in s.legal_moves())
