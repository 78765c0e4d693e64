"""The end screen's explanation of a result: each tie-break step and each ending, with its values."""

from __future__ import annotations

from positions import build

from kingisdead import GameState
from kingisdead.web.explain import explain_result, regions_text
from kingisdead.web.views import table_view

ALL = ["Cal", "Din", "Ebo", "Dev", "Cae", "Rat", "Lon", "Aqu"]


def explain(players=2, variant="standard", *, control, courts, played_order=None):
    played_order = list(range(players)) if played_order is None else played_order
    s = build(players, variant, control=control, courts=courts, played_order=played_order)
    assert s.is_over()
    return s, explain_result(s)


def control_of(*winners):
    return dict(zip(ALL, winners, strict=False))


def test_a_running_game_has_no_explanation_and_a_finished_one_is_in_the_view():
    assert explain_result(GameState.new(2, "standard", 1)) is None
    s, text = explain(control=control_of("S", "S", "S", "W", "W", "R", "X", "X"), courts=["SSW", "SWWWWR"])
    assert table_view(s, 0)["explanation"] == text


def test_plural_wording():
    assert regions_text(1) == "1 region" and regions_text(3) == "3 regions"


def test_coronation_names_the_ruling_faction_and_the_deciding_comparison():
    _, text = explain(control=control_of("S", "S", "S", "W", "W", "R", "X", "X"), courts=["SSW", "SWWWWR"])
    assert text["headline"].endswith("The Scots rule with 3 regions.")
    assert [r["faction"] for r in text["factions"]] == ["Scots", "Welsh", "Romano-British"]
    assert [r["regions"] for r in text["factions"]] == [3, 2, 1]
    [step] = text["steps"]
    assert step["kind"] == "faction" and step["values"] == {"0": 2, "1": 1} and step["kept"] == [0]
    assert step["text"] == "Player 1 has the most Scots followers at court: 2 against 1."
    assert text["players"][1]["courts"] == {"Scots": 1, "Welsh": 4, "Romano-British": 1}
    assert "region(s)" not in str(text) and "The player" not in str(text)


def test_a_tie_on_regions_is_broken_by_the_most_recent_win_and_says_so():
    # Scots and Welsh both hold 2 regions; the Welsh won struggle 4, the Scots struggle 3.
    _, text = explain(control=control_of("S", "W", "S", "W", "R", "X", "X", "X"), courts=["SSS", "WWW"])
    assert [r["faction"] for r in text["factions"]][:2] == ["Welsh", "Scots"]
    assert text["factions"][0]["latest_win"] == 4 and text["factions"][1]["latest_win"] == 3
    assert "both hold 2 regions, and the Welsh won a struggle more recently (struggle 4 against 3)" \
        in text["ranking_text"]
    assert text["steps"][0]["kept"] == [1]


def test_a_follower_tie_moves_on_to_the_next_ranked_faction():
    _, text = explain(control=control_of("S", "S", "S", "W", "W", "R", "X", "X"), courts=["SSW", "SSWW"])
    first, second = text["steps"]
    assert first["kept"] == [0, 1] and "tie on Scots followers with 2 each, so the next faction decides" \
        in first["text"]
    assert second["label"] == "Welsh at court" and second["kept"] == [1]


def test_a_complete_tie_ends_with_the_last_player_to_play_dropping_out():
    _, text = explain(control=control_of("S", "S", "S", "W", "W", "R", "X", "X"), courts=["SWR", "SWR"],
                      played_order=[0, 1])
    last = text["steps"][-1]
    assert last["kind"] == "last_play" and last["kept"] == [0]
    assert last["text"] == "Still tied: Player 2 played a card last and drops out."
    assert text["winners"] == [0]


def test_invasion_compares_complete_sets_and_breaks_a_tie_by_the_last_play():
    _, text = explain(control={"Cal": "X", "Din": "X", "Ebo": "X", "Dev": "X"}, courts=["SWRS", "SWRR"],
                      played_order=[1, 0])
    assert text["ending"] == "invasion" and "4 regions fell" in text["headline"]
    sets, last = text["steps"]
    assert sets["values"] == {"0": 1, "1": 1} and sets["text"] == "Tie at 1 complete set: Player 1 and Player 2."
    assert last["kept"] == [0] and "Player 1 played a card last and wins" in last["text"]
    assert text["ranking_text"] == ""


def test_four_player_invasion_pools_team_courts_and_names_the_team():
    _, text = explain(4, control={"Cal": "X", "Din": "X", "Ebo": "X", "Dev": "X"}, courts=["SSWW", "SWR", "RR", "S"])
    [step] = text["steps"]
    assert step["values"] == {"0": 2, "1": 1} and step["text"] == "Most complete sets: the team of players 1 and 3 with 2."
    assert text["team"] == {"winners": [0, 2], "text": "The team of players 1 and 3 wins together."}


def test_mordred_ending_falls_back_to_followers_in_total_then_the_last_play():
    _, text = explain(variant="mordred", control={"Cal": "S", "Din": "S", "Ebo": "W", "Dev": "L"},
                      courts=["SSW", "SSWRR"], played_order=[1, 0])
    assert text["ending"] == "mordred" and text["headline"].startswith("Mordred's rebellion")
    assert [st["kind"] for st in text["steps"]] == ["faction", "faction", "total"]
    assert text["steps"][-1]["values"] == {"0": 3, "1": 5} and text["steps"][-1]["kept"] == [1]
    _, tied = explain(variant="mordred", control={"Cal": "X", "Din": "L"}, courts=["SSW", "RRR"], played_order=[1, 0])
    assert [st["kind"] for st in tied["steps"]] == ["total", "last_play"]
    assert tied["steps"][-1]["kept"] == [0]


def test_analysis_summary_counts_each_players_moves_and_lists_the_three_biggest_mistakes():
    from kingisdead.web.explain import analysis_summary

    def note(number, player, loss, forced=False):
        return {"number": number, "player": player, "played": f"m{number}", "best": f"b{number}",
                "best_description": f"better {number}", "played_chance": 0.5 - loss, "best_chance": 0.5,
                "loss": loss, "forced": forced}

    notes = [note(1, 0, 0.0), note(2, 1, 0.3), note(3, 0, 0.12), note(4, 1, 0.05), note(5, 0, 0.0, forced=True),
             note(6, 1, 0.11), note(7, 1, 0.02), note(8, 0, 0.0)]
    first, second = analysis_summary(notes)
    assert (first["reviewed"], first["best"], first["lost"], first["blunders"]) == (3, 2, 1, 0)
    assert [m["number"] for m in first["mistakes"]] == [3]
    assert (second["reviewed"], second["best"], second["lost"], second["blunders"]) == (4, 0, 2, 1)
    assert [m["number"] for m in second["mistakes"]] == [2, 6, 4]
    assert second["mistakes"][0]["best_description"] == "better 2"
