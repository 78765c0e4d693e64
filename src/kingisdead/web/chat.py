"""Chat: one chat per game for its seats, another for its watchers, with the moderation a public site needs.

Every line is plain text a person typed (at most :data:`MAX_TEXT` characters, no control character), said by a
signed-in account: guests read and never write, bots say nothing, and nothing from the engine is ever added
(the advanced game's secret cards stay secret). The seats' chat (``room`` "seats") is read by the game's seats
alone, all of them (in a 4-player game the partners have no chat of their own: the rulebook forbids them to
discuss tactics privately); the watchers' chat (``room`` "watchers") by anyone, a seat only once it opens it,
and written by accounts holding no seat of the game.

Lines are stored (``chat_lines``) and reach the game's sockets on every server process: the process that
stores a line tells its own sockets, and announces it on the moves' PostgreSQL channel (:mod:`.pubsub`) in
the transaction that stores it, so the other processes read it back and tell theirs (:meth:`Chat.catch_up`).
Each socket is told only what its reader may read: no line of a person blocked either way
(:func:`.friends.blocked_between`, the ``blocks`` table), none in a game the reader muted or while its chat is
off. docs/web.md, "Chat", describes the messages and routes.
"""

from __future__ import annotations

import asyncio
import hashlib
import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from fastapi import WebSocket
from limits import parse
from sqlalchemy import delete, func, select, text as sql
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from . import pubsub
from .accounts import account_name
from .db import ChatLineRow, ChatMuteRow, ChatReportRow, ChatSettingsRow, UserRow
from .errors import GameError
from .friends import blocked_among, blocked_between
from .i18n import _
from .live import Hub
from .live_game import LiveGame
from .security import RateLimited
from .service import GameService

ROOMS = ("seats", "watchers")
"""The chats of a game: its seats' and its watchers'."""
MAX_TEXT = 300
"""Characters in one line at most (after surrounding spaces are dropped)."""
MAX_REASON = 200
"""Characters in a report's reason at most."""
HISTORY = 200
"""Lines of one chat sent at most when it is opened (the latest)."""
LIMIT = parse("5 per 10 seconds")
"""Lines one account may say, over all games and processes (counted from the stored lines)."""
LONGEST_TIMEOUT = 60 * 24 * 365
"""Minutes: the longest time-out an operator may give."""

LINE = r"^[^\x00-\x1f\x7f-\x9f]*[^\x00-\x20\x7f-\x9f][^\x00-\x1f\x7f-\x9f]*$"
"""A line's text: :data:`.security.PRINTABLE` with something besides spaces (the schema's pattern says the same)."""
_line = re.compile(LINE)


@dataclass
class Reader:
    """One socket reading a game's chat: its account (None: a guest), its seat as the socket's route keeps it
    (a one-item list, changed when the socket authenticates), and whether a seat opened the watchers' chat."""

    user_id: int | None
    seat: list[int | None]
    watchers_open: bool = False

    def reads(self, room: str) -> bool:
        """Whether this socket reads ``room`` (its mutes and blocks aside)."""
        seated = self.seat[0] is not None
        return seated if room == "seats" else (not seated or self.watchers_open)


def line_view(row: ChatLineRow) -> dict[str, Any]:
    """A line as the API and the socket show it: ``{"id", "room", "name", "seat", "move_number", "text", "at"}``
    (``seat`` null in the watchers' chat; ``at`` ISO 8601 UTC)."""
    return {"id": row.id, "room": row.room, "name": row.name, "seat": row.seat, "move_number": row.move_number,
            "text": row.text, "at": _utc(row.created_at).isoformat(timespec="seconds")}


def _utc(when: datetime) -> datetime:
    """SQLite gives back naive times (stored in UTC)."""
    return when if when.tzinfo is not None else when.replace(tzinfo=UTC)


def checked_room(room: Any) -> str:
    """``room`` if it names a chat, else 422 ``invalid_request``."""
    if room not in ROOMS:
        raise GameError(422, "invalid_request", _("a chat's room is 'seats' or 'watchers'"))
    return str(room)


def checked_text(text: Any) -> str:
    """A line as it will be stored: surrounding spaces dropped; 422 ``invalid_request`` if it is not text, is
    empty or only spaces, longer than :data:`MAX_TEXT` or holds a control character (a line break would forge
    a line)."""
    if not isinstance(text, str):
        raise GameError(422, "invalid_request", _("a chat line needs 'text'"))
    if not text.strip(" "):
        raise GameError(422, "invalid_request", _("a chat line cannot be empty"))
    if len(text) > MAX_TEXT:
        raise GameError(422, "invalid_request", _("a chat line is at most {limit} characters", limit=MAX_TEXT))
    if not _line.match(text):
        raise GameError(422, "invalid_request", _("a chat line cannot hold control characters"))
    return text.strip(" ")


class Chat:
    """The games' chats: stores and checks lines, and tells each socket of this process the lines it may read.

    The storing methods touch the database: call them from a worker thread. ``join``, ``leave`` and
    ``open_watchers`` run on the event loop, as do :meth:`tell` and :meth:`catch_up`.
    """

    def __init__(self, service: GameService, hub: Hub) -> None:
        self.service, self.hub = service, hub
        self._readers: dict[str, dict[WebSocket, Reader]] = {}

    # -- the sockets of this process ------------------------------------------------------------------

    def join(self, game_id: str, socket: WebSocket, user_id: int | None, seat: list[int | None]) -> None:
        """A socket of the game reads its chat from now on (``seat``: the route's one-item list)."""
        self._readers.setdefault(game_id, {})[socket] = Reader(user_id, seat)

    def leave(self, game_id: str, socket: WebSocket) -> None:
        readers = self._readers.get(game_id, {})
        readers.pop(socket, None)
        if not readers:
            self._readers.pop(game_id, None)

    def open_watchers(self, game_id: str, socket: WebSocket, opened: bool) -> None:
        """A seat's socket opens (or closes) the watchers' chat: it is told their lines while it is open."""
        reader = self._readers.get(game_id, {}).get(socket)
        if reader is not None:
            reader.watchers_open = opened

    async def tell(self, game_id: str, line: dict[str, Any], author_id: int) -> None:
        """Queue ``{"type": "chat", "line": line}`` for every socket of the game here that may read it."""
        listening = [(socket, reader) for socket, reader in self._readers.get(game_id, {}).items()
                     if reader.reads(line["room"])]
        if not listening:
            return
        cached = self.service.cached(game_id)
        game = cached if cached is not None else await asyncio.to_thread(self.service.get, game_id)

        def account(reader: Reader) -> int | None:  # a seat's socket by token: the account holding the seat
            seat = reader.seat[0]
            if reader.user_id is not None or seat is None or seat >= len(game.owners):
                return reader.user_id
            return game.owners[seat]

        accounts = {socket: account(reader) for socket, reader in listening}
        deaf = await asyncio.to_thread(self._deaf, game_id, author_id, {a for a in accounts.values() if a is not None})
        for socket, _reader in listening:
            if accounts[socket] not in deaf:
                self.hub.tell(game_id, socket, {"type": "chat", "line": line})

    async def catch_up(self, game_id: str, line_id: int) -> None:
        """Another process stored a line: tell this process's sockets of the game (nothing if none watch it)."""
        if game_id not in self._readers:
            return
        found = await asyncio.to_thread(self._line, line_id)
        if found is not None and found[0] == game_id:
            await self.tell(game_id, found[1], found[2])

    def _line(self, line_id: int) -> tuple[str, dict[str, Any], int] | None:
        with self.service.sessions() as session:
            row = session.get(ChatLineRow, line_id)
            return None if row is None else (row.game_id, line_view(row), row.user_id)

    def _deaf(self, game_id: str, author_id: int, accounts: set[int]) -> set[int]:
        """Of ``accounts``, those who must not read a line of ``author_id`` in this game: they muted it, their chat
        is off, or a block stands between them and the author (three queries, however many read)."""
        if not accounts:
            return set()
        with self.service.sessions() as session:
            muted = session.scalars(select(ChatMuteRow.user_id).where(
                ChatMuteRow.game_id == game_id, ChatMuteRow.user_id.in_(accounts))).all()
            off = session.scalars(select(ChatSettingsRow.user_id).where(
                ChatSettingsRow.off.is_(True), ChatSettingsRow.user_id.in_(accounts))).all()
            return {*muted, *off, *blocked_among(session, author_id, accounts)}

    # -- storing and reading (worker threads) --------------------------------------------------------------

    def say(self, game: LiveGame, user: UserRow, room: Any, text: Any) -> dict[str, Any]:
        """Store a line of ``user`` in the game's ``room`` (checked: a room's name, a line's text, as they came
        from a socket or a request); the line (:func:`line_view`).

        401 ``sign_in_required`` without an account (guests read only); 403 ``not_seated`` for the seats' chat
        by an account holding no seat, ``seated`` for the watchers' chat by one holding a seat, ``chat_off``
        while the account's chat is off or it muted this game, ``chat_timeout`` while an operator's time-out
        runs; 422 for a bad room or text; 429 ``rate_limited`` over :data:`LIMIT`.
        """
        room, text = checked_room(room), checked_text(text)
        if user.kind != "person":
            raise GameError(403, "not_a_person", _("bots say nothing"))
        seat = self.service.account_seat(game, user.id)
        if room == "seats" and seat is None:
            raise GameError(403, "not_seated", _("only the game's players write in the players' chat"))
        if room == "watchers" and seat is not None:
            raise GameError(403, "seated", _("players write in the players' chat, not the watchers'"))
        now = datetime.now(UTC)
        with self.service.sessions() as session, session.begin():
            if self.service.engine.dialect.name == "postgresql":  # one line of an account at a time: counted right
                session.execute(sql("SELECT pg_advisory_xact_lock(:key)"), {"key": _lock_key(user.id)})
            self._check_allowed(session, user.id, game.id, now)
            self._check_rate(session, user.id, now)
            row = ChatLineRow(game_id=game.id, room=room, user_id=user.id, name=user.name,
                              seat=seat if room == "seats" else None, move_number=len(game.snapshot.moves),
                              text=text, created_at=now)
            session.add(row)
            session.flush()
            pubsub.publish_chat(session.connection(), game.id, row.id)
            return line_view(row)

    @staticmethod
    def _check_allowed(session: Session, user_id: int, game_id: str, now: datetime) -> None:
        settings = session.get(ChatSettingsRow, user_id)
        if settings is not None and settings.timeout_until is not None and _utc(settings.timeout_until) > now:
            until = _utc(settings.timeout_until).isoformat(timespec="minutes")
            raise GameError(403, "chat_timeout", _("you are timed out of the chat until {until} (UTC)", until=until))
        if (settings is not None and settings.off) or session.get(ChatMuteRow, (user_id, game_id)) is not None:
            raise GameError(403, "chat_off", _("your chat is off here: turn it on to write"))

    @staticmethod
    def _check_rate(session: Session, user_id: int, now: datetime) -> None:
        window = timedelta(seconds=LIMIT.get_expiry())
        count, oldest = session.execute(select(func.count(), func.min(ChatLineRow.created_at)).where(
            ChatLineRow.user_id == user_id, ChatLineRow.created_at > now - window)).one()
        if count >= LIMIT.amount:
            wait = max(1, int((_utc(oldest) + window - now).total_seconds() + 0.999))
            raise RateLimited(wait, _("too many chat lines (limit {limit}); the next in {wait} s",
                                      limit=str(LIMIT), wait=wait))

    def lines(self, game: LiveGame, room: str, reader: int | None, limit: int = HISTORY) -> list[dict[str, Any]]:
        """The latest ``limit`` lines of the game's ``room`` in order, without those of anyone blocked either way
        with account ``reader``, or none at all when ``reader`` muted the game or turned its chat off. Who may
        read the room is the caller's check."""
        with self.service.sessions() as session:
            if reader is not None and self.muted(session, reader, game.id):
                return []
            rows = session.scalars(select(ChatLineRow).where(ChatLineRow.game_id == game.id, ChatLineRow.room == room)
                                   .order_by(ChatLineRow.id.desc()).limit(limit)).all()
            authors = {row.user_id for row in rows} - {reader}
            apart = blocked_among(session, reader, authors) if reader is not None else set()
            return [line_view(row) for row in reversed(rows) if row.user_id not in apart]

    @staticmethod
    def muted(session: Session, user_id: int, game_id: str) -> bool:
        """Whether the account hears no chat in this game (it muted the game, or its chat is off)."""
        settings = session.get(ChatSettingsRow, user_id)
        return bool(settings is not None and settings.off) or session.get(ChatMuteRow, (user_id, game_id)) is not None

    def state(self, game_id: str | None, user_id: int) -> dict[str, Any]:
        """The account's chat: ``{"off", "timeout_until"}``, and ``"muted"`` for a game (``off``: all its games;
        ``timeout_until``: ISO time, or null when no time-out runs)."""
        with self.service.sessions() as session:
            settings = session.get(ChatSettingsRow, user_id)
            muted = game_id is not None and session.get(ChatMuteRow, (user_id, game_id)) is not None
        until = None if settings is None or settings.timeout_until is None else _utc(settings.timeout_until)
        state = {"off": bool(settings is not None and settings.off),
                 "timeout_until": None if until is None or until <= datetime.now(UTC) else
                 until.isoformat(timespec="minutes")}
        return state if game_id is None else {**state, "muted": muted}

    def mute(self, game_id: str, user_id: int, muted: bool) -> None:
        """Mute (or hear again) the chat of one game for one account; kept."""
        with self.service.sessions() as session, session.begin():
            session.execute(delete(ChatMuteRow).where(ChatMuteRow.user_id == user_id, ChatMuteRow.game_id == game_id))
            if muted:
                session.add(ChatMuteRow(user_id=user_id, game_id=game_id))

    def switch(self, user_id: int, off: bool) -> None:
        """Turn the account's chat off (or on) in all its games; kept."""
        with self.service.sessions() as session, session.begin():
            settings = session.get(ChatSettingsRow, user_id)
            if settings is None:
                session.add(ChatSettingsRow(user_id=user_id, off=off))
            else:
                settings.off = off

    def report(self, game: LiveGame, line_id: int, user_id: int, reason: str | None, seat: int | None) -> bool:
        """Report a line of the game for the operator, once per account (True if new, False if reported before).
        404 ``no_such_line`` for a line of another game, or one the reporter cannot read (the seats' chat when
        ``seat`` is None; a line of someone blocked either way)."""
        with self.service.sessions() as session, session.begin():
            line = session.get(ChatLineRow, line_id)
            if (line is None or line.game_id != game.id or (line.room == "seats" and seat is None)
                    or (line.user_id != user_id and blocked_between(session, user_id, line.user_id))):
                raise GameError(404, "no_such_line", _("this game's chat has no such line"))
            if session.scalar(select(ChatReportRow.id).where(ChatReportRow.line_id == line_id,
                                                             ChatReportRow.reporter_id == user_id)) is not None:
                return False
            try:
                with session.begin_nested():
                    session.add(ChatReportRow(line_id=line_id, reporter_id=user_id, game_id=game.id,
                                              move_number=line.move_number, reason=reason))
            except IntegrityError:  # the same report, sent twice at once
                return False
            return True


def _lock_key(user_id: int) -> int:
    """The PostgreSQL advisory lock (a signed 64-bit number) of one account's chat lines."""
    return int.from_bytes(hashlib.sha256(f"kingisdead chat {user_id}".encode()).digest()[:8], "big", signed=True)


def record_chat(service: GameService, game: LiveGame, reader: int | None) -> list[dict[str, Any]]:
    """The seats' chat as a seat's record holds it: every line (those of a person blocked either way with
    ``reader`` left out), each ``{"move_number", "seat", "name", "text", "at"}``."""
    with service.sessions() as session:
        if reader is not None and Chat.muted(session, reader, game.id):
            return []
        rows = session.scalars(select(ChatLineRow).where(ChatLineRow.game_id == game.id, ChatLineRow.room == "seats")
                               .order_by(ChatLineRow.id)).all()
        apart = {a for a in {row.user_id for row in rows} - {reader}
                 if reader is not None and blocked_between(session, reader, a)}
        return [{key: value for key, value in line_view(row).items() if key not in ("id", "room")}
                for row in rows if row.user_id not in apart]


# -- the operator's commands (kingisdead chat ...) -----------------------------------------------------------

def reports(session: Session, limit: int = 100) -> list[dict[str, Any]]:
    """The latest ``limit`` reports, newest first: ``{"reported_at", "game_id", "move_number", "room", "author",
    "text", "reporter", "reason", "reports"}`` (``reports``: how many accounts reported that line)."""
    author, reporter = UserRow.__table__.alias("author"), UserRow.__table__.alias("reporter")
    counts = (select(ChatReportRow.line_id, func.count().label("n")).group_by(ChatReportRow.line_id).subquery())
    rows = session.execute(
        select(ChatReportRow.created_at, ChatReportRow.game_id, ChatReportRow.move_number, ChatLineRow.room,
               author.c.name, ChatLineRow.text, reporter.c.name, ChatReportRow.reason, counts.c.n)
        .join(ChatLineRow, ChatLineRow.id == ChatReportRow.line_id)
        .join(author, author.c.id == ChatLineRow.user_id)
        .join(reporter, reporter.c.id == ChatReportRow.reporter_id)
        .join(counts, counts.c.line_id == ChatReportRow.line_id)
        .order_by(ChatReportRow.id.desc()).limit(limit)).all()
    keys = ("reported_at", "game_id", "move_number", "room", "author", "text", "reporter", "reason", "reports")
    return [{**dict(zip(keys, row, strict=True)), "reported_at": _utc(row[0]).isoformat(timespec="seconds")}
            for row in rows]


def time_out(session: Session, name: str, minutes: int) -> datetime | None:
    """Keep the account called ``name`` (any case) out of every chat for ``minutes`` from now (0 lifts a
    time-out); when it ends (None for 0). ValueError for no such account or minutes out of 0 to
    :data:`LONGEST_TIMEOUT`. Commits."""
    if not 0 <= minutes <= LONGEST_TIMEOUT:
        raise ValueError(f"--minutes must be from 0 to {LONGEST_TIMEOUT}, not {minutes}")
    try:
        key = account_name(name)[1]
    except GameError:
        key = None
    user = None if key is None else session.scalar(select(UserRow).where(UserRow.name_key == key))
    if user is None or user.kind != "person":
        raise ValueError(f"no account is called {name!r}")
    until = datetime.now(UTC) + timedelta(minutes=minutes) if minutes else None
    settings = session.get(ChatSettingsRow, user.id)
    if settings is None:
        session.add(ChatSettingsRow(user_id=user.id, off=False, timeout_until=until))
    else:
        settings.timeout_until = until
    session.commit()
    return until

