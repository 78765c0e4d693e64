"""The compute pool: bot moves, hints and analyses as jobs, apart from request handling.

Requests run on the event loop and the default thread pool; searches run
here, in worker processes (started with ``spawn``, each ending itself when
the server process dies, see :mod:`kingisdead.workers`) or on a Ray cluster.
A job gets plain, picklable inputs (a :class:`~kingisdead.state.GameState`,
a record's JSON, a seed) and returns plain results (notation, dicts).

The pool refuses work it cannot take promptly rather than queue it without
bound: more than ``queue_limit`` jobs in flight answer 503 (``busy``, with a
Retry-After), more than ``client_limit`` hints or analyses in flight for one
client answer 429 (``too_many_jobs``). Two requests for the same job (kind,
game and move number) share one run.

Configuration (``ComputePool.from_env``): ``KINGISDEAD_COMPUTE`` is
``processes`` (default) or ``ray`` (with ``RAY_ADDRESS`` for a cluster; a
local one otherwise), ``KINGISDEAD_COMPUTE_WORKERS`` the processes (default:
the cores less one, at least one), ``KINGISDEAD_COMPUTE_QUEUE`` the jobs in
flight (64) and ``KINGISDEAD_COMPUTE_PER_CLIENT`` a client's hints and
analyses in flight (2).
"""

from __future__ import annotations

import asyncio
import os
from collections import Counter
from collections.abc import Callable, Hashable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import asdict, dataclass
from functools import partial
from typing import Any, Protocol

from ..analysis import analyse_position, analyse_record, best_line
from ..bots import make_bot
from ..bots.budget import Budget
from ..moves import format_move, parse_move
from ..record import GameRecord
from ..state import GameState
from ..workers import process_pool, stop_pool
from .explain import costliest, hint_reason, why_better
from .i18n import _, join
from .texts import NotationText
from .views import describe_move, move_changes

RETRY_AFTER = 2
"""Seconds a refused client is told to wait (the Retry-After header)."""


class Refused(Exception):
    """The pool cannot take the job now: ``status`` 503 (pool full) or 429 (client quota)."""

    def __init__(self, status: int, code: str, message: str, retry_after: int = RETRY_AFTER) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.retry_after = status, code, message, retry_after


@dataclass(frozen=True)
class Job:
    """One piece of search work: ``call(*args)`` in a worker; ``key`` identifies equal jobs.

    ``position`` (the position's key) keeps apart jobs at one move number of a game
    whose position changed under them (a take-back, then another move).
    """

    kind: str
    game_id: str
    move_number: int
    call: Callable[..., Any]
    args: tuple[Any, ...]
    position: Hashable = None

    @property
    def key(self) -> Hashable:
        return self.kind, self.game_id, self.move_number, self.position


# -- the jobs (module-level functions: they travel to the workers by name) ----------------------

def bot_move(bot: str, seed: int, state: GameState) -> str:
    """The move the bot level ``bot`` seeded with ``seed`` chooses, in notation (make_bot refuses a bot
    that would read the advanced game's secret hands)."""
    return format_move(make_bot(bot, seed, edition=state.edition).choose(state), state.edition)


def forced_pass() -> str:
    """The move of a person with no card left, which the server plays for them: a pass."""
    return "pass"


def hint(state: GameState, seed: int, budget: Budget, top: int) -> dict[str, Any]:
    """The ``top`` best moves for the player to move: the hint endpoint's answer."""
    found = analyse_position(state, budget, seed=seed, top=top)
    # The search's ``top`` most visited moves, shown best first by their win chance.
    ranked = sorted(found.moves, key=lambda e: -e.win_chance)
    moves = [parse_move(e.move, state.edition) for e in ranked]
    lines = [best_line(state, move, seed=seed) for move in moves]
    # When every move loses, the least bad one keeps the game going longest: the most time for the other
    # side to slip (the figures alone would read "0% to win" on every line).
    least_bad = None
    if all(e.win_chance == 0 for e in ranked):
        least_bad = max(range(len(ranked)), key=lambda i: (lines[i].ends_at, len(lines[i].moves), -i))
    rows = []
    for i, (e, move, line) in enumerate(zip(ranked, moves, lines)):
        reason = hint_reason(state, move, line)
        if i == least_bad:
            reason = join([reason, _("Every move loses against best play; this one is the least bad: it keeps the "
                                     "game going {moves} more moves, to struggle {n}, where a slip by the other side "
                                     "could still turn it.", moves=len(line.moves) - 1, n=line.ends_at)], " ")
        rows.append({"move": e.move, "shown_notation": NotationText(move, state.edition),
                     "card": None if move.card is None else int(move.card),
                     "description": describe_move(move, state.edition), "reason": reason,
                     "win_chance": e.win_chance, "visits": e.visits, "least_bad": i == least_bad})
    if least_bad is not None:
        rows.insert(0, rows.pop(least_bad))
    return {
        "method": _("search of {playouts} playouts; win chance as the search estimates it", playouts=found.iterations),
        "exact": found.exact,
        "moves": rows,
    }


def _alternative(state: GameState, notation: str, win_chance: float) -> dict[str, Any]:
    """One of the search's top moves in ``state`` as an analysis row lists it (see :func:`analysis`)."""
    move = parse_move(notation, state.edition)
    return {"move": notation, "shown_notation": NotationText(move, state.edition), "win_chance": win_chance,
            "description": describe_move(move, state.edition), "changes": _changes(state, notation)}


def analysis(record: str, seed: int, budget: Budget) -> list[dict[str, Any]]:
    """Each move of the finished game in ``record`` (its JSON) with the best alternative found.

    Each row is an :class:`~kingisdead.analysis.MoveAnnotation` as a dict, with the two moves in words
    (``best_description``, ``played_description``), what the played move changed (``played_changes``,
    views.move_changes) and each of the search's top ``alternatives`` as ``{move, win_chance,
    description, changes}``.
    """
    game = GameRecord.loads(record)
    notes = analyse_record(game, budget, seed=seed)
    state = game.start()
    edition = state.edition
    rows: list[dict[str, Any]] = []
    before = []  # the position before each move
    for note in notes:
        before.append(state.copy())
        best, played = parse_move(note.best, edition), parse_move(note.played, edition)
        rows.append({**asdict(note), "best_description": describe_move(best, edition),
                     "played_description": describe_move(played, edition),
                     "best_shown": NotationText(best, edition), "played_shown": NotationText(played, edition),
                     "played_changes": _changes(state, note.played),
                     "alternatives": [_alternative(state, e.move, e.win_chance) for e in note.alternatives]})
        state.apply(note.played)
    # the mistakes "learn from your mistakes" shows say why the better move is better: both moves' lines
    for player in range(state.players):
        for row in costliest(rows, player):
            position = before[row["number"] - 1]
            row["why"] = why_better(position, best_line(position, parse_move(row["played"], edition), seed=seed),
                                    best_line(position, parse_move(row["best"], edition), seed=seed))
    return rows


def _changes(state: GameState, notation: str) -> dict[str, Any]:
    """What the move would change played in ``state`` (views.move_changes), for marking it on a board."""
    move = parse_move(notation, state.edition)
    return move_changes(state, state.after(move), move)


# -- backends ---------------------------------------------------------------------------------

class Backend(Protocol):
    def submit(self, call: Callable[..., Any], args: tuple[Any, ...]) -> asyncio.Future[Any]: ...

    def close(self) -> None: ...


class ProcessBackend:
    """Worker processes on this machine (spawned on first use, ended by :meth:`close`)."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._pool: ProcessPoolExecutor | None = None

    def submit(self, call: Callable[..., Any], args: tuple[Any, ...]) -> asyncio.Future[Any]:
        if self._pool is None:
            self._pool = process_pool(self.workers)
        try:
            return asyncio.wrap_future(self._pool.submit(call, *args))
        except BrokenProcessPool:  # a worker died (killed, out of memory): start afresh
            stop_pool(self._pool)
            self._pool = process_pool(self.workers)
            return asyncio.wrap_future(self._pool.submit(call, *args))

    def close(self) -> None:
        if self._pool is not None:
            stop_pool(self._pool)
            self._pool = None


class RayBackend:
    """Jobs as Ray tasks (one CPU each): a cluster at ``address``, else a local Ray of ``num_cpus``.

    Needs the ``dist`` extra, and kingisdead installed on every node of the cluster.
    """

    def __init__(self, address: str | None = None, num_cpus: int | None = None) -> None:
        try:
            import ray
        except ImportError:
            raise RuntimeError("KINGISDEAD_COMPUTE=ray needs the 'dist' extra: pip install 'kingisdead[dist]'") \
                from None
        self._ray = ray
        self.address, self.num_cpus = address, num_cpus
        self._started = False
        self._remote: dict[Callable[..., Any], Any] = {}

    def submit(self, call: Callable[..., Any], args: tuple[Any, ...]) -> asyncio.Future[Any]:
        if not self._ray.is_initialized():  # on first use: creating the app starts nothing
            self._ray.init(address=self.address, num_cpus=None if self.address else self.num_cpus,
                           include_dashboard=False, log_to_driver=False)
            self._started = True
        remote = self._remote.get(call)
        if remote is None:
            remote = self._remote[call] = self._ray.remote(num_cpus=1)(call)
        return asyncio.wrap_future(remote.remote(*args).future())

    def close(self) -> None:
        if self._started:
            self._ray.shutdown()
            self._started = False


# -- the pool ---------------------------------------------------------------------------------

class ComputePool:
    """Runs jobs on a backend with a queue limit, per-client quotas and de-duplication.

    Use from the event loop only (its book-keeping is not locked).
    """

    def __init__(self, backend: Backend, queue_limit: int = 64, client_limit: int = 2) -> None:
        self.backend = backend
        self.queue_limit = queue_limit
        self.client_limit = client_limit
        self._jobs: dict[Hashable, asyncio.Future[Any]] = {}
        self._clients: Counter[str] = Counter()

    @classmethod
    def from_env(cls) -> ComputePool:
        """The pool the environment describes (see the module's docstring); ValueError for a bad setting."""
        kind = os.environ.get("KINGISDEAD_COMPUTE", "processes")
        workers = _env_count("KINGISDEAD_COMPUTE_WORKERS", max(1, (os.cpu_count() or 2) - 1))
        backend: Backend
        if kind == "processes":
            backend = ProcessBackend(workers)
        elif kind == "ray":
            backend = RayBackend(os.environ.get("RAY_ADDRESS"), workers)
        else:
            raise ValueError(f"KINGISDEAD_COMPUTE must be 'processes' or 'ray', not {kind!r}")
        return cls(backend, _env_count("KINGISDEAD_COMPUTE_QUEUE", 64), _env_count("KINGISDEAD_COMPUTE_PER_CLIENT", 2))

    @property
    def in_flight(self) -> int:
        """Jobs submitted and not finished."""
        return len(self._jobs)

    async def run(self, job: Job, client: str | None = None) -> Any:
        """The job's result; joins an equal job in flight. ``client`` (an address) counts against its quota.

        Raises :class:`Refused` (503 or 429) without starting anything, or what the job raised.
        """
        running = self._jobs.get(job.key)
        if running is None:
            if len(self._jobs) >= self.queue_limit:
                raise Refused(503, "busy", _("the server is busy ({jobs} searches in progress): try again in {wait} s",
                                             jobs=len(self._jobs), wait=RETRY_AFTER))
            if client is not None and self._clients[client] >= self.client_limit:
                raise Refused(429, "too_many_jobs", _("you have {jobs} hints or analyses in progress already: "
                                                      "wait for one to finish", jobs=self._clients[client]))
            running = self.backend.submit(job.call, job.args)
            self._jobs[job.key] = running
            if client is not None:
                self._clients[client] += 1
            running.add_done_callback(partial(self._finished, job.key, client))
        return await asyncio.shield(running)

    def _finished(self, key: Hashable, client: str | None, _done: asyncio.Future[Any]) -> None:
        self._jobs.pop(key, None)
        if client is not None:
            self._clients[client] -= 1
            if self._clients[client] <= 0:
                del self._clients[client]

    def close(self) -> None:
        """Cancel what is queued, end the workers."""
        for running in self._jobs.values():
            running.cancel()
        self.backend.close()


def _env_count(name: str, default: int) -> int:
    """A positive whole number from the environment; ValueError naming the variable otherwise."""
    text = os.environ.get(name)
    if not text:
        return default
    if not text.strip().isdigit() or int(text) < 1:
        raise ValueError(f"{name} must be a positive whole number, not {text!r}")
    return int(text)
