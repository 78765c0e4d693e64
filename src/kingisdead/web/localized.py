"""The web app's side of :mod:`.i18n`: JSON answers, routes and the language of each request.

Kept apart from :mod:`.i18n` so that the texts and catalogs load without FastAPI and Starlette: a bot worker
process renders texts (:mod:`.compute`) and has no use for the web framework.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qsl

from fastapi.responses import JSONResponse
from fastapi.routing import APIRoute
from starlette.datastructures import Headers, MutableHeaders
from starlette.requests import cookie_parser
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .i18n import COOKIE, DEFAULT, SCOPE_KEY, _language, from_accept_language, localize, supported


class LocalizedJSON(JSONResponse):
    """The app's JSON answers: every :class:`Text` in the content rendered in the request's language."""

    def render(self, content: Any) -> bytes:
        return super().render(localize(content))


class LocalizedRoute(APIRoute):
    """An API route whose endpoint's answer has its Texts rendered in the request's language.

    FastAPI serializes an endpoint's answer through its response model, which
    turns every Text into a plain (English) str before any response class sees
    it; this route localizes the answer first. Use it as a router's
    ``route_class`` (the app's own router uses it).
    """

    def __init__(self, path: str, endpoint: Callable[..., Any], **kwargs: Any) -> None:
        super().__init__(path, _localizing(endpoint), **kwargs)


def _localizing(endpoint: Callable[..., Any]) -> Callable[..., Any]:
    if inspect.iscoroutinefunction(endpoint):
        @functools.wraps(endpoint)
        async def answer(*args: Any, **kwargs: Any) -> Any:
            return localize(await endpoint(*args, **kwargs))
        return answer

    @functools.wraps(endpoint)
    def sync_answer(*args: Any, **kwargs: Any) -> Any:
        return localize(endpoint(*args, **kwargs))
    return sync_answer


UserLanguage = Callable[[Scope], Any]


class LanguageMiddleware:
    """Sets the language of each HTTP request and WebSocket (see the module's docstring for the order).

    ``user_language(scope)``: an awaitable giving the signed-in player's saved
    language (or None); the accounts module provides it. Paths starting with one
    of ``untranslated`` (static files) are passed through untouched. The language is kept in
    the scope (``SCOPE_KEY``) for WebSocket broadcasts and in a context variable
    for everything the request runs.
    """

    def __init__(self, app: ASGIApp, user_language: UserLanguage | None = None,
                 untranslated: tuple[str, ...] = ("/static/", "/docs-assets/")) -> None:
        self.app = app
        self.user_language = user_language
        self.untranslated = untranslated

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket") or scope["path"].startswith(self.untranslated):
            await self.app(scope, receive, send)  # static files: no texts, and no account lookup per file
            return
        headers = Headers(scope=scope)
        lang = None
        if scope["type"] == "websocket":
            # The page says its own language in the socket's URL: browsers may send another Accept-Language
            # on the handshake than on the page's requests (Chromium 148 does).
            lang = supported(_query_language(scope))
        if lang is None and self.user_language is not None:
            lang = supported(await self.user_language(scope))
        if lang is None:
            lang = supported(cookie_parser(headers.get("cookie", "")).get(COOKIE))
        lang = lang or from_accept_language(headers.get("accept-language")) or DEFAULT
        scope[SCOPE_KEY] = lang
        token = _language.set(lang)

        async def varying(message: Message) -> None:
            # An answer depends on these headers: a shared cache must not serve one language to everyone.
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                headers.add_vary_header("Accept-Language")
                headers.add_vary_header("Cookie")
            await send(message)

        try:
            await self.app(scope, receive, varying if scope["type"] == "http" else send)
        finally:
            _language.reset(token)


def _query_language(scope: Scope) -> str | None:
    """The ``lang`` parameter of a connection's query string, if any."""
    for name, value in parse_qsl(scope.get("query_string", b"").decode("latin-1")):
        if name == "lang":
            return value
    return None
