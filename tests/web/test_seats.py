"""Seats belong to the people they were meant for; a running game gives away no seed (fair play)."""

from __future__ import annotations

import json
import threading
from typing import Any

import httpx
from webtools import auth, bot, create, human, wait_for


def public_human(name: str | None = None) -> dict[str, Any]:
    return {**human(name), "public": True}


def test_an_invited_seat_is_private_until_its_creator_opens_it(client):
    game = create(client, [human(), human(), public_human()], seed=1, claim=False)
    game_id = game["id"]
    lobby = client.get("/api/games", params={"status": "open"}).json()["games"]
    assert [g["open_seats"] for g in lobby] == [[2]]  # the invited seat 1 is not offered
    assert client.post(f"/api/games/{game_id}/join").json()["seat"] == 2
    refused = client.post(f"/api/games/{game_id}/join")
    assert refused.status_code == 409 and refused.json()["error"] == "no_free_seat"
    # only the creator's token opens a seat
    assert client.get(f"/api/games/{game_id}").json()["seats"][1]["public"] is False
    stranger = client.post(f"/api/games/{game_id}/seats/1/open")
    assert stranger.status_code == 401
    creator = auth(game["seats"][0]["token"])
    assert client.post(f"/api/games/{game_id}/seats/0/open", headers=creator).json()["error"] == "claimed"
    assert client.post(f"/api/games/{game_id}/seats/7/open", headers=creator).json()["error"] == "no_such_seat"
    opened = client.post(f"/api/games/{game_id}/seats/1/open", headers=creator)
    assert opened.status_code == 200 and opened.json()["seats"][1]["public"] is True
    assert client.get("/api/games", params={"status": "open"}).json()["games"][0]["open_seats"] == [1]
    taken = client.post(f"/api/games/{game_id}/join").json()
    assert taken["seat"] == 1
    assert client.get(f"/api/games/{game_id}", headers=auth(taken["token"])).json()["you"] == 1
    used = client.post(f"/api/games/{game_id}/claim", headers=auth(game["seats"][1]["invite_token"]))
    assert used.status_code == 403 and used.json()["error"] == "invite_used"


def test_a_seat_that_is_not_the_creators_cannot_open_seats(client):
    game = create(client, [human(), human(), human()], seed=1)
    response = client.post(f"/api/games/{game['id']}/seats/2/open", headers=auth(game["seats"][1]["token"]))
    assert response.status_code == 403 and response.json()["error"] == "not_creator"


def test_an_invite_opens_its_seat_once_and_for_one_holder_only(client):
    game = create(client, [human(), human()], seed=2, claim=False)
    game_id, invite = game["id"], game["seats"][1]["invite_token"]
    unclaimed = client.get(f"/api/games/{game_id}", headers=auth(invite))
    assert unclaimed.status_code == 403 and unclaimed.json()["error"] == "invite_unclaimed"
    claimed = client.post(f"/api/games/{game_id}/claim", headers=auth(invite))
    assert claimed.status_code == 200 and claimed.json()["seat"] == 1
    token = claimed.json()["token"]
    assert token != invite and not token.startswith("invite-")
    view = client.get(f"/api/games/{game_id}", headers=auth(token)).json()
    assert view["you"] == 1 and view["table"]["hand"] is not None
    for again in (client.post(f"/api/games/{game_id}/claim", headers=auth(invite)),
                  client.get(f"/api/games/{game_id}", headers=auth(invite))):
        assert again.status_code == 403 and again.json()["error"] == "invite_used"
        assert "already used" in again.json()["detail"]
    assert client.post(f"/api/games/{game_id}/claim", headers=auth(token)).json()["error"] == "claimed"
    assert client.post(f"/api/games/{game_id}/claim").status_code == 401


def race(url: str, calls: list[tuple[str, dict[str, str]]]) -> list[httpx.Response]:
    """Send the calls at once from threads (each its own connection); the responses in order."""
    barrier = threading.Barrier(len(calls))
    responses: list[Any] = [None] * len(calls)

    def attempt(i: int, path: str, headers: dict[str, str]) -> None:
        with httpx.Client(base_url=url, timeout=30) as http:
            barrier.wait()
            responses[i] = http.post(path, headers=headers)

    threads = [threading.Thread(target=attempt, args=(i, *call)) for i, call in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return responses


def test_simultaneous_joins_and_claims_give_each_seat_to_one_person(server_factory):
    server = server_factory()
    with httpx.Client(base_url=server.url, timeout=30) as http:
        open_game = create(http, [human(), public_human(), bot()], seed=3, claim=False)
        invited = create(http, [human(), human()], seed=4, claim=False)
    joins = race(server.url, [(f"/api/games/{open_game['id']}/join", {})] * 6)
    assert sorted(r.status_code for r in joins) == [200] + [409] * 5
    winner = next(r.json() for r in joins if r.status_code == 200)
    invite = auth(invited["seats"][1]["invite_token"])
    claims = race(server.url, [(f"/api/games/{invited['id']}/claim", invite)] * 6)
    assert sorted(r.status_code for r in claims) == [200] + [403] * 5
    holder = next(r.json() for r in claims if r.status_code == 200)
    with httpx.Client(base_url=server.url, timeout=30) as http:
        assert http.get(f"/api/games/{open_game['id']}", headers=auth(winner["token"])).json()["you"] == 1
        assert http.get(f"/api/games/{invited['id']}", headers=auth(holder["token"])).json()["you"] == 1


def carries_seed(data: Any) -> bool:
    if isinstance(data, dict):
        return any(key in ("seed", "bot_seed") or carries_seed(value) for key, value in data.items())
    if isinstance(data, list):
        return any(carries_seed(value) for value in data)
    return False


def test_a_running_game_shows_no_seed_anywhere(client):
    game = create(client, [human(), bot("random")], seed=77)
    game_id, token = game["id"], game["seats"][0]["token"]
    secret = client.app.state.service.get(game_id).bot_seed
    seen: list[Any] = [game]
    with client.websocket_connect(f"/api/games/{game_id}/ws") as socket:
        seen.append(socket.receive_json())
        socket.send_json({"type": "auth", "token": token})
        seen.append(socket.receive_json())
        socket.send_json({"type": "options", "steps": []})
        seen.append(socket.receive_json())
        socket.send_json({"type": "move", "move": "pass", "move_number": 0})
        seen.append(socket.receive_json())
        seen.append(socket.receive_json())  # the bot's reply
    for path in (f"/api/games/{game_id}", "/api/games", "/api/games?status=running", f"/api/games/{game_id}/replay/1"):
        seen.append(client.get(path, headers=auth(token)).json())
    record = client.get(f"/api/games/{game_id}/record").json()
    assert record["seed"] is None and record["moves"][0] == "pass"
    for data in seen:
        assert not carries_seed(data), data
        assert str(secret) not in json.dumps(data)


def test_bots_draw_from_a_secret_not_from_the_public_seed(client):
    games = [create(client, [human(), bot("random")], seed=5) for _ in range(2)]
    service = client.app.state.service
    secrets = [service.get(g["id"]).bot_seed for g in games]
    assert secrets[0] != secrets[1]  # one public seed, two unrelated bot seeds
    # the same human moves in both games: the random bot's replies come from its secret seed,
    # so at least one of its first replies differs (the bot has many moves to choose from)
    replies: list[list[str]] = []
    for g in games:
        for number in (0, 2, 4):
            wait_for(lambda g=g, n=number: client.get(f"/api/games/{g['id']}").json()["move_number"] == n, what="bot")
            client.post(f"/api/games/{g['id']}/moves", json={"move": "pass", "move_number": number},
                        headers=auth(g["seats"][0]["token"]))
        view = wait_for(lambda g=g: (v := client.get(f"/api/games/{g['id']}").json())["move_number"] >= 6 and v,
                        what="bot")
        replies.append([e["notation"] for e in view["log"] if e["seat"] == 1])
    assert replies[0] != replies[1]


def test_the_seed_is_public_once_the_game_is_over(client):
    game = create(client, [bot("random"), bot("random")], seed=88)
    wait_for(lambda: client.get(f"/api/games/{game['id']}").json()["status"] == "finished", what="the bots")
    assert client.get(f"/api/games/{game['id']}/record").json()["seed"] == 88
