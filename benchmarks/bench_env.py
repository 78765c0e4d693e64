"""Steps per second of the PettingZoo AEC environment under random play, next to PettingZoo's classic games.

Every environment is the wrapped one a user gets (``env()``), played by
uniform random choices among the masked legal actions, with resets between
games, for the same wall-clock budget each, in the same run.

    python benchmarks/bench_env.py            # about 3 s per environment
    python benchmarks/bench_env.py --seconds 10

Needs ``pip install -e .[rl-bench]`` (PettingZoo's classic games need chess,
pygame-ce and rlcard). Results are recorded in docs/performance.md.
"""

from __future__ import annotations

import argparse
import importlib
import os
import platform
import time
from collections.abc import Callable

import numpy as np

from kingisdead.env import aec_env

CLASSIC = ["tictactoe_v3", "connect_four_v3", "leduc_holdem_v4", "texas_holdem_v4", "chess_v6", "go_v5"]


def steps_per_second(make: Callable[[], object], seconds: float, seed: int = 0) -> tuple[float, int]:
    """Random masked play for ``seconds``; returns (steps per second, games finished)."""
    env = make()
    rng = np.random.default_rng(seed)
    steps = games = 0
    env.reset(seed=seed)
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        for agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
            else:
                env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
        games += 1
        env.reset()
    return steps / (time.perf_counter() - start), games


def classic(name: str) -> Callable[[], object]:
    module = importlib.import_module(f"pettingzoo.classic.{name}")
    return module.env


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="wall-clock budget per environment")
    args = parser.parse_args()
    envs: list[tuple[str, Callable[[], object]]] = [
        (f"kingisdead {p}p {v}", lambda p=p, v=v: aec_env(players=p, variant=v))
        for p, v in [(2, "standard"), (3, "standard"), (4, "standard"), (2, "mordred")]
    ]
    envs += [(f"pettingzoo {name}", classic(name)) for name in CLASSIC]
    print(f"# {platform.processor() or platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}")
    print(f"# random masked play, {args.seconds:g} s per environment (steps include the final dead steps)")
    print("| environment | steps/s | games |")
    print("| --- | ---: | ---: |")
    for label, make in envs:
        rate, games = steps_per_second(make, args.seconds)
        print(f"| {label} | {rate:,.0f} | {games} |", flush=True)


if __name__ == "__main__":
    main()
