"""Strength in the advanced game: each bot against the one below, and what the secret hands cost the search.

Pairings (2 players, the second edition's advanced game, seats alternated over the same seeded deals):

- ``determinised`` (perfect-information Monte Carlo over deals of the unseen cards) against ``random``;
- a larger budget against a smaller one;
- the same search allowed to see every hand (each world is the true position) against the determinised one
  with the same budget: the gap is what the secret costs a player who must guess the other hand.

Win rates with their 95% Wilson intervals, after the search's speed (iterations a second) from a seat's view
and with open hands, in the same run. Run from the repository root::

    PYTHONPATH=src .venv/bin/python benchmarks/bench_advanced_strength.py --games 40 --iterations 400

``--levels``: instead, each of the lobby's levels of the advanced game (web/games.py's ADVANCED_LEVELS, by their
bot names) against the one below it; the levels with a time budget depend on the machine.
"""

from __future__ import annotations

import argparse
import time
from random import Random

from kingisdead import GameState
from kingisdead.arena import derive_seed, wilson
from kingisdead.bots import Bot, RandomBot, make_bot
from kingisdead.bots.budget import Budget
from kingisdead.bots.determinised import DeterminisedBot, determinised_search
from kingisdead.bots.mcts import MCTS, SearchConfig, only_move
from kingisdead.edition import get_edition
from kingisdead.moves import Move

ADVANCED = get_edition("second", "advanced")


class OpenHandsBot(DeterminisedBot):
    """The determinised bot's search, every world the true position: it sees the hands (for measuring only)."""

    def choose(self, state: GameState) -> Move:
        forced = only_move(state)
        if forced is not None:
            return forced
        share = Budget(iterations=max(1, (self.budget.iterations or 1) // self.worlds))
        visits: dict[Move, int] = {}
        for _ in range(self.worlds):
            for stats in MCTS(state, self.rng, self.config).run(share).moves:
                visits[stats.move] = visits.get(stats.move, 0) + stats.visits
        return max(visits, key=visits.__getitem__)


def play(bots: list[Bot], seed: int) -> tuple[tuple[int, ...], list[float]]:
    """One game from ``seed``'s deal: the winners and each seat's seconds."""
    state = GameState.new(2, seed=seed, edition=ADVANCED)
    seconds = [0.0, 0.0]
    while not state.is_over():
        start = time.perf_counter()
        move = bots[state.player].choose(state)
        seconds[state.player] += time.perf_counter() - start
        state.apply(move)
    assert state.result is not None
    return state.result.winners, seconds


def match(name: str, make_a, make_b, games: int, seed: int) -> None:
    """``games`` games (even: each deal twice, seats swapped) of bot A against bot B; prints A's score."""
    score = 0.0
    spent = [0.0, 0.0]
    for game in range(games):
        deal = derive_seed(seed, name, game // 2)
        a_seat = game % 2
        a, b = make_a(derive_seed(seed, name, game, "a")), make_b(derive_seed(seed, name, game, "b"))
        bots = [a, b] if a_seat == 0 else [b, a]
        winners, seconds = play(bots, deal)
        score += (a_seat in winners) / len(winners)
        spent[0] += seconds[a_seat]
        spent[1] += seconds[1 - a_seat]
    low, high = wilson(score, games)
    print(f"| {name} | {games} | {score / games:.1%} | {low:.1%}-{high:.1%} | {spent[0] / games:.1f} / "
          f"{spent[1] / games:.1f} |", flush=True)


def speed(iterations: int, seed: int) -> None:
    """Search iterations a second (the root's candidates counted in the time) at the start of five deals: from
    the mover's view over 8 deals, and with open hands."""
    seen = [0, 0.0]
    open_hands = [0, 0.0]
    for deal in range(5):
        state = GameState.new(2, seed=derive_seed(seed, "speed", deal), edition=ADVANCED)
        rng = Random(deal)
        start = time.perf_counter()
        seen[0] += determinised_search(state.view(state.player), Budget(iterations=iterations), rng).iterations
        seen[1] += time.perf_counter() - start
        start = time.perf_counter()
        open_hands[0] += MCTS(state, rng, SearchConfig()).run(Budget(iterations=iterations)).iterations
        open_hands[1] += time.perf_counter() - start
    print(f"Search iterations a second at a start (reference engine): from the seat's view, "
          f"{seen[0] / seen[1]:,.0f} (8 deals); open hands, {open_hands[0] / open_hands[1]:,.0f} "
          f"(ratio {seen[0] / seen[1] / (open_hands[0] / open_hands[1]):.2f})")


def levels(games: int, seed: int) -> None:
    """Each level of the lobby's advanced game against the one below (web/games.py's ADVANCED_LEVELS)."""
    from kingisdead.web.games import ADVANCED_LEVELS  # the web extra: the lobby's ladder as the site serves it

    ladder = list(ADVANCED_LEVELS.items())
    print(f"2 players, advanced game, the lobby's levels, {games} games per pairing, seed {seed}")
    print("| A against B | games | A's score | 95% interval | seconds per game, A / B |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for (low, low_bot), (high, high_bot) in zip(ladder, ladder[1:]):
        match(f"{high} ({high_bot}) against {low} ({low_bot})",
              lambda s, bot=high_bot: make_bot(bot, s, edition=ADVANCED),
              lambda s, bot=low_bot: make_bot(bot, s, edition=ADVANCED), games, seed)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="games per pairing (even)")
    parser.add_argument("--iterations", type=int, default=400, help="search iterations per move, all worlds")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--levels", action="store_true", help="the lobby's levels, each against the one below")
    args = parser.parse_args()
    if args.levels:
        levels(args.games, args.seed)
        return
    n = args.iterations
    speed(n, args.seed)
    print(f"2 players, advanced game, {args.games} games per pairing, seed {args.seed}")
    print("| A against B | games | A's score | 95% interval | seconds per game, A / B |")
    print("| --- | ---: | ---: | ---: | ---: |")
    match(f"determinised {n} against random", lambda s: DeterminisedBot(s, Budget(iterations=n)),
          RandomBot, args.games, args.seed)
    match(f"determinised {n} against determinised {n // 4}", lambda s: DeterminisedBot(s, Budget(iterations=n)),
          lambda s: DeterminisedBot(s, Budget(iterations=n // 4)), args.games, args.seed)
    match(f"open hands {n} against determinised {n}", lambda s: OpenHandsBot(s, Budget(iterations=n)),
          lambda s: DeterminisedBot(s, Budget(iterations=n)), args.games, args.seed)


if __name__ == "__main__":
    main()
