"""Rematch: "play again" with the same people (the logic is :mod:`..rematch`'s)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field

from ..localized import LocalizedRoute
from ..rematch import make_rematch, rematch_seat
from .deps import Credentials, LiveHub, PublicUrl, Runner, Service, game_of, seat_of, shared_router


class RematchRequest(BaseModel):
    model_config = ConfigDict(strict=True)  # no coercion: 0 is not false, "1" not 1

    rotate: bool = Field(False, description="seat everyone one place on (the last seat's player takes seat 1)")
    rated: bool | None = Field(None, description="false: a rated game's rematch is played unrated; null or "
                                               "true: as the game was (the first request decides)")


def router(errors: Callable[..., dict[int | str, dict[str, Any]]]) -> APIRouter:
    """The rematch route; ``errors(*statuses)`` gives the OpenAPI error answers (app.py's)."""
    routes = shared_router(tags=["seats"], route_class=LocalizedRoute)

    @routes.post("/api/games/{game_id}/rematch", summary="Play again: the same seats (or rotated), a new game",
                 responses=errors(401, 403, 404, 409, 429))
    async def rematch(game_id: str, body: RematchRequest, credentials: Credentials, request: Request,
                      service: Service, runner: Runner, hub: LiveHub, public_url: PublicUrl) -> dict[str, Any]:
        """A person seated at the finished game (their seat token, or signed in) asks; the first request
        makes the new game (``rotate`` decides its seats, ``rated`` false drops a rated game's rating),
        later ones get the same game. Answers
        ``{"id", "url", "seat", "token", "rotated", "game"}``: ``token`` is this person's seat token in
        the new game (null when asked by account alone: the session holds the seat). Watchers of the
        finished game get ``{"type": "rematch", "game": id}``."""
        game = await game_of(request, game_id)
        seat = await seat_of(game, credentials, request)
        new_id, made = await asyncio.to_thread(make_rematch, service, game_id, body.rotate, body.rated)
        token = credentials.credentials if credentials else None
        user = getattr(request.state, "user", None)
        new_seat, new_token = await asyncio.to_thread(rematch_seat, service, game_id, seat, token,
                                                      None if user is None else user.id)
        runner.kick(new_id)
        if made:
            await hub.announce(game_id, {"type": "rematch", "game": new_id})
            await hub.broadcast(game_id)
        await hub.broadcast(new_id)
        new = service.get(new_id)
        return {"id": new_id, "url": f"{public_url}/game/{new_id}", "seat": new_seat, "token": new_token,
                "rotated": new_seat != seat, "game": service.view(new, new_seat)}

    return routes
