"""The second edition (Osprey 2020): one test per point of ../shared/rules/second-edition.md.

Every test runs on both engines (the compiled core and the reference). Positions
are built in the second edition's names: regions Mor, Str, Nor, Lan, Gwy, War, Ess,
Dev; factions S(cottish), W(elsh), E(nglish); X is an unstable region.
"""

from __future__ import annotations

import pickle

import pytest
from positions import assert_illegal, build, followers, full_hand, hand_without, play

from kingisdead import Card, GameState, position
from kingisdead.edition import SECOND, get_edition
from kingisdead.record import GameRecord

pytestmark = pytest.mark.usefixtures("each_engine")

MOR, STR, NOR, LAN, GWY, WAR, ESS, DEV = range(8)
S, W, E = 0, 1, 2
UNSTABLE = 4
FULL = full_hand(SECOND)


def second(players: int = 2, **kw) -> GameState:
    kw.setdefault("edition", "second")
    return build(players, **kw)


# -- components, map and setup --------------------------------------------------------

def test_the_map_factions_and_cards_are_the_second_editions():
    names = dict(zip(SECOND.region_codes, SECOND.regions))
    borders = {frozenset((SECOND.regions[a], SECOND.regions[b])) for a, b in SECOND.borders}
    listed = ("Moray-Strathclyde Strathclyde-Lancaster Strathclyde-Northumbria Lancaster-Northumbria "
              "Lancaster-Gwynedd Lancaster-Warwick Northumbria-Warwick Northumbria-Essex Gwynedd-Warwick "
              "Gwynedd-Devon Warwick-Essex Warwick-Devon Essex-Devon")
    assert borders == {frozenset(pair.split("-")) for pair in listed.split()}
    assert [SECOND.regions[h] for h in SECOND.homes] == ["Moray", "Gwynedd", "Essex"]
    assert names["Mor"] == "Moray" and SECOND.factions[:3] == ("Scottish", "Welsh", "English")
    assert sorted(FULL) == sorted(["Scottish Support", "Welsh Support", "English Support", "Assemble",
                                   "Assemble", "Negotiate", "Manoeuvre", "Outmanoeuvre"])
    assert SECOND.invasion == 3 and not SECOND.mordred


@pytest.mark.parametrize(("players", "supply"), [(2, 12), (3, 16), (4, 14)])
def test_setup_fills_regions_to_four_and_leaves_the_supply(players, supply):
    s = GameState.new(players, seed=7, edition="second")
    per_faction = 16 if players == 2 else 18
    for f in range(3):
        assert sum(s.board[r * 4 + f] for r in range(8)) + s.stock[f] + sum(s.courts[f::3]) == per_faction
    assert all(sum(s.board[r * 4:r * 4 + 4]) == 4 for r in range(8))
    assert all(sum(s.court(p)) == 2 for p in range(players))
    assert sum(s.stock[:3]) == supply
    assert s.player == 0 and s.saxons == 0 and s.hands[:7] == [1, 1, 1, 2, 1, 1, 1]


def test_the_first_player_is_chosen_and_the_seed_decides_every_draw():
    assert GameState.new(3, seed=5, first_player=2, edition="second").player == 2
    assert GameState.new(3, seed=5, edition="second") == GameState.new(3, seed=5, edition="second")
    assert GameState.new(3, seed=5, edition="second") != GameState.new(3, seed=6, edition="second")


def _clashing_seed() -> int:
    """A seed whose second-edition setup deals two players the same single-faction pair."""
    for seed in range(2000):
        s = GameState.new(2, seed=seed, edition="second")
        if s.court(0) == s.court(1) and max(s.court(0)) == 2:
            return seed
    raise AssertionError("no clash in 2000 seeds")


def test_court_clashes_are_kept_unless_the_redraw_option_is_on():
    seed = _clashing_seed()
    redrawn = GameState.new(2, seed=seed, edition=SECOND.with_options(court_redraw=True))
    assert not (redrawn.court(0) == redrawn.court(1) and max(redrawn.court(0)) == 2)


def test_the_second_edition_has_no_mordred_variant():
    with pytest.raises(ValueError, match="no Mordred"):
        GameState.new(2, "mordred", edition="second")


def test_an_edition_hashes_by_its_rules_once_and_travels_without_its_hash():
    """Editions with equal rules hash alike (a position's key holds one); the hash, kept after the first
    time, is never pickled: another process hashes strings differently."""
    exact = SECOND.with_options(reversal="exact")
    assert hash(exact) == hash(SECOND.with_options(reversal="exact")) and exact != SECOND
    assert hash(exact) == hash(exact)
    copied = pickle.loads(pickle.dumps(exact))
    assert "_hash" not in copied.__dict__ and copied == exact and hash(copied) == hash(exact)
    assert "_hash" not in repr(exact) and len({exact, copied, SECOND}) == 2


def test_unknown_editions_and_options_are_refused():
    with pytest.raises(ValueError, match="unknown edition"):
        GameState.new(2, edition="third")
    with pytest.raises(ValueError, match="cannot be"):
        get_edition("second", reversal="sideways")
    with pytest.raises(ValueError, match="no options"):
        get_edition("first", reversal="exact")


# -- struggles ---------------------------------------------------------------------------

def test_a_tie_makes_the_region_unstable_and_a_disc_leaves_france():
    s = second(regions={"Mor": "SW", "Lan": "E"}, order=["Mor"])
    play(s, "pass", "pass")
    assert s.control[MOR] == UNSTABLE and s.saxons == 1 and not s.open >> MOR & 1
    assert s.stock[S] == 16 and followers(s, "Mor") == ""


def test_an_empty_region_is_unstable_and_a_strict_majority_takes_control():
    s = second(regions={"Str": "SSW"}, order=["Mor", "Str"])
    play(s, "pass", "pass")
    assert s.control[MOR] == UNSTABLE
    play(s, "pass", "pass")
    assert s.control[STR] == S and s.saxons == 1


# -- the cards --------------------------------------------------------------------------

def test_support_places_both_followers_in_one_region():
    s = second(control={"Lan": "S"}, regions={"Gwy": "W"})
    targets = {STR, NOR, GWY, WAR}  # bordering Moray (home, no disc) or Lancaster
    assert sorted(s.card_actions(Card.SCOTS)) == sorted((r, r) for r in targets)
    assert_illegal(s, "Scottish Str Nor +Gwy:W", "same region")
    play(s, "Scottish Nor Nor +Gwy:W")
    assert followers(s, "Nor") == "SS"


def test_support_reaches_from_the_home_only_while_it_has_no_disc():
    s = second(control={"Mor": "W"}, regions={"Lan": "E"})
    assert s.card_actions(Card.SCOTS) == [()]  # the Scots hold no region; their home is taken


def test_support_places_what_the_supply_holds():
    s = second(regions={"Gwy": "SSSSSSS", "Ess": "SSSSSSSS"}, stock={"Scottish": 1})
    assert s.card_actions(Card.SCOTS) == [(STR,)]
    play(s, "Scottish Str +Ess:S")
    assert followers(s, "Str") == "S"


def test_assemble_places_one_of_each_faction_and_skips_a_missing_one():
    s = second(regions={"Gwy": "SSSSSSSS", "Ess": "SSSSSSSS", "Lan": "W"})
    assert s.stock[S] == 0
    play(s, "Assemble W>Dev E>Dev +Lan:W")
    assert followers(s, "Dev") == "WE"
    assert_illegal(second(regions={"Lan": "W"}), "Assemble W>Dev E>Dev +Lan:W", "must be placed")


def test_negotiate_swaps_two_cards_and_places_the_disc_which_then_never_moves():
    s = second(regions={"Lan": "S"})
    play(s, "Negotiate Nor<>Dev *Dev +Lan:S")
    assert s.order == [MOR, STR, DEV, LAN, GWY, WAR, ESS, NOR] and s.crowns[DEV] == 0
    assert_illegal(second(regions={"Lan": "S"}, crowns={"Dev": 1}, hands=[FULL, hand_without("Negotiate", edition=SECOND)]),
                   "Negotiate Dev<>Nor *Nor +Lan:S", "cannot be swapped")


def test_negotiate_with_fewer_than_two_swappable_cards_does_nothing():
    s = second(control={"Mor": "S", "Str": "S", "Nor": "W", "Lan": "W", "Gwy": "E", "War": "E"},
               regions={"Ess": "S"}, crowns={"Dev": 1}, hands=[FULL, hand_without("Negotiate", edition=SECOND)])
    assert s.card_actions(Card.CROWN) == [()]
    play(s, "Negotiate +Ess:S")
    assert s.crowns.count(0) == 0


def test_manoeuvre_swaps_followers_of_any_two_unresolved_regions():
    s = second(regions={"Mor": "S", "Dev": "E", "Ess": "W"})
    play(s, "Manoeuvre Mor:S<>Dev:E +Ess:W")
    assert followers(s, "Mor") == "E" and followers(s, "Dev") == "S"


def test_outmanoeuvre_takes_two_for_one_from_a_bordering_region():
    s = second(regions={"Lan": "SS", "Nor": "W", "Mor": "E"})
    assert s.card_actions(Card.GARRISON) == [(LAN, S, S, NOR, W)]
    play(s, "Outmanoeuvre Lan:SS>Nor:W +Mor:E")
    assert followers(s, "Lan") == "W" and followers(s, "Nor") == "SS"


def test_outmanoeuvre_falls_back_to_one_for_one_only_when_no_two_for_one_is_allowed():
    s = second(regions={"Lan": "S", "Nor": "W", "Mor": "E"})
    assert s.card_actions(Card.GARRISON) == [(NOR, W, LAN, S)]
    # The ban applies first: the only 2-for-1 would reverse player 1's, so player 2 swaps 1 for 1.
    s = second(regions={"Lan": "SS", "Nor": "W", "Mor": "EEE"})
    play(s, "Outmanoeuvre Lan:SS>Nor:W +Mor:E")
    assert s.card_actions(Card.GARRISON) == [(NOR, S, LAN, W)]


# -- no reversal --------------------------------------------------------------------------

def _after_manoeuvre(players: int = 2, edition=SECOND) -> GameState:
    s = second(players, regions={"Nor": "S", "Ess": "E", "Mor": "EEE"}, edition=edition)
    return play(s, "Manoeuvre Nor:S<>Ess:E +Mor:E")


def test_a_manoeuvre_may_not_be_reversed_by_another_manoeuvre():
    s = _after_manoeuvre()
    assert (NOR, E, ESS, S) not in s.card_actions(Card.AMBASSADOR)
    assert_illegal(s, "Manoeuvre Nor:E<>Ess:S +Mor:E", "undo")


def test_the_ban_binds_only_the_same_card():
    s = _after_manoeuvre()
    assert (NOR, E, ESS, S) in s.card_actions(Card.GARRISON)  # an Outmanoeuvre may reverse a Manoeuvre
    play(s, "Outmanoeuvre Nor:E<>Ess:S +Mor:E")


def test_passes_do_not_lift_the_ban_and_the_player_may_undo_their_own():
    s = _after_manoeuvre(3)
    play(s, "pass")
    assert (NOR, E, ESS, S) not in s.card_actions(Card.AMBASSADOR)  # the third player
    play(s, "pass")
    assert (NOR, E, ESS, S) in s.card_actions(Card.AMBASSADOR)  # the first player's own exchange


def test_a_partner_may_not_undo_the_others_exchange():
    s = _after_manoeuvre(4)
    play(s, "pass")
    assert s.player == 2 and (NOR, E, ESS, S) not in s.card_actions(Card.AMBASSADOR)


def test_a_struggles_resolution_does_not_lift_the_ban():
    s = second(regions={"Nor": "S", "Ess": "E", "Mor": "EEE", "Str": "S"}, order=["Str"])
    play(s, "Manoeuvre Nor:S<>Ess:E +Mor:E", "pass", "pass")
    assert s.control[STR] == S and s.player == 1
    assert s.undo_ban is not None
    assert (NOR, E, ESS, S) not in s.card_actions(Card.AMBASSADOR)
    first = build(regions={"Ebo": "S", "Lon": "R", "Cal": "RRR", "Din": "S"}, order=["Din"])
    play(first, "Ambassador Ebo:S<>Lon:R +Cal:R", "pass", "pass")
    assert first.undo_ban is None  # the first edition lifts it


def test_reversal_by_effect_bans_every_spelling_and_a_same_faction_swap_sets_no_ban():
    s = second(regions={"Nor": "SWE", "Ess": "SE", "Mor": "EEE"})
    play(s, "Outmanoeuvre Nor:SW>Ess:S +Mor:E")
    assert (ESS, S, W, NOR, S) not in s.card_actions(Card.GARRISON)
    assert (ESS, W, E, NOR, E) not in s.card_actions(Card.GARRISON)  # the same change, spelled otherwise
    s = second(regions={"Nor": "S", "Ess": "S", "Mor": "EEE"})
    play(s, "Manoeuvre Nor:S<>Ess:S +Mor:E")
    assert s.undo_ban is None


def test_exact_reversal_bans_only_the_literal_reverse():
    exact = SECOND.with_options(reversal="exact")
    s = second(regions={"Nor": "SWE", "Ess": "SE", "Mor": "EEE"}, edition=exact)
    play(s, "Outmanoeuvre Nor:SW>Ess:S +Mor:E")
    actions = s.card_actions(Card.GARRISON)
    assert (ESS, S, W, NOR, S) not in actions and (ESS, W, E, NOR, E) in actions
    s = second(regions={"Nor": "S", "Ess": "S", "Mor": "EEE"}, edition=exact)
    play(s, "Manoeuvre Nor:S<>Ess:S +Mor:E")
    assert s.undo_ban == (0, (NOR, S, ESS, S))  # a same-faction swap is its own reverse
    assert (NOR, S, ESS, S) not in s.card_actions(Card.AMBASSADOR)
    again = position.loads(position.dumps(s))
    assert again == s and again.edition.reversal == "exact"


# -- endings ----------------------------------------------------------------------------

def test_the_third_instability_disc_ends_the_game_in_invasion():
    s = second(control={"Mor": "X", "Str": "X"}, regions={"Lan": "S"}, order=["Nor"], courts=["SWE", "SW"])
    play(s, "pass", "pass")
    assert s.saxons == 3 and s.result.ending == "invasion" and s.result.winners == (0,)
    assert "instability" in s.result.reason


def test_an_invasion_tie_goes_to_the_player_who_played_a_card_last():
    s = second(control={"Mor": "X", "Str": "X"}, regions={"Lan": "S"}, order=["Nor"],
               courts=["SWE", "SWE"], played_order=[1, 0])
    play(s, "pass", "pass")
    assert s.result.winners == (0,)


def test_four_players_pool_their_courts_at_an_invasion():
    s = second(4, control={"Mor": "X", "Str": "X"}, regions={"Lan": "S"}, order=["Nor"],
               courts=["SW", "S", "E", ""])
    play(s, "pass", "pass", "pass", "pass")
    assert s.result.winners == (0, 2)


CROWNING = {"Mor": "S", "Str": "S", "Nor": "S", "Lan": "W", "Gwy": "W", "War": "E", "Ess": "E"}
"""Seven resolved regions; the last, Devon, goes to whoever holds it."""


def _coronation(courts, devon="S", players=2, **kw) -> GameState:
    s = second(players, control=CROWNING, regions={"Dev": devon}, courts=courts, **kw)
    play(s, *["pass"] * players)
    assert s.result is not None and s.result.ending == "coronation"
    return s


def test_factions_rank_by_regions_then_by_the_most_recent_struggle():
    s = _coronation(["SWE", "SWE"], devon="W")  # Welsh and Scots 3 each: the Welsh won last
    assert s.result.ranking[:2] == (W, S)


def test_the_most_followers_of_the_ruling_faction_win():
    assert _coronation(["S", "SS"]).result.winners == (1,)


def test_a_tie_goes_to_the_next_faction_while_the_ranking_is_strict():
    s = _coronation(["SSW", "SSE"])  # Scots 4, then English and Welsh 2 each: the English won last
    assert s.result.ranking == (S, E, W) and s.result.winners == (1,)


def test_still_tied_the_player_who_emptied_their_hand_first_wins():
    s = _coronation(["SS", "SS"], hands=[[], ["Assemble"]], played_order=[1, 0])
    assert s.result.winners == (0,)  # player 1 played last, but emptied their hand
    s = _coronation(["SS", "SS"], hands=[[], []], played_order=[1, 0])
    assert s.result.winners == (1,)  # both emptied: player 2 emptied first


def test_with_no_hand_emptied_the_earliest_last_card_play_wins():
    s = _coronation(["SS", "SS"], hands=[["Assemble"], ["Assemble"]], played_order=[1, 0])
    assert s.result.winners == (1,)


def test_option_tie_hands_lowest_seat_decides_only_where_no_tied_hand_is_empty():
    edition = SECOND.with_options(tie_hands="lowest_seat")
    # No hand emptied, player 2 played earliest: earliest gives player 2, lowest_seat player 1.
    for option, winner in ((SECOND, 1), (edition, 0)):
        s = _coronation(["SS", "SS"], hands=[["Assemble"], ["Assemble"]], played_order=[1, 0], edition=option)
        assert s.result.winners == (winner,), option.tie_hands
        assert s.result.steps[-1].kind == ("earliest_play" if winner else "lowest_seat")
    # Player 2 emptied their hand: with either value they win, whatever the seat.
    for option in (SECOND, edition):
        s = _coronation(["SS", "SS"], hands=[["Assemble"], []], played_order=[0, 1], edition=option)
        assert s.result.winners == (1,), option.tie_hands
        assert s.result.steps[-1].kind == "emptied_hand" and s.result.steps[-1].values == ((0, -1), (1, s.last_play[1]))


THIRD_DECIDES = {"courts": ["SSEW", "SSE"], "hands": [["Assemble"], ["Assemble"]], "played_order": [1, 0]}
"""Tied on the Scottish (4 regions) and the English (2, won last), apart on the Welsh (2); no hand
emptied, and player 2's last card play came earliest."""


def test_option_tie_faction_second_compares_the_second_faction_only_then_the_hands():
    s = _coronation(**THIRD_DECIDES)  # the default
    assert s.edition.tie_faction == "second" and s.result.ranking == (S, E, W)
    assert s.result.winners == (1,)
    assert [(step.kind, step.faction) for step in s.result.steps] == [
        ("faction", S), ("faction", E), ("earliest_play", None)]


def test_option_tie_faction_strict_compares_every_next_faction_while_the_ranking_is_strict():
    s = _coronation(**THIRD_DECIDES, edition=SECOND.with_options(tie_faction="strict"))
    assert s.result.winners == (0,)
    assert [(step.kind, step.faction, step.kept) for step in s.result.steps] == [
        ("faction", S, (0, 1)), ("faction", E, (0, 1)), ("faction", W, (0,))]


def test_option_tie_faction_always_compares_factions_without_regions():
    control = {"Mor": "S", "Str": "S", "Nor": "S", "Lan": "X", "Gwy": "X", "War": "S", "Ess": "S"}
    for option in ("second", "strict", "always"):
        edition = SECOND.with_options(tie_faction=option)
        s = second(control=control, regions={"Dev": "S"}, courts=["SSE", "SSW"],
                   hands=[["Assemble"], ["Assemble"]], played_order=[0, 1], edition=edition)
        play(s, "pass", "pass")
        # second and strict: only the Scottish rank alone, then the hands; always: the Welsh next.
        assert s.result.winners == ((1,) if option == "always" else (0,)), option


def test_four_players_the_team_that_exhausted_both_hands_first_wins_a_hands_tie():
    s = _coronation(["SS", "SS", "", ""], players=4, hands=[[], ["Assemble"], [], []],
                    played_order=[0, 2, 3, 1])
    assert s.result.winners == (0, 2)


def test_records_and_positions_carry_the_edition_and_old_files_load_as_the_first():
    s = GameState.new(2, seed=3, edition="second")
    record = GameRecord(["a", "b"], seed=3, edition=s.edition)
    move = s.legal_moves()[5]
    record.add(move)
    data = record.to_dict()
    assert data["edition"] == "second" and data["moves"][0] == s.notation(move)
    assert GameRecord.from_dict(data).replay() == s.after(move)
    text = position.dumps(s)
    assert position.loads(text) == s and '"Moray"' in text
    old = position.to_dict(GameState.new(2, seed=3))
    del old["edition"]
    assert position.from_dict(old).edition.name == "first"


def test_files_naming_the_former_default_tie_faction_strict_still_load_with_it():
    strict = SECOND.with_options(tie_faction="strict")
    s = GameState.new(3, seed=4, edition=strict)
    data = position.to_dict(s)
    assert data["options"] == {"tie_faction": "strict"}
    assert position.from_dict(data).edition == strict
    record = GameRecord(["a", "b", "c"], seed=4, edition=strict).to_dict()
    assert record["options"] == {"tie_faction": "strict"}
    assert GameRecord.from_dict(record).replay().edition.tie_faction == "strict"
    assert GameRecord.from_dict(dict(record, options={})).edition.tie_faction == "second"
    assert SECOND.tie_faction == "second" and SECOND.last_card == "free" and SECOND.options() == {}
