"""Search from one seat's view: determinisation for the advanced game's secret hands.

In the advanced game a player does not know which Cunning cards the others
hold. This bot never looks: it takes the view of its own seat
(:meth:`GameState.view`), deals the cards it has not seen into several full
positions consistent with that view (:meth:`SeatView.sample`, every fitting
deal equally likely), searches each with the tree search of :mod:`.mcts`, and
plays the move with the most visits summed over those worlds (ties: the best
mean value). This is perfect-information Monte Carlo (Ginsberg, "GIB:
Imperfect information in a computationally challenging game", JAIR 2001;
Long, Sturtevant, Buro and Furtak, "Understanding the success of perfect
information Monte Carlo sampling in game tree search", AAAI 2010). Its known
weakness is that each world's search believes it knows the hands; it never
bluffs and never hides what it holds.

The move depends only on the seat's view and the bot's seed: two positions
that the seat sees alike get the same move (a test keeps it so). The search
is the Python tree search of :mod:`.mcts`, its rules asked of the engine in use (the core's
compiled search knows only the standard game's cards).
"""

from __future__ import annotations

import time
from random import Random
from typing import TYPE_CHECKING

from ..moves import Move
from .budget import Budget
from .mcts import MCTS, MoveStats, SearchConfig, SearchResult, only_move

if TYPE_CHECKING:
    from ..information import SeatView
    from ..state import GameState

DEFAULT_WORLDS = 8
"""Deals searched per move: more worlds follow the unseen cards better, fewer search each deeper."""


class DeterminisedBot:
    """Tree search over deals of the cards its seat has not seen (perfect-information Monte Carlo)."""

    name = "determinised"

    def __init__(self, seed: int = 0, budget: Budget | None = None, worlds: int = DEFAULT_WORLDS,
                 config: SearchConfig | None = None) -> None:
        if worlds < 1:
            raise ValueError(f"a determinised search needs at least one world, not {worlds}")
        self.rng = Random(seed)
        self.budget = budget or Budget(seconds=1.0)
        self.worlds = worlds
        self.config = config or SearchConfig()

    def choose(self, state: GameState) -> Move:
        """The move for the player to move, chosen from their view of ``state`` alone."""
        return self.choose_from(state.view(state.player))

    def choose_from(self, view: SeatView) -> Move:
        """The move for the seat of ``view`` (which must be the player to move).

        Raises ValueError for a finished game.
        """
        if view.is_over():
            raise ValueError("the game is over: there is no move to search")
        return determinised_search(view, self.budget, self.rng, self.worlds, self.config).best


def determinised_search(view: SeatView, budget: Budget, rng: Random, worlds: int = DEFAULT_WORLDS,
                        config: SearchConfig | None = None, include: tuple[Move, ...] = ()) -> SearchResult:
    """Search ``worlds`` deals sampled from ``view`` (``budget`` shared among them) and pool their root moves.

    Each move's visits are summed over the worlds, its value is the visit-weighted mean and its prior the
    mean over the worlds that looked at it; moves come most visited first. The player to move must be the
    view's seat (their moves are the same in every world: the other hands change only what follows).
    ``include`` forces moves into every world's candidates. Raises ValueError for a finished game.
    """
    if view.is_over():
        raise ValueError("the game is over: there is no move to search")
    first = view.sample(rng)
    forced = only_move(first)
    if forced is not None:
        return SearchResult(forced, [MoveStats(forced, 0, 0.5, 0.5)], 0, 0.0)
    share = Budget(None if budget.seconds is None else budget.seconds / worlds,
                   None if budget.iterations is None else max(1, budget.iterations // worlds))
    visits: dict[Move, int] = {}
    values: dict[Move, float] = {}
    priors: dict[Move, list[float]] = {}
    iterations, seconds = 0, 0.0
    for world in range(worlds):
        sampled = first if world == 0 else view.sample(rng)
        result = MCTS(sampled, rng, config or SearchConfig(), include).run(share, start=time.perf_counter())
        iterations += result.iterations
        seconds += result.seconds
        for stats in result.moves:
            visits[stats.move] = visits.get(stats.move, 0) + stats.visits
            values[stats.move] = values.get(stats.move, 0.0) + stats.value * stats.visits
            priors.setdefault(stats.move, []).append(stats.prior)
    pooled = [MoveStats(move, n, values[move] / n if n else 0.0, sum(priors[move]) / len(priors[move]))
              for move, n in visits.items()]
    pooled.sort(key=lambda m: (-m.visits, -m.value))
    return SearchResult(pooled[0].move, pooled, iterations, seconds)
