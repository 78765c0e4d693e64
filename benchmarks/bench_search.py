"""Search speed, the compiled core beside the pure-Python reference in the same run.

Run: .venv/bin/python benchmarks/bench_search.py [--seconds 2]

One process. Prints, for each figure, the core's value, the reference's and
their ratio: heuristic evaluations per second, candidate lists per second, MCTS
iterations per second at a few positions (one thread; the core also on two
threads, root parallel), the time to analyse a whole recorded game at the
default analysis budget, and the endgame solver on 2-player endgames (the
core with up to 3 cards in each hand, the reference with 1 each, the most it
proves in reasonable time).
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time
from collections.abc import Callable
from random import Random

from kingisdead import GameState, core, rules
from kingisdead import playout
from kingisdead.analysis import analyse_record
from kingisdead.bots import make_bot
from kingisdead.bots.budget import Budget
from kingisdead.bots.candidates import ranked_candidates
from kingisdead.bots.mcts import search
from kingisdead.bots.solver import solve
from kingisdead.evaluation import evaluate
from kingisdead.moves import PASS
from kingisdead.record import GameRecord


def midgame(players: int, seed: int, plays: int) -> GameState:
    """A position after ``plays`` random moves (the reference sampler, so the same in every run)."""
    state = GameState.new(players, seed=seed)
    rng = Random(seed)
    for _ in range(plays):
        playout.play_random(state, rng)
    return state


def per_second(action: Callable[[], object], seconds: float) -> float:
    count, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        action()
        count += 1
    return count / (time.perf_counter() - start)


def row(label: str, ours: float, theirs: float, unit: str) -> None:
    print(f"{label:<34}{ours:>14,.0f}{theirs:>12,.0f}{ours / theirs:>8.0f}x  {unit}")


def endgames(cards_each: int, count: int) -> list[GameState]:
    """2-player positions from random games, played on until each hand holds ``cards_each`` cards."""
    found = []
    seed = 0
    while len(found) < count:
        s = GameState.new(2, seed=seed)
        rng = Random(seed)
        seed += 1
        while not s.is_over() and max(s.cards_left(0), s.cards_left(1)) > cards_each:
            rules.play(s, PASS) if rng.random() < 0.5 else playout.play_random(s, rng)
        if not s.is_over() and s.cards_left(0) == s.cards_left(1) == cards_each:
            found.append(s)
    return found


def solve_times(positions: list[GameState], engine: str, node_limit: int) -> tuple[list[float], int]:
    times, proved = [], 0
    for s in positions:
        start = time.perf_counter()
        solution = solve(s, node_limit, seconds=10.0, engine=engine)
        times.append(time.perf_counter() - start)
        proved += solution is not None
    return times, proved


def recorded_game() -> GameRecord:
    """A 4-player game between search bots (iteration budgets: the same game on every run)."""
    record = GameRecord(players=["mcts:200"] * 4, seed=5)
    game = record.start()
    bots = [make_bot(name, seed=5 + seat) for seat, name in enumerate(record.players)]
    while not game.is_over():
        move = bots[game.current_player].choose(game)
        game.apply(move)
        record.add(move)
    return record


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="search time per position")
    args = parser.parse_args()
    core.require()
    print(f"machine: {platform.machine()} {platform.processor() or ''} cpus={os.cpu_count()} "
          f"python={platform.python_version()} load={os.getloadavg()[0]:.2f}")
    print(f"{'':<34}{'core':>14}{'reference':>12}{'ratio':>9}")
    state = GameState.new(2, seed=1)
    row("evaluate (2p start)", per_second(lambda: core.evaluate(state), 0.5),
        per_second(lambda: evaluate(state), 0.5), "calls/s (core through Python)")
    rng = Random(0)
    row("candidate lists (3 per card)", per_second(lambda: core.ranked_candidates(state, rng, 3), 0.5),
        per_second(lambda: ranked_candidates(state, rng, 3), 0.5), "lists/s")
    for players, plays, label in ((2, 0, "start"), (2, 12, "midgame"), (3, 0, "start"), (4, 0, "start")):
        position = midgame(players, players * 7, plays)
        ours = search(position, Budget(seconds=args.seconds), Random(1), engine="core")
        theirs = search(position, Budget(seconds=args.seconds), Random(1), engine="reference")
        row(f"mcts {players}p {label}", ours.iterations / ours.seconds, theirs.iterations / theirs.seconds,
            "iterations/s, one thread")
    start_position = midgame(2, 14, 0)
    single = search(start_position, Budget(seconds=args.seconds), Random(1), engine="core")
    double = search(start_position, Budget(seconds=args.seconds), Random(1), engine="core", threads=2)
    row("mcts 2p start, 2 threads", double.iterations / double.seconds, single.iterations / single.seconds,
        "iterations/s (ratio: to one core thread)")

    record = recorded_game()
    begin = time.perf_counter()
    analyse_record(record, Budget(iterations=300))
    ours_s = time.perf_counter() - begin
    with core.use_engine("reference"):
        begin = time.perf_counter()
        analyse_record(GameRecord(record.players, record.variant, record.seed, 0, record.moves[:10]),
                       Budget(iterations=300))
        theirs_s = (time.perf_counter() - begin) * len(record.moves) / 10
    print(f"{'analyse a ' + str(len(record.moves)) + '-move game':<34}{ours_s:>13.2f}s{theirs_s:>11.1f}s"
          f"{theirs_s / ours_s:>8.0f}x  300 iterations a position (reference: first 10 moves, scaled)")

    for cards, engine, limit in ((1, "reference", 200_000), (1, "core", 2_000_000), (2, "core", 2_000_000),
                                 (3, "core", 20_000_000)):
        positions = endgames(cards, 10 if engine == "core" else 4)
        times, proved = solve_times(positions, engine, limit)
        print(f"solver {engine}, {cards}+{cards} cards: {proved}/{len(positions)} proved, median "
              f"{statistics.median(times):.3f} s, max {max(times):.3f} s")


if __name__ == "__main__":
    main()
