"""Steps per second of the batched environment (interfaces/vector.py) beside the PettingZoo environment.

Both play uniformly random choices among the masked integers, for the same
wall-clock budget each, in the same run, taking turns of 0.2 s so that all
see the same load on a shared machine: the PettingZoo environment as a user
gets it (``aec_env``, one step per call), the vector environment with N games
per call (actions drawn from the masks in NumPy: the argmax of uniform noise
times the mask). A step is one building step in one game; the vector
environment's autoreset steps count, as the PettingZoo environment's final
dead steps do. The ratio is to the PettingZoo environment of the same
configuration, measured in this run. The advanced game's configurations
(second edition, secret Cunning cards: 37 integers, observations of 770
numbers) run beside the standard ones.

    python benchmarks/bench_vector_env.py             # about 2 s per row
    python benchmarks/bench_vector_env.py --seconds 5 --envs 1 64 256 1024
    python benchmarks/bench_vector_env.py --configs 2s 2a 4s 4a
    python benchmarks/bench_vector_env.py --compare-advanced --envs 256

``--compare-advanced`` measures, for each player count, the vector environment
in the standard and in the advanced game at the largest N, in turns of the
same run, and prints the advanced game's steps per second as a share of the
standard game's.

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

CONFIGS = [(2, "standard"), (3, "standard"), (4, "standard"), (2, "mordred"),
           (2, "advanced"), (3, "advanced"), (4, "advanced")]
"""(players, game): the standard game, Mordred (both first edition) or the second edition's advanced game."""


def env_arguments(game: str) -> dict:
    """The environments' variant, edition and mode of a configuration's game."""
    if game == "advanced":
        return {"edition": "second", "mode": "advanced"}
    return {"variant": game}


class PettingZooRunner:
    """Random masked play through the wrapped AEC environment, one step per call."""

    def __init__(self, players: int, game: str, seed: int = 0) -> None:
        self.env = aec_env(players=players, **env_arguments(game))
        self.env.reset(seed=seed)
        self.rng = np.random.default_rng(seed)
        self.games = 0

    def run(self, seconds: float) -> int:
        """Steps taken in about ``seconds``."""
        env, steps = self.env, 0
        deadline = time.perf_counter() + seconds
        while time.perf_counter() < deadline:
            for _ in range(64):
                obs, _, terminated, truncated, _ = env.last()
                if terminated or truncated:
                    env.step(None)
                    if not env.agents:
                        env.reset()
                        self.games += 1
                else:
                    env.step(int(self.rng.choice(np.flatnonzero(obs["action_mask"]))))
                steps += 1
        return steps


class VectorRunner:
    """Random masked play through the vector environment, ``num_envs`` steps per call."""

    def __init__(self, players: int, game: str, num_envs: int, copy: bool, seed: int = 0) -> None:
        self.env = vector_env(num_envs, players, copy=copy, **env_arguments(game))
        self.info = self.env.reset(seed=seed)[1]
        self.rng = np.random.default_rng(seed)
        self.games = 0

    def run(self, seconds: float) -> int:
        """Steps taken (summed over the games) in about ``seconds``."""
        calls = 0
        deadline = time.perf_counter() + seconds
        while time.perf_counter() < deadline:
            for _ in range(16):
                masks = self.info["action_mask"]
                actions = (self.rng.random(masks.shape, dtype=np.float32) * masks).argmax(axis=1)
                _, _, terminations, _, self.info = self.env.step(actions)
                self.games += int(terminations.sum())
            calls += 16
        return calls * self.env.num_envs


def measure(runners: list, seconds: float, slice_seconds: float = 0.2) -> list[float]:
    """Steps per second of each runner, run in turns of ``slice_seconds`` for ``seconds`` each,
    so that all of them see the same load on a shared machine."""
    steps = [0] * len(runners)
    spent = [0.0] * len(runners)
    while min(spent) < seconds:
        for i, runner in enumerate(runners):
            start = time.perf_counter()
            steps[i] += runner.run(slice_seconds)
            spent[i] += time.perf_counter() - start
    return [n / t for n, t in zip(steps, spent)]


def compare_advanced(num_envs: int, seconds: float) -> None:
    """The advanced game's vector steps per second beside the standard game's, for 2, 3 and 4 players."""
    print("| players | standard steps/s | advanced steps/s | advanced / standard |")
    print("| --- | ---: | ---: | ---: |")
    for players in (2, 3, 4):
        runners = [VectorRunner(players, game, num_envs, True) for game in ("standard", "advanced")]
        standard, advanced = measure(runners, seconds)
        print(f"| {players} | {standard:,.0f} | {advanced:,.0f} | {advanced / standard:.2f} |", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="wall-clock budget per row")
    parser.add_argument("--envs", type=int, nargs="+", default=[1, 64, 256], help="numbers of games per call")
    parser.add_argument("--configs", choices=[f"{p}{v[0]}" for p, v in CONFIGS], nargs="+",
                        help="configurations (2s = 2 players standard, 2m = 2 players Mordred, 2a = 2 players "
                             "advanced, ...); default all")
    parser.add_argument("--compare-advanced", action="store_true",
                        help="only the advanced game beside the standard one, vector N = the largest --envs")
    args = parser.parse_args()
    if args.compare_advanced:
        print(f"# {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
              f"Python {platform.python_version()}; vector N = {max(args.envs)}, {args.seconds:g} s per row")
        compare_advanced(max(args.envs), args.seconds)
        return
    configs = [(p, v) for p, v in CONFIGS if args.configs is None or f"{p}{v[0]}" in args.configs]
    print(f"# {platform.processor() or platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}")
    print(f"# random masked play, {args.seconds:g} s per row in turns of 0.2 s, one thread")
    print("| configuration | environment | steps/s | ratio to PettingZoo | games finished |")
    print("| --- | --- | ---: | ---: | ---: |")
    for players, game in configs:
        label = f"{players} players" + {"standard": "", "mordred": ", Mordred", "advanced": ", advanced"}[game]
        rows = [(n, True) for n in args.envs] + [(max(args.envs), False)]
        names = ["PettingZoo `aec_env`"] + [f"vector N = {n}" + ("" if copy else ", copy=False") for n, copy in rows]
        runners = [PettingZooRunner(players, game)] + [VectorRunner(players, game, n, copy) for n, copy in rows]
        rates = measure(runners, args.seconds)
        for name, runner, rate in zip(names, runners, rates):
            print(f"| {label} | {name} | {rate:,.0f} | {rate / rates[0]:,.0f}x | {runner.games} |", flush=True)


if __name__ == "__main__":
    main()
