"""The web app: HTTP API, WebSocket updates and the browser pages (FastAPI).

``create_app()`` builds the app around one :class:`GameService`; ``kingisdead
serve`` runs it with uvicorn. See docs/web.md for the API in words; the
generated OpenAPI schema is served at /openapi.json and browsable at /docs.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib.resources import files
from typing import Annotated, Any, Literal

from fastapi import Depends, FastAPI, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from fastapi.staticfiles import StaticFiles
from swagger_ui_bundle import swagger_ui_path
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import compile_path

from .. import VARIANTS, __version__
from .accounts import SESSION_COOKIE, Account, current_user, router as account_router, user_of_socket
from ..building import Choice
from .db import DEFAULT_URL
from .games import DEFAULT_STAND_IN, GameError, GameService, LiveGame, Seat, bot_names
from .compute import ComputePool, Refused
from .clocks import enforce_deadlines, router as clocks_router
from .live import BotRunner, Hub, error_body, evict_idle, quiet_bad_text
from .outage import DATABASE_DOWN, database_unavailable, unavailable_message
from .pubsub import Listener
from .ratings import PROVISIONAL_GAMES, apply_pending, keep_applied, router as ratings_router
from .rematch import router as rematch_router
from .tutorial import router as tutorial_router
from .security import (
    BodyLimit,
    RateLimited,
    RateLimiter,
    RateLimits,
    SecurityHeaders,
    parse_ws_json,
)
from .views import board_facts, bot_levels
from .i18n import N_, LanguageMiddleware, LocalizedRoute, _, join, language_of, localize, render_page
from .i18n import LocalizedJSON as JSONResponse  # every JSON answer in the request's language
from .languages import account_language, router as languages_router

STATIC = files("kingisdead.web") / "static"
MAX_SEED = 2**63 - 1


class HumanSeat(BaseModel):
    model_config = ConfigDict(strict=True)  # no coercion: 0 is not false, "1" not 1

    kind: Literal["human"] = Field(description="a person: gets a token or an invite")
    name: str | None = Field(None, max_length=40, description="shown at the table")
    public: bool = Field(False, description="a person's seat other than the creator's: offered in the lobby to "
                                            "anyone (true), or only through its private invite link (false)")


class BotSeat(BaseModel):
    model_config = ConfigDict(strict=True)  # no coercion: 0 is not false, "1" not 1

    kind: Literal["bot"] = Field(description="a bot")
    bot: str = Field(max_length=32, description="bot level, one of GET /api/meta's bots")
    name: str | None = Field(None, max_length=40, description="shown at the table")


SeatSpec = Annotated[HumanSeat | BotSeat, Field(discriminator="kind")]


class CreateGame(BaseModel):
    model_config = ConfigDict(strict=True)  # no coercion: 0 is not false, "1" not 1

    players: int = Field(ge=2, le=4)
    variant: Literal["standard", "mordred"] = "standard"
    seats: list[SeatSpec] = Field(min_length=2, max_length=4, description="one per player, in seat order")
    seed: int | None = Field(None, ge=0, le=MAX_SEED, description="decides the setup; random if left out")
    first_player: int = Field(0, ge=0, le=3)
    hints: bool = Field(False, description="allow hints on request")
    hotseat: bool = Field(False, description="all human seats play on one screen")
    memory: bool = Field(False, description="memory mode: no card history (log, record, replay) until the game ends")
    rated: bool = Field(False, description="the result changes the players' ratings: signed in, every person's seat "
                                           "held by an account, bots of a fixed level, no hints, no hot-seat")
    time_limit: Literal[120, 600, 86400, 259200] | None = Field(
        None, description="seconds per move (2 or 10 minutes, 1 or 3 days), or none: a person out of time is "
                          "replaced by the stand-in bot until they take their seat back")
    stand_in: str = Field(DEFAULT_STAND_IN, max_length=32, description="the bot level (GET /api/meta's bots) that "
                                                                       "plays for a person out of time or gone")


class Step(BaseModel):
    model_config = ConfigDict(strict=True)  # no coercion: 0 is not false, "1" not 1

    kind: Literal["pass", "card", "region", "faction", "none"]
    value: int = Field(-1, ge=-1, le=7, description="card 0-6, region 0-7, faction 0-3; -1 for pass and none")


class ErrorBody(BaseModel):
    """Every error answer: a stable code and a message in words."""

    error: str = Field(description="a stable word, e.g. 'bad_token' (see docs/web.md)")
    detail: str = Field(description="what went wrong, in words")


def _errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """OpenAPI entries for the error answers of a route (every route may also answer 413 and 422)."""
    said = {401: "no token given", 403: "a token of no seat of this game, or an invite already used",
            404: "no such game", 409: "the game's state does not allow it (over, stale, not your turn, taken)",
            413: "the request body is too large", 422: "malformed or invalid input",
            429: "too many requests from your address (Retry-After says when to try again)",
            503: "the server is too busy to take this now"}
    return {status: {"model": ErrorBody, "description": said[status]} for status in sorted({*statuses, 413, 422})}


class OptionsRequest(BaseModel):
    model_config = ConfigDict(strict=True)  # no coercion: 0 is not false, "1" not 1

    steps: list[Step] = Field(default_factory=list, max_length=12, description="the choices made so far")


class MoveRequest(BaseModel):
    model_config = ConfigDict(strict=True)  # no coercion: 0 is not false, "1" not 1

    move: str = Field(max_length=100, description="the move in notation, e.g. 'pass' or 'Scots Din Din +Cal:S'")
    move_number: int | None = Field(None, ge=0, description="moves played when you chose (stale check)")


_STEPS: TypeAdapter[list[Step]] = TypeAdapter(Annotated[list[Step], Field(max_length=12)])
bearer = HTTPBearer(auto_error=False, description="the seat's secret token from game creation or join")
Credentials = Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]


def create_app(database_url: str | None = None, bot_delay: float = 0.0, public_url: str | None = None,
               rate_limits: RateLimits | None = None, compute: ComputePool | None = None, lan: bool = False) -> FastAPI:
    """The app, storing games at ``database_url`` (default: $DATABASE_URL, else a SQLite file).

    ``public_url``: the address people reach the server at, for invite links
    (default: $KINGISDEAD_PUBLIC_URL, else http://localhost:8000); never taken
    from a request's Host header. ``rate_limits``: per-address limits (default:
    :meth:`RateLimits.from_env`). ``compute``: where bot moves, hints and analyses run
    (default: :meth:`ComputePool.from_env`, worker processes); the app shuts it down. ``lan``: plain-http
    LAN mode (docs/hosting.md): the session cookie without Secure, and the lobby says what is unprotected.
    """
    url = database_url or os.environ.get("DATABASE_URL") or DEFAULT_URL
    public = (public_url or os.environ.get("KINGISDEAD_PUBLIC_URL") or "http://localhost:8000").rstrip("/")
    limits = (rate_limits or RateLimits.from_env()).items()
    pool = compute or ComputePool.from_env()  # settings are checked before the database is touched
    service = GameService(url)
    limiter = RateLimiter(limits, service.engine)
    hub = Hub(service)
    runner = BotRunner(service, hub, pool, bot_delay)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        # Bots whose turn it was when the server stopped move now, in the background; idle games leave memory.
        background = [asyncio.create_task(runner.resume()), asyncio.create_task(evict_idle(service, hub, runner))]
        background.append(asyncio.create_task(enforce_deadlines(service, hub, runner)))  # move time limits
        # Other processes' moves (PostgreSQL): reload those games and tell their watchers here.
        listener = Listener(service.engine, lambda game_id, _number: hub.catch_up(game_id), hub.catch_up_all)
        listener.start()
        # Rated games that ended just before a crash, their ratings not yet applied; later, those of an outage.
        await asyncio.to_thread(apply_pending, service.engine)
        background.append(asyncio.create_task(keep_applied(service)))
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
    app.router.route_class = LocalizedRoute  # answers' texts in the request's language (see i18n.py)
    logging.getLogger("uvicorn.error").addFilter(quiet_bad_text)  # a client's bad frame: no traceback
    app.add_middleware(BodyLimit)
    app.add_middleware(SecurityHeaders)
    app.add_middleware(LanguageMiddleware, user_language=account_language)
    app.state.service, app.state.hub, app.state.runner, app.state.compute = service, hub, runner, pool
    app.state.limiter, app.state.public_url, app.state.lan = limiter, public, lan
    app.include_router(account_router(_errors))
    app.include_router(ratings_router(_errors))
    app.include_router(rematch_router(_errors))
    app.include_router(clocks_router(_errors))
    app.include_router(tutorial_router(_errors))  # /learn, the guided first game

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
        problems = join([_problem(e) for e in exc.errors()], "; ")
        return JSONResponse({"error": "invalid_request", "detail": problems}, status_code=422)

    async def game_of(game_id: str) -> LiveGame:
        """The game; only a first use, which reads and replays it, goes to a worker thread."""
        game = service.cached(game_id)
        return game if game is not None else await asyncio.to_thread(service.get, game_id)

    def client_of(connection: Request | WebSocket) -> str:
        return connection.client.host if connection.client else "unknown"

    async def checked_seat(game: LiveGame, token: str | None, client: str, user_id: int | None = None) -> int:
        """The seat of a token, or without one the seat the signed-in account ``user_id`` holds (403
        ``not_seated`` if none); wrong tokens count towards the address's limit. Once at the limit every
        token, right or wrong, gets 429: the answer tells a guesser nothing."""
        if not token and user_id is not None:
            held = service.account_seat(game, user_id)
            if held is None:
                raise GameError(403, "not_seated", _("your account holds no seat of this game"))
            return held
        try:
            seat = service.find_seat(game, token)
        except GameError as exc:
            if exc.status == 403:  # counted atomically: 429 instead once at the limit
                await asyncio.to_thread(limiter.hit, "bad_token", client)
            raise
        if token:
            await asyncio.to_thread(limiter.check, "bad_token", client)
        return seat

    async def seat_of(game: LiveGame, credentials: HTTPAuthorizationCredentials | None, request: Request) -> int:
        """The seat of the bearer token, else of the session cookie's account (see checked_seat)."""
        token = credentials.credentials if credentials else None
        user = None if token else await asyncio.to_thread(current_user, request)
        return await checked_seat(game, token, client_of(request), None if user is None else user.id)

    app.state.seat_of = seat_of  # for the routers' seat checks (clocks.py)

    # -- pages ---------------------------------------------------------------------------

    def page(name: str, request: Request, status: int = 200) -> HTMLResponse:
        """An HTML page (a Jinja2 template in static/) in the request's language."""
        session = SESSION_COOKIE in request.cookies
        return HTMLResponse(render_page(str(STATIC), name, language_of(request), session, lan), status_code=status)

    @app.get("/", include_in_schema=False)
    async def lobby_page(request: Request) -> HTMLResponse:
        return page("index.html", request)

    @app.get("/game/{game_id}", include_in_schema=False)
    async def game_page(game_id: str, request: Request) -> HTMLResponse:
        try:
            service.get(game_id)
        except GameError as exc:
            if exc.status != 404:
                raise
            return page("notfound.html", request, 404)
        return page("game.html", request)

    @app.get("/rules", include_in_schema=False)
    async def rules_page(request: Request) -> HTMLResponse:
        return page("rules.html", request)

    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")
    app.mount("/docs-assets", StaticFiles(directory=swagger_ui_path), name="docs-assets")

    @app.get("/docs", include_in_schema=False)
    async def api_docs(request: Request) -> HTMLResponse:
        """Swagger UI from the swagger-ui-bundle package: works offline, no inline script."""
        return page("docs.html", request)

    app.include_router(languages_router)

    # -- API ------------------------------------------------------------------------------

    @app.get("/api/meta", tags=["games"], summary="Bot levels, variants and the board's fixed data",
             responses=_errors())
    async def meta() -> dict[str, Any]:
        return {"version": __version__, "bots": bot_names(), "levels": bot_levels(), "variants": list(VARIANTS),
                "provisional_games": PROVISIONAL_GAMES, **board_facts()}

    @app.post("/api/games", status_code=201, tags=["games"], summary="Create a game",
              responses=_errors(403, 429))
    async def create_game(body: CreateGame, request: Request,
                          user: Annotated[Any, Depends(current_user)]) -> dict[str, Any]:
        """Returns the game and, once only, the creator's seat token(s) and every other human seat's invite.

        Each seat: ``token`` (a seat token the creator holds: the first human
        seat, or every human seat in hot-seat mode) or ``invite_token`` and
        ``invite`` (a link built from the server's public URL) for a seat meant
        for someone else; see POST /api/games/{id}/claim.
        """
        await asyncio.to_thread(limiter.hit, "create", client_of(request))
        game, tokens = await asyncio.to_thread(
            service.create, body.players, body.variant, [s.model_dump() for s in body.seats], body.seed,
            body.first_player, body.hints, body.hotseat, body.memory,
            rated=body.rated, user_id=None if user is None else user.id, user_name=None if user is None else user.name,
            time_limit=body.time_limit, stand_in=body.stand_in)
        runner.kick(game.id)

        def seat_entry(seat: Seat) -> dict[str, Any]:
            token = tokens.get(seat.seat)
            invite = token if token is not None and not seat.claimed else None
            return {**seat.to_dict(), "token": None if invite else token, "invite_token": invite,
                    "invite": f"{public}/game/{game.id}#token={invite}" if invite else None}

        return {"id": game.id, "url": f"{public}/game/{game.id}", "seats": [seat_entry(s) for s in game.seats],
                "game": service.view(game, None)}

    @app.get("/api/games", tags=["games"], summary="List games for the lobby", responses=_errors())
    async def list_games(status: Literal["open", "running", "finished"] | None = None) -> dict[str, Any]:
        return {"games": await asyncio.to_thread(service.list_games, status)}

    @app.get("/api/games/{game_id}", tags=["games"], summary="The game as your seat sees it",
             response_class=JSONResponse, responses=_errors(401, 403, 404, 429))
    async def get_game(game_id: str, credentials: Credentials, request: Request) -> JSONResponse:
        """Without a token: the spectator's view (no hand), or your seat's if your account holds one.
        With a token: your own hand as well."""
        game = await game_of(game_id)
        if credentials:
            seat: int | None = await seat_of(game, credentials, request)
        else:
            user = await asyncio.to_thread(current_user, request)
            seat = None if user is None else service.account_seat(game, user.id)
        return JSONResponse(service.view(service.get(game_id), seat))

    @app.post("/api/games/{game_id}/join", tags=["seats"], summary="Take a free seat offered in the lobby",
              responses=_errors(403, 404, 409, 429))
    async def join_game(game_id: str, request: Request, user: Account) -> dict[str, Any]:
        """Takes the first seat its creator opened to anyone: ``{"seat", "token"}``; 409 if none is left.
        A signed-in player's account holds the seat, under the account's name."""
        await asyncio.to_thread(limiter.hit, "join", client_of(request))
        seat, token = await asyncio.to_thread(service.join, game_id, None if user is None else user.id,
                                              None if user is None else user.name)
        return {"seat": seat, "token": token}

    @app.post("/api/games/{game_id}/claim", tags=["seats"], summary="Exchange an invite for the seat's token",
              responses=_errors(401, 403, 404, 409, 429))
    async def claim(game_id: str, credentials: Credentials, request: Request, user: Account) -> dict[str, Any]:
        """Send the invite token (Authorization: Bearer); once only, you get ``{"seat", "token"}``.

        The new token is the seat's from then on; the invite is spent (403 ``invite_used``).
        A signed-in player's account holds the seat, under the account's name.
        """
        await asyncio.to_thread(limiter.hit, "join", client_of(request))
        await game_of(game_id)
        invite = credentials.credentials if credentials else None
        seat, token = await asyncio.to_thread(service.claim_invite, game_id, invite,
                                              None if user is None else user.id, None if user is None else user.name)
        await hub.broadcast(game_id)
        return {"seat": seat, "token": token}

    @app.post("/api/games/{game_id}/seats/{seat}/open", tags=["seats"], summary="Offer a private seat in the lobby",
              responses=_errors(401, 403, 404, 409, 429))
    async def open_seat(game_id: str, seat: int, credentials: Credentials, request: Request) -> dict[str, Any]:
        """The creator (with the creator's seat token) lets anyone in the lobby take a seat meant for a friend."""
        game = await game_of(game_id)
        by = await seat_of(game, credentials, request)
        game = await asyncio.to_thread(service.open_seat, game_id, seat, by)
        await hub.broadcast(game_id)
        return service.view(game, by)

    @app.post("/api/games/{game_id}/options", tags=["moves"], summary="Next choices for a move built step by step",
              responses=_errors(401, 403, 404, 409, 429))
    async def options(game_id: str, body: OptionsRequest, credentials: Credentials, request: Request) -> dict[str, Any]:
        """Send the steps chosen so far; get the choices that can still complete a legal move."""
        game = await game_of(game_id)
        seat = await seat_of(game, credentials, request)
        steps = [Choice(s.kind, s.value) for s in body.steps]
        return await asyncio.to_thread(service.options, game, seat, steps)

    @app.post("/api/games/{game_id}/moves", tags=["moves"], summary="Play a move", response_class=JSONResponse,
              responses=_errors(401, 403, 404, 409, 429))
    async def play(game_id: str, body: MoveRequest, credentials: Credentials, request: Request) -> JSONResponse:
        """The engine validates the move; it is stored before anyone is told."""
        game = await game_of(game_id)
        seat = await seat_of(game, credentials, request)
        await asyncio.to_thread(service.play, game_id, seat, body.move, body.move_number)
        runner.kick(game_id)
        await hub.broadcast(game_id)
        return JSONResponse(service.view(service.get(game_id), seat))

    @app.post("/api/games/{game_id}/hint", tags=["moves"], summary="Suggested moves (if the game allows hints)",
              responses=_errors(401, 403, 404, 409, 429, 503))
    async def hint(game_id: str, credentials: Credentials, request: Request) -> dict[str, Any]:
        game = await game_of(game_id)
        seat = await seat_of(game, credentials, request)
        job = service.hint(game, seat)
        return {"move_number": job.move_number, **await pool.run(job, client_of(request))}

    @app.get("/api/games/{game_id}/analysis", tags=["games"], summary="Move-by-move analysis of a finished game",
             responses=_errors(404, 409, 429, 503))
    async def analysis(game_id: str, request: Request) -> dict[str, Any]:
        """Each move with the best alternative the search found and the win chance it gave away."""
        game = await game_of(game_id)
        known = service.analysis(game)
        if isinstance(known, dict):
            return known
        return service.remember(game_id, await pool.run(known, client_of(request)))

    @app.get("/api/games/{game_id}/record", tags=["games"], summary="Download the game record (JSON)",
             responses={200: {"content": {"application/json": {}}}, **_errors(404, 409)})
    async def record(game_id: str) -> Response:
        """The record in the `kingisdead replay` format; its ``seed`` is null until the game is over
        (409 ``memory_mode`` while a memory-mode game runs)."""
        game = await game_of(game_id)
        return Response(service.public_record(game) + "\n", media_type="application/json",
                        headers={"Content-Disposition": f'attachment; filename="kingisdead-{game_id}.json"'})

    @app.get("/api/games/{game_id}/replay/{number}", tags=["games"], summary="The table after a number of moves",
             responses=_errors(404, 409))
    async def replay(game_id: str, number: int) -> dict[str, Any]:
        game = await game_of(game_id)
        return await asyncio.to_thread(service.replay_frame, game, number)

    @app.websocket("/api/games/{game_id}/ws")
    async def live(socket: WebSocket, game_id: str) -> None:
        """Live updates; a player authenticates with a first message ``{"type": "auth", "token": ...}``,
        or by the session cookie sent with the upgrade (a seat the signed-in account holds).

        See docs/web.md for the messages. Every message is checked for size,
        frame type, nesting and numbers before it is parsed; anything wrong is
        answered with an error message and the socket stays open.
        """
        await socket.accept()
        try:
            await game_of(game_id)
        except GameError as exc:
            await socket.send_json(localize({"type": "error", **error_body(exc)}, language_of(socket)))
            await socket.close(code=4000 + exc.status)
            return
        user = await asyncio.to_thread(user_of_socket, socket, public)
        held = None if user is None else service.account_seat(service.get(game_id), user.id)
        seat: list[int | None] = [held]  # the account's seat, or set by an auth message
        if held is not None:
            by_cookie.add(socket)

        async def answer(text: str | None) -> dict[str, Any] | None:
            if text is None:
                return {"type": "error", "error": "invalid_request",
                        "detail": _("binary frames are not part of this protocol")}
            return await _handle(text, game_id, seat, socket)

        try:
            await hub.serve(game_id, socket, held, answer)  # see Hub.serve: queues, drops, inbound rate
        finally:
            by_cookie.discard(socket)

    by_cookie: set[WebSocket] = set()  # sockets whose seat came from the cookie: a token may still replace it

    async def _handle(text: str, game_id: str, seat: list[int | None], socket: WebSocket) -> dict[str, Any] | None:
        """One client message: a reply for the sender, or None (moves are answered by the broadcast)."""
        try:
            message = parse_ws_json(text)
            if not isinstance(message, dict):
                raise GameError(422, "invalid_request", _("a message is a JSON object"))
            kind = message.get("type")
            if kind == "ping":
                return {"type": "pong"}
            if kind == "auth":
                token = message.get("token")
                if not isinstance(token, str) or not token or len(token) > 200:
                    raise GameError(422, "invalid_request", _("an auth message needs 'token' (your seat's token)"))
                if seat[0] is not None and socket not in by_cookie:
                    raise GameError(409, "authenticated", _("this socket is already authenticated"))
                game = await game_of(game_id)
                seat[0] = await checked_seat(game, token, client_of(socket))
                by_cookie.discard(socket)
                hub.sit(game_id, socket, seat[0])
                return None
            if kind not in ("move", "options"):
                raise GameError(422, "invalid_request", _("message type must be 'auth', 'move', 'options' or 'ping'"))
            if seat[0] is None:
                raise GameError(401, "no_token", _("spectators cannot play: send {message} first",
                                                    message='{"type": "auth", "token": …}'))
            if kind == "options":
                try:
                    parsed = _STEPS.validate_python(message.get("steps", []))
                except ValidationError as exc:
                    raise GameError(422, "invalid_request", _("malformed steps: {problems}", problems=join(
                        [_problem(dict(e)) for e in exc.errors()], "; "))) from None
                game = service.get(game_id)
                steps = [Choice(s.kind, s.value) for s in parsed]
                return {"type": "options", **await asyncio.to_thread(service.options, game, seat[0], steps)}
            move, number = message.get("move"), message.get("move_number")
            if not isinstance(move, str) or len(move) > 100 or not (
                    number is None or (type(number) is int and 0 <= number <= 10_000)):
                raise GameError(422, "invalid_request", _("a move message needs 'move' (text, at most 100 characters) "
                                                          "and 'move_number' (a whole number from 0)"))
            await asyncio.to_thread(service.play, game_id, seat[0], move, number)
        except GameError as exc:
            reply = {"type": "error", **error_body(exc)}
            if isinstance(exc, RateLimited):
                reply["retry_after"] = exc.retry_after
            return reply
        except DATABASE_DOWN as exc:
            return unavailable_message(game_id, exc)
        runner.kick(game_id)
        await hub.broadcast(game_id)
        return None

    return app


def allowed_methods(request: Request) -> set[str]:
    """The methods the app's OpenAPI schema documents at the request's path (none for a page's path)."""
    path = request.url.path
    return {method.upper() for template, item in request.app.openapi()["paths"].items()
            if compile_path(template)[0].fullmatch(path) for method in item}


_VALIDATION = {  # Pydantic's messages by error type, as interface texts filled from the error's ctx
    "missing": N_("Field required"),
    "less_than_equal": N_("Input should be less than or equal to {le}"),
    "greater_than_equal": N_("Input should be greater than or equal to {ge}"),
    "string_too_long": N_("String should have at most {max_length} characters"),
    "literal_error": N_("Input should be {expected}"),
    "int_parsing": N_("Input should be a valid integer, unable to parse string as an integer"),
    "int_type": N_("Input should be a valid integer"),
    "bool_type": N_("Input should be a valid boolean"),
    "bool_parsing": N_("Input should be a valid boolean, unable to interpret input"),
    "string_type": N_("Input should be a valid string"),
    "list_type": N_("Input should be a valid list"),
    "model_attributes_type": N_("Input should be a valid dictionary or object to extract fields from"),
}


def _problem(error: dict[str, Any]) -> str:
    """One validation error in words (in the request's language where its type is known)."""
    ctx = error.get("ctx") or {}
    if error.get("type") == "json_invalid":
        return _("malformed JSON: {problem}", problem=str(ctx.get("error", "cannot be read")))
    where = ".".join(str(part) for part in error.get("loc", ()) if part != "body")
    known = _VALIDATION.get(str(error.get("type")))
    english = str(error.get("msg"))
    message = _(known, **{k: str(v) for k, v in ctx.items()}) if known else english
    if known and message != english:  # a message Pydantic words differently: keep Pydantic's
        message = english
    return _("{field}: {problem}", field=where, problem=message) if where else message
