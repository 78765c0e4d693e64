"""The lobby's listing, kept for a moment: every open lobby asks for it every 5 s, and under load the
query and its ORM objects cost tens of milliseconds a time (docs/performance.md, bench_lobby.py).

A listing is kept :data:`LOBBY_TTL` seconds at most, and dropped at once when this process commits a
change that the lobby shows other than a game's progress: a game created, deleted or finished, a seat
taken, left or away (any write to ``seats``, and writes to ``games`` that set its status). Moves
only advance ``move_number`` and ``updated_at``, which may lag by up to :data:`LOBBY_TTL`; another
process's changes, too (each process keeps its own listing).
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable, Hashable
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Engine

LOBBY_TTL = 2.0
"""Seconds a listing is served from memory at most."""

_CHANGES_LOBBY = re.compile(r"^\s*(INSERT INTO (games|seats)\b|DELETE FROM (games|seats)\b|UPDATE seats\b"
                            r"|UPDATE games SET (?:(?! WHERE ).)*\bstatus\b)", re.IGNORECASE | re.DOTALL)
"""SQL statements after which the listing is rebuilt (a move's ``UPDATE games SET move_count=...`` is not)."""


class LobbyCache:
    """Listings by status for at most ``ttl`` seconds, dropped when ``engine`` commits a lobby change.

    Thread-safe. :meth:`get` returns the kept listing or builds it with ``build``.
    """

    def __init__(self, engine: Engine, ttl: float = LOBBY_TTL) -> None:
        self.ttl = ttl
        self._kept: dict[Hashable, tuple[float, int, list[dict[str, Any]]]] = {}
        self._generation = 0
        self._lock = threading.Lock()
        event.listen(engine, "after_cursor_execute", self._seen)
        event.listen(engine, "commit", self._committed)
        event.listen(engine, "rollback", self._rolled_back)

    def get(self, key: Hashable, build: Callable[[], list[dict[str, Any]]]) -> list[dict[str, Any]]:
        """The listing for ``key`` (e.g. its status and length), from memory if fresh, else ``build()``
        (then kept)."""
        now = time.monotonic()
        with self._lock:
            kept = self._kept.get(key)
            generation = self._generation
        if kept is not None and now - kept[0] < self.ttl and kept[1] == generation:
            return kept[2]
        listing = build()
        with self._lock:
            self._kept[key] = (now, generation, listing)  # a change during build: the generation moved on
        return listing

    def clear(self) -> None:
        with self._lock:
            self._generation += 1

    def _seen(self, connection: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        if _CHANGES_LOBBY.match(statement):
            connection.info["lobby_changed"] = True  # dropped when the transaction commits

    def _committed(self, connection: Any) -> None:
        if connection.info.pop("lobby_changed", False):
            self.clear()

    def _rolled_back(self, connection: Any) -> None:
        if not connection.invalidated:  # a lost connection's info went with it; reading it would raise
            connection.info.pop("lobby_changed", None)
