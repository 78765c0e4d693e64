"""The games' chats over HTTP (read, write, report, mute, off for all) and the socket's chat messages; the rules
are :mod:`..chat`'s."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any, Literal

from fastapi import APIRouter, Request, WebSocket
from pydantic import BaseModel, ConfigDict, Field

from ..chat import LINE, MAX_REASON, MAX_TEXT, Chat, checked_room, record_chat
from ..db import UserRow
from ..errors import GameError
from ..i18n import _
from ..localized import LocalizedRoute
from ..live_game import LiveGame
from ..security import PRINTABLE
from ..service import GameService
from .deps import Account, Chats, Credentials, Service, SignedIn, checked_seat, game_of, integer, shared_router

Room = Literal["seats", "watchers"]


class ChatLine(BaseModel):
    id: int = Field(description="the line's number, unique on the site")
    room: Room = Field(description="'seats': the players' chat; 'watchers': the watchers'")
    name: str = Field(description="the author's account name")
    seat: int | None = Field(description="the author's seat (from 0) in the players' chat; null in the watchers'")
    move_number: int = Field(description="moves played when it was said")
    text: str = Field(description="what the author typed: plain text, to be shown as text (never as HTML)")
    at: str = Field(description="when, ISO 8601 UTC")


class ChatState(BaseModel):
    muted: bool = Field(description="this game's chat muted by this account")
    off: bool = Field(description="chat off in all this account's games")
    timeout_until: str | None = Field(description="an operator's time-out runs until then (ISO 8601 UTC), or null")


class ChatYou(ChatState):
    name: str = Field(description="this account's name (its own lines carry it)")
    can_write: bool = Field(description="whether this account may write in this chat now")


class ChatLog(BaseModel):
    room: Room
    lines: list[ChatLine] = Field(description="the latest lines, oldest first (none while muted or off)")
    you: ChatYou | None = Field(description="the signed-in account's chat here; null for a guest")


class ChatSay(BaseModel):
    model_config = ConfigDict(strict=True)

    room: Room = Field(description="'seats' (the game's players only) or 'watchers' (accounts holding no seat)")
    text: str = Field(min_length=1, max_length=MAX_TEXT, pattern=LINE,
                      description=f"plain text, at most {MAX_TEXT} characters, not only spaces, no control "
                                  "character")


class ChatReport(BaseModel):
    model_config = ConfigDict(strict=True)

    reason: str | None = Field(None, max_length=MAX_REASON, pattern=PRINTABLE, description="why, in a few words")


class Reported(BaseModel):
    reported: bool = Field(description="true: the report is kept for the operator")
    new: bool = Field(description="false: this account had reported this line already")


class ChatMute(BaseModel):
    model_config = ConfigDict(strict=True)

    muted: bool = Field(description="true: no line of this game's chats reaches you; false: they do again")


class ChatSwitch(BaseModel):
    model_config = ConfigDict(strict=True)

    off: bool = Field(description="true: chat off in all your games; false: on")


class ChatSettings(BaseModel):
    off: bool = Field(description="chat off in all your games")
    timeout_until: str | None = Field(description="an operator's time-out runs until then (ISO 8601 UTC), or null")


async def asker(game: LiveGame, credentials: Any, request: Request, service: GameService,
                user: UserRow | None) -> tuple[int | None, int | None]:
    """The asker's seat (by the bearer token, else by the signed-in account; None for a watcher) and the account
    whose blocks and mutes apply (the signed-in one, else the one holding the token's seat; None for a guest).
    A wrong token: 403 (counted as :func:`.deps.checked_seat` counts it)."""
    token = credentials.credentials if credentials else None
    if token:
        seat: int | None = await checked_seat(request, game, token)
    else:
        seat = None if user is None else service.account_seat(game, user.id)
    account = user.id if user is not None else (None if seat is None else game.owners[seat])
    return seat, account


async def with_seats_chat(record: str, game: LiveGame, credentials: Any, request: Request, service: GameService,
                          user: UserRow | None) -> str:
    """A record (JSON text) with the seats' chat added as ``"chat"`` when the asker is one of the game's seats;
    as it is for anyone else."""
    seat, account = await asker(game, credentials, request, service, user)
    if seat is None:
        return record
    lines = await asyncio.to_thread(record_chat, service, game, account)
    return json.dumps({**json.loads(record), "chat": lines}, indent=2)


async def socket_chat(message: dict[str, Any], game_id: str, seat: int | None, socket: WebSocket,
                      service: GameService, chat: Chat, user: UserRow | None) -> dict[str, Any] | None:
    """A socket's chat message: ``chat`` says a line (its echo comes as a ``chat`` message), ``chat_open`` opens
    or closes the watchers' chat for a seat (answered ``{"type": "chat_open", "open": ...}``)."""
    if message.get("type") == "chat_open":
        opened = message.get("open")
        if not isinstance(opened, bool):
            raise GameError(422, "invalid_request", _("a chat_open message needs 'open' (true or false)"))
        chat.open_watchers(game_id, socket, opened)
        return {"type": "chat_open", "open": opened}
    if user is None:
        raise GameError(401, "sign_in_required", _("sign in to write in the chat: guests read only"))
    room = checked_room(message.get("room", "seats" if seat is not None else "watchers"))
    game = await game_of(socket, game_id)
    line = await asyncio.to_thread(chat.say, game, user, room, message.get("text"))
    await chat.tell(game_id, line, user.id)
    return None


def router(errors: Callable[..., dict[int | str, dict[str, Any]]]) -> APIRouter:
    """The chat's routes; ``errors(*statuses)`` gives the OpenAPI error answers (app.py's)."""
    routes = shared_router(tags=["chat"], route_class=LocalizedRoute)

    @routes.get("/api/games/{game_id}/chat", summary="A game's chat: the players' or the watchers'",
                response_model=ChatLog, responses=errors(403, 404, 429))
    async def read(game_id: str, request: Request, credentials: Credentials, service: Service, chat: Chats,
                   user: Account, room: Room = "seats") -> dict[str, Any]:
        """The latest lines of the players' chat (``room=seats``: the game's seats only, by their token or
        account; 403 ``not_seated`` otherwise) or the watchers' (``room=watchers``: anyone, guests too).
        Lines of anyone blocked either way with the asker are left out; none while the asker muted the game
        or turned chat off."""
        game = await game_of(request, game_id)
        seat, account = await asker(game, credentials, request, service, user)
        if room == "seats" and seat is None:
            raise GameError(403, "not_seated", _("the players' chat is for the game's players"))
        lines = await asyncio.to_thread(chat.lines, game, room, account)
        you = None
        if user is not None:
            state = await asyncio.to_thread(chat.state, game_id, user.id)
            held = service.account_seat(game, user.id) is not None
            free = not state["muted"] and not state["off"] and state["timeout_until"] is None
            you = {**state, "name": user.name,
                   "can_write": free and held == (room == "seats") and user.kind == "person"}
        return {"room": room, "lines": lines, "you": you}

    @routes.post("/api/games/{game_id}/chat", status_code=201, summary="Say a line in a game's chat",
                 response_model=ChatLine, responses=errors(401, 403, 404, 429))
    async def say(game_id: str, body: ChatSay, request: Request, chat: Chats, user: SignedIn) -> dict[str, Any]:
        """A signed-in account says a line: in the players' chat if it holds a seat of the game, else in the
        watchers'. Every socket that may read it gets ``{"type": "chat", "line": ...}``. 403 ``not_seated``,
        ``seated``, ``chat_off`` (muted here or off for all), ``chat_timeout``; 429 over the account's limit
        (5 lines in 10 seconds)."""
        game = await game_of(request, game_id)
        line = await asyncio.to_thread(chat.say, game, user, body.room, body.text)
        await chat.tell(game_id, line, user.id)
        return line

    @routes.post("/api/games/{game_id}/chat/{line_id}/report", status_code=201, summary="Report a chat line",
                 response_model=Reported, responses=errors(401, 403, 404))
    async def report(game_id: str, line_id: integer(ge=1, le=2**31 - 1), body: ChatReport, request: Request, credentials: Credentials,
                     service: Service, chat: Chats, user: SignedIn) -> dict[str, Any]:
        """Report a line of this game's chat to the site's operator (kept with the game and the move number;
        ``kingisdead chat reports`` lists them). Once per account and line; 404 ``no_such_line`` for a line
        the account cannot read."""
        game = await game_of(request, game_id)
        seat, _account = await asker(game, credentials, request, service, user)
        new = await asyncio.to_thread(chat.report, game, line_id, user.id, body.reason, seat)
        return {"reported": True, "new": new}

    @routes.put("/api/games/{game_id}/chat/mute", summary="Mute a game's chat (or hear it again)",
                response_model=ChatState, responses=errors(401, 404))
    async def mute(game_id: str, body: ChatMute, request: Request, chat: Chats, user: SignedIn) -> dict[str, Any]:
        """Kept for the account: a muted game's lines reach none of its sockets, and it cannot write there."""
        game = await game_of(request, game_id)
        await asyncio.to_thread(chat.mute, game.id, user.id, body.muted)
        return dict(await asyncio.to_thread(chat.state, game.id, user.id))

    @routes.get("/api/account/chat", summary="Your chat settings", response_model=ChatSettings,
                responses=errors(401))
    async def settings(chat: Chats, user: SignedIn) -> dict[str, Any]:
        return dict(await asyncio.to_thread(chat.state, None, user.id))

    @routes.put("/api/account/chat", summary="Chat off (or on) in all your games", response_model=ChatSettings,
                responses=errors(401))
    async def switch(body: ChatSwitch, chat: Chats, user: SignedIn) -> dict[str, Any]:
        """Kept for the account: while off, no line of any game's chat reaches it and it writes none."""
        await asyncio.to_thread(chat.switch, user.id, body.off)
        return dict(await asyncio.to_thread(chat.state, None, user.id))

    return routes
