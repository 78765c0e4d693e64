"""The /learn page and the tutorial's API (the script and the games are :mod:`..tutorial`'s)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, Literal

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from ..errors import GameError
from ..i18n import LocalizedRoute, _
from ..tutorial import LEARNER, TUTOR, TUTOR_NAME, TUTORIALS, create_tutorial, lesson, script
from .deps import Limiter, PublicUrl, Service, client_of, page


def router(errors: Callable[..., dict[int | str, dict[str, Any]]]) -> APIRouter:
    """The /learn page and the tutorial's API."""
    api = APIRouter(route_class=LocalizedRoute)

    @api.get("/learn", include_in_schema=False)
    async def learn_page(request: Request) -> HTMLResponse:
        return page("learn.html", request)

    def lesson_of(edition: str, mode: str) -> str:
        try:
            return lesson(edition, mode)
        except ValueError:
            raise GameError(422, "invalid_request",  # the games' own words (games.py)
                            _("the advanced game (secret Cunning cards) is the second edition's only")) from None

    @api.get("/api/learn", tags=["learn"], summary="The tutorial's script", responses=errors(422))
    async def learn_script(edition: Literal["first", "second"] = "first",
                           mode: Literal["standard", "advanced"] = "standard") -> dict[str, Any]:
        """``{"edition", "mode", "seed", "learner", "tutor", "tutor_name", "moves"}``: the moves of the tutorial
        game of the edition played in ``mode`` (see :func:`script`; 422 for the first edition's advanced game)."""
        name = lesson_of(edition, mode)
        return {"edition": edition, "mode": mode, "seed": TUTORIALS[name].seed, "learner": LEARNER, "tutor": TUTOR,
                "tutor_name": TUTOR_NAME, "moves": script(name)}

    @api.post("/api/learn", status_code=201, tags=["learn"], summary="Start a tutorial game",
              responses=errors(429))
    async def start(request: Request, service: Service, limiter: Limiter, public_url: PublicUrl,
                    edition: Literal["first", "second"] = "first",
                    mode: Literal["standard", "advanced"] = "standard") -> dict[str, Any]:
        """A new tutorial game of ``edition`` played in ``mode``: ``{"id", "url", "token", "tutor_token"}``, the
        learner's seat token and the tutor's (the browser plays the tutor's scripted replies). Counts as a new
        game for the rate limit; 422 for the first edition's advanced game."""
        name = lesson_of(edition, mode)
        await asyncio.to_thread(limiter.hit, "create", client_of(request))
        game_id, token, tutor = await asyncio.to_thread(create_tutorial, service, name)
        return {"id": game_id, "url": f"{public_url}/game/{game_id}", "token": token, "tutor_token": tutor}

    return api
