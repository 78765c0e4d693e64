"""The installable app: the web app manifest, the service worker's script and the offline page."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response

from ..i18n import _, language_of
from .deps import STATIC, page, shared_router

THEME = "#23303f"
"""The top bar's slate (style.css's --slate): the installed app's title bar."""
BACKGROUND = "#e9e0c8"
"""The page's parchment (style.css's body background): the installed app's splash screen."""
ICONS = [("icon-192.png", 192, "any"), ("icon-512.png", 512, "any"), ("maskable-512.png", 512, "maskable")]
"""static/icons/: file, side in pixels, purpose (made by tools/build_icons.py)."""


class ManifestResponse(JSONResponse):
    media_type = "application/manifest+json"


def manifest(lang: str) -> dict[str, Any]:
    """The web app manifest in ``lang`` (its description; the name is the game's, never translated)."""
    return {
        "id": "/",
        "name": "The King Is Dead",
        "short_name": "King Is Dead",
        "description": _("Play The King Is Dead, the board game of Britain after the Romans, with friends or bots."
                         ).in_language(lang),
        "lang": lang,
        "dir": "ltr",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "theme_color": THEME,
        "background_color": BACKGROUND,
        "categories": ["games"],
        "icons": [{"src": f"/static/icons/{name}", "sizes": f"{side}x{side}", "type": "image/png", "purpose": purpose}
                  for name, side, purpose in ICONS],
    }


def router(_errors: Callable[..., dict[int | str, dict[str, Any]]]) -> APIRouter:
    """The routes of the installable app (none is in the API's schema)."""
    pwa = shared_router(include_in_schema=False)

    @pwa.get("/manifest.webmanifest")
    async def web_app_manifest(request: Request) -> ManifestResponse:
        return ManifestResponse(manifest(language_of(request)))

    @pwa.get("/sw.js")
    async def service_worker() -> Response:
        # Served from the root so that its scope is the whole site; no-cache: the browser checks for a new one
        # on every visit (it already ignores HTTP caching past a day).
        return Response((STATIC / "sw.js").read_bytes(), media_type="text/javascript",
                        headers={"Cache-Control": "no-cache"})

    @pwa.get("/offline")
    async def offline_page(request: Request) -> HTMLResponse:
        """What the service worker shows for a page that cannot be loaded (it keeps a copy from its install)."""
        return page("offline.html", request)

    return pwa
