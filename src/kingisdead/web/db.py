"""Storage: games as their setup plus the list of moves, through SQLAlchemy.

A game is stored the way a :class:`~kingisdead.record.GameRecord` is written:
players, variant, seed and first player, then the moves in notation. Replaying
them rebuilds the exact position, so nothing else about the state is stored and
a server restart loses nothing. The unique (game, number) key on moves is the
last line of defence against two writers appending the same move number.

The schema is made and kept up to date by the Alembic migrations in
``kingisdead/web/migrations``: :func:`make_engine` applies any that are missing,
under a lock, so several processes starting at once upgrade the database once.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    UniqueConstraint,
    create_engine,
    event,
    false,
    text,
    true,
)
from sqlalchemy.engine import Connection, Engine, make_url
from sqlalchemy.pool import ConnectionPoolEntry, NullPool, StaticPool
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, relationship, sessionmaker

DEFAULT_URL = "sqlite:///kingisdead.sqlite3"
MIGRATIONS = Path(__file__).with_name("migrations")
MIGRATION_LOCK = int.from_bytes(hashlib.sha256(b"kingisdead migrations").digest()[:8], "big", signed=True)
"""The PostgreSQL advisory lock taken while migrating (any fixed 64-bit number)."""


def _now() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    pass


class GameRow(Base):
    """A game's setup and settings; its moves are :class:`MoveRow` rows."""

    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    players: Mapped[int] = mapped_column(Integer)
    variant: Mapped[str] = mapped_column(String(16))
    seed: Mapped[int] = mapped_column(BigInteger)
    bot_seed: Mapped[int] = mapped_column(BigInteger)  # secret: seeds bots, hints, analyses
    first_player: Mapped[int] = mapped_column(Integer, default=0)
    hints: Mapped[bool] = mapped_column(Boolean, default=False)
    hotseat: Mapped[bool] = mapped_column(Boolean, default=False)
    status: Mapped[str] = mapped_column(String(16), default="running", index=True)
    move_count: Mapped[int] = mapped_column(Integer, default=0)
    to_move: Mapped[int | None] = mapped_column(Integer, nullable=True)  # the seat to move; None once over
    memory: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())  # no card history shown
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    rated: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    ratings_applied: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    time_limit: Mapped[int | None] = mapped_column(Integer, nullable=True)  # seconds per move; None: no limit
    deadline: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True, index=True)
    stand_in: Mapped[str] = mapped_column(String(32), default="intermediate", server_default="intermediate")
    rematch_of: Mapped[str | None] = mapped_column(String(32), nullable=True)
    rematch: Mapped[str | None] = mapped_column(String(32), nullable=True)  # the next game's id, once made
    edition: Mapped[str] = mapped_column(String(16), default="first", server_default="first")  # editions.EDITIONS
    # the edition's options as JSON ({} the defaults): a game keeps the rules it was played under when a default changes
    options: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict, server_default=text("'{}'"))
    # "standard" or "advanced" (the second edition's secret Cunning cards: kingisdead.edition.MODES)
    mode: Mapped[str] = mapped_column(String(16), default="standard", server_default="standard")

    seats: Mapped[list[SeatRow]] = relationship(order_by="SeatRow.seat", cascade="all, delete-orphan")


class SeatRow(Base):
    """One seat: a person (authenticated by a secret token, stored hashed) or a bot."""

    __tablename__ = "seats"
    __table_args__ = (UniqueConstraint("game_id", "seat"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(8))  # "human" or "bot"
    bot: Mapped[str | None] = mapped_column(String(32), nullable=True)
    name: Mapped[str] = mapped_column(String(40))
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    claimed: Mapped[bool] = mapped_column(Boolean, default=False)
    public: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())  # offered to anyone
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True, index=True)
    away: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())  # timed out: bot plays
    left: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())  # gave up the seat for good


class MoveRow(Base):
    """One move of a game, in notation, numbered from 1."""

    __tablename__ = "moves"
    __table_args__ = (UniqueConstraint("game_id", "number"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), index=True)
    number: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    notation: Mapped[str] = mapped_column(String(80))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    stand_in: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())  # a person's, by the bot


class UserRow(Base):
    """An account: a person (name and Argon2 password hash) or a bot level (``kind`` "bot", no password)."""

    __tablename__ = "users"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(40))
    name_key: Mapped[str] = mapped_column(String(40), unique=True)  # casefolded name: one account per name
    kind: Mapped[str] = mapped_column(String(8), default="person", server_default="person")
    password_hash: Mapped[str | None] = mapped_column(String(255), nullable=True)
    language: Mapped[str | None] = mapped_column(String(8), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    allow_follow: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())  # others may follow
    seen_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)  # last request, ±1 min


class FollowRow(Base):
    """One account following another (a friend and a follow are the same thing; see web/friends.py)."""

    __tablename__ = "follows"

    follower_id: Mapped[int] = mapped_column(ForeignKey("users.id"), primary_key=True)
    followed_id: Mapped[int] = mapped_column(ForeignKey("users.id"), primary_key=True, index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)


class BlockRow(Base):
    """One account on another's block list: no follows either way, no chat (see web/friends.py)."""

    __tablename__ = "blocks"

    blocker_id: Mapped[int] = mapped_column(ForeignKey("users.id"), primary_key=True)
    blocked_id: Mapped[int] = mapped_column(ForeignKey("users.id"), primary_key=True, index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)


class ChallengeRow(Base):
    """One account inviting one to three others to a game with ``settings`` (see web/challenges.py): ``status``
    "open", "accepted" (``game_id`` the game made), "declined" or "withdrawn"; an open one past ``expires_at``
    is expired. ``challenged_id``: the first person challenged; every one, with their answers, is a
    :class:`ChallengeSeatRow`. ``new_game_id``: the id its game is made with, chosen when the last accept claims
    it (no foreign key: the game may not be made yet)."""

    __tablename__ = "challenges"
    __table_args__ = (Index("ix_challenges_challenger_status", "challenger_id", "status"),
                      Index("ix_challenges_challenged_status", "challenged_id", "status"))

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    challenger_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    challenged_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    settings: Mapped[dict[str, Any]] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(12))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    answered_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    game_id: Mapped[str | None] = mapped_column(ForeignKey("games.id"), nullable=True)
    new_game_id: Mapped[str | None] = mapped_column(String(32), nullable=True)


class ChallengeSeatRow(Base):
    """A person's seat in a challenge (seat 1 to 3; the challenger holds seat 0, bots the seats with no row) and
    their ``answer``: "open", "accepted" or "declined"."""

    __tablename__ = "challenge_seats"

    challenge_id: Mapped[int] = mapped_column(ForeignKey("challenges.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    answer: Mapped[str] = mapped_column(String(12))
    answered_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class UserSessionRow(Base):
    """A signed-in browser: the cookie holds a random secret, stored here hashed."""

    __tablename__ = "user_sessions"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)  # sha256 of the cookie's secret
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class RatingRow(Base):
    """A skill rating (OpenSkill mu and sigma) of one account for one edition and player count (4 = 2-vs-2 teams)."""

    __tablename__ = "ratings"
    __table_args__ = (UniqueConstraint("user_id", "edition", "players", name="uq_ratings_user_edition_players"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    players: Mapped[int] = mapped_column(Integer)
    edition: Mapped[str] = mapped_column(String(16), default="first", server_default="first")
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)


class RatingChangeRow(Base):
    """One finished rated game's change to one account's rating; unique per (game, account): applied once."""

    __tablename__ = "rating_changes"
    __table_args__ = (UniqueConstraint("game_id", "user_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), index=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    players: Mapped[int] = mapped_column(Integer)
    edition: Mapped[str] = mapped_column(String(16), default="first", server_default="first")
    mu_before: Mapped[float] = mapped_column(Float)
    sigma_before: Mapped[float] = mapped_column(Float)
    mu_after: Mapped[float] = mapped_column(Float)
    sigma_after: Mapped[float] = mapped_column(Float)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)


class RateHitRow(Base):
    """One counted request of a rate limit (kind, client address, when): shared by every server process of
    the site. Rows older than the longest window are deleted as new ones come."""

    __tablename__ = "rate_hits"
    __table_args__ = (Index("ix_rate_hits_kind_client_at", "kind", "client", "at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    kind: Mapped[str] = mapped_column(String(16))  # "create", "join", "bad_token", "sign_in", "sign_up"
    client: Mapped[str] = mapped_column(String(64))  # the client's address
    at: Mapped[float] = mapped_column(Float, index=True)  # seconds since the epoch


class NotificationSettingsRow(Base):
    """An account's e-mail address and what it wants to be told (see :mod:`kingisdead.web.notify`).

    ``email``: the confirmed address messages go to (confirmed at ``confirmed_at``), or None.
    ``pending_email``: a new address waiting for its confirmation link (``confirm_hash``: sha256 of the
    link's secret); nothing but that link goes to it, and ``email`` keeps working until it is confirmed.
    ``unsubscribe_key``: the secret of the one-click unsubscribe links of the confirmed address (it can only
    turn messages off, and is stored as it is so that each message can carry it); a new one with each newly
    confirmed address, and none goes to an unconfirmed one.
    """

    __tablename__ = "notification_settings"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), primary_key=True)
    email: Mapped[str | None] = mapped_column(String(254), nullable=True)
    pending_email: Mapped[str | None] = mapped_column(String(254), nullable=True, index=True)
    confirm_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    confirm_sent_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    confirmed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    unsubscribe_key: Mapped[str] = mapped_column(String(64), unique=True)
    digest: Mapped[bool] = mapped_column(Boolean, default=True)
    clock: Mapped[bool] = mapped_column(Boolean, default=True)
    ended: Mapped[bool] = mapped_column(Boolean, default=False)
    language: Mapped[str | None] = mapped_column(String(8), nullable=True)  # the page's when the address was set


class PushSubscriptionRow(Base):
    """A browser's Web Push subscription (RFC 8030 endpoint, RFC 8291 keys) for an account."""

    __tablename__ = "push_subscriptions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    endpoint: Mapped[str] = mapped_column(String(1024), unique=True)
    p256dh: Mapped[str] = mapped_column(String(128))  # the browser's public key, base64url
    auth: Mapped[str] = mapped_column(String(64))  # the shared authentication secret, base64url
    language: Mapped[str | None] = mapped_column(String(8), nullable=True)  # the page's when it subscribed
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)


class OutboxRow(Base):
    """One message to send (an e-mail or a push message), written before it is sent.

    ``key`` names what the message is about (``digest:7:2026-12-01``): the unique key makes queueing it
    idempotent across processes. A sender claims a row by setting ``claimed_until`` in one conditional
    UPDATE, sends, then marks it ``sent``; a claim whose process died expires and the row is sent then.
    ``content``: the message as composed when it was queued (in the account's language). ``recipient``:
    sha256 of an e-mail's address, casefolded (the per-address limits count it across accounts).
    """

    __tablename__ = "outbox"
    __table_args__ = (Index("ix_outbox_status_next", "status", "next_attempt_at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    key: Mapped[str] = mapped_column(String(200), unique=True)
    channel: Mapped[str] = mapped_column(String(8))  # "mail" or "push"
    kind: Mapped[str] = mapped_column(String(16))  # "confirm", "digest", "clock", "ended", "turn"
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    content: Mapped[dict[str, Any]] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(8), default="pending")  # pending, sending, sent, failed, dropped
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    next_attempt_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    claimed_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    claimed_by: Mapped[str | None] = mapped_column(String(64), nullable=True)
    error: Mapped[str | None] = mapped_column(String(500), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    sent_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    recipient: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)  # sha256 of the address


class ChatLineRow(Base):
    """One line said in a game's chat (see web/chat.py): ``room`` "seats" (its players) or "watchers";
    ``move_number`` the moves played when it was said; ``name`` the account's name then."""

    __tablename__ = "chat_lines"
    __table_args__ = (Index("ix_chat_lines_game_room_id", "game_id", "room", "id"),
                      Index("ix_chat_lines_user_created", "user_id", "created_at"))

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"))
    room: Mapped[str] = mapped_column(String(8))
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    name: Mapped[str] = mapped_column(String(40))
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)  # the author's seat in the seats' chat
    move_number: Mapped[int] = mapped_column(Integer)
    text: Mapped[str] = mapped_column(String(300))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)


class ChatReportRow(Base):
    """A chat line reported to the site's operator, by one account once (``kingisdead chat reports``)."""

    __tablename__ = "chat_reports"
    __table_args__ = (UniqueConstraint("line_id", "reporter_id", name="uq_chat_reports_line_reporter"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    line_id: Mapped[int] = mapped_column(ForeignKey("chat_lines.id"))
    reporter_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), index=True)
    move_number: Mapped[int] = mapped_column(Integer)
    reason: Mapped[str | None] = mapped_column(String(200), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)


class ChatMuteRow(Base):
    """A game whose chat an account muted: none of its lines reach that account."""

    __tablename__ = "chat_mutes"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)


class ChatSettingsRow(Base):
    """An account's chat: ``off`` in all its games (its choice), ``timeout_until`` (an operator's time-out)."""

    __tablename__ = "chat_settings"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), primary_key=True)
    off: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    timeout_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class TournamentRow(Base):
    """A turn-based Swiss tournament (see web/tournaments.py): its games' settings, ``rounds`` to play,
    ``points`` ``{"win", "shared", "loss"}``; ``status`` "open" (taking entries until ``starts_at``), "running"
    (``round`` the last paired), "finished" or "cancelled"; ``seed`` seeds each round's draw of seats."""

    __tablename__ = "tournaments"
    __table_args__ = (Index("ix_tournaments_status_starts_at", "status", "starts_at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    creator_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    name: Mapped[str] = mapped_column(String(60))
    edition: Mapped[str] = mapped_column(String(16))
    variant: Mapped[str] = mapped_column(String(16))
    mode: Mapped[str] = mapped_column(String(16))
    players: Mapped[int] = mapped_column(Integer)
    time_limit: Mapped[int] = mapped_column(Integer)  # seconds per move
    rounds: Mapped[int] = mapped_column(Integer)
    points: Mapped[dict[str, int]] = mapped_column(JSON)
    starts_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    entry_limit: Mapped[int] = mapped_column(Integer)
    rating_floor: Mapped[float | None] = mapped_column(Float, nullable=True)
    rated: Mapped[bool] = mapped_column(Boolean)
    round_days: Mapped[int] = mapped_column(Integer)
    stand_in: Mapped[str] = mapped_column(String(32))
    seed: Mapped[int] = mapped_column(BigInteger)
    status: Mapped[str] = mapped_column(String(12))
    round: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class TournamentEntryRow(Base):
    """An account entered in a tournament, with the rating it was entered with (its shown rating for the
    tournament's edition and player count, 0 when none; refreshed at the start); ``withdrawn_at`` once it left
    (after the start: it is paired no more)."""

    __tablename__ = "tournament_entries"

    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), primary_key=True, index=True)
    entered_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    rating: Mapped[float] = mapped_column(Float)
    withdrawn_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class TournamentRoundRow(Base):
    """One paired round: inserted in the pairing's transaction with its tables, so a round is paired once (a
    second pairer's insert of the same key fails)."""

    __tablename__ = "tournament_rounds"

    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    round: Mapped[int] = mapped_column(Integer, primary_key=True)
    paired_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    deadline: Mapped[datetime] = mapped_column(DateTime(timezone=True))  # its games are adjudicated then
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class TournamentTableRow(Base):
    """One table of a round: ``seats`` the account ids in seat order, ``game_id`` chosen at pairing (the game
    is made with it, perhaps by a later pass); ``counted_at`` once its result's points are stored (once)."""

    __tablename__ = "tournament_tables"

    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    round: Mapped[int] = mapped_column(Integer, primary_key=True)
    table: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[str] = mapped_column(String(32), unique=True)
    seats: Mapped[list[int]] = mapped_column(JSON)
    first_player: Mapped[int] = mapped_column(Integer)
    adjudicated: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    counted_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class TournamentResultRow(Base):
    """The points one entrant scored in one round (a game's place, or a bye)."""

    __tablename__ = "tournament_results"

    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), primary_key=True)
    round: Mapped[int] = mapped_column(Integer, primary_key=True)
    points: Mapped[int] = mapped_column(Integer)
    bye: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())


def normalise_url(url: str) -> str:
    """Plain ``postgresql://`` URLs (as hosting services hand them out) use the psycopg 3 driver."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


def make_engine(url: str) -> Engine:
    """An engine for ``url``, its database upgraded to the latest schema (:func:`upgrade`).

    SQLite gets WAL mode and a busy timeout for concurrent access (30 s; the URL's ``?timeout=N`` sets another);
    a new database file is created readable by its owner only (0600), and SQLite gives its -wal and -shm
    files the database file's mode. An in-memory SQLite database (``sqlite://``, ``sqlite:///:memory:``) lives
    in one connection, which every thread shares one at a time (:class:`OneConnection`); it is gone when
    the engine is disposed. A statement's parameters (password
    hashes, token hashes) never appear in its errors, so never in a logged traceback. Raises
    SQLAlchemy's ``OperationalError`` when the database cannot be reached.
    """
    url = normalise_url(url)
    if url.startswith("sqlite"):
        _private_file(make_url(url).database)
        waits = {} if "timeout=" in url else {"timeout": 30}  # seconds a writer waits for the lock; ?timeout=N
        # Each connection to ":memory:" is a database of its own: one connection must serve every thread.
        pool = {"poolclass": OneConnection} if in_memory(url) else {}
        engine = create_engine(url, connect_args={"check_same_thread": False, **waits}, hide_parameters=True, **pool)

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(connection: Any, _record: Any) -> None:
            cursor = connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()
    else:
        engine = create_engine(url, pool_pre_ping=True, hide_parameters=True)
    upgrade(engine)
    return engine


def in_memory(url: str) -> bool:
    """Whether ``url`` names an in-memory SQLite database (no file, or ``:memory:``, or a ``mode=memory`` URI)."""
    parsed = make_url(url)
    database = parsed.database or ""
    return parsed.get_backend_name() == "sqlite" and (
        database in ("", ":memory:") or parsed.query.get("mode") == "memory" or "mode=memory" in database)


class OneConnection(StaticPool):
    """The single connection of an in-memory SQLite database, lent to one thread at a time.

    SQLite keeps a transaction per connection: two threads sharing one at once would each commit or roll back
    the other's statements, so a thread that asks while another holds it waits. The same thread may take it
    again (a session opened inside another's transaction shares it, as with any StaticPool).
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._turn = threading.RLock()

    def recreate(self) -> OneConnection:
        pool = super().recreate()
        assert isinstance(pool, OneConnection)
        return pool

    def _do_get(self) -> ConnectionPoolEntry:
        self._turn.acquire()
        try:
            return super()._do_get()
        except BaseException:
            self._turn.release()
            raise

    def _do_return_conn(self, record: ConnectionPoolEntry) -> None:
        super()._do_return_conn(record)
        self._turn.release()


def _private_file(database: str | None) -> None:
    """Create a SQLite database file (and its migration lock) that does not exist yet with mode 0600: it holds
    password and session hashes, and the machine's other users have no business reading them. An existing
    file keeps its mode."""
    if not database or database == ":memory:" or database.startswith("file:"):
        return
    for path in (database, database + ".migrate-lock"):
        try:
            os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
        except FileExistsError:
            pass


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Apply the migrations up to ``revision`` that the database lacks; safe when processes race.

    PostgreSQL: the migration runs in one transaction holding an advisory lock.
    SQLite file: an exclusive lock on ``<file>.migrate-lock`` beside it, and a
    connection of its own without foreign key checks (Alembic rebuilds SQLite
    tables to alter them).
    """
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))

    def run(connection: Connection) -> None:
        config.attributes["connection"] = connection
        command.upgrade(config, revision)

    database = engine.url.database
    if engine.dialect.name == "sqlite" and database and database != ":memory:" and not database.startswith("file:"):
        with _file_lock(Path(database + ".migrate-lock")):
            own = create_engine(engine.url, poolclass=NullPool, hide_parameters=True)
            try:
                with own.begin() as connection:
                    run(connection)
            finally:
                own.dispose()
        return
    with engine.begin() as connection:
        if engine.dialect.name == "postgresql":
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
        run(connection)


@contextmanager
def _file_lock(path: Path) -> Iterator[None]:
    with open(path, "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def make_sessions(engine: Engine) -> sessionmaker[Session]:
    return sessionmaker(engine, expire_on_commit=False)
