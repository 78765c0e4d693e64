"""Move time limits: deadlines stored and enforced by the server, the stand-in bot, returning and leaving.

No test sleeps until a deadline: each calls the check (``clocks.enforce`` /
``clocks.expire_due``) with a "now" past the stored deadline.
"""

from __future__ import annotations

import threading
import warnings
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import update
from webtools import auth, bot, create, human, wait_for

from kingisdead.web import clocks
from kingisdead.web.db import GameRow
from kingisdead.web.errors import GameError
from kingisdead.web.service import GameService


def enforce(client, now: datetime) -> list[str]:
    """Run the server's deadline check on the app's own event loop, as its background task does."""
    state = client.app.state
    return client.portal.call(clocks.enforce, state.service, state.hub, state.runner, now)


def view(client, game_id: str, token: str | None = None) -> dict:
    response = client.get(f"/api/games/{game_id}", headers=auth(token) if token else None)
    assert response.status_code == 200, response.text
    return response.json()


def deadline_of(game: dict) -> datetime:
    assert game["deadline"] is not None
    return datetime.fromisoformat(game["deadline"])


def test_a_game_stores_its_limit_and_each_persons_deadline(client):
    game = create(client, [human(), bot("random")], seed=3, time_limit=120, stand_in="greedy")
    shown = game["game"]
    assert shown["time_limit"] == 120 and shown["stand_in"] == "greedy"
    started = datetime.now(UTC)
    assert timedelta(seconds=115) < deadline_of(shown) - started <= timedelta(seconds=120)
    assert shown["seats"][0]["away"] is False and shown["seats"][0]["left"] is False
    token = game["seats"][0]["token"]
    assert client.post(f"/api/games/{game['id']}/moves", json={"move": "pass", "move_number": 0},
                       headers=auth(token)).status_code == 200
    # the bot's turn has no clock; the person's next turn gets a new deadline, counted from then
    replied = wait_for(lambda: (v := view(client, game["id"]))["move_number"] >= 2 and v, what="the bot's reply")
    assert replied["table"]["to_move"] == 0 and deadline_of(replied) >= deadline_of(shown)
    untimed = create(client, [human(), human()], seed=3)["game"]
    assert untimed["time_limit"] is None and untimed["deadline"] is None and untimed["stand_in"] == "intermediate"
    listed = client.get("/api/games").json()["games"]
    assert {g["id"]: g["time_limit"] for g in listed}[game["id"]] == 120


@pytest.mark.parametrize("settings", [{"time_limit": 60}, {"time_limit": 0}, {"time_limit": "1 day"},
                                      {"time_limit": 86401}, {"stand_in": "nobody"}, {"stand_in": ""}])
def test_invalid_limits_and_stand_ins_are_refused(client, settings):
    before = client.get("/api/games").json()["games"]
    response = client.post("/api/games", json={"players": 2, "seats": [human(), human()], **settings})
    assert response.status_code == 422
    assert response.json()["error"] == "invalid_request"
    assert next(iter(settings)) in response.json()["detail"]
    assert client.get("/api/games").json()["games"] == before


def test_the_service_refuses_limits_off_the_list(tmp_path):
    service = GameService(f"sqlite:///{tmp_path / 'limits.sqlite3'}")
    for settings in ({"time_limit": 300}, {"stand_in": "grandmaster"}):
        with pytest.raises(GameError) as refused:
            service.create(2, "standard", [human(), human()], **settings)
        assert refused.value.status == 422
    service.close()


def test_a_timeout_makes_the_stand_in_play_until_the_player_returns(client):
    game = create(client, [human("Ada"), human("Bea")], seed=21, time_limit=600, stand_in="random")
    game_id, (ada, bea) = game["id"], [s["token"] for s in game["seats"]]
    due = deadline_of(game["game"])
    with client.websocket_connect(f"/api/games/{game_id}/ws") as watcher:
        assert watcher.receive_json()["game"]["seats"][0]["away"] is False
        assert enforce(client, due - timedelta(seconds=1)) == []  # not yet
        assert enforce(client, due + timedelta(seconds=1)) == [game_id]
        assert enforce(client, due + timedelta(seconds=2)) == []  # handled once
        told = watcher.receive_json()["game"]
        assert told["seats"][0]["away"] is True and told["deadline"] is None
    # the stand-in plays Ada's turn; then Bea, present, has a clock of her own
    moved = wait_for(lambda: (v := view(client, game_id))["move_number"] == 1 and v, what="the stand-in's move")
    assert moved["log"][0]["seat"] == 0 and moved["table"]["to_move"] == 1 and moved["deadline"] is not None
    assert moved["seats"][0]["away"] is True
    back = client.post(f"/api/games/{game_id}/return", headers=auth(ada))
    assert back.status_code == 200 and back.json()["seats"][0]["away"] is False and back.json()["you"] == 0
    again = client.post(f"/api/games/{game_id}/return", headers=auth(ada))
    assert again.status_code == 409 and again.json()["error"] == "not_away"
    assert client.post(f"/api/games/{game_id}/moves", json={"move": "pass", "move_number": 1},
                       headers=auth(bea)).status_code == 200
    # Ada plays her own turn again, on a new clock
    mine = view(client, game_id, ada)
    assert mine["table"]["to_move"] == 0 and mine["deadline"] is not None
    played = client.post(f"/api/games/{game_id}/moves", json={"move": "pass", "move_number": 2}, headers=auth(ada))
    assert played.status_code == 200 and played.json()["log"][-1]["seat"] == 0


def test_a_person_away_cannot_move_and_a_late_move_is_refused(tmp_path):
    """Service level (no bots running): the refusals a person gets once out of time."""
    service = GameService(f"sqlite:///{tmp_path / 'late.sqlite3'}")
    game, tokens = service.create(2, "standard", [human(), human()], seed=4, time_limit=120)
    past = datetime.now(UTC) - timedelta(seconds=1)
    with service.engine.begin() as connection:  # as if the deadline had passed while the process slept
        connection.execute(update(GameRow).where(GameRow.id == game.id).values(deadline=past))
    service.forget(game.id)
    with pytest.raises(GameError) as late:
        service.play(game.id, 0, "pass", 0)
    assert (late.value.status, late.value.code) == (409, "out_of_time")
    assert service.options(service.get(game.id), 0, [])["options"]  # building a move is still answered
    assert clocks.expire_due(service) == [game.id]
    for attempt in (lambda: service.play(game.id, 0, "pass", 0), lambda: service.options(service.get(game.id), 0, [])):
        with pytest.raises(GameError) as away:
            attempt()
        assert (away.value.status, away.value.code) == (409, "away")
    assert service.get(game.id).snapshot.moves == ()
    assert service.server_is_to_move(service.get(game.id))  # the stand-in's turn now
    service.close()


def test_leaving_lets_the_stand_in_finish_and_the_seat_cannot_come_back(client):
    game = create(client, [human(), bot("random")], seed=8, stand_in="random")
    game_id, token = game["id"], game["seats"][0]["token"]
    assert client.post(f"/api/games/{game_id}/leave").status_code == 401
    with client.websocket_connect(f"/api/games/{game_id}/ws") as watcher:
        watcher.receive_json()
        left = client.post(f"/api/games/{game_id}/leave", headers=auth(token))
        assert left.status_code == 200 and left.json()["seats"][0]["left"] is True
        assert watcher.receive_json()["game"]["seats"][0]["left"] is True
    finished = wait_for(lambda: (v := view(client, game_id))["status"] == "finished" and v, what="the stand-in to finish")
    assert {entry["seat"] for entry in finished["log"]} == {0, 1}
    back = client.post(f"/api/games/{game_id}/return", headers=auth(token))
    assert back.status_code == 409 and back.json()["error"] == "left"
    assert "cannot be taken back" in back.json()["detail"]


def test_a_left_seat_is_refused_its_moves_and_a_second_leave(tmp_path):
    service = GameService(f"sqlite:///{tmp_path / 'left.sqlite3'}")
    game, _ = service.create(3, "standard", [human(), human(), human()], seed=5)
    clocks.leave(service, game.id, 1)
    service.play(game.id, 0, "pass", 0)
    assert service.server_is_to_move(service.get(game.id))  # seat 1's turn, played by the stand-in
    with pytest.raises(GameError) as refused:
        service.play(game.id, 1, "pass", 1)
    assert (refused.value.status, refused.value.code) == (409, "left")
    for change in (clocks.leave, clocks.return_seat):
        with pytest.raises(GameError) as again:
            change(service, game.id, 1)
        assert (again.value.status, again.value.code) == (409, "left")
    service.forget(game.id)  # from the database, as another process would see it
    assert service.get(game.id).seats[1].left and service.server_is_to_move(service.get(game.id))
    service.close()


def test_a_deadline_survives_a_restart_and_is_enforced_after_it(db_url):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient
    from kingisdead.web import create_app

    with TestClient(create_app(db_url)) as client:
        game = create(client, [human(), human()], seed=6, time_limit=86400, stand_in="random")
        due = deadline_of(game["game"])
    with TestClient(create_app(db_url)) as client:  # a new server on the same database
        assert deadline_of(view(client, game["id"])) == due
        assert enforce(client, due - timedelta(seconds=1)) == []
        assert enforce(client, due + timedelta(seconds=1)) == [game["id"]]
        moved = wait_for(lambda: (v := view(client, game["id"]))["move_number"] == 1 and v,
                         what="the stand-in to play after the restart")
        assert moved["seats"][0]["away"] is True and moved["log"][0]["seat"] == 0


def test_a_stand_in_whose_turn_it_was_plays_after_a_restart(db_url):
    service = GameService(db_url)
    game, _ = service.create(2, "standard", [human(), human()], seed=7, stand_in="random")
    clocks.leave(service, game.id, 0)  # no bot runner here: the stand-in's turn waits for the server
    service.close()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient
    from kingisdead.web import create_app

    with TestClient(create_app(db_url)) as client:
        moved = wait_for(lambda: (v := view(client, game.id))["move_number"] == 1 and v, what="the stand-in to resume")
        assert moved["log"][0]["seat"] == 0 and moved["table"]["to_move"] == 1


def test_of_two_processes_exactly_one_handles_an_expiry(tmp_path):
    url = f"sqlite:///{tmp_path / 'race.sqlite3'}"
    services = [GameService(url), GameService(url)]
    games = [services[0].create(2, "standard", [human(), human()], seed=s, time_limit=120)[0].id for s in range(4)]
    for service in services:
        for game_id in games:
            service.get(game_id)  # both hold every game in memory
    later = datetime.now(UTC) + timedelta(seconds=121)
    handled: list[list[str]] = [[], []]
    barrier = threading.Barrier(2)

    def look(i: int) -> None:
        barrier.wait()
        handled[i] = clocks.expire_due(services[i], later)

    threads = [threading.Thread(target=look, args=(i,)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(handled[0] + handled[1]) == sorted(games)
    for game_id in games:
        services[1].forget(game_id)
        assert services[1].get(game_id).seats[0].away and services[1].get(game_id).deadline is None
    for service in services:
        service.close()


def test_return_and_leave_need_a_seat_of_the_game(client):
    game = create(client, [human(), human()], seed=9, time_limit=120)
    other = create(client, [human(), human()], seed=9)
    for route in ("return", "leave"):
        assert client.post(f"/api/games/{game['id']}/{route}").json()["error"] == "no_token"
        foreign = client.post(f"/api/games/{game['id']}/{route}", headers=auth(other["seats"][0]["token"]))
        assert foreign.status_code == 403 and foreign.json()["error"] == "bad_token"
        assert client.post(f"/api/games/nosuchgame/{route}", headers=auth("x")).status_code == 404
    assert view(client, game["id"])["seats"][0]["left"] is False


def test_a_signed_in_player_leaves_with_the_session_cookie(db_url):
    """No seat token: the account's seat is found from the session cookie (Secure: the client speaks https),
    and a forged form is refused."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient
    from kingisdead.web import create_app

    with TestClient(create_app(db_url), base_url="https://testserver") as client:
        signed = client.post("/api/account/sign-up", json={"name": "Clockwatcher", "password": "hourglass-42"})
        assert signed.status_code in (200, 201), signed.text
        game = create(client, [human(), bot("random")], seed=10, stand_in="random")
        forged = client.post(f"/api/games/{game['id']}/leave", content="x", headers={"Content-Type": "text/plain"})
        assert forged.status_code == 403 and forged.json()["error"] == "not_json"
        assert view(client, game["id"])["seats"][0]["left"] is False
        left = client.post(f"/api/games/{game['id']}/leave", json={})
        assert left.status_code == 200 and left.json()["you"] == 0 and left.json()["seats"][0]["left"] is True


def test_returning_on_your_own_turn_you_play_it_and_the_stand_ins_move_is_dropped(tmp_path):
    service = GameService(f"sqlite:///{tmp_path / 'back.sqlite3'}")
    game, _ = service.create(2, "standard", [human(), human()], seed=11, time_limit=120)
    assert clocks.expire_due(service, datetime.now(UTC) + timedelta(seconds=121)) == [game.id]
    turn = service.bot_turn(game.id)  # the stand-in starts choosing Ada's move
    assert turn is not None and turn[1] == 0
    back = clocks.return_seat(service, game.id, 0)
    assert not back.seats[0].away and back.deadline is not None and back.deadline > datetime.now(UTC)
    with pytest.raises(GameError) as dropped:
        service.play(game.id, 0, "pass", turn[0].move_number, turn[2])
    assert dropped.value.code == "stale"
    service.play(game.id, 0, "pass", 0)  # Ada's own move
    service.forget(game.id)
    assert service.get(game.id).snapshot.moves == ("pass",) and not service.get(game.id).seats[0].away
    service.close()


def test_a_person_with_no_card_left_is_passed_for_without_a_clock(client, db_url):
    """Once a person's hand is empty, the server plays their only move, a pass, each turn: not the stand-in (the
    stored move is theirs), and with no deadline running for it. The person still may pass themselves."""
    from sqlalchemy import select

    from kingisdead import GameState
    from kingisdead.moves import format_move, parse_move
    from kingisdead.web.db import MoveRow, make_engine

    game = create(client, [human(), bot("random")], seed=5, time_limit=120)
    game_id, token = game["id"], game["seats"][0]["token"]
    emptied = None  # the move number at which seat 0 played its last card
    while True:
        current = wait_for(lambda: (v := view(client, game_id, token))["status"] == "finished"
                           or v["table"]["to_move"] == 0 and v, what="seat 0's turn or the end")
        if current is True or current["status"] == "finished":
            break
        state = GameState.new(2, "standard", 5, game["game"]["table"]["to_move"])
        for entry in current["log"]:
            state.apply(parse_move(entry["notation"]))
        if state.cards_left(0) == 0:  # the server has not passed yet: it is about to
            assert current["deadline"] is None
            wait_for(lambda n=current["move_number"]: view(client, game_id)["move_number"] > n,
                     what="the server's pass")
            continue
        move = next(m for m in state.legal_moves() if m.card is not None)
        assert client.post(f"/api/games/{game_id}/moves", json={"move": format_move(move), "move_number":
                                                                 current["move_number"]},
                           headers=auth(token)).status_code == 200
        if state.cards_left(0) == 1:
            emptied = current["move_number"]
    assert emptied is not None, "seat 0 never played its last card"
    log = view(client, game_id)["log"]
    after = [e for e in log if e["seat"] == 0 and e["number"] > emptied + 1]
    assert after and all(e["notation"] == "pass" for e in after)  # the test posted none of them
    engine = make_engine(db_url)
    with engine.connect() as connection:
        stand_ins = connection.execute(select(MoveRow.stand_in).where(MoveRow.game_id == game_id,
                                                                      MoveRow.seat == 0)).scalars().all()
    engine.dispose()
    assert not any(stand_ins)
