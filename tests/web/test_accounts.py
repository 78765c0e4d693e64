"""Accounts: sign-up, sign-in, sessions in a cookie, "my games", statistics, and seats held by an account.

The session cookie is Secure, so the test clients speak https (an http client would not send it back).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from random import Random
from typing import Any

import pytest
from sqlalchemy import select, update
from webtools import auth, bot, create, human

from kingisdead import GameState
from kingisdead import playout
from kingisdead.web import accounts
from kingisdead.web.accounts import SESSION_COOKIE, SESSION_IDLE_DAYS, SESSION_MAX_DAYS, hash_secret
from kingisdead.web.db import (
    NotificationSettingsRow,
    OutboxRow,
    PushSubscriptionRow,
    RatingRow,
    SeatRow,
    UserRow,
    UserSessionRow,
)
from kingisdead.web.security import RateLimits

PASSWORD = "correct horse battery"


@pytest.fixture
def make_client(db_url: str, browsers: Any) -> Any:
    """Clients of one app (one database): each its own browser, with its own cookies."""
    from kingisdead.web import create_app

    app = create_app(db_url, rate_limits=RateLimits(sign_in="3/minute"))

    def make() -> Any:
        client = browsers(app)
        return client

    return make


def sign_up(client: Any, name: str, password: str = PASSWORD) -> dict[str, Any]:
    response = client.post("/api/account/sign-up", json={"name": name, "password": password})
    assert response.status_code == 201, response.text
    return response.json()


def users(client: Any) -> list[UserRow]:
    with client.app.state.service.sessions() as session:
        return list(session.scalars(select(UserRow)))


def play_random(client: Any, game: dict[str, Any], rng: Random, moves: int | None = None,
                cookie_seat: int | None = None) -> GameState:
    """Play ``moves`` moves (None: to the end) of a game of people, each from the server's position; the seat
    ``cookie_seat`` plays through ``client``'s cookie, every other seat with its token. The server passes for a
    person whose hand is empty, at its own pace: a move refused as stale because of such a pass is chosen again.
    The final position."""
    played = refused = 0
    while True:
        snapshot = client.app.state.service.get(game["id"]).snapshot
        state = snapshot.state.copy()
        if state.is_over() or (moves is not None and played >= moves):
            return state
        seat, number = state.player, len(snapshot.moves)
        move = playout.play_random(state, rng)
        headers = {} if seat == cookie_seat else auth(game["seats"][seat]["token"])
        response = client.post(f"/api/games/{game['id']}/moves", headers=headers,
                               json={"move": str(move), "move_number": number})
        if response.status_code == 409 and response.json()["error"] in ("stale", "not_your_turn", "over"):
            refused += 1  # the server passed for an empty hand in the meantime
            assert refused < 20, response.text
            continue
        assert response.status_code == 200, response.text
        played += 1


def test_sign_up_signs_in_with_a_secure_httponly_samesite_cookie(make_client):
    client = make_client()
    response = client.post("/api/account/sign-up", json={"name": "  Ada   Lovelace ", "password": PASSWORD})
    assert response.status_code == 201
    assert response.json()["name"] == "Ada Lovelace" and response.json()["language"] is None
    signed_in = client.post("/api/account/sign-in", json={"name": "ada lovelace", "password": PASSWORD})
    for header in (response.headers["set-cookie"], signed_in.headers["set-cookie"]):
        flags = {part.strip().split("=")[0].lower(): part.strip() for part in header.split(";")}
        assert "httponly" in flags and "secure" in flags
        assert flags["samesite"].lower() == "samesite=lax" and flags["path"] == "Path=/"
        assert flags["max-age"] == f"Max-Age={SESSION_MAX_DAYS * 86400}"
    [cookie] = [c for c in client.cookies.jar if c.name == SESSION_COOKIE]
    assert cookie.secure and cookie.has_nonstandard_attr("HttpOnly")
    me = client.get("/api/account")
    assert me.status_code == 200 and me.json()["name"] == "Ada Lovelace"
    # the database keeps an Argon2id hash of the password and only a hash of each session's secret
    [user] = users(client)
    assert user.password_hash.startswith("$argon2id$") and PASSWORD not in user.password_hash
    assert user.name_key == "ada lovelace"
    with client.app.state.service.sessions() as session:
        stored = set(session.scalars(select(UserSessionRow.id)))
    secret = client.cookies[SESSION_COOKIE]
    assert stored == {hash_secret(secret)}  # signing in again from this browser replaced its session


def test_a_name_taken_in_another_case_or_width_is_409(make_client):
    client = make_client()
    sign_up(client, "Merlin")
    for other in ("MERLIN", " merlin ", "Ｍｅｒｌｉｎ"):  # the last in fullwidth letters
        response = make_client().post("/api/account/sign-up", json={"name": other, "password": PASSWORD})
        assert response.status_code == 409 and response.json()["error"] == "name_taken", other
    assert [u.name for u in users(client)] == ["Merlin"]


@pytest.mark.parametrize(("name", "password", "code"), [
    ("ab", PASSWORD, "invalid_name"),
    ("x" * 41, PASSWORD, "invalid_name"),
    ("    ", PASSWORD, "invalid_name"),
    ("bad\x07name", PASSWORD, "invalid_name"),  # (NUL: 422 invalid_request before any route, test_control_characters)
    ("---", PASSWORD, "invalid_name"),
    ("Ada\r\nLovelace", PASSWORD, "invalid_name"),  # a line break is refused, not collapsed into a space
    ("Ada Lovelace\n", PASSWORD, "invalid_name"),
    ("Intermediate bot", PASSWORD, "invalid_name"),
    ("bot:intermediate", PASSWORD, "invalid_name"),  # the key of a bot level's account
    ("Gawain", "short", "invalid_password"),
    ("Gawain", "x" * 129, "invalid_password"),
])
def test_a_bad_name_or_password_is_422_and_creates_nothing(make_client, name, password, code):
    client = make_client()
    response = client.post("/api/account/sign-up", json={"name": name, "password": password})
    assert response.status_code == 422 and response.json()["error"] == code, response.text
    assert users(client) == [] and SESSION_COOKIE not in client.cookies
    assert client.post("/api/account/sign-up", json={"name": name}).status_code == 422  # no password at all


def test_wrong_passwords_are_401_without_telling_whether_the_name_exists_then_429(make_client):
    client = make_client()
    sign_up(client, "Morgana")
    client.cookies.clear()
    wrong = client.post("/api/account/sign-in", json={"name": "Morgana", "password": "not her password"})
    unknown = client.post("/api/account/sign-in", json={"name": "Nobody", "password": "not her password"})
    assert wrong.status_code == unknown.status_code == 401
    assert wrong.json() == unknown.json() == {"error": "wrong_credentials", "detail": "wrong name or password"}
    assert client.post("/api/account/sign-in", json={"name": "Morgana", "password": "x"}).status_code == 401
    # the limit (3 a minute here) reached: even the right password waits
    refused = client.post("/api/account/sign-in", json={"name": "Morgana", "password": PASSWORD})
    assert refused.status_code == 429 and refused.json()["error"] == "rate_limited"
    assert int(refused.headers["retry-after"]) >= 1
    assert SESSION_COOKIE not in client.cookies and client.get("/api/account").status_code == 401


def test_sign_out_ends_the_session_everywhere_it_was_copied(make_client):
    client = make_client()
    sign_up(client, "Gareth")
    copied = {"cookie": f"{SESSION_COOKIE}={client.cookies[SESSION_COOKIE]}"}
    copy = make_client()
    assert copy.get("/api/account", headers=copied).status_code == 200
    out = client.post("/api/account/sign-out", json={})
    assert out.status_code == 204 and "Max-Age=0" in out.headers["set-cookie"]
    assert SESSION_COOKIE not in client.cookies
    assert client.get("/api/account").json()["error"] == "sign_in_required"
    assert copy.get("/api/account", headers=copied).status_code == 401  # the secret itself no longer works
    with client.app.state.service.sessions() as session:
        assert session.scalar(select(UserSessionRow.id)) is None
    assert make_client().post("/api/account/sign-out", json={}).status_code == 204  # not signed in: nothing to do


def test_an_expired_session_is_refused_and_deleted(make_client):
    client = make_client()
    sign_up(client, "Lancelot")
    with client.app.state.service.sessions.begin() as session:
        session.execute(update(UserSessionRow).values(expires_at=datetime.now(UTC) - timedelta(seconds=1)))
    response = client.get("/api/account")
    assert response.status_code == 401 and response.json()["error"] == "sign_in_required"
    with client.app.state.service.sessions() as session:
        assert session.scalar(select(UserSessionRow.id)) is None
    assert client.post("/api/account/sign-in", json={"name": "Lancelot", "password": PASSWORD}).status_code == 200
    assert client.get("/api/account").status_code == 200


def test_a_forged_cross_site_form_cannot_act_for_a_signed_in_player(make_client):
    client = make_client()
    sign_up(client, "Kay")
    game = create(client, [human(), bot("random")], seed=4)
    other = create(make_client(), [human(), {"kind": "human", "public": True}], seed=5, claim=False)
    form = {"content-type": "application/x-www-form-urlencoded"}
    for path in ("/api/account/sign-out", f"/api/games/{other['id']}/join"):
        response = client.post(path, content=b"", headers=form)
        assert response.status_code == 403 and response.json()["error"] == "not_json", path
    text = {"content-type": "text/plain"}  # what a cross-site form can send: JSON in a text body
    assert client.patch("/api/account", content=b'{"language": "de"}', headers=text).status_code == 403
    assert client.post(f"/api/games/{game['id']}/moves", content=b'{"move": "pass"}', headers=text) \
        .status_code in (403, 422)
    assert client.get("/api/account").json()["language"] is None  # still signed in, nothing changed
    assert len(client.app.state.service.get(game["id"]).snapshot.moves) == 0
    assert client.app.state.service.get(other["id"]).seats[1].claimed is False


def test_the_preferred_language_is_checked_and_kept(make_client):
    client = make_client()
    assert client.patch("/api/account", json={"language": "fr"}).status_code == 401
    sign_up(client, "Tristan")
    assert client.patch("/api/account", json={"language": "fr"}).json()["language"] == "fr"
    for bad in ({"language": "es"}, {"language": 7}, {}):
        assert client.patch("/api/account", json=bad).status_code == 422, bad
    assert client.get("/api/account").json()["language"] == "fr"
    assert client.patch("/api/account", json={"language": None}).json()["language"] is None


def test_a_player_sees_only_their_own_account_and_games(make_client):
    alice, bob = make_client(), make_client()
    sign_up(alice, "Alice")
    sign_up(bob, "Bob")
    hers = create(alice, [human(), bot("random")], seed=2)
    his = create(bob, [human(), bot("random")], seed=3)
    with alice.app.state.service.sessions.begin() as session:  # as a rated game would leave it
        alice_id = session.scalar(select(UserRow.id).where(UserRow.name_key == "alice"))
        session.add(RatingRow(user_id=alice_id, players=3, mu=30.0, sigma=2.0, games=4))
    assert alice.get("/api/account").json()["name"] == "Alice"
    assert alice.get("/api/account").json()["ratings"] == [
        {"players": 3, "rating": 24.0, "mu": 30.0, "sigma": 2.0, "games": 4, "provisional": True,
         "updated_at": alice.get("/api/account").json()["ratings"][0]["updated_at"]}]
    assert bob.get("/api/account").json()["name"] == "Bob"
    assert bob.get("/api/account").json()["ratings"] == []
    assert [g["id"] for g in alice.get("/api/account/games").json()["games"]] == [hers["id"]]
    assert [g["id"] for g in bob.get("/api/account/games").json()["games"]] == [his["id"]]
    guest = make_client()
    for path in ("/api/account", "/api/account/games"):
        assert guest.get(path).status_code == 401
        assert guest.get(path, headers={"cookie": f"{SESSION_COOKIE}=made-up"}).status_code == 401


def test_my_games_list_your_turn_first_then_running_then_finished(make_client):
    alice, bob = make_client(), make_client()
    sign_up(alice, "Alice")
    sign_up(bob, "Bob")
    rng = Random(7)
    finished = create(alice, [human(), human()], seed=11, claim=False)
    claimed = bob.post(f"/api/games/{finished['id']}/claim", json={},
                       headers=auth(finished["seats"][1]["invite_token"]))
    finished["seats"][1]["token"] = claimed.json()["token"]
    end = play_random(alice, finished, rng)
    your_turn = create(alice, [human(), bot("random")], seed=12)  # Alice moves first
    theirs = create(alice, [human(), {"kind": "human", "public": True}], seed=13, claim=False, first_player=1)
    joined = bob.post(f"/api/games/{theirs['id']}/join", json={})  # Bob's turn: the newest game of all
    assert joined.status_code == 200 and joined.json()["seat"] == 1
    games = alice.get("/api/account/games").json()["games"]
    assert [g["id"] for g in games] == [your_turn["id"], theirs["id"], finished["id"]]
    assert [g["your_turn"] for g in games] == [True, False, False]
    assert [g["your_seats"] for g in games] == [[0], [0], [0]]
    assert games[2]["status"] == "finished" and games[2]["won"] == (0 in end.result.winners)
    assert games[2]["result"] == end.result.to_dict()
    assert games[0]["won"] is None and games[0]["result"] is None
    # Bob holds the seats he claimed and joined, under his account's name
    his = bob.get("/api/account/games").json()["games"]
    assert [g["id"] for g in his] == [theirs["id"], finished["id"]] and his[0]["your_turn"]
    assert [s["name"] for s in his[0]["seats"]] == ["Alice", "Bob"]
    assert alice.get("/api/account/games?finished=0").json()["games"][-1]["id"] == theirs["id"]
    assert alice.get("/api/account/games?finished=101").status_code == 422
    # statistics: one 2-player game played, won by one of them
    stats = {name: c.get("/api/account").json() for name, c in (("Alice", alice), ("Bob", bob))}
    assert stats["Alice"]["by_players"]["2"]["played"] == stats["Bob"]["by_players"]["2"]["played"] == 1
    assert stats["Alice"]["by_players"]["2"]["won"] == int(0 in end.result.winners)
    assert stats["Bob"]["by_players"]["2"]["won"] == int(1 in end.result.winners)
    assert stats["Alice"]["running"] == 2 and stats["Alice"]["by_players"]["3"] == {"played": 0, "won": 0}


def test_a_signed_in_seat_plays_from_a_second_browser_with_only_the_cookie(make_client):
    first = make_client()
    sign_up(first, "Percival")
    game = create(first, [human(), human()], seed=21, claim=False)
    guest = make_client()  # the second seat's invite is claimed by a guest
    claimed = guest.post(f"/api/games/{game['id']}/claim", headers=auth(game["seats"][1]["invite_token"]))
    game["seats"][1]["token"] = claimed.json()["token"]
    with first.app.state.service.sessions() as session:
        held = session.scalars(select(SeatRow.user_id).where(SeatRow.game_id == game["id"]).order_by(SeatRow.seat))
        assert list(held) == [users(first)[0].id, None]
    second = make_client()  # another browser: no seat token, only a sign-in
    assert second.get(f"/api/games/{game['id']}").json()["you"] is None
    assert second.post("/api/account/sign-in", json={"name": "percival", "password": PASSWORD}).status_code == 200
    view = second.get(f"/api/games/{game['id']}").json()
    assert view["you"] == 0 and view["table"]["hand"] is not None
    live = second.app.state.service.get(game["id"])
    rng = Random(3)
    while live.snapshot.state.player == 0:  # the account's seat moves with the cookie alone
        play_random(second, game, rng, moves=1, cookie_seat=0)
        live = second.app.state.service.get(game["id"])
    number = len(live.snapshot.moves)
    assert number >= 1
    # the other seat is not the account's: the cookie cannot play it
    refused = second.post(f"/api/games/{game['id']}/moves", json={"move": "pass", "move_number": number})
    assert refused.status_code == 409 and refused.json()["error"] == "not_your_turn"
    play_random(second, game, rng, moves=3, cookie_seat=0)
    assert len(second.app.state.service.get(game["id"]).snapshot.moves) == number + 3


def test_the_websocket_takes_the_seat_from_the_cookie_of_this_site_only(make_client):
    client = make_client()
    sign_up(client, "Galahad")
    game = create(client, [human(), bot("random")], seed=5)
    cookie = {"cookie": f"{SESSION_COOKIE}={client.cookies[SESSION_COOKIE]}"}
    with client.websocket_connect(f"/api/games/{game['id']}/ws", headers=cookie) as socket:
        state = socket.receive_json()
        assert state["type"] == "state" and state["game"]["you"] == 0 and state["game"]["table"]["hand"]
        options = {"type": "options", "steps": []}
        socket.send_json(options)
        assert socket.receive_json()["type"] == "options"
        socket.send_json({"type": "auth", "token": game["seats"][0]["token"]})  # a token may still be sent
        assert socket.receive_json()["game"]["you"] == 0
    foreign = {**cookie, "origin": "https://elsewhere.example"}
    with client.websocket_connect(f"/api/games/{game['id']}/ws", headers=foreign) as socket:
        assert socket.receive_json()["game"]["you"] is None
        socket.send_json({"type": "options", "steps": []})
        assert socket.receive_json()["error"] == "no_token"
    same_site = {**cookie, "origin": "https://testserver"}
    with client.websocket_connect(f"/api/games/{game['id']}/ws", headers=same_site) as socket:
        assert socket.receive_json()["game"]["you"] == 0


def test_a_guest_with_a_seat_token_plays_as_before(make_client):
    guest = make_client()
    game = create(guest, [human("Guest"), human()], seed=8)
    with guest.app.state.service.sessions() as session:
        assert set(session.scalars(select(SeatRow.user_id).where(SeatRow.game_id == game["id"]))) == {None}
    assert guest.get(f"/api/games/{game['id']}", headers=auth(game["seats"][0]["token"])).json()["you"] == 0
    play_random(guest, game, Random(1), moves=3)
    # someone signed in who holds no seat is a spectator, and cannot play without a token
    other = make_client()
    sign_up(other, "Bedivere")
    assert other.get(f"/api/games/{game['id']}").json()["you"] is None
    refused = other.post(f"/api/games/{game['id']}/moves", json={"move": "pass", "move_number": 3})
    assert refused.status_code == 403 and refused.json()["error"] == "not_seated"
    assert other.get("/api/account/games").json()["games"] == []
    # a signed-in player's token still works for the seat it belongs to, cookie or not
    assert other.get(f"/api/games/{game['id']}", headers=auth(game["seats"][1]["token"])).json()["you"] == 1


def test_an_account_holding_several_seats_acts_for_the_one_to_move(make_client):
    client = make_client()
    sign_up(client, "Pellinore")
    game = create(client, [human(), {"kind": "human", "public": True}], seed=31, claim=False)
    assert client.post(f"/api/games/{game['id']}/join", json={}).json()["seat"] == 1
    live = client.app.state.service.get(game["id"])
    assert live.owners == [live.owners[0], live.owners[0]] and live.owners[0] is not None
    rng = Random(5)
    for _ in range(4):
        to_move = client.app.state.service.get(game["id"]).snapshot.state.player
        assert client.get(f"/api/games/{game['id']}").json()["you"] == to_move
        play_random(client, game, rng, moves=1, cookie_seat=to_move)
    assert len(client.app.state.service.get(game["id"]).snapshot.moves) == 4


def test_a_game_left_counts_as_played_not_won_whatever_the_stand_in_did(make_client):
    from kingisdead.web.db import GameRow

    alice = make_client()
    sign_up(alice, "Alice")
    game = create(alice, [human(), bot("random")], seed=31)
    left = alice.post(f"/api/games/{game['id']}/leave", json={})
    assert left.status_code == 200, left.text
    with alice.app.state.service.sessions() as session, session.begin():  # the stand-in won it for seat 0
        session.execute(update(GameRow).where(GameRow.id == game["id"])
                        .values(status="finished", to_move=None, result={"winners": [0]}))
    [entry] = alice.get("/api/account/games").json()["games"]
    assert entry["status"] == "finished" and entry["won"] is False
    assert alice.get("/api/account").json()["by_players"]["2"] == {"played": 1, "won": 0}


def test_a_game_the_stand_in_played_mostly_counts_as_played_not_won(make_client):
    from kingisdead.web.db import GameRow, MoveRow

    alice = make_client()
    sign_up(alice, "Alice")
    game = create(alice, [human(), bot("random")], seed=32)
    with alice.app.state.service.sessions() as session, session.begin():  # seat 0: 1 move by Alice, 2 by the stand-in
        session.add_all([MoveRow(game_id=game["id"], number=n, seat=0, notation="pass", stand_in=n > 1)
                         for n in (1, 2, 3)])
        session.execute(update(GameRow).where(GameRow.id == game["id"])
                        .values(status="finished", to_move=None, result={"winners": [0]}))
    [entry] = alice.get("/api/account/games").json()["games"]
    assert entry["status"] == "finished" and entry["won"] is False
    assert alice.get("/api/account").json()["by_players"]["2"] == {"played": 1, "won": 0}


def test_my_running_games_are_ordered_by_time_left_and_carry_their_deadline(make_client):
    from kingisdead.web.db import GameRow

    alice, bob = make_client(), make_client()
    sign_up(alice, "Alice")
    sign_up(bob, "Bob")
    day = 86400

    def versus_bob(seed: int, first_player: int) -> str:
        game = create(alice, [human(), {"kind": "human", "public": True}], seed=seed, claim=False,
                      first_player=first_player, time_limit=day)
        assert bob.post(f"/api/games/{game['id']}/join", json={}).status_code == 200
        return game["id"]

    # each group made in the wrong order for "most recently changed first", so that only the clocks order it
    finished = create(alice, [human(), bot("random")], seed=40)["id"]
    mine_soon, mine_late = versus_bob(42, 0), versus_bob(43, 0)
    mine_unlimited = create(alice, [human(), bot("random")], seed=41)["id"]  # no clock: after the clocks
    theirs_late, theirs_soon = versus_bob(45, 1), versus_bob(46, 1)
    theirs_unlimited = create(alice, [human(), {"kind": "human", "public": True}], seed=44, claim=False,
                              first_player=1)["id"]
    now = datetime.now(UTC)
    deadlines = {mine_late: now + timedelta(hours=20), mine_soon: now + timedelta(minutes=30),
                 theirs_soon: now + timedelta(hours=2), theirs_late: now + timedelta(hours=23)}
    with alice.app.state.service.sessions.begin() as session:
        for game_id, deadline in deadlines.items():
            session.execute(update(GameRow).where(GameRow.id == game_id).values(deadline=deadline))
        session.execute(update(GameRow).where(GameRow.id == finished)
                        .values(status="finished", to_move=None, result={"winners": [1]}, deadline=None))
    games = alice.get("/api/account/games").json()["games"]
    assert [g["id"] for g in games] == [mine_soon, mine_late, mine_unlimited,
                                       theirs_soon, theirs_late, theirs_unlimited, finished]
    assert [g["your_turn"] for g in games] == [True, True, True, False, False, False, False]
    for entry in games:
        expected = deadlines.get(entry["id"])
        if expected is None:
            assert entry["deadline"] is None
        else:
            assert datetime.fromisoformat(entry["deadline"]) == expected  # aware, UTC, to the microsecond
    assert games[0]["time_limit"] == day and games[2]["time_limit"] is None


class Clock:
    """The time accounts measure sessions by, moved by the test."""

    def __init__(self) -> None:
        self.now = datetime(2026, 1, 1, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


def test_a_session_ends_when_idle_is_renewed_by_use_and_ends_at_its_cap(make_client, monkeypatch):
    clock = Clock()
    monkeypatch.setattr(accounts, "_now", clock)
    idle, cap = timedelta(days=SESSION_IDLE_DAYS), timedelta(days=SESSION_MAX_DAYS)
    client = make_client()
    sign_up(client, "Bedivere")
    clock.now += idle - timedelta(minutes=1)
    assert client.get("/api/account").status_code == 200  # used just in time: renewed for another idle spell
    clock.now += idle - timedelta(minutes=1)
    assert client.get("/api/account").status_code == 200
    while clock.now + idle < datetime(2026, 1, 1, tzinfo=UTC) + cap:  # used every few days: it goes on
        clock.now += timedelta(days=3)
        assert client.get("/api/account").status_code == 200
    clock.now = datetime(2026, 1, 1, tzinfo=UTC) + cap  # however much it is used: at the cap it ends
    assert client.get("/api/account").status_code == 401
    idle_client = make_client()
    sign_up(idle_client, "Tristan")
    clock.now += idle + timedelta(seconds=1)  # unused a whole idle spell: it ends
    assert idle_client.get("/api/account").json()["error"] == "sign_in_required"


def test_a_session_is_not_written_on_every_request(make_client, monkeypatch):
    clock = Clock()
    monkeypatch.setattr(accounts, "_now", clock)
    client = make_client()
    sign_up(client, "Dagonet")

    def expiry() -> datetime:
        with client.app.state.service.sessions() as session:
            return session.scalar(select(UserSessionRow.expires_at))

    first = expiry()
    clock.now += timedelta(minutes=5)
    assert client.get("/api/account").status_code == 200 and expiry() == first
    clock.now += timedelta(hours=2)
    assert client.get("/api/account").status_code == 200 and expiry() > first


def test_a_password_change_needs_the_current_one_and_signs_out_the_other_browsers(make_client):
    client = make_client()
    sign_up(client, "Galahad")
    other = make_client()
    assert other.post("/api/account/sign-in", json={"name": "Galahad", "password": PASSWORD}).status_code == 200
    wrong = client.post("/api/account/password", json={"current": "not the password", "new": "a new secret 1"})
    assert wrong.status_code == 401 and wrong.json()["error"] == "wrong_credentials"
    short = client.post("/api/account/password", json={"current": PASSWORD, "new": "short"})
    assert short.status_code == 422 and short.json()["error"] == "invalid_password"
    changed = client.post("/api/account/password", json={"current": PASSWORD, "new": "a new secret 1"})
    assert changed.status_code == 200 and changed.json() == {"sessions_ended": 1}
    assert client.get("/api/account").status_code == 200  # this browser stays signed in
    assert other.get("/api/account").status_code == 401
    assert other.post("/api/account/sign-in", json={"name": "Galahad", "password": PASSWORD}).status_code == 401
    assert other.post("/api/account/sign-in", json={"name": "Galahad", "password": "a new secret 1"}).status_code == 200
    # wrong current passwords count as wrong sign-ins (limit 3 a minute here)
    for _ in range(2):
        client.post("/api/account/password", json={"current": "wrong again!", "new": "a new secret 2"})
    assert client.post("/api/account/password", json={"current": "wrong again!", "new": "a new secret 2"}
                       ).status_code == 429


def test_sign_out_everywhere_ends_every_session_of_the_account(make_client):
    client = make_client()
    sign_up(client, "Kay")
    others = [make_client(), make_client()]
    for other in others:
        assert other.post("/api/account/sign-in", json={"name": "Kay", "password": PASSWORD}).status_code == 200
    bystander = make_client()
    sign_up(bystander, "Lamorak")
    ended = client.post("/api/account/sign-out-everywhere", json={})
    assert ended.status_code == 200 and ended.json() == {"sessions_ended": 3}
    assert "Max-Age=0" in ended.headers["set-cookie"]
    for browser in (client, *others):
        assert browser.get("/api/account").status_code == 401
    assert bystander.get("/api/account").status_code == 200  # another account's session is untouched
    assert client.post("/api/account/sign-out-everywhere", json={}).status_code == 401


def test_deleting_an_account_keeps_its_games_under_an_anonymous_name(make_client):
    client = make_client()
    me = sign_up(client, "Mordred")
    other = make_client()
    sign_up(other, "Gawain")
    finished = create(client, [human(), human()], seed=5, claim=False)
    claimed = other.post(f"/api/games/{finished['id']}/claim", headers=auth(finished["seats"][1]["invite_token"]),
                         json={})
    finished["seats"][1]["token"] = claimed.json()["token"]
    play_random(client, finished, Random(1))
    running = create(client, [human(), bot()], seed=6)
    with client.app.state.service.sessions.begin() as session:  # what the account has elsewhere
        session.add(NotificationSettingsRow(user_id=me["id"], email="m@example.org", unsubscribe_key="k" * 40))
        session.add(PushSubscriptionRow(user_id=me["id"], endpoint="https://push.example.org/1", p256dh="p", auth="a"))
        session.add(OutboxRow(key="digest:m", channel="mail", kind="digest", user_id=me["id"], content={}))
        session.add(RatingRow(user_id=me["id"], players=2, mu=30.0, sigma=2.0, games=12))
    second = make_client()
    assert second.post("/api/account/sign-in", json={"name": "Mordred", "password": PASSWORD}).status_code == 200
    wrong = client.request("DELETE", "/api/account", json={"password": "not the password"})
    assert wrong.status_code == 401 and wrong.json()["error"] == "wrong_credentials"
    assert client.get("/api/account").status_code == 200  # nothing happened
    deleted = client.request("DELETE", "/api/account", json={"password": PASSWORD})
    assert deleted.status_code == 200, deleted.text
    name = deleted.json()["name"]
    assert name.startswith("anonymous-") and deleted.json()["games_left"] == 1
    assert "Max-Age=0" in deleted.headers["set-cookie"]
    for browser in (client, second):
        assert browser.get("/api/account").status_code == 401
    assert client.post("/api/account/sign-in", json={"name": "Mordred", "password": PASSWORD}).status_code == 401
    # the games stay, under the anonymous name; the running one's seat is left to the stand-in
    for game in (finished, running):
        seats = other.get(f"/api/games/{game['id']}").json()["seats"]
        assert seats[0]["name"] == name and "Mordred" not in str(seats)
    assert other.get(f"/api/games/{running['id']}").json()["seats"][0]["left"] is True
    with client.app.state.service.sessions() as session:
        for table in (UserSessionRow, NotificationSettingsRow, PushSubscriptionRow, RatingRow):
            assert session.scalar(select(table).where(table.user_id == me["id"])) is None, table
        [message] = session.scalars(select(OutboxRow).where(OutboxRow.user_id == me["id"]))
        assert (message.status, message.content) == ("dropped", {})  # never sent; text and address gone
        assert session.get(UserRow, me["id"]).password_hash is None
    board = other.get("/api/leaderboard", params={"players": 2}).json()["ratings"]
    assert name not in {e["name"] for e in board} and "Mordred" not in {e["name"] for e in board}
    assert sign_up(make_client(), "Mordred")["id"] != me["id"]  # the name is free again
