"""Challenges: made, accepted (the game made with its settings and both accounts seated), declined, withdrawn,
expired; blocks refused neutrally; the limits; the e-mail and push messages queued once (SQLite and PostgreSQL)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import select

from kingisdead.web import challenges
from kingisdead.web.db import ChallengeRow, GameRow, NotificationSettingsRow, OutboxRow, PushSubscriptionRow, SeatRow
from kingisdead.web.db import UserRow
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


def rows(app: Any, model: Any) -> list[Any]:
    with app.state.service.sessions() as session:
        return list(session.scalars(select(model)))


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
    assert queued == [(f"challenge:mail:{made}", "challenge", bob_id),
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
    mail = next(row for row in rows(site.app, OutboxRow) if row.key == f"challenge:mail:{again}")
    assert notifier._unwanted(mail) == "the challenge was answered, withdrawn or expired"


def test_deleting_an_account_removes_its_challenges_both_ways(site):
    alice, bob = site.person("Alice"), site.person("Bob")
    assert challenge(alice, "Bob").status_code == 201 and challenge(bob, "Alice").status_code == 201
    assert bob.request("DELETE", "/api/account", json={"password": PASSWORD}).status_code == 200
    assert alice.get("/api/challenges").json() == {"incoming": [], "outgoing": [], "expiry_days": 3,
                                                   "open_limit": 20}
    assert rows(site.app, ChallengeRow) == []


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
