"""E-mail and Web Push for players away from the site (issue 23): the address is confirmed before anything
else goes to it; digests, clock warnings and endings; one-click unsubscribe; a real SMTP server (aiosmtpd)
that refuses, is down, or loses its client to kill -9; two senders on one database; a push endpoint of
the tests' own that decrypts what it receives (RFC 8291) and checks the VAPID signature (RFC 8292)."""

from __future__ import annotations

import base64
import json
import os
import re
import threading
import time
import warnings
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select, update
from webtools import Server, bot, create, human, on_both_databases

from kingisdead.web import create_app
from kingisdead.web.db import GameRow, NotificationSettingsRow, OutboxRow, PushSubscriptionRow, UserRow, make_engine
from kingisdead.web.i18n import ngettext, _
from kingisdead.web.mail import MailSettings
from kingisdead.web.notify import NotifySettings, Notifier
from kingisdead.web.push import PushSettings, generate_keys
from kingisdead.web.push_endpoint import EndpointPolicy

PASSWORD = "correct horse battery"
SITE = "https://kid.example"
LATER = timedelta(hours=2)  # a game made now has waited long enough for the digest by then


def settings(smtp_port: int, push: PushSettings | None = None) -> NotifySettings:
    return NotifySettings(mail=MailSettings(host="127.0.0.1", port=smtp_port, timeout=5),
                          push=push or PushSettings(), every=3600, lease=20, digest_hour=0)


@pytest.fixture
def site(db_url: str, smtp_server: Any, browsers: Any) -> Any:
    """``site.browser()``: a new browser on an app writing to the test's SMTP server; ``site.notifier``."""
    app = create_app(db_url, public_url=SITE, notify=settings(smtp_server.port))

    class Site:
        notifier: Notifier = app.state.notifier
        mailbox = smtp_server.mailbox

        @staticmethod
        def browser() -> Any:
            return browsers(app)

    return Site


def signed_up(client: Any, name: str = "Ada", language: str | None = None) -> dict[str, Any]:
    response = client.post("/api/account/sign-up", json={"name": name, "password": PASSWORD})
    assert response.status_code == 201, response.text
    if language:
        assert client.patch("/api/account", json={"language": language}).status_code == 200
    return response.json()


def confirmation_link(site: Any) -> str:
    """The path of the confirmation link in the last message received."""
    return re.search(re.escape(SITE) + r"(/email/confirm\S+)", site.mailbox.messages[-1].get_content()).group(1)


def confirmed(site: Any, client: Any, email: str = "ada@example.org") -> str:
    """Set the address, follow the confirmation link that arrives and press its page's button; the link."""
    before = len(site.mailbox.messages)
    assert client.put("/api/account/email", json={"email": email}).status_code == 200
    site.notifier.round()
    assert len(site.mailbox.messages) == before + 1
    link = confirmation_link(site)
    page = client.post(link, content="")
    assert page.status_code == 200 and email in page.text
    return link


def slow_game(client: Any, name: str = "Ada", limit: int = 86_400) -> str:
    return str(create(client, [human(name), bot()], time_limit=limit, first_player=0)["id"])


def change_game(site: Any, game_id: str, **values: Any) -> None:
    with site.notifier.engine.begin() as connection:
        connection.execute(update(GameRow).where(GameRow.id == game_id).values(**values))


class Holder:
    """What :func:`change_game` needs of a site: its notifier."""

    def __init__(self, notifier: Notifier) -> None:
        self.notifier = notifier


def outbox(engine: Any) -> list[OutboxRow]:
    with engine.connect() as connection:
        return list(connection.execute(select(OutboxRow).order_by(OutboxRow.id)).all())


# -- e-mail ---------------------------------------------------------------------------------------


def test_nothing_but_the_confirmation_goes_to_an_address_before_its_link_is_opened(site):
    client = site.browser()
    signed_up(client)
    game = slow_game(client)
    view = client.put("/api/account/email", json={"email": "ada@example.org"}).json()
    assert view["email"] == "ada@example.org" and view["email_confirmed"] is False and view["mail"] is True
    site.notifier.round(datetime.now(UTC) + LATER)
    assert [m["Subject"] for m in site.mailbox.messages] == ["Confirm your address for The King Is Dead"]
    assert site.mailbox.messages[0]["To"] == "ada@example.org"
    link = confirmation_link(site)
    assert 'data-testid="notice-action"' in client.get(link).text  # a mail scanner opening it confirms nothing
    assert client.get("/api/account/notifications").json()["email_confirmed"] is False
    assert client.post(link, content="").status_code == 200
    assert client.get("/api/account/notifications").json()["email_confirmed"] is True
    again = client.post(link, content="")  # opened twice: it says so again, and changes nothing
    assert again.status_code == 200 and "ada@example.org" in again.text
    assert client.post(link.replace("token=", "token=x"), content="").status_code == 404
    site.notifier.round(datetime.now(UTC) + LATER)
    digest = site.mailbox.messages[-1]
    assert digest["Subject"] == "1 game waits for your move" and game in digest.get_content()
    site.notifier.round(datetime.now(UTC) + LATER)
    assert len(site.mailbox.messages) == 2  # one digest a day


@pytest.mark.parametrize("language", ["en", "fr", "de"])
def test_the_digest_lists_the_waiting_games_in_the_accounts_language(site, language):
    client = site.browser()
    signed_up(client, language=language)
    games = [slow_game(client), slow_game(client, limit=259_200)]
    confirmed(site, client)
    change_game(site, games[1], deadline=datetime.now(UTC) + timedelta(hours=5))  # the sooner is listed first
    site.notifier.round(datetime.now(UTC) + LATER)
    digest = site.mailbox.messages[-1]
    text = digest.get_content()
    assert digest["Subject"] == ngettext("{n} game waits for your move", "{n} games wait for your move",
                                         2).in_language(language)
    assert ngettext("This game waits for your move:", "These games wait for your move:", 2).in_language(language) in text
    assert _("Hello {name},", name="Ada").in_language(language) in text
    assert text.index(games[1]) < text.index(games[0])
    assert f"{SITE}/game/{games[0]}" in text and f"{SITE}/game/{games[1]}" in text
    if language != "en":
        assert "These games wait" not in text and "waits for your move" not in digest["Subject"]


def test_a_clock_warning_and_the_end_of_a_game_as_chosen(site):
    client = site.browser()
    signed_up(client)
    assert client.patch("/api/account/notifications", json={"digest": False, "ended": True}).json()["ended"] is True
    confirmed(site, client)
    warned, ending, quick = slow_game(client), slow_game(client), slow_game(client, limit=600)
    soon = datetime.now(UTC) + timedelta(minutes=50)
    change_game(site, warned, deadline=soon)
    change_game(site, quick, deadline=soon)  # a 10-minute game is played live: no warning
    change_game(site, ending, status="finished", to_move=None, deadline=None, result={"winners": [1], "reason": "x"})
    site.notifier.round()
    subjects = sorted(m["Subject"] for m in site.mailbox.messages[1:])
    assert subjects == sorted([f"Your time runs out soon in game {warned}", f"Game {ending} has ended"])
    ended = next(m for m in site.mailbox.messages if ending in m["Subject"]).get_content()
    assert "You lost." in ended and "Winner: random bot." in ended
    site.notifier.round()
    assert len(site.mailbox.messages) == 3


def test_one_click_unsubscribe_turns_off_that_kind_and_a_get_changes_nothing(site):
    client = site.browser()
    signed_up(client)
    slow_game(client)
    confirmed(site, client)
    site.notifier.round(datetime.now(UTC) + LATER)
    digest = site.mailbox.messages[-1]
    assert digest["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    url = digest["List-Unsubscribe"].strip("<>").removeprefix(SITE)
    mail_client = site.browser()  # RFC 8058: the mail client posts, with no cookie
    page = mail_client.get(url)
    assert page.status_code == 200 and 'data-testid="notice-action"' in page.text
    assert client.get("/api/account/notifications").json()["digest"] is True
    answer = mail_client.post(url, content="List-Unsubscribe=One-Click",
                              headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert answer.status_code == 200
    view = client.get("/api/account/notifications").json()
    assert view["digest"] is False and view["clock"] is True and view["email_confirmed"] is True
    assert mail_client.post(url.replace("token=", "token=x"), content="").status_code == 404
    bogus = mail_client.get(url.replace("kind=digest", "kind=weekly"))  # a page, not the API's JSON
    assert bogus.status_code == 404 and 'data-testid="notice"' in bogus.text


def test_a_new_address_waits_for_its_link_while_the_confirmed_one_still_works(site):
    client = site.browser()
    signed_up(client)
    slow_game(client)
    confirmed(site, client, "ada@example.org")
    view = client.put("/api/account/email", json={"email": "ada@exmaple.org"}).json()  # a typo
    assert (view["email"], view["email_confirmed"], view["confirmed_email"]) == ("ada@exmaple.org", False,
                                                                                   "ada@example.org")
    site.notifier.round(datetime.now(UTC) + LATER)
    sent = {m["To"]: m for m in site.mailbox.messages[1:]}  # the link and the digest, sent side by side
    assert sorted(sent) == ["ada@example.org", "ada@exmaple.org"] and len(site.mailbox.messages) == 3
    typo_link = re.search(re.escape(SITE) + r"(/email/confirm\S+)", sent["ada@exmaple.org"].get_content()).group(1)
    view = client.put("/api/account/email", json={"email": "Ada@Example.org"}).json()  # back: nothing sent
    assert (view["email"], view["email_confirmed"]) == ("ada@example.org", True)
    assert client.post(typo_link, content="").status_code == 404  # the typo's link no longer works
    site.notifier.round(datetime.now(UTC) + LATER)
    assert len(site.mailbox.messages) == 3


def test_one_address_gets_few_confirmation_links_whoever_asks(site):
    for number in range(4):
        client = site.browser()
        signed_up(client, f"Stranger {number}")
        answer = client.put("/api/account/email", json={"email": "victim@example.org"})
        assert answer.status_code == (200 if number < 3 else 429), answer.text
    site.notifier.round()
    assert len(site.mailbox.messages) == 3


def test_bad_input_is_refused_and_changes_nothing(site, db_url):
    client = site.browser()
    assert client.get("/api/account/notifications").status_code == 401
    signed_up(client)
    for bad in ("ada", "ada@", "a b@example.org", "<ada@example.org>", "ada@example.org\nBcc: x@y.z"):
        response = client.put("/api/account/email", json={"email": bad})
        assert response.status_code == 422 and response.json()["error"] == "invalid_email", bad
    assert client.patch("/api/account/notifications", json={"digest": 1}).status_code == 422
    assert client.patch("/api/account/notifications", json={"weekly": True}).status_code == 422
    assert client.get("/api/account/notifications").json()["email"] is None
    assert client.post("/api/push/subscriptions", json=SUBSCRIPTION).json()["error"] == "push_off"
    for address in ("ada1@example.org", "ada2@example.org", "ada3@example.org"):
        assert client.put("/api/account/email", json={"email": address}).status_code == 200
    refused = client.put("/api/account/email", json={"email": "ada4@example.org"})
    assert refused.status_code == 429 and client.get("/api/account/notifications").json()["email"] == "ada3@example.org"
    silent = create_app(db_url, notify=NotifySettings())  # no SMTP host: the site sends no e-mail
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient
    with TestClient(silent, base_url="https://testserver") as other:
        signed_up(other, "Bea")
        assert other.get("/api/account/notifications").json()["mail"] is False
        assert other.put("/api/account/email", json={"email": "bea@example.org"}).json()["error"] == "mail_off"


def test_a_refusing_server_is_retried_and_a_permanent_refusal_kept(site):
    client = site.browser()
    signed_up(client)
    site.mailbox.answers = ["451 4.3.0 try again later", "421 4.7.0 busy"]
    client.put("/api/account/email", json={"email": "ada@example.org"})
    now = datetime.now(UTC)
    assert site.notifier.round(now) == (0, 0)
    assert site.notifier.round(now) == (0, 0)  # not due again yet: it waits before the next attempt
    assert site.notifier.round(now + timedelta(hours=2)) == (0, 0)  # the second refusal
    assert site.notifier.round(now + timedelta(hours=4)) == (0, 1)
    assert len(site.mailbox.messages) == 1
    [row] = outbox(site.notifier.engine)
    assert row.status == "sent" and row.attempts == 3
    site.mailbox.answers = ["550 5.1.1 no such mailbox"]
    client.put("/api/account/email", json={"email": "nobody@example.org"})
    site.notifier.round(now + timedelta(hours=6))
    site.notifier.round(now + timedelta(hours=9))
    failed = outbox(site.notifier.engine)[-1]
    assert failed.status == "failed" and "550" in failed.error and failed.attempts == 1
    assert len(site.mailbox.messages) == 1


def test_a_server_that_is_down_loses_nothing_and_gets_it_once_back_up(site, smtp_server):
    client = site.browser()
    signed_up(client)
    smtp_server.stop()
    client.put("/api/account/email", json={"email": "ada@example.org"})
    now = datetime.now(UTC)
    assert site.notifier.round(now) == (0, 0)
    [row] = outbox(site.notifier.engine)
    assert row.status == "pending" and row.attempts == 0 and "Connection" in row.error  # no attempt spent
    smtp_server.start()
    assert site.notifier.round(now + timedelta(hours=2)) == (0, 1)
    site.notifier.round(now + timedelta(hours=4))
    assert len(site.mailbox.messages) == 1


@on_both_databases  # several processes: PostgreSQL
def test_two_senders_on_one_database_send_each_message_once(site, db_url):
    clients = [site.browser() for _ in range(12)]
    for number, client in enumerate(clients):
        signed_up(client, f"Player {number}")
        client.put("/api/account/email", json={"email": f"p{number}@example.org"})
    senders = [Notifier(make_engine(db_url), site.notifier.settings, SITE) for _ in range(2)]
    threads = [threading.Thread(target=sender.deliver, args=(datetime.now(UTC),)) for sender in senders]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    rows = outbox(site.notifier.engine)
    assert len(rows) == 12 and {row.status for row in rows} == {"sent"}
    assert sorted(site.mailbox.ids()) == sorted(row.content["message_id"] for row in rows)


def test_kill_9_in_the_middle_of_a_sending_round_neither_loses_nor_repeats(tmp_path, smtp_server):
    database = tmp_path / "site.sqlite3"
    engine = make_engine(f"sqlite:///{database}")
    with engine.begin() as connection:  # six confirmed accounts, each with a digest waiting in the outbox
        for number in range(6):
            user_id = connection.execute(UserRow.__table__.insert().values(
                name=f"P{number}", name_key=f"p{number}", kind="person", created_at=datetime.now(UTC))).inserted_primary_key[0]
            connection.execute(NotificationSettingsRow.__table__.insert().values(
                user_id=user_id, email=f"p{number}@example.org", confirmed_at=datetime.now(UTC),
                unsubscribe_key=f"key{number}", digest=True, clock=True, ended=False))
            connection.execute(OutboxRow.__table__.insert().values(
                key=f"digest:{user_id}:test", channel="mail", kind="digest", user_id=user_id, status="pending",
                attempts=0, next_attempt_at=datetime.now(UTC), created_at=datetime.now(UTC),
                content={"to": f"p{number}@example.org", "subject": f"digest {number}", "text": "games",
                         "message_id": f"<digest-{number}@kid.example>", "unsubscribe": None}))
    env = {"KINGISDEAD_SMTP_HOST": "127.0.0.1", "KINGISDEAD_SMTP_PORT": str(smtp_server.port),
           "KINGISDEAD_NOTIFY_EVERY": "0.2", "KINGISDEAD_NOTIFY_LEASE": "3"}
    smtp_server.mailbox.hold_after = 2  # once two are in, each RCPT waits: the sender is in its middle
    first = Server(database, env=env).start()
    assert smtp_server.mailbox.waiting.wait(30)

    def recorded() -> int:
        return sum(row.status == "sent" for row in outbox(engine))

    deadline = time.monotonic() + 30  # those accepted (several at once: a pool) are recorded, the rest hold
    while recorded() < len(smtp_server.mailbox.messages) and time.monotonic() < deadline:
        time.sleep(0.05)
    first.kill()
    smtp_server.mailbox.released.set()
    assert 2 <= len(smtp_server.mailbox.messages) == recorded() < 6
    second = Server(database, env=env).start()
    try:
        deadline = time.monotonic() + 60
        while len(smtp_server.mailbox.messages) < 6 and time.monotonic() < deadline:
            time.sleep(0.1)
        time.sleep(1)  # some more rounds: nothing is sent again
    finally:
        second.stop()
    assert sorted(smtp_server.mailbox.ids()) == [f"<digest-{n}@kid.example>" for n in range(6)]
    assert {row.status for row in outbox(engine)} == {"sent"}


# -- push -----------------------------------------------------------------------------------------

SUBSCRIPTION = {"endpoint": "https://push.example/abc",
                "keys": {"p256dh": "B" + "A" * 86, "auth": "A" * 22}}


class PushService:
    """A push service of the tests' own on loopback: keeps each POST; answers ``status`` with ``headers``."""

    def __init__(self) -> None:
        received, service = [], self
        self.received: list[tuple[dict[str, str], bytes]] = received
        self.status = 201
        self.headers: dict[str, str] = {}

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers["Content-Length"]))
                received.append(({k.lower(): v for k, v in self.headers.items()}, body))
                self.send_response(service.status)
                for name, value in service.headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.port = self.server.server_address[1]
        self.url = f"http://push.test:{self.port}"


def reaching(*ports: int) -> EndpointPolicy:
    """The tests' endpoint policy: http too, and ``push.test`` (and any other name) resolves to loopback,
    which is accepted on ``ports`` only."""
    return EndpointPolicy(schemes=("https", "http"), also=frozenset(("127.0.0.1", port) for port in ports),
                          resolver=lambda host, port: ["127.0.0.1"])


class Browser:
    """A browser's push keys (RFC 8291): its P-256 key pair and authentication secret."""

    def __init__(self) -> None:
        from cryptography.hazmat.primitives import serialization
        from cryptography.hazmat.primitives.asymmetric import ec

        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)
        point = self.key.public_key().public_bytes(serialization.Encoding.X962,
                                                   serialization.PublicFormat.UncompressedPoint)
        self.keys = {"p256dh": _b64(point), "auth": _b64(self.auth)}

    def decrypt(self, body: bytes) -> dict[str, Any]:
        import http_ece

        return json.loads(http_ece.decrypt(body, private_key=self.key, auth_secret=self.auth, version="aes128gcm"))


def check_vapid(authorization: str, public_key: str, audience: str, subject: str) -> None:
    """RFC 8292: ``vapid t=<JWT>, k=<key>``; the JWT (ES256) is signed by the site's key for the push
    service's origin, names the operator and has not expired."""
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature

    scheme, _space, params = authorization.partition(" ")
    fields = dict(part.strip().split("=", 1) for part in params.split(","))
    assert scheme == "vapid" and fields["k"] == public_key
    header, claims, signature = fields["t"].split(".")
    assert json.loads(_unb64(header))["alg"] == "ES256"
    body = json.loads(_unb64(claims))
    assert body["aud"] == audience and body["sub"] == subject and body["exp"] > time.time()
    raw = _unb64(signature)
    key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), _unb64(public_key))
    key.verify(encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big")),
               f"{header}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def test_your_turn_and_an_hour_left_reach_a_subscribed_browser_encrypted(db_url, smtp_server, browsers, tmp_path):
    public_key = generate_keys(tmp_path / "vapid.pem")
    service = PushService()
    push = PushSettings(key_file=tmp_path / "vapid.pem", subject="mailto:ops@kid.example",
                        endpoints=reaching(service.port))
    app = create_app(db_url, public_url="http://kid.test", notify=settings(smtp_server.port, push))
    client, device = browsers(app), Browser()
    signed_up(client, language="fr")
    assert client.get("/api/account/notifications").json()["push_key"] == public_key
    game = slow_game(client)
    made = client.post("/api/push/subscriptions", json={"endpoint": f"{service.url}/sub/1", "keys": device.keys,
                                                        "expirationTime": None})
    assert made.status_code == 201 and made.json() == {"push_devices": 1}
    notifier = app.state.notifier
    notifier.round()
    assert service.received == []  # the game's first turn: its player made it and is looking
    change_game(Holder(notifier), game, move_count=2,
                updated_at=datetime.now(UTC))
    notifier.round()
    [(headers, body)] = service.received
    assert headers["content-encoding"] == "aes128gcm" and int(headers["ttl"]) > 0
    check_vapid(headers["authorization"], public_key, service.url, "mailto:ops@kid.example")
    payload = device.decrypt(body)
    assert payload == {"kind": "turn", "title": "À vous de jouer", "body": payload["body"], "url": f"/game/{game}",
                       "game": game, "tag": f"game-{game}"}
    assert game in payload["body"]
    change_game(Holder(notifier), game, deadline=datetime.now(UTC) + timedelta(minutes=40))
    notifier.round()
    notifier.round()
    assert [device.decrypt(b)["kind"] for _h, b in service.received] == ["turn", "clock"]
    service.status = 410  # the browser withdrew it: the subscription is forgotten
    change_game(Holder(notifier), game, move_count=4, updated_at=datetime.now(UTC),
                deadline=datetime.now(UTC) + timedelta(hours=20))
    notifier.round()
    with notifier.engine.connect() as connection:
        assert connection.execute(select(PushSubscriptionRow)).all() == []
    assert client.get("/api/account/notifications").json()["push_devices"] == 0


PUBLIC = EndpointPolicy(resolver=lambda host, port: ["93.184.215.14"])
"""The site's policy with a resolver of the tests' own: every name is a public address."""


def test_push_subscriptions_are_checked(db_url, smtp_server, browsers, tmp_path):
    generate_keys(tmp_path / "vapid.pem")
    app = create_app(db_url, public_url=SITE, notify=settings(smtp_server.port,
                                                              PushSettings(tmp_path / "vapid.pem", endpoints=PUBLIC)))
    client = browsers(app)
    assert client.post("/api/push/subscriptions", json=SUBSCRIPTION).status_code == 401
    signed_up(client)
    device = Browser()
    for endpoint, keys in (("http://push.example/x", device.keys),  # an https site takes https endpoints only
                           ("https://push.example/x", {**device.keys, "p256dh": "AAAA"}),
                           ("https://push.example/x", {**device.keys, "auth": _b64(b"short")}),
                           ("not a url", device.keys)):
        assert client.post("/api/push/subscriptions", json={"endpoint": endpoint, "keys": keys}).status_code == 422
    assert client.post("/api/push/subscriptions", json={"endpoint": "https://push.example/x", "keys": device.keys}
                       ).json() == {"push_devices": 1}
    assert client.post("/api/push/subscriptions", json={"endpoint": "https://push.example/x", "keys": device.keys}
                       ).json() == {"push_devices": 1}  # the same browser again replaces it
    assert client.request("DELETE", "/api/push/subscriptions", json={"endpoint": "https://push.example/x"}
                          ).status_code == 204
    assert client.get("/api/account/notifications").json()["push_devices"] == 0


def test_a_push_message_the_service_could_not_take_for_a_day_is_dropped(db_url, smtp_server, browsers, tmp_path):
    generate_keys(tmp_path / "vapid.pem")
    app = create_app(db_url, public_url="http://kid.test",
                     notify=settings(smtp_server.port, PushSettings(tmp_path / "vapid.pem", endpoints=reaching(9))))
    client, device = browsers(app), Browser()
    signed_up(client)
    game = slow_game(client)
    client.post("/api/push/subscriptions", json={"endpoint": "http://push.test:9/gone", "keys": device.keys})
    notifier = app.state.notifier
    change_game(Holder(notifier), game, move_count=2, updated_at=datetime.now(UTC))
    notifier.round()
    [row] = outbox(notifier.engine)
    assert row.status == "pending" and row.attempts == 1  # nobody listens there: tried again later
    with notifier.engine.begin() as connection:
        connection.execute(update(OutboxRow).values(created_at=datetime.now(UTC) - timedelta(days=2)))
    notifier.round(datetime.now(UTC) + timedelta(hours=2))
    [row] = outbox(notifier.engine)
    assert row.status == "dropped" and "too old" in row.error


def test_a_key_file_that_holds_no_key_is_refused_in_words(tmp_path: Path):
    (tmp_path / "bad.pem").write_text("garbage")
    (tmp_path / "bad.pem").chmod(0o600)
    with pytest.raises(ValueError, match="holds no VAPID private key"):
        PushSettings(tmp_path / "bad.pem")


def test_kingisdead_vapid_makes_a_key_once(tmp_path: Path):
    from typer.testing import CliRunner

    from kingisdead.cli import app

    runner = CliRunner()
    made = runner.invoke(app, ["vapid", "--out", str(tmp_path / "k.pem")])
    assert made.exit_code == 0 and PushSettings(tmp_path / "k.pem").public_key in made.output
    assert (tmp_path / "k.pem").stat().st_mode & 0o077 == 0
    again = runner.invoke(app, ["vapid", "--out", str(tmp_path / "k.pem")])
    assert again.exit_code == 1 and "exists" in again.output
