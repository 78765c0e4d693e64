"""Rematch: one new game per finished game, the same people and settings, seats kept or rotated."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from sqlalchemy import select, update
from webtools import auth, bot, create, human, on_both_databases

from kingisdead.bots import make_bot
from kingisdead.moves import format_move
from kingisdead.web.db import GameRow, SeatRow


@pytest.fixture
def make_client(db_url: str, browsers: Any) -> Any:
    """Clients of one app, each its own browser (https: the session cookie is Secure)."""
    from kingisdead.web import create_app

    app = create_app(db_url)

    def make() -> Any:
        client = browsers(app)
        return client

    return make


def finish(client: Any, game_id: str, seed: int = 0) -> None:
    """Play the game to its end with random moves, straight through the service."""
    service = client.app.state.service
    chooser = make_bot("random", seed)
    while not (state := service.get(game_id).snapshot.state).is_over():
        service.play(game_id, state.player, format_move(chooser.choose(state), state.edition), None)


def ask(client: Any, game_id: str, token: str | None, rotate: bool = False) -> Any:
    return client.post(f"/api/games/{game_id}/rematch", json={"rotate": rotate},
                       headers=auth(token) if token else {})


def row(client: Any, game_id: str) -> GameRow:
    with client.app.state.service.sessions() as session:
        found = session.get(GameRow, game_id)
        assert found is not None
        return found


def test_both_guests_get_their_own_seat_in_one_new_game_with_the_same_settings(make_client):
    client = make_client()
    game = create(client, [human("Ann"), human()], seed=11, memory=True, variant="mordred", time_limit=86_400,
                  stand_in="strong")
    tokens = [s["token"] for s in game["seats"]]
    refused = ask(client, game["id"], tokens[0])
    assert (refused.status_code, refused.json()["error"]) == (409, "not_over")
    finish(client, game["id"])

    first = ask(client, game["id"], tokens[0])
    assert first.status_code == 200, first.text
    made = first.json()
    assert made["seat"] == 0 and made["rotated"] is False and made["token"]
    again = ask(client, game["id"], tokens[1], rotate=True).json()  # the game exists: rotate changes nothing
    assert again["id"] == made["id"] and again["seat"] == 1 and again["token"] not in (None, made["token"])
    assert ask(client, game["id"], tokens[0]).json()["token"] == made["token"]  # the same answer every time

    for seat, token in ((0, made["token"]), (1, again["token"])):
        view = client.get(f"/api/games/{made['id']}", headers=auth(token)).json()
        assert view["you"] == seat
    view = client.get(f"/api/games/{made['id']}").json()
    assert [s["name"] for s in view["seats"]] == ["Ann", "Player 2"]
    assert (view["players"], view["variant"], view["memory"], view["hints"], view["time_limit"], view["stand_in"],
            view["rematch_of"], view["move_number"]) == (2, "mordred", True, False, 86_400, "strong", game["id"], 0)
    assert client.get(f"/api/games/{game['id']}").json()["rematch"] == made["id"]
    old, new = row(client, game["id"]), row(client, made["id"])
    assert new.seed != old.seed and new.deadline is not None and not new.rated
    with client.app.state.service.sessions() as session:
        assert session.scalar(select(GameRow.id).where(GameRow.rematch_of == game["id"])) == made["id"]
        assert len(session.scalars(select(GameRow)).all()) == 2

    # the old seat tokens stay tokens of the old game only; strangers and spectators get nothing
    assert client.get(f"/api/games/{made['id']}", headers=auth(tokens[0])).status_code == 403
    assert ask(client, game["id"], "not-a-token").status_code == 403
    assert ask(client, game["id"], None).status_code == 401
    assert ask(client, "no-such-game", tokens[0]).status_code == 404


def test_a_rematch_keeps_the_second_editions_rule_options(make_client):
    client = make_client()
    game = create(client, [human("Ann"), human()], seed=5, edition="second",
                  options={"reversal": "exact", "tie_faction": "strict"})
    finish(client, game["id"])
    made = ask(client, game["id"], game["seats"][0]["token"])
    assert made.status_code == 200, made.text
    view = client.get(f"/api/games/{made.json()['id']}").json()
    assert view["edition"] == "second" and view["options"] == {"reversal": "exact", "tie_faction": "strict"}
    edition = client.app.state.service.get(made.json()["id"]).snapshot.state.edition
    assert (edition.reversal, edition.tie_faction) == ("exact", "strict")


def test_rotated_seats_move_one_place_on_with_their_bots_and_names(make_client):
    client = make_client()
    game = create(client, [human("Ann"), bot("strong"), human()], seed=12)
    tokens = {s["seat"]: s["token"] for s in game["seats"] if s["token"]}
    finish(client, game["id"], seed=1)
    made = ask(client, game["id"], tokens[2], rotate=True).json()
    assert (made["seat"], made["rotated"]) == (0, True)
    assert ask(client, game["id"], tokens[0]).json()["seat"] == 1
    view = client.get(f"/api/games/{made['id']}").json()
    assert [(s["kind"], s["bot"], s["name"]) for s in view["seats"]] == [
        ("human", None, "Player 1"), ("human", None, "Ann"), ("bot", "strong", "Strong bot")]
    # the bot of seat 1 moved to seat 2; a bot to move plays without anyone asking
    assert view["move_number"] == 0


@on_both_databases
def test_players_asking_at_once_get_the_same_single_new_game(make_client):
    client = make_client()
    game = create(client, [human(), human(), human(), human()], seed=13)
    tokens = [s["token"] for s in game["seats"]]
    finish(client, game["id"], seed=2)
    answers: list[dict[str, Any]] = []
    barrier = threading.Barrier(4)

    def attempt(token: str) -> None:
        barrier.wait()
        answers.append(ask(client, game["id"], token, rotate=True).json())

    threads = [threading.Thread(target=attempt, args=(t,)) for t in tokens]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len({a["id"] for a in answers}) == 1
    assert sorted(a["seat"] for a in answers) == [0, 1, 2, 3]
    with client.app.state.service.sessions() as session:
        assert len(session.scalars(select(GameRow).where(GameRow.rematch_of == game["id"])).all()) == 1


def test_signed_in_players_are_seated_by_account_and_a_rated_game_stays_rated(make_client):
    ann, ben = make_client(), make_client()
    for client, name in ((ann, "Ann"), (ben, "Ben")):
        assert client.post("/api/account/sign-up", json={"name": name, "password": "a long password"}
                           ).status_code == 201
    created = ann.post("/api/games", json={"players": 2, "seats": [human(), human()], "seed": 14, "rated": True})
    assert created.status_code == 201, created.text
    game = created.json()
    claimed = ben.post(f"/api/games/{game['id']}/claim", json={}, headers=auth(game["seats"][1]["invite_token"]))
    assert claimed.status_code == 200, claimed.text
    finish(ann, game["id"], seed=3)
    made = ann.post(f"/api/games/{game['id']}/rematch", json={"rotate": True})  # the session cookie only
    assert made.status_code == 200, made.text
    assert (made.json()["seat"], made.json()["token"]) == (1, None)
    new_id = made.json()["id"]
    assert row(ann, new_id).rated
    assert ann.get(f"/api/games/{new_id}").json()["rated"] is True
    with ann.app.state.service.sessions() as session:
        holders = dict(session.execute(select(SeatRow.seat, SeatRow.user_id).where(SeatRow.game_id == new_id)).all())
        old = dict(session.execute(select(SeatRow.seat, SeatRow.user_id).where(SeatRow.game_id == game["id"])).all())
    assert holders == {1: old[0], 0: old[1]}
    ben_asks = ben.post(f"/api/games/{game['id']}/rematch", json={})
    assert (ben_asks.json()["id"], ben_asks.json()["seat"]) == (new_id, 0)


def test_the_rematch_of_a_rated_game_may_be_played_unrated_but_an_unrated_one_never_becomes_rated(make_client):
    ann, ben = make_client(), make_client()
    for client, name in ((ann, "Ann"), (ben, "Ben")):
        assert client.post("/api/account/sign-up", json={"name": name, "password": "a long password"}
                           ).status_code == 201
    game = ann.post("/api/games", json={"players": 2, "seats": [human(), human()], "seed": 15, "rated": True}).json()
    assert ben.post(f"/api/games/{game['id']}/claim", json={},
                    headers=auth(game["seats"][1]["invite_token"])).status_code == 200
    finish(ann, game["id"], seed=4)
    made = ann.post(f"/api/games/{game['id']}/rematch", json={"rated": False})
    assert made.status_code == 200, made.text
    assert made.json()["game"]["rated"] is False and not row(ann, made.json()["id"]).rated
    # the first asker decided: a later "rated" joins the same, unrated, game
    joined = ben.post(f"/api/games/{game['id']}/rematch", json={"rated": True})
    assert joined.json()["id"] == made.json()["id"] and joined.json()["game"]["rated"] is False

    unrated = create(ann, [human(), bot()], seed=16)
    finish(ann, unrated["id"], seed=5)
    again = ask_rated(ann, unrated["id"], unrated["seats"][0]["token"])
    assert again.status_code == 200, again.text
    assert again.json()["game"]["rated"] is False


def ask_rated(client: Any, game_id: str, token: str) -> Any:
    return client.post(f"/api/games/{game_id}/rematch", json={"rated": True}, headers=auth(token))


def test_watchers_of_the_finished_game_are_told_the_new_game(make_client):
    client = make_client()
    game = create(client, [human(), bot("beginner")], seed=15)
    finish(client, game["id"], seed=4)
    with client.websocket_connect(f"/api/games/{game['id']}/ws") as socket:
        assert socket.receive_json()["type"] == "state"
        made = ask(client, game["id"], game["seats"][0]["token"]).json()
        assert socket.receive_json() == {"type": "rematch", "game": made["id"]}
        state = socket.receive_json()
        assert state["type"] == "state" and state["game"]["rematch"] == made["id"]


def test_the_rematch_of_a_rated_game_with_a_stronger_stand_in_gets_the_rated_games_cap(make_client):
    ann = make_client()
    assert ann.post("/api/account/sign-up", json={"name": "Ann", "password": "a long password"}).status_code == 201
    created = ann.post("/api/games", json={"players": 2, "seats": [human(), bot("beginner")], "seed": 15, "rated": True})
    assert created.status_code == 201, created.text
    game_id = created.json()["id"]
    with ann.app.state.service.sessions.begin() as session:  # rated before stand-ins were capped
        session.execute(update(GameRow).where(GameRow.id == game_id).values(stand_in="max"))
    ann.app.state.service.forget(game_id)
    finish(ann, game_id, seed=4)
    made = ann.post(f"/api/games/{game_id}/rematch", json={})
    assert made.status_code == 200, made.text
    assert row(ann, made.json()["id"]).stand_in == "intermediate"
