"""Clocks and seats in play: taking a seat back from the stand-in, leaving a game, taking a move back (the
logic is :mod:`..clocks`'s)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Request

from ..clocks import leave, return_seat, take_back
from ..localized import LocalizedRoute
from ..live_game import LiveGame
from ..service import GameService
from .deps import Credentials, LiveHub, Runner, Service, game_of, seat_of, shared_router
from .schemas import GameView


async def _act(request: Request, game_id: str, credentials: Credentials, service: GameService, runner: Runner,
               hub: LiveHub, change: Callable[[GameService, str, int], LiveGame]) -> dict[str, Any]:
    """Find the asker's seat (:func:`.deps.seat_of`), make the change in a worker thread, start any bot now
    to move, tell the watchers; the asker's view of the game."""
    game = await game_of(request, game_id)
    seat = await seat_of(game, credentials, request)
    game = await asyncio.to_thread(change, service, game_id, seat)
    runner.kick(game_id)
    await hub.broadcast(game_id)
    return service.view(game, seat)


def router(errors: Callable[..., dict[int | str, dict[str, Any]]]) -> APIRouter:
    """The routes: return, leave, take back. ``errors(*statuses)`` gives a route's OpenAPI error answers."""
    routes = shared_router(route_class=LocalizedRoute)  # answers are views: texts in the request's language

    @routes.post("/api/games/{game_id}/return", tags=["seats"], summary="Take your seat back from the stand-in bot",
                 response_model=GameView, response_model_exclude_unset=True,
                 responses=errors(401, 403, 404, 409, 429))
    async def take_seat_back(game_id: str, credentials: Credentials, request: Request, service: Service, runner: Runner,
                             hub: LiveHub) -> dict[str, Any]:
        """After running out of time (your seat is ``away``), play your seat again: from this turn if the
        stand-in has not moved yet, else from your next. 409 ``left`` for a seat that left the game."""
        return await _act(request, game_id, credentials, service, runner, hub, return_seat)

    @routes.post("/api/games/{game_id}/leave", tags=["seats"], summary="Leave the game: a bot finishes it for you",
                 response_model=GameView, response_model_exclude_unset=True,
                 responses=errors(401, 403, 404, 409, 429))
    async def leave_game(game_id: str, credentials: Credentials, request: Request, service: Service, runner: Runner,
                         hub: LiveHub) -> dict[str, Any]:
        """Your seat is ``left`` for good: the game's stand-in bot plays it to the end. It cannot be taken back."""
        return await _act(request, game_id, credentials, service, runner, hub, leave)

    @routes.post("/api/games/{game_id}/takeback", tags=["moves"], summary="Take back your last move (against bots)",
                 response_model=GameView, response_model_exclude_unset=True,
                 responses=errors(401, 403, 404, 409, 429))
    async def takeback(game_id: str, credentials: Credentials, request: Request, service: Service, runner: Runner,
                       hub: LiveHub) -> dict[str, Any]:
        """Undo your last move and the bots' replies after it: only in unrated games where every other seat is
        a bot (403 ``rated``, ``not_against_bots``), and only while no struggle has been resolved by your move
        or since (409 ``struggle_resolved``)."""
        return await _act(request, game_id, credentials, service, runner, hub, take_back)

    return routes
