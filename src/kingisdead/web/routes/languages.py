"""The interface languages' endpoints: the browser's catalog for ``t()`` and the request's language."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import Request
from fastapi.responses import Response
from starlette.datastructures import Headers
from starlette.requests import cookie_parser
from starlette.types import Scope

from ..accounts import SESSION_COOKIE, user_for_secret
from ..errors import GameError
from ..i18n import COOKIE, LANGUAGE_NAMES, LANGUAGES, _, client_catalog, language_of
from ..localized import LocalizedRoute
from ..outage import DATABASE_DOWN
from .deps import service_of, shared_router

router = shared_router(tags=["languages"], route_class=LocalizedRoute)


async def account_language(scope: Scope) -> str | None:
    """The saved language of the account signed in by the request's session cookie (None: no account, or
    none saved). LanguageMiddleware's ``user_language``."""
    secret = cookie_parser(Headers(scope=scope).get("cookie", "")).get(SESSION_COOKIE)
    if not secret:
        return None
    try:
        user = await asyncio.to_thread(user_for_secret, service_of(scope["app"]), secret)
    except DATABASE_DOWN:  # the cookie and Accept-Language decide; the route answers 503 if it needs the database
        return None
    return user.language if user is not None else None


@router.get("/api/i18n", summary="The interface languages and the one chosen for this request")
async def languages(request: Request) -> dict[str, Any]:
    """``language``: the request's language (account, ``lang`` cookie, then Accept-Language); ``languages``:
    each code with its name in its own language; ``cookie``: the cookie that keeps a browser's choice."""
    return {"language": language_of(request), "cookie": COOKIE,
            "languages": [{"code": code, "name": LANGUAGE_NAMES[code]} for code in LANGUAGES]}


@router.get("/api/i18n/{lang}", summary="A language's catalog for the browser's t()",
            responses={200: {"content": {"application/json": {}}},
                       304: {"description": "the catalog has not changed (If-None-Match)"},
                       404: {"description": "no such interface language"}})
async def catalog(lang: str, request: Request) -> Response:
    """``{"language", "messages": {English text: translation}}`` (a text with plural forms maps to the list of
    its forms; English has no messages: its texts are the keys). Answers carry an ETag."""
    if lang not in LANGUAGES:
        raise GameError(404, "unknown_language", _("no interface language {lang} (there are en, fr and de)",
                                                   lang=lang[:20]))
    body, etag = client_catalog(lang)
    headers = {"ETag": etag, "Cache-Control": "no-cache"}
    if request.headers.get("if-none-match") == etag:
        return Response(status_code=304, headers=headers)
    return Response(body, media_type="application/json", headers=headers)
