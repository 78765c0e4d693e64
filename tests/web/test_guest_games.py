"""A guest's games become their account's when they sign up or in (POST /api/account/guest-games): the seat
tokens the browser keeps are checked, each seat no account holds is bound to the account, nothing is rated, and
nothing else changes (issue 30, point 8).

The session cookie is Secure, so the test clients speak https (an http client would not send it back).
"""

from __future__ import annotations

import secrets
from random import Random
from typing import Any

import pytest
from sqlalchemy import select
from test_accounts import PASSWORD, play_random, sign_up
from webtools import auth, bot, create, human

from kingisdead.web.db import GameRow, RatingChangeRow, RatingRow, SeatRow
from kingisdead.web.security import RateLimits


@pytest.fixture
def make_client(db_url: str, browsers: Any) -> Any:
    """Clients of one app (one database): each its own browser, with its own cookies; 5 wrong tokens a minute."""
    from kingisdead.web import create_app

    app = create_app(db_url, rate_limits=RateLimits(bad_token="5/minute"))
    return lambda: browsers(app)


def bring(client: Any, *seats: tuple[str, str]) -> Any:
    """POST the (game id, token) pairs a browser keeps to /api/account/guest-games."""
    return client.post("/api/account/guest-games",
                       json={"seats": [{"game_id": game_id, "token": token} for game_id, token in seats]})


def holders(client: Any, game_id: str) -> list[int | None]:
    """Each seat's account (``seats.user_id``), by seat."""
    with client.app.state.service.sessions() as session:
        return list(session.scalars(select(SeatRow.user_id).where(SeatRow.game_id == game_id)
                                    .order_by(SeatRow.seat)))


def test_a_guests_running_and_finished_games_become_the_new_accounts_everywhere(make_client):
    guest, friend = make_client(), make_client()
    service = guest.app.state.service
    finished = create(guest, [human("Vivien"), human()], seed=3, claim=False)
    joined = friend.post(f"/api/games/{finished['id']}/claim", headers=auth(finished["seats"][1]["invite_token"]))
    finished["seats"][1]["token"] = joined.json()["token"]
    play_random(guest, finished, Random(2))  # to the end, each seat with its token
    running = create(guest, [human("Vivien"), human()], seed=4, claim=False)
    joined = friend.post(f"/api/games/{running['id']}/claim", headers=auth(running["seats"][1]["invite_token"]))
    assert joined.status_code == 200
    running["seats"][1]["token"] = joined.json()["token"]
    play_random(guest, running, Random(5), moves=2)

    me = sign_up(guest, "Vivien")
    assert guest.get("/api/account/games").json()["games"] == []  # before: "Finished games: none yet"
    answer = bring(guest, (finished["id"], finished["seats"][0]["token"]), (running["id"], running["seats"][0]["token"]))
    assert answer.status_code == 200, answer.text
    assert answer.json() == {"claimed": 2, "seats": [
        {"game_id": finished["id"], "seat": 0, "result": "claimed"},
        {"game_id": running["id"], "seat": 0, "result": "claimed"}]}
    assert holders(guest, finished["id"])[0] == holders(guest, running["id"])[0] == me["id"]
    assert holders(guest, running["id"])[1] is None  # the friend's seat stays the friend's
    mine = guest.get("/api/account/games").json()["games"]
    assert {g["id"]: g["status"] for g in mine} == {finished["id"]: "finished", running["id"]: "running"}
    assert all(g["your_seats"] == [0] for g in mine)
    assert [s["name"] for s in mine[0]["seats"]][0] == "Vivien"  # the seat keeps the name it was played under
    stats = guest.get("/api/account").json()
    assert stats["by_players"]["2"]["played"] == 1 and stats["running"] == 1 and stats["ratings"] == []

    # another browser signs in: the games are listed, and the running seat plays by the cookie alone
    other = make_client()
    assert other.post("/api/account/sign-in", json={"name": "vivien", "password": PASSWORD}).status_code == 200
    assert {g["id"] for g in other.get("/api/account/games").json()["games"]} == {finished["id"], running["id"]}
    assert other.get(f"/api/games/{running['id']}").json()["you"] == 0
    play_random(other, running, Random(6), cookie_seat=0)  # to its end, Vivien's moves by the cookie

    # nothing became rated, and no rating moved
    with service.sessions() as session:
        assert not any(session.scalars(select(GameRow.rated).where(GameRow.id.in_([finished["id"], running["id"]]))))
        assert session.scalar(select(RatingChangeRow.id)) is None and session.scalar(select(RatingRow.id)) is None


def test_sending_the_tokens_again_changes_nothing(make_client):
    client = make_client()
    game = create(client, [human(), bot()], seed=7)
    sign_up(client, "Lamorak")
    first = bring(client, (game["id"], game["seats"][0]["token"]))
    again = bring(client, (game["id"], game["seats"][0]["token"]), (game["id"], game["seats"][0]["token"]))
    assert first.json()["claimed"] == 1
    assert again.status_code == 200 and again.json() == {"claimed": 0, "seats": [
        {"game_id": game["id"], "seat": 0, "result": "yours"}] * 2}
    assert len(client.get("/api/account/games").json()["games"]) == 1


def test_forged_and_foreign_tokens_are_refused_and_change_nothing(make_client):
    client = make_client()
    mine = create(client, [human(), bot()], seed=8)
    invited = create(client, [human(), human()], seed=9, claim=False)  # seat 1: an invite not yet exchanged
    sign_up(client, "Dinadan")
    answer = bring(client,
                   (mine["id"], secrets.token_urlsafe(24)),  # made up
                   (invited["id"], mine["seats"][0]["token"]),  # another game's token
                   (invited["id"], invited["seats"][1]["invite_token"]),  # an invite: exchanged first
                   ("no-such-game", mine["seats"][0]["token"]))
    assert answer.status_code == 200, answer.text
    assert answer.json() == {"claimed": 0, "seats": [
        {"game_id": mine["id"], "seat": None, "result": "bad_token"},
        {"game_id": invited["id"], "seat": None, "result": "bad_token"},
        {"game_id": invited["id"], "seat": None, "result": "bad_token"},
        {"game_id": "no-such-game", "seat": None, "result": "unknown_game"}]}
    assert holders(client, mine["id"]) == [None, None] and holders(client, invited["id"]) == [None, None]
    assert client.get("/api/account/games").json()["games"] == []
    # the invite still works for the friend it was meant for
    assert client.post(f"/api/games/{invited['id']}/claim",
                       headers=auth(invited["seats"][1]["invite_token"]), json={}).status_code == 200


def test_wrong_tokens_count_towards_the_limit_and_then_no_seat_changes(make_client):
    client = make_client()
    game = create(client, [human(), bot()], seed=10)
    sign_up(client, "Segwarides")
    made_up = [(game["id"], secrets.token_urlsafe(24)) for _ in range(4)]
    assert bring(client, *made_up).json()["claimed"] == 0  # 4 of the 5 a minute
    refused = bring(client, (game["id"], game["seats"][0]["token"]), *made_up[:2])
    assert refused.status_code == 429 and refused.json()["error"] == "rate_limited"
    assert holders(client, game["id"]) == [None, None]  # the right token in that request changed nothing either
    assert bring(client, (game["id"], game["seats"][0]["token"])).status_code == 429  # at the limit: 429 for all


def test_a_seat_another_account_holds_is_not_taken(make_client):
    alice, bob = make_client(), make_client()
    sign_up(alice, "Alice")
    hers = create(alice, [human(), bot()], seed=11)  # signed in: her seat is her account's
    shared = create(bob, [human(), human()], seed=12)  # a guest's game; Alice signs up and brings it first
    sign_up(bob, "Bob")
    assert bring(alice, (shared["id"], shared["seats"][1]["token"])).json()["claimed"] == 1
    answer = bring(bob, (hers["id"], hers["seats"][0]["token"]), (shared["id"], shared["seats"][1]["token"]),
                   (shared["id"], shared["seats"][0]["token"]))
    assert answer.json() == {"claimed": 1, "seats": [
        {"game_id": hers["id"], "seat": 0, "result": "other_account"},
        {"game_id": shared["id"], "seat": 1, "result": "other_account"},
        {"game_id": shared["id"], "seat": 0, "result": "claimed"}]}
    alice_id, bob_id = (c.get("/api/account").json()["id"] for c in (alice, bob))
    assert holders(alice, hers["id"]) == [alice_id, None]
    assert holders(alice, shared["id"]) == [bob_id, alice_id]


def test_a_hot_seat_game_becomes_the_accounts_by_one_seat(make_client):
    client = make_client()
    game = create(client, [human(), human(), human()], seed=13, hotseat=True)
    sign_up(client, "Tristram")
    answer = bring(client, *((game["id"], seat["token"]) for seat in game["seats"]))
    assert [s["result"] for s in answer.json()["seats"]] == ["claimed", "seated", "seated"]
    assert holders(client, game["id"])[1:] == [None, None]
    assert client.get("/api/account/games").json()["games"][0]["your_seats"] == [0]


def test_only_a_signed_in_json_request_brings_games(make_client):
    client = make_client()
    game = create(client, [human(), bot()], seed=14)
    assert bring(client, (game["id"], game["seats"][0]["token"])).status_code == 401
    sign_up(client, "Lucan")
    form = client.post("/api/account/guest-games", content=f"game_id={game['id']}",
                       headers={"content-type": "application/x-www-form-urlencoded"})
    assert form.status_code == 403 and form.json()["error"] == "not_json"
    too_many = bring(client, *[(game["id"], game["seats"][0]["token"])] * 101)
    assert too_many.status_code == 422
    assert holders(client, game["id"]) == [None, None]
