"""What the routes share: the game asked for, the client's address, the asker's seat, and HTML pages."""

from __future__ import annotations

import asyncio
from importlib.resources import files
from typing import Annotated, Any

from fastapi import Depends, Request, WebSocket
from fastapi.responses import HTMLResponse
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BeforeValidator, Field

from ..accounts import SESSION_COOKIE, current_user
from ..errors import GameError
from ..i18n import _, language_of, render_page
from ..live_game import LiveGame

STATIC = files("kingisdead.web") / "static"
bearer = HTTPBearer(auto_error=False, description="the seat's secret token from game creation or join")
Credentials = Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]


async def game_of(connection: Request | WebSocket, game_id: str) -> LiveGame:
    """The game (404 ``unknown_game``); only a first use, which reads and replays it, goes to a worker thread."""
    service = connection.app.state.service
    game = service.cached(game_id)
    return game if game is not None else await asyncio.to_thread(service.get, game_id)


def client_of(connection: Request | WebSocket) -> str:
    """The client's address as the server sees it (a trusted proxy's X-Forwarded-For already applied)."""
    return connection.client.host if connection.client else "unknown"


async def checked_seat(connection: Request | WebSocket, game: LiveGame, token: str | None,
                       user_id: int | None = None) -> int:
    """The seat of a token, or without one the seat the signed-in account ``user_id`` holds (403
    ``not_seated`` if none); wrong tokens count towards the address's limit. Once at the limit every
    token, right or wrong, gets 429: the answer tells a guesser nothing."""
    state = connection.app.state
    if not token and user_id is not None:
        held = state.service.account_seat(game, user_id)
        if held is None:
            raise GameError(403, "not_seated", _("your account holds no seat of this game"))
        return int(held)
    client = client_of(connection)
    try:
        seat = int(state.service.find_seat(game, token))
    except GameError as exc:
        if exc.status == 403:  # counted atomically: 429 instead once at the limit
            await asyncio.to_thread(state.limiter.hit, "bad_token", client)
        raise
    if token:
        await asyncio.to_thread(state.limiter.check, "bad_token", client)
    return seat


async def seat_of(game: LiveGame, credentials: HTTPAuthorizationCredentials | None, request: Request) -> int:
    """The seat of the bearer token, else of the session cookie's account (see :func:`checked_seat`)."""
    token = credentials.credentials if credentials else None
    user = None if token else await asyncio.to_thread(current_user, request)
    return await checked_seat(request, game, token, None if user is None else user.id)


def _integral(value: Any) -> Any:
    """A JSON number with no fraction (``3.0``) as the integer it is: JSON Schema's ``integer`` admits it."""
    return int(value) if isinstance(value, float) and value.is_integer() else value


Integer = Annotated[int, BeforeValidator(_integral)]
"""An integer field of a request body: an int, or a float with no fraction (``3.0``; not ``true``, not ``"3"``)."""


def integer(ge: int | None = None, le: int | None = None) -> Any:
    """:data:`Integer` within the limits ``ge`` and ``le``, for a union (``integer(ge=0) | None``): there the
    limits must come before the validator for the schema to state them."""
    return Annotated[int, Field(ge=ge, le=le), BeforeValidator(_integral)]


def page(name: str, request: Request, status: int = 200, **context: Any) -> HTMLResponse:
    """An HTML page (a Jinja2 template in static/) in the request's language, with the page's own ``context``."""
    session = SESSION_COOKIE in request.cookies
    return HTMLResponse(render_page(str(STATIC), name, language_of(request), session, request.app.state.lan,
                                    **context), status_code=status)
