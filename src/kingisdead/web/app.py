"""The web app: HTTP API, WebSocket updates and the browser pages (FastAPI).

``create_app()`` builds the app around one :class:`GameService`; ``kingisdead
serve`` runs it with uvicorn. See docs/web.md for the API in words; the
generated OpenAPI schema is served at /openapi.json and browsable at /docs.
"""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib.resources import files
from typing import Annotated, Any, Literal

from fastapi import Depends, FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field

from .. import VARIANTS, __version__
from ..building import Choice
from .db import DEFAULT_URL
from .games import GameError, GameService, LiveGame, bot_names
from .live import BotRunner, Hub, error_body
from .views import board_facts

STATIC = files("kingisdead.web") / "static"
MAX_SEED = 2**63 - 1


class SeatSpec(BaseModel):
    kind: Literal["human", "bot"] = Field(description="a person (gets a token) or a bot")
    bot: str | None = Field(None, description="bot level, one of GET /api/meta's bots (for kind 'bot')")
    name: str | None = Field(None, max_length=40, description="shown at the table")


class CreateGame(BaseModel):
    players: int = Field(ge=2, le=4)
    variant: Literal["standard", "mordred"] = "standard"
    seats: list[SeatSpec] = Field(description="one per player, in seat order")
    seed: int | None = Field(None, ge=0, le=MAX_SEED, description="decides the setup; random if left out")
    first_player: int = Field(0, ge=0, le=3)
    hints: bool = Field(False, description="allow hints on request")
    hotseat: bool = Field(False, description="all human seats play on one screen")


class Step(BaseModel):
    kind: Literal["pass", "card", "region", "faction", "none"]
    value: int = -1


class OptionsRequest(BaseModel):
    steps: list[Step] = Field(default_factory=list, max_length=12, description="the choices made so far")


class MoveRequest(BaseModel):
    move: str = Field(max_length=100, description="the move in notation, e.g. 'pass' or 'Scots Din Din +Cal:S'")
    move_number: int | None = Field(None, ge=0, description="moves played when you chose (stale check)")


bearer = HTTPBearer(auto_error=False, description="the seat's secret token from game creation or join")
Credentials = Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]


def create_app(database_url: str | None = None, bot_delay: float = 0.0) -> FastAPI:
    """The app, storing games at ``database_url`` (default: $DATABASE_URL, else a SQLite file)."""
    url = database_url or os.environ.get("DATABASE_URL") or DEFAULT_URL
    service = GameService(url)
    hub = Hub(service)
    runner = BotRunner(service, hub, bot_delay)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        for game_id in await asyncio.to_thread(service.running_games):
            runner.kick(game_id)  # bots whose turn it was when the server stopped move now
        yield
        await runner.stop()
        service.close()

    app = FastAPI(
        title="The King Is Dead",
        version=__version__,
        description="Play The King Is Dead in the browser: games, seats, moves and live updates. "
                    "See docs/web.md for the WebSocket protocol.",
        lifespan=lifespan,
    )
    app.state.service, app.state.hub, app.state.runner = service, hub, runner

    @app.exception_handler(GameError)
    async def _game_error(_request: Request, exc: GameError) -> JSONResponse:
        return JSONResponse(error_body(exc), status_code=exc.status)

    @app.exception_handler(RequestValidationError)
    async def _invalid(_request: Request, exc: RequestValidationError) -> JSONResponse:
        problems = "; ".join(_problem(e) for e in exc.errors())
        return JSONResponse({"error": "invalid_request", "detail": problems}, status_code=422)

    async def game_of(game_id: str) -> LiveGame:
        """The game; only a first use, which reads and replays it, goes to a worker thread."""
        game = service.cached(game_id)
        return game if game is not None else await asyncio.to_thread(service.get, game_id)

    async def seat_of(game: LiveGame, credentials: HTTPAuthorizationCredentials | None) -> int:
        seat = service.find_seat(game, credentials.credentials if credentials else None)
        if not game.seats[seat].claimed:
            await asyncio.to_thread(service.claim, game, seat)
        return seat

    # -- pages ---------------------------------------------------------------------------

    @app.get("/", include_in_schema=False)
    async def lobby_page() -> FileResponse:
        return FileResponse(str(STATIC / "index.html"))

    @app.get("/game/{game_id}", include_in_schema=False)
    async def game_page(game_id: str) -> FileResponse:
        return FileResponse(str(STATIC / "game.html"))

    @app.get("/rules", include_in_schema=False)
    async def rules_page() -> FileResponse:
        return FileResponse(str(STATIC / "rules.html"))

    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")

    # -- API ------------------------------------------------------------------------------

    @app.get("/api/meta", tags=["games"], summary="Bot levels, variants and the board's fixed data")
    async def meta() -> dict[str, Any]:
        return {"version": __version__, "bots": bot_names(), "variants": list(VARIANTS), **board_facts()}

    @app.post("/api/games", status_code=201, tags=["games"], summary="Create a game")
    async def create_game(body: CreateGame, request: Request) -> dict[str, Any]:
        """Returns the game and, once only, the secret token and invite link of every human seat."""
        game, tokens = await asyncio.to_thread(
            service.create, body.players, body.variant, [s.model_dump() for s in body.seats], body.seed,
            body.first_player, body.hints, body.hotseat)
        runner.kick(game.id)
        base = str(request.base_url).rstrip("/")
        return {
            "id": game.id,
            "url": f"{base}/game/{game.id}",
            "seats": [
                {**seat.to_dict(), "token": tokens.get(seat.seat),
                 "invite": f"{base}/game/{game.id}#token={tokens[seat.seat]}" if seat.seat in tokens else None}
                for seat in game.seats
            ],
            "game": service.view(game, None),
        }

    @app.get("/api/games", tags=["games"], summary="List games for the lobby")
    async def list_games(status: Literal["open", "running", "finished"] | None = None) -> dict[str, Any]:
        return {"games": await asyncio.to_thread(service.list_games, status)}

    @app.get("/api/games/{game_id}", tags=["games"], summary="The game as your seat sees it",
             response_class=JSONResponse)
    async def get_game(game_id: str, credentials: Credentials) -> JSONResponse:
        """Without a token: the spectator's view (no hand). With one: your own hand as well."""
        game = await game_of(game_id)
        seat = await seat_of(game, credentials) if credentials else None
        return JSONResponse(service.view(service.get(game_id), seat))

    @app.post("/api/games/{game_id}/join", tags=["games"], summary="Take a free seat")
    async def join_game(game_id: str) -> dict[str, Any]:
        seat, token = await asyncio.to_thread(service.join, game_id)
        return {"seat": seat, "token": token}

    @app.post("/api/games/{game_id}/options", tags=["moves"], summary="Next choices for a move built step by step")
    async def options(game_id: str, body: OptionsRequest, credentials: Credentials) -> dict[str, Any]:
        """Send the steps chosen so far; get the choices that can still complete a legal move."""
        game = await game_of(game_id)
        seat = await seat_of(game, credentials)
        steps = [Choice(s.kind, s.value) for s in body.steps]
        return await asyncio.to_thread(service.options, game, seat, steps)

    @app.post("/api/games/{game_id}/moves", tags=["moves"], summary="Play a move", response_class=JSONResponse)
    async def play(game_id: str, body: MoveRequest, credentials: Credentials) -> JSONResponse:
        """The engine validates the move; it is stored before anyone is told."""
        game = await game_of(game_id)
        seat = await seat_of(game, credentials)
        await asyncio.to_thread(service.play, game_id, seat, body.move, body.move_number)
        runner.kick(game_id)
        await hub.broadcast(game_id)
        return JSONResponse(service.view(service.get(game_id), seat))

    @app.post("/api/games/{game_id}/hint", tags=["moves"], summary="Suggested moves (if the game allows hints)")
    async def hint(game_id: str, credentials: Credentials) -> dict[str, Any]:
        game = await game_of(game_id)
        seat = await seat_of(game, credentials)
        return await asyncio.to_thread(service.hint, game, seat)

    @app.get("/api/games/{game_id}/analysis", tags=["games"], summary="Move-by-move analysis of a finished game")
    async def analysis(game_id: str) -> dict[str, Any]:
        """Each move with the best alternative the search found and the win chance it gave away."""
        game = await game_of(game_id)
        return await asyncio.to_thread(service.analysis, game)

    @app.get("/api/games/{game_id}/record", tags=["games"], summary="Download the game record (JSON)")
    async def record(game_id: str) -> Response:
        game = await game_of(game_id)
        return Response(game.record().dumps() + "\n", media_type="application/json",
                        headers={"Content-Disposition": f'attachment; filename="kingisdead-{game_id}.json"'})

    @app.get("/api/games/{game_id}/replay/{number}", tags=["games"], summary="The table after a number of moves")
    async def replay(game_id: str, number: int) -> dict[str, Any]:
        game = await game_of(game_id)
        return await asyncio.to_thread(service.replay_frame, game, number)

    @app.websocket("/api/games/{game_id}/ws")
    async def live(socket: WebSocket, game_id: str, token: str | None = None) -> None:
        """Live updates; see docs/web.md for the messages."""
        await socket.accept()
        try:
            game = await game_of(game_id)
            seat = await asyncio.to_thread(service.seat_for, game, token) if token else None
        except GameError as exc:
            await socket.send_json({"type": "error", **error_body(exc)})
            await socket.close(code=4000 + exc.status)
            return
        hub.add(game_id, socket, seat)
        try:
            await hub.send_state(game_id, socket, seat)
            while True:
                reply = await _handle(await socket.receive_text(), game_id, seat)
                if reply is not None:
                    await socket.send_json(reply)
        except WebSocketDisconnect:
            pass
        finally:
            hub.remove(game_id, socket)

    async def _handle(text: str, game_id: str, seat: int | None) -> dict[str, Any] | None:
        """One client message: a reply for the sender, or None (moves are answered by the broadcast)."""
        try:
            message = json.loads(text)
        except ValueError as exc:
            return {"type": "error", "error": "invalid_request", "detail": f"malformed JSON: {exc}"}
        if not isinstance(message, dict):
            return {"type": "error", "error": "invalid_request", "detail": "a message is a JSON object"}
        kind = message.get("type")
        try:
            if kind == "ping":
                return {"type": "pong"}
            if kind not in ("move", "options"):
                raise GameError(422, "invalid_request", "message type must be 'move', 'options' or 'ping'")
            if seat is None:
                raise GameError(401, "no_token", "spectators cannot play: connect with your seat's token")
            if kind == "options":
                steps = [Choice(str(s["kind"]), int(s.get("value", -1))) for s in message.get("steps", [])]
                game = service.get(game_id)
                return {"type": "options", **await asyncio.to_thread(service.options, game, seat, steps)}
            move, number = message.get("move"), message.get("move_number")
            if not isinstance(move, str) or not (number is None or isinstance(number, int)):
                return {"type": "error", "error": "invalid_request",
                        "detail": "a move message needs 'move' (text) and 'move_number' (a whole number)"}
            await asyncio.to_thread(service.play, game_id, seat, move, number)
        except GameError as exc:
            return {"type": "error", **error_body(exc)}
        except (KeyError, TypeError, ValueError) as exc:
            return {"type": "error", "error": "invalid_request", "detail": f"malformed steps: {exc}"}
        runner.kick(game_id)
        await hub.broadcast(game_id)
        return None

    return app


def _problem(error: dict[str, Any]) -> str:
    if error.get("type") == "json_invalid":
        return f"malformed JSON: {error.get('ctx', {}).get('error', 'cannot be read')}"
    where = ".".join(str(part) for part in error.get("loc", ()) if part != "body")
    return f"{where}: {error.get('msg')}" if where else str(error.get("msg"))
