"""Challenges: made, accepted (the game made with its settings and the accounts seated), declined, withdrawn,
expired; several people in a 3- or 4-player game (the last accept makes the game, once, even when two come at
once; an accept killed after making the game leaves that one game); blocks refused neutrally, and a block made
later ending the challenge; the limits; the e-mail and push messages queued once per person (SQLite and
PostgreSQL); the migration that gave each stored challenge its seat."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from sqlalchemy import func, select
from webtools import on_both_databases

from kingisdead.web import challenges
from kingisdead.web.db import ChallengeRow, ChallengeSeatRow, GameRow, NotificationSettingsRow, OutboxRow
from kingisdead.web.db import PushSubscriptionRow, SeatRow, UserRow, upgrade
from kingisdead.web.mail import MailSettings
from kingisdead.web.notify import NotifySettings
from kingisdead.web.push import PushSettings, generate_keys
from kingisdead.web.security import RateLimits

PASSWORD = "correct horse battery"
JSON = {"content-type": "application/json"}


@pytest.fixture
def site(db_url: str, browsers: Any, tmp_path: Any) -> Any:
    """``site.person(name)``: a browser signed up as ``name`` on one app that sends e-mail (to no server: nothing
    is sent here, only queued) and push; ``site.app``."""
    from kingisdead.web import create_app

    generate_keys(tmp_path / "vapid.pem")
    notify = NotifySettings(mail=MailSettings(host="127.0.0.1", port=9, timeout=1),
                            push=PushSettings(key_file=tmp_path / "vapid.pem", subject="mailto:ops@kid.example"),
                            every=3600)
    app = create_app(db_url, public_url="https://kid.example", notify=notify,
                     rate_limits=RateLimits(challenge="6/minute"))

    class Site:
        @staticmethod
        def person(name: str) -> Any:
            client = browsers(app)
            answer = client.post("/api/account/sign-up", json={"name": name, "password": PASSWORD})
            assert answer.status_code == 201, answer.text
            return client

    Site.app = app  # type: ignore[attr-defined]
    return Site


def refused(answer: Any, status: int, error: str) -> None:
    assert answer.status_code == status, answer.text
    body = answer.json()
    assert body["error"] == error and body["detail"], body


def challenge(client: Any, name: str, **settings: Any) -> Any:
    return client.post("/api/challenges", json={"name": name, "settings": settings})


def challenge_seats(client: Any, seats: list[dict[str, str]], **settings: Any) -> Any:
    return client.post("/api/challenges", json={"seats": seats, "settings": settings})


def user_id(app: Any, name: str) -> int:
    with app.state.service.sessions() as session:
        return int(session.scalar(select(UserRow.id).where(UserRow.name == name)))


def rows(app: Any, model: Any) -> list[Any]:
    with app.state.service.sessions() as session:
        return list(session.scalars(select(model)))


@on_both_databases
def test_a_rated_challenge_accepted_makes_the_game_with_both_accounts_seated(site):
    alice, bob = site.person("Alice"), site.person("Bob")
    made = challenge(alice, "bob", edition="second", rated=True, time_limit=86400, first_player=1)
    assert made.status_code == 201, made.text
    sent = made.json()["outgoing"][0]
    assert (sent["from"], sent["to"], sent["status"], sent["game"]) == ("Alice", "Bob", "open", None)
    assert sent["settings"]["edition"] == "second" and sent["settings"]["rated"] is True
    incoming = bob.get("/api/challenges").json()["incoming"]
    assert [c["id"] for c in incoming] == [sent["id"]] and alice.get("/api/challenges").json()["incoming"] == []
    refused(alice.post(f"/api/challenges/{sent['id']}/accept", headers=JSON), 404, "unknown_challenge")  # not hers
    accepted = bob.post(f"/api/challenges/{sent['id']}/accept", headers=JSON)
    assert accepted.status_code == 200, accepted.text
    game_id = accepted.json()["game"]
    assert accepted.json()["url"] == f"https://kid.example/game/{game_id}" and accepted.json()["seat"] == 1
    with site.app.state.service.sessions() as session:
        game = session.get(GameRow, game_id)
        assert (game.players, game.edition, game.rated, game.time_limit, game.first_player) == (2, "second", True,
                                                                                                86400, 1)
        seats = session.execute(select(SeatRow.seat, SeatRow.name, SeatRow.claimed, UserRow.name)
                                .join(UserRow, UserRow.id == SeatRow.user_id)
                                .where(SeatRow.game_id == game_id).order_by(SeatRow.seat)).all()
    assert [tuple(s) for s in seats] == [(0, "Alice", True, "Alice"), (1, "Bob", True, "Bob")]
    view = alice.get(f"/api/games/{game_id}").json()  # her account holds seat 0: she sees her hand
    assert view["you"] == 0 and view["rated"] is True
    shown = alice.get("/api/challenges").json()["outgoing"][0]
    assert (shown["status"], shown["game"]) == ("accepted", game_id)
    assert bob.get("/api/challenges").json()["incoming"] == []
    refused(bob.post(f"/api/challenges/{sent['id']}/accept", headers=JSON), 409, "challenge_answered")


def test_decline_withdraw_expiry_and_the_refusals(site, monkeypatch):
    alice, bob, carol = site.person("Alice"), site.person("Bob"), site.person("Carol")
    first = challenge(alice, "Bob").json()["outgoing"][0]["id"]
    refused(challenge(alice, "BOB"), 409, "already_challenged")
    declined = bob.post(f"/api/challenges/{first}/decline", headers=JSON)
    assert declined.status_code == 200 and declined.json()["incoming"] == []
    assert alice.get("/api/challenges").json()["outgoing"][0]["status"] == "declined"
    refused(alice.delete(f"/api/challenges/{first}", headers=JSON), 409, "challenge_answered")
    second = challenge(alice, "Bob").json()["outgoing"][0]["id"]
    refused(bob.delete(f"/api/challenges/{second}", headers=JSON), 404, "unknown_challenge")  # only hers to withdraw
    withdrawn = alice.delete(f"/api/challenges/{second}", headers=JSON)
    assert withdrawn.status_code == 200 and withdrawn.json()["outgoing"][0]["status"] == "withdrawn"
    assert bob.get("/api/challenges").json()["incoming"] == []
    third = challenge(alice, "Carol").json()["outgoing"][0]["id"]
    later = datetime.now(UTC) + challenges.EXPIRY + timedelta(minutes=1)
    monkeypatch.setattr(challenges, "_now", lambda: later)
    assert carol.get("/api/challenges").json()["incoming"] == []
    assert alice.get("/api/challenges").json()["outgoing"][0]["status"] == "expired"
    refused(carol.post(f"/api/challenges/{third}/accept", headers=JSON), 410, "challenge_expired")
    monkeypatch.undo()
    refused(challenge(alice, "Nobody"), 404, "unknown_player")
    refused(challenge(alice, "alice"), 422, "challenge_self")
    refused(challenge(alice, "x"), 422, "invalid_name")
    refused(carol.post("/api/challenges/999/decline", headers=JSON), 404, "unknown_challenge")
    refused(carol.post(f"/api/challenges/{2**40}/decline", headers=JSON), 404, "unknown_challenge")
    refused(carol.post("/api/challenges/abc/decline", headers=JSON), 422, "invalid_request")
    refused(challenge(alice, "Bob", players=3), 422, "invalid_request")  # seat 2 needs a bot
    refused(challenge(alice, "Bob", bots=["random"]), 422, "invalid_request")  # no seat 2 in a 2-player game
    refused(challenge(alice, "Bob", first_player=2), 422, "invalid_request")
    refused(challenge(alice, "Bob", players=3, bots=["nobody"]), 422, "invalid_request")
    refused(challenge(alice, "Bob", rated="yes"), 422, "invalid_request")
    refused(challenge(alice, "Bob", time_limit=5), 422, "invalid_request")
    refused(alice.post("/api/challenges", json={"settings": {}}), 422, "invalid_request")


def test_guests_cannot_challenge(site, browsers):
    site.person("Bob")
    guest = browsers(site.app)
    refused(guest.get("/api/challenges"), 401, "sign_in_required")
    refused(guest.post("/api/challenges", json={"name": "Bob"}), 401, "sign_in_required")


def test_a_block_either_way_is_refused_as_a_full_list_is(site, monkeypatch):
    alice, bob, carol = site.person("Alice"), site.person("Bob"), site.person("Carol")
    assert bob.post("/api/blocks", json={"name": "Alice"}).status_code == 200
    refused(challenge(alice, "Bob"), 403, "challenge_refused")  # Bob blocked her: she is not told so
    refused(challenge(bob, "Alice"), 403, "challenge_refused")
    monkeypatch.setattr(challenges, "INCOMING_LIMIT", 0)
    full = challenge(alice, "Carol")
    refused(full, 403, "challenge_refused")
    assert full.json()["detail"] == challenge(alice, "Bob").json()["detail"].replace("Bob", "Carol")  # the same words
    assert carol.get("/api/challenges").json()["incoming"] == []


def test_the_rate_limit_and_the_cap_on_open_challenges(site, monkeypatch):
    alice = site.person("Alice")
    for name in ("Bob", "Carol", "Dora"):
        site.person(name)
    monkeypatch.setattr(challenges, "OPEN_LIMIT", 2)
    assert challenge(alice, "Bob").status_code == 201 and challenge(alice, "Carol").status_code == 201
    refused(challenge(alice, "Dora"), 409, "too_many_challenges")
    monkeypatch.setattr(challenges, "OPEN_LIMIT", 20)
    for _ in range(3):  # 6 a minute counted so far: 2 made, 1 refused by the cap, these 3
        challenge(alice, "Dora")
    refused(challenge(alice, "Dora"), 429, "rate_limited")


def test_the_game_rules_apply_when_accepted_and_the_challenge_stays_open(site):
    alice, bob = site.person("Alice"), site.person("Bob")
    made = challenge(alice, "Bob", edition="second", mode="advanced", rated=True).json()["outgoing"][0]["id"]
    refused(bob.post(f"/api/challenges/{made}/accept", headers=JSON), 422, "not_rateable")
    assert [c["id"] for c in bob.get("/api/challenges").json()["incoming"]] == [made]
    assert bob.post(f"/api/challenges/{made}/decline", headers=JSON).status_code == 200


def test_the_challenged_person_is_told_once_by_mail_and_push(site):
    alice, bob = site.person("Alice"), site.person("Bob")
    site.person("Carol")
    with site.app.state.service.sessions.begin() as session:
        bob_id = session.scalar(select(UserRow.id).where(UserRow.name == "Bob"))
        session.add(NotificationSettingsRow(user_id=bob_id, email="bob@kid.example", unsubscribe_key="k" * 40,
                                            confirmed_at=datetime.now(UTC)))
        session.add(PushSubscriptionRow(user_id=bob_id, endpoint="https://push.example/sub/1", p256dh="p", auth="a"))
    made = challenge(alice, "Bob").json()["outgoing"][0]["id"]
    assert challenge(alice, "Carol").status_code == 201  # Carol turned nothing on: nothing queued
    queued = sorted((row.key, row.kind, row.user_id) for row in rows(site.app, OutboxRow))
    subscription = rows(site.app, PushSubscriptionRow)[0].id
    assert queued == [(f"challenge:mail:{made}:{bob_id}", "challenge", bob_id),
                      (f"challenge:push:{made}:{subscription}", "challenge", bob_id)]
    mail = next(row for row in rows(site.app, OutboxRow) if row.channel == "mail")
    assert "Alice" in mail.content["subject"] and "https://kid.example/" in mail.content["text"]
    notifier = site.app.state.notifier
    assert notifier.queue_due(datetime.now(UTC)) == 0  # a round queues nothing more
    assert notifier._unwanted(mail) is None
    assert bob.post(f"/api/challenges/{made}/decline", headers=JSON).status_code == 200
    assert notifier._unwanted(mail) == "the challenge was answered, withdrawn or expired"
    again = challenge(alice, "Bob").json()["outgoing"][0]["id"]
    with site.app.state.service.sessions.begin() as session:
        session.get(ChallengeRow, again).expires_at = datetime.now(UTC) - timedelta(seconds=1)
    mail = next(row for row in rows(site.app, OutboxRow) if row.key == f"challenge:mail:{again}:{bob_id}")
    assert notifier._unwanted(mail) == "the challenge was answered, withdrawn or expired"


@on_both_databases
def test_deleting_an_account_removes_its_challenges_both_ways(site):
    alice, bob = site.person("Alice"), site.person("Bob")
    assert challenge(alice, "Bob").status_code == 201 and challenge(bob, "Alice").status_code == 201
    assert bob.request("DELETE", "/api/account", json={"password": PASSWORD}).status_code == 200
    assert alice.get("/api/challenges").json() == {"incoming": [], "ended": [], "outgoing": [], "expiry_days": 3,
                                                   "open_limit": 20}
    assert rows(site.app, ChallengeRow) == []
    carol = site.person("Carol")  # one of several people challenged: the whole challenge goes
    site.person("Dora")
    assert challenge_seats(alice, [{"name": "Carol"}, {"name": "Dora"}], players=3).status_code == 201
    assert carol.request("DELETE", "/api/account", json={"password": PASSWORD}).status_code == 200
    assert alice.get("/api/challenges").json()["outgoing"] == []
    assert rows(site.app, ChallengeRow) == [] and rows(site.app, ChallengeSeatRow) == []


def test_a_four_player_challenge_seats_bots_after_the_two_people(site):
    alice, bob = site.person("Alice"), site.person("Bob")
    made = challenge(alice, "Bob", players=4, bots=["random", "greedy"], first_player=2)
    assert made.status_code == 201, made.text
    accepted = bob.post(f"/api/challenges/{made.json()['outgoing'][0]['id']}/accept", headers=JSON)
    assert accepted.status_code == 200, accepted.text
    view = bob.get(f"/api/games/{accepted.json()['game']}").json()
    assert view["you"] == 1 and view["players"] == 4
    assert [(s["kind"], s["name"]) for s in view["seats"]] == [("human", "Alice"), ("human", "Bob"),
                                                                ("bot", "Random bot"), ("bot", "Greedy bot")]


@on_both_databases
def test_an_accept_killed_before_its_game_was_made_counts_as_open_again(site, monkeypatch):
    alice, bob = site.person("Alice"), site.person("Bob")
    made = challenge(alice, "Bob").json()["outgoing"][0]["id"]
    with site.app.state.service.sessions.begin() as session:  # what a process killed after the claim leaves
        row = session.get(ChallengeRow, made)
        row.status, row.answered_at = "accepted", datetime.now(UTC)
    assert bob.get("/api/challenges").json()["incoming"] == []  # being accepted
    refused(bob.post(f"/api/challenges/{made}/accept", headers=JSON), 409, "challenge_answered")
    later = datetime.now(UTC) + challenges.STALE_ACCEPT + timedelta(seconds=1)
    monkeypatch.setattr(challenges, "_now", lambda: later)
    assert [c["status"] for c in bob.get("/api/challenges").json()["incoming"]] == ["open"]
    accepted = bob.post(f"/api/challenges/{made}/accept", headers=JSON)
    assert accepted.status_code == 200, accepted.text
    assert alice.get("/api/challenges").json()["outgoing"][0]["game"] == accepted.json()["game"]


class Killed(BaseException):
    """A process killed: nothing after it runs, no handler catches it."""


@on_both_databases
def test_an_accept_killed_after_its_game_was_made_leaves_one_game(site, monkeypatch):
    alice, bob, carol = site.person("Alice"), site.person("Bob"), site.person("Carol")
    service = site.app.state.service
    make = challenges._make_game
    tried: list[tuple[Any, str]] = []

    def made_then_killed(row: Any, game_id: str) -> None:
        make(service, row, game_id)
        raise Killed

    def killed_before_making(row: Any, game_id: str) -> None:
        tried.append((row, game_id))
        raise Killed

    first = challenge(alice, "Bob").json()["outgoing"][0]["id"]
    monkeypatch.setattr(challenges, "_make_game", lambda _service, *args: made_then_killed(*args))
    with pytest.raises(Killed):
        challenges.accept(service, first, user_id(site.app, "Bob"))
    (game_id,) = [game.id for game in rows(site.app, GameRow)]
    assert alice.get("/api/challenges").json()["outgoing"][0]["game"] == game_id  # not recorded: found all the same
    second = challenge(alice, "Carol").json()["outgoing"][0]["id"]
    monkeypatch.setattr(challenges, "_make_game", lambda _service, *args: killed_before_making(*args))
    with pytest.raises(Killed):
        challenges.accept(service, second, user_id(site.app, "Carol"))
    monkeypatch.setattr(challenges, "_make_game", make)
    later = datetime.now(UTC) + challenges.STALE_ACCEPT + timedelta(seconds=1)
    monkeypatch.setattr(challenges, "_now", lambda: later)
    refused(bob.post(f"/api/challenges/{first}/accept", headers=JSON), 409, "challenge_answered")  # no second game
    refused(bob.post(f"/api/challenges/{first}/decline", headers=JSON), 409, "challenge_answered")
    assert bob.get("/api/challenges").json()["incoming"] == [] and len(rows(site.app, GameRow)) == 1
    accepted = carol.post(f"/api/challenges/{second}/accept", headers=JSON)  # its first claim made nothing
    assert accepted.status_code == 200 and accepted.json()["game"] == tried[0][1], accepted.text  # the id kept
    make(service, *tried[0])  # the first claim's process, only slow, goes on: the game is made already
    assert len(rows(site.app, GameRow)) == 2
    shown = {c["id"]: (c["status"], c["game"]) for c in alice.get("/api/challenges").json()["outgoing"]}
    assert shown == {first: ("accepted", game_id), second: ("accepted", tried[0][1])}
    assert bob.get(f"/api/games/{game_id}").json()["you"] == 1  # his account holds his seat
    assert carol.get(f"/api/games/{tried[0][1]}").json()["you"] == 1


def test_a_block_made_after_the_challenge_ends_it_without_saying_so(site):
    alice, bob, carol, dora = (site.person(name) for name in ("Alice", "Bob", "Carol", "Dora"))
    made = challenge_seats(alice, [{"name": "Bob"}, {"name": "Carol"}], players=3).json()["outgoing"][0]["id"]
    other = challenge(alice, "Dora").json()["outgoing"][0]["id"]
    assert bob.post(f"/api/challenges/{made}/accept", headers=JSON).json()["game"] is None
    assert carol.post("/api/blocks", json={"name": "Bob"}).status_code == 200  # two of the challenged people
    refused(carol.post(f"/api/challenges/{made}/accept", headers=JSON), 403, "challenge_refused")
    shown = {c["id"]: c for c in alice.get("/api/challenges").json()["outgoing"]}
    assert shown[made]["status"] == "expired" and shown[other]["status"] == "open"
    assert [s["answer"] for s in shown[made]["seats"]] == ["accepted", "open"]
    assert carol.get("/api/challenges").json()["incoming"] == []
    assert [c["status"] for c in bob.get("/api/challenges").json()["ended"]] == ["expired"]
    assert challenge(alice, "Carol").status_code == 201  # no longer open: she may be challenged again
    again = challenge(alice, "Bob").json()["outgoing"][0]["id"]
    assert alice.post("/api/blocks", json={"name": "Bob"}).status_code == 200  # the challenger and one of them
    refused(bob.post(f"/api/challenges/{again}/accept", headers=JSON), 403, "challenge_refused")
    assert dora.post(f"/api/challenges/{other}/accept", headers=JSON).json()["game"]  # no block there


def test_a_four_player_challenge_of_two_people_is_made_when_both_accepted(site):
    alice, bob, carol = site.person("Alice"), site.person("Bob"), site.person("Carol")
    with site.app.state.service.sessions.begin() as session:  # each person challenged is told on their own
        for name in ("Bob", "Carol"):
            session.add(PushSubscriptionRow(user_id=user_id(site.app, name), endpoint=f"https://push.example/{name}",
                                            p256dh="p", auth="a"))
    made = challenge_seats(alice, [{"name": "bob"}, {"bot": "random"}, {"name": "Carol"}], players=4, first_player=3)
    assert made.status_code == 201, made.text
    sent = made.json()["outgoing"][0]
    assert (sent["to"], sent["seat"], sent["settings"]["bots"]) == ("Bob", 0, ["random"])
    assert sent["seats"] == [{"seat": 1, "name": "Bob", "bot": None, "answer": "open"},
                             {"seat": 2, "name": None, "bot": "random", "answer": None},
                             {"seat": 3, "name": "Carol", "bot": None, "answer": "open"}]
    assert sorted(row.user_id for row in rows(site.app, OutboxRow)) == sorted(
        user_id(site.app, name) for name in ("Bob", "Carol"))
    first = bob.post(f"/api/challenges/{sent['id']}/accept", headers=JSON)
    assert first.status_code == 200, first.text
    assert (first.json()["game"], first.json()["url"], first.json()["seat"]) == (None, None, 1)
    waiting = first.json()["challenges"]["incoming"][0]  # Bob still sees it, waiting for Carol
    assert [s["answer"] for s in waiting["seats"]] == ["accepted", None, "open"] and waiting["seat"] == 1
    again = bob.post(f"/api/challenges/{sent['id']}/accept", headers=JSON)  # accepting again changes nothing
    assert again.status_code == 200 and again.json()["game"] is None
    assert [s["answer"] for s in alice.get("/api/challenges").json()["outgoing"][0]["seats"]] == [
        "accepted", None, "open"]
    last = carol.post(f"/api/challenges/{sent['id']}/accept", headers=JSON)
    assert last.status_code == 200, last.text
    game_id = last.json()["game"]
    assert last.json()["seat"] == 3 and last.json()["url"] == f"https://kid.example/game/{game_id}"
    view = carol.get(f"/api/games/{game_id}").json()
    assert (view["you"], view["players"]) == (3, 4)
    with site.app.state.service.sessions() as session:
        assert session.get(GameRow, game_id).first_player == 3
    assert [(s["kind"], s["name"]) for s in view["seats"]] == [("human", "Alice"), ("human", "Bob"),
                                                                ("bot", "Random bot"), ("human", "Carol")]
    assert bob.get(f"/api/games/{game_id}").json()["you"] == 1  # each account holds its own seat
    ended = bob.get("/api/challenges").json()
    assert ended["incoming"] == [] and [(c["status"], c["game"]) for c in ended["ended"]] == [("accepted", game_id)]
    assert alice.get("/api/challenges").json()["outgoing"][0]["game"] == game_id
    refused(bob.post(f"/api/challenges/{sent['id']}/decline", headers=JSON), 409, "challenge_answered")


def test_one_decline_ends_it_for_all_and_only_the_challenger_is_told_who(site):
    alice, bob, carol = site.person("Alice"), site.person("Bob"), site.person("Carol")
    made = challenge_seats(alice, [{"name": "Bob"}, {"name": "Carol"}], players=3).json()["outgoing"][0]["id"]
    assert bob.post(f"/api/challenges/{made}/accept", headers=JSON).json()["game"] is None
    declined = carol.post(f"/api/challenges/{made}/decline", headers=JSON)
    assert declined.status_code == 200 and declined.json()["incoming"] == declined.json()["ended"] == []
    theirs = alice.get("/api/challenges").json()["outgoing"][0]
    assert theirs["status"] == "declined" and [s["answer"] for s in theirs["seats"]] == ["accepted", "declined"]
    told = bob.get("/api/challenges").json()
    assert told["incoming"] == [] and told["ended"][0]["status"] == "declined"
    assert [(s["name"], s["answer"]) for s in told["ended"][0]["seats"]] == [("Bob", "accepted"), ("Carol", None)]
    refused(bob.post(f"/api/challenges/{made}/accept", headers=JSON), 409, "challenge_answered")
    again = challenge_seats(alice, [{"name": "Bob"}, {"name": "Carol"}], players=3).json()["outgoing"][0]["id"]
    assert bob.post(f"/api/challenges/{again}/accept", headers=JSON).json()["game"] is None
    assert bob.post(f"/api/challenges/{again}/decline", headers=JSON).status_code == 200  # a change of mind
    assert carol.get("/api/challenges").json()["incoming"] == []
    refused(carol.post(f"/api/challenges/{again}/accept", headers=JSON), 409, "challenge_answered")


def test_the_refusals_of_a_challenge_of_several_people(site):
    alice, bob = site.person("Alice"), site.person("Bob")
    for name in ("Carol", "Dora"):
        site.person(name)
    people = [{"name": "Bob"}, {"name": "Carol"}]
    refused(challenge_seats(alice, people), 422, "invalid_request")  # 2 players: one seat after hers
    refused(challenge_seats(alice, [{"bot": "random"}, {"bot": "greedy"}], players=3), 422, "invalid_request")
    refused(challenge_seats(alice, [{"name": "Bob"}, {"name": "BOB"}], players=3), 422, "invalid_request")
    refused(challenge_seats(alice, [{"name": "Bob"}, {"name": "Alice"}], players=3), 422, "challenge_self")
    refused(challenge_seats(alice, [{"name": "Bob"}, {"name": "Nobody"}], players=3), 404, "unknown_player")
    refused(challenge_seats(alice, [{"name": "Bob"}, {"name": "Carol", "bot": "random"}], players=3), 422,
            "invalid_request")
    refused(challenge_seats(alice, [{"name": "Bob"}, {}], players=3), 422, "invalid_request")
    refused(challenge_seats(alice, people, players=3, bots=["random"]), 422, "invalid_request")
    refused(alice.post("/api/challenges", json={"name": "Bob", "seats": people, "settings": {"players": 3}}), 422,
            "invalid_request")
    refused(challenge_seats(alice, [*people, {"name": "Dora"}, {"name": "Eve"}], players=4), 422, "invalid_request")
    assert bob.post("/api/blocks", json={"name": "Carol"}).status_code == 200  # a block between two of them
    blocked = challenge_seats(alice, people, players=3)
    refused(blocked, 403, "challenge_refused")
    assert "Bob" in blocked.json()["detail"] and "Carol" in blocked.json()["detail"]
    assert challenge_seats(alice, [{"name": "Carol"}, {"name": "Dora"}], players=3).status_code == 201
    refused(challenge(alice, "Dora"), 409, "already_challenged")  # Dora is in her open one


@on_both_databases
def test_two_last_accepts_at_once_make_one_game(site, monkeypatch):
    alice, bob, carol = site.person("Alice"), site.person("Bob"), site.person("Carol")
    made = challenge_seats(alice, [{"name": "Bob"}, {"name": "Carol"}], players=3).json()["outgoing"][0]["id"]
    service = site.app.state.service
    both_answered = threading.Barrier(2, timeout=20)
    claim = challenges._claim

    def claim_once_both_answered(*args: Any) -> str | None:  # both answers are committed before either claims
        both_answered.wait()
        return claim(*args)

    monkeypatch.setattr(challenges, "_claim", claim_once_both_answered)
    results: dict[str, Any] = {}

    def accept(name: str) -> None:
        try:
            results[name] = challenges.accept(service, made, user_id(site.app, name))
        except Exception as exc:  # noqa: BLE001 - kept for the assertion below
            results[name] = exc

    threads = [threading.Thread(target=accept, args=(name,)) for name in ("Bob", "Carol")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert len(results) == 2 and all(isinstance(result, tuple) for result in results.values()), results
    games = [game for game, _seat in results.values()]
    assert sorted(seat for _game, seat in results.values()) == [1, 2]
    assert sum(game is not None for game in games) == 1, results
    made_game = next(game for game in games if game is not None)
    with service.sessions() as session:
        assert session.scalar(select(func.count()).select_from(GameRow)) == 1
        assert session.get(ChallengeRow, made).game_id == made_game
    assert alice.get("/api/challenges").json()["outgoing"][0]["game"] == made_game
    assert bob.get(f"/api/games/{made_game}").json()["you"] == 1
    assert carol.get(f"/api/games/{made_game}").json()["you"] == 2


def test_each_challenge_stored_before_gets_its_person_at_seat_1(tmp_path: Path):
    engine = sa.create_engine(f"sqlite:///{tmp_path / 'before.sqlite3'}")
    upgrade(engine, "0013_tournaments")
    now = datetime.now(UTC)
    with engine.begin() as connection:
        for user, name in ((1, "Ada"), (2, "Bo")):
            connection.execute(sa.text("INSERT INTO users (id, name, name_key, kind, created_at) "
                                       "VALUES (:id, :name, :key, 'person', :now)"),
                               {"id": user, "name": name, "key": name.lower(), "now": now})
        for challenge, status in ((1, "open"), (2, "declined")):
            connection.execute(sa.text(
                "INSERT INTO challenges (id, challenger_id, challenged_id, settings, status, created_at, expires_at, "
                "answered_at) VALUES (:id, 1, 2, '{}', :status, :now, :now, :answered)"),
                {"id": challenge, "status": status, "now": now, "answered": None if status == "open" else now})
    upgrade(engine)
    with engine.connect() as connection:
        seats = connection.execute(sa.text("SELECT challenge_id, seat, user_id, answer FROM challenge_seats "
                                           "ORDER BY challenge_id")).all()
    engine.dispose()
    assert [tuple(seat) for seat in seats] == [(1, 1, 2, "open"), (2, 1, 2, "declined")]
