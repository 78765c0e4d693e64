"""Errors as the API answers them: :class:`GameError`, the body of every error answer, and validation
problems in words.

Every error answer is JSON ``{"error": <a stable word>, "detail": <what went wrong, in words>}`` (see
docs/web.md); ``detail`` is a translatable text.
"""

from __future__ import annotations

from typing import Any

from fastapi import Request
from pydantic import BaseModel, Field
from starlette.routing import compile_path

from .i18n import N_, _


class GameError(Exception):
    """A request the game cannot honour; ``status`` is the HTTP status, ``code`` a stable word."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


def error_body(exc: GameError) -> dict[str, Any]:
    """The JSON body of an error answer or WebSocket error message."""
    return {"error": exc.code, "detail": exc.message}


class ErrorBody(BaseModel):
    """Every error answer: a stable code and a message in words."""

    error: str = Field(description="a stable word, e.g. 'bad_token' (see docs/web.md)")
    detail: str = Field(description="what went wrong, in words")


def responses(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """OpenAPI entries for the error answers of a route (every route may also answer 413 and 422)."""
    said = {401: "no token given", 403: "a token of no seat of this game, or an invite already used",
            404: "no such game", 409: "the game's state does not allow it (over, stale, not your turn, taken)",
            413: "the request body is too large", 422: "malformed or invalid input",
            429: "too many requests from your address (Retry-After says when to try again)",
            503: "the server is too busy to take this now"}
    return {status: {"model": ErrorBody, "description": said[status]} for status in sorted({*statuses, 413, 422})}


def allowed_methods(request: Request) -> set[str]:
    """The methods the app's OpenAPI schema documents at the request's path (none for a page's path)."""
    path = request.url.path
    return {method.upper() for template, item in request.app.openapi()["paths"].items()
            if compile_path(template)[0].fullmatch(path) for method in item}


VALIDATION = {  # Pydantic's messages by error type, as interface texts filled from the error's ctx
    "missing": N_("Field required"),
    "less_than_equal": N_("Input should be less than or equal to {le}"),
    "greater_than_equal": N_("Input should be greater than or equal to {ge}"),
    "string_too_long": N_("String should have at most {max_length} characters"),
    "string_pattern_mismatch": N_("String should match pattern '{pattern}'"),
    "literal_error": N_("Input should be {expected}"),
    "int_parsing": N_("Input should be a valid integer, unable to parse string as an integer"),
    "int_type": N_("Input should be a valid integer"),
    "bool_type": N_("Input should be a valid boolean"),
    "bool_parsing": N_("Input should be a valid boolean, unable to interpret input"),
    "string_type": N_("Input should be a valid string"),
    "list_type": N_("Input should be a valid list"),
    "model_attributes_type": N_("Input should be a valid dictionary or object to extract fields from"),
}


def problem(error: dict[str, Any]) -> str:
    """One validation error in words (in the request's language where its type is known)."""
    ctx = error.get("ctx") or {}
    if error.get("type") == "json_invalid":
        return _("malformed JSON: {problem}", problem=str(ctx.get("error", "cannot be read")))
    where = ".".join(str(part) for part in error.get("loc", ()) if part != "body")
    known = VALIDATION.get(str(error.get("type")))
    english = str(error.get("msg"))
    message = _(known, **{k: str(v) for k, v in ctx.items()}) if known else english
    if known and message != english:  # a message Pydantic words differently: keep Pydantic's
        message = english
    return _("{field}: {problem}", field=where, problem=message) if where else message
