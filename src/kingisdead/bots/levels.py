"""Named levels for people: a bot and a budget each, from forgiving to the strongest this machine allows.

| level | bot | budget per move |
| --- | --- | --- |
| beginner | paced-careless: greedy over one drawn action per card, a random move two times in three, a reserve of cards kept | none |
| intermediate | paced-greedy: every legal move, one move deep, a reserve of cards kept | none |
| strong | Monte Carlo tree search + endgame solver | 1 s |
| max | the same search on two threads (root parallel), visits pooled | 2 s |
| master | the search guided by the learned network (bots/master.py), two threads | 2 s |

A budget given with the level (``strong:3s``) replaces the level's own. The two levels that do not
search keep a reserve of cards for the struggles to come (:mod:`.pacing`), so that they do not spend
their hands on the first struggle as one-move-deep judgement otherwise does.
"""

from __future__ import annotations

import atexit
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from random import Random
from typing import TYPE_CHECKING, Any

from .. import engine
from ..moves import Move
from ..workers import process_pool, stop_pool
from .budget import Budget
from .mcts import SearchConfig, only_move, search

if TYPE_CHECKING:
    from ..state import GameState
    from . import Bot


class ParallelSearchBot:
    """Root-parallel search: ``workers`` independent searches, visits pooled.

    With the compiled core the searches are threads of one call that releases
    the GIL (no processes); with the reference engine they run one here and
    the rest in spawned helper processes that die with this one. Each search gets its own seed from this
    bot's generator, so with an iteration budget the pooled choice is the
    same on every run.
    """

    name = "mcts-parallel"

    def __init__(self, seed: int = 0, budget: Budget | None = None, workers: int | None = None,
                 config: SearchConfig | None = None) -> None:
        from . import SearchBot

        self.rng = Random(seed)
        self.budget = budget or Budget(seconds=2.0)
        self.workers = workers or 2
        self.config = config or SearchConfig()
        self.local = SearchBot(seed, self.budget, self.config)

    def choose(self, state: GameState) -> Move:
        forced = only_move(state)
        if forced is not None:
            return forced
        start = time.perf_counter()
        proven = self.local.proven_move(state)
        if proven is not None:
            return proven
        budget = self.local.budget_left(start)
        if engine.compiled():
            # One process: the core's threads search with the GIL released.
            return search(state, budget, self.rng, self.config, threads=self.workers).best
        pool = _helpers(self.workers - 1)
        seeds = [self.rng.getrandbits(63) for _ in range(self.workers)]
        remote = [pool.submit(_root_stats, state, budget, seed, self.config) for seed in seeds[1:]]
        pooled: dict[Move, list[float]] = {}
        for stats in [_root_stats(state, budget, seeds[0], self.config)] + [f.result() for f in remote]:
            for move, visits, value in stats:
                entry = pooled.setdefault(move, [0, 0.0])
                entry[0] += visits
                entry[1] += visits * value
        return max(pooled, key=lambda m: (pooled[m][0], pooled[m][1]))


_POOLS: dict[int, ProcessPoolExecutor] = {}


def _helpers(workers: int) -> ProcessPoolExecutor:
    """Helper processes shared by every parallel bot of this process (a web server makes a bot per move).

    Spawned, not forked (a server's listening socket stays with the server), each exits when this
    process dies, and the pool is shut down when this process exits normally.
    """
    if workers not in _POOLS:
        _POOLS[workers] = pool = process_pool(workers)
        atexit.register(stop_pool, pool)
    return _POOLS[workers]


def _root_stats(state: GameState, budget: Budget, seed: int, config: SearchConfig) -> list[tuple[Move, int, float]]:
    result = search(state, budget, Random(seed), config)
    return [(m.move, m.visits, m.value) for m in result.moves]


@dataclass(frozen=True)
class Level:
    name: str
    description: str
    factory: Callable[..., Any]
    budget: Budget | None

    def make(self, seed: int = 0, budget: Budget | None = None) -> Bot:
        return self.factory(seed, budget or self.budget)


def _careless(seed: int, budget: Budget | None) -> Bot:
    from . import PacedCarelessBot

    return PacedCarelessBot(seed, budget)


def _greedy(seed: int, budget: Budget | None) -> Bot:
    from . import PacedGreedyBot

    return PacedGreedyBot(seed, budget)


def _search(seed: int, budget: Budget | None) -> Bot:
    from . import SearchBot

    return SearchBot(seed, budget)


def _master(seed: int, budget: Budget | None) -> Bot:
    from .master import MasterBot

    return MasterBot(seed, budget)


LEVELS: dict[str, Level] = {
    level.name: level
    for level in (
        Level("beginner", "greedy over a few drawn moves, with a random move two times in three", _careless, None),
        Level("intermediate", "greedy: looks at every legal move, one move deep", _greedy, None),
        Level("strong", "Monte Carlo tree search with the endgame solver, 1 s a move", _search, Budget(seconds=1.0)),
        Level("max", "the same search on two cores, 2 s a move", ParallelSearchBot, Budget(seconds=2.0)),
        Level("master", "the search guided by a network learnt in self-play, two cores, 2 s a move", _master,
              Budget(seconds=2.0)),
    )
}
