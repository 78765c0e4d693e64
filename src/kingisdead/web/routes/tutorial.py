"""The /learn page and the tutorial's API (the script and the games are :mod:`..tutorial`'s)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, Literal

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from ..localized import LocalizedRoute
from ..tutorial import LEARNER, TUTOR, TUTOR_NAME, TUTORIALS, create_tutorial, script
from .deps import Limiter, PublicUrl, Service, client_of, page, shared_router

Lesson = Literal["first", "second", "advanced"]
"""The tutorials (web/tutorial.py's TUTORIALS): each edition's, and the second edition's advanced game's."""


def router(errors: Callable[..., dict[int | str, dict[str, Any]]]) -> APIRouter:
    """The /learn page and the tutorial's API."""
    api = shared_router(route_class=LocalizedRoute)

    @api.get("/learn", include_in_schema=False)
    async def learn_page(request: Request) -> HTMLResponse:
        return page("learn.html", request)

    @api.get("/api/learn", tags=["learn"], summary="The tutorial's script", responses=errors())
    async def learn_script(lesson: Lesson = "first") -> dict[str, Any]:
        """``{"lesson", "edition", "mode", "seed", "learner", "tutor", "tutor_name", "moves"}``: the moves of the
        tutorial game ``lesson`` (see :func:`script`)."""
        tutorial = TUTORIALS[lesson]
        return {"lesson": lesson, "edition": tutorial.edition, "mode": tutorial.mode, "seed": tutorial.seed,
                "learner": LEARNER, "tutor": TUTOR, "tutor_name": TUTOR_NAME, "moves": script(lesson)}

    @api.post("/api/learn", status_code=201, tags=["learn"], summary="Start a tutorial game",
              responses=errors(429))
    async def start(request: Request, service: Service, limiter: Limiter, public_url: PublicUrl,
                    lesson: Lesson = "first") -> dict[str, Any]:
        """A new game of the tutorial ``lesson``: ``{"id", "url", "token", "tutor_token"}``, the learner's seat
        token and the tutor's (the browser plays the tutor's scripted replies). Counts as a new game for the
        rate limit."""
        await asyncio.to_thread(limiter.hit, "create", client_of(request))
        game_id, token, tutor = await asyncio.to_thread(create_tutorial, service, lesson)
        return {"id": game_id, "url": f"{public_url}/game/{game_id}", "token": token, "tutor_token": tutor}

    return api
