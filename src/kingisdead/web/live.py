"""Live updates: WebSocket subscribers per game, and the task that plays bot turns.

Both run on the server's event loop; the bots' searches are jobs in the
compute pool (see compute.py), their database work runs on the runner's own
threads, so a slow bot never blocks other games or requests. Each socket has
its own bounded queue and sender task, so a slow or hostile watcher never
blocks a move, a bot or another watcher either (:class:`Hub`); a bot whose
database is out of reach waits for it and moves on once it is back.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import math
import time
from collections import deque
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from fastapi import WebSocket, WebSocketDisconnect
from limits import parse
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

from .compute import ComputePool, Refused
from .errors import GameError
from .service import GameService
from .i18n import _, language_of, localize
from .outage import DATABASE_DOWN, Outage, reason

log = logging.getLogger("kingisdead.web")


QUEUE = 32
"""Messages waiting for one socket at most (a run of ``state`` messages counts as one: only the latest
view is sent); a socket with this many still waiting when another comes is dropped."""
SEND_TIMEOUT = 30.0
"""Seconds one message may wait for a socket to take it; a socket slower than that is dropped."""
CLOSE_WAIT = 5.0
"""Seconds a dropped socket is given to take its close frame before the server stops waiting for it."""
TOO_SLOW = 1008
"""The close code of a dropped socket (policy violation); the reason says why."""
INBOUND = "20/second"
"""Messages one socket may send (the ``limits`` library's notation): see :meth:`Hub.serve`."""

_STATE = object()  # queued in place of a state message: the view is made when it is sent, so it is the latest
_keys = itertools.count()


class Watcher:
    """One socket watching a game: its seat, its messages waiting, and the tasks that read and send."""

    def __init__(self, socket: WebSocket, seat: int | None) -> None:
        self.socket, self.seat = socket, seat
        self.queue: deque[Any] = deque()
        self.ready = asyncio.Event()
        self.key = str(next(_keys))  # its inbound rate's key
        self.sender: asyncio.Task[None] | None = None
        self.reader: asyncio.Task[None] | None = None
        self.dropped = False


Answer = Callable[[str | None], Awaitable[dict[str, Any] | None]]
"""Handles one message from a socket (its text; None for a binary frame): a reply for it, or None."""


class Hub:
    """Who is watching which game; sends each watcher the view its seat may see.

    Each socket has its own bounded queue drained by its own sender task:
    :meth:`broadcast` and :meth:`announce` only queue, so no socket, however
    slow, ever delays a move, a bot or another socket. A socket that falls
    :data:`QUEUE` messages behind, or takes longer than :data:`SEND_TIMEOUT` to
    take one, is dropped (close code :data:`TOO_SLOW`). What a socket sends is
    read at most :data:`INBOUND` fast.
    """

    def __init__(self, service: GameService, inbound: str | None = None) -> None:
        self.service = service
        self._watchers: dict[str, dict[WebSocket, Watcher]] = {}
        self._inbound = parse(inbound or INBOUND)
        self._rates = MovingWindowRateLimiter(MemoryStorage())
        self._closing: set[asyncio.Task[None]] = set()

    def add(self, game_id: str, socket: WebSocket, seat: int | None) -> Watcher:
        """Start watching (``seat`` None: a spectator); its first view is queued."""
        watcher = Watcher(socket, seat)
        self._watchers.setdefault(game_id, {})[socket] = watcher
        self._queue(game_id, watcher, _STATE)
        return watcher

    def sit(self, game_id: str, socket: WebSocket, seat: int | None) -> None:
        """The socket now speaks for ``seat``: its next views are that seat's, starting with one now."""
        watcher = self._watchers.get(game_id, {}).get(socket)
        if watcher is not None:
            watcher.seat = seat
            self._queue(game_id, watcher, _STATE)

    def remove(self, game_id: str, socket: WebSocket) -> None:
        watchers = self._watchers.get(game_id, {})
        watchers.pop(socket, None)
        if not watchers:
            self._watchers.pop(game_id, None)

    def watching(self, game_id: str) -> int:
        return len(self._watchers.get(game_id, {}))

    async def serve(self, game_id: str, socket: WebSocket, seat: int | None, answer: Answer) -> None:
        """Run an accepted socket until it closes or is dropped: send it the game's views, hand each message
        it sends to ``answer`` and queue the reply.

        Over :data:`INBOUND`, the message that went over is answered ``rate_limited`` (with ``retry_after``
        in seconds) and not handled, and nothing more is read from the socket until the window has passed.
        """
        watcher = self.add(game_id, socket, seat)
        watcher.sender = asyncio.create_task(self._send(game_id, watcher))
        watcher.reader = asyncio.create_task(self._read(game_id, watcher, answer))
        try:
            await asyncio.wait({watcher.reader})
            if not watcher.reader.cancelled():
                watcher.reader.result()  # a failure of our own: raised, so that it is logged
        finally:
            watcher.reader.cancel()
            watcher.sender.cancel()
            self.remove(game_id, socket)

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
        """Queue the same message for every watcher of the game (e.g. the rematch's id); returns at once."""
        for watcher in list(self._watchers.get(game_id, {}).values()):
            self._queue(game_id, watcher, message)

    def tell(self, game_id: str, socket: WebSocket, message: dict[str, Any]) -> None:
        """Queue a message for one socket of the game (a chat line it may read); nothing if it is gone."""
        watcher = self._watchers.get(game_id, {}).get(socket)
        if watcher is not None:
            self._queue(game_id, watcher, message)

    async def broadcast(self, game_id: str) -> None:
        """Queue for every watcher of the game its own view of the latest position; returns at once."""
        for watcher in list(self._watchers.get(game_id, {}).values()):
            self._queue(game_id, watcher, _STATE)

    def _queue(self, game_id: str, watcher: Watcher, item: Any) -> None:
        if watcher.dropped or (item is _STATE and watcher.queue and watcher.queue[-1] is _STATE):
            return  # a state already waits last: it will show the latest position
        if len(watcher.queue) >= QUEUE:
            self._drop(game_id, watcher, f"too slow: {QUEUE} messages waiting")
            return
        watcher.queue.append(item)
        watcher.ready.set()

    async def _send(self, game_id: str, watcher: Watcher) -> None:
        """The socket's sender: takes its queue in order, one message at a time."""
        while True:
            await watcher.ready.wait()
            watcher.ready.clear()
            while watcher.queue:
                item = watcher.queue.popleft()
                message = await self._view(game_id, watcher) if item is _STATE else item
                if message is None:
                    continue
                try:
                    async with asyncio.timeout(SEND_TIMEOUT):
                        await watcher.socket.send_json(localize(message, language_of(watcher.socket)))
                except TimeoutError:
                    self._drop(game_id, watcher, f"too slow: a message waited {SEND_TIMEOUT:.0f} s")
                    return
                except (WebSocketDisconnect, RuntimeError, OSError):  # gone: its reader sees it end
                    self.remove(game_id, watcher.socket)
                    return

    async def _view(self, game_id: str, watcher: Watcher) -> dict[str, Any] | None:
        """The watcher's state message, or None if the game cannot be read now (logged; the next one will)."""
        try:
            game = self.service.cached(game_id)
            if game is None:  # evicted meanwhile: reading it back is a worker thread's job
                game = await asyncio.to_thread(self.service.get, game_id)
            return {"type": "state", "game": self.service.view(game, watcher.seat)}
        except (GameError, *DATABASE_DOWN) as exc:
            log.warning("game %s: no view for a watcher: %s", game_id, reason(exc))
            return None

    async def _read(self, game_id: str, watcher: Watcher, answer: Answer) -> None:
        """The socket's reader: each message in turn, at most :data:`INBOUND` fast, its reply queued."""
        while True:
            try:
                frame = await watcher.socket.receive()
            except (WebSocketDisconnect, RuntimeError):
                return
            if frame["type"] == "websocket.disconnect":
                return
            if not self._rates.hit(self._inbound, "ws", watcher.key):
                reset = self._rates.get_window_stats(self._inbound, "ws", watcher.key).reset_time
                wait = max(1, math.ceil(reset - time.time()))
                self._queue(game_id, watcher, {
                    "type": "error", "error": "rate_limited", "retry_after": wait,
                    "detail": _("too many messages on this connection (limit {limit}); the next is read in {wait} s",
                                limit=str(self._inbound), wait=wait)})
                await asyncio.sleep(wait)
                continue
            # shielded: a socket dropped meanwhile still has its move stored, the bots kicked and the others told
            reply = await asyncio.shield(answer(frame.get("text")))
            if reply is not None:
                self._queue(game_id, watcher, reply)

    def _drop(self, game_id: str, watcher: Watcher, why: str) -> None:
        """Forget a socket that does not keep up; close it (code :data:`TOO_SLOW`) if it still takes a frame."""
        watcher.dropped = True
        watcher.queue.clear()
        self.remove(game_id, watcher.socket)
        log.info("game %s: a watcher was dropped: %s", game_id, why)
        if watcher.sender is not None and watcher.sender is not asyncio.current_task():
            watcher.sender.cancel()
        task = asyncio.create_task(self._close(watcher, why))
        self._closing.add(task)
        task.add_done_callback(self._closing.discard)

    @staticmethod
    async def _close(watcher: Watcher, why: str) -> None:
        try:
            async with asyncio.timeout(CLOSE_WAIT):
                await watcher.socket.close(TOO_SLOW, why)
        except (TimeoutError, WebSocketDisconnect, RuntimeError, OSError):
            pass  # it takes nothing more: the connection ends when the server stops serving it, just below
        finally:
            if watcher.reader is not None:
                watcher.reader.cancel()


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
        self.outage = Outage("bots")

    async def resume(self) -> None:
        """Kick every game where a bot is to move (after a restart), found in the database: other games
        stay unloaded until someone uses them."""
        loop = asyncio.get_running_loop()
        for game_id in await loop.run_in_executor(self._threads, self.service.bot_games):
            self.kick(game_id)

    def kick(self, game_id: str) -> None:
        """Make sure the move the server makes in this game (a bot's, or a pass for an empty hand) will be made
        (call after every change)."""
        self._wake.add(game_id)
        task = self._tasks.get(game_id)
        if task is not None and not task.done():
            return  # the running task looks again before it stops
        game = self.service.cached(game_id)
        if game is not None and not self.service.server_is_to_move(game):
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
        """One bot move in the game; False once no bot is to move (or the bot failed, which is logged).
        While the database cannot be reached it keeps trying (:class:`~.outage.Outage`): the game waits,
        it does not stop."""
        loop = asyncio.get_running_loop()
        while True:
            self._wake.discard(game_id)
            try:
                async with self._slots:
                    turn = await loop.run_in_executor(self._threads, self.service.bot_turn, game_id)
                    if turn is None:
                        if game_id in self._wake:  # a move arrived while we looked: look again
                            continue
                        return False
                    job, seat, position = turn  # a bot's seat, or a person's played by the stand-in
                    if self.delay:
                        await asyncio.sleep(self.delay)
                    notation = await self.compute.run(job)
                    await loop.run_in_executor(self._threads, self.service.play, game_id, seat, notation,
                                               job.move_number, position)
            except Refused as exc:  # the pool is full: this bot waits its turn
                await asyncio.sleep(exc.retry_after)
                continue
            except GameError as exc:
                if exc.code == "stale":
                    continue
                log.error("bot in game %s: %s", game_id, exc.message)
                return False
            except DATABASE_DOWN as exc:  # out of the slot while it waits: other games' bots go on
                await asyncio.sleep(self.outage.failed(exc))
                continue
            except Exception:
                log.exception("bot in game %s failed", game_id)
                return False
            self.outage.ok()
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


class _QuietBadText(logging.Filter):
    """uvicorn logs a text frame that is not UTF-8 with a traceback; the client's mistake needs one line (the
    socket is closed with code 1007 all the same)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.msg == "Invalid UTF-8 sequence received from client.":
            record.msg = "a WebSocket client sent a text frame that is not UTF-8: closed with code 1007"
            record.exc_info, record.exc_text = None, None
            record.levelno, record.levelname = logging.WARNING, "WARNING"  # the client's fault, not the server's
        return True


quiet_bad_text = _QuietBadText()
"""Added to the ``uvicorn.error`` logger by the app (once, however many apps are made)."""

