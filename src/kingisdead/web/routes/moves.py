"""Moves: the next choices of a move built step by step, playing a move, and hints."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from ...board import FIRST_CUNNING, NUM_CUNNING
from ...building import Choice
from ..localized import LocalizedJSON as JSONResponse
from ..localized import LocalizedRoute
from .deps import Compute, Credentials, Integer, LiveHub, Runner, Service, client_of, game_of, integer, seat_of, shared_router
from .schemas import GameView


class Step(BaseModel):
    model_config = ConfigDict(strict=True)  # no coercion: 0 is not false, "1" not 1

    kind: Literal["pass", "card", "region", "faction", "none"]
    value: Integer = Field(-1, ge=-1, le=FIRST_CUNNING + NUM_CUNNING - 1,
                           description="card 0-6 (the advanced game's Cunning cards 7-18), region 0-7, faction 0-3; "
                                       "-1 for pass and none")


class OptionsRequest(BaseModel):
    model_config = ConfigDict(strict=True)  # no coercion: 0 is not false, "1" not 1

    steps: list[Step] = Field(default_factory=list, max_length=12, description="the choices made so far")


class MoveRequest(BaseModel):
    model_config = ConfigDict(strict=True)  # no coercion: 0 is not false, "1" not 1

    move: str = Field(max_length=100, description="the move in notation, e.g. 'pass' or 'Scots Din Din +Cal:S'")
    move_number: integer(ge=0) | None = Field(None, description="moves played when you chose (stale check)")


STEPS: TypeAdapter[list[Step]] = TypeAdapter(Annotated[list[Step], Field(max_length=12)])
"""The steps of an ``options`` message on the socket, checked as the HTTP route checks them."""


def router(errors: Callable[..., dict[int | str, dict[str, Any]]]) -> APIRouter:
    """The moves' routes."""
    moves = shared_router(route_class=LocalizedRoute, tags=["moves"])

    @moves.post("/api/games/{game_id}/options", summary="Next choices for a move built step by step",
                responses=errors(401, 403, 404, 409, 429))
    async def options(game_id: str, body: OptionsRequest, credentials: Credentials, request: Request,
                      service: Service) -> dict[str, Any]:
        """Send the steps chosen so far; get the choices that can still complete a legal move."""
        game = await game_of(request, game_id)
        seat = await seat_of(game, credentials, request)
        steps = [Choice(s.kind, s.value) for s in body.steps]
        return dict(await asyncio.to_thread(service.options, game, seat, steps))

    @moves.post("/api/games/{game_id}/moves", summary="Play a move", response_class=JSONResponse,
                response_model=GameView, response_model_exclude_unset=True,
                responses=errors(401, 403, 404, 409, 429))
    async def play(game_id: str, body: MoveRequest, credentials: Credentials, request: Request, service: Service,
                   runner: Runner, hub: LiveHub) -> JSONResponse:
        """The engine validates the move; it is stored before anyone is told."""
        game = await game_of(request, game_id)
        seat = await seat_of(game, credentials, request)
        await asyncio.to_thread(service.play, game_id, seat, body.move, body.move_number)
        runner.kick(game_id)
        await hub.broadcast(game_id)
        return JSONResponse(service.view(service.get(game_id), seat))

    @moves.post("/api/games/{game_id}/hint", summary="Suggested moves (if the game allows hints)",
                responses=errors(401, 403, 404, 409, 429, 503))
    async def hint(game_id: str, credentials: Credentials, request: Request, service: Service,
                   compute: Compute) -> dict[str, Any]:
        game = await game_of(request, game_id)
        seat = await seat_of(game, credentials, request)
        job = service.hint(game, seat)
        return {"move_number": job.move_number, **await compute.run(job, client_of(request))}

    return moves
