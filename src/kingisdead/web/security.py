"""What keeps the server fit for the open internet: size limits, rate limits and security headers.

- :class:`BodyLimit` answers ``413`` to a request body over the limit before the
  app reads it (by its Content-Length, or by counting a streamed body).
- :class:`SecurityHeaders` adds a Content-Security-Policy (scripts only from
  this server, as are the service worker and the app manifest; no framing), ``nosniff`` and a
  Referrer-Policy to every response.
- :class:`RateLimits` counts game creations, seat joins and claims, wrong
  tokens, wrong passwords and new accounts per client address in moving windows
  (the ``limits`` library's notation and semantics), in the database's
  ``rate_hits`` table: every server process of a site shares the counts.
- :class:`InputCheck` answers ``422`` to a request with a control character in its path or query, or NUL
  in its body, before any route or the database sees it (PostgreSQL refuses NUL in text).
- :func:`check_ws_text` refuses a WebSocket message before ``json.loads`` sees it:
  too long, or nested deeper than any message of the protocol.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import time
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl

from limits import RateLimitItem, parse
from sqlalchemy import delete, func, select, text
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .db import RateHitRow
from .errors import GameError
from .i18n import N_, Text, _, current_language

MAX_BODY = 64 * 1024
"""Bytes: the largest request body (a game creation is well under 2 KiB)."""
MAX_WS_MESSAGE = 16 * 1024
"""Characters: the largest WebSocket message the app reads (an `options` message is under 1 KiB)."""
WS_TRANSPORT_MAX = 4 * MAX_WS_MESSAGE
"""Bytes: uvicorn's frame limit (``ws_max_size``). Messages between the two limits get an error
message; larger ones are cut off by the server before they are buffered (close code 1009)."""
MAX_WS_DEPTH = 4
"""Nesting of objects and lists in a WebSocket message: ``{"steps": [{...}]}`` is 3 deep."""

CSP = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
       "connect-src 'self'; manifest-src 'self'; worker-src 'self'; object-src 'none'; base-uri 'self'; "
       "form-action 'self'; frame-ancestors 'none'")
HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
]


def _json_response(status: int, body: dict[str, Any], extra: Sequence[tuple[bytes, bytes]] = ()) -> tuple[Message, Message]:
    data = json.dumps(body).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(data)).encode()), *extra]
    return ({"type": "http.response.start", "status": status, "headers": headers},
            {"type": "http.response.body", "body": data})


class TooLarge(Exception):
    """A request body passed its limit."""


async def read_body(receive: Receive, limit: int | None = None) -> bytes | None:
    """The whole body of an HTTP request; None if the client went away. Raises :class:`TooLarge` as soon as
    it passes ``limit`` bytes."""
    chunks: list[bytes] = []
    seen = 0
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return None
        chunks.append(message.get("body", b""))
        seen += len(chunks[-1])
        if limit is not None and seen > limit:
            raise TooLarge
        if not message.get("more_body", False):
            return b"".join(chunks)


def replaying(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` that gives the app ``body`` (read already) as one message, then whatever comes next."""
    delivered = False

    async def replay() -> Message:
        nonlocal delivered
        if not delivered:
            delivered = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay


class BodyLimit:
    """ASGI middleware: a request body over ``limit`` bytes gets ``413 too_large`` and never reaches the app.

    A declared Content-Length over the limit is refused at once; a streamed body
    is counted as it arrives and refused as soon as it passes the limit.
    """

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers", [])).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            await self._refuse(send)
            return
        # read the whole body first (it is small): the app then never sees a body over the limit
        try:
            body = await read_body(receive, self.limit)
        except TooLarge:
            await self._refuse(send)
            return
        if body is not None:
            await self.app(scope, replaying(body, receive), send)

    async def _refuse(self, send: Send) -> None:
        for message in _json_response(413, {"error": "too_large",
                                            "detail": f"the request body is over {self.limit} bytes"}, HEADERS):
            await send(message)


class SecurityHeaders:
    """ASGI middleware: the security headers on every HTTP response (pages, API, static files, errors)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                names = {name.lower() for name, _ in message.get("headers", [])}
                message["headers"] = list(message.get("headers", [])) + [h for h in HEADERS if h[0] not in names]
            await send(message)

        await self.app(scope, receive, with_headers)


PRINTABLE = r"^[^\x00-\x1f\x7f-\x9f]*$"
"""A text with no control character (C0, DEL, C1): a name shown to others and written into their mails (a line
break would forge a line), and every string path parameter (:func:`say_no_control_in_paths`)."""


def say_no_control_in_paths(schema: dict[str, Any]) -> dict[str, Any]:
    """The OpenAPI ``schema`` with :data:`PRINTABLE` as the pattern of every free string path or query parameter:
    :class:`InputCheck` refuses a control character in any of them, whatever the route, with a 422 whose body is
    the app's ``ErrorBody`` (said so where the route's own entry names FastAPI's validation error instead)."""
    refused = {"description": "malformed or invalid input (a control character in the address)",
               "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorBody"}}}}
    for item in schema.get("paths", {}).values():
        for operation in item.values():
            for parameter in operation.get("parameters", []):
                kind = parameter.get("schema", {})
                if parameter.get("in") in ("path", "query") and kind.get("type") == "string" and "enum" not in kind:
                    kind.setdefault("pattern", PRINTABLE)
                    answers = operation.setdefault("responses", {})
                    if "ErrorBody" not in str(answers.get("422", "")):
                        answers["422"] = refused
    if "ErrorBody" not in schema.get("components", {}).get("schemas", {}):
        raise ValueError("the app's schema lacks ErrorBody")
    return schema


def _control(text: str) -> bool:
    """Whether ``text`` holds a control character (C0, DEL, C1) or half of a surrogate pair: neither means
    anything in a path, a query or a JSON string, PostgreSQL refuses NUL in text, and no encoder takes a lone
    surrogate."""
    return any(unicodedata.category(char) in ("Cc", "Cs") for char in text)


def _holds_nul(value: Any) -> bool:
    """Whether a decoded JSON value holds NUL (or a lone surrogate) in a string, key or value, at any depth."""
    if isinstance(value, str):
        return "\x00" in value or any(unicodedata.category(char) == "Cs" for char in value)
    if isinstance(value, dict):
        return any(_holds_nul(key) or _holds_nul(item) for key, item in value.items())
    if isinstance(value, list):
        return any(_holds_nul(item) for item in value)
    return False


def json_holds_nul(text: str | bytes) -> bool:
    """Whether a JSON text holds NUL, raw or as a ``\\u0000`` escape, or a lone surrogate escape (one that does
    not parse as JSON is left to the JSON reader, which refuses it)."""
    raw = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    if b"\x00" in raw:
        return True
    if b"\\u" not in raw:
        return False  # no escape at all: no hidden NUL
    try:
        return _holds_nul(json.loads(raw))
    except (ValueError, RecursionError):
        return False


class InputCheck:
    """ASGI middleware: a request whose path or query (decoded) holds a control character, or whose body holds
    NUL (raw, or escaped in a JSON string), gets ``422 invalid_request`` before any route or database sees it;
    a WebSocket handshake with such a path or query is refused the same way (or closed with 1008 where the
    server cannot answer a handshake with a body). Place it inside :class:`~.localized.LanguageMiddleware` (the
    answer is in the request's language) and :class:`BodyLimit` (the body it reads is already bounded).
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        refusal = self._url_refusal(scope)
        if scope["type"] == "websocket":
            if refusal is None:
                await self.app(scope, receive, send)
            elif "websocket.http.response" in (scope.get("extensions") or {}):
                await receive()  # websocket.connect
                for message in _json_response(422, refusal, HEADERS):
                    await send({**message, "type": "websocket." + message["type"]})
            else:
                await receive()
                await send({"type": "websocket.close", "code": 1008})
            return
        if refusal is not None:
            for message in _json_response(422, refusal):
                await send(message)
            return
        body = await read_body(receive)
        if body is None:
            return  # the client went away
        if json_holds_nul(body):
            for message in _json_response(422, _refusal(_("the request body holds a NUL character"))):
                await send(message)
            return
        await self.app(scope, replaying(body, receive), send)

    @staticmethod
    def _url_refusal(scope: Scope) -> dict[str, str] | None:
        """The error body for a path or query holding a control character, else None."""
        if _control(scope.get("path", "")):
            return _refusal(_("the address holds a control character"))
        query = scope.get("query_string", b"").decode("latin-1")
        if _control(query) or any(_control(part) for pair in parse_qsl(query, keep_blank_values=True)
                                  for part in pair):
            return _refusal(_("the query holds a control character"))
        return None


def _refusal(detail: Text) -> dict[str, str]:
    return {"error": "invalid_request", "detail": detail.in_language(current_language())}


@dataclass(frozen=True)
class RateLimits:
    """Requests per client address, in the ``limits`` notation ("30/minute", "5 per 10 seconds").

    ``create``: new games; ``join``: seat joins and invite claims; ``bad_token``:
    requests or sockets with a token of no seat; ``sign_in``: wrong passwords;
    ``sign_up``: new accounts; ``follow``: new follows and blocks, counted per account (the "client" is
    ``account:<id>``, see web/friends.py); ``challenge``: new challenges, per account too; ``tournament``: new
    tournaments, per account. Read from the environment by :meth:`from_env` (``KINGISDEAD_LIMIT_CREATE``,
    ``_JOIN``, ``_BAD_TOKEN``, ``_SIGN_IN``, ``_SIGN_UP``, ``_FOLLOW``, ``_CHALLENGE``, ``_TOURNAMENT``).
    """

    create: str = "30/minute"
    join: str = "30/minute"
    bad_token: str = "20/minute"
    sign_in: str = "10/minute"
    sign_up: str = "30/hour"
    follow: str = "60/hour"
    challenge: str = "30/hour"
    tournament: str = "5/day"

    @classmethod
    def from_env(cls) -> RateLimits:
        defaults = cls()
        return cls(create=os.environ.get("KINGISDEAD_LIMIT_CREATE", defaults.create),
                   join=os.environ.get("KINGISDEAD_LIMIT_JOIN", defaults.join),
                   bad_token=os.environ.get("KINGISDEAD_LIMIT_BAD_TOKEN", defaults.bad_token),
                   sign_in=os.environ.get("KINGISDEAD_LIMIT_SIGN_IN", defaults.sign_in),
                   sign_up=os.environ.get("KINGISDEAD_LIMIT_SIGN_UP", defaults.sign_up),
                   follow=os.environ.get("KINGISDEAD_LIMIT_FOLLOW", defaults.follow),
                   challenge=os.environ.get("KINGISDEAD_LIMIT_CHALLENGE", defaults.challenge),
                   tournament=os.environ.get("KINGISDEAD_LIMIT_TOURNAMENT", defaults.tournament))

    def items(self) -> dict[str, RateLimitItem]:
        """Each kind's limit parsed; ValueError naming the setting of one not in the ``limits`` notation."""
        return {kind: _parse(getattr(self, kind), kind) for kind in ("create", "join", "bad_token", "sign_in",
                                                                     "sign_up", "follow", "challenge",
                                                                     "tournament")}


class RateLimiter:
    """Counts per (kind, client address) in the database, so that every process of a site counts together.

    Each limit is a moving window: a request is allowed while fewer than the limit's amount were counted
    in the window's length before it. Refusals raise :class:`RateLimited` (429) with the seconds to wait.
    The methods touch the database: call them from a worker thread.
    """

    def __init__(self, items: dict[str, RateLimitItem], engine: Engine) -> None:
        """``items``: :meth:`RateLimits.items`; ``engine``: the site's database (with the ``rate_hits`` table)."""
        self._items = items
        self._longest = max(item.get_expiry() for item in self._items.values())
        self._engine = engine

    def hit(self, kind: str, client: str) -> int:
        """Count one request before it is served: its hit's id (for :meth:`refund`); 429 (nothing counted)
        if the client is at its limit. Atomic: requests racing each other never count past the limit."""
        item = self._items[kind]
        now = time.time()
        with Session(self._engine) as session, session.begin():
            if self._engine.dialect.name == "postgresql":  # one (kind, client) at a time
                session.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _lock_key(kind, client)})
            # SQLite: the insert takes the database's write lock first, so the count below sees every other hit
            hit = RateHitRow(kind=kind, client=client[:64], at=now)
            session.add(hit)
            session.flush()
            count, oldest = self._window(session, kind, client, now)
            if count > item.amount:  # the refusal rolls the hit back
                raise self._refusal(kind, oldest, now)
            session.execute(delete(RateHitRow).where(RateHitRow.at <= now - self._longest))
            return hit.id

    def check(self, kind: str, client: str) -> None:
        """429 if the client is at its limit (counts nothing)."""
        now = time.time()
        with Session(self._engine) as session:
            count, oldest = self._window(session, kind, client, now)
        if count >= self._items[kind].amount:
            raise self._refusal(kind, oldest, now)

    def refund(self, hit: int) -> None:
        """Take back a hit (by its id from :meth:`hit`): the request turned out not to count (a right password)."""
        with Session(self._engine) as session, session.begin():
            session.execute(delete(RateHitRow).where(RateHitRow.id == hit))

    def _window(self, session: Session, kind: str, client: str, now: float) -> tuple[int, float]:
        """Hits of (kind, client) within the window before ``now``: how many, and the oldest's time."""
        count, oldest = session.execute(
            select(func.count(), func.min(RateHitRow.at))
            .where(RateHitRow.kind == kind, RateHitRow.client == client[:64],
                   RateHitRow.at > now - self._items[kind].get_expiry())).one()
        return int(count), float(oldest if oldest is not None else now)

    def _refusal(self, kind: str, oldest: float, now: float) -> RateLimited:
        item = self._items[kind]
        wait = max(1, math.ceil(oldest + item.get_expiry() - now))  # when the oldest hit leaves the window
        return RateLimited(wait, _(_REFUSALS[kind], limit=str(item), wait=wait))


def _lock_key(kind: str, client: str) -> int:
    """The PostgreSQL advisory lock (a signed 64-bit number) of one (kind, client)."""
    digest = hashlib.sha256(f"kingisdead rate {kind} {client}".encode()).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


_REFUSALS = {
    "create": N_("too many new games from your address (limit {limit}); try again in {wait} s"),
    "join": N_("too many joins from your address (limit {limit}); try again in {wait} s"),
    "bad_token": N_("too many wrong tokens from your address (limit {limit}); try again in {wait} s"),
    "sign_in": N_("too many wrong passwords from your address (limit {limit}); try again in {wait} s"),
    "sign_up": N_("too many new accounts from your address (limit {limit}); try again in {wait} s"),
    "follow": N_("too many new follows and blocks from your account (limit {limit}); try again in {wait} s"),
    "challenge": N_("too many new challenges from your account (limit {limit}); try again in {wait} s"),
    "tournament": N_("too many new tournaments from your account (limit {limit}); try again in {wait} s"),
}


class RateLimited(GameError):
    """429 with the seconds to wait (sent as ``Retry-After``)."""

    def __init__(self, retry_after: int, message: str) -> None:
        super().__init__(429, "rate_limited", message)
        self.retry_after = retry_after


def check_ws_text(text: str) -> None:
    """Refuse a WebSocket message before parsing: over :data:`MAX_WS_MESSAGE` or nested too deep."""
    if len(text) > MAX_WS_MESSAGE:
        raise GameError(413, "too_large", _("a message is at most {limit} characters", limit=MAX_WS_MESSAGE))
    depth = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > MAX_WS_DEPTH:
                raise GameError(422, "invalid_request", _("a message nests at most {depth} levels deep",
                                                          depth=MAX_WS_DEPTH))
        elif char in "]}":
            depth -= 1


def parse_ws_json(text: str) -> Any:
    """JSON as the protocol allows it: no ``NaN`` or ``Infinity``, no NUL in a string (422 otherwise)."""
    check_ws_text(text)

    def refuse(name: str) -> Any:
        raise GameError(422, "invalid_request", _("{name} is not a number this protocol accepts", name=name))

    def number(literal: str) -> float:
        value = float(literal)
        if not math.isfinite(value):
            refuse(literal)
        return value

    try:
        value = json.loads(text, parse_constant=refuse, parse_float=number)
    except ValueError as exc:
        raise GameError(422, "invalid_request", _("malformed JSON: {problem}", problem=str(exc))) from None
    if _holds_nul(value):
        raise GameError(422, "invalid_request", _("a message holds a NUL character"))
    return value


def _parse(text: str, kind: str) -> RateLimitItem:
    """One limit; ValueError naming its setting when ``text`` is not in the ``limits`` notation."""
    try:
        return parse(text)
    except ValueError:
        raise ValueError(f"rate limit KINGISDEAD_LIMIT_{kind.upper()} must read like '30/minute', "
                         f"not {text!r}") from None
