"""The browser pages: the lobby, a game's table, a tournament, the rules and the API's documentation."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from ...edition import ADVANCED_OPTIONS, OPTIONS
from ..errors import GameError
from .deps import game_of, page, shared_router


def router(_errors: Callable[..., dict[int | str, dict[str, Any]]]) -> APIRouter:
    """The pages' routes (none is in the API's schema)."""
    pages = shared_router(include_in_schema=False)

    @pages.get("/")
    async def lobby_page(request: Request) -> HTMLResponse:
        # the second edition's options, offered by the lobby; the advanced game's where there is a choice
        return page("index.html", request, rule_options=OPTIONS,
                    advanced_options={name: values for name, values in ADVANCED_OPTIONS.items() if len(values) > 1})

    @pages.get("/game/{game_id}")
    async def game_page(game_id: str, request: Request) -> HTMLResponse:
        try:
            game = await game_of(request, game_id)
        except GameError as exc:
            if exc.status != 404:
                raise
            return page("notfound.html", request, 404)
        return page("game.html", request, edition=game.edition)  # the table draws its game's edition at once

    @pages.get("/tournaments/{tournament_id}")
    async def tournament_page(tournament_id: str, request: Request) -> HTMLResponse:
        # the page asks the API for the tournament (static/tournaments.js); an id that is no number is no page
        if not tournament_id.isascii() or not tournament_id.isdigit() or len(tournament_id) > 18:
            return page("notfound.html", request, 404)
        return page("tournament.html", request, tournament_id=int(tournament_id))

    @pages.get("/rules")
    async def rules_page(request: Request) -> HTMLResponse:
        return page("rules.html", request)

    @pages.get("/docs")
    async def api_docs(request: Request) -> HTMLResponse:
        """Swagger UI from the swagger-ui-bundle package: works offline, no inline script."""
        return page("docs.html", request)

    return pages
