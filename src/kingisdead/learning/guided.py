"""Self-play by the network-guided search, for the next round of training (``python -m kingisdead.learning.guided``).

The shards of :mod:`.selfplay` come from the plain search; once a network
exists, the next round's games are played by the search it guides
(:func:`kingisdead.bots.master.guided_search`, one thread), so the targets
improve with the network. Every game cycles through 2, 3 and 4 players and
both variants like :mod:`.selfplay`; the first ``--explore`` moves are drawn
by visit counts, the rest are the most visited. The shards hold the arrays
that training reads (docs/learning.md, "Guided self-play"): ``features``,
``players``, ``result`` (by seat relative to the mover), ``policy`` (visit
mass on each first building step), ``move_start`` / ``move_steps`` (the root
moves' first steps) and ``game``. The same seed and weights give the same
shards (iteration budgets).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from random import Random
from typing import Any

import numpy as np

from ..bots.budget import Budget
from ..bots.master import guided_search, load_network
from ..interfaces.encoding import MAX_SEATS, MAX_STEPS, NUM_ACTIONS, move_to_actions
from ..state import GameState
from .features import features_array

CONFIGURATIONS = ((2, "standard"), (3, "standard"), (3, "mordred"), (4, "standard"), (4, "mordred"),
                  (2, "mordred"))


def play_game(number: int, seed: int, iterations: int, explore: int, network: object) -> dict[str, np.ndarray]:
    """One guided self-play game's arrays (see the module's notes)."""
    players, variant = CONFIGURATIONS[number % len(CONFIGURATIONS)]
    rng = Random(seed * 1_000_003 + number)
    state = GameState.new(players=players, variant=variant, seed=rng.getrandbits(32))
    states, movers, policies, first_steps = [], [], [], []
    ply = 0
    while not state.is_over():
        result = guided_search(state, Budget(iterations=iterations), rng, network=network)
        visits = np.array([m.visits for m in result.moves], np.float64)
        steps = [move_to_actions(m.move)[0] for m in result.moves]
        policy = np.zeros(NUM_ACTIONS, np.float32)
        np.add.at(policy, steps, visits / visits.sum())
        states.append(state.copy())
        movers.append(state.player)
        policies.append(policy)
        first_steps.append(steps)
        if ply < explore:
            move = result.moves[rng.choices(range(len(visits)), weights=visits.tolist())[0]].move
        else:
            move = result.best
        state.apply(move)
        ply += 1
    final = state.result
    assert final is not None
    share = 1.0 / len(final.winners)
    absolute = [share if p in final.winners else 0.0 for p in range(players)]
    results = np.zeros((len(movers), MAX_SEATS), np.float32)
    for i, mover in enumerate(movers):
        results[i, :players] = np.roll(absolute, -mover)
    counts = np.array([len(s) for s in first_steps])
    move_steps = np.full((int(counts.sum()), MAX_STEPS), -1, np.int8)
    move_steps[:, 0] = np.concatenate(first_steps)
    return {"features": features_array(states, movers), "players": np.full(len(movers), players, np.int8),
            "result": results, "policy": np.array(policies), "counts": counts, "move_steps": move_steps}


def write_shard(path: Path, games: list[dict[str, np.ndarray]], first_game: int) -> int:
    """Concatenate games into one shard; returns its number of positions."""
    counts = np.concatenate([g["counts"] for g in games])
    arrays: dict[str, Any] = {k: np.concatenate([g[k] for g in games]) for k in ("features", "players", "result", "policy",
                                                                  "move_steps")}
    arrays["move_start"] = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
    arrays["game"] = np.concatenate([np.full(len(g["players"]), first_game + i, np.int32)
                                     for i, g in enumerate(games)])
    np.savez(path, **arrays)
    return len(counts)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m kingisdead.learning.guided", description=__doc__.split("\n")[0])
    parser.add_argument("--weights", required=True, help="the network that guides the search")
    parser.add_argument("--games", type=int, required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--budget", type=int, default=400, help="search iterations per move")
    parser.add_argument("--explore", type=int, default=8, help="moves drawn by visit counts at the start")
    parser.add_argument("--shard-games", type=int, default=50)
    args = parser.parse_args(argv)
    if args.games < 1 or args.budget < 1 or args.shard_games < 1 or args.explore < 0:
        print("error: games, budget and shard-games must be positive, explore 0 or more", file=sys.stderr)
        return 2
    try:
        network = load_network(args.weights)
    except (ValueError, OSError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for shard, first in enumerate(range(0, args.games, args.shard_games)):
        start = time.perf_counter()
        numbers = range(first, min(first + args.shard_games, args.games))
        games = [play_game(n, args.seed, args.budget, args.explore, network) for n in numbers]
        n = write_shard(out / f"shard-{shard:05d}.npz", games, first)
        print(f"shard {shard}: {len(games)} games, {n} positions, {time.perf_counter() - start:.1f} s", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
