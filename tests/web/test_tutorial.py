"""Learn to play: the tutorial's script and its endpoints (the browser run is in test_tutorial_browser.py)."""

from __future__ import annotations

from typing import Any

from webtools import auth

from kingisdead import GameState
from kingisdead.board import Card, Region
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
    assert client.get("/api/learn", params={"edition": "second"}).json()["moves"] == script("second")
    started = client.post("/api/learn", params={"edition": "second"}).json()
    game = client.get(f"/api/games/{started['id']}", headers=auth(started["token"])).json()
    assert game["edition"] == "second" and game["table"]["followers"] == [
        GameState.new(2, "standard", SECOND_SEED, LEARNER, edition="second").board[r * 4:r * 4 + 4] for r in range(8)]
    assert client.post("/api/learn", params={"edition": "third"}).status_code == 422
