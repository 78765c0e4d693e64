"""Seats: taking a seat offered in the lobby, exchanging an invite, offering a private seat to anyone."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Request

from ..localized import LocalizedRoute
from .deps import Account, Credentials, Limiter, LiveHub, Service, client_of, game_of, seat_of, shared_router
from .schemas import GameView


def router(errors: Callable[..., dict[int | str, dict[str, Any]]]) -> APIRouter:
    """The seats' routes."""
    seats = shared_router(route_class=LocalizedRoute, tags=["seats"])

    @seats.post("/api/games/{game_id}/join", summary="Take a free seat offered in the lobby",
                responses=errors(403, 404, 409, 429))
    async def join_game(game_id: str, request: Request, user: Account, service: Service,
                        limiter: Limiter) -> dict[str, Any]:
        """Takes the first seat its creator opened to anyone: ``{"seat", "token"}``; 409 if none is left.
        A signed-in player's account holds the seat, under the account's name."""
        await asyncio.to_thread(limiter.hit, "join", client_of(request))
        seat, token = await asyncio.to_thread(service.join, game_id, None if user is None else user.id,
                                              None if user is None else user.name)
        return {"seat": seat, "token": token}

    @seats.post("/api/games/{game_id}/claim", summary="Exchange an invite for the seat's token",
                responses=errors(401, 403, 404, 409, 429))
    async def claim(game_id: str, credentials: Credentials, request: Request, user: Account, service: Service,
                    limiter: Limiter, hub: LiveHub) -> dict[str, Any]:
        """Send the invite token (Authorization: Bearer); once only, you get ``{"seat", "token"}``.

        The new token is the seat's from then on; the invite is spent (403 ``invite_used``).
        A signed-in player's account holds the seat, under the account's name.
        """
        await asyncio.to_thread(limiter.hit, "join", client_of(request))
        await game_of(request, game_id)
        invite = credentials.credentials if credentials else None
        seat, token = await asyncio.to_thread(service.claim_invite, game_id, invite,
                                              None if user is None else user.id, None if user is None else user.name)
        await hub.broadcast(game_id)
        return {"seat": seat, "token": token}

    @seats.post("/api/games/{game_id}/seats/{seat}/open", summary="Offer a private seat in the lobby",
                response_model=GameView, response_model_exclude_unset=True,
                responses=errors(401, 403, 404, 409, 429))
    async def open_seat(game_id: str, seat: int, credentials: Credentials, request: Request, service: Service,
                        hub: LiveHub) -> dict[str, Any]:
        """The creator (with the creator's seat token) lets anyone in the lobby take a seat meant for a friend."""
        game = await game_of(request, game_id)
        by = await seat_of(game, credentials, request)
        game = await asyncio.to_thread(service.open_seat, game_id, seat, by)
        await hub.broadcast(game_id)
        return dict(service.view(game, by))

    return seats
