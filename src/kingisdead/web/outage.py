"""The database out of reach (locked, full, stopped): what requests answer, and how background work waits.

A request that finds the database unreachable is answered ``503
database_unavailable`` with ``Retry-After`` (:func:`unavailable_body`); the
bots, the move clocks, the rating of finished games and the PostgreSQL
listener keep trying with a growing wait (:class:`Outage`) and each says so
once in the log when the outage starts and once when it ends. No restart is
needed once the database is back.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from sqlalchemy.exc import InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from starlette.requests import Request

from .i18n import _
from .localized import LocalizedJSON

DATABASE_DOWN = (OperationalError, InterfaceError, PoolTimeout)
"""SQLAlchemy's errors for a database that cannot answer now: unreachable, locked past the busy timeout,
out of disk, or every pooled connection busy. (An ``IntegrityError`` is a conflict, not an outage.)"""
RETRY_AFTER = 5
"""Seconds a 503 ``database_unavailable`` tells the client to wait (``Retry-After``)."""

log = logging.getLogger("kingisdead.web")


def unavailable_body() -> dict[str, Any]:
    """The ``{"error", "detail"}`` of a 503 for a database that is out of reach (detail: an interface text)."""
    return {"error": "database_unavailable",
            "detail": _("the game database is not answering just now; try again in a few seconds")}


async def database_unavailable(request: Request, exc: Exception) -> LocalizedJSON:
    """The exception handler for :data:`DATABASE_DOWN`: 503 with ``Retry-After`` and one warning line."""
    log.warning("%s %s: database unavailable (%s); answered 503", request.method, request.url.path, reason(exc))
    return LocalizedJSON(unavailable_body(), status_code=503, headers={"Retry-After": str(RETRY_AFTER)})


def unavailable_message(game_id: str, exc: Exception) -> dict[str, Any]:
    """The WebSocket's error message for a message that found the database out of reach (logged in one line)."""
    log.warning("game %s: a socket's message: database unavailable (%s)", game_id, reason(exc))
    return {"type": "error", **unavailable_body(), "retry_after": RETRY_AFTER}


def reason(exc: BaseException) -> str:
    """The driver's first line about a database error (no SQL, no traceback)."""
    text = str(getattr(exc, "orig", None) or exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


class Outage:
    """How one background job (``what``, e.g. "bots") lives through a database outage.

    :meth:`failed` gives the seconds to wait before the next try: ``first``,
    doubling up to ``longest``. The first failure after a success logs one
    warning; :meth:`ok` after failures logs one line with the outage's length.
    """

    def __init__(self, what: str, first: float = 1.0, longest: float = 30.0) -> None:
        self.what, self.first, self.longest = what, first, longest
        self._since: float | None = None
        self._wait = first

    @property
    def down(self) -> bool:
        return self._since is not None

    def failed(self, exc: BaseException) -> float:
        """Note a failed try; the seconds to wait before the next."""
        if self._since is None:
            self._since = time.monotonic()
            log.warning("%s: database unavailable (%s); trying again until it is back", self.what, reason(exc))
        wait, self._wait = self._wait, min(self._wait * 2, self.longest)
        return wait

    def ok(self) -> None:
        """Note a try that reached the database."""
        if self._since is not None:
            log.warning("%s: database back after %.0f s", self.what, time.monotonic() - self._since)
        self._since, self._wait = None, self.first


async def repeat(every: float, step: Callable[[], Awaitable[Any]], what: str) -> None:
    """Await ``step()`` every ``every`` seconds until cancelled: the database out of reach is waited out, longer
    each time (an :class:`Outage` named ``what``: one log line as it starts, one as it ends); any other failure is
    logged and tried again at the next pass."""
    outage = Outage(what)
    while True:
        await asyncio.sleep(every)
        try:
            await step()
        except DATABASE_DOWN as exc:
            await asyncio.sleep(outage.failed(exc))
            continue
        except Exception:
            log.exception("%s failed; trying again at the next pass", what)
            continue
        outage.ok()
