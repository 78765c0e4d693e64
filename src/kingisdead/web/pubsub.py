"""Moves published to every server process on one database (PostgreSQL ``LISTEN/NOTIFY``).

Each stored move is announced as ``<game id> <move number> <sender>`` on the
channel :data:`CHANNEL`, by ``pg_notify`` in the transaction that stores it, so
the notice leaves exactly when the move is committed; a chat line the same way, as
``<game id> chat:<line id> <sender>`` (:func:`publish_chat`). Every process listens
(:class:`Listener`) and hands each notice from another process to a callback,
which reloads its cached copy of the game and tells that game's watchers.

SQLite has no notifications: several processes on one SQLite file stay correct
(a process that is behind reloads before it answers "stale") but their watchers
see another process's moves only on their next reload. Run one process on SQLite.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Awaitable, Callable

from sqlalchemy import text
from sqlalchemy.engine import Connection, Engine

from .outage import Outage

CHANNEL = "kingisdead_moves"
SENDER = secrets.token_hex(6)
"""This process's name in its notices, so that it can skip its own."""

log = logging.getLogger("kingisdead.web")


def publish(connection: Connection, game_id: str, number: int) -> None:
    """Announce, on commit of ``connection``'s transaction, that the game is at move ``number`` (PostgreSQL
    only; elsewhere nothing happens)."""
    if connection.dialect.name == "postgresql":
        connection.execute(text("SELECT pg_notify(:channel, :payload)"),
                           {"channel": CHANNEL, "payload": f"{game_id} {number} {SENDER}"})


def publish_chat(connection: Connection, game_id: str, line_id: int) -> None:
    """Announce, on commit of ``connection``'s transaction, the game's new chat line ``line_id`` (PostgreSQL
    only)."""
    if connection.dialect.name == "postgresql":
        connection.execute(text("SELECT pg_notify(:channel, :payload)"),
                           {"channel": CHANNEL, "payload": f"{game_id} chat:{line_id} {SENDER}"})


class Listener:
    """Listens for other processes' moves and calls ``on_move(game_id, number)`` for each, and
    ``on_chat(game_id, line_id)`` for each chat line (PostgreSQL only).

    After a lost connection it reconnects (waiting longer after each failed try,
    see :class:`~.outage.Outage`) and calls ``on_reconnect()`` so the process
    can catch up on what it missed meanwhile.
    """

    def __init__(self, engine: Engine, on_move: Callable[[str, int], Awaitable[None]],
                 on_reconnect: Callable[[], Awaitable[None]],
                 on_chat: Callable[[str, int], Awaitable[None]] | None = None) -> None:
        self.enabled = engine.dialect.name == "postgresql"
        self._conninfo = engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
        self._on_move = on_move
        self._on_reconnect = on_reconnect
        self._on_chat = on_chat
        self._task: asyncio.Task[None] | None = None
        self.connected = asyncio.Event()
        self.outage = Outage("move listener")

    def start(self) -> None:
        if self.enabled and self._task is None:
            self._task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
            self._task = None

    async def _run(self) -> None:
        import psycopg

        first = True
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(self._conninfo, autocommit=True) as connection:
                    await connection.execute(f"LISTEN {CHANNEL}")
                    self.connected.set()
                    self.outage.ok()
                    if not first:
                        await self._on_reconnect()
                    first = False
                    async for notice in connection.notifies():
                        game_id, number, sender = notice.payload.split(" ")
                        if sender == SENDER:
                            continue
                        try:
                            if number.startswith("chat:"):
                                if self._on_chat is not None:
                                    await self._on_chat(game_id, int(number[5:]))
                                continue
                            await self._on_move(game_id, int(number))
                        except Exception:
                            log.exception("catching up with game %s failed", game_id)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # a lost connection: wait, listen again (logged once per outage)
                wait = self.outage.failed(exc)
            else:
                wait = self.outage.first
            self.connected.clear()
            await asyncio.sleep(wait)
