"""Engine speed: random full games per second and legal-move generation per second.

Usage: python benchmarks/bench_engine.py [--seconds 3] [--json]

Runs on one core (one process). Random games use the fast sampler
(rules.play_random), setup included; legal-move generation lists every legal
move of positions taken from random games.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import time

from kingisdead import GameState, rules

CONFIGS = [(2, "standard"), (3, "standard"), (4, "standard"), (2, "mordred"), (3, "mordred"), (4, "mordred")]


def random_games(players: int, variant: str, seconds: float) -> dict[str, float]:
    rng = random.Random(1)
    games = moves = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        state = GameState.new(players, variant, seed=games)
        while state._result is None:
            rules.play_random(state, rng)
            moves += 1
        games += 1
    return {"games_per_s": games / elapsed, "moves_per_game": moves / games, "moves_per_s": moves / elapsed}


def sample_positions(players: int, count: int) -> list[GameState]:
    rng = random.Random(2)
    positions: list[GameState] = []
    seed = 0
    while len(positions) < count:
        state = GameState.new(players, seed=seed)
        seed += 1
        while state._result is None and len(positions) < count:
            positions.append(state.copy())
            rules.play_random(state, rng)
    return positions


def move_generation(players: int, seconds: float) -> dict[str, float]:
    positions = sample_positions(players, 200)
    calls = listed = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        listed += len(rules.legal_moves(positions[calls % len(positions)]))
        calls += 1
    return {"positions_per_s": calls / elapsed, "moves_per_s": listed / elapsed}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    report: dict[str, object] = {
        "python": platform.python_version(),
        "machine": f"{platform.machine()} {platform.processor() or ''}".strip(),
        "random_games": {f"{p}p-{v}": random_games(p, v, args.seconds) for p, v in CONFIGS},
        "legal_moves": {f"{p}p": move_generation(p, args.seconds) for p in (2, 3, 4)},
    }
    if args.json:
        print(json.dumps(report, indent=2))
        return
    print(f"Python {report['python']} on {report['machine']}, one process")
    print(f"{'random games':<16}{'games/s':>10}{'moves/game':>12}{'moves/s':>12}")
    for name, row in report["random_games"].items():  # type: ignore[union-attr]
        print(f"{name:<16}{row['games_per_s']:>10.0f}{row['moves_per_game']:>12.1f}{row['moves_per_s']:>12.0f}")
    print(f"{'legal moves':<16}{'positions/s':>12}{'moves/s':>12}")
    for name, row in report["legal_moves"].items():  # type: ignore[union-attr]
        print(f"{name:<16}{row['positions_per_s']:>12.0f}{row['moves_per_s']:>12.0f}")


if __name__ == "__main__":
    main()
