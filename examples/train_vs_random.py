"""Train a small policy-gradient agent against the random bot and plot its win rate.

The learner sits in a random seat of a 2-player game (Gymnasium environment
``kingisdead.env.gym_env``); the other seat is the engine's random bot. The
agent is a small PyTorch actor-critic trained by PPO: an MLP reads the
456-number observation and scores each of the 21 action integers; integers
outside the mask get probability 0. After every batch of games it makes a few
clipped policy-gradient passes over the batch, with advantages from the critic
(GAE). The only reward is the game's result, at the end.

    pip install -e .[rl-examples]
    python examples/train_vs_random.py                  # about 4 minutes on one CPU core
    python examples/train_vs_random.py --minutes 0.2    # a quick look

It prints the win rate of each batch and, at the end, of the untrained and the
trained agent in evaluation games, and saves the curve as a PNG.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
import torch
from torch import nn

from kingisdead.env import gym_env
from kingisdead.interfaces.encoding import NUM_ACTIONS, OBSERVATION_HIGH, OBSERVATION_SIZE


class ActorCritic(nn.Module):
    def __init__(self, hidden: int = 128) -> None:
        super().__init__()
        # Counts to about [0, 1]: the bounds of follower counts (63) are far above the usual numbers.
        self.scale = torch.tensor(OBSERVATION_HIGH, dtype=torch.float32).clamp(max=8.0)
        self.body = nn.Sequential(nn.Linear(OBSERVATION_SIZE, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh())
        self.policy = nn.Linear(hidden, NUM_ACTIONS)
        self.value = nn.Linear(hidden, 1)

    def forward(self, obs: torch.Tensor, mask: torch.Tensor) -> tuple[torch.distributions.Categorical, torch.Tensor]:
        h = self.body(obs / self.scale)
        logits = self.policy(h).masked_fill(~mask, -1e9)
        return torch.distributions.Categorical(logits=logits), self.value(h).squeeze(-1)


class FastPolicy:
    """The model's forward pass in numpy, for playing: one position at a time, torch's overhead dominates."""

    def __init__(self, model: ActorCritic, rng: np.random.Generator) -> None:
        self.rng = rng
        state = {k: v.detach().numpy().astype(np.float64) for k, v in model.state_dict().items()}
        self.scale = model.scale.numpy().astype(np.float64)
        self.layers = [(state[f"body.{i}.weight"], state[f"body.{i}.bias"]) for i in (0, 2)]
        self.policy = (state["policy.weight"], state["policy.bias"])
        self.value = (state["value.weight"], state["value.bias"])

    def __call__(self, obs: np.ndarray, mask: np.ndarray) -> tuple[int, float, float]:
        """A sampled action, its log-probability and the critic's value."""
        h = obs / self.scale
        for w, b in self.layers:
            h = np.tanh(w @ h + b)
        logits = np.where(mask, self.policy[0] @ h + self.policy[1], -np.inf)
        logits -= logits.max()
        probs = np.exp(logits)
        probs /= probs.sum()
        action = int(self.rng.choice(len(probs), p=probs))
        return action, float(np.log(probs[action])), float((self.value[0] @ h + self.value[1])[0])


def play(env, policy: FastPolicy, seed: int) -> dict[str, list]:
    """One game; the learner's observations, masks, actions, their log-probabilities, values and rewards."""
    obs, info = env.reset(seed=seed)
    record: dict[str, list] = {key: [] for key in ("obs", "mask", "action", "logp", "value", "reward")}
    done = False
    while not done:
        mask = info["action_mask"].astype(bool)
        action, logp, value = policy(obs, mask)
        record["obs"].append(obs)
        record["mask"].append(mask)
        obs, reward, done, _, info = env.step(action)
        for key, item in zip(("action", "logp", "value", "reward"), (action, logp, value, reward)):
            record[key].append(item)
    return record


def advantages(record: dict[str, list], lam: float = 0.95) -> tuple[torch.Tensor, torch.Tensor]:
    """GAE advantages and return targets of one game (no discounting: the game is short)."""
    values = torch.tensor(record["value"], dtype=torch.float32)
    rewards = torch.tensor(record["reward"], dtype=torch.float32)
    next_values = torch.cat([values[1:], torch.zeros(1)])
    deltas = rewards + next_values - values
    adv = torch.zeros_like(deltas)
    running = 0.0
    for t in reversed(range(len(deltas))):
        running = deltas[t] + lam * running
        adv[t] = running
    return adv, adv + values


def ppo_update(model: ActorCritic, optimiser, games: list[dict[str, list]], epochs: int = 4,
               minibatch: int = 256, clip: float = 0.2) -> None:
    obs = torch.as_tensor(np.array([o for g in games for o in g["obs"]]))
    masks = torch.as_tensor(np.array([m for g in games for m in g["mask"]]))
    actions = torch.tensor([a for g in games for a in g["action"]])
    old_logp = torch.tensor([lp for g in games for lp in g["logp"]], dtype=torch.float32)
    adv, targets = (torch.cat(parts) for parts in zip(*(advantages(g) for g in games)))
    adv = (adv - adv.mean()) / (adv.std() + 1e-8)
    for _ in range(epochs):
        for idx in torch.randperm(len(obs)).split(minibatch):
            dist, values = model(obs[idx], masks[idx])
            ratio = torch.exp(dist.log_prob(actions[idx]) - old_logp[idx])
            policy_loss = -torch.min(ratio * adv[idx], ratio.clamp(1 - clip, 1 + clip) * adv[idx]).mean()
            loss = policy_loss + 0.5 * ((targets[idx] - values) ** 2).mean() - 0.01 * dist.entropy().mean()
            optimiser.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), 0.5)
            optimiser.step()


def won(record: dict[str, list]) -> bool:
    return record["reward"][-1] > 0


def win_rate(model: ActorCritic, games: int, seed: int) -> float:
    """Share of games won (sampling from the policy) against the random bot, on the same games every time."""
    env = gym_env(players=2, opponent="random", seat="random")
    policy = FastPolicy(model, np.random.default_rng(seed))
    wins = sum(won(play(env, policy, seed + g)) for g in range(games))
    return wins / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=4.0, help="training time budget")
    parser.add_argument("--batch", type=int, default=32, help="games per update")
    parser.add_argument("--eval-games", type=int, default=300)
    parser.add_argument("--lr", type=float, default=1e-3, help="Adam learning rate")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--plot", type=Path, default=Path(__file__).with_name("train_vs_random.png"))
    args = parser.parse_args()

    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    model = ActorCritic()
    optimiser = torch.optim.Adam(model.parameters(), lr=args.lr)
    before = win_rate(model, args.eval_games, seed=10**6)
    print(f"untrained agent: wins {before:.1%} of {args.eval_games} games against the random bot", flush=True)

    env = gym_env(players=2, opponent="random", seat="random")
    rng = np.random.default_rng(args.seed)
    curve: list[tuple[int, float]] = []
    games = 0
    deadline = time.monotonic() + args.minutes * 60
    while time.monotonic() < deadline:
        policy = FastPolicy(model, rng)
        batch = [play(env, policy, int(rng.integers(2**31))) for _ in range(args.batch)]
        games += len(batch)
        ppo_update(model, optimiser, batch)
        rate = sum(map(won, batch)) / len(batch)
        curve.append((games, rate))
        print(f"games {games:6d}  batch win rate {rate:.0%}", flush=True)

    after = win_rate(model, args.eval_games, seed=10**6)
    print(f"trained agent after {games} games: wins {after:.1%} of {args.eval_games} games "
          f"against the random bot (untrained: {before:.1%})")
    plot(curve, before, after, args.plot)
    print(f"plot saved to {args.plot}")


def plot(curve: list[tuple[int, float]], before: float, after: float, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    games, rates = zip(*curve)
    window = max(1, len(rates) // 20)
    smooth = np.convolve(rates, np.ones(window) / window, mode="valid")
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.plot(games, rates, alpha=0.3, label="win rate per batch")
    ax.plot(games[window - 1:], smooth, label=f"moving average ({window} batches)")
    ax.axhline(before, color="grey", linestyle="--", label=f"untrained: {before:.0%}")
    ax.axhline(after, color="green", linestyle="--", label=f"trained: {after:.0%}")
    ax.set_xlabel("training games")
    ax.set_ylabel("games won against the random bot")
    ax.set_title("The King Is Dead, 2 players: actor-critic vs random bot")
    ax.set_ylim(0, 1)
    ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(path, dpi=100)


if __name__ == "__main__":
    main()
