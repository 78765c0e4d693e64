"""Random games through ``kingisdead simulate``, beside the core's raw playout rate in the same run.

Usage: python benchmarks/bench_simulate.py [--games 400000] [--json]

One process, one core. For each configuration:

- ``core``: the core alone setting up and playing games (``core.random_games``), the reference;
- ``simulate``: the command's own code path (``kingisdead simulate --json`` invoked in this
  process), which plays random games in the core in batches (``core.random_outcomes``) and
  counts them; its figure is the one the command prints, setup and counting included;
- ``loop``: the per-game Python loop that simulate ran before the batches (and still runs for
  other bots, records or the reference engine), on fewer games.

Every figure is printed with its ratio to the core's rate measured in this run (the machine is
shared and noisy; ratios travel better than absolute figures).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time
from random import Random

from typer.testing import CliRunner

from kingisdead import GameState, core
from kingisdead.cli import app, derive_seed, play_out
from kingisdead.edition import get_edition

CONFIGS = [(2, "standard", "first", "standard"), (3, "standard", "first", "standard"),
           (4, "standard", "first", "standard"), (2, "mordred", "first", "standard"),
           (2, "standard", "second", "standard"), (3, "standard", "second", "standard"),
           (4, "standard", "second", "standard"), (2, "standard", "second", "advanced")]
"""(players, variant, edition, mode): the last, the second edition's advanced game (its Cunning cards)."""


def core_rate(players: int, variant: str, edition: str, mode: str, games: int) -> float:
    start = time.perf_counter()
    core.random_games(players, variant, games, seed=0, edition=get_edition(edition, mode))
    return games / (time.perf_counter() - start)


def simulate_rate(players: int, variant: str, edition: str, mode: str, games: int) -> float:
    result = CliRunner().invoke(app, ["simulate", "--json", "--games", str(games), "--players", str(players),
                                      "--variant", variant, "--edition", edition, "--mode", mode])
    if result.exit_code != 0:
        raise SystemExit(result.output)
    return float(json.loads(result.stdout)["games_per_second"])


def loop_rate(players: int, variant: str, edition: str, mode: str, games: int) -> float:
    start = time.perf_counter()
    rules = get_edition(edition, mode)
    for index in range(games):
        play_out(GameState.new(players, variant, index, edition=rules), None, Random(derive_seed(0, index)))
    return games / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400_000, help="games per measurement (the loop plays 1/20)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    core.set_engine("core")
    report: dict[str, object] = {
        "python": platform.python_version(),
        "machine": f"{platform.machine()} {platform.processor() or ''}".strip(),
        "load": round(os.getloadavg()[0], 2),
        "games": args.games,
        "configs": {},
    }
    for players, variant, edition, mode in CONFIGS:
        raw = core_rate(players, variant, edition, mode, args.games)
        simulate = simulate_rate(players, variant, edition, mode, args.games)
        loop = loop_rate(players, variant, edition, mode, max(1, args.games // 20))
        name = f"{players}p-{variant}-{edition}" + ("-advanced" if mode == "advanced" else "")
        report["configs"][name] = {  # type: ignore[index]
            "core_games_per_s": raw, "simulate_games_per_s": simulate, "loop_games_per_s": loop,
            "simulate_ratio": simulate / raw, "loop_ratio": loop / raw,
        }
    if args.json:
        print(json.dumps(report, indent=2))
        return
    print(f"Python {report['python']} on {report['machine']}, one process, load {report['load']}, "
          f"{args.games:,} games a measurement")
    print(f"{'random games/s':<30}{'core':>10}{'simulate':>12}{'ratio':>8}{'per-game loop':>16}{'ratio':>8}")
    for name, row in report["configs"].items():  # type: ignore[attr-defined]
        print(f"{name:<30}{row['core_games_per_s']:>10,.0f}{row['simulate_games_per_s']:>12,.0f}"
              f"{row['simulate_ratio']:>8.2f}{row['loop_games_per_s']:>16,.0f}{row['loop_ratio']:>8.3f}")


if __name__ == "__main__":
    main()
