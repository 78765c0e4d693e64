"""Engine speed, the compiled core beside the pure-Python reference in the same run.

Usage: python benchmarks/bench_engine.py [--seconds 3] [--json] [--edition first|second|both]

One process, one core. For each configuration:

- random full games per second, setup included: the core sets up and plays
  whole games inside Rust (``core.random_games``); the reference sets up with
  ``GameState.new`` and plays with ``playout.play_random``;
- legal-move listing in moves per second over positions taken from random
  games: the core counting inside Rust (``core.count_legal_moves``), the core
  handing Python a ``list[Move]`` (``core.legal_moves``), and the reference
  (``rules.legal_moves``).

Every figure is printed with its ratio to the reference measured in this run
(the machine is shared and noisy; ratios travel better than absolute figures).
With ``--edition second`` the games are the second edition's (no Mordred
variant); with ``--edition both`` each first-edition configuration is followed
by the second edition's, and the core's second-edition games per second are
also printed as a ratio to the first edition's in the same run.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import time
from collections.abc import Callable

from kingisdead import GameState, core, rules
from kingisdead import playout
from kingisdead.edition import EDITIONS, Edition

CONFIGS = [(2, "standard"), (3, "standard"), (4, "standard"), (2, "mordred"), (3, "mordred"), (4, "mordred")]


def configs(edition: str) -> list[tuple[int, str, Edition]]:
    """(players, variant, edition) to measure: the edition's configurations ("both": pairs side by side)."""
    names = ["first", "second"] if edition == "both" else [edition]
    return [(players, variant, EDITIONS[name]) for players, variant in CONFIGS for name in names
            if variant == "standard" or EDITIONS[name].mordred]


def reference_games(players: int, variant: str, seconds: float, edition: Edition) -> tuple[float, float]:
    """(games/s, moves/s) of the reference engine (its own setup too)."""
    rng = random.Random(1)
    games = moves = 0
    start = time.perf_counter()
    with core.use_engine("reference"):
        while (elapsed := time.perf_counter() - start) < seconds:
            state = GameState.new(players, variant, seed=games, edition=edition)
            while state._result is None:
                playout.play_random(state, rng)
                moves += 1
            games += 1
    return games / elapsed, moves / elapsed


def core_games(players: int, variant: str, seconds: float, edition: Edition) -> tuple[float, float]:
    """(games/s, moves/s) of the compiled core, in batches until ``seconds`` have passed."""
    games = moves = 0
    batch = 1000
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        played, made = core.random_games(players, variant, batch, seed=games, edition=edition)
        games += played
        moves += made
        batch = min(batch * 2, 100_000)
    return games / elapsed, moves / elapsed


def sample_positions(players: int, count: int, edition: Edition) -> list[GameState]:
    rng = random.Random(2)
    positions: list[GameState] = []
    seed = 0
    while len(positions) < count:
        state = GameState.new(players, seed=seed, edition=edition)
        seed += 1
        while state._result is None and len(positions) < count:
            positions.append(state.copy())
            playout.play_random(state, rng)
    return positions


def listing(positions: list[GameState], count: Callable[[GameState], int], seconds: float) -> float:
    """Moves listed per second, cycling through ``positions``."""
    calls = listed = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        listed += count(positions[calls % len(positions)])
        calls += 1
    return listed / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--edition", choices=[*EDITIONS, "both"], default="first", help="the edition to play")
    args = parser.parse_args()
    core.require()
    report: dict[str, object] = {
        "python": platform.python_version(),
        "machine": f"{platform.machine()} {platform.processor() or ''}".strip(),
        "load": round(os.getloadavg()[0], 2),
        "random_games": {},
        "legal_moves": {},
    }
    first_games: dict[tuple[int, str], float] = {}
    for players, variant, edition in configs(args.edition):
        ref_games, ref_moves = reference_games(players, variant, args.seconds, edition)
        games, moves = core_games(players, variant, args.seconds, edition)
        row = {
            "core_games_per_s": games, "reference_games_per_s": ref_games, "ratio": games / ref_games,
            "core_moves_per_s": moves, "reference_moves_per_s": ref_moves,
        }
        if edition.name == "first":
            first_games[players, variant] = games
        elif (players, variant) in first_games:
            row["ratio_to_first"] = games / first_games[players, variant]
        report["random_games"][f"{players}p-{variant}-{edition.name}"] = row  # type: ignore[index]
    for players in (2, 3, 4):
        edition = EDITIONS["second" if args.edition == "second" else "first"]
        positions = sample_positions(players, 200, edition)
        reference = listing(positions, lambda s: len(rules.legal_moves(s)), args.seconds)
        counted = listing(positions, core.count_legal_moves, args.seconds)
        as_python = listing(positions, lambda s: len(core.legal_moves(s)), args.seconds)
        report["legal_moves"][f"{players}p-{edition.name}"] = {  # type: ignore[index]
            "core_counted_per_s": counted, "core_listed_per_s": as_python, "reference_per_s": reference,
            "ratio_counted": counted / reference, "ratio_listed": as_python / reference,
        }
    if args.json:
        print(json.dumps(report, indent=2))
        return
    print(f"Python {report['python']} on {report['machine']}, one process, load {report['load']}")
    print(f"{'random games':<22}{'core games/s':>14}{'reference':>12}{'ratio':>8}{'core moves/s':>15}"
          f"{'core, to first':>16}")
    for name, row in report["random_games"].items():  # type: ignore[attr-defined]
        to_first = f"{row['ratio_to_first']:>15.2f}x" if "ratio_to_first" in row else ""
        print(f"{name:<22}{row['core_games_per_s']:>14,.0f}{row['reference_games_per_s']:>12,.0f}"
              f"{row['ratio']:>7.0f}x{row['core_moves_per_s']:>15,.0f}{to_first}")
    print(f"{'legal moves/s':<16}{'core, counted':>16}{'ratio':>8}{'core, as Moves':>17}{'ratio':>8}{'reference':>12}")
    for name, row in report["legal_moves"].items():  # type: ignore[attr-defined]
        print(f"{name:<16}{row['core_counted_per_s']:>16,.0f}{row['ratio_counted']:>7.0f}x"
              f"{row['core_listed_per_s']:>17,.0f}{row['ratio_listed']:>7.1f}x{row['reference_per_s']:>12,.0f}")


if __name__ == "__main__":
    main()
