"""Steps per second of the batched environment (interfaces/vector.py) beside the PettingZoo environment.

Both play uniformly random choices among the masked integers, for the same
wall-clock budget each, in the same run: the PettingZoo environment as a user
gets it (``aec_env``, one step per call), the vector environment with N games
per call (actions drawn from the masks in NumPy: the argmax of uniform noise
times the mask). A step is one building step in one game; the vector
environment's autoreset steps count, as the PettingZoo environment's final
dead steps do. The ratio is to the PettingZoo environment of the same
configuration, measured in this run.

    python benchmarks/bench_vector_env.py             # about 2 s per row
    python benchmarks/bench_vector_env.py --seconds 5 --envs 1 64 256 1024

Results are recorded in docs/performance.md.
"""

from __future__ import annotations

import argparse
import os
import platform
import time

import numpy as np

from kingisdead.env import aec_env
from kingisdead.interfaces.vector import vector_env

CONFIGS = [(2, "standard"), (3, "standard"), (4, "standard"), (2, "mordred")]


def pettingzoo_rate(players: int, variant: str, seconds: float, seed: int = 0) -> float:
    """Steps per second of random masked play through the wrapped AEC environment."""
    env = aec_env(players=players, variant=variant)
    rng = np.random.default_rng(seed)
    steps = 0
    env.reset(seed=seed)
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        for agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            env.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
        env.reset()
    return steps / (time.perf_counter() - start)


def vector_rate(players: int, variant: str, num_envs: int, seconds: float, copy: bool = True,
                seed: int = 0) -> tuple[float, int]:
    """(steps per second, games finished) of random masked play through the vector environment."""
    env = vector_env(num_envs, players, variant, copy=copy)
    rng = np.random.default_rng(seed)
    _, info = env.reset(seed=seed)
    calls = games = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        for _ in range(16):
            masks = info["action_mask"]
            actions = (rng.random(masks.shape, dtype=np.float32) * masks).argmax(axis=1)
            _, _, terminations, _, info = env.step(actions)
            games += int(terminations.sum())
        calls += 16
    return calls * num_envs / (time.perf_counter() - start), games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="wall-clock budget per row")
    parser.add_argument("--envs", type=int, nargs="+", default=[1, 64, 256], help="numbers of games per call")
    parser.add_argument("--configs", choices=[f"{p}{v[0]}" for p, v in CONFIGS], nargs="+",
                        help="configurations (2s = 2 players standard, 2m = 2 players Mordred, ...); default all")
    args = parser.parse_args()
    configs = [(p, v) for p, v in CONFIGS if args.configs is None or f"{p}{v[0]}" in args.configs]
    print(f"# {platform.processor() or platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}")
    print(f"# random masked play, {args.seconds:g} s per row, one thread")
    print("| configuration | environment | steps/s | ratio to PettingZoo | games finished |")
    print("| --- | --- | ---: | ---: | ---: |")
    for players, variant in configs:
        label = f"{players} players{', Mordred' if variant == 'mordred' else ''}"
        reference = pettingzoo_rate(players, variant, args.seconds)
        print(f"| {label} | PettingZoo `aec_env` | {reference:,.0f} | 1x | |", flush=True)
        rows = [(n, True) for n in args.envs] + [(max(args.envs), False)]
        for num_envs, copy in rows:
            rate, games = vector_rate(players, variant, num_envs, args.seconds, copy)
            name = f"vector N = {num_envs}" + ("" if copy else ", copy=False")
            print(f"| {label} | {name} | {rate:,.0f} | {rate / reference:,.0f}x | {games} |", flush=True)


if __name__ == "__main__":
    main()
