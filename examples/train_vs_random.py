"""Train a small agent against the random bot and plot its win rate.

The learner sits in a random seat of a 2-player game (Gymnasium environment
``kingisdead.env.gym_env``); the other seat is the engine's random bot. The
agent learns a value of *afterstates* (the position right after its own move),
as TD-Gammon did: at each turn it draws a few candidate moves with the
engine's fast sampler (plus passing, when allowed), scores the position each
would leave with a small PyTorch MLP, plays the best (a random candidate with
probability ``--explore``) by feeding its steps to the environment, and after
every batch of games regresses the value of each afterstate it chose towards
the game's result (+1 won, -1 lost: the environment's only reward). Monte
Carlo control, no reward shaping.

The MLP reads 14 plain counts (:func:`features`: courts, regions held or led
per faction, cards in hand), not the environment's 456-number observation:
from those raw numbers nothing was learned within minutes (examples/README.md).
The value head starts at zero, so the untrained agent picks a random
candidate: the before/after comparison measures what training added.

    pip install -e .[rl-examples]
    python examples/train_vs_random.py                  # about 4 minutes on one CPU core
    python examples/train_vs_random.py --minutes 0.2 --eval-games 50    # a quick look

It prints the win rate of each batch and, at the end, of the untrained and the
trained agent in the same evaluation games (with 95% Wilson intervals), and
saves the curve as a PNG.
"""

from __future__ import annotations

import argparse
import math
import time
from pathlib import Path
from random import Random

import numpy as np
import torch
from torch import nn

from kingisdead import rules
from kingisdead.board import SAXONS
from kingisdead.env import gym_env
from kingisdead.evaluation import projected_control
from kingisdead.interfaces.encoding import PASS_ACTION, move_to_actions
from kingisdead.moves import PASS, Move
from kingisdead.state import GameState


FEATURES = 14
"""Inputs of the value network (see :func:`features`)."""


def features(state: GameState, seat: int) -> list[float]:
    """Plain counts of what decides the game (2 players).

    Per faction: the learner's and its rival's followers at court and the regions
    the faction holds or now leads (evaluation.projected_control); then the regions
    held or led by the Saxons, both players' cards in hand, the struggles resolved
    and the Saxon tokens placed. No weights: how they combine into a win is what
    the agent learns.
    """
    control = projected_control(state)
    rival = 1 - seat
    out = []
    for faction in range(3):
        out += [state.courts[seat * 3 + faction], state.courts[rival * 3 + faction], control.count(faction)]
    out += [control.count(SAXONS), sum(state.hands[seat * 7:seat * 7 + 7]), sum(state.hands[rival * 7:rival * 7 + 7]),
            state.resolved, state.saxons]
    return out


class AfterstateValue(nn.Module):
    """How likely the learner is to win from a position, in [-1, 1]."""

    def __init__(self, hidden: int = 64) -> None:
        super().__init__()
        self.scale = 8.0  # counts to about [0, 1]
        self.net = nn.Sequential(nn.Linear(FEATURES, hidden), nn.Tanh(), nn.Linear(hidden, 1))
        nn.init.zeros_(self.net[2].weight)  # untrained: every afterstate scores 0, choices are random
        nn.init.zeros_(self.net[2].bias)

    def forward(self, obs: torch.Tensor) -> torch.Tensor:
        return torch.tanh(self.net(obs / self.scale)).squeeze(-1)


class Agent:
    """Chooses whole moves by the value of the positions they leave; plays them through the environment."""

    def __init__(self, model: AfterstateValue, seed: int, candidates: int, explore: float) -> None:
        self.rng = Random(seed)
        self.candidates, self.explore = candidates, explore
        # The forward pass in numpy: one small batch at a time, torch's overhead would dominate.
        w1, b1, w2, b2 = (p.detach().numpy().astype(np.float64) for p in model.net.parameters())
        self.w1, self.b1, self.w2, self.b2 = w1, b1, w2, b2
        self.scale = model.scale

    def choose(self, env) -> tuple[Move, list[float]]:
        """A move for the learner (whose turn it is) and the features of the position it leaves."""
        state, seat = env.game.state, env.seat
        moves: dict[str, Move] = {}
        if env.action_masks()[PASS_ACTION]:
            moves["pass"] = PASS
        for _ in range(self.candidates):
            move = rules.sample_move(state, self.rng)
            moves.setdefault(str(move), move)
        options = list(moves.values())
        afters = []
        for move in options:
            after = state.copy()
            rules.play(after, move)
            afters.append(features(after, seat))
        if self.rng.random() < self.explore:
            pick = self.rng.randrange(len(options))
        else:
            h = np.tanh((np.asarray(afters) / self.scale) @ self.w1.T + self.b1)
            scores = (h @ self.w2.T + self.b2)[:, 0]
            best = np.flatnonzero(scores >= scores.max() - 1e-12)
            pick = int(best[self.rng.randrange(len(best))])
        return options[pick], afters[pick]


def play(env, agent: Agent, seed: int) -> tuple[list[list[float]], float]:
    """One game: the afterstates the learner chose and the game's result for it."""
    env.reset(seed=seed)
    chosen: list[list[float]] = []
    done, reward = False, 0.0
    while not done:
        move, after = agent.choose(env)
        chosen.append(after)
        for action in move_to_actions(move):
            _, reward, done, _, _ = env.step(action)
    return chosen, reward


def train(model: AfterstateValue, optimiser, games: list[tuple[list[list[float]], float]], epochs: int = 2,
          minibatch: int = 256) -> None:
    """Regress the value of every chosen afterstate towards its game's result."""
    obs = torch.tensor(np.array([o for chosen, _ in games for o in chosen]), dtype=torch.float32)
    targets = torch.tensor([r for chosen, r in games for _ in chosen], dtype=torch.float32)
    for _ in range(epochs):
        for idx in torch.randperm(len(obs)).split(minibatch):
            loss = ((model(obs[idx]) - targets[idx]) ** 2).mean()
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate."""
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return centre - half, centre + half


def evaluate_agent(model: AfterstateValue, games: int, seed: int, candidates: int) -> int:
    """Games won (no exploration) against the random bot, on the same seeds every time."""
    env = gym_env(players=2, opponent="random", seat="random")
    agent = Agent(model, seed, candidates, explore=0.0)
    return sum(play(env, agent, seed + g)[1] > 0 for g in range(games))


def describe(wins: int, games: int) -> str:
    low, high = wilson(wins, games)
    return f"{wins / games:.1%} of {games} games (95% interval {low:.1%}-{high:.1%})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=3.5, help="training time budget")
    parser.add_argument("--batch", type=int, default=32, help="games per update")
    parser.add_argument("--eval-games", type=int, default=500)
    parser.add_argument("--candidates", type=int, default=8, help="moves drawn per turn")
    parser.add_argument("--explore", type=float, default=0.1, help="share of random choices in training")
    parser.add_argument("--lr", type=float, default=1e-3, help="Adam learning rate")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--plot", type=Path, default=Path(__file__).with_name("train_vs_random.png"))
    args = parser.parse_args()

    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    model = AfterstateValue()
    optimiser = torch.optim.Adam(model.parameters(), lr=args.lr)
    eval_seed = 10**6
    before = evaluate_agent(model, args.eval_games, eval_seed, args.candidates)
    print(f"untrained agent: wins {describe(before, args.eval_games)} against the random bot", flush=True)

    env = gym_env(players=2, opponent="random", seat="random")
    rng = np.random.default_rng(args.seed)
    curve: list[tuple[int, float]] = []
    games = 0
    deadline = time.monotonic() + args.minutes * 60
    while time.monotonic() < deadline:
        agent = Agent(model, int(rng.integers(2**31)), args.candidates, args.explore)
        batch = [play(env, agent, int(rng.integers(2**31))) for _ in range(args.batch)]
        games += len(batch)
        train(model, optimiser, batch)
        rate = sum(result > 0 for _, result in batch) / len(batch)
        curve.append((games, rate))
        print(f"games {games:6d}  batch win rate {rate:.0%}", flush=True)

    after = evaluate_agent(model, args.eval_games, eval_seed, args.candidates)
    print(f"trained agent after {games} games: wins {describe(after, args.eval_games)} against the random bot")
    print(f"untrained agent on the same games: {describe(before, args.eval_games)}")
    plot(curve, before / args.eval_games, after / args.eval_games, args.plot)
    print(f"plot saved to {args.plot}")


def plot(curve: list[tuple[int, float]], before: float, after: float, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    games, rates = zip(*curve)
    window = max(1, len(rates) // 20)
    smooth = np.convolve(rates, np.ones(window) / window, mode="valid")
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.plot(games, rates, alpha=0.3, label="win rate per training batch (10% random choices)")
    ax.plot(games[window - 1:], smooth, label=f"moving average ({window} batches)")
    ax.axhline(before, color="grey", linestyle="--", label=f"untrained, evaluation: {before:.0%}")
    ax.axhline(after, color="green", linestyle="--", label=f"trained, evaluation: {after:.0%}")
    ax.set_xlabel("training games")
    ax.set_ylabel("games won against the random bot")
    ax.set_title("The King Is Dead, 2 players: afterstate-value agent vs random bot")
    ax.set_ylim(0, 1)
    ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(path, dpi=100)


if __name__ == "__main__":
    main()
