"""Self-play speed: the core's self-play games beside the same games driven from Python.

Run: .venv/bin/python benchmarks/bench_selfplay.py [--games 6] [--budget 200]

One process, one core at a time. Prints, for each configuration, positions per
second of `kingisdead.learning.selfplay.play_game` (the whole game in the core:
search, features, steps and targets) and of a reference run in the same
process that plays the same kind of games from Python (the core's search per
move through `bots.mcts.search`, then the Python feature reading and
`encoding.move_to_actions`), with their ratio; then features per second, the
core's batched call beside the Python reading; and the whole command
(`generate`, shards written) on one process and on `--jobs` processes.
"""

from __future__ import annotations

import argparse
import os
import platform
import tempfile
import time
from random import Random

from kingisdead import GameState, core
from kingisdead.bots.budget import Budget
from kingisdead.bots.mcts import search
from kingisdead.interfaces.encoding import move_to_actions
from kingisdead.learning import selfplay
from kingisdead.learning.features import features, features_array


def core_games(settings: selfplay.SelfPlaySettings, games: int) -> tuple[int, float]:
    start = time.perf_counter()
    positions = sum(len(selfplay.play_game(settings, 1, g)["player"]) for g in range(games))
    return positions, time.perf_counter() - start


def python_games(players: int, variant: str, budget: int, games: int) -> tuple[int, float]:
    """Games of the core's search driven move by move from Python, recording what self-play records."""
    rng = Random(1)
    positions = 0
    start = time.perf_counter()
    for g in range(games):
        s = GameState.new(players=players, variant=variant, seed=g)
        while not s.is_over():
            mover = s.current_player
            features(s, mover)
            if sum(s.hands[mover * 7:mover * 7 + 7]) == 0:
                move = s.legal_moves()[0]
            else:
                result = search(s, Budget(iterations=budget), rng, engine="core")
                for stats in result.moves:
                    move_to_actions(stats.move)
                move = result.best
            s = s.after(move)
            positions += 1
    return positions, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6, help="games per configuration")
    parser.add_argument("--budget", type=int, default=200, help="search iterations a move")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    print(f"machine: {platform.machine()} cpus={os.cpu_count()}; budget {args.budget} iterations a move")
    print(f"{'':<28}{'core':>12}{'python':>12}{'ratio':>8}")
    for players in (2, 3, 4):
        for variant in ("standard", "mordred"):
            settings = selfplay.SelfPlaySettings(players=(players,), variants=(variant,), budget=args.budget)
            ours, ours_s = core_games(settings, args.games)
            theirs, theirs_s = python_games(players, variant, args.budget, max(2, args.games // 3))
            a, b = ours / ours_s, theirs / theirs_s
            print(f"{f'self-play {players}p {variant}':<28}{a:>12,.0f}{b:>12,.0f}{a / b:>7.1f}x  positions/s")

    rng = Random(2)
    states = []
    for seed in range(10):
        s = GameState.new(players=3, seed=seed)
        while not s.is_over():
            states.append(s)
            s = s.after(core.sample_move(s, rng))
    seats = [s.current_player for s in states]
    start = time.perf_counter()
    for _ in range(20):
        features_array(states, seats)
    ours = 20 * len(states) / (time.perf_counter() - start)
    start = time.perf_counter()
    for s, q in zip(states, seats):
        features(s, q)
    theirs = len(states) / (time.perf_counter() - start)
    print(f"{'features (3p), batched':<28}{ours:>12,.0f}{theirs:>12,.0f}{ours / theirs:>7.1f}x  positions/s "
          "(core: from Python state tuples)")

    settings = selfplay.SelfPlaySettings(players=(2, 3, 4), variants=("standard", "mordred"), budget=args.budget,
                                         shard_games=10)
    with tempfile.TemporaryDirectory() as out:
        one = selfplay.generate(out + "/one", games=60, seed=1, settings=settings)
        many = selfplay.generate(out + "/many", games=60, seed=1, settings=settings, jobs=args.jobs)
    print(f"{'generate, 1 process':<28}{one.positions / one.seconds:>12,.0f}{'':>12}{'':>8}  positions/s "
          "(all six configurations, shards written)")
    print(f"{f'generate, {args.jobs} processes':<28}{many.positions / many.seconds:>12,.0f}{'':>12}"
          f"{one.seconds / many.seconds:>7.1f}x  positions/s (ratio: to 1 process; process start included)")


if __name__ == "__main__":
    main()
