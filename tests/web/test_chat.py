"""The games' chats: the seats' and the watchers' apart, plain capped text, the rate limit, guests reading only,
mute and off for all, blocks both ways, reports, the operator's time-out (the CLI), the record with and without
the chat, bad input answered 4xx; those where the databases can differ on PostgreSQL too (webtools.on_both_databases)."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from sqlalchemy import select
from typer.testing import CliRunner
from webtools import auth, create, human, on_both_databases

from kingisdead.cli import app as cli
from kingisdead.web.chat import LIMIT, MAX_TEXT
from kingisdead.web.db import BlockRow, ChatLineRow, ChatReportRow, UserRow


@pytest.fixture
def table(db_url: str, browsers: Any) -> dict[str, Any]:
    """A 2-player game of Ann (seat 0) and Ben (seat 1), each signed in; Cat signed in and watching; a guest."""
    from kingisdead.web import create_app

    app = create_app(db_url)
    people = {name: browsers(app) for name in ("ann", "ben", "cat", "guest")}
    for name in ("ann", "ben", "cat"):
        made = people[name].post("/api/account/sign-up", json={"name": name.title(), "password": "a long password"})
        assert made.status_code == 201, made.text
    game = create(people["ann"], [human(), human()], claim=False)
    claimed = people["ben"].post(f"/api/games/{game['id']}/claim", json={},
                                 headers=auth(game["seats"][1]["invite_token"]))
    assert claimed.status_code == 200, claimed.text
    return {**people, "game": game["id"], "url": db_url, "app": app}


def say(client: Any, game_id: str, text: str, room: str = "seats") -> Any:
    return client.post(f"/api/games/{game_id}/chat", json={"room": room, "text": text})


def heard(socket: Any) -> list[str]:
    """The chat lines a socket was told so far (a ping's pong marks the end of what is queued)."""
    socket.send_json({"type": "ping"})
    lines = []
    while (message := socket.receive_json())["type"] != "pong":
        if message["type"] == "chat":
            lines.append(message["line"]["text"])
        assert message["type"] != "error", message
    return lines


def shown(client: Any, game_id: str, room: str = "seats") -> list[str]:
    answer = client.get(f"/api/games/{game_id}/chat", params={"room": room})
    assert answer.status_code == 200, answer.text
    return [line["text"] for line in answer.json()["lines"]]


def block(table: dict[str, Any], blocker: str, blocked: str) -> None:
    with table["app"].state.service.sessions.begin() as session:
        ids = dict(session.execute(select(UserRow.name, UserRow.id)).all())
        session.add(BlockRow(blocker_id=ids[blocker], blocked_id=ids[blocked]))


def test_the_seats_chat_and_the_watchers_chat_are_kept_apart(table):
    ann, ben, cat, guest, game = table["ann"], table["ben"], table["cat"], table["guest"], table["game"]
    ws = f"wss://testserver/api/games/{game}/ws"  # wss: the session cookie is Secure
    with ann.websocket_connect(ws) as ann_ws, ben.websocket_connect(ws) as ben_ws, \
            cat.websocket_connect(ws) as cat_ws, guest.websocket_connect(ws) as guest_ws:
        ann_ws.send_json({"type": "chat", "text": "good luck"})  # a seat's socket: the seats' chat
        assert heard(ann_ws) == ["good luck"]
        assert heard(ben_ws) == ["good luck"]
        assert heard(cat_ws) == [] and heard(guest_ws) == []
        cat_ws.send_json({"type": "chat", "text": "Ann will win"})  # a watcher's: the watchers' chat
        assert heard(cat_ws) == ["Ann will win"] and heard(guest_ws) == ["Ann will win"]
        assert heard(ann_ws) == [] and heard(ben_ws) == []
        ann_ws.send_json({"type": "chat_open", "open": True})  # a seat opens the watchers' chat
        assert say(cat, game, "she opened it", "watchers").status_code == 201
        assert heard(ann_ws) == ["she opened it"] and heard(ben_ws) == [] and heard(guest_ws) == ["she opened it"]
        guest_ws.send_json({"type": "chat", "text": "hello"})  # a guest reads only
        refused = guest_ws.receive_json()
        assert refused.get("error") == "sign_in_required", refused
    assert shown(ann, game) == ["good luck"] and shown(ben, game, "watchers") == ["Ann will win", "she opened it"]
    assert shown(guest, game, "watchers") == ["Ann will win", "she opened it"]
    for outsider in (cat, guest):
        assert outsider.get(f"/api/games/{game}/chat").json()["error"] == "not_seated"
    assert say(guest, game, "hi", "watchers").status_code == 401
    assert say(cat, game, "let me in").json()["error"] == "not_seated"
    assert say(ann, game, "psst", "watchers").json()["error"] == "seated"
    you = ann.get(f"/api/games/{game}/chat").json()["you"]
    assert you == {"name": "Ann", "can_write": True, "muted": False, "off": False, "timeout_until": None}
    assert guest.get(f"/api/games/{game}/chat", params={"room": "watchers"}).json()["you"] is None


@on_both_databases
def test_a_line_is_plain_text_capped_and_without_control_characters(table):
    ann, game = table["ann"], table["game"]
    stored = say(ann, game, "  <b>x</b> https://example.com  ")
    assert stored.status_code == 201, stored.text
    assert stored.json()["text"] == "<b>x</b> https://example.com"  # kept as typed, shown as text by the page
    assert shown(table["ben"], game) == ["<b>x</b> https://example.com"]
    assert say(ann, game, "x" * MAX_TEXT).status_code == 201
    for bad in ("x" * (MAX_TEXT + 1), "two\nlines", "bell\x07", "c1\x85", ""):
        assert say(ann, game, bad).status_code == 422, bad
    assert ann.post(f"/api/games/{game}/chat", json={"room": "seats", "text": 3}).status_code == 422
    assert ann.post(f"/api/games/{game}/chat", json={"room": "kitchen", "text": "hi"}).status_code == 422
    assert say(ann, game, "   ").status_code == 422  # only spaces: nothing said
    with ann.websocket_connect(f"wss://testserver/api/games/{game}/ws") as socket:
        for message in ({"type": "chat", "text": "y" * (MAX_TEXT + 1)}, {"type": "chat", "text": "a\rb"},
                        {"type": "chat", "room": "attic", "text": "hi"}, {"type": "chat"},
                        {"type": "chat_open", "open": "yes"}):
            socket.send_json(message)
            while (answer := socket.receive_json())["type"] == "state":
                pass
            assert (answer["type"], answer["error"]) == ("error", "invalid_request"), message


def test_an_account_says_at_most_the_limits_lines(table):
    ann, game = table["ann"], table["game"]
    for n in range(LIMIT.amount):
        assert say(ann, game, f"line {n}").status_code == 201
    refused = say(ann, game, "one too many")
    assert refused.status_code == 429 and refused.json()["error"] == "rate_limited"
    assert 1 <= int(refused.headers["retry-after"]) <= LIMIT.get_expiry()
    assert say(table["ben"], game, "my turn to talk").status_code == 201  # per account


def test_mute_a_game_and_chat_off_for_all_games(table):
    ann, ben, game = table["ann"], table["ben"], table["game"]
    with ben.websocket_connect(f"wss://testserver/api/games/{game}/ws") as ben_ws:
        assert ben.put(f"/api/games/{game}/chat/mute", json={"muted": True}).json()["muted"] is True
        assert say(ann, game, "can you hear me").status_code == 201
        assert heard(ben_ws) == [] and shown(ben, game) == []
        assert say(ben, game, "I muted it").json()["error"] == "chat_off"
        assert ben.put(f"/api/games/{game}/chat/mute", json={"muted": False}).json()["muted"] is False
        assert say(ann, game, "and now").status_code == 201
        assert heard(ben_ws) == ["and now"] and shown(ben, game) == ["can you hear me", "and now"]
        assert ben.put("/api/account/chat", json={"off": True}).json() == {"off": True, "timeout_until": None}
        assert say(ann, game, "gone again").status_code == 201
        assert heard(ben_ws) == [] and shown(ben, game) == []
        assert say(ben, game, "hello").json()["error"] == "chat_off"
    assert ben.get("/api/account/chat").json()["off"] is True  # kept
    assert ben.get(f"/api/games/{game}/chat").json()["you"]["can_write"] is False
    assert ben.put("/api/account/chat", json={"off": False}).json()["off"] is False
    assert shown(ben, game)[-1] == "gone again"


def test_a_block_keeps_lines_apart_both_ways(table):
    ann, ben, cat, game = table["ann"], table["ben"], table["cat"], table["game"]
    ws = f"wss://testserver/api/games/{game}/ws"  # wss: the session cookie is Secure
    assert say(ben, game, "before the block").status_code == 201
    block(table, "Ann", "Ben")
    with ann.websocket_connect(ws) as ann_ws, ben.websocket_connect(ws) as ben_ws, cat.websocket_connect(ws) as cat_ws:
        ben_ws.send_json({"type": "chat", "text": "can Ann read this"})
        assert heard(ben_ws) == ["can Ann read this"] and heard(ann_ws) == []
        assert say(ann, game, "can Ben read this").status_code == 201
        assert heard(ann_ws) == ["can Ben read this"] and heard(ben_ws) == []
        ann_ws.send_json({"type": "chat_open", "open": True})
        assert heard(ann_ws) == []
        assert say(cat, game, "a watcher, not blocked", "watchers").status_code == 201
        assert heard(ann_ws) == ["a watcher, not blocked"] and heard(cat_ws) == ["a watcher, not blocked"]
    assert shown(ann, game) == ["can Ben read this"]
    assert shown(ben, game) == ["before the block", "can Ann read this"]
    record = json.loads(ann.get(f"/api/games/{game}/record").text)
    assert [line["text"] for line in record["chat"]] == ["can Ben read this"]


@on_both_databases
def test_a_reported_line_is_kept_with_its_game_and_move_number_for_the_operator(table):
    ann, ben, cat, game = table["ann"], table["ben"], table["cat"], table["game"]
    line = say(ann, game, "you play like a goat").json()
    assert line["move_number"] == 0
    watchers = say(cat, game, "boring", "watchers").json()
    reported = ben.post(f"/api/games/{game}/chat/{line['id']}/report", json={"reason": "rude"})
    assert reported.status_code == 201 and reported.json() == {"reported": True, "new": True}
    assert ben.post(f"/api/games/{game}/chat/{line['id']}/report", json={}).json()["new"] is False
    assert cat.post(f"/api/games/{game}/chat/{line['id']}/report", json={}).json()["error"] == "no_such_line"
    assert ann.post(f"/api/games/{game}/chat/{watchers['id']}/report", json={}).status_code == 201
    assert table["guest"].post(f"/api/games/{game}/chat/{line['id']}/report", json={}).status_code == 401
    assert ben.post(f"/api/games/{game}/chat/999999/report", json={}).json()["error"] == "no_such_line"
    with table["app"].state.service.sessions() as session:
        rows = session.scalars(select(ChatReportRow).order_by(ChatReportRow.id)).all()
        assert [(r.game_id, r.move_number, r.reason) for r in rows] == [(game, 0, "rude"), (game, 0, None)]
    listed = CliRunner().invoke(cli, ["chat", "reports", "--database", table["url"], "--json"])
    assert listed.exit_code == 0, listed.output
    reports = [json.loads(row) for row in listed.output.splitlines()]
    assert [(r["author"], r["text"], r["reporter"], r["game_id"], r["move_number"], r["room"]) for r in reports] == [
        ("Cat", "boring", "Ann", game, 0, "watchers"), ("Ann", "you play like a goat", "Ben", game, 0, "seats")]
    plain = CliRunner().invoke(cli, ["chat", "reports", "--database", table["url"]])
    assert "you play like a goat" in plain.output and f"game {game} move 0" in plain.output


def test_an_operators_time_out_refuses_lines_until_it_ends(table):
    ann, game, url = table["ann"], table["game"], table["url"]
    timed = CliRunner().invoke(cli, ["chat", "timeout", "ANN", "--minutes", "30", "--database", url])
    assert timed.exit_code == 0 and "timed out of the chat until" in timed.output, timed.output
    refused = say(ann, game, "let me speak")
    assert refused.status_code == 403 and refused.json()["error"] == "chat_timeout"
    assert ann.get("/api/account/chat").json()["timeout_until"] is not None
    with ann.websocket_connect(f"wss://testserver/api/games/{game}/ws") as socket:
        socket.send_json({"type": "chat", "text": "and here?"})
        while (answer := socket.receive_json())["type"] == "state":
            pass
        assert answer["error"] == "chat_timeout"
    lifted = CliRunner().invoke(cli, ["chat", "timeout", "Ann", "--minutes", "0", "--database", url])
    assert lifted.exit_code == 0 and "may write in the chat again" in lifted.output
    assert say(ann, game, "thank you").status_code == 201
    for wrong in (["Nobody", "--minutes", "5"], ["Ann", "--minutes", "-1"]):
        assert CliRunner().invoke(cli, ["chat", "timeout", *wrong, "--database", url]).exit_code != 0


def test_the_record_holds_the_seats_chat_for_its_seats_only(table):
    ann, ben, cat, guest, game = table["ann"], table["ben"], table["cat"], table["guest"], table["game"]
    assert say(ann, game, "gl hf").status_code == 201
    assert say(cat, game, "watching", "watchers").status_code == 201
    for seat in (ann, ben):
        record = json.loads(seat.get(f"/api/games/{game}/record").text)
        assert [(line["seat"], line["name"], line["text"], line["move_number"]) for line in record["chat"]] == [
            (0, "Ann", "gl hf", 0)]
    for outsider in (cat, guest):
        assert "chat" not in json.loads(outsider.get(f"/api/games/{game}/record").text)
    with table["app"].state.service.sessions() as session:
        assert session.scalar(select(ChatLineRow.text).where(ChatLineRow.room == "watchers")) == "watching"
    assert guest.get(f"/api/games/{game}/record", headers=auth("not-a-token")).status_code == 403


def test_bad_input_is_answered_4xx(table):
    ann, guest, game = table["ann"], table["guest"], table["game"]
    assert ann.get("/api/games/nosuchgame/chat").status_code == 404
    assert say(ann, "nosuchgame", "hi").status_code == 404
    assert ann.get(f"/api/games/{game}/chat", params={"room": "roof"}).status_code == 422
    assert ann.post(f"/api/games/{game}/chat", content=b"not json",
                    headers={"content-type": "application/json"}).status_code == 422
    assert ann.post(f"/api/games/{game}/chat", content=b"{}", headers={"content-type": "text/plain"}).status_code == 403
    assert ann.post(f"/api/games/{game}/chat/abc/report", json={}).status_code == 422
    assert ann.post(f"/api/games/{game}/chat/{2**70}/report", json={}).status_code == 422
    assert ann.post(f"/api/games/{game}/chat/1/report", json={"reason": "x" * 201}).status_code == 422
    assert ann.put(f"/api/games/{game}/chat/mute", json={"muted": 1}).status_code == 422
    assert guest.put("/api/account/chat", json={"off": True}).status_code == 401



@on_both_databases
def test_a_line_reaches_the_sockets_of_another_server_process(db_url, browsers, server_factory):
    """A line stored by one server process reaches a watcher's socket on another process of the same PostgreSQL
    database, through the moves' notify channel. SQLite has none (one process): skipped there."""
    if not db_url.startswith("postgresql"):
        pytest.skip("PostgreSQL's notifications only")
    from websockets.sync.client import connect

    from kingisdead.web import create_app

    app = create_app(db_url)
    cat = browsers(app)
    assert cat.post("/api/account/sign-up", json={"name": "Cat", "password": "a long password"}).status_code == 201
    game = create(browsers(app), [human(), human()], claim=False)["id"]  # made by a guest: Cat only watches
    other = server_factory(database=db_url)
    with connect(f"ws://127.0.0.1:{other.port}/api/games/{game}/ws") as watcher:
        assert json.loads(watcher.recv(timeout=30))["type"] == "state"
        time.sleep(0.3)  # the other process's listener has long connected by then
        assert say(cat, game, "across processes", "watchers").status_code == 201
        while (message := json.loads(watcher.recv(timeout=10)))["type"] != "chat":
            pass
        assert (message["line"]["text"], message["line"]["name"]) == ("across processes", "Cat")


@on_both_databases
def test_a_deleted_accounts_lines_stay_under_its_anonymous_name(table):
    ann, ben, game = table["ann"], table["ben"], table["game"]
    assert say(ann, game, "farewell").status_code == 201
    assert ann.put(f"/api/games/{game}/chat/mute", json={"muted": True}).status_code == 200
    gone = ann.request("DELETE", "/api/account", json={"password": "a long password"})
    assert gone.status_code == 200, gone.text
    line = ben.get(f"/api/games/{game}/chat").json()["lines"][0]
    assert line["text"] == "farewell" and line["name"].startswith("anonymous-")


def test_in_a_four_player_game_all_four_seats_read_the_players_chat(db_url, browsers):
    """Partners have no chat of their own (the rulebook forbids them to discuss tactics privately): what one seat
    says, all four read."""
    from kingisdead.web import create_app

    app = create_app(db_url)
    seats = [browsers(app) for _ in range(4)]
    for n, client in enumerate(seats):
        assert client.post("/api/account/sign-up", json={"name": ("Ann", "Ben", "Cat", "Dan")[n], "password": "a long password"}
                           ).status_code == 201
    game = create(seats[0], [human() for _ in range(4)], claim=False)
    for n in (1, 2, 3):
        assert seats[n].post(f"/api/games/{game['id']}/claim", json={},
                             headers=auth(game["seats"][n]["invite_token"])).status_code == 200
    assert say(seats[2], game["id"], "I hold the Crown").json()["seat"] == 2
    assert [shown(client, game["id"]) for client in seats] == [["I hold the Crown"]] * 4
