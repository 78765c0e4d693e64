"""What the routes share: the app's objects as typed dependencies, the game asked for, the client's address,
the signed-in account, the asker's seat, and HTML pages.

The app's objects (the game service, the live hub, the bot runner, the compute pool, the rate limiter, the
notifier, the public URL and LAN mode) are set on ``app.state`` by ``create_app``; :func:`_state` is the one
place that reads them. A route names what it needs by type (``service: Service``, ``hub: LiveHub`` ...);
a test may replace one through FastAPI's ``app.dependency_overrides``.
"""

from __future__ import annotations

import asyncio
from contextvars import ContextVar
from importlib.resources import files
from typing import Annotated, Any
from urllib.parse import urlsplit

from fastapi import APIRouter, Depends, Request, WebSocket
from fastapi.responses import HTMLResponse
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BeforeValidator, Field
from starlette.datastructures import State
from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Receive, Scope, Send

from ..accounts import SESSION_COOKIE, user_for_secret
from ..chat import Chat
from ..compute import ComputePool
from ..db import UserRow
from ..errors import GameError
from ..friends import note_seen, seen_is_stale
from ..i18n import _, language_of, render_page
from ..live import BotRunner, Hub
from ..live_game import LiveGame
from ..notify import Notifier
from ..security import RateLimiter
from ..service import GameService

STATIC = files("kingisdead.web") / "static"
"""The files served as they are under /static: scripts, styles, images, board data."""
TEMPLATES = files("kingisdead.web") / "templates"
"""The Jinja2 templates of the HTML pages (never served as files)."""
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})

bearer = HTTPBearer(auto_error=False, description="the seat's secret token from game creation or join")
Credentials = Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]


# -- routes shared by the process's apps -----------------------------------------------------------

_serving: ContextVar[Any] = ContextVar("serving_app")


class _ServingAppOverrides:
    """The shared routes' ``dependency_overrides_provider``: FastAPI reads ``dependency_overrides`` at each
    request, and gets those of the app serving it (none outside a request)."""

    @property
    def dependency_overrides(self) -> dict[Any, Any]:
        app = _serving.get(None)
        return {} if app is None else app.dependency_overrides  # type: ignore[no-any-return]


_OVERRIDES = _ServingAppOverrides()


def shared_router(**options: Any) -> APIRouter:
    """An ``APIRouter`` (``options``: its own) whose routes every app of the process can hold as they are.

    ``app.include_router`` would build, for each app, its own copy of each route's dependencies and models on
    the first request that reaches it (FastAPI 0.165; about 80 ms an app, which the API tests paid for each of
    theirs); a route made here is built once, and looks up the serving app's ``dependency_overrides`` (which
    :class:`ServingApp` notes) instead of holding one app's."""
    return APIRouter(dependency_overrides_provider=_OVERRIDES, **options)


class ServingApp:
    """ASGI middleware: notes the app a request or socket reached (Starlette's ``scope["app"]``), whose
    dependency overrides the shared routes then use."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        token = _serving.set(scope.get("app"))
        try:
            await self.app(scope, receive, send)
        finally:
            _serving.reset(token)


# -- the app's objects ----------------------------------------------------------------------------

def _state(app: ASGIApp) -> State:
    """The app's objects as ``create_app`` set them: the one place that reads ``app.state``."""
    state: State = app.state  # type: ignore[attr-defined]
    return state


def service_of(app: ASGIApp) -> GameService:
    """The app's game service, for what is not a route (a middleware, an exception handler)."""
    service: GameService = _state(app).service
    return service


def _limiter_of(app: ASGIApp) -> RateLimiter:
    found: RateLimiter = _state(app).limiter
    return found


def _public_url_of(app: ASGIApp) -> str:
    return str(_state(app).public_url)


def _lan_of(app: ASGIApp) -> bool:
    return bool(getattr(_state(app), "lan", False))


# The dependencies are coroutines: FastAPI awaits them on the event loop, where a plain function would take a
# trip through the thread pool for each (and queue behind the requests' own work there).

async def service(connection: HTTPConnection) -> GameService:
    return service_of(connection.app)


async def hub(connection: HTTPConnection) -> Hub:
    found: Hub = _state(connection.app).hub
    return found


async def runner(connection: HTTPConnection) -> BotRunner:
    found: BotRunner = _state(connection.app).runner
    return found


async def compute(connection: HTTPConnection) -> ComputePool:
    found: ComputePool = _state(connection.app).compute
    return found


async def limiter(connection: HTTPConnection) -> RateLimiter:
    return _limiter_of(connection.app)


async def notifier(connection: HTTPConnection) -> Notifier:
    found: Notifier = _state(connection.app).notifier
    return found


async def chat(connection: HTTPConnection) -> Chat:
    found: Chat = _state(connection.app).chat
    return found


async def public_url(connection: HTTPConnection) -> str:
    return _public_url_of(connection.app)


async def lan(connection: HTTPConnection) -> bool:
    return _lan_of(connection.app)


Service = Annotated[GameService, Depends(service)]
"""The game service: games, seats, moves."""
LiveHub = Annotated[Hub, Depends(hub)]
"""The hub of the games' live sockets: broadcasts views and announcements."""
Runner = Annotated[BotRunner, Depends(runner)]
"""Starts the bots (and stand-ins) to move."""
Compute = Annotated[ComputePool, Depends(compute)]
"""Where bot moves, hints and analyses run."""
Limiter = Annotated[RateLimiter, Depends(limiter)]
"""The per-address rate limits."""
Notify = Annotated[Notifier, Depends(notifier)]
"""E-mail and push for players away from the site."""
Chats = Annotated[Chat, Depends(chat)]
"""The games' chats: stores lines and tells the sockets that may read them."""
PublicUrl = Annotated[str, Depends(public_url)]
"""The address people reach the server at (invite links), without a trailing slash."""
Lan = Annotated[bool, Depends(lan)]
"""Plain-http LAN mode: the session cookie without Secure."""


# -- accounts ---------------------------------------------------------------------------------------

def current_user(request: Request) -> UserRow | None:
    """FastAPI dependency: the signed-in account of the request's session cookie, or None.

    Raises GameError 403 ``not_json`` for a request that carries the cookie and
    changes something (not GET/HEAD/OPTIONS) without ``Content-Type:
    application/json``: that is how a forged cross-site form would look.
    """
    if hasattr(request.state, "user"):
        cached: UserRow | None = request.state.user
        return cached
    secret = request.cookies.get(SESSION_COOKIE)
    user = None
    if secret:
        refuse_forged(request)
        user = user_for_secret(service_of(request.app), secret)
        seen(service_of(request.app), user)
    request.state.user = user
    return user


def seen(service: GameService, user: UserRow | None) -> None:
    """Note that the account is online (friends.py's ``seen_at``), at most once a minute: a read-only check of the
    account as just read, then a write only when the last one is a minute old."""
    if user is not None and seen_is_stale(user.seen_at):
        user.seen_at = note_seen(service, user.id)


def refuse_forged(request: Request) -> None:
    """GameError 403 ``not_json`` for a request that changes something without saying it is JSON."""
    if request.method not in SAFE_METHODS and not _is_json(request.headers.get("content-type", "")):
        raise GameError(403, "not_json", _("a signed-in request that changes something must be sent with "
                                           "Content-Type: application/json"))


def _is_json(content_type: str) -> bool:
    kind = content_type.split(";", 1)[0].strip().lower()
    return kind == "application/json" or (kind.startswith("application/") and kind.endswith("+json"))


def signed_in_user(user: Annotated[UserRow | None, Depends(current_user)]) -> UserRow:
    """FastAPI dependency: the signed-in account; GameError 401 ``sign_in_required`` if none."""
    if user is None:
        raise GameError(401, "sign_in_required", _("sign in first"))
    return user


SignedIn = Annotated[UserRow, Depends(signed_in_user)]
"""A route parameter of this type is the signed-in account (401 ``sign_in_required`` if none)."""
Account = Annotated[UserRow | None, Depends(current_user)]
"""A route parameter of this type is the signed-in account, or None for a guest."""


def user_of_socket(connection: HTTPConnection) -> UserRow | None:
    """The account of a WebSocket's session cookie, or None. The cookie counts only when the page that
    opened the socket is this server's (its Origin is the public URL's or the Host asked for): WebSockets
    ignore the same-origin policy, and SameSite does not stop a page of another origin on the same site
    (a sibling subdomain), which could otherwise open a socket that acts for the player."""
    secret = connection.cookies.get(SESSION_COOKIE)
    if not secret:
        return None
    origin = connection.headers.get("origin")
    if origin is not None:
        host = urlsplit(origin).netloc.lower()
        if host not in {urlsplit(_public_url_of(connection.app)).netloc.lower(), connection.headers.get("host", "").lower()}:
            return None
    user = user_for_secret(service_of(connection.app), secret)
    seen(service_of(connection.app), user)
    return user


# -- games and seats ----------------------------------------------------------------------------------

async def game_of(connection: Request | WebSocket, game_id: str) -> LiveGame:
    """The game (404 ``unknown_game``); only a first use, which reads and replays it, goes to a worker thread."""
    games = service_of(connection.app)
    game = games.cached(game_id)
    return game if game is not None else await asyncio.to_thread(games.get, game_id)


def client_of(connection: Request | WebSocket) -> str:
    """The client's address as the server sees it (a trusted proxy's X-Forwarded-For already applied)."""
    return connection.client.host if connection.client else "unknown"


async def checked_seat(connection: Request | WebSocket, game: LiveGame, token: str | None,
                       user_id: int | None = None) -> int:
    """The seat of a token, or without one the seat the signed-in account ``user_id`` holds (403
    ``not_seated`` if none); wrong tokens count towards the address's limit. Once at the limit every
    token, right or wrong, gets 429: the answer tells a guesser nothing."""
    games, limits = service_of(connection.app), _limiter_of(connection.app)
    if not token and user_id is not None:
        held = games.account_seat(game, user_id)
        if held is None:
            raise GameError(403, "not_seated", _("your account holds no seat of this game"))
        return int(held)
    client = client_of(connection)
    try:
        seat = int(games.find_seat(game, token))
    except GameError as exc:
        if exc.status == 403:  # counted atomically: 429 instead once at the limit
            await asyncio.to_thread(limits.hit, "bad_token", client)
        raise
    if token:
        await asyncio.to_thread(limits.check, "bad_token", client)
    return seat


async def seat_of(game: LiveGame, credentials: HTTPAuthorizationCredentials | None, request: Request) -> int:
    """The seat of the bearer token, else of the session cookie's account (see :func:`checked_seat`)."""
    token = credentials.credentials if credentials else None
    user = None if token else await asyncio.to_thread(current_user, request)
    return await checked_seat(request, game, token, None if user is None else user.id)


# -- request bodies -----------------------------------------------------------------------------------

def _integral(value: Any) -> Any:
    """A JSON number with no fraction (``3.0``) as the integer it is: JSON Schema's ``integer`` admits it."""
    return int(value) if isinstance(value, float) and value.is_integer() else value


Integer = Annotated[int, BeforeValidator(_integral)]
"""An integer field of a request body: an int, or a float with no fraction (``3.0``; not ``true``, not ``"3"``)."""


def integer(ge: int | None = None, le: int | None = None) -> Any:
    """:data:`Integer` within the limits ``ge`` and ``le``, for a union (``integer(ge=0) | None``): there the
    limits must come before the validator for the schema to state them."""
    return Annotated[int, Field(ge=ge, le=le), BeforeValidator(_integral)]


# -- pages ----------------------------------------------------------------------------------------------

def page(name: str, request: Request, status: int = 200, **context: Any) -> HTMLResponse:
    """An HTML page (a Jinja2 template in templates/) in the request's language, with the page's own ``context``."""
    session = SESSION_COOKIE in request.cookies
    return HTMLResponse(render_page(str(TEMPLATES), name, language_of(request), session, _lan_of(request.app), **context),
                        status_code=status)
