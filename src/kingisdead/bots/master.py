"""The ``master`` level: the compiled core's search guided by the learned network.

The network (:mod:`kingisdead.learning.network`, trained by
:mod:`kingisdead.learning.train` on self-play) is evaluated inside the core's
search with no Python in the loop (``core/src/guide.rs``): it judges leaves
together with the heuristic and orders each node's candidate moves by its
policy, so progressive widening opens the moves it prefers first. The weights
ship in the package (``kingisdead/data/master.kdn``) and load without NumPy.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from random import Random
from typing import Any

from .. import engine
from ..edition import Edition
from ..moves import Move
from ..state import GameState
from .budget import Budget
from .mcts import MoveStats, SearchConfig, SearchResult, only_move


@dataclass(frozen=True)
class Guidance:
    """How much the search trusts the network, each weight in [0, 1] (the heuristic has the rest)."""

    value_weight: float = 0.5
    """Share of the network's win chances in a leaf's value."""
    policy_weight: float = 0.5
    """Share of the policy in the order (and prior) of a node's candidate moves."""
    step_weight: float = 0.0
    """How sharply the step policy ranks a card's candidates against each other (0: not at all);
    used only by a network with a step policy (docs/learning.md)."""
    draw_weight: float = 0.0
    """How sharply the step policy draws which of a card's actions become candidates (0: uniformly,
    as the plain search; 1: in proportion to their likelihood); used only by a network with a step policy."""

    def __post_init__(self) -> None:
        for name in ("value_weight", "policy_weight", "step_weight", "draw_weight"):
            if not 0.0 <= getattr(self, name) <= 1.0:
                raise ValueError(f"{name} must lie in [0, 1], got {getattr(self, name)}")


DEFAULT_GUIDANCE = Guidance()
MASTER_BUDGET = Budget(seconds=2.0)


NETWORK_VARIABLE = "KINGISDEAD_NETWORK"
"""An environment variable naming another weight file for ``master`` and ``mcts-net`` (to compare rounds)."""
SECOND_NETWORK_VARIABLE = "KINGISDEAD_NETWORK_B"
"""The weight file of ``mcts-net-b``, so that two networks can meet in one arena (default: as ``mcts-net``)."""


TRAINED_EDITIONS = frozenset({"first"})
"""The editions a network has been trained for (the shipped one learnt the first edition in self-play)."""


def check_edition(edition: Edition) -> None:
    """Raise ValueError unless a network has been trained for ``edition``."""
    if edition.name not in TRAINED_EDITIONS:
        raise ValueError(f"no network trained for the {edition.name} edition yet: the master level and the "
                         "mcts-net bots play only the first edition (choose strong or max instead)")


def shipped_network() -> Path:
    """The weights that ship in the package (``kingisdead/data/master.kdn``)."""
    from importlib import resources

    return Path(str(resources.files("kingisdead") / "data" / "master.kdn"))


def default_network() -> Path:
    """The file named by ``KINGISDEAD_NETWORK`` if set, else the shipped weights."""
    return Path(os.environ.get(NETWORK_VARIABLE) or shipped_network())


@lru_cache(maxsize=8)
def load_network(path: str | Path | None = None) -> Any:
    """The core's network for a weight file (:func:`default_network` by default), loaded once per path.

    Raises ValueError for a file that is not a network (or one made for other
    features), OSError if it cannot be read, RuntimeError without the compiled core.
    """
    path = path or default_network()
    net = engine.network(str(path))
    features = engine.feature_count()
    if net.inputs != features:
        raise ValueError(f"{path}: the network reads {net.inputs} features, the core makes {features}")
    return net


def guided_search(state: GameState, budget: Budget, rng: Random, config: SearchConfig | None = None,
                  network: Any = None, guidance: Guidance = DEFAULT_GUIDANCE, threads: int = 1,
                  include: tuple[Move, ...] = ()) -> SearchResult:
    """The core's search of ``state`` guided by ``network`` (a loaded :func:`kingisdead.engine.network`; the shipped one by default).

    ``threads`` searches run root-parallel with the GIL released, visits
    pooled. One seed drawn from ``rng`` decides every draw, so an iteration
    budget gives the same result on every run. Raises ValueError for a
    finished game or an edition no network was trained for, and
    IllegalMoveError for an illegal move in ``include``.
    """
    if state.is_over():
        raise ValueError("the game is over: there is no move to search")
    check_edition(state.edition)
    for move in include:
        state.check(move)
    config = config or SearchConfig()
    knobs = (config.exploration, config.widening, config.root_widening, config.per_card,
             config.root_per_card, config.rollout_moves, config.prior_weight)
    net = network if network is not None else load_network()
    weights = (guidance.value_weight, guidance.policy_weight, guidance.step_weight, guidance.draw_weight)
    moves, iterations, seconds = engine.guided_search(
        state, budget.seconds, budget.iterations, rng.getrandbits(64), knobs,
        list(include), threads, net, weights)
    stats = [MoveStats(engine.to_move(m), visits, value, prior) for m, visits, value, prior in moves]
    return SearchResult(stats[0].move, stats, iterations, seconds)


class MasterBot:
    """The guided search on ``threads`` threads, with the exact solver for small 2-player endgames."""

    name = "master"

    def __init__(self, seed: int = 0, budget: Budget | None = None, network: str | Path | None = None,
                 guidance: Guidance = DEFAULT_GUIDANCE, threads: int = 2, config: SearchConfig | None = None) -> None:
        from . import SearchBot

        self.rng = Random(seed)
        self.budget = budget or MASTER_BUDGET
        self.network = load_network(network)
        self.guidance = guidance
        self.threads = threads
        self.config = config or SearchConfig()
        # The solver's part is the plain search bot's, with the core's limits.
        self.solver = SearchBot(seed, self.budget, self.config)
        self.solver.engine = "core"

    def choose(self, state: GameState) -> Move:
        """The guided search's move; ValueError for a game of an edition no network was trained for."""
        check_edition(state.edition)
        forced = only_move(state)
        if forced is not None:
            return forced
        start = time.perf_counter()
        proven = self.solver.proven_move(state)
        if proven is not None:
            return proven
        return guided_search(state, self.solver.budget_left(start), self.rng, self.config, self.network,
                             self.guidance, self.threads).best
