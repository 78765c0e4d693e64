"""The outbox: every e-mail and push message is a row written before it is sent, sent once.

This is the transactional outbox pattern (Richardson, *Microservices Patterns*, ch. 3): a
message is first stored (:func:`queue`) under a unique key naming what it is about, so that
any number of processes finding the same thing to say store it once; then a sender claims it
with one conditional UPDATE (:func:`claim`: only one process wins), hands it over, and marks
it sent (:func:`finish`). A process killed mid-round leaves its claims behind; they expire
after the lease and the rows are sent then, so nothing is lost. A message counts as sent when
the server accepted it; the only window for a repeat is between that acceptance and the
UPDATE after it, and a repeat then carries the same Message-ID (mailboxes drop it).

The functions take an Engine and touch the database: call them from a worker thread.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import or_, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection, Engine, Row

from .db import OutboxRow

MAX_BACKOFF = timedelta(hours=1)
"""The longest wait between two attempts at one message."""


@dataclass(frozen=True)
class Message:
    """A message to queue: ``key`` unique (what it is about), ``channel`` "mail" or "push", ``kind`` (confirm,
    digest, clock, ended, turn), the account, and ``content`` (JSON: the composed message)."""

    key: str
    channel: str
    kind: str
    user_id: int
    content: dict[str, Any]


def queue(connection: Connection, messages: list[Message], now: datetime | None = None) -> int:
    """Store ``messages`` in the outbox in the caller's transaction; one whose key is already there is
    skipped (INSERT ... ON CONFLICT DO NOTHING). Returns how many were new."""
    if not messages:
        return 0
    now = now or datetime.now(UTC)
    insert = postgresql.insert if connection.dialect.name == "postgresql" else sqlite.insert
    rows = [{"key": m.key, "channel": m.channel, "kind": m.kind, "user_id": m.user_id, "content": m.content,
             "status": "pending", "attempts": 0, "next_attempt_at": now, "created_at": now} for m in messages]
    result = connection.execute(insert(OutboxRow).on_conflict_do_nothing(index_elements=["key"]), rows)
    return max(result.rowcount, 0)


def known(connection: Connection, keys: list[str]) -> set[str]:
    """Those of ``keys`` already in the outbox (to skip composing messages that exist)."""
    found: set[str] = set()
    for start in range(0, len(keys), 500):
        found.update(connection.scalars(select(OutboxRow.key).where(OutboxRow.key.in_(keys[start:start + 500]))))
    return found


def due(engine: Engine, now: datetime, limit: int) -> list[int]:
    """Ids of pending messages whose time has come and that no live claim holds, oldest first."""
    with engine.connect() as connection:
        return list(connection.scalars(
            select(OutboxRow.id)
            .where(OutboxRow.status == "pending", OutboxRow.next_attempt_at <= now,
                   or_(OutboxRow.claimed_until.is_(None), OutboxRow.claimed_until < now))
            .order_by(OutboxRow.id).limit(limit)))


def claim(engine: Engine, message_id: int, claimer: str, now: datetime, lease: timedelta) -> Row[Any] | None:
    """Claim one message for ``lease``; the row if this call won it, None if another process has it or it
    is no longer pending. One conditional UPDATE: of racing processes exactly one wins."""
    with engine.begin() as connection:
        won = connection.execute(
            update(OutboxRow)
            .where(OutboxRow.id == message_id, OutboxRow.status == "pending",
                   or_(OutboxRow.claimed_until.is_(None), OutboxRow.claimed_until < now))
            .values(claimed_until=now + lease, claimed_by=claimer, attempts=OutboxRow.attempts + 1)).rowcount
        if won != 1:
            return None
        return connection.execute(select(*OutboxRow.__table__.columns).where(OutboxRow.id == message_id)).one()


def finish(engine: Engine, message_id: int, claimer: str, status: str, now: datetime,
           error: str | None = None, retry_after: timedelta | None = None) -> None:
    """End a claim: ``status`` "sent", "failed" (refused for good) or "dropped" (no longer wanted), or
    "pending" again to retry after ``retry_after``. Only the claim's holder can end it."""
    values: dict[str, Any] = {"status": status, "claimed_until": None, "error": error[:500] if error else None}
    if status == "sent":
        values["sent_at"] = now
    if status == "pending":
        values["next_attempt_at"] = now + (retry_after or timedelta(0))
    with engine.begin() as connection:
        connection.execute(update(OutboxRow).where(OutboxRow.id == message_id, OutboxRow.claimed_by == claimer)
                           .values(**values))


def backoff(attempts: int, base: timedelta) -> timedelta:
    """The wait after failed attempt number ``attempts`` (1, 2, ...): ``base`` doubled each time, at most
    :data:`MAX_BACKOFF`."""
    return min(base * 2 ** min(max(attempts - 1, 0), 20), MAX_BACKOFF)
