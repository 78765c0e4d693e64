"""The outbox: every e-mail and push message is a row written before it is sent, sent once.

This is the transactional outbox pattern (Richardson, *Microservices Patterns*, ch. 3): a
message is first stored (:func:`queue`) under a unique key naming what it is about, so that
any number of processes finding the same thing to say store it once; then a sender claims it
with one conditional UPDATE (:func:`claim`: only one process wins; the row is then ``sending``),
hands it over, and marks it sent (:func:`finish`). A process killed mid-round leaves its claims
behind; they expire after the lease and the rows are sent then, so nothing is lost. A message
counts as sent when the server accepted it; when that outcome cannot be written (the database
stopped meanwhile) the sender keeps it in memory and writes it once the database is back, without
sending again. The only window for a repeat is a process killed between the server's acceptance
and that write, and a repeat then carries the same Message-ID (mailboxes drop it).

Each message has :data:`ATTEMPTS` tries, spaced by :func:`backoff`; then it is ``failed``.

The functions take an Engine and touch the database: call them from a worker thread.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import or_, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection, Engine, Row

from .db import OutboxRow

MAX_BACKOFF = timedelta(hours=1)
"""The longest wait between two attempts at one message."""
ATTEMPTS = 8
"""Tries at one message before it is failed for good (with a 30 s round: 30 s, 1, 2, 4, 8, 16, 32 min apart)."""
WAITING = ("pending", "sending")
"""The states of a message still to send; ``sending``: claimed and perhaps being handed over."""


@dataclass(frozen=True)
class Message:
    """A message to queue: ``key`` unique (what it is about), ``channel`` "mail" or "push", ``kind`` (confirm,
    digest, clock, ended, turn), the account, ``content`` (JSON: the composed message) and for an e-mail
    ``recipient`` (:func:`recipient`)."""

    key: str
    channel: str
    kind: str
    user_id: int
    content: dict[str, Any]
    recipient: str | None = None


def recipient(address: str) -> str:
    """What the outbox keeps of an e-mail address to count messages to it: sha256 of it casefolded."""
    return hashlib.sha256(address.strip().casefold().encode()).hexdigest()


def queue(connection: Connection, messages: list[Message], now: datetime | None = None) -> int:
    """Store ``messages`` in the outbox in the caller's transaction; one whose key is already there is
    skipped (INSERT ... ON CONFLICT DO NOTHING). Returns how many were new."""
    if not messages:
        return 0
    now = now or datetime.now(UTC)
    insert = postgresql.insert if connection.dialect.name == "postgresql" else sqlite.insert
    rows = [{"key": m.key, "channel": m.channel, "kind": m.kind, "user_id": m.user_id, "content": m.content,
             "recipient": m.recipient, "status": "pending", "attempts": 0, "next_attempt_at": now, "created_at": now} for m in messages]
    result = connection.execute(insert(OutboxRow).on_conflict_do_nothing(index_elements=["key"]), rows)
    return max(result.rowcount, 0)


def known(connection: Connection, keys: list[str]) -> set[str]:
    """Those of ``keys`` already in the outbox (to skip composing messages that exist)."""
    found: set[str] = set()
    for start in range(0, len(keys), 500):
        found.update(connection.scalars(select(OutboxRow.key).where(OutboxRow.key.in_(keys[start:start + 500]))))
    return found


def due(engine: Engine, now: datetime, limit: int) -> list[tuple[int, str]]:
    """(id, channel) of pending messages whose time has come and that no live claim holds, oldest first."""
    with engine.connect() as connection:
        return [(row.id, row.channel) for row in connection.execute(
            select(OutboxRow.id, OutboxRow.channel)
            .where(OutboxRow.status.in_(WAITING), OutboxRow.next_attempt_at <= now,
                   or_(OutboxRow.claimed_until.is_(None), OutboxRow.claimed_until < now))
            .order_by(OutboxRow.id).limit(limit))]


def claim(engine: Engine, message_id: int, claimer: str, now: datetime, lease: timedelta) -> Row[Any] | None:
    """Claim one message for ``lease`` and mark it ``sending``; the row if this call won it, None if another
    process has it or it is no longer waiting. One conditional UPDATE: of racing processes exactly one wins."""
    with engine.begin() as connection:
        won = connection.execute(
            update(OutboxRow)
            .where(OutboxRow.id == message_id, OutboxRow.status.in_(WAITING),
                   or_(OutboxRow.claimed_until.is_(None), OutboxRow.claimed_until < now))
            .values(status="sending", claimed_until=now + lease, claimed_by=claimer,
                    attempts=OutboxRow.attempts + 1)).rowcount
        if won != 1:
            return None
        return connection.execute(select(*OutboxRow.__table__.columns).where(OutboxRow.id == message_id)).one()


def finish(engine: Engine, message_id: int, claimer: str, status: str, now: datetime,
           error: str | None = None, retry_after: timedelta | None = None, counted: bool = True) -> None:
    """End a claim: ``status`` "sent", "failed" (refused for good) or "dropped" (no longer wanted), or
    "pending" again to retry after ``retry_after``; ``counted`` False gives the attempt back (the server
    was unreachable: the message itself was not tried). Only the claim's holder can end it."""
    values: dict[str, Any] = {"status": status, "claimed_until": None, "error": error[:500] if error else None}
    if status == "sent":
        values["sent_at"] = now
    if status == "pending":
        values["next_attempt_at"] = now + (retry_after or timedelta(0))
    if not counted:
        values["attempts"] = OutboxRow.attempts - 1
    with engine.begin() as connection:
        connection.execute(update(OutboxRow).where(OutboxRow.id == message_id, OutboxRow.claimed_by == claimer)
                           .values(**values))


def last_mail(connection: Connection, user_id: int) -> Row[Any] | None:
    """The account's last e-mail that was sent or failed for good (its status, error, content, when)."""
    return connection.execute(
        select(OutboxRow.status, OutboxRow.error, OutboxRow.content, OutboxRow.created_at)
        .where(OutboxRow.user_id == user_id, OutboxRow.channel == "mail", OutboxRow.status.in_(("sent", "failed")))
        .order_by(OutboxRow.id.desc()).limit(1)).first()


def backoff(attempts: int, base: timedelta) -> timedelta:
    """The wait after failed attempt number ``attempts`` (1, 2, ...): ``base`` doubled each time, at most
    :data:`MAX_BACKOFF`."""
    return min(base * 2 ** min(max(attempts - 1, 0), 20), MAX_BACKOFF)
