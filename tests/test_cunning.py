"""The advanced game's twelve Cunning cards (kingisdead.cunning): each card's legal actions and what it does.

Positions are built on a seeded advanced game whose board, stock, hands and piles are then set by
hand (:func:`table`), in the second edition's names: regions Mor 0, Str 1, Nor 2, Lan 3, Gwy 4, War 5,
Ess 6, Dev 7 (borders: Mor-Str, Str-Nor, Str-Lan, Nor-Lan, Nor-War, Nor-Ess, Lan-Gwy, Lan-War, Gwy-War,
Gwy-Dev, War-Ess, War-Dev, Ess-Dev); factions S 0, W 1, E 2. The advanced game is the reference's
alone, so no test runs on the compiled core.
"""

from __future__ import annotations

from random import Random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kingisdead import GameState, IllegalMoveError, Move, cunning, lastcard, legality, playout, rules
from kingisdead.board import FIRST_CUNNING, Card, Cunning
from kingisdead.edition import ADVANCED_OPTIONS
from kingisdead.moves import NONE, PASS, normalise

MOR, STR, NOR, LAN, GWY, WAR, ESS, DEV = range(8)
S, W, E = 0, 1, 2
CODES = ("Mor", "Str", "Nor", "Lan", "Gwy", "War", "Ess", "Dev")
NEGOTIATE, OUTMANOEUVRE, MANOEUVRE, ASSEMBLE = Card.CROWN, Card.GARRISON, Card.AMBASSADOR, Card.SETTLEMENTS
(SPY, AID, AMBUSH, DISPUTE, INFLUENCE, EDICT, MARCH, RESIST, MUSTER, QUELL, SUPPRESS, PLOT) = tuple(Cunning)


def table(regions: dict[str, str] | None = None, stock: str = "", held: tuple[int, ...] = (),
          tops: tuple[int, ...] | None = None, players: int = 2, resolved: dict[str, int] | None = None,
          **options: str) -> GameState:
    """An advanced game with player 0 to move: ``regions`` code -> followers ("SSW"), every other region
    empty; ``stock`` the followers in the stock; ``held`` player 0's Cunning cards; ``tops`` each pile's
    top card (-1: none); ``resolved`` code -> the faction controlling it (4: unstable)."""
    s = GameState.new(players, edition="second", mode="advanced", seed=1, options=options)
    s.board = [0] * 32
    for code, text in (regions or {}).items():
        for letter in text:
            s.board[CODES.index(code) * 4 + "SWE".index(letter)] += 1
    s.stock = [stock.count(letter) for letter in "SWE"] + [0]
    s.cunning = [0] * players
    s.cunning[0] = sum(1 << (card - FIRST_CUNNING) for card in held)
    s.tops = list(tops) if tops is not None else [-1] * players
    s.player, s.undo_ban = 0, None
    for code, faction in (resolved or {}).items():
        s.control[CODES.index(code)] = faction
        s.open &= ~(1 << CODES.index(code))
    return s


def totals(s: GameState) -> list[int]:
    """Followers of each faction on the board, in the stock and at court: no card changes them."""
    return [sum(s.board[r * 4 + f] for r in range(8)) + s.stock[f] + sum(s.courts[f::3]) for f in range(3)]


def after(s: GameState, card: int, action: tuple[int, ...]) -> GameState:
    """A copy of ``s`` with ``card``'s ``action`` carried out (checked to conserve every faction's followers)."""
    t = s.copy()
    cunning.carry_out(t, card, action)
    assert totals(t) == totals(s)
    return t


def region(s: GameState, code: str) -> str:
    """A region's followers as letters, e.g. "SSW"."""
    r = CODES.index(code)
    return "".join(letter * s.board[r * 4 + f] for f, letter in enumerate("SWE"))


def stock(s: GameState) -> str:
    return "".join(letter * s.stock[f] for f, letter in enumerate("SWE"))


# -- Spy ----------------------------------------------------------------------------------------------

def test_spy_copies_a_standard_card_with_its_own_actions_and_bans_as_that_card():
    s = table({"Mor": "SW", "Str": "E"}, held=(SPY,), tops=(-1, MANOEUVRE))
    assert cunning.card_actions(s, SPY) == [(1, MANOEUVRE, MOR, S, STR, E), (1, MANOEUVRE, MOR, W, STR, E)]
    assert [(1, MANOEUVRE, *a) for a in rules.ambassador_actions(s)] == cunning.card_actions(s, SPY)
    t = after(s, SPY, (1, MANOEUVRE, MOR, S, STR, E))
    assert (region(t, "Mor"), region(t, "Str")) == ("WE", "S")
    assert t.undo_ban == (0, (MOR, E, STR, S), MANOEUVRE)  # the copied card's ban, though Spy tops the pile
    t.player, t.tops[0] = 1, SPY
    assert rules.ambassador_actions(t) == [(MOR, W, STR, S)]  # player 1's Manoeuvre may not reverse it
    assert rules.garrison_actions(t)[0] != ()  # but another card may


def test_spy_copies_a_cunning_card_and_carries_it_out():
    s = table({"Mor": "S"}, held=(SPY,), tops=(-1, MARCH))
    assert cunning.card_actions(s, SPY) == [(1, MARCH, MOR, S, STR)]
    assert region(after(s, SPY, (1, MARCH, MOR, S, STR)), "Str") == "S"
    aid = table(stock="EE", held=(SPY,), tops=(-1, AID))
    assert cunning.card_actions(aid, SPY) == [(1, AID, E, r) for r in range(8)]
    assert (region(t := after(aid, SPY, (1, AID, E, DEV)), "Dev"), stock(t)) == ("EE", "")


def test_spy_copies_only_another_players_played_pile():
    assert cunning.card_actions(table({"Mor": "S"}, held=(SPY,)), SPY) == [()]  # nothing played yet
    assert cunning.card_actions(table({"Mor": "S"}, held=(SPY,), tops=(MARCH, -1)), SPY) == [()]  # its own pile
    assert after(table({"Mor": "S"}, held=(SPY,)), SPY, ()).board == table({"Mor": "S"}).board
    partner = table({"Mor": "S"}, held=(SPY,), tops=(-1, -1, MARCH, -1), players=4)
    assert cunning.card_actions(partner, SPY) == [(2, MARCH, MOR, S, STR)]  # a partner's pile is another's


@pytest.mark.parametrize(("rule", "expected"), [("forbidden", [()]), ("allowed", [(1, SPY)])])
def test_spy_spy_option(rule, expected):
    s = table({"Mor": "S"}, held=(SPY,), tops=(-1, SPY), spy_spy=rule)
    assert cunning.card_actions(s, SPY) == expected
    t = after(s, SPY, expected[0])
    assert t.board == s.board and t.undo_ban is None


def test_spy_negotiate_with_the_spys_disc_still_held_is_the_card_itself():
    for rule in ADVANCED_OPTIONS["spy_negotiate"]:
        s = table(held=(SPY,), tops=(-1, NEGOTIATE), spy_negotiate=rule)
        assert cunning.card_actions(s, SPY) == [(1, NEGOTIATE, *a) for a in rules.crown_actions(s)]
        t = after(s, SPY, (1, NEGOTIATE, MOR, DEV, DEV))
        assert t.crowns[DEV] == 0 and t.order.index(DEV) == s.order.index(MOR)


@pytest.mark.parametrize("rule", ADVANCED_OPTIONS["spy_negotiate"])
def test_spy_negotiate_option_without_the_disc(rule):
    s = table(held=(SPY,), tops=(-1, NEGOTIATE), spy_negotiate=rule)
    s.crowns[WAR] = 0  # the spy's own disc is on the board already
    free = [r for r in range(8) if r != WAR]
    actions = cunning.card_actions(s, SPY)
    if rule == "own_disc":  # the swap alone
        assert actions == [(1, NEGOTIATE, a, b, NONE) for i, a in enumerate(free) for b in free[i + 1:]]
        t = after(s, SPY, (1, NEGOTIATE, MOR, DEV, NONE))
        assert t.order.index(DEV) == s.order.index(MOR) and t.crowns == s.crowns
    elif rule == "no_effect":
        assert actions == [(1, NEGOTIATE)]
        t = after(s, SPY, (1, NEGOTIATE))
        assert (t.order, t.crowns) == (s.order, s.crowns)
    else:  # always: a disc goes on the board all the same
        assert actions == [(1, NEGOTIATE, *a) for a in rules.crown_actions(s)]
        assert after(s, SPY, (1, NEGOTIATE, MOR, DEV, MOR)).crowns.count(0) == 2


def _banned_manoeuvre(**options: str) -> GameState:
    """Player 1's Manoeuvre sent a Welsh follower from Moray to Strathclyde for a Scot; player 0 holds Spy."""
    s = table({"Mor": "S", "Str": "W"}, held=(SPY,), tops=(-1, MANOEUVRE), **options)
    s.undo_ban = rules.ban_after(s.edition, 1, (MOR, W, STR, S), MANOEUVRE)
    return s


def test_spy_ban_as_card_binds_the_copy_and_sets_the_ban_as_that_card():
    s = _banned_manoeuvre(spy_ban="as_card")
    assert s.undo_ban == (1, (MOR, S, STR, W), MANOEUVRE)
    assert cunning.card_actions(s, SPY) == [(1, MANOEUVRE)]  # the one swap would reverse it
    unbanned = table({"Mor": "S", "Str": "W"}, held=(SPY,), tops=(-1, MANOEUVRE))
    t = after(unbanned, SPY, (1, MANOEUVRE, MOR, S, STR, W))
    assert t.undo_ban == (0, (MOR, W, STR, S), MANOEUVRE)


def test_spy_ban_free_neither_binds_nor_sets():
    s = _banned_manoeuvre(spy_ban="free")
    assert cunning.card_actions(s, SPY) == [(1, MANOEUVRE, MOR, S, STR, W)]
    assert after(s, SPY, (1, MANOEUVRE, MOR, S, STR, W)).undo_ban is None


@pytest.mark.parametrize("rule", ADVANCED_OPTIONS["spy_pile"])
def test_spy_pile_option(rule):
    s = table({"Mor": "S"}, held=(SPY,), tops=(-1, ASSEMBLE, MARCH), players=3, spy_pile=rule)
    # The empty stock leaves Assemble nothing to place: (-1, -1, -1).
    with_effect = [(2, MARCH, MOR, S, STR)]
    expected = with_effect if rule == "fullest" else [(1, ASSEMBLE, NONE, NONE, NONE), *with_effect]
    assert cunning.card_actions(s, SPY) == expected
    idle = table(held=(SPY,), tops=(-1, ASSEMBLE, MARCH), players=3, spy_pile=rule)
    assert cunning.card_actions(idle, SPY) == [(1, ASSEMBLE, NONE, NONE, NONE), (2, MARCH)]


# -- placing from the stock ------------------------------------------------------------------------------

def test_aid_places_two_of_the_faction_most_in_the_stock_into_any_open_region():
    s = table(stock="SSSW", held=(AID,), resolved={"Mor": W})
    assert cunning.card_actions(s, AID) == [(S, r) for r in range(1, 8)]
    t = after(s, AID, (S, DEV))
    assert (region(t, "Dev"), stock(t)) == ("SS", "SW")
    one = table(stock="E", held=(AID,))
    assert (region(t := after(one, AID, (E, MOR)), "Mor"), stock(t)) == ("E", "")
    assert cunning.card_actions(table(held=(AID,)), AID) == [()]


@pytest.mark.parametrize("rule", ADVANCED_OPTIONS["aid_tie"])
def test_aid_tie_option(rule):
    s = table(stock="SSWWE", held=(AID,), aid_tie=rule)
    expected = [(f, r) for f in (S, W) for r in range(8)] if rule == "choose" else [()]
    assert cunning.card_actions(s, AID) == expected
    assert after(s, AID, expected[0]).board == (s.board if rule == "none" else table({"Mor": "SS"}).board)


def test_ambush_places_two_scots_then_returns_any_follower_even_a_scot_just_placed():
    s = table({"Lan": "W"}, stock="SS", held=(AMBUSH,))
    assert cunning.card_actions(s, AMBUSH) == sorted([(r, S) for r in range(8)] + [(LAN, W)])
    t = after(s, AMBUSH, (LAN, W))
    assert (region(t, "Lan"), stock(t)) == ("SS", "W")
    t = after(s, AMBUSH, (DEV, S))
    assert (region(t, "Dev"), stock(t)) == ("S", "S")


def test_ambush_without_scots_in_the_stock_only_returns_and_only_where_it_can():
    s = table({"Lan": "W", "Dev": "SE"}, held=(AMBUSH,))
    assert cunning.card_actions(s, AMBUSH) == [(LAN, W), (DEV, S), (DEV, E)]  # empty regions: no effect
    assert (region(t := after(s, AMBUSH, (DEV, E)), "Dev"), stock(t)) == ("S", "E")
    assert cunning.card_actions(table(held=(AMBUSH,)), AMBUSH) == [()]


def test_resist_places_two_non_scots_where_the_scottish_support_would():
    s = table(stock="SSWWE", held=(RESIST,))
    assert rules.faction_targets(s, S) == (STR,)  # Moray, their home, is unresolved
    assert cunning.card_actions(s, RESIST) == [(STR, W, W), (STR, W, E)]
    assert (region(t := after(s, RESIST, (STR, W, E)), "Str"), stock(t)) == ("WE", "SSW")
    assert cunning.card_actions(table(stock="SSW", held=(RESIST,)), RESIST) == [(STR, W)]
    assert cunning.card_actions(table(stock="SS", held=(RESIST,)), RESIST) == [()]
    assert cunning.card_actions(table(stock="WE", held=(RESIST,), resolved={"Mor": W}), RESIST) == [()]


def test_muster_prefers_a_target_with_a_scot_to_return_then_places_two_of_any_kind():
    s = table({"Nor": "S"}, stock="WE", held=(MUSTER,), resolved={"Lan": S})
    assert rules.faction_targets(s, S) == (STR, NOR, GWY, WAR)
    assert cunning.card_actions(s, MUSTER) == [(NOR, S, W), (NOR, S, E), (NOR, W, E)]
    t = after(s, MUSTER, (NOR, S, W))
    assert (region(t, "Nor"), stock(t)) == ("SW", "E")


def test_muster_places_the_scot_it_just_returned_and_places_without_a_scot_to_return():
    s = table({"Str": "S"}, held=(MUSTER,))
    assert cunning.card_actions(s, MUSTER) == [(STR, S)]
    assert (region(t := after(s, MUSTER, (STR, S)), "Str"), stock(t)) == ("S", "")
    assert cunning.card_actions(table({"Str": "W"}, stock="WE", held=(MUSTER,)), MUSTER) == [(STR, W, E)]
    assert cunning.card_actions(table({"Str": "W"}, held=(MUSTER,)), MUSTER) == [()]


def test_quell_is_muster_for_the_welsh():
    s = table({"Dev": "W", "Lan": "S"}, held=(QUELL,))
    assert rules.faction_targets(s, W) == (LAN, WAR, DEV)  # bordering Gwynedd, their home
    assert cunning.card_actions(s, QUELL) == [(DEV, W)]
    s = table({"Dev": "W", "Lan": "S"}, stock="SE", held=(QUELL,))
    assert cunning.card_actions(s, QUELL) == [(DEV, S, W), (DEV, S, E), (DEV, W, E)]
    assert (region(t := after(s, QUELL, (DEV, S, E)), "Dev"), stock(t)) == ("SE", "W")


def test_suppress_returns_an_english_then_another_then_places_one():
    s = table({"Dev": "EW", "War": "S"}, held=(SUPPRESS,))
    assert rules.faction_targets(s, E) == (NOR, WAR, DEV)  # bordering Essex, their home
    assert cunning.card_actions(s, SUPPRESS) == [(DEV, W, W), (DEV, W, E)]  # War's two movements lose
    t = after(s, SUPPRESS, (DEV, W, E))
    assert (region(t, "Dev"), stock(t)) == ("E", "W")


def test_suppress_writes_minus_one_for_a_part_that_cannot_happen():
    s = table({"Dev": "E"}, held=(SUPPRESS,))
    assert cunning.card_actions(s, SUPPRESS) == [(DEV, NONE, E)]
    assert region(after(s, SUPPRESS, (DEV, NONE, E)), "Dev") == "E"
    assert cunning.card_actions(table({"Dev": "EE"}, held=(SUPPRESS,)), SUPPRESS) == [(DEV, E, E)]
    no_english = table({"War": "S"}, stock="W", held=(SUPPRESS,))
    assert cunning.card_actions(no_english, SUPPRESS) == [(WAR, S, S), (WAR, S, W)]
    assert (region(t := after(no_english, SUPPRESS, (WAR, S, W)), "War"), stock(t)) == ("W", "S")
    assert cunning.card_actions(table(held=(SUPPRESS,)), SUPPRESS) == [()]


# -- moving followers on the board ------------------------------------------------------------------------

def test_dispute_swaps_a_welsh_for_a_non_welsh_between_any_two_regions():
    s = table({"Mor": "W", "Lan": "W", "Dev": "SE"}, held=(DISPUTE,))
    assert cunning.card_actions(s, DISPUTE) == [(MOR, W, DEV, S), (MOR, W, DEV, E), (LAN, W, DEV, S), (LAN, W, DEV, E)]
    t = after(s, DISPUTE, (MOR, W, DEV, E))
    assert (region(t, "Mor"), region(t, "Dev")) == ("E", "SW")
    assert cunning.card_actions(table({"Mor": "W", "Dev": "W"}, held=(DISPUTE,)), DISPUTE) == [()]


def test_influence_swaps_one_english_for_two_others_and_falls_back_to_one_for_one():
    s = table({"Mor": "SW", "Lan": "S", "Dev": "E"}, held=(INFLUENCE,))
    assert cunning.card_actions(s, INFLUENCE) == [(MOR, S, W, DEV, E)]  # any two regions; no 1-for-1 then
    t = after(s, INFLUENCE, (MOR, S, W, DEV, E))
    assert (region(t, "Mor"), region(t, "Dev")) == ("E", "SW")
    fallback = table({"Mor": "S", "Lan": "W", "Dev": "E"}, held=(INFLUENCE,))
    assert cunning.card_actions(fallback, INFLUENCE) == [(MOR, S, DEV, E), (LAN, W, DEV, E)]
    assert region(after(fallback, INFLUENCE, (LAN, W, DEV, E)), "Lan") == "E"
    assert cunning.card_actions(table({"Mor": "SWE"}, held=(INFLUENCE,)), INFLUENCE) == [()]


def test_edict_swaps_two_scots_for_two_others_between_bordering_regions():
    s = table({"Mor": "SS", "Str": "WE", "Dev": "WW"}, held=(EDICT,))
    assert cunning.card_actions(s, EDICT) == [(MOR, S, S, STR, W, E)]
    t = after(s, EDICT, (MOR, S, S, STR, W, E))
    assert (region(t, "Mor"), region(t, "Str")) == ("WE", "SS")
    assert cunning.card_actions(table({"Mor": "SS", "Dev": "WE"}, held=(EDICT,)), EDICT) == [()]  # no border


def test_edict_partial_rank_most_followers_three_moved_beat_two():
    """partial_rank "most_followers" (its only value): 2-for-1 and 1-for-2 alike, before 1-for-1."""
    s = table({"Mor": "SS", "Str": "W"}, held=(EDICT,), partial_rank="most_followers")
    assert cunning.card_actions(s, EDICT) == [(MOR, S, S, STR, W)]
    assert (region(t := after(s, EDICT, (MOR, S, S, STR, W)), "Mor"), region(t, "Str")) == ("W", "SS")
    other_way = table({"Mor": "S", "Str": "WE"}, held=(EDICT,))
    assert cunning.card_actions(other_way, EDICT) == [(STR, W, E, MOR, S)]
    assert region(after(other_way, EDICT, (STR, W, E, MOR, S)), "Mor") == "WE"
    one = table({"Mor": "S", "Str": "W", "Dev": "SSWW"}, held=(EDICT,))
    assert cunning.card_actions(one, EDICT) == [(MOR, S, STR, W)]


def test_march_moves_two_followers_into_a_bordering_region_else_one():
    s = table({"Mor": "SW"}, held=(MARCH,))
    assert cunning.card_actions(s, MARCH) == [(MOR, S, W, STR)]
    assert (region(t := after(s, MARCH, (MOR, S, W, STR)), "Mor"), region(t, "Str")) == ("", "SW")
    one = table({"Mor": "S", "Str": "W"}, held=(MARCH,))
    assert cunning.card_actions(one, MARCH) == [(MOR, S, STR), (STR, W, MOR), (STR, W, NOR), (STR, W, LAN)]
    assert cunning.card_actions(table({"Mor": "SW"}, held=(MARCH,), resolved={"Str": S}), MARCH) == [()]


# -- the no-reversal ban ----------------------------------------------------------------------------------

def test_cunning_ban_none_frees_the_swaps():
    s = table({"Mor": "W", "Dev": "S"}, held=(DISPUTE,), cunning_ban="none")
    t = after(s, DISPUTE, (MOR, W, DEV, S))
    assert t.undo_ban is None
    t.player = 1
    assert cunning.card_actions(t, DISPUTE) == [(MOR, S, DEV, W)]


def test_cunning_ban_same_effect_bans_the_reverse_for_the_same_card_only():
    s = table({"Mor": "W", "Dev": "S"}, held=(DISPUTE,), cunning_ban="same_effect")
    t = after(s, DISPUTE, (MOR, W, DEV, S))
    assert t.undo_ban == (0, (MOR, S, DEV, W), DISPUTE)
    t.player = 1
    assert cunning.card_actions(t, DISPUTE) == [()]
    assert (MOR, S, DEV, W) in rules.ambassador_actions(t)  # another card may
    t.player = 0
    assert cunning.card_actions(t, DISPUTE) == [(MOR, S, DEV, W)]  # and its own player may


def test_cunning_ban_same_effect_on_edict_falls_back_to_the_fullest_unbanned_swap():
    s = table({"Mor": "SS", "Str": "WE"}, held=(EDICT,), cunning_ban="same_effect")
    t = after(s, EDICT, (MOR, S, S, STR, W, E))
    assert t.undo_ban == (0, (STR, S, S, MOR, W, E), EDICT)
    t.player = 1
    assert cunning.card_actions(t, EDICT) == [(MOR, W, E, STR, S), (STR, S, S, MOR, W), (STR, S, S, MOR, E)]
    free = after(table({"Mor": "SS", "Str": "WE"}, held=(EDICT,)), EDICT, (MOR, S, S, STR, W, E))
    free.player = 1
    assert free.undo_ban is None and cunning.card_actions(free, EDICT) == [(STR, S, S, MOR, W, E)]


def test_cunning_ban_same_effect_on_influence():
    s = table({"Mor": "SW", "Dev": "E"}, held=(INFLUENCE,), cunning_ban="same_effect")
    t = after(s, INFLUENCE, (MOR, S, W, DEV, E))
    t.player = 1
    assert cunning.card_actions(t, INFLUENCE) == [(MOR, E, DEV, S), (MOR, E, DEV, W)]  # 2-for-1 back is banned


def test_a_2_for_2_exchange_has_one_effect_and_one_spelling():
    forward, back = (MOR, S, S, STR, W, E), (STR, S, S, MOR, W, E)
    assert rules.reverse_exchange(forward) == back
    assert rules.exchange_effect(forward) == (MOR, STR, (-2, 1, 1, 0))
    assert rules.exchange_effect((STR, W, E, MOR, S, S)) == rules.exchange_effect(forward)  # the same change
    assert rules.spell_effect(rules.exchange_effect(back)) == back


def test_manoeuvre_bans_as_a_three_item_ban_in_the_advanced_game_only():
    s = table({"Mor": "S", "Str": "W"})
    rules.play_card(s, MANOEUVRE, (MOR, S, STR, W))
    assert s.undo_ban == (0, (MOR, W, STR, S), MANOEUVRE)
    standard = GameState.new(2, edition="second", seed=1)
    standard.board = table({"Mor": "S", "Str": "W"}).board
    rules.play_card(standard, MANOEUVRE, (MOR, S, STR, W))
    assert standard.undo_ban == (0, (MOR, W, STR, S))


# -- Plot, the hands and the legality of a Cunning move ----------------------------------------------------

def test_plot_is_never_played():
    s = table({"Mor": "S"}, held=(PLOT,))
    s.hands = [0] * len(s.hands)
    assert cunning.card_actions(s, PLOT) == []
    assert rules.legal_moves(s) == [PASS]
    with pytest.raises(IllegalMoveError, match="never played"):
        legality.check_move(s, Move(PLOT, (), (MOR, S)))
    s.cunning[0] |= 1 << (MARCH - FIRST_CUNNING)
    assert {m.card for m in rules.legal_moves(s)} == {None, MARCH}


def test_a_cunning_card_is_played_from_the_hand_with_its_summon():
    s = table({"Mor": "SW"}, held=(MARCH, AID))
    moves = rules.legal_moves(s)
    assert [m for m in moves if m.card is MARCH] == [Move(MARCH, (MOR, S, W, STR), (STR, f)) for f in (S, W)]
    s.apply(Move(MARCH, (MOR, S, W, STR), (STR, W)))
    assert (region(s, "Str"), s.court(0)[W]) == ("S", table().court(0)[W] + 1)
    assert s.cunning[0] == 1 << (AID - FIRST_CUNNING) and s.cunning_played[0] == 1 << (MARCH - FIRST_CUNNING)
    assert s.tops[0] == MARCH and s.player == 1


@pytest.mark.parametrize(("move", "why"), [
    (Move(SPY, ()), "player 1 does not hold the Spy card"),
    (Move(MARCH, (MOR, S, W, NOR), (NOR, W)), r"\(0, 0, 1, 2\) is not a legal action here"),
    (Move(MARCH, (MOR, S, STR), (STR, S)), "a fuller effect is possible"),
    (Move(MARCH, (), (MOR, S)), "carried out as fully as it can"),
    (Move(AID, (S, MOR), (MOR, S)), "nothing can happen here"),
    (Move(MARCH, ("Mor",), (MOR, S)), "tuple of integers"),
    (Move(MARCH, (MOR, S, W, STR), (MOR, S)), "court call"),
])
def test_an_illegal_cunning_move_says_why(move, why):
    s = table({"Mor": "SW"}, held=(MARCH, AID))
    with pytest.raises(IllegalMoveError, match=why):
        legality.check_move(s, move)


def test_an_illegal_spy_says_why():
    s = table({"Mor": "SW"}, held=(SPY,), tops=(-1, SPY, -1), players=3)
    for action, why in [((0, MARCH), "another player's pile"), ((2, MARCH), "player 3 has played no card"),
                        ((1, MARCH), "the top of player 2's pile is Spy"), ((1, SPY), "cannot be spied")]:
        s.tops[2] = -1 if action[0] == 2 else MARCH
        with pytest.raises(IllegalMoveError, match=why):
            legality.check_move(s, Move(SPY, action, (MOR, S)))


def test_a_cunning_card_is_unknown_in_the_standard_game():
    s = GameState.new(2, edition="second", seed=1)
    assert rules.card_actions(s, MARCH) == []
    with pytest.raises(IllegalMoveError, match="unknown card"):
        legality.check_move(s, Move(MARCH, ()))


def test_the_last_card_counts_cunning_cards_and_binds_on_the_hands_the_table_sees():
    s = table({"Mor": "SW", "Dev": "E"}, held=(MARCH,), players=3, last_card="must_win")
    s.hands = [0] * len(s.hands)
    assert lastcard.last_card_applies(s)  # a Cunning card is the last card
    marches = [Move(MARCH, (MOR, S, W, STR), (STR, f)) for f in (S, W)] + [Move(MARCH, (MOR, S, W, STR), (DEV, E))]
    assert rules.legal_moves(s) == [PASS] + [m for m in marches if lastcard.wins_outright(s, m)]
    s.cunning[0] |= 1 << (PLOT - FIRST_CUNNING)
    assert lastcard.last_card_applies(s)  # the mover's own Plot is never played: March is still the last card
    s.cunning[0] &= ~(1 << (PLOT - FIRST_CUNNING))
    s.cunning[1] = 1 << (PLOT - FIRST_CUNNING)
    # Another hand holds a card, which the mover cannot see is Plot: the rule does not bind (it would tell them).
    assert not lastcard.last_card_applies(s)
    assert s.view(0) == with_cunning(s, 1, AID).view(0)
    assert not lastcard.last_card_applies(with_cunning(s, 1, AID))


def with_cunning(s, player, card):
    """A copy of ``s`` in which ``player`` holds only ``card`` among the Cunning cards."""
    other = s.copy()
    other.cunning[player] = 1 << (card - FIRST_CUNNING)
    return other


# -- whole games ----------------------------------------------------------------------------------------

@settings(max_examples=30)
@given(seed=st.integers(0, 2**32 - 1), players=st.sampled_from((2, 3, 4)),
       options=st.fixed_dictionaries({name: st.sampled_from(values) for name, values in ADVANCED_OPTIONS.items()}),
       last_card=st.sampled_from(("free", "must_win")))
def test_random_advanced_games_play_only_legal_moves_and_keep_every_follower(seed, players, options, last_card):
    options = {**options, "last_card": last_card}
    s = GameState.new(players, edition="second", mode="advanced", seed=seed, options=options)
    counts, rng = totals(s), Random(seed)
    for turn in range(1000):
        if s.is_over():
            break
        checked = turn % 5 == 0
        if checked:
            moves = rules.legal_moves(s)
            assert all(m.card is not PLOT for m in moves)
            for m in moves:
                assert m.card is None or normalise(m.card, m.action) == m.action
        before = s.copy()
        move = playout.play_random(s, rng)
        if checked:
            assert move in moves and legality.check_move(before, move) == move
        assert totals(s) == counts
    assert s.is_over()
