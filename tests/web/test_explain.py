"""The end screen's explanation of a result: each tie-break step and each ending, with its values."""

from __future__ import annotations

from random import Random

import pytest
from positions import build
from test_core_crosscheck import CONFIG_IDS, CONFIGS

from kingisdead import GameState, core, engine, parse_move
from kingisdead import playout
from kingisdead.edition import FIRST, SECOND
from kingisdead.board import REGION_NAMES, Card
from kingisdead.web.explain import explain_result, regions_text
from kingisdead.web.i18n import localize
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
    s, text = explain(control=control_of("S", "S", "S", "W", "W", "R", "X", "X"), courts=["SWR", "SWR"],
                      played_order=[0, 1])
    last = text["steps"][-1]
    assert last["kind"] == "latest_play_out" and last["kept"] == [0]
    assert last["text"] == (f"Still tied: Player 2 played a card last (card {s.last_play[1]} of the game, against "
                            f"{s.last_play[0]}) and drops out.")
    assert last["cells"] == {"0": f"card {s.last_play[0]} of the game", "1": f"card {s.last_play[1]} of the game"}
    assert last["label"] == "last card played"
    assert text["winners"] == [0]


def test_the_last_card_played_is_said_as_the_games_card_number_not_as_a_play():
    s, text = explain(control=control_of("S", "S", "S", "W", "W", "R", "X", "X"), courts=["SWR", "SWR"],
                      played_order=[0, 1])
    assert [row["last_card"] for row in text["players"]] == [f"card {n} of the game" for n in s.last_play]
    assert "play " not in str(text)


def test_invasion_compares_complete_sets_and_breaks_a_tie_by_the_last_play():
    _, text = explain(control={"Cal": "X", "Din": "X", "Ebo": "X", "Dev": "X"}, courts=["SWRS", "SWRR"],
                      played_order=[1, 0])
    assert text["ending"] == "invasion" and "4 regions fell" in text["headline"]
    sets, last = text["steps"]
    assert sets["values"] == {"0": 1, "1": 1} and sets["text"] == "Tie at 1 complete set: Player 1 and Player 2."
    assert last["kept"] == [0] and "Player 1 played a card last (card " in last["text"]
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
    assert [st["kind"] for st in tied["steps"]] == ["total", "latest_play"]
    assert tied["steps"][-1]["kept"] == [0]


def test_the_ranking_names_each_group_of_tied_factions_once():
    _, two = explain(variant="mordred", control={"Cal": "S", "Din": "L"}, courts=["SSW", "RRR"], played_order=[1, 0])
    assert [(r["faction"], r["rank"]) for r in two["factions"]] == [("Scots", 1), ("Welsh", 2), ("Romano-British", 2)]
    assert two["ranking_text"] == ("Factions by power: the Scots (1 region) rank above the Welsh and the "
                                   "Romano-British, who hold no region and stay tied.")
    _, three = explain(variant="mordred", control={"Cal": "L"}, courts=["SSW", "RRR"], played_order=[1, 0])
    assert three["ranking_text"] == ("Factions by power: the Scots, the Welsh and the Romano-British hold no region "
                                     "and stay tied.")
    assert localize(three["ranking_text"], "fr") == ("Factions par puissance : les Écossais, les Gallois et les "
                                                     "Romano-Bretons ne tiennent aucune région et restent à égalité.")


def _issue_position(edition, engine_name: str) -> GameState:
    """Issue 29's position: tied on the first two factions, apart on the third (which holds no
    region); both hands empty, player 2's emptied first. Scored by ``engine_name``."""
    with core.use_engine(engine_name):
        s = GameState.new(2, seed=1, edition=edition)
        s.control, s.resolved, s.open = [0, 0, 0, 1, 1, 0, 1, 0], 8, 0
        s.courts, s.hands, s.last_play = [2, 1, 2, 2, 1, 0], [0] * 14, [6, 5]
        s._result = engine.score(s, "coronation")
    return s


@pytest.mark.parametrize("engine_name", ["core", "reference"])
def test_the_end_screen_names_the_engines_winner_on_the_third_faction(engine_name):
    s = _issue_position(FIRST, engine_name)
    text = explain_result(s)
    assert s.result.winners == (0,) and text["winners"] == [0]
    assert [(st["kind"], st["kept"]) for st in text["steps"]] == [("faction", [0, 1]), ("faction", [0, 1]),
                                                                  ("faction", [0])]
    assert text["steps"][-1]["text"] == "Player 1 has the most Romano-British followers at court: 2 against 0."


@pytest.mark.parametrize("engine_name", ["core", "reference"])
def test_the_end_screen_says_the_second_editions_hands_tie_break_in_words(engine_name):
    s = _issue_position(SECOND, engine_name)  # tie_faction "second": the third faction is never compared
    text = explain_result(s)
    assert s.result.winners == (1,) and text["winners"] == [1]
    last = text["steps"][-1]
    assert (last["kind"], last["kept"], last["values"]) == ("emptied_hand", [1], {"0": 6, "1": 5})
    assert last["text"] == "Still tied: Player 2 emptied their hand first (card 5 of the game, against 6) and wins."
    assert last["cells"] == {"0": "card 6 of the game", "1": "card 5 of the game"}


def _winners_of(kept: list[int], players: int) -> list[int]:
    return sorted({w for p in kept for w in ((p, (p + 2) % 4) if players == 4 else (p,))})


@pytest.mark.parametrize(("players", "variant", "edition"), CONFIGS, ids=CONFIG_IDS)
def test_every_seeded_games_explanation_keeps_the_results_winners_last(players, variant, edition):
    """The cross-check's core-played games (both editions, 2-4 players, Mordred, the options), each
    explained from either engine's result: the last step keeps the winners (4 players: the team)."""
    for game in range(25):
        seed = 7 + 100 * game + players
        _, final = core.playout(GameState.new(players, variant, seed, edition=edition), Random(seed))
        with core.use_engine("reference"):
            reference = final.copy()
            reference._result = engine.score(reference, final.result.ending)
        for s in (final, reference):
            text = explain_result(s)
            kept = text["steps"][-1]["kept"] if text["steps"] else list(range(players))
            assert _winners_of(kept, players) == list(s.result.winners), (seed, text["steps"])
            assert all(st["text"] for st in text["steps"])


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


def test_the_summary_lists_every_blunder_it_counts():
    from kingisdead.web.explain import BLUNDER, MISTAKES_SHOWN, analysis_summary

    losses = [0.5, 0.4, 0.3, 0.26, 0.15, 0.05]  # four blunders, more than MISTAKES_SHOWN
    notes = [{"number": 2 * k + 1, "player": 0, "played": f"m{k}", "best": f"b{k}", "played_chance": 0.9 - loss,
              "best_chance": 0.9, "loss": loss, "forced": False} for k, loss in enumerate(losses)]
    [summary] = analysis_summary(notes)
    assert summary["blunders"] == 4 > MISTAKES_SHOWN
    assert [m["loss"] for m in summary["mistakes"]] == [loss for loss in losses if loss >= BLUNDER]
    [few] = analysis_summary(notes[3:])  # one blunder: the three costliest moves all the same
    assert few["blunders"] == 1 and [m["loss"] for m in few["mistakes"]] == [0.26, 0.15, 0.05]


# -- what happens now, in a running game --------------------------------------------------

def all_pass(state: GameState) -> GameState:
    """``state`` after every player passes: the contested struggle resolved by the engine."""
    after = state.copy()
    for _ in range(state.players - state.passes):
        after.apply("pass")
    return after


def test_the_struggle_line_names_the_leader_and_what_an_all_pass_gives_as_the_engine_resolves_it():
    from kingisdead.web.explain import struggle_now

    for seed in range(1, 30):
        s = GameState.new(2 + seed % 3, "mordred" if seed % 2 else "standard", seed)
        now = struggle_now(s)
        region = s.contested
        assert now["region"] == region and now["leader"] == all_pass(s).control[region]
        assert now["all_pass"].startswith(f"if everyone passes now, {REGION_NAMES[region]} ")
    s = build(regions={"Cal": "SSSW", "Din": "W"}, order=["Cal", "Din", "Ebo", "Dev", "Cae", "Rat", "Lon", "Aqu"])
    now = struggle_now(s)
    assert now["lead"] == "The Scots lead in Caledonia with 3 against 1 Welsh."
    assert now["all_pass"] == "if everyone passes now, Caledonia goes to the Scots."
    tie = struggle_now(build(regions={"Cal": "SSWW"}, control={"Din": "X", "Ebo": "X", "Dev": "X"}))
    assert tie["leader"] == 4 and tie["lead"] == "No faction leads in Caledonia: the Scots and the Welsh are tied at 2."
    assert localize(tie["lead"], "fr") == ("Aucune faction ne mène en Caledonia : les Écossais et les Gallois sont à "
                                           "égalité à 2.")
    assert tie["all_pass"] == ("if everyone passes now, Caledonia falls to the Saxons (that is the fourth Saxon "
                               "token: the Saxons invade and the game ends).")
    assert all_pass(build(regions={"Cal": "SSWW"}, control={"Din": "X", "Ebo": "X", "Dev": "X"})).result.ending \
        == "invasion"


def test_french_sentences_agree_with_the_faction_names_and_space_their_semicolons():
    from kingisdead.web.explain import card_effect

    s = GameState.new(2, "standard", 3)
    s.stock[2] = 1  # one Romano-British follower left: "one follower"
    effect = localize(card_effect(s, Card.ROMANO_BRITISH)["text"], "fr")
    assert "un partisan des Romano-Bretons" in effect and "partisan Romano-Bretons" not in effect, effect
    s.stock[2] = 5
    assert "deux partisans des Romano-Bretons" in localize(card_effect(s, Card.ROMANO_BRITISH)["text"], "fr")
    _, two = explain(control=control_of("S", "S", "S", "W", "W", "R", "X", "X"), courts=["SSW", "SWWWWR"])
    ranking = localize(two["ranking_text"], "fr")
    assert " ; " in ranking and "); " not in ranking, ranking


def test_a_cards_effect_lights_exactly_the_regions_and_followers_its_legal_moves_act_on():
    from kingisdead.moves import NONE
    from kingisdead.web.explain import card_effect

    for seed in (3, 8, 21):
        s = GameState.new(3, "standard", seed)
        for card in range(7):
            actions = {m.action for m in s.legal_moves()[1:] if m.card == card}
            effect = card_effect(s, card)
            if card == 0:
                expected = {r for a in actions for r in a[:2]}
            elif card in (1, 2):
                expected = {a[0] for a in actions} | {a[-2] for a in actions}
                kinds = {(a[0], a[1]) for a in actions} | {(a[-2], a[-1]) for a in actions}
                assert {(int(r), f) for r, fs in effect["followers"].items() for f in fs} >= kinds
            else:
                expected = {r for a in actions for r in a if r != NONE}
            assert set(effect["regions"]) == expected, (seed, card)
    s = build(regions={"Cal": "S", "Din": "W"}, order=["Cal", "Din", "Ebo", "Dev", "Cae", "Rat", "Lon", "Aqu"])
    scots = card_effect(s, 4)
    assert scots["regions"] == [1]
    assert scots["text"] == ("Scots: place two Scots followers in Din Eidyn (next to Scots land).")
    garrison = card_effect(s, 1)
    assert garrison["regions"] == [0, 1] and garrison["followers"] == {"0": [0], "1": [1]}
    assert garrison["text"].endswith("Caledonia, contested now, is among them.")


def test_the_view_carries_the_struggle_for_everyone_and_card_effects_for_the_seat_to_move_only():
    s = GameState.new(2, "standard", 7)
    mine, public = table_view(s, 0), table_view(s, None)
    assert mine["struggle"] == public["struggle"] and mine["struggle"]["region"] == s.contested
    assert [e["card"] for e in mine["card_effects"]] == [c for c in range(7) if s.hands[c]]
    assert public["card_effects"] is None and table_view(s, 1)["card_effects"] is None  # seat 1 waits its turn


def test_a_hints_reason_comes_from_the_moves_line_with_courts_counted_before_the_move():
    from kingisdead.analysis import Line, StruggleOutcome
    from kingisdead.scoring import Result
    from kingisdead.web.explain import hint_reason

    s = build(regions={"Cal": "SSW", "Din": "W"}, order=["Cal", "Din", "Ebo", "Dev", "Cae", "Rat", "Lon", "Aqu"],
              courts=["WW", "S"])
    move = parse_move("Ambassador Cal:S<>Din:W +Cal:W")
    won = Line(("Ambassador Cal:S<>Din:W +Cal:W", "pass", "pass"), (StruggleOutcome(1, 0, 1),),
               Result("coronation", (0,), 0, "a reason"), 8)
    # the Welsh at court as they are before the move (2), not after its call (3)
    assert hint_reason(s, move, won) == (
        "as the search plays on: Caledonia goes to the Welsh (you have 2 of them at court); the game ends in a "
        "coronation: you win; it brings your court from 2 to 3 Welsh.")
    assert localize(hint_reason(s, move, won), "fr") == (
        "selon la suite que joue la recherche : Caledonia revient aux Gallois (vous en avez 2 à votre cour) ; la "
        "partie se termine par un couronnement : vous gagnez ; il fait passer vos partisans des Gallois à la cour "
        "de 2 à 3.")
    lost = Line(("pass", "pass"), (StruggleOutcome(1, 0, 4), StruggleOutcome(2, 1, 3)),
                Result("mordred", (1,), 1, "a reason"), 2)
    assert hint_reason(s, parse_move("pass"), lost) == (
        "as the search plays on: Caledonia falls to the Saxons; Mordred's rebellion ends the game at struggle 2: "
        "Player 2 wins.")


def test_a_hints_reason_names_the_tie_break_that_decides_its_line():
    from kingisdead.analysis import Line, StruggleOutcome
    from kingisdead.scoring import Result, Step
    from kingisdead.web.explain import hint_reason

    s = build(regions={"Cal": "SSW", "Din": "W"}, order=["Cal", "Din", "Ebo", "Dev", "Cae", "Rat", "Lon", "Aqu"],
              courts=["WW", "S"])
    tied = Line(("pass", "pass"), (StruggleOutcome(1, 0, 4),),
                Result("invasion", (0,), 0, "a reason", steps=(Step("sets", None, ((0, 1), (1, 1)), (0, 1)),
                                                               Step("latest_play", None, ((0, 5), (1, 4)), (0,)))), 1)
    assert hint_reason(s, parse_move("pass"), tied) == (
        "as the search plays on: Caledonia falls to the Saxons; the Saxons invade at struggle 1: you win. "
        "A tie decides it: Tie at 1 complete set: Player 1 and Player 2. "
        "Still tied: Player 1 played a card last (card 5 of the game, against 4) and wins.")


def test_a_hints_reason_follows_the_line_the_engine_plays():
    from kingisdead.analysis import best_line
    from kingisdead.web.explain import hint_reason

    s = GameState.new(2, "standard", 7)
    move = s.legal_moves()[40]
    line = best_line(s, move, seed=3)
    assert line == best_line(s, move, seed=3)  # one seed decides the line
    final = s.copy()
    for text in line.moves:
        final.apply(text)
    assert final.result == line.result and [o.number for o in line.struggles] == list(range(1, 9))[:len(line.struggles)]
    assert [o.ruler for o in line.struggles][-1] == final.control[final.order[line.struggles[-1].number - 1]]
    ending = {"coronation": "coronation", "invasion": "Saxons invade", "mordred": "Mordred"}[line.result.ending]
    assert ending in hint_reason(s, move, line)


def test_the_summary_offers_the_played_move_the_best_and_the_next_best_to_choose_from():
    from kingisdead.web.explain import analysis_summary

    row = {"number": 4, "player": 0, "played": "pass", "best": "Scots Din Din", "best_description": "Scots: two",
           "played_description": "passes", "played_chance": 0.2, "best_chance": 0.6, "loss": 0.4, "forced": False,
           "alternatives": [{"move": "Scots Din Din", "win_chance": 0.6, "description": "Scots: two"},
                            {"move": "Crown Cal<>Din *Cal", "win_chance": 0.5, "description": "Crown: swaps"}]}
    [summary] = analysis_summary([row])
    [mistake] = summary["mistakes"]
    assert [c["move"] for c in mistake["choices"]] == ["Crown Cal<>Din *Cal", "Scots Din Din", "pass"]
    assert mistake["choices"][2] == {"move": "pass", "shown_notation": "pass", "win_chance": 0.2,
                                     "description": "passes", "changes": None}


def test_an_analysis_row_carries_the_search_top_moves_with_what_each_would_change():
    from random import Random

    from kingisdead.bots.budget import Budget
    from kingisdead.record import GameRecord
    from kingisdead.web.compute import analysis
    from kingisdead.web.views import move_changes

    state, rng, record = GameState.new(2, "standard", 4), Random(4), GameRecord(players=["a", "b"], seed=4)
    for _ in range(6):
        record.add(playout.play_random(state, rng))
    rows = analysis(record.dumps(), 1, Budget(iterations=60))
    position = record.start()
    for row, played in zip(rows, record.moves, strict=True):
        if not row["forced"]:
            assert row["best"] == row["alternatives"][0]["move"] and 1 <= len(row["alternatives"]) <= 3
            assert (row["played_shown"], row["best_shown"]) == (row["played"], row["best"])  # English here
            for other in row["alternatives"]:
                assert other["shown_notation"] == other["move"] and other["shown_notation"].in_language("fr")
                assert other["changes"] == move_changes(position, position.after(other["move"]),
                                                        parse_move(other["move"]))
        assert row["played_changes"] == move_changes(position, position.after(played), parse_move(played))
        position.apply(played)


def _lost_endgame() -> GameState:
    """A 2-player position two cards from the end that the exact solver proves lost for the player to move."""
    from random import Random

    from kingisdead.bots.solver import solve

    s, rng = GameState.new(2, "standard", 0), Random(0)
    while True:
        moves = s.legal_moves()
        if sum(s.hands) <= 4 and len(moves) > 1 and getattr(solve(s, 50_000), "value", None) == -1:
            return s
        s.apply(moves[rng.randrange(len(moves))])


def test_when_every_move_loses_the_hint_names_the_least_bad_and_its_line_ends_in_the_loss():
    from kingisdead.bots.budget import Budget
    from kingisdead.web.compute import hint

    s = _lost_endgame()
    found = hint(s, 1, Budget(iterations=300), 3)
    assert found["exact"] == -1 and len(found["moves"]) >= 2
    assert [m["least_bad"] for m in found["moves"]] == [True] + [False] * (len(found["moves"]) - 1)
    first = found["moves"][0]["reason"]
    assert "this one is the least bad" in first and first.count("Player 2 wins") == 1
    # proven lines: each move's reason ends the game with the other player's win, never "you win"
    assert all("you win" not in m["reason"] for m in found["moves"])
    assert all("least bad" not in m["reason"] for m in found["moves"][1:])


def test_learn_from_your_mistakes_says_why_the_better_move_is_better():
    from kingisdead.analysis import best_line
    from kingisdead.bots.budget import Budget
    from kingisdead.web.compute import analysis
    from kingisdead.web.explain import analysis_summary, line_text

    from kingisdead.record import GameRecord
    from random import Random

    s, rng, record = GameState.new(2, "standard", 5), Random(5), GameRecord(players=["a", "b"], seed=5)
    while not s.is_over():
        moves = s.legal_moves()
        move = moves[rng.randrange(len(moves))]
        record.add(move)
        s.apply(move)
    rows = analysis(record.dumps(), 9, Budget(iterations=100))
    summary = analysis_summary(rows)
    shown = [m for player in summary for m in player["mistakes"]]
    assert shown and all(m["why"] for m in shown)
    m = shown[0]
    before = record.start()
    for text in record.moves[:m["number"] - 1]:
        before.apply(text)
    best = line_text(before, best_line(before, before.parse(m["best"]), seed=9))
    played = line_text(before, best_line(before, before.parse(m["played"]), seed=9))
    assert m["why"] == f"After the better move, as the search plays on: {best}. After yours: {played}."


def test_the_struggle_line_foresees_what_would_decide_the_game_if_the_passes_end_it():
    from kingisdead.web.explain import explain_result, struggle_now

    # the last struggle: the Welsh would take Aquae Sulis and rule with 4 regions; both courts hold 2 Welsh,
    # so the second faction decides (the first edition's strict ranking)
    s = build(control={"Cal": "S", "Din": "S", "Ebo": "W", "Dev": "W", "Cae": "W", "Rat": "R", "Lon": "X"},
              regions={"Aqu": "WW"}, courts=["WWS", "WWRR"], played_order=[1, 0])
    now = struggle_now(s)
    passed = s.copy()
    while passed.result is None:
        passed.apply("pass")
    steps = explain_result(passed)["steps"]
    assert len(steps) >= 2 and steps[-1]["kept"] == list(passed.result.winners)  # a tie, then its break
    assert now["if_over"] == "If it ends so: " + " ".join(step["text"] for step in steps)
    # a struggle whose passes do not end the game foresees nothing
    assert struggle_now(GameState.new(2, "standard", 7))["if_over"] is None
