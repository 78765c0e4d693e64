"""Monte Carlo tree search for 2, 3 and 4 players.

What the game offers, and how the search uses it:

- After the setup there is no chance and, for a player who remembers every
  public move, no hidden information: the tree stores exact states, no
  sampling of worlds is needed.
- Every player maximises their own result (max-n backups: a node keeps one
  total per player and the player to move picks by their own). In the
  4-player game partners share a result, which :func:`evaluate` and the
  final result already give them.
- Moves are large (card, choices, court call: ~19,000 at the start). A node
  does not list them; it ranks a short list of candidates (see
  :mod:`.candidates`) and lets the search see more of that list as the node is
  visited more (progressive widening: ``1 + widening * visits ** 0.5``
  children), best-ranked first.
- Leaves are judged by :func:`evaluate` after a short rollout, not by random
  play to the end: random games say little about a position here.
- With two players and few cards left, the exact solver takes over
  (:mod:`.solver`).

A search is deterministic for a given seed when it runs on an iteration
budget; a time budget stops it wherever the clock says.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from random import Random
from typing import TYPE_CHECKING

from .. import engine
from ..engine import chosen, to_move
from ..engine import search as _core_search
from ..evaluation import evaluate
from ..moves import PASS, Move
from .budget import Budget
from .candidates import playable_cards, ranked_candidates

if TYPE_CHECKING:
    from ..state import GameState


@dataclass(frozen=True)
class SearchConfig:
    """The knobs of the search (the defaults are the tuned ones)."""

    exploration: float = 0.3
    """UCB constant; rewards lie in [0, 1]."""
    widening: float = 1.0
    """Progressive widening: a node may have ``1 + widening * sqrt(visits)`` children."""
    root_widening: float = 2.0
    per_card: int = 3
    """Actions drawn for each card in hand when a node's candidates are built."""
    root_per_card: int = 24
    rollout_moves: int = 0
    """Random moves played from a new leaf before it is judged (0: judge it as it is)."""
    prior_weight: float = 1.0
    """Weight of the heuristic's value of a child, fading as the child gets visits."""


def rewards(s: GameState) -> list[float]:
    """Each player's reward in [0, 1]: the result when over, else the heuristic rescaled."""
    result = s._result
    if result is not None:
        winners = result.winners
        sides = len({p % 2 for p in winners}) if s.players == 4 else len(winners)
        share = 1.0 / sides if sides else 0.0
        return [share if p in winners else 0.0 for p in range(s.players)]
    return [(v + 1.0) * 0.5 for v in evaluate(s)]


class Node:
    """A position in the tree, with its visit count and each player's total reward."""

    __slots__ = ("state", "move", "prior", "visits", "totals", "children", "candidates", "next")

    def __init__(self, state: GameState, move: Move | None, prior: float) -> None:
        self.state = state
        self.move = move
        self.prior = prior
        self.visits = 0
        self.totals = [0.0] * state.players
        self.children: list[Node] = []
        self.candidates: list[tuple[float, Move]] | None = None
        self.next = 0

    def mean(self, player: int) -> float:
        return self.totals[player] / self.visits if self.visits else 0.0


@dataclass(frozen=True)
class MoveStats:
    """What the search learnt about one move at the root."""

    move: Move
    visits: int
    value: float
    """Mean reward of the mover after this move, in [0, 1] (a win chance estimate)."""
    prior: float
    """The heuristic's value of the move alone, rescaled to [0, 1]."""


@dataclass(frozen=True)
class SearchResult:
    best: Move
    moves: list[MoveStats]
    """Root moves the search looked at, most visited first."""
    iterations: int
    seconds: float


class MCTS:
    """One search from a root position."""

    def __init__(self, state: GameState, rng: Random, config: SearchConfig,
                 include: tuple[Move, ...] = ()) -> None:
        self.rng = rng
        self.config = config
        self.root = Node(state.copy(), None, 0.5)
        self.root.candidates = self._root_candidates(include)

    def _root_candidates(self, include: tuple[Move, ...]) -> list[tuple[float, Move]]:
        s = self.root.state
        scored = ranked_candidates(s, self.rng, self.config.root_per_card)
        known = {m for _, m in scored}
        for move in include:  # moves the caller wants judged (e.g. the one played in a record)
            if move not in known:
                after = s.copy()
                engine.play(after, move)
                scored.append((evaluate(after)[s.player], move))
                known.add(move)
        if include:
            # Judge the requested moves first, so that they surely get visits.
            wanted = set(include)
            scored.sort(key=lambda x: (x[1] not in wanted, -x[0]))
        return scored

    def run(self, budget: Budget, clock: Callable[[], float] = time.perf_counter,
            start: float | None = None) -> SearchResult:
        """Iterate until the budget is spent (at least once); ``clock`` is replaceable for tests.

        ``start`` is when the move's thinking began (the root's candidates count against the time).
        """
        start = clock() if start is None else start
        deadline = start + budget.seconds if budget.seconds is not None else math.inf
        limit = budget.iterations if budget.iterations is not None else math.inf
        iterations = 0
        while iterations < limit and (iterations == 0 or clock() < deadline):
            self._iterate()
            iterations += 1
        return self._result(iterations, clock() - start)

    def _result(self, iterations: int, seconds: float) -> SearchResult:
        mover = self.root.state.player
        children = sorted(self.root.children, key=lambda c: (-c.visits, -c.mean(mover)))
        stats = [MoveStats(c.move, c.visits, c.mean(mover), c.prior) for c in children if c.move is not None]
        return SearchResult(stats[0].move, stats, iterations, seconds)

    # -- one iteration -------------------------------------------------------------

    def _iterate(self) -> None:
        node = self.root
        path = [node]
        while node.state._result is None:
            child = self._expand(node)
            if child is not None:
                path.append(child)
                node = child
                break
            node = self._select(node)
            path.append(node)
        values = self._judge(node.state)
        for n in path:
            n.visits += 1
            totals = n.totals
            for p, v in enumerate(values):
                totals[p] += v

    def _expand(self, node: Node) -> Node | None:
        """A new child if the node may widen (its candidates are built on its first widening)."""
        config = self.config
        if node.candidates is None:
            node.candidates = ranked_candidates(node.state, self.rng, config.per_card)
        widening = config.root_widening if node is self.root else config.widening
        allowed = 1 + int(widening * math.sqrt(node.visits))
        if len(node.children) >= allowed or node.next >= len(node.candidates):
            return None
        value, move = node.candidates[node.next]
        node.next += 1
        after = node.state.copy()
        engine.play(after, move)
        child = Node(after, move, (value + 1.0) * 0.5)
        node.children.append(child)
        return child

    def _select(self, node: Node) -> Node:
        mover = node.state.player
        config = self.config
        log_n = math.log(node.visits + 1)
        best, best_score = node.children[0], -math.inf
        for child in node.children:
            n = child.visits
            if n == 0:
                return child
            score = (child.totals[mover] / n + config.exploration * math.sqrt(log_n / n)
                     + config.prior_weight * child.prior / (n + 1))
            if score > best_score:
                best, best_score = child, score
        return best

    def _judge(self, state: GameState) -> list[float]:
        moves = self.config.rollout_moves
        if moves and state._result is None:
            state = state.copy()
            for _ in range(moves):
                engine.play_random(state, self.rng)
                if state._result is not None:
                    break
        return rewards(state)


def search(state: GameState, budget: Budget, rng: Random, config: SearchConfig | None = None,
           include: tuple[Move, ...] = (), clock: Callable[[], float] = time.perf_counter,
           threads: int = 1, engine: str | None = None) -> SearchResult:
    """Search ``state`` within ``budget``; ``include`` forces moves into the root's candidates.

    Raises ValueError for a finished game and IllegalMoveError for an illegal
    move in ``include``.

    The compiled core runs the search when it is the engine in use (see
    :mod:`kingisdead.core`), on ``threads`` threads with the GIL released
    (root parallel: independent trees, visits pooled); the reference search
    below runs otherwise, when ``engine="reference"`` asks for it, whenever
    a test supplies its own ``clock``, and for the advanced game (which only the
    reference plays; searching its full state sees every hand: a seat's search
    is :func:`kingisdead.bots.determinised.determinised_search`).
    One seed drawn from ``rng`` decides every draw of the compiled search, so
    an iteration budget gives the same result on every run.
    """
    if state.is_over():
        raise ValueError("the game is over: there is no move to search")
    for move in include:
        state.check(move)  # IllegalMoveError naming the rule: only legal moves can be judged
    config = config or SearchConfig()
    if chosen(engine) == "core" and clock is time.perf_counter and not state.edition.advanced:
        return core_search(state, budget, rng, config, include, threads)
    start = clock()
    return MCTS(state, rng, config, include).run(budget, clock, start)


def core_search(state: GameState, budget: Budget, rng: Random, config: SearchConfig,
                include: tuple[Move, ...] = (), threads: int = 1) -> SearchResult:
    """The same search in the compiled core (kingisdead._core)."""
    knobs = (config.exploration, config.widening, config.root_widening, config.per_card,
             config.root_per_card, config.rollout_moves, config.prior_weight)
    moves, iterations, seconds = _core_search(
        state, budget.seconds, budget.iterations, rng.getrandbits(64), knobs,
        list(include), threads)
    stats = [MoveStats(to_move(m), visits, value, prior) for m, visits, value, prior in moves]
    return SearchResult(stats[0].move, stats, iterations, seconds)


def only_move(state: GameState) -> Move | None:
    """The move when there is no choice (no card left to play: pass), else None."""
    return None if playable_cards(state) else PASS
