"""Notifications people can trust (issue 33), the audit's probes replayed: a push service that drips its
answer or never ends holds no other message; push endpoints reach push services on the public Internet
only; one address cannot be bombed with confirmation links; an undeliverable message has a budget and
the account sees its failure; the mail headers and keys as RFC 8058 and RFC 8292 expect."""

from __future__ import annotations

import asyncio
import base64
import json
import logging
import re
import socket
import threading
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select, update
from sqlalchemy.exc import OperationalError
from test_notify import (PASSWORD, SITE, Browser, Holder, PushService, change_game, confirmation_link, confirmed,
                         outbox, reaching, settings, signed_up, site, slow_game)

from kingisdead.web import create_app, mail as smtp, notify, outbox as queue
from kingisdead.web.db import NotificationSettingsRow, PushSubscriptionRow, SeatRow
from kingisdead.web.mail import MailSettings
from kingisdead.web.push import VAPID_VALID, PushSettings, generate_keys, vapid_headers
from kingisdead.web.push_endpoint import EndpointPolicy

__all__ = ["site"]  # the fixture, shared with test_notify

PUBLIC_ADDRESS = "93.184.215.14"
JSON = {"Content-Type": "application/json"}  # a change with the session cookie, even without a body


class Drip:
    """A server on loopback that takes a request, then answers one byte every half second and never ends
    (``greeting``: it speaks first, as an SMTP server does). ``connected`` is set once a client came,
    ``ended`` once it left."""

    def __init__(self, greeting: bool = False) -> None:
        self.connected, self.ended = threading.Event(), threading.Event()
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.greeting = greeting
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _address = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self._drip, args=(conn,), daemon=True).start()

    def _drip(self, conn: socket.socket) -> None:
        self.connected.set()
        answer = b"220 " if self.greeting else b"HTTP/1.1 201 Created\r\n"
        try:
            if not self.greeting:
                conn.recv(65536)
            while True:
                for byte in answer + b"X-Slow: " + b"a" * 1000:
                    conn.sendall(bytes([byte]))
                    time.sleep(0.5)
        except OSError:
            pass
        finally:
            conn.close()
            self.ended.set()


def wait_for(condition: Any, seconds: float = 60) -> bool:
    """Whether ``condition()`` became true within ``seconds`` (a bound for a broken build, not a timing)."""
    deadline = time.monotonic() + seconds
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.05)
    return bool(condition())


def push_site(db_url: str, smtp_server: Any, tmp_path: Path, policy: EndpointPolicy, public_url: str = SITE) -> Any:
    if not (tmp_path / "vapid.pem").exists():
        generate_keys(tmp_path / "vapid.pem")
    push = PushSettings(tmp_path / "vapid.pem", subject="mailto:ops@kid.example", endpoints=policy)
    return create_app(db_url, public_url=public_url, notify=settings(smtp_server.port, push))


# -- 1: a slow push service or mail server holds no other message -----------------------------------


def test_a_push_service_that_drips_its_answer_holds_no_other_message(db_url, smtp_server, browsers, tmp_path, caplog):
    drip = Drip()
    app = push_site(db_url, smtp_server, tmp_path, reaching(drip.port))
    notifier, client = app.state.notifier, browsers(app)
    signed_up(client)
    game = slow_game(client)
    assert client.post("/api/push/subscriptions", json={"endpoint": f"http://push.test:{drip.port}/sub",
                                                        "keys": Browser().keys}).status_code == 201
    change_game(Holder(notifier), game, move_count=2, updated_at=datetime.now(UTC))
    assert notifier.queue_due(datetime.now(UTC)) == 1  # the push message is first in the outbox
    client.put("/api/account/email", json={"email": "ada@example.org"})  # then a confirmation
    sender = threading.Thread(target=notifier.deliver, args=(datetime.now(UTC),), daemon=True)
    sender.start()
    assert wait_for(lambda: len(smtp_server.mailbox.messages) == 1)
    assert not drip.ended.is_set()  # the confirmation went out while the push message was on its way
    sender.join(60)
    assert not sender.is_alive()
    assert drip.connected.is_set() and wait_for(drip.ended.is_set)  # it was cut at the deadline
    push, mail = outbox(notifier.engine)
    assert (push.channel, push.status, push.attempts) == ("push", "pending", 1) and "no answer within" in push.error
    assert mail.status == "sent"
    assert any("not sent (no answer within" in record.message for record in caplog.records)


def test_a_mail_server_that_drips_its_greeting_is_left_at_the_deadline():
    drip = Drip(greeting=True)
    settings = MailSettings(host="127.0.0.1", port=drip.port, timeout=5)
    message = smtp.message(settings, "ada@example.org", "Hello", "Hello", "<a@kid.example>")
    with pytest.raises(smtp.TryLater, match="no answer within 1 s"):
        smtp.send(settings, message, deadline=1)


# -- 2: push endpoints ------------------------------------------------------------------------------

NAMES = {"push.example": [PUBLIC_ADDRESS], "loopback.example": ["127.0.0.1"], "metadata.example": ["169.254.169.254"],
         "lan.example": ["10.1.2.3"], "mixed.example": [PUBLIC_ADDRESS, "192.168.0.1"], "v6.example": ["::1"],
         "mapped.example": ["::ffff:127.0.0.1"]}


def names(host: str, port: int) -> list[str]:
    if host not in NAMES:
        raise socket.gaierror("no such name")
    return NAMES[host]


@pytest.mark.parametrize("endpoint", [
    "https://127.0.0.1/x", "https://[::1]/x", "https://2130706433/x", "https://0x7f.1/x", "https://127.1/x",
    "https://169.254.169.254/latest/meta-data/", "https://10.0.0.1/x", "https://192.168.1.1/x",
    "https://loopback.example/x", "https://metadata.example/x", "https://lan.example/x", "https://mixed.example/x",
    "https://v6.example/x", "https://mapped.example/x", "https://nowhere.example/x",
    "https://user:secret@push.example/x", "https://push.example:99999/x", "https://push.example:0/x",
    "http://[::1/x", "http://push.example/x", "ftp://push.example/x", "https://push.example/a b",
    "https://kid.example/unsubscribe?token=abc&kind=all", "https://KID.example./unsubscribe",
])
def test_a_push_endpoint_that_is_not_a_public_push_service_is_refused(db_url, smtp_server, browsers, tmp_path,
                                                                       endpoint):
    client = browsers(push_site(db_url, smtp_server, tmp_path, EndpointPolicy(resolver=names)))
    signed_up(client)
    answer = client.post("/api/push/subscriptions", json={"endpoint": endpoint, "keys": Browser().keys})
    assert answer.status_code == 422 and answer.json()["error"] == "invalid_endpoint", answer.text
    assert answer.json()["detail"]
    good = client.post("/api/push/subscriptions", json={"endpoint": "https://push.example/x", "keys": Browser().keys})
    assert good.status_code == 201


def test_an_endpoint_resolved_to_an_internal_address_at_send_time_is_never_reached(db_url, smtp_server, browsers,
                                                                                     tmp_path):
    """DNS rebinding: the name was public at subscribe time and is internal when the message goes. Whether
    the internal address would answer 410 or 201 changes nothing the subscriber can see."""
    answers = {"gone.example": [PUBLIC_ADDRESS], "fine.example": [PUBLIC_ADDRESS]}
    policy = EndpointPolicy(schemes=("https", "http"), resolver=lambda host, port: answers[host])  # http: reachable
    app = push_site(db_url, smtp_server, tmp_path, policy)
    notifier = app.state.notifier
    services = {"gone.example": PushService(), "fine.example": PushService()}
    services["gone.example"].status = 410
    for number, (name, service) in enumerate(services.items()):
        client = browsers(app)
        signed_up(client, f"Player {number}")
        game = slow_game(client, f"Player {number}")
        assert client.post("/api/push/subscriptions", json={"endpoint": f"http://{name}:{service.port}/sub",
                                                            "keys": Browser().keys}).status_code == 201
        change_game(Holder(notifier), game, move_count=2, updated_at=datetime.now(UTC))
    answers.update({"gone.example": ["127.0.0.1"], "fine.example": ["127.0.0.1"]})
    notifier.round()
    assert [service.received for service in services.values()] == [[], []]
    rows = outbox(notifier.engine)
    assert len({(row.status, row.error) for row in rows}) == 1 and rows[0].status == "pending"
    with notifier.engine.connect() as connection:
        assert len(connection.execute(select(PushSubscriptionRow)).all()) == 2  # both kept alike


def test_a_redirect_is_not_followed(db_url, smtp_server, browsers, tmp_path):
    service, internal = PushService(), PushService()
    service.status, service.headers = 307, {"Location": f"http://127.0.0.1:{internal.port}/admin"}
    app = push_site(db_url, smtp_server, tmp_path, reaching(service.port, internal.port))
    notifier, client = app.state.notifier, browsers(app)
    signed_up(client)
    game = slow_game(client)
    client.post("/api/push/subscriptions", json={"endpoint": f"{service.url}/sub", "keys": Browser().keys})
    change_game(Holder(notifier), game, move_count=2, updated_at=datetime.now(UTC))
    notifier.round()
    assert len(service.received) == 1 and internal.received == []
    [row] = outbox(notifier.engine)
    assert row.status == "failed" and "307" in row.error


def test_a_push_endpoint_moves_to_another_account_only_from_the_same_browser(db_url, smtp_server, browsers, tmp_path):
    app = push_site(db_url, smtp_server, tmp_path, EndpointPolicy(resolver=names))
    owner, other = browsers(app), browsers(app)
    signed_up(owner, "Ada")
    signed_up(other, "Bea")
    device = Browser()
    subscription = {"endpoint": "https://push.example/device", "keys": device.keys}
    assert owner.post("/api/push/subscriptions", json=subscription).status_code == 201
    stolen = other.post("/api/push/subscriptions", json={**subscription, "keys": Browser().keys})
    assert stolen.status_code == 409 and stolen.json()["error"] == "endpoint_taken"
    assert owner.get("/api/account/notifications").json()["push_devices"] == 1
    assert other.post("/api/push/subscriptions", json=subscription).status_code == 201  # the same browser
    assert owner.get("/api/account/notifications").json()["push_devices"] == 0
    assert other.get("/api/account/notifications").json()["push_devices"] == 1


# -- 3: one address cannot be bombed -------------------------------------------------------------------


def test_confirmation_links_to_one_address_are_counted_across_accounts_and_removals(site):
    """The audit's bombing: several accounts take turns setting and removing the victim's address, in
    other cases; the victim gets three links in the hour, whoever asked."""
    spellings = ["victim@example.org", "Victim@Example.org", "VICTIM@EXAMPLE.ORG"]
    answers = []
    for number in range(4):
        client = site.browser()
        signed_up(client, f"Stranger {number}")
        for spelling in spellings:
            answers.append(client.put("/api/account/email", json={"email": spelling}).status_code)
            assert client.delete("/api/account/email", headers=JSON).status_code == 200
    site.notifier.round()
    assert answers.count(200) == 3 and set(answers[3:]) == {429}
    assert len(site.mailbox.messages) == 0  # each address was removed before its link went
    client = site.browser()
    signed_up(client, "Victim")
    assert client.put("/api/account/email", json={"email": "victim@example.org"}).status_code == 429


def test_a_deleted_account_frees_no_address_for_more_confirmation_links(site):
    for number in range(3):
        client = site.browser()
        signed_up(client, f"Stranger {number}")
        assert client.put("/api/account/email", json={"email": "victim@example.org"}).status_code == 200
        assert client.request("DELETE", "/api/account", json={"password": PASSWORD}).status_code == 200
    client = site.browser()
    signed_up(client, "Stranger 3")
    assert client.put("/api/account/email", json={"email": "victim@example.org"}).status_code == 429
    site.notifier.round()
    assert site.mailbox.messages == []  # the deleted accounts' links were dropped, not sent


# -- 4: a retry budget, and a failure the account sees ------------------------------------------------


def test_an_undeliverable_address_is_tried_a_few_times_then_failed_and_shown(site, smtp_server, monkeypatch):
    monkeypatch.setattr(notify, "MAIL_AT_ONCE", 1)  # one worker: a refused recipient must not stop it
    smtp_server.stop()
    smtp_server.utf8 = False
    smtp_server.start()
    site.mailbox.refuse["stuck@example.org"] = "450 4.2.1 mailbox busy"
    stuck, other = site.browser(), site.browser()
    signed_up(stuck, "Ada", language="fr")
    signed_up(other, "Bea")
    stuck.put("/api/account/email", json={"email": "stuck@example.org"})
    other.put("/api/account/email", json={"email": "zoë@example.org"})  # a relay without SMTPUTF8: never
    third = site.browser()
    signed_up(third, "Cyd")
    third.put("/api/account/email", json={"email": "cy@example.org"})
    now = datetime.now(UTC)
    site.notifier.round(now)
    assert [m["To"] for m in site.mailbox.messages] == ["cy@example.org"]  # the other mail went
    for hours in range(1, 12):
        site.notifier.round(now + timedelta(hours=hours * 2))
    rows = {row.content["to"]: row for row in outbox(site.notifier.engine)}
    assert rows["stuck@example.org"].status == "failed" and rows["stuck@example.org"].attempts == queue.ATTEMPTS
    assert "450" in rows["stuck@example.org"].error
    assert rows["zoë@example.org"].status == "failed" and rows["zoë@example.org"].attempts == 1
    view = stuck.get("/api/account/notifications").json()
    assert view["undelivered"]["email"] == "stuck@example.org" and "450" in view["undelivered"]["error"]
    assert other.get("/api/account/notifications").json()["undelivered"]["email"] == "zoë@example.org"
    assert third.get("/api/account/notifications").json()["undelivered"] is None
    assert len(site.mailbox.messages) == 1


# -- 8: headers, keys, names, repeats ------------------------------------------------------------------


def test_list_unsubscribe_is_sent_as_a_plain_url_that_a_mail_client_can_post_to(site):
    client = site.browser()
    signed_up(client)
    slow_game(client)
    confirmed(site, client)
    site.notifier.round(datetime.now(UTC) + timedelta(hours=2))
    raw = site.mailbox.raw[-1]
    [header] = re.findall(rb"^List-Unsubscribe: ([^\r\n]*)", raw, re.MULTILINE)
    assert header.startswith(b"<" + SITE.encode() + b"/unsubscribe?token=") and header.endswith(b"kind=digest>")
    assert b"List-Unsubscribe-Post: List-Unsubscribe=One-Click" in raw
    answer = site.browser().post(header.decode().strip("<>").removeprefix(SITE), content="List-Unsubscribe=One-Click",
                                 headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert answer.status_code == 200 and client.get("/api/account/notifications").json()["digest"] is False


def test_a_confirmation_carries_no_link_that_removes_the_confirmed_address(site):
    client = site.browser()
    signed_up(client)
    slow_game(client)
    confirmed(site, client, "ada@example.org")
    site.notifier.round(datetime.now(UTC) + timedelta(hours=2))
    old_stop = site.mailbox.messages[-1]["List-Unsubscribe"].strip("<>").removeprefix(SITE)
    client.put("/api/account/email", json={"email": "ada@exmaple.org"})  # a typo: its reader is a stranger
    site.notifier.round()
    link = site.mailbox.messages[-1]
    assert link["To"] == "ada@exmaple.org" and link["List-Unsubscribe"] is None
    assert "/unsubscribe" not in link.get_content()
    client.post(confirmation_link(site), content="")  # confirmed: a new key for the new address
    assert site.browser().post(old_stop.replace("kind=digest", "kind=all"), content="").status_code == 404
    assert client.get("/api/account/notifications").json()["email_confirmed"] is True


def test_a_seat_name_with_line_breaks_never_reaches_a_mail_verbatim(site):
    client = site.browser()
    signed_up(client)
    game = slow_game(client)
    confirmed(site, client)
    forged = "Bob\r\n\r\nYour account is locked: http://evil.example/\x00"
    with site.notifier.engine.begin() as connection:  # stored before control characters were refused
        connection.execute(update(SeatRow).where(SeatRow.game_id == game, SeatRow.seat == 1).values(name=forged))
    site.notifier.round(datetime.now(UTC) + timedelta(hours=2))
    text = site.mailbox.messages[-1].get_content()
    assert "Bob Your account is locked: http://evil.example/" in text and "\nYour account" not in text


@pytest.mark.parametrize("address", ["ada\x01@example.org", "ada\x7f@example.org", "ada\u0085@example.org"])
def test_an_address_with_control_characters_is_refused(site, address):
    client = site.browser()
    signed_up(client)
    assert client.put("/api/account/email", json={"email": address}).status_code == 422
    assert client.get("/api/account/notifications").json()["email"] is None


def test_a_mail_sent_while_the_database_stops_is_recorded_later_and_never_sent_again(site, monkeypatch):
    client = site.browser()
    signed_up(client)
    client.put("/api/account/email", json={"email": "ada@example.org"})
    finish = queue.finish

    def database_stopped(*args: Any, **kwargs: Any) -> None:
        raise OperationalError("UPDATE outbox", {}, Exception("the database system is shutting down"))

    monkeypatch.setattr(queue, "finish", database_stopped)
    site.notifier.deliver(datetime.now(UTC))  # handed over; its outcome could not be written
    assert len(site.mailbox.messages) == 1
    [row] = outbox(site.notifier.engine)
    assert row.status == "sending"
    monkeypatch.setattr(queue, "finish", finish)
    later = datetime.now(UTC) + timedelta(hours=1)  # the claim has expired
    assert site.notifier.deliver(later) == 0
    [row] = outbox(site.notifier.engine)
    assert row.status == "sent" and len(site.mailbox.messages) == 1


def test_an_outage_is_logged_once_and_its_end_once(site, monkeypatch, caplog):
    rounds = []

    def queue_due(now: datetime) -> int:
        rounds.append(now)
        if len(rounds) <= 4:
            raise OperationalError("SELECT", {}, Exception("connection refused"))
        return 0

    notifier = site.notifier
    monkeypatch.setattr(notifier, "queue_due", queue_due)
    monkeypatch.setattr(notifier, "outage", type(notifier.outage)("notifications", first=0.01, longest=0.01))

    async def some_rounds() -> None:
        task = asyncio.create_task(notifier.run())
        while len(rounds) < 5 or notifier.outage.down:  # four rounds find the database down, the fifth back
            await asyncio.sleep(0.01)
        task.cancel()

    with caplog.at_level(logging.WARNING, "kingisdead.web"):
        asyncio.run(some_rounds())
    said = [record.message for record in caplog.records if "notifications" in record.message]
    assert len(said) == 2 and "unavailable" in said[0] and "back after" in said[1]


def test_a_vapid_key_readable_by_others_is_refused_in_one_line(tmp_path: Path):
    generate_keys(tmp_path / "vapid.pem")
    (tmp_path / "vapid.pem").chmod(0o644)
    with pytest.raises(ValueError, match=r"chmod 600 .*vapid\.pem$"):
        PushSettings(tmp_path / "vapid.pem")
    (tmp_path / "vapid.pem").chmod(0o600)
    assert PushSettings(tmp_path / "vapid.pem").enabled


def test_the_vapid_signature_names_the_endpoints_origin_for_less_than_a_day(tmp_path: Path):
    public_key = generate_keys(tmp_path / "vapid.pem")
    vapid = PushSettings(tmp_path / "vapid.pem")._vapid
    header = vapid_headers(vapid, "https://push.example:8443", "mailto:ops@kid.example")["Authorization"]
    scheme, _space, params = header.partition(" ")
    fields = dict(part.strip().split("=", 1) for part in params.split(","))
    claims = json.loads(base64.urlsafe_b64decode(fields["t"].split(".")[1] + "=="))
    assert scheme == "vapid" and fields["k"] == public_key
    assert claims["aud"] == "https://push.example:8443" and claims["sub"] == "mailto:ops@kid.example"
    assert time.time() < claims["exp"] <= time.time() + 24 * 3600 and VAPID_VALID <= 24 * 3600


def test_the_settings_row_keeps_one_unsubscribe_key_per_confirmed_address(site):
    client = site.browser()
    signed_up(client)
    keys = []
    for address in ("ada@example.org", "ada@example.net"):
        confirmed(site, client, address)
        with site.notifier.engine.connect() as connection:
            keys.append(connection.execute(select(NotificationSettingsRow.unsubscribe_key)).scalar_one())
    assert client.delete("/api/account/email", headers=JSON).status_code == 200
    with site.notifier.engine.connect() as connection:
        keys.append(connection.execute(select(NotificationSettingsRow.unsubscribe_key)).scalar_one())
    assert len(set(keys)) == 3
