"""How much the guided search should trust its network: guidance weights against each other in the arena.

Each ``--bots`` entry is ``NAME=WEIGHTS,VALUE_WEIGHT,POLICY_WEIGHT[,STEP_WEIGHT[,DRAW_WEIGHT]]``
(a ``.kdn`` file and the weights of ``kingisdead.bots.master.Guidance``; the
step and draw weights matter only for a network with a step policy), then
optionally ``|FIELD=VALUE`` entries that change the search's
``SearchConfig`` (``|exploration=0.2|per_card=5``);
every bot is ``mcts-net`` on one thread with ``--budget`` a move. The games
run in this one process (the bots are registered here, so spawned workers
would not know them); run two at once for two cores. The result folder is
the arena's (results.json, summary.csv, games.csv), readable by table.py.

Run: .venv/bin/python benchmarks/strength/guidance.py \\
    --bots "v10=r3.kdn,1.0,0.5;base=r1.kdn,0.5,0.5" --budget 250ms --games 40 --seed 41 --out DIR
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import fields, replace
from pathlib import Path

from kingisdead import bots
from kingisdead.arena import format_table, run_arena, write_csv, write_json
from kingisdead.bots.budget import Budget
from kingisdead.bots.master import Guidance, MasterBot
from kingisdead.bots.mcts import SearchConfig


def guided(weights: str, guidance: Guidance, config: SearchConfig) -> Callable[..., MasterBot]:
    """A factory of ``mcts-net`` bots with these weights, guidance and search settings (the arena's ``BOTS`` shape)."""

    def make(seed: int = 0, budget: Budget | None = None) -> MasterBot:
        return MasterBot(seed, budget, weights, guidance, threads=1, config=config)

    return make


def search_config(changes: list[str]) -> SearchConfig:
    """The default ``SearchConfig`` with ``FIELD=VALUE`` changes (ValueError for an unknown field)."""
    config = SearchConfig()
    for change in changes:
        name, _, value = change.partition("=")
        if name not in {f.name for f in fields(SearchConfig)}:
            raise ValueError(f"SearchConfig has no field {name!r}")
        config = replace(config, **{name: type(getattr(config, name))(value)})
    return config


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bots", required=True,
                        help="NAME=WEIGHTS,VALUE_WEIGHT,POLICY_WEIGHT[,STEP_WEIGHT[,DRAW_WEIGHT]][|FIELD=VALUE...];...")
    parser.add_argument("--budget", default="250ms")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    names = []
    for spec in args.bots.split(";"):
        name, _, rest = spec.partition("=")
        guide, *changes = rest.split("|")
        weights, *numbers = guide.split(",")
        bots.BOTS[name] = guided(weights, Guidance(*map(float, numbers)), search_config(changes))
        names.append(f"{name}:{args.budget}")
    result = run_arena(args.players, names, args.games, args.seed, jobs=1)
    for row in format_table(result):
        print(" | ".join(row))
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
        write_json(result, args.out / "results.json")
        write_csv(result, args.out / "summary.csv", args.out / "games.csv")


if __name__ == "__main__":
    main()
