"""Friends: follows, the cap and the rate limit, the "let others follow me" setting, the block list, who is online
and the games two friends share (those where the databases can differ on PostgreSQL too: webtools.on_both_databases)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import select
from webtools import bot, create, human, on_both_databases

from kingisdead.web import friends
from kingisdead.web.accounts import SESSION_COOKIE
from kingisdead.web.db import BlockRow, FollowRow, UserRow
from kingisdead.web.security import RateLimits

PASSWORD = "correct horse battery"
JSON = {"content-type": "application/json"}


@pytest.fixture
def make_client(db_url: str, browsers: Any) -> Any:
    """``make(name=None)``: a browser on one app (one database), signed up as ``name`` if given."""
    from kingisdead.web import create_app

    app = create_app(db_url, rate_limits=RateLimits(follow="4/minute"))

    def make(name: str | None = None) -> Any:
        client = browsers(app)
        if name is not None:
            answer = client.post("/api/account/sign-up", json={"name": name, "password": PASSWORD})
            assert answer.status_code == 201, answer.text
        return client

    return make


def names(view: dict[str, Any]) -> list[str]:
    return [friend["name"] for friend in view["friends"]]


def unfollow(client: Any, name: str) -> Any:
    """DELETE /api/friends?name= (a signed-in change: sent as JSON, with no body)."""
    return client.delete("/api/friends", params={"name": name}, headers=JSON)


def unblock(client: Any, name: str) -> Any:
    return client.delete("/api/blocks", params={"name": name}, headers=JSON)


def refused(answer: Any, status: int, error: str) -> None:
    assert answer.status_code == status, answer.text
    body = answer.json()
    assert body["error"] == error and body["detail"], body


def test_follow_and_unfollow_by_name_and_the_clear_refusals(make_client):
    alice, bob, carol = make_client("Alice"), make_client("Bob"), make_client("Carol")
    view = alice.get("/api/friends").json()
    assert view == {"friends": [], "blocked": [], "allow_follow": True, "follow_limit": 300, "online_minutes": 5}
    followed = alice.post("/api/friends", json={"name": "  BOB "})  # as at sign-in: case and spaces ignored
    assert followed.status_code == 200, followed.text
    assert names(followed.json()) == ["Bob"] and followed.json()["friends"][0]["follows_you"] is False
    assert names(alice.post("/api/friends", json={"name": "bob"}).json()) == ["Bob"]  # again: nothing changes
    assert names(alice.post("/api/friends", json={"name": "Carol"}).json()) == ["Bob", "Carol"]
    assert bob.post("/api/friends", json={"name": "alice"}).json()["friends"][0]["follows_you"] is True
    assert alice.get("/api/friends").json()["friends"][0]["follows_you"] is True
    assert carol.get("/api/friends").json()["friends"] == []  # a follow is one-way
    assert names(unfollow(alice, "bob").json()) == ["Carol"]
    assert names(unfollow(alice, "bob").json()) == ["Carol"]  # not followed: no-op
    refused(alice.post("/api/friends", json={"name": "Nobody"}), 404, "unknown_player")
    refused(unfollow(alice, "Nobody"), 404, "unknown_player")
    refused(alice.post("/api/friends", json={"name": "alice"}), 422, "follow_self")
    refused(alice.post("/api/friends", json={"name": "x"}), 422, "invalid_name")
    refused(alice.post("/api/friends", json={"name": "Random bot"}), 422, "invalid_name")  # bots are not people
    refused(alice.post("/api/friends", json={"name": "a" * 201}), 422, "invalid_request")
    refused(alice.post("/api/friends", json={"name": 7}), 422, "invalid_request")
    refused(alice.post("/api/friends", json={}), 422, "invalid_request")
    refused(unfollow(alice, "x"), 422, "invalid_name")
    refused(unblock(alice, "b" * 201), 422, "invalid_request")
    refused(alice.delete("/api/friends", headers=JSON), 422, "invalid_request")  # no name
    refused(alice.patch("/api/friends", json={"allow_follow": 0}), 422, "invalid_request")  # strict: 0 is not false
    refused(alice.post("/api/friends", content='{"name": "Bob"}', headers={"content-type": "text/plain"}),
            403, "not_json")  # a cross-site form cannot follow for you
    guest = make_client()
    for method, path, body in (("GET", "/api/friends", None), ("POST", "/api/friends", {"name": "Bob"}),
                               ("PATCH", "/api/friends", {"allow_follow": False}),
                               ("POST", "/api/blocks", {"name": "Bob"})):
        refused(guest.request(method, path, json=body), 401, "sign_in_required")
    refused(unfollow(guest, "Bob"), 401, "sign_in_required")


def test_at_most_300_follows_and_new_follows_are_rate_limited_per_account(make_client, monkeypatch):
    monkeypatch.setattr(friends, "FOLLOW_LIMIT", 2)  # the cap is read at each follow: 2 stands for 300
    alice = make_client("Alice")
    for name in ("Bob", "Carol", "Dagonet"):
        make_client(name)
    alice.post("/api/friends", json={"name": "Bob"})
    alice.post("/api/friends", json={"name": "Carol"})
    refused(alice.post("/api/friends", json={"name": "Dagonet"}), 409, "too_many_follows")  # counted: 3 of 4
    assert names(alice.get("/api/friends").json()) == ["Bob", "Carol"]
    assert alice.post("/api/friends", json={"name": "Bob"}).status_code == 200  # already followed: not counted
    unfollow(alice, "Carol")
    assert names(alice.post("/api/friends", json={"name": "Dagonet"}).json()) == ["Bob", "Dagonet"]  # the 4th
    unfollow(alice, "Dagonet")
    limited = alice.post("/api/friends", json={"name": "Carol"})  # 4 new follows this minute: the limit
    refused(limited, 429, "rate_limited")
    assert 1 <= int(limited.headers["Retry-After"]) <= 60
    refused(alice.post("/api/blocks", json={"name": "Carol"}), 429, "rate_limited")  # blocks count with them
    # the limit is the account's, not the address's: another account at the same address follows freely
    bob = make_client()
    bob.post("/api/account/sign-in", json={"name": "Bob", "password": PASSWORD})
    assert names(bob.post("/api/friends", json={"name": "Carol"}).json()) == ["Carol"]


def test_the_setting_off_refuses_new_follows_and_keeps_the_old_ones(make_client):
    alice, bob, carol = make_client("Alice"), make_client("Bob"), make_client("Carol")
    bob.post("/api/friends", json={"name": "Alice"})
    view = alice.patch("/api/friends", json={"allow_follow": False}).json()
    assert view["allow_follow"] is False
    refused(carol.post("/api/friends", json={"name": "alice"}), 403, "follow_refused")
    assert names(bob.get("/api/friends").json()) == ["Alice"]  # kept
    assert bob.post("/api/friends", json={"name": "Alice"}).status_code == 200  # following still: no change
    assert alice.post("/api/friends", json={"name": "Carol"}).status_code == 200  # she may follow others
    assert alice.patch("/api/friends", json={"allow_follow": True}).json()["allow_follow"] is True
    assert names(carol.post("/api/friends", json={"name": "Alice"}).json()) == ["Alice"]


@on_both_databases
def test_a_block_removes_the_follows_both_ways_refuses_new_ones_and_stays_private(make_client):
    alice, bob, carol = make_client("Alice"), make_client("Bob"), make_client("Carol")
    alice.post("/api/friends", json={"name": "Bob"})
    bob.post("/api/friends", json={"name": "Alice"})
    bob.post("/api/friends", json={"name": "Carol"})
    view = alice.post("/api/blocks", json={"name": "bob"}).json()
    assert view["friends"] == [] and view["blocked"] == [{"name": "Bob"}]
    assert names(bob.get("/api/friends").json()) == ["Carol"]  # his follow of her went too
    assert alice.post("/api/blocks", json={"name": "Bob"}).json()["blocked"] == [{"name": "Bob"}]  # again: no-op
    refused(alice.post("/api/friends", json={"name": "Bob"}), 409, "you_blocked")
    # Bob is told what a player with the setting off would tell him: the block is not given away
    refused(bob.post("/api/friends", json={"name": "Alice"}), 403, "follow_refused")
    assert bob.get("/api/friends").json()["blocked"] == []  # her list is hers alone
    assert "Bob" not in carol.get("/api/friends").text
    with alice.app.state.service.sessions() as session:
        ids = {row.name: row.id for row in session.scalars(select(UserRow))}
        assert friends.blocked_between(session, ids["Alice"], ids["Bob"])
        assert friends.blocked_between(session, ids["Bob"], ids["Alice"])
        assert not friends.blocked_between(session, ids["Bob"], ids["Carol"])
    refused(alice.post("/api/blocks", json={"name": "Alice"}), 422, "block_self")
    refused(alice.post("/api/blocks", json={"name": "Nobody"}), 404, "unknown_player")
    # unblocking lets follows be made again; the ones the block removed do not come back
    view = unblock(alice, "BOB").json()
    assert view["blocked"] == [] and view["friends"] == []
    assert names(bob.post("/api/friends", json={"name": "Alice"}).json()) == ["Alice", "Carol"]
    with alice.app.state.service.sessions() as session:
        assert not friends.blocked_between(session, ids["Alice"], ids["Bob"])


@on_both_databases
def test_a_deleted_account_leaves_every_list(make_client):
    alice, bob = make_client("Alice"), make_client("Bob")
    alice.post("/api/friends", json={"name": "Bob"})
    bob.post("/api/friends", json={"name": "Alice"})
    bob.post("/api/blocks", json={"name": "Alice"})  # removes the follows; the block stays until deletion
    alice.post("/api/friends", json={"name": "Bob"})
    assert bob.request("DELETE", "/api/account", json={"password": PASSWORD}).status_code == 200
    assert alice.get("/api/friends").json()["friends"] == []
    with alice.app.state.service.sessions() as session:
        assert session.scalars(select(FollowRow)).all() == [] and session.scalars(select(BlockRow)).all() == []


@on_both_databases
def test_online_is_a_request_in_the_last_five_minutes_written_at_most_once_a_minute(make_client, monkeypatch):
    start = datetime(2030, 1, 1, 12, 0, tzinfo=UTC)
    clock = [start]
    monkeypatch.setattr(friends, "_now", lambda: clock[0])
    alice, bob = make_client("Alice"), make_client("Bob")
    service = alice.app.state.service

    def seen(name: str) -> datetime | None:
        with service.sessions() as session:
            moment = session.scalar(select(UserRow.seen_at).where(UserRow.name == name))
        return None if moment is None else moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment

    assert alice.post("/api/friends", json={"name": "Bob"}).json()["friends"][0]["online"] is False  # seen: never
    bob.get("/api/friends")
    assert seen("Bob") == start
    assert alice.get("/api/friends").json()["friends"][0]["online"] is True
    clock[0] = start + timedelta(seconds=50)
    bob.get("/api/friends")
    assert seen("Bob") == start  # within the minute: not written again
    clock[0] = start + timedelta(seconds=70)
    bob.get("/api/account")
    assert seen("Bob") == clock[0]
    clock[0] += friends.ONLINE
    assert alice.get("/api/friends").json()["friends"][0]["online"] is True  # exactly 5 minutes: still online
    clock[0] += timedelta(seconds=1)
    assert alice.get("/api/friends").json()["friends"][0]["online"] is False
    # a message on a game's socket counts too (a player at the table, making no HTTP request)
    game = create(bob, [human(), bot("random")], seed=5)
    cookie = f"{SESSION_COOKIE}={bob.cookies[SESSION_COOKIE]}"
    with bob.websocket_connect(f"/api/games/{game['id']}/ws", headers={"cookie": cookie}) as socket:
        socket.receive_json()  # the game's view
        clock[0] += timedelta(minutes=2)
        socket.send_json({"type": "ping"})
        assert socket.receive_json() == {"type": "pong"}
    assert seen("Bob") == clock[0]
    assert alice.get("/api/friends").json()["friends"][0]["online"] is True


def test_the_games_two_friends_share_say_whose_turn_it_is(make_client):
    alice, bob = make_client("Alice"), make_client("Bob")

    def versus_bob(seed: int, first_player: int) -> str:
        game = create(alice, [human(), {"kind": "human", "public": True}], seed=seed, claim=False,
                      first_player=first_player)
        assert bob.post(f"/api/games/{game['id']}/join", json={}).status_code == 200
        return game["id"]

    mine = versus_bob(1, 0)
    theirs = versus_bob(2, 1)
    carol = make_client("Carol")  # a 3-player game where it is Carol's turn
    open_seat = {"kind": "human", "public": True}
    third = create(alice, [human(), open_seat, open_seat], seed=4, claim=False, first_player=2)["id"]
    assert bob.post(f"/api/games/{third}/join", json={}).json()["seat"] == 1
    assert carol.post(f"/api/games/{third}/join", json={}).json()["seat"] == 2
    create(alice, [human(), bot("random")], seed=3)  # Alice alone with a bot: not shared
    alice.post("/api/friends", json={"name": "Bob"})
    bob.post("/api/friends", json={"name": "Alice"})
    [friend] = alice.get("/api/friends").json()["friends"]
    assert {(g["id"], g["turn"], g["players"], g["move_number"]) for g in friend["games"]} == {
        (mine, "yours", 2, 0), (theirs, "theirs", 2, 0), (third, "other", 3, 0)}
    [back] = bob.get("/api/friends").json()["friends"]
    assert {(g["id"], g["turn"]) for g in back["games"]} == {(mine, "theirs"), (theirs, "yours"), (third, "other")}
    # a game Bob leaves is no longer shared
    assert bob.post(f"/api/games/{mine}/leave", json={}).status_code == 200
    assert {g["id"] for g in alice.get("/api/friends").json()["friends"][0]["games"]} == {theirs, third}
