"""Endings and every tie-break step: coronation, invasion, four-player teams, Mordred.

Final positions are built directly (a position with every region resolved, four
Saxon tokens or a Loyalist win is scored when it is loaded), and the endings
that happen during play are reached by passing.
"""

from __future__ import annotations

import pytest
from positions import build

pytestmark = pytest.mark.usefixtures("each_engine")
"""Every rule test runs on both engines: the compiled core and the reference."""

S, W, R = 0, 1, 2

def final(players=2, variant="standard", *, control, courts, played_order=None, regions=None, order=None):
    """A finished game: ``control`` lists the resolved regions in the order they were won.

    The seats in ``played_order`` (default: all) played at least one card, and as many as
    their courts need (a follower beyond the 2 drawn at setup came with a card play); which
    cards does not matter, only the order of the latest plays.
    """
    played_order = list(range(players)) if played_order is None else played_order
    s = build(players, variant, control=control, courts=courts, played_order=played_order,
              regions=regions, order=order)
    assert s.is_over()
    return s.result


# The eight regions in a fixed order, for control tables below.
ALL = ["Cal", "Din", "Ebo", "Dev", "Cae", "Rat", "Lon", "Aqu"]


def control_of(*winners: str) -> dict[str, str]:
    return dict(zip(ALL, winners))


# -- coronation ------------------------------------------------------------------------

def test_coronation_faction_with_most_regions_rules_and_its_top_holder_wins():
    result = final(control=control_of("S", "S", "S", "W", "W", "R", "X", "X"), courts=["SSW", "SWWWWR"])
    assert result.ending == "coronation"
    assert result.ranking == (S, W, R)
    assert result.winners == (0,) and result.ruler == 0


@pytest.mark.parametrize(("winners", "ruling", "crowned"), [
    (("S", "W", "S", "W", "R", "X", "X", "X"), W, 1),  # the Welsh won last among the tied
    (("W", "S", "W", "S", "R", "X", "X", "X"), S, 0),
])
def test_coronation_region_tie_goes_to_the_faction_that_won_most_recently(winners, ruling, crowned):
    result = final(control=control_of(*winners), courts=["SSS", "WWW"])
    assert result.ranking[0] == ruling
    assert result.ruler == crowned


def test_coronation_follower_tie_broken_by_the_next_ranked_faction():
    result = final(control=control_of("S", "S", "S", "W", "W", "R", "X", "X"), courts=["SSW", "SSWW"])
    assert result.winners == (1,)


def test_coronation_next_faction_ranked_by_recency_too():
    # Welsh and Romano-British both hold 2 regions; the Romano-British won more recently,
    # so they break the Scots tie, although player 2 has more Welsh.
    result = final(control=control_of("S", "S", "S", "W", "W", "R", "R", "X"), courts=["SSR", "SSWW"])
    assert result.ranking == (S, R, W)
    assert result.winners == (0,)


def test_coronation_zero_region_faction_ranked_below_and_breaks_remaining_ties():
    result = final(control=control_of("S", "S", "S", "S", "W", "W", "X", "X"), courts=["SSWR", "SSW"])
    assert result.ranking == (S, W, R)
    assert result.winners == (0,)


@pytest.mark.parametrize(("played_order", "crowned"), [([0, 1], 0), ([1, 0], 1)])
def test_coronation_two_zero_region_factions_stay_tied(played_order, crowned):
    # Only the Scots hold regions; Welsh and Romano-British are tied at zero, so player 1's
    # extra Welsh follower counts for nothing and the last to play loses.
    result = final(control=control_of("S", "S", "S", "S", "S", "X", "X", "X"), courts=["SSW", "SS"],
                   played_order=played_order)
    assert result.ranking[0] == S and set(result.ranking[1:]) == {W, R}
    assert result.ruler == crowned


@pytest.mark.parametrize(("played_order", "crowned"), [([0, 1], 0), ([1, 0], 1)])
def test_coronation_tie_last_player_to_play_loses(played_order, crowned):
    result = final(control=control_of("S", "S", "S", "W", "W", "W", "R", "X"), courts=["SWR", "SWR"],
                   played_order=played_order)
    assert result.winners == (crowned,)
    assert "played a card last and drops out" in result.reason


def test_coronation_tie_drops_the_last_players_in_turn():
    result = final(3, control=control_of("S", "S", "S", "W", "W", "W", "R", "X"), courts=["SW", "SW", "SW"],
                   played_order=[2, 0, 1])
    assert result.winners == (2,)


def test_coronation_tie_player_who_never_played_beats_one_who_did():
    result = final(control=control_of("S", "S", "S", "W", "W", "W", "R", "X"), courts=["SW", "SW"],
                   played_order=[1])
    assert result.winners == (0,)


def test_coronation_tie_nobody_played_shares_the_win():
    result = final(control=control_of("S", "S", "S", "W", "W", "W", "R", "X"), courts=["SW", "SW"],
                   played_order=[])
    assert result.winners == (0, 1) and result.ruler is None


def test_coronation_tie_only_among_the_leaders():
    # Player 3 played last but is not tied for the lead: players 1 and 2 are, and 2 played after 1.
    result = final(3, control=control_of("S", "S", "S", "W", "W", "W", "R", "X"), courts=["SSW", "SSW", "S"],
                   played_order=[0, 1, 2])
    assert result.winners == (0,)


def test_coronation_four_players_partner_shares_the_win():
    result = final(4, control=control_of("S", "S", "S", "W", "W", "R", "X", "X"), courts=["S", "SSS", "SS", "W"])
    assert result.ruler == 1
    assert result.winners == (1, 3)


def test_coronation_four_players_tie_break_is_between_individuals():
    result = final(4, control=control_of("S", "S", "S", "W", "W", "R", "X", "X"), courts=["SS", "SS", "S", ""],
                   played_order=[3, 1, 0, 2])
    assert result.ruler == 1
    assert result.winners == (1, 3)


# -- invasion --------------------------------------------------------------------------

def test_invasion_at_the_fourth_saxon_token_ends_the_game_at_once():
    s = build(control={"Cal": "X", "Din": "X", "Ebo": "S", "Dev": "X"}, regions={"Cae": "SW", "Rat": "SS"},
              order=["Cae"], courts=["SWR", "S"])
    s.apply("pass").apply("pass")
    assert s.is_over() and s.result.ending == "invasion"
    assert s.resolved == 5 and s.saxons == 4
    assert s.followers(5, S) == 2  # Ratae is never resolved
    assert s.legal_moves() == []
    assert s.result.winners == (0,)


def test_invasion_on_the_last_struggle_beats_coronation():
    s = build(control=control_of("S", "S", "S", "W", "X", "X", "X"), regions={"Aqu": "SW"}, courts=["SWR", "SS"])
    s.apply("pass").apply("pass")
    assert s.resolved == 8
    assert s.result.ending == "invasion"


def test_invasion_most_complete_sets_wins():
    result = final(control={"Cal": "X", "Din": "X", "Ebo": "X", "Dev": "X"},
                   courts=["SWRSWR", "SSSSWWWWR"])
    assert result.ending == "invasion"
    assert result.winners == (0,) and result.ruler == 0


@pytest.mark.parametrize(("played_order", "leader"), [([0, 1], 1), ([1, 0], 0)])
def test_invasion_tie_last_player_to_play_wins(played_order, leader):
    result = final(control={"Cal": "X", "Din": "X", "Ebo": "X", "Dev": "X"}, courts=["SWRS", "SWRR"],
                   played_order=played_order)
    assert result.winners == (leader,)
    assert result.ruler == leader


def test_invasion_tie_only_among_the_leaders():
    # Player 3 played last, but has fewer sets: the tie is between players 1 and 2.
    result = final(3, control={"Cal": "X", "Din": "X", "Ebo": "X", "Dev": "X"}, courts=["SWR", "SWR", "SW"],
                   played_order=[0, 1, 2])
    assert result.winners == (1,)


def test_invasion_four_players_teams_pool_their_sets():
    # Alone, nobody on team 1+3 has a set; pooled they have 2, against 1 for team 2+4.
    result = final(4, control={"Cal": "X", "Din": "X", "Ebo": "X", "Dev": "X"},
                   courts=["SSWW", "SWR", "RR", "S"])
    assert result.winners == (0, 2)
    assert result.ruler is None


@pytest.mark.parametrize(("played_order", "team"), [([0, 1, 2, 3], (1, 3)), ([3, 0, 1, 2], (0, 2))])
def test_invasion_four_players_tie_goes_to_the_team_of_the_last_player(played_order, team):
    result = final(4, control={"Cal": "X", "Din": "X", "Ebo": "X", "Dev": "X"}, courts=["SW", "SW", "R", "R"],
                   played_order=played_order)
    assert result.winners == team


# -- Mordred ---------------------------------------------------------------------------

def test_mordred_loyalist_win_scored_as_coronation_over_holding_factions():
    result = final(variant="mordred", control={"Cal": "S", "Din": "S", "Ebo": "W", "Dev": "L"},
                   courts=["SSW", "SWWW"])
    assert result.ending == "mordred"
    assert result.ranking[:2] == (S, W)
    assert result.winners == (0,)


def test_mordred_end_tie_goes_to_most_followers_in_total():
    result = final(variant="mordred", control={"Cal": "S", "Din": "S", "Ebo": "W", "Dev": "L"},
                   courts=["SSW", "SSWRR"], played_order=[1, 0])
    assert result.winners == (1,)


def test_mordred_end_no_faction_holds_a_region_most_followers_in_total_wins():
    result = final(variant="mordred", control={"Cal": "L"}, courts=["SSS", "SWRW"])
    assert result.ending == "mordred"
    assert result.winners == (1,)


@pytest.mark.parametrize(("played_order", "leader"), [([0, 1], 1), ([1, 0], 0)])
def test_mordred_end_tie_last_player_to_play_wins(played_order, leader):
    result = final(variant="mordred", control={"Cal": "X", "Din": "L"}, courts=["SSW", "RRR"],
                   played_order=played_order)
    assert result.winners == (leader,)


def test_mordred_end_four_players_partner_shares_the_win():
    result = final(4, "mordred", control={"Cal": "W", "Din": "L"}, courts=["W", "", "WW", ""])
    assert result.winners == (0, 2) and result.ruler == 2


def test_mordred_game_can_still_end_by_coronation_where_the_last_to_play_loses():
    result = final(variant="mordred", control=control_of("S", "S", "S", "W", "W", "W", "R", "X"),
                   courts=["SWR", "SWR"], played_order=[0, 1])
    assert result.ending == "coronation"
    assert result.winners == (0,)


def test_mordred_game_can_end_by_invasion():
    result = final(variant="mordred", control={"Cal": "X", "Din": "X", "Ebo": "X", "Dev": "X"},
                   courts=["SWR", "SW"])
    assert result.ending == "invasion" and result.winners == (0,)


def test_result_says_why_in_words():
    result = final(control=control_of("S", "S", "S", "W", "W", "R", "X", "X"), courts=["SSW", "SWWWWR"])
    data = result.to_dict()
    assert data["ending"] == "coronation" and data["winners"] == [0] and data["ruler"] == 0
    assert data["ranking"] == ["Scots", "Welsh", "Romano-British"]
    assert "Scots" in data["reason"] and "player 1" in data["reason"].lower()
