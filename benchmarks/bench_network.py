"""The learned network's cost: one evaluation in the core beside the NumPy reference, and the guided search's speed.

Run: .venv/bin/python benchmarks/bench_network.py [--weights FILE] [--seconds 1]

One process. For positions of 2, 3 and 4 players it prints: microseconds per
evaluation in the core (the features and the network, as the search does it
at a leaf) beside the NumPy reference evaluating one position at a time
(features from the core) and a batch of 1,024, with the ratio; then search
iterations per second of the plain search and of the guided search (one
thread), with the ratio; for a network with a step policy (weight file
version 2), also the guided search ranking a card's candidates by it
(``step_weight`` 1) and drawing them by it (``draw_weight`` 1), each as a
ratio to the guided search without it. Needs NumPy (the learn or rl extra).
"""

from __future__ import annotations

import argparse
import time
from random import Random

import numpy as np

from kingisdead import GameState, core
from kingisdead.bots.budget import Budget
from kingisdead.bots.master import Guidance, guided_search, load_network, shipped_network
from kingisdead.bots.mcts import search
from kingisdead.learning.features import features_array
from kingisdead.learning.network import Network


def midgame(players: int, seed: int, plays: int) -> GameState:
    state = GameState.new(players, seed=seed)
    rng = Random(seed)
    for _ in range(plays):
        state.apply(core.sample_move(state, rng))
    return state


def per_call(fn, seconds: float) -> float:
    """Seconds per call of ``fn`` over about ``seconds``."""
    calls, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        fn()
        calls += 1
    return (time.perf_counter() - start) / calls


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--weights", default=str(shipped_network()))
    parser.add_argument("--seconds", type=float, default=1.0)
    args = parser.parse_args()
    rust = load_network(args.weights)
    numpy_net = Network.load(args.weights)
    steps = numpy_net.steps is not None
    print(f"network {args.weights}: {numpy_net.inputs} -> {numpy_net.widths} -> 4 values, 21 policy logits"
          + (", a step policy" if steps else ""))
    print(f"{'players':>7} {'core µs':>8} {'NumPy µs (1)':>13} {'ratio':>6} {'NumPy µs (batch)':>17}"
          f" {'plain it/s':>11} {'guided it/s':>12} {'ratio':>6}" + (f" {'ranked':>7} {'drawn':>6}" if steps else ""))
    for players in (2, 3, 4):
        state = midgame(players, seed=players, plays=4 * players)
        core_s = rust.time_evaluation(state, 200_000)
        row = features_array([state], [state.player])
        one_s = per_call(lambda: numpy_net.evaluate(row), args.seconds)
        batch = np.repeat(row, 1024, axis=0)
        batch_s = per_call(lambda: numpy_net.evaluate(batch), args.seconds) / 1024
        budget = Budget(seconds=args.seconds)
        plain = search(state, budget, Random(1)).iterations / args.seconds
        guided = guided_search(state, budget, Random(1), network=rust).iterations / args.seconds
        line = (f"{players:>7} {core_s * 1e6:>8.2f} {one_s * 1e6:>13.2f} {one_s / core_s:>6.1f} {batch_s * 1e6:>17.3f}"
                f" {plain:>11,.0f} {guided:>12,.0f} {guided / plain:>6.2f}")
        if steps:
            for guidance in (Guidance(step_weight=1.0), Guidance(draw_weight=1.0)):
                it = guided_search(state, budget, Random(1), network=rust, guidance=guidance).iterations
                line += f" {it / args.seconds / guided:>6.2f}"
        print(line)


if __name__ == "__main__":
    main()
