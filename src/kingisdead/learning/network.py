"""The network's weight file and its NumPy reference evaluation.

The compiled core (``core/src/network.rs``) evaluates the same file inside the
search; this module is the readable reference that the tests compare it with,
and what the training writes. The file (docs/learning.md), little-endian::

    b"KIDNET01" (no step policy) or b"KIDNET02" (with one)
    inputs: u32, hidden layers H: u32, H widths: u32 each, values (4): u32, policy (21): u32
    per layer (H hidden, then value, then policy): weights f32[in][out], bias f32[out]
    KIDNET02 only: 7 x 7 step layers, card-major: weights f32[last][21], bias f32[21]

The trunk is ReLU layers; the value head gives each seat's chance to win
(logistic), seats relative to the viewer; the policy head gives logits over
the first move-building step (``interfaces/encoding``: 0 pass, 1-7 a card ...);
the step policy, where present, gives logits over building step ``k`` (1-7)
of a move of card ``c``, one dense layer per ``(c, k)`` from the last hidden
layer (a factorised policy: the steps chosen before are not inputs).
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..board import NUM_CARDS
from ..interfaces.encoding import MAX_SEATS, MAX_STEPS, NUM_ACTIONS

MAGIC = b"KIDNET01"
MAGIC_STEPS = b"KIDNET02"
VALUES = MAX_SEATS
POLICY = NUM_ACTIONS
STEP_CARDS = NUM_CARDS
STEP_DEPTHS = MAX_STEPS - 1
"""The step policy covers building steps 1-7 of a move (step 0 is the card, the policy head's)."""


@dataclass(frozen=True)
class Network:
    """Dense layers as ``(weights[in, out], bias[out])`` float32 pairs.

    ``steps``, the step policy, is ``(weights[7, 7, last, 21], bias[7, 7, 21])``
    indexed by card and by step number minus one, or None.
    """

    hidden: tuple[tuple[np.ndarray, np.ndarray], ...]
    value: tuple[np.ndarray, np.ndarray]
    policy: tuple[np.ndarray, np.ndarray]
    steps: tuple[np.ndarray, np.ndarray] | None = None

    @property
    def inputs(self) -> int:
        first = self.hidden[0] if self.hidden else self.value
        return int(first[0].shape[0])

    @property
    def widths(self) -> list[int]:
        return [int(b.shape[0]) for _, b in self.hidden]

    def trunk(self, features: np.ndarray) -> np.ndarray:
        """The last hidden layer ``[..., last]`` of features ``[..., inputs]``; ValueError for another size."""
        x = np.asarray(features, dtype=np.float32)
        if x.shape[-1] != self.inputs:
            raise ValueError(f"the network reads {self.inputs} features, got {x.shape[-1]}")
        for w, b in self.hidden:
            x = np.maximum(x @ w + b, np.float32(0))
        return x

    def evaluate(self, features: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Values ``[..., 4]`` in (0, 1) and policy logits ``[..., 21]`` of features ``[..., inputs]`` (float32)."""
        x = self.trunk(features)
        values = np.float32(1) / (np.float32(1) + np.exp(-(x @ self.value[0] + self.value[1])))
        return values, x @ self.policy[0] + self.policy[1]

    def step_logits(self, features: np.ndarray, card: int, step: int) -> np.ndarray:
        """The step policy's logits ``[..., 21]`` for building step ``step`` (1-7) of a move of ``card`` (0-6).

        ValueError without a step policy or for a card or step out of range.
        """
        if self.steps is None:
            raise ValueError("this network has no step policy")
        if not (0 <= card < STEP_CARDS and 1 <= step <= STEP_DEPTHS):
            raise ValueError(f"card must lie in 0..{STEP_CARDS - 1} and step in 1..{STEP_DEPTHS}, "
                             f"got {card} and {step}")
        w, b = self.steps
        return self.trunk(features) @ w[card, step - 1] + b[card, step - 1]

    def to_bytes(self) -> bytes:
        header = [self.inputs, len(self.hidden), *self.widths, VALUES, POLICY]
        parts = [MAGIC if self.steps is None else MAGIC_STEPS, struct.pack(f"<{len(header)}I", *header)]
        layers = [*self.hidden, self.value, self.policy]
        if self.steps is not None:
            w, b = self.steps
            layers += [(w[c, k], b[c, k]) for c in range(STEP_CARDS) for k in range(STEP_DEPTHS)]
        for w, b in layers:
            parts += [np.ascontiguousarray(w, "<f4").tobytes(), np.ascontiguousarray(b, "<f4").tobytes()]
        return b"".join(parts)

    def save(self, path: str | Path) -> None:
        Path(path).write_bytes(self.to_bytes())

    @classmethod
    def from_bytes(cls, data: bytes) -> Network:
        """Reads the format above; ValueError says what is wrong with a bad file."""
        if data[:8] not in (MAGIC, MAGIC_STEPS):
            raise ValueError("not a kingisdead network file (bad magic)")
        at = 8

        def take(count: int, fmt: str) -> tuple:
            nonlocal at
            size = struct.calcsize(f"<{count}{fmt}")
            if at + size > len(data):
                raise ValueError(f"network file truncated at byte {at}")
            out = struct.unpack_from(f"<{count}{fmt}", data, at)
            at += size
            return out

        inputs, depth = take(2, "I")
        widths = list(take(depth, "I"))
        heads = take(2, "I")
        if heads != (VALUES, POLICY):
            raise ValueError(f"heads of {heads[0]} values and {heads[1]} policy outputs, expected {VALUES} and {POLICY}")

        def dense(n_in: int, n_out: int) -> tuple[np.ndarray, np.ndarray]:
            w = np.array(take(n_in * n_out, "f"), dtype=np.float32).reshape(n_in, n_out)
            b = np.array(take(n_out, "f"), dtype=np.float32)
            if not (np.isfinite(w).all() and np.isfinite(b).all()):
                raise ValueError("a weight is not a finite number")
            return w, b

        hidden, last = [], inputs
        for width in widths:
            hidden.append(dense(last, width))
            last = width
        value, policy = dense(last, VALUES), dense(last, POLICY)
        steps = None
        if data[:8] == MAGIC_STEPS:
            layers = [dense(last, POLICY) for _ in range(STEP_CARDS * STEP_DEPTHS)]
            steps = (np.stack([w for w, _ in layers]).reshape(STEP_CARDS, STEP_DEPTHS, last, POLICY),
                     np.stack([b for _, b in layers]).reshape(STEP_CARDS, STEP_DEPTHS, POLICY))
        net = cls(tuple(hidden), value, policy, steps)
        if at != len(data):
            raise ValueError(f"{len(data) - at} bytes after the last layer")
        return net

    @classmethod
    def load(cls, path: str | Path) -> Network:
        return cls.from_bytes(Path(path).read_bytes())


def masked_softmax(logits: np.ndarray, legal: np.ndarray) -> np.ndarray:
    """Softmax over the last axis where ``legal`` is true, 0 elsewhere (all 0 where nothing is legal)."""
    legal = np.asarray(legal, dtype=bool)
    z = np.where(legal, logits, -np.inf)
    top = np.max(z, axis=-1, keepdims=True)
    e = np.where(legal, np.exp(z - np.where(np.isfinite(top), top, 0)), 0.0)
    total = e.sum(axis=-1, keepdims=True)
    return np.divide(e, total, out=np.zeros_like(e), where=total > 0)
