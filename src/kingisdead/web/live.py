"""Live updates: WebSocket subscribers per game, and the task that plays bot turns.

Both run on the server's event loop; engine and database work is pushed to
worker threads so that a slow bot never blocks other games.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from fastapi import WebSocket, WebSocketDisconnect

from ..moves import format_move
from .games import GameError, GameService

log = logging.getLogger("kingisdead.web")


class Hub:
    """Who is watching which game; sends each watcher the view its seat may see."""

    def __init__(self, service: GameService) -> None:
        self.service = service
        self._watchers: dict[str, dict[WebSocket, int | None]] = {}

    def add(self, game_id: str, socket: WebSocket, seat: int | None) -> None:
        self._watchers.setdefault(game_id, {})[socket] = seat

    def remove(self, game_id: str, socket: WebSocket) -> None:
        watchers = self._watchers.get(game_id, {})
        watchers.pop(socket, None)
        if not watchers:
            self._watchers.pop(game_id, None)

    def watching(self, game_id: str) -> int:
        return len(self._watchers.get(game_id, {}))

    async def send_state(self, game_id: str, socket: WebSocket, seat: int | None) -> None:
        game = self.service.get(game_id)
        await socket.send_json({"type": "state", "game": self.service.view(game, seat)})

    async def broadcast(self, game_id: str) -> None:
        """Send every watcher of the game its own view of the latest position."""
        for socket, seat in list(self._watchers.get(game_id, {}).items()):
            try:
                await self.send_state(game_id, socket, seat)
            except (WebSocketDisconnect, RuntimeError, OSError):  # a socket that went away: forget it
                self.remove(game_id, socket)


class BotRunner:
    """Plays the bots' turns of each game in a background task, one task per game."""

    def __init__(self, service: GameService, hub: Hub, delay: float = 0.0) -> None:
        self.service = service
        self.hub = hub
        self.delay = delay
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._wake: set[str] = set()

    def kick(self, game_id: str) -> None:
        """Make sure a bot to move in this game will move (call after every change)."""
        self._wake.add(game_id)
        task = self._tasks.get(game_id)
        if task is not None and not task.done():
            return  # the running task looks again before it stops
        game = self.service.cached(game_id)
        if game is not None and not self.service.bot_is_to_move(game):
            return  # a person's turn, or the game is over: nothing to start
        self._tasks[game_id] = asyncio.create_task(self._run(game_id))

    async def _run(self, game_id: str) -> None:
        while True:
            self._wake.discard(game_id)
            try:
                turn = await asyncio.to_thread(self.service.bot_turn, game_id)
            except GameError:
                return
            if turn is None:
                if game_id in self._wake:  # a move arrived while we looked: look again
                    continue
                self._tasks.pop(game_id, None)
                return
            choose, seat, number = turn
            if self.delay:
                await asyncio.sleep(self.delay)
            try:
                move = await asyncio.to_thread(choose)
                await asyncio.to_thread(self.service.play, game_id, seat, format_move(move), number)
            except GameError as exc:
                if exc.code == "stale":
                    continue
                log.error("bot move in game %s failed: %s", game_id, exc.message)
                self._tasks.pop(game_id, None)
                return
            except Exception:
                log.exception("bot in game %s failed", game_id)
                self._tasks.pop(game_id, None)
                return
            await self.hub.broadcast(game_id)

    async def stop(self) -> None:
        tasks = list(self._tasks.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._tasks.clear()

    def busy(self) -> list[str]:
        return [g for g, t in self._tasks.items() if not t.done()]


def error_body(exc: GameError) -> dict[str, Any]:
    return {"error": exc.code, "detail": exc.message}
