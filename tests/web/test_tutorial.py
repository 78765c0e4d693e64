"""Learn to play: the tutorial's script and its endpoints (the browser run is in test_tutorial_browser.py)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, get_args

from webtools import auth

from kingisdead import GameState
from kingisdead.board import Card, Cunning, Region
from kingisdead.moves import parse_move
from kingisdead.web.tutorial import LEARNER, MOVES, SEED, TUTOR, script


def test_the_script_is_a_short_game_the_learner_wins_by_invasion():
    state = GameState.new(2, "standard", SEED, LEARNER)
    contested_first = state.order[0]
    for number, entry in enumerate(script(), start=1):
        assert entry["number"] == number and entry["seat"] == state.player
        state.apply(entry["move"])
        if number == 5:  # both passed: the first struggle is taken by a faction (the Scots)
            assert state.resolved == 1 and state.control[contested_first] == 0
    result = state.result
    assert result is not None and result.ending == "invasion" and result.winners == (LEARNER,)
    assert state.saxons == 4 and len(MOVES) == 15


def test_every_kind_of_card_is_played_and_each_move_is_built_by_its_steps():
    played = {parse_move(text).card for text in MOVES} - {None}
    assert {Card.CROWN, Card.GARRISON, Card.AMBASSADOR, Card.SETTLEMENTS} <= played
    assert played & {Card.SCOTS, Card.WELSH, Card.ROMANO_BRITISH}
    state = GameState.new(2, "standard", SEED, LEARNER)
    for entry in script():
        builder = state.builder()
        for step in entry["steps"]:
            assert any(o.kind == step["kind"] and o.value == step["value"] for o in builder.options()), (entry, step)
            builder.choose(next(o for o in builder.options() if o.kind == step["kind"] and o.value == step["value"]))
        assert builder.complete and str(builder.move()) == str(parse_move(entry["move"]))
        state.apply(entry["move"])


def test_starting_a_tutorial_gives_both_seats_tokens(client: Any):
    started = client.post("/api/learn")
    assert started.status_code == 201, started.text
    body = started.json()
    game = client.get(f"/api/games/{body['id']}", headers=auth(body["token"])).json()
    assert game["you"] == LEARNER and game["move_number"] == 0 and game["seats"][TUTOR]["name"] == "Morgan"
    tutor = client.get(f"/api/games/{body['id']}", headers=auth(body["tutor_token"])).json()
    assert tutor["you"] == TUTOR
    first = script()[0]
    played = client.post(f"/api/games/{body['id']}/moves", json={"move": first["move"], "move_number": 0},
                         headers=auth(body["token"]))
    assert played.status_code == 200, played.text
    assert client.get("/api/learn").json()["moves"] == script()


def test_the_learn_page_speaks_the_browsers_language(client: Any):
    page = client.get("/learn", headers={"Accept-Language": "de-DE"})
    assert page.status_code == 200 and '<html lang="de">' in page.text and "/static/learn.js" in page.text
    assert "Spielen lernen" in page.text


def test_the_counts_the_step_texts_quote_are_those_of_the_script():
    """tutorial.js quotes followers per region (Scots, Welsh, Romano-British) and the complete sets at the end."""
    quoted = {3: (Region.CALEDONIA, [2, 0, 1]), 8: (Region.AQUAE_SULIS, [0, 1, 1]),
              10: (Region.LONDINIUM, [2, 1, 2]), 12: (Region.EBORACUM, [0, 2, 2]), 14: (Region.RATAE, [2, 2, 1])}
    state = GameState.new(2, "standard", SEED, LEARNER)
    for number, text in enumerate(MOVES):
        if number in quoted:
            region, counts = quoted[number]
            assert [state.followers(region, k) for k in range(3)] == counts, number
            if number >= 8:
                assert state.contested == region
        state.apply(text)
    assert_a_tie_the_last_card_play_breaks(state, MOVES, [1, 1], Card.SETTLEMENTS, Card.CROWN)


def assert_a_tie_the_last_card_play_breaks(state: GameState, moves: tuple[str, ...], sets: list[int],
                                           learners_last: int, tutors_last: int) -> None:
    """The end step's text: complete sets tied at ``sets``, the learner's last card after the tutor's."""
    assert [min(state.court(p)) for p in (LEARNER, TUTOR)] == sets
    played = [parse_move(text, state.edition).card for text in moves]
    last = {seat: max(i for i, card in enumerate(played) if card is not None and i % 2 == seat) for seat in (0, 1)}
    assert last[LEARNER] > last[TUTOR] and state.last_play[LEARNER] > state.last_play[TUTOR]
    assert (played[last[LEARNER]], played[last[TUTOR]]) == (learners_last, tutors_last)
    assert state.result is not None and state.result.winners == (LEARNER,)


def test_the_second_editions_script_is_the_same_lesson_ended_by_three_instability_discs(client: Any):
    from kingisdead.edition import SECOND
    from kingisdead.web.tutorial import SECOND_MOVES, SECOND_SEED

    state = GameState.new(2, "standard", SECOND_SEED, LEARNER, edition="second")
    contested_first = state.order[0]
    played = set()
    quoted = {8: (6, [1, 1, 1]), 10: (2, [2, 2, 1]), 12: (7, [1, 2, 2])}  # tutorial.js's counts, by move
    for number, entry in enumerate(script("second"), start=1):
        assert entry["seat"] == state.player
        if number - 1 in quoted:
            region, counts = quoted[number - 1]
            assert state.contested == region and [state.followers(region, k) for k in range(3)] == counts
        builder = state.builder()  # each move is built by its steps on the table
        for step in entry["steps"]:
            builder.choose(next(o for o in builder.options() if o.kind == step["kind"] and o.value == step["value"]))
        assert builder.complete
        played.add(builder.move().card)
        state.apply(entry["move"])
        if number == 3:
            assert [state.followers(0, k) for k in range(3)] == [3, 0, 1]  # "3 Scottish against 1 English"
        if number == 5:  # both passed: the Scottish take Moray
            assert state.resolved == 1 and state.control[contested_first] == 0
        if number == 6:  # Negotiate: Essex before Devon, the tutor's disc on Devon
            assert state.order.index(6) < state.order.index(7) and state.crowns[7] == TUTOR
    result = state.result
    assert result is not None and result.ending == "invasion" and result.winners == (LEARNER,)
    assert state.saxons == SECOND.invasion == 3 and len(SECOND_MOVES) == 13
    assert set(range(4)) <= played and played & {4, 5, 6}  # every kind of card
    assert_a_tie_the_last_card_play_breaks(state, SECOND_MOVES, [0, 0], 3, 0)  # Assemble after Negotiate
    assert client.get("/api/learn", params={"lesson": "second"}).json()["moves"] == script("second")
    started = client.post("/api/learn", params={"lesson": "second"}).json()
    game = client.get(f"/api/games/{started['id']}", headers=auth(started["token"])).json()
    assert game["edition"] == "second" and game["table"]["followers"] == [
        GameState.new(2, "standard", SECOND_SEED, LEARNER, edition="second").board[r * 4:r * 4 + 4] for r in range(8)]
    assert client.post("/api/learn", params={"lesson": "third"}).status_code == 422


def advanced_steps_source() -> list[str]:
    """The advanced lesson's steps in static/tutorial.js, one source line each."""
    source = (Path(__file__).parents[2] / "src/kingisdead/web/static/tutorial.js").read_text(encoding="utf-8")
    block = source.split("const ADVANCED_STEPS = [", 1)[1].split("\n];", 1)[0]
    return [line for line in block.splitlines() if line.strip().startswith("{ ")]


def test_the_advanced_lesson_plays_two_cunning_cards_and_ends_with_the_learners_plot_counted():
    from kingisdead.web.tutorial import ADVANCED_MOVES, TUTORIALS

    state = TUTORIALS["advanced"].new_game()
    assert state.edition.advanced and state.cunning[LEARNER] == (1 << 0 | 1 << 4 | 1 << 11)  # Spy, Influence, Plot
    entries = script("advanced")
    assert [e["move"] for e in entries] == list(ADVANCED_MOVES) and 12 <= len(entries) <= 16
    played: dict[int, list[int]] = {LEARNER: [], TUTOR: []}
    for number, entry in enumerate(entries, start=1):
        assert entry["seat"] == state.player
        move = state.parse(entry["move"])
        assert move in state.legal_moves(), entry  # every move legal, in order
        if move.card is not None:
            played[entry["seat"]].append(int(move.card))
        state.apply(move)
        if number == 5:  # Moray, tied at one follower of each faction: the first instability disc
            assert state.resolved == 1 and state.saxons == 1
    assert {Cunning.SPY, Cunning.INFLUENCE} <= set(played[LEARNER]) and Cunning.AMBUSH in played[TUTOR]
    # the Spy is built by the table's clicks: Morgan's pile, the card it copies, then that card's own choices
    assert entries[2]["steps"] == [{"kind": "card", "value": 7}, {"kind": "player", "value": TUTOR},
                                   {"kind": "copy", "value": 2}, {"kind": "region", "value": 0},
                                   {"kind": "faction", "value": 2}, {"kind": "region", "value": 5},
                                   {"kind": "faction", "value": 1}, {"kind": "region", "value": 5},
                                   {"kind": "faction", "value": 2}]
    result = state.result
    assert result is not None and result.ending == "invasion" and result.winners == (LEARNER,)
    assert state.saxons == 3 and result.steps[0].kind == "plot" and result.steps[0].faction == 0  # a Scottish one
    assert dict(result.steps[0].values) == {LEARNER: 1}
    # without Plot, no set on either side: the tie would go to the tutor, who played a card last
    assert [list(state.court(p)) for p in (LEARNER, TUTOR)] == [[0, 3, 2], [0, 2, 3]]
    assert state.last_play[TUTOR] > state.last_play[LEARNER]


def test_the_advanced_lessons_texts_name_no_card_of_the_tutors_hand_before_it_is_played():
    """Morgan's hand is secret: a step that shows before Morgan plays a Cunning card names it nowhere (neither
    by its number through the board's names nor written out), and the cards Morgan never plays not at all."""
    from kingisdead.edition import CUNNING_CARDS
    from kingisdead.web.tutorial import ADVANCED_MOVES, TUTORIALS

    state = TUTORIALS["advanced"].new_game()
    hidden = [7 + i for i in range(12) if state.cunning[TUTOR] >> i & 1]
    assert [CUNNING_CARDS[c - 7] for c in hidden] == ["Ambush", "Edict", "Muster"]
    played_at = {int(state.parse(text).card): n + 1 for n, text in enumerate(ADVANCED_MOVES)
                 if n % 2 == TUTOR and text != "pass"}
    steps = advanced_steps_source()
    assert len(steps) == 11
    named = 0
    for line in steps:
        shown_after = int(re.search(r"\{ (?:after|move): (\d+)", line).group(1))  # moves made before it shows
        for card in hidden:
            names_it = (re.search(rf"(?:n\.card\(|card: ){card}\b", line) is not None
                        or CUNNING_CARDS[card - 7] in line)
            if names_it:
                named += 1
                assert card in played_at and shown_after >= played_at[card], (card, line[:80])
    assert named == 1  # Ambush, once played


def test_the_advanced_lesson_starts_an_advanced_game_whose_learner_sees_only_their_own_hand(client: Any):
    from kingisdead.web.routes.tutorial import Lesson
    from kingisdead.web.tutorial import ADVANCED_SEED, TUTORIALS

    assert set(get_args(Lesson)) == set(TUTORIALS)  # the API offers every lesson
    answer = client.get("/api/learn", params={"lesson": "advanced"}).json()
    assert (answer["edition"], answer["mode"], answer["seed"]) == ("second", "advanced", ADVANCED_SEED)
    assert answer["moves"] == script("advanced")
    started = client.post("/api/learn", params={"lesson": "advanced"})
    assert started.status_code == 201, started.text
    body = started.json()
    game = client.get(f"/api/games/{body['id']}", headers=auth(body["token"])).json()
    assert game["edition"] == "second" and game["you"] == LEARNER and game["table"]["mode"] == "advanced"
    assert game["table"]["cunning"] == [7, 11, 18] and "cunning_hands" not in game["table"]
    tutor = client.get(f"/api/games/{body['id']}", headers=auth(body["tutor_token"])).json()
    assert tutor["table"]["cunning"] == [9, 12, 15]
    first = script("advanced")[0]
    played = client.post(f"/api/games/{body['id']}/moves", json={"move": first["move"], "move_number": 0},
                         headers=auth(body["token"]))
    assert played.status_code == 200, played.text
    assert client.get("/api/learn", params={"lesson": "expert"}).status_code == 422
