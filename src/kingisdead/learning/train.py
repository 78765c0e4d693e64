"""Train the network on self-play shards with JAX on the CPU (``python -m kingisdead.learning.train``).

A multilayer perceptron over the core's features (ReLU trunk) with a value
head (each seat's chance to win, seats relative to the viewer, masked to the
player count; logistic cross-entropy against the final result), a policy
head over the first move-building step (softmax over the legal steps,
cross-entropy against the search's visit distribution) and, with
``--step-weight`` above 0, a step policy over the later building steps (one
softmax layer per card and step number, cross-entropy against the shards'
step targets over the builder's offers), trained with AdamW from optax.
Seeded and resumable: the initial weights come from ``--seed``, each
epoch's order of positions from the seed and the epoch, and a checkpoint is
written after every epoch, so a run resumed from a checkpoint ends with the
same weights as one never stopped. ``--search-value`` mixes the search's own
value of the played move into the mover's value target.

Each epoch writes to the output folder: ``checkpoint.npz`` (weights, the
optimiser's state, the history, the configuration), ``network.kdn`` (the
weights in the core's format, see :mod:`kingisdead.learning.network`),
``history.json`` and ``curves.png`` (the losses by epoch), and ``best.kdn``
the weights of the epoch with the lowest validation loss so far (value plus
weighted policies: early stopping without stopping). A tenth of the
games (chosen by the seed) is held out to validate.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..board import NUM_CARDS
from ..interfaces.encoding import CARD_BASE, NUM_ACTIONS, PASS_ACTION
from .features import OFFSETS, SEAT_SLOTS
from .network import STEP_CARDS, STEP_DEPTHS, VALUES, Network

CHECKPOINT = "checkpoint.npz"
WEIGHTS = "network.kdn"
BEST = "best.kdn"
HISTORY = "history.json"
CURVES = "curves.png"
_HAND = OFFSETS["seats"] + SEAT_SLOTS.index("Crown") + np.arange(NUM_CARDS)
"""The feature slots of the mover's cards in hand."""


@dataclass(frozen=True)
class StepTargets:
    """Targets of the step policy, one row per step prefix of a searched position.

    ``position`` int64 ``[K]`` (the row of its position in the dataset,
    ascending); ``head`` int64 ``[K]`` (``card * 7 + step - 1``: the card the
    prefix starts with and the number of the step to choose, 1-7); ``target``
    float32 ``[K, 21]`` (the search's visit mass on each next step, summing to
    1); ``legal`` bool ``[K, 21]`` (the steps the builder offers). Prefixes
    that offer a single step teach nothing and are left out.
    """

    position: np.ndarray
    head: np.ndarray
    target: np.ndarray
    legal: np.ndarray

    def __len__(self) -> int:
        return int(self.position.shape[0])

    @classmethod
    def empty(cls) -> StepTargets:
        return cls(np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros((0, NUM_ACTIONS), np.float32),
                   np.zeros((0, NUM_ACTIONS), bool))


@dataclass(frozen=True)
class Dataset:
    """Positions for training, row by row.

    ``features`` float32 ``[N, F]``; ``values`` float32 ``[N, 4]`` (each
    relative seat's final result, 1 a win, 0 a loss, shared wins split);
    ``seats`` bool ``[N, 4]`` (the seats in the game); ``policy`` float32
    ``[N, 21]`` (the search's visit mass on each first building step, summing
    to 1); ``legal`` bool ``[N, 21]`` (the first steps that were legal);
    ``games`` int64 ``[N]`` (the game of each position: validation holds out
    whole games, whose positions would otherwise leak into training);
    ``steps`` the step policy's targets (empty for shards without them);
    ``search_value`` float32 ``[N]`` (the search's mean reward for the mover
    after the move it played, in [0, 1]; NaN where unknown: forced passes and
    shards without ``move_value``), or None where no row has one.
    """

    features: np.ndarray
    values: np.ndarray
    seats: np.ndarray
    policy: np.ndarray
    legal: np.ndarray
    games: np.ndarray
    steps: StepTargets = field(default_factory=StepTargets.empty)
    search_value: np.ndarray | None = None

    def __len__(self) -> int:
        return int(self.features.shape[0])

    def check(self) -> None:
        """ValueError if the arrays disagree in length or shape, or a policy target is not a distribution."""
        n = len(self)
        shapes = {"values": (n, VALUES), "seats": (n, VALUES), "policy": (n, NUM_ACTIONS), "legal": (n, NUM_ACTIONS),
                  "games": (n,)}
        for name, shape in shapes.items():
            if getattr(self, name).shape != shape:
                raise ValueError(f"{name} has shape {getattr(self, name).shape}, expected {shape}")
        if n == 0:
            raise ValueError("no positions to train on")
        if not np.allclose(self.policy.sum(axis=1), 1.0, atol=1e-4) or np.any(self.policy[~self.legal] > 0):
            raise ValueError("a policy target does not sum to 1 over legal steps")
        steps = self.steps
        if len(steps):
            if np.any(np.diff(steps.position) < 0) or steps.position[0] < 0 or steps.position[-1] >= n:
                raise ValueError("step targets must point at positions of the dataset, in order")
            if not np.allclose(steps.target.sum(axis=1), 1.0, atol=1e-4) or np.any(steps.target[~steps.legal] > 0):
                raise ValueError("a step target does not sum to 1 over the offered steps")


def read_shard(path: str | Path, number: int = 0) -> Dataset:
    """The training arrays of one self-play shard (docs/learning.md); ValueError if an array is missing.

    The value targets are the shard's ``result`` (by seat relative to the
    mover), the policy targets its ``policy`` (visit mass on each first
    building step), and the legal first steps those the search's root moves
    start with, the pass and the cards in the mover's hand (a card the search
    never tried is still one the policy should learn to rate). Games are
    numbered ``number * 2**32 + game``, so shards of several runs stay apart.
    """
    with np.load(path) as shard:
        needed = ("features", "players", "result", "policy", "move_start", "move_steps", "game")
        missing = [k for k in needed if k not in shard]
        if missing:
            raise ValueError(f"{path}: not a self-play shard (no {', '.join(missing)})")
        n = len(shard["features"])
        starts = shard["move_start"].astype(np.int64)
        legal = np.zeros((n, NUM_ACTIONS), bool)
        legal[np.repeat(np.arange(n), np.diff(starts)), shard["move_steps"][:, 0].astype(np.int64)] = True
        legal[:, PASS_ACTION] = True
        legal[:, CARD_BASE:CARD_BASE + NUM_CARDS] |= shard["features"][:, _HAND] > 0
        seats = np.arange(VALUES)[None, :] < shard["players"].astype(np.int64)[:, None]
        steps = _step_targets(shard) if "target_prefix" in shard else StepTargets.empty()
        search_value = np.full(n, np.nan, np.float32)
        if "move_value" in shard and "played" in shard:
            searched = ~shard["forced"] if "forced" in shard else np.ones(n, bool)
            search_value[searched] = shard["move_value"][shard["played"][searched]]
        return Dataset(shard["features"].astype(np.float32), shard["result"].astype(np.float32), seats,
                       shard["policy"].astype(np.float32), legal,
                       number * 2**32 + shard["game"].astype(np.int64), steps, search_value)


def _step_targets(shard: Any) -> StepTargets:
    """The step policy's rows of a shard's step prefixes (docs/learning.md): those after a card, with a choice."""
    length = shard["target_len"].astype(np.int64)
    first = shard["target_prefix"][:, 0].astype(np.int64)
    legal = shard["target_legal"].astype(bool)
    keep = (length >= 1) & (first >= CARD_BASE) & (first < CARD_BASE + NUM_CARDS) & (legal.sum(axis=1) > 1)
    starts = shard["target_start"].astype(np.int64)
    position = np.repeat(np.arange(len(starts) - 1), np.diff(starts))
    head = (first - CARD_BASE) * STEP_DEPTHS + length - 1
    return StepTargets(position[keep], head[keep], shard["target"][keep].astype(np.float32), legal[keep])


def load_shards(paths: Sequence[str | Path]) -> Dataset:
    """Every ``.npz`` shard of the given files and folders (folders: ``*.npz`` inside, sorted), concatenated.

    A shard holds the self-play arrays of docs/learning.md; ValueError for a
    path with no shard or a shard missing an array.
    """
    files: list[Path] = []
    for p in map(Path, paths):
        files += sorted(p.glob("*.npz")) if p.is_dir() else [p]
    if not files:
        raise ValueError(f"no .npz shard in {', '.join(map(str, paths))}")
    parts = [read_shard(f, i) for i, f in enumerate(files)]
    offsets = np.cumsum([0] + [len(p) for p in parts])
    steps = StepTargets(np.concatenate([p.steps.position + o for p, o in zip(parts, offsets)]),
                        *(np.concatenate([getattr(p.steps, k) for p in parts]) for k in ("head", "target", "legal")))
    joined = {k: np.concatenate([getattr(p, k) for p in parts])
              for k in ("features", "values", "seats", "policy", "legal", "games")}
    data = Dataset(**joined, steps=steps, search_value=np.concatenate([p.search_value for p in parts]))
    data.check()
    return data


@dataclass(frozen=True)
class TrainConfig:
    hidden: tuple[int, ...] = (128, 64)
    epochs: int = 10
    batch: int = 256
    learning_rate: float = 1e-3
    weight_decay: float = 1e-4
    policy_weight: float = 1.0
    step_weight: float = 0.0
    """Weight of the step policy's loss; 0 trains no step policy (a version 1 weight file)."""
    search_value: float = 0.0
    """Share of the search's own value of the played move in the mover's value target (the rest: the
    game's result); rows without one keep the result."""
    seed: int = 0
    validation: float = 0.1
    """Share of the games held out to validate."""

    def same_run(self, other: TrainConfig) -> bool:
        """Everything but the number of epochs agrees (a resumed run may go further)."""
        return {**asdict(self), "epochs": 0} == {**asdict(other), "epochs": 0}


@dataclass
class History:
    """Per epoch: mean training loss, and validation value loss, value error, policy and step policy loss."""

    train_loss: list[float] = field(default_factory=list)
    value_loss: list[float] = field(default_factory=list)
    value_mae: list[float] = field(default_factory=list)
    policy_loss: list[float] = field(default_factory=list)
    step_loss: list[float] = field(default_factory=list)

    @property
    def epochs(self) -> int:
        return len(self.train_loss)


_STEP_HEADS = STEP_CARDS * STEP_DEPTHS
_STEP_ROWS = 64
"""Step rows per position a training batch has room for (a searched position has about 50)."""


def _init(key: Any, inputs: int, hidden: Sequence[int], steps: bool) -> dict[str, Any]:
    """He-initialised dense layers: the trunk, the value and policy heads, and the step policy if ``steps``."""
    import jax
    import jax.numpy as jnp

    sizes = [inputs, *hidden]
    shapes = [*zip(sizes, sizes[1:]), (sizes[-1], VALUES), (sizes[-1], NUM_ACTIONS)]
    layers = []
    for k, (n_in, n_out) in zip(jax.random.split(key, len(shapes)), shapes):
        w = jax.random.normal(k, (n_in, n_out), jnp.float32) * jnp.sqrt(2.0 / n_in)
        layers.append({"w": w, "b": jnp.zeros((n_out,), jnp.float32)})
    params: dict[str, Any] = {"trunk": layers[:-2], "value": layers[-2], "policy": layers[-1]}
    if steps:
        shape = (_STEP_HEADS, sizes[-1], NUM_ACTIONS)
        w = jax.random.normal(jax.random.fold_in(key, 1), shape, jnp.float32) * jnp.sqrt(2.0 / sizes[-1])
        params["steps"] = {"w": w, "b": jnp.zeros((_STEP_HEADS, NUM_ACTIONS), jnp.float32)}
    return params


def _forward(params: dict[str, Any], x: Any) -> tuple[Any, Any, Any]:
    """Value logits, policy logits and the last hidden layer."""
    import jax.numpy as jnp

    for layer in params["trunk"]:
        x = jnp.maximum(x @ layer["w"] + layer["b"], 0.0)
    value, policy = params["value"], params["policy"]
    return x @ value["w"] + value["b"], x @ policy["w"] + policy["b"], x


def _masked_cross_entropy(logits: Any, target: Any, legal: Any) -> Any:
    import jax
    import jax.numpy as jnp

    return -jnp.sum(target * jax.nn.log_softmax(jnp.where(legal, logits, -1e9)), axis=-1)


def _losses(params: dict[str, Any], batch: tuple[Any, ...]) -> tuple[Any, Any, Any, Any]:
    """Value logistic loss and mean absolute error (per seat in play), policy cross-entropy (per position),
    step policy cross-entropy (per step row of weight 1; 0 without a step policy)."""
    import jax
    import jax.numpy as jnp
    import optax

    x, values, seats, policy, legal, step_row, step_head, step_target, step_legal, step_weight = batch
    value_logits, policy_logits, hidden = _forward(params, x)
    seats_f = seats.astype(jnp.float32)
    value_loss = jnp.sum(optax.sigmoid_binary_cross_entropy(value_logits, values) * seats_f) / jnp.sum(seats_f)
    mae = jnp.sum(jnp.abs(jax.nn.sigmoid(value_logits) - values) * seats_f) / jnp.sum(seats_f)
    policy_loss = jnp.mean(_masked_cross_entropy(policy_logits, policy, legal))
    step_loss = jnp.float32(0)
    if "steps" in params:
        w, b = params["steps"]["w"], params["steps"]["b"]
        every_head = jnp.einsum("ph,kho->pko", hidden, w) + b  # all 49 heads of each position: small
        logits = every_head[step_row, step_head]
        loss = _masked_cross_entropy(logits, step_target, step_legal)
        step_loss = jnp.sum(loss * step_weight) / jnp.maximum(jnp.sum(step_weight), 1.0)
    return value_loss, mae, policy_loss, step_loss


def _step_rows(data: Dataset, starts: np.ndarray, rows: np.ndarray, room: int | None) -> tuple[np.ndarray, ...]:
    """The step arrays of the positions ``rows`` (``starts``: each position's first step row, CSR), as a
    batch: the position's place in ``rows``, head, target, offers and weight (1, or 0 for padding), cut
    or padded to ``room`` rows (None: exactly the rows there are)."""
    first, counts = starts[rows], starts[rows + 1] - starts[rows]
    total = int(counts.sum())
    index = np.repeat(first - (np.cumsum(counts) - counts), counts) + np.arange(total)
    place = np.repeat(np.arange(len(rows)), counts)
    size = total if room is None else room
    index, place = index[:size], place[:size]
    pad = size - len(index)
    steps = data.steps
    return (np.concatenate([place, np.zeros(pad, np.int64)]),
            np.concatenate([steps.head[index], np.zeros(pad, np.int64)]),
            np.concatenate([steps.target[index], np.zeros((pad, NUM_ACTIONS), np.float32)]),
            np.concatenate([steps.legal[index], np.ones((pad, NUM_ACTIONS), bool)]),
            np.concatenate([np.ones(len(index), np.float32), np.zeros(pad, np.float32)]))


def value_targets(data: Dataset, share: float) -> np.ndarray:
    """The value targets ``[N, 4]``: the game's results, the mover's mixed with the search's value.

    Where ``data.search_value`` is known the mover's target becomes ``(1 - share) * result + share *
    search value``; the other seats follow so that the sides still sum as results do (2 players: the
    opponent gets the rest; 4 players: the partner the same, the opponents the rest; 3 players: the
    others keep their results, as the search's value says nothing of who else wins). With a share of
    0 the results are returned unchanged.
    """
    values = data.values.astype(np.float32, copy=True)
    if share == 0 or data.search_value is None:
        return values
    known = ~np.isnan(data.search_value)
    mover = (1 - share) * values[known, 0] + share * data.search_value[known]
    players = data.seats.sum(axis=1)[known]
    rows = np.flatnonzero(known)
    values[rows, 0] = mover
    two, four = rows[players == 2], rows[players == 4]
    values[two, 1] = 1 - values[two, 0]
    values[four, 2] = values[four, 0]
    values[four, 1] = values[four, 3] = 1 - values[four, 0]
    return values


def _split(data: Dataset, config: TrainConfig) -> tuple[np.ndarray, np.ndarray]:
    """Training and validation rows: a seeded tenth of the games held out (none with fewer than 10 games)."""
    games = np.unique(data.games)
    order = np.random.default_rng([config.seed, 0]).permutation(len(games))
    held = games[order[:int(len(games) * config.validation)]] if len(games) >= 10 else games[:0]
    valid = np.isin(data.games, held)
    return np.flatnonzero(~valid), np.flatnonzero(valid)


def _to_network(params: dict[str, Any]) -> Network:
    def dense(p: dict[str, Any]) -> tuple[np.ndarray, np.ndarray]:
        return np.asarray(p["w"], np.float32), np.asarray(p["b"], np.float32)

    steps = None
    if "steps" in params:
        w, b = dense(params["steps"])
        steps = (w.reshape(STEP_CARDS, STEP_DEPTHS, *w.shape[1:]), b.reshape(STEP_CARDS, STEP_DEPTHS, -1))
    return Network(tuple(dense(p) for p in params["trunk"]), dense(params["value"]), dense(params["policy"]), steps)


def _plot(history: History, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    epochs = range(1, history.epochs + 1)
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.plot(epochs, history.train_loss, label="training loss (value + weighted policies)")
    if history.value_loss:
        ax.plot(epochs, history.value_loss, label="validation value loss")
        ax.plot(epochs, history.policy_loss, label="validation policy loss")
        ax.plot(epochs, history.value_mae, label="validation value error (mean abs.)")
        if history.step_loss:
            ax.plot(epochs, history.step_loss, label="validation step policy loss")
    ax.set_xlabel("epoch")
    ax.set_ylabel("loss")
    ax.set_title("kingisdead network training")
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def _save(out: Path, config: TrainConfig, params: Any, opt_state: Any, history: History) -> None:
    import jax

    arrays: dict[str, Any] = {}
    for prefix, tree in (("param", params), ("opt", opt_state)):
        for i, leaf in enumerate(jax.tree_util.tree_leaves(tree)):
            arrays[f"{prefix}_{i}"] = np.asarray(leaf)
    meta = {"config": asdict(config), "history": asdict(history)}
    tmp = out / (CHECKPOINT + ".tmp.npz")
    np.savez(tmp, meta=np.array(json.dumps(meta)), **arrays)
    tmp.replace(out / CHECKPOINT)  # a crash mid-write leaves the previous checkpoint whole
    _to_network(params).save(out / WEIGHTS)
    scores = [v + config.policy_weight * p + config.step_weight * st for v, p, st in
              zip(history.value_loss, history.policy_loss, history.step_loss or [0.0] * history.epochs)]
    if not scores or scores[-1] == min(scores):
        _to_network(params).save(out / BEST)
    (out / HISTORY).write_text(json.dumps(asdict(history), indent=1))
    _plot(history, out / CURVES)


def _restore(out: Path, config: TrainConfig, params: Any, opt_state: Any) -> tuple[Any, Any, History]:
    import jax

    with np.load(out / CHECKPOINT) as saved:
        meta = json.loads(str(saved["meta"]))
        stored = TrainConfig(**{**meta["config"], "hidden": tuple(meta["config"]["hidden"])})
        if not config.same_run(stored):
            raise ValueError(f"the checkpoint in {out} was trained with other settings: {stored}")
        trees = []
        for prefix, tree in (("param", params), ("opt", opt_state)):
            leaves, treedef = jax.tree_util.tree_flatten(tree)
            trees.append(jax.tree_util.tree_unflatten(
                treedef, [np.asarray(saved[f"{prefix}_{i}"]) for i in range(len(leaves))]))
    return trees[0], trees[1], History(**meta["history"])


def train(data: Dataset, out: str | Path, config: TrainConfig | None = None, resume: bool = False,
          log: Callable[[str], None] = print) -> History:
    """Train on ``data``, writing to ``out`` after every epoch; returns the history of all epochs.

    With ``resume`` the run continues from ``out``'s checkpoint up to
    ``config.epochs`` (ValueError if it was made with other settings).
    Deterministic: the same data, configuration and seed give the same weights.
    """
    import jax
    import jax.numpy as jnp
    import optax

    config = config or TrainConfig()
    data.check()
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    train_rows, valid_rows = _split(data, config)
    with_steps = config.step_weight > 0
    if with_steps and not len(data.steps):
        raise ValueError("a step policy needs shards with step targets (plain self-play writes them)")
    params = _init(jax.random.PRNGKey(config.seed), data.features.shape[1], config.hidden, with_steps)
    optimiser = optax.adamw(config.learning_rate, weight_decay=config.weight_decay)
    opt_state = optimiser.init(params)
    history = History()
    if resume and (out / CHECKPOINT).exists():
        params, opt_state, history = _restore(out, config, params, opt_state)
        log(f"resumed after epoch {history.epochs}")

    def loss(p: Any, batch: tuple[Any, ...]) -> Any:
        value_loss, _, policy_loss, step_loss = _losses(p, batch)
        return value_loss + config.policy_weight * policy_loss + config.step_weight * step_loss

    @jax.jit
    def step(p: Any, state: Any, batch: tuple[Any, ...]) -> tuple[Any, Any, Any]:
        value, grads = jax.value_and_grad(loss)(p, batch)
        updates, state = optimiser.update(grads, state, p)
        return optax.apply_updates(p, updates), state, value

    evaluate = jax.jit(_losses)
    arrays = (data.features.astype(np.float32), value_targets(data, config.search_value), data.seats.astype(bool),
              data.policy.astype(np.float32), data.legal.astype(bool))
    results = (arrays[0], data.values.astype(np.float32), *arrays[2:])  # validation: against the results
    step_starts = np.searchsorted(data.steps.position, np.arange(len(data) + 1))
    batch = min(config.batch, len(train_rows))

    def batch_of(rows: np.ndarray, room: int | None, targets: tuple[np.ndarray, ...]) -> tuple[Any, ...]:
        steps = _step_rows(data, step_starts, rows, room) if with_steps else _step_rows(data, step_starts, rows[:0], 0)
        return tuple(jnp.asarray(a[rows]) for a in targets) + tuple(jnp.asarray(a) for a in steps)

    for epoch in range(history.epochs, config.epochs):
        order = train_rows[np.random.default_rng([config.seed, 1, epoch]).permutation(len(train_rows))]
        losses = []
        for start in range(0, len(order) - batch + 1, batch):  # whole batches: one compiled shape
            rows = order[start:start + batch]
            params, opt_state, value = step(params, opt_state, batch_of(rows, batch * _STEP_ROWS, arrays))
            losses.append(float(value))
        history.train_loss.append(float(np.mean(losses)))
        if len(valid_rows):
            v_loss, v_mae, p_loss, s_loss = evaluate(params, batch_of(valid_rows, None, results))
            history.value_loss.append(float(v_loss))
            history.value_mae.append(float(v_mae))
            history.policy_loss.append(float(p_loss))
            if with_steps:
                history.step_loss.append(float(s_loss))
        _save(out, config, params, opt_state, history)
        valid = (f", validation value {history.value_loss[-1]:.4f} (error {history.value_mae[-1]:.3f}),"
                 f" policy {history.policy_loss[-1]:.4f}") if len(valid_rows) else ""
        if with_steps and len(valid_rows):
            valid += f", steps {history.step_loss[-1]:.4f}"
        log(f"epoch {epoch + 1}/{config.epochs}: training loss {history.train_loss[-1]:.4f}{valid}")
    return history


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m kingisdead.learning.train", description=__doc__.split("\n")[0])
    parser.add_argument("data", nargs="+", help="self-play shards (.npz files or folders of them)")
    parser.add_argument("--out", required=True, help="folder for the checkpoint, weights, history and plot")
    parser.add_argument("--epochs", type=int, default=TrainConfig.epochs)
    parser.add_argument("--hidden", default="128,64", help="hidden layer widths, comma-separated")
    parser.add_argument("--batch", type=int, default=TrainConfig.batch)
    parser.add_argument("--lr", type=float, default=TrainConfig.learning_rate)
    parser.add_argument("--weight-decay", type=float, default=TrainConfig.weight_decay)
    parser.add_argument("--policy-weight", type=float, default=TrainConfig.policy_weight)
    parser.add_argument("--step-weight", type=float, default=TrainConfig.step_weight,
                        help="weight of the step policy's loss (0: no step policy)")
    parser.add_argument("--search-value", type=float, default=TrainConfig.search_value,
                        help="share of the search's value of the played move in the mover's value target (0-1)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--resume", action="store_true", help="continue from the checkpoint in --out")
    args = parser.parse_args(argv)
    try:
        hidden = tuple(int(w) for w in args.hidden.split(","))
        if not hidden or min(hidden) < 1 or args.epochs < 1 or args.batch < 1 or args.lr <= 0:
            raise ValueError("widths, epochs and batch must be positive and the learning rate above 0")
        if args.step_weight < 0 or not 0 <= args.search_value <= 1:
            raise ValueError("the step weight must not be negative and the search value share must lie in [0, 1]")
        config = TrainConfig(hidden, args.epochs, args.batch, args.lr, args.weight_decay, args.policy_weight,
                             args.step_weight, args.search_value, args.seed)
        data = load_shards(args.data)
        print(f"{len(data)} positions, {data.features.shape[1]} features")
        train(data, args.out, config, resume=args.resume)
    except (ValueError, OSError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(f"weights: {Path(args.out) / WEIGHTS}, curves: {Path(args.out) / CURVES}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
