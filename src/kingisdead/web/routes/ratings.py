"""The leaderboard (the ratings themselves are :mod:`..ratings`'s)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query

from ..localized import LocalizedRoute
from ..ratings import leaderboard
from .deps import Service, shared_router


def router(errors: Callable[..., dict[int | str, dict[str, Any]]]) -> APIRouter:
    """The leaderboard's route; ``errors(*statuses)`` gives the OpenAPI error answers (app.py's)."""
    routes = shared_router(tags=["ratings"], route_class=LocalizedRoute)

    @routes.get("/api/leaderboard", summary="Ratings for one edition and player count, best first (bots marked)",
                responses=errors())
    async def get_leaderboard(service: Service, players: Annotated[int, Query(ge=2, le=4)] = 2,
                              limit: Annotated[int, Query(ge=1, le=500)] = 100,
                              edition: Literal["first", "second"] = "first") -> dict[str, Any]:
        """The ratings of one edition (each edition's are its own). Each entry: ``rank``, ``name``, ``bot`` (a bot level's account) with its ``level``, ``rating``
        (the conservative estimate mu - 3 sigma that orders the list), ``provisional`` (fewer than
        PROVISIONAL_GAMES rated games: show it as provisional, not as the number), ``mu``, ``sigma`` and
        rated ``games``. ``bots`` maps every bot level to its rating, for placing oneself."""
        return await asyncio.to_thread(leaderboard, service.sessions, players, limit, edition)

    return routes
