"""The web app: HTTP API, WebSocket updates and the browser pages (FastAPI).

``create_app()`` builds the app around one :class:`GameService`; ``kingisdead
serve`` runs it with uvicorn. See docs/web.md for the API in words; the
generated OpenAPI schema is served at /openapi.json and browsable at /docs.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import APIRouter, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from swagger_ui_bundle import swagger_ui_path

from .. import __version__
from .clocks import enforce_deadlines
from .chat import Chat
from .compute import ComputePool, Refused
from .db import DEFAULT_URL
from .errors import GameError, allowed_methods, error_body, problem, responses
from .i18n import _, clauses
from .localized import LanguageMiddleware, LocalizedRoute
from .localized import LocalizedJSON as JSONResponse  # every JSON answer in the request's language
from .live import BotRunner, Hub, evict_idle, quiet_bad_text
from .notify import Notifier, NotifySettings
from .outage import DATABASE_DOWN, database_unavailable
from .pubsub import Listener
from .ratings import apply_pending, keep_applied
from .routes import (
    accounts,
    challenges,
    clocks,
    friends,
    games,
    live,
    moves,
    notifications,
    pages,
    pwa,
    ratings,
    rematch,
    seats,
    tournaments,
    tutorial,
)
from .routes.chat import router as chat_router
from .routes.deps import STATIC, ServingApp, page
from .static_files import MinifiedStaticFiles
from .routes.languages import account_language
from .routes.languages import router as languages_router
from .security import (
    BodyLimit,
    InputCheck,
    RateLimited,
    RateLimiter,
    RateLimits,
    SecurityHeaders,
    say_no_control_in_paths,
)
from .service import GameService
from .tournaments import check_every, run_tournaments


@functools.cache
def routers() -> tuple[APIRouter, ...]:
    """Every router of the app, built once per process and shared by its apps.

    A route holds no app's state (its services come from the request's app, see routes/deps.py), and
    building them all costs about 0.2 s of CPU (pydantic schemas): a process that makes many apps, as the
    tests do, pays it once. Each is made by ``deps.shared_router``, so that an app holds its routes as they
    are rather than including it (which would build every route again for each app).
    """
    return (*(routes.router(responses) for routes in (
        pages, games, seats, moves, live, accounts, ratings, rematch, clocks,
        tutorial,  # /learn, the guided first game
        notifications, friends, challenges, tournaments,
        pwa)),  # the installable app's manifest, worker and page
        languages_router,
        chat_router(responses))  # the games' chats (the socket's messages are routes/live.py's)


def create_app(database_url: str | None = None, bot_delay: float = 0.0, public_url: str | None = None,
               rate_limits: RateLimits | None = None, compute: ComputePool | None = None, lan: bool = False,
               notify: NotifySettings | None = None) -> FastAPI:
    """The app, storing games at ``database_url`` (default: $DATABASE_URL, else a SQLite file).

    ``public_url``: the address people reach the server at, for invite links
    (default: $KINGISDEAD_PUBLIC_URL, else http://localhost:8000); never taken
    from a request's Host header. ``rate_limits``: per-address limits (default:
    :meth:`RateLimits.from_env`). ``compute``: where bot moves, hints and analyses run
    (default: :meth:`ComputePool.from_env`, worker processes); the app shuts it down. ``lan``: plain-http
    LAN mode (docs/hosting.md): the session cookie without Secure, and the lobby says what is unprotected.
    ``notify``: e-mail and push (default: :meth:`NotifySettings.from_env`; docs/web.md, "Notifications").
    """
    url = database_url or os.environ.get("DATABASE_URL") or DEFAULT_URL
    public = (public_url or os.environ.get("KINGISDEAD_PUBLIC_URL") or "http://localhost:8000").rstrip("/")
    limits = (rate_limits or RateLimits.from_env()).items()
    pool = compute or ComputePool.from_env()  # settings are checked before the database is touched
    notify = notify or NotifySettings.from_env()
    tournament_every = check_every()  # seconds between the tournament job's passes
    service = GameService(url)
    limiter = RateLimiter(limits, service.engine)
    hub = Hub(service)
    runner = BotRunner(service, hub, pool, bot_delay)
    notifier = Notifier(service.engine, notify, public)
    chat = Chat(service, hub)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        # Bots whose turn it was when the server stopped move now, in the background; idle games leave memory.
        background = [asyncio.create_task(runner.resume()), asyncio.create_task(evict_idle(service, hub, runner))]
        background.append(asyncio.create_task(enforce_deadlines(service, hub, runner)))  # move time limits
        # Other processes' moves (PostgreSQL): reload those games and tell their watchers here.
        listener = Listener(service.engine, lambda game_id, _number: hub.catch_up(game_id), hub.catch_up_all,
                            chat.catch_up)  # and their chat lines
        listener.start()
        # Rated games that ended just before a crash, their ratings not yet applied; later, those of an outage.
        await asyncio.to_thread(apply_pending, service.engine)
        background.append(asyncio.create_task(keep_applied(service)))
        # Tournaments: starting, pairing, making games, counting results, adjudicating at round deadlines.
        background.append(asyncio.create_task(run_tournaments(service, notifier, hub, runner, tournament_every)))
        if notify.enabled:  # e-mail and push for players away from the site
            background.append(asyncio.create_task(notifier.run()))
        try:
            yield
        finally:
            for task in background:
                task.cancel()
            await asyncio.gather(*background, return_exceptions=True)
            await listener.stop()
            await runner.stop()
            pool.close()
            service.close()

    app = FastAPI(
        title="The King Is Dead",
        version=__version__,
        description="Play The King Is Dead in the browser: games, seats, moves and live updates. "
                    "See docs/web.md for the WebSocket protocol.",
        lifespan=lifespan,
        docs_url=None, redoc_url=None,  # /docs is served below from the package, with no inline script
        default_response_class=JSONResponse,
        redirect_slashes=False,  # Starlette would redirect "/path/" to the Host header's site, whatever it names
    )
    app.router.route_class = LocalizedRoute  # answers' texts in the request's language (see localized.py)
    logging.getLogger("uvicorn.error").addFilter(quiet_bad_text)  # a client's bad frame: no traceback
    app.add_middleware(InputCheck)  # NUL and control characters: 422 before any route or the database
    app.add_middleware(BodyLimit)
    app.add_middleware(SecurityHeaders)
    app.add_middleware(LanguageMiddleware, user_language=account_language)
    app.state.service, app.state.hub, app.state.runner, app.state.compute = service, hub, runner, pool
    app.state.limiter, app.state.public_url, app.state.lan = limiter, public, lan
    app.state.notifier = notifier
    app.state.chat = chat
    app.add_middleware(ServingApp)  # the shared routes find this app's dependency overrides
    for router in routers():
        app.router.routes.extend(router.routes)  # as they are (see routers)
    # Only the app's own files are gzipped: an API answer may hold a token beside text an opponent chose (BREACH).
    app.mount("/static", MinifiedStaticFiles(directory=str(STATIC)), name="static")
    app.mount("/docs-assets", StaticFiles(directory=swagger_ui_path), name="docs-assets")

    generated = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = say_no_control_in_paths(generated())
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]

    @app.exception_handler(GameError)
    async def _game_error(_request: Request, exc: GameError) -> JSONResponse:
        headers = {"Retry-After": str(exc.retry_after)} if isinstance(exc, RateLimited) else None
        return JSONResponse(error_body(exc), status_code=exc.status, headers=headers)

    @app.exception_handler(Refused)
    async def _refused(_request: Request, exc: Refused) -> JSONResponse:
        return JSONResponse({"error": exc.code, "detail": exc.message}, status_code=exc.status,
                            headers={"Retry-After": str(exc.retry_after)})

    for down in DATABASE_DOWN:  # 503 database_unavailable, one log line each
        app.add_exception_handler(down, database_unavailable)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, exc: StarletteHTTPException) -> Response:
        if (exc.status_code == 404 and not request.url.path.startswith("/api/")
                and "text/html" in request.headers.get("accept", "")):  # a browser: the friendly page
            return page("notfound.html", request, 404)
        if exc.status_code == 400:  # a body that is not even text (FastAPI's own 400): malformed, like bad JSON
            return JSONResponse({"error": "invalid_request", "detail": _("malformed body: {problem}",
                                                                             problem=str(exc.detail))},
                                status_code=422)
        code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
        headers = getattr(exc, "headers", None)
        allowed = allowed_methods(request) if exc.status_code == 405 else set()
        if allowed:  # Starlette names the methods of the path's first route only
            headers = {**(headers or {}), "Allow": ", ".join(sorted(allowed))}
        return JSONResponse({"error": code, "detail": str(exc.detail)}, status_code=exc.status_code,
                            headers=headers)

    @app.exception_handler(RequestValidationError)
    async def _invalid(_request: Request, exc: RequestValidationError) -> JSONResponse:
        problems = clauses([problem(e) for e in exc.errors()])
        return JSONResponse({"error": "invalid_request", "detail": problems}, status_code=422)

    return app
