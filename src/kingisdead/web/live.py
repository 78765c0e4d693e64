"""Live updates: WebSocket subscribers per game, and the task that plays bot turns.

Both run on the server's event loop; the bots' searches are jobs in the
compute pool (see compute.py), their database work runs on the runner's own
threads, so a slow bot never blocks other games or requests.
"""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from fastapi import WebSocket, WebSocketDisconnect

from .compute import ComputePool, Refused
from .games import GameError, GameService
from .i18n import language_of, localize

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
        await socket.send_json(localize({"type": "state", "game": self.service.view(game, seat)}, language_of(socket)))

    async def catch_up(self, game_id: str) -> None:
        """Another process stored a move or changed a seat: reload the cached game and tell its
        watchers. A game this process does not hold needs nothing: it loads fresh on first use."""
        game = self.service.cached(game_id)
        if game is None:
            return
        await asyncio.get_running_loop().run_in_executor(None, self.service.reload, game_id)
        await self.broadcast(game_id)

    async def catch_up_all(self) -> None:
        """After missing notices (a lost connection to the database): reload every watched game."""
        for game_id in list(self._watchers):
            await self.catch_up(game_id)

    async def announce(self, game_id: str, message: dict[str, Any]) -> None:
        """Send every watcher of the game the same message (e.g. the rematch's id)."""
        for socket in list(self._watchers.get(game_id, {})):
            try:
                await socket.send_json(localize(message, language_of(socket)))
            except (WebSocketDisconnect, RuntimeError, OSError):
                self.remove(game_id, socket)

    async def broadcast(self, game_id: str) -> None:
        """Send every watcher of the game its own view of the latest position."""
        for socket, seat in list(self._watchers.get(game_id, {}).items()):
            try:
                await self.send_state(game_id, socket, seat)
            except (WebSocketDisconnect, RuntimeError, OSError):  # a socket that went away: forget it
                self.remove(game_id, socket)


class BotRunner:
    """Plays the bots' turns of each game in a background task, one task per game.

    A bot's search is a job in the compute pool; loading games and storing
    moves use the runner's own few threads, so neither competes with requests
    for the default thread pool. At most ``active`` games take a turn at once
    (after a restart with thousands of bot turns pending, the rest wait).
    """

    def __init__(self, service: GameService, hub: Hub, compute: ComputePool, delay: float = 0.0,
                 active: int = 32) -> None:
        self.service = service
        self.hub = hub
        self.compute = compute
        self.delay = delay
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._wake: set[str] = set()
        self._slots = asyncio.Semaphore(active)
        self._threads = ThreadPoolExecutor(max_workers=4, thread_name_prefix="bots")

    async def resume(self) -> None:
        """Kick every game where a bot is to move (after a restart), found in the database: other games
        stay unloaded until someone uses them."""
        loop = asyncio.get_running_loop()
        for game_id in await loop.run_in_executor(self._threads, self.service.bot_games):
            self.kick(game_id)

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
        try:
            while await self._turn(game_id):
                await self.hub.broadcast(game_id)
        finally:
            if self._tasks.get(game_id) is asyncio.current_task():
                del self._tasks[game_id]

    async def _turn(self, game_id: str) -> bool:
        """One bot move in the game; False once no bot is to move (or the bot failed, which is logged)."""
        loop = asyncio.get_running_loop()
        while True:
            self._wake.discard(game_id)
            async with self._slots:
                try:
                    turn = await loop.run_in_executor(self._threads, self.service.bot_turn, game_id)
                except GameError as exc:
                    log.error("bot turn in game %s: %s", game_id, exc.message)
                    return False
                if turn is None:
                    if game_id in self._wake:  # a move arrived while we looked: look again
                        continue
                    return False
                job, seat, position = turn  # a bot's seat, or a person's played by the stand-in
                if self.delay:
                    await asyncio.sleep(self.delay)
                try:
                    notation = await self.compute.run(job)
                    await loop.run_in_executor(self._threads, self.service.play, game_id, seat, notation,
                                               job.move_number, position)
                except Refused as exc:  # the pool is full: this bot waits its turn
                    await asyncio.sleep(exc.retry_after)
                    continue
                except GameError as exc:
                    if exc.code == "stale":
                        continue
                    log.error("bot move in game %s failed: %s", game_id, exc.message)
                    return False
                except Exception:
                    log.exception("bot in game %s failed", game_id)
                    return False
            return True

    async def stop(self) -> None:
        """Cancel every bot task and end the runner's threads (a move being stored finishes first)."""
        tasks = list(self._tasks.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._tasks.clear()
        self._threads.shutdown(wait=True, cancel_futures=True)

    def busy(self) -> list[str]:
        return [g for g, t in self._tasks.items() if not t.done()]


async def evict_idle(service: GameService, hub: Hub, runner: BotRunner, every: float = 60.0) -> None:
    """Every ``every`` seconds, drop idle games from memory (see :meth:`GameService.evict`), keeping those
    watched or with a bot thinking. Runs until cancelled."""
    while True:
        await asyncio.sleep(every)
        busy = set(runner.busy())
        dropped = await asyncio.to_thread(service.evict, lambda g: g in busy or hub.watching(g) > 0)
        if dropped:
            log.info("%d idle games left memory", len(dropped))


def error_body(exc: GameError) -> dict[str, Any]:
    return {"error": exc.code, "detail": exc.message}
