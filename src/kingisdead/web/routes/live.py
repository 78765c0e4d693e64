"""The live socket of a game: its views as they change, and a seated player's moves and options."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, WebSocket
from pydantic import ValidationError

from ...building import Choice
from ..errors import GameError, error_body, problem
from ..friends import note_seen, seen_is_stale
from ..i18n import _, clauses, language_of, localize
from ..live import BotRunner, Hub
from ..outage import DATABASE_DOWN, unavailable_message
from ..security import RateLimited, parse_ws_json
from ..service import GameService
from ..chat import Chat
from ..db import UserRow
from .chat import socket_chat
from .deps import Chats, LiveHub, Runner, Service, checked_seat, game_of, user_of_socket, shared_router
from .moves import STEPS


def router(_errors: Callable[..., dict[int | str, dict[str, Any]]]) -> APIRouter:
    """The socket's route (``/api/games/{id}/ws``)."""
    live = shared_router()
    by_cookie: set[WebSocket] = set()  # sockets whose seat came from the cookie: a token may still replace it

    @live.websocket("/api/games/{game_id}/ws")
    async def socket_route(socket: WebSocket, game_id: str, service: Service, hub: LiveHub, runner: Runner,
                           chat: Chats) -> None:
        """Live updates; a player authenticates with a first message ``{"type": "auth", "token": ...}``,
        or by the session cookie sent with the upgrade (a seat the signed-in account holds).

        See docs/web.md for the messages. Every message is checked for size,
        frame type, nesting and numbers before it is parsed; anything wrong is
        answered with an error message and the socket stays open.
        """
        await socket.accept()
        try:
            await game_of(socket, game_id)
        except GameError as exc:
            await socket.send_json(localize({"type": "error", **error_body(exc)}, language_of(socket)))
            await socket.close(code=4000 + exc.status)
            return
        user = await asyncio.to_thread(user_of_socket, socket)
        held = None if user is None else service.account_seat(service.get(game_id), user.id)
        seat: list[int | None] = [held]  # the account's seat, or set by an auth message
        if held is not None:
            by_cookie.add(socket)
        chat.join(game_id, socket, None if user is None else user.id, seat)  # told the chat lines it may read

        seen_at = [None if user is None else user.seen_at]  # the account's last noted time (friends' "online")

        async def answer(text: str | None) -> dict[str, Any] | None:
            if user is not None and seen_is_stale(seen_at[0]):  # a message: the player is here (once a minute)
                try:
                    seen_at[0] = await asyncio.to_thread(note_seen, service, user.id)
                except DATABASE_DOWN:  # the message itself gets the outage's answer below
                    pass
            if text is None:
                return {"type": "error", "error": "invalid_request",
                        "detail": _("binary frames are not part of this protocol")}
            return await handle(text, game_id, seat, socket, service, hub, runner, chat, user)

        try:
            await hub.serve(game_id, socket, held, answer)  # see Hub.serve: queues, drops, inbound rate
        finally:
            by_cookie.discard(socket)
            chat.leave(game_id, socket)

    async def handle(text: str, game_id: str, seat: list[int | None], socket: WebSocket, service: GameService,
                     hub: Hub, runner: BotRunner, chat: Chat, user: UserRow | None) -> dict[str, Any] | None:
        """One client message: a reply for the sender, or None (moves are answered by the broadcast)."""
        try:
            message = parse_ws_json(text)
            if not isinstance(message, dict):
                raise GameError(422, "invalid_request", _("a message is a JSON object"))
            kind = message.get("type")
            if kind == "ping":
                return {"type": "pong"}
            if kind == "auth":
                token = message.get("token")
                if not isinstance(token, str) or not token or len(token) > 200:
                    raise GameError(422, "invalid_request", _("an auth message needs 'token' (your seat's token)"))
                if seat[0] is not None and socket not in by_cookie:
                    raise GameError(409, "authenticated", _("this socket is already authenticated"))
                game = await game_of(socket, game_id)
                seat[0] = await checked_seat(socket, game, token)
                by_cookie.discard(socket)
                hub.sit(game_id, socket, seat[0])
                return None
            if kind in ("chat", "chat_open"):  # the game's chats (routes/chat.py)
                return await socket_chat(message, game_id, seat[0], socket, service, chat, user)
            if kind not in ("move", "options"):
                raise GameError(422, "invalid_request", _("message type must be 'auth', 'move', 'options', 'chat', "
                                                          "'chat_open' or 'ping'"))
            if seat[0] is None:
                raise GameError(401, "no_token", _("spectators cannot play: send {message} first",
                                                    message='{"type": "auth", "token": …}'))
            if kind == "options":
                try:
                    parsed = STEPS.validate_python(message.get("steps", []))
                except ValidationError as exc:
                    raise GameError(422, "invalid_request", _("malformed steps: {problems}", problems=clauses(
                        [problem(dict(e)) for e in exc.errors()]))) from None
                game = service.get(game_id)
                steps = [Choice(s.kind, s.value) for s in parsed]
                return {"type": "options", **await asyncio.to_thread(service.options, game, seat[0], steps)}
            move, number = message.get("move"), message.get("move_number")
            if not isinstance(move, str) or len(move) > 100 or not (
                    number is None or (type(number) is int and 0 <= number <= 10_000)):
                raise GameError(422, "invalid_request", _("a move message needs 'move' (text, at most 100 characters) "
                                                          "and 'move_number' (a whole number from 0)"))
            await asyncio.to_thread(service.play, game_id, seat[0], move, number)
        except GameError as exc:
            reply = {"type": "error", **error_body(exc)}
            if isinstance(exc, RateLimited):
                reply["retry_after"] = exc.retry_after
            return reply
        except DATABASE_DOWN as exc:
            return unavailable_message(game_id, exc)
        runner.kick(game_id)
        await hub.broadcast(game_id)
        return None

    return live
