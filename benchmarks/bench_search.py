"""Search speed: MCTS iterations per second, candidate building, solver nodes per second.

Run: .venv/bin/python benchmarks/bench_search.py [--seconds 2]

Prints one line per figure. Results are recorded in docs/performance.md with
the machine they were measured on; they vary with the machine and its load.
"""

from __future__ import annotations

import argparse
import os
import platform
import time
from random import Random

from kingisdead import GameState, rules
from kingisdead.bots.budget import Budget
from kingisdead.bots.candidates import ranked_candidates
from kingisdead.bots.mcts import search
from kingisdead.bots.solver import solve
from kingisdead.evaluation import evaluate
from kingisdead.moves import PASS


def midgame(players: int, seed: int, plays: int) -> GameState:
    """A position after ``plays`` random moves."""
    state = GameState.new(players, seed=seed)
    rng = Random(seed)
    for _ in range(plays):
        rules.play_random(state, rng)
    return state


def per_second(action, seconds: float) -> float:
    count, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        action()
        count += 1
    return count / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="search time per position")
    args = parser.parse_args()
    print(f"machine: {platform.machine()} {platform.processor() or ''} cpus={os.cpu_count()} "
          f"python={platform.python_version()} load={os.getloadavg()[0]:.2f}")
    state = GameState.new(2, seed=1)
    print(f"evaluate: {per_second(lambda: evaluate(state), 0.5):,.0f} calls/s")
    rng = Random(0)
    print(f"node candidates (3 actions per card, 2p start): "
          f"{per_second(lambda: ranked_candidates(state, rng, 3), 0.5):,.0f} lists/s")
    for players, plays, label in ((2, 0, "start"), (2, 12, "midgame"), (3, 0, "start"), (4, 0, "start")):
        position = midgame(players, players * 7, plays)
        result = search(position, Budget(seconds=args.seconds), Random(1))
        print(f"mcts {players}p {label}: {result.iterations / result.seconds:,.0f} iterations/s "
              f"({result.iterations} in {result.seconds:.2f} s, {len(result.moves)} root moves)")
    nodes = seconds = 0.0
    for seed in range(40):
        position = midgame(2, seed, 0)
        rng = Random(seed)
        while not position.is_over() and sum(position.hands) > 2:
            rules.play(position, PASS) if rng.random() < 0.6 else rules.play_random(position, rng)
        if position.is_over():
            continue
        start = time.perf_counter()
        solution = solve(position, node_limit=5000)
        seconds += time.perf_counter() - start
        nodes += solution.nodes if solution is not None else 5000
    print(f"solver (2p, 2 cards left): {nodes / seconds:,.0f} nodes/s")


if __name__ == "__main__":
    main()
