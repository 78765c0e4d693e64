"""The position features of the learned evaluation, read in Python.

The compiled core computes them (``core/src/features.rs``) at every leaf of a
search; this module is the readable reference of the same vector, slot for
slot, and the batched bridge to the core's version for training data. Every
slot lies in [0, 1]; seats are relative to the observer (0 = the observer, 1 =
the next player in turn, ...). :data:`FIELDS` names the blocks and
``docs/learning.md`` explains every slot.

Only the standard library is needed to read features; :func:`features_array`
needs NumPy (``pip install kingisdead[learn]``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

from ..board import CARD_COPIES, HAND_SIZE, NUM_CARDS, NUM_FACTIONS, NUM_KINDS, NUM_REGIONS, SAXON_INVASION
from ..evaluation import PROJECTED_WEIGHT, _leader, evaluate
from ..engine import last_card_applies

if TYPE_CHECKING:
    import numpy as np

    from ..state import GameState

MAX_SEATS = 4
REGION_SCALE = 16.0
"""Followers of one kind in a region are divided by this (and clipped at 1)."""
MARGIN_SCALE = 8.0
"""A region leader's lead over the next kind is divided by this (and clipped at 1)."""
COURT_SCALE = 10.0
"""Followers of one faction at a court (a court holds at most 2 + 8)."""
STOCK_SCALE = 18.0
LOYALIST_SCALE = 9.0


class Block(NamedTuple):
    """One named block of the feature vector: ``shape`` slots from ``offset``."""

    name: str
    shape: tuple[int, ...]
    doc: str

    @property
    def size(self) -> int:
        n = 1
        for d in self.shape:
            n *= d
        return n


REGION_SLOTS = (
    "Scots", "Welsh", "Romano-British", "Loyalists",
    "leader Scots", "leader Welsh", "leader Romano-British", "leader Loyalists", "leader Saxons",
    "margin",
    "unresolved", "held Scots", "held Welsh", "held Romano-British", "held Loyalists", "held Saxons",
    "struggles ahead", "contested",
    "crown seat 0", "crown seat 1", "crown seat 2", "crown seat 3",
)
SEAT_SLOTS = (
    "present", "own side", "court Scots", "court Welsh", "court Romano-British",
    "Crown", "Garrison", "Ambassador", "Settlements", "Scots card", "Welsh card", "Romano-British card",
    "cards left", "recency", "exchange ban", "heuristic value",
)
KIND_SLOTS = (
    "held Scots", "held Welsh", "held Romano-British", "held Loyalists", "held Saxons",
    "projected Scots", "projected Welsh", "projected Romano-British", "projected Loyalists", "projected Saxons",
    "weight Scots", "weight Welsh", "weight Romano-British", "invasion course",
)

FIELDS: tuple[Block, ...] = (
    Block("game", (8,), "players 2/3/4 one-hot, Mordred, Saxon tokens / 4, struggles resolved / 8, "
          "passes / 4, the 3-player last-card rule binds the player to move"),
    Block("to_move", (MAX_SEATS,), "one-hot relative seat to move"),
    Block("regions", (NUM_REGIONS, len(REGION_SLOTS)), "per region (board order): " + ", ".join(REGION_SLOTS)),
    Block("stock", (NUM_KINDS,), "common stock of each faction / 18, Loyalist supply / 9"),
    Block("seats", (MAX_SEATS, len(SEAT_SLOTS)), "per relative seat: " + ", ".join(SEAT_SLOTS)),
    Block("kinds", (len(KIND_SLOTS),), "the heuristic's tally: " + ", ".join(KIND_SLOTS)),
)

OFFSETS: dict[str, int] = {}
_offset = 0
for _block in FIELDS:
    OFFSETS[_block.name] = _offset
    _offset += _block.size
FEATURES = _offset
"""Length of the feature vector (270)."""


def _scaled(x: int, scale: float) -> float:
    return min(x / scale, 1.0)


def features(state: GameState, seat: int) -> list[float]:
    """The FEATURES numbers of ``state`` seen from ``seat`` (ValueError for a seat not in the game)."""
    n = state.players
    if not 0 <= seat < n:
        raise ValueError(f"seat {seat} is not in a {n}-player game")
    out = [0.0] * FEATURES
    over = state.is_over()

    def rel(q: int) -> int:
        return (q - seat) % n

    o = OFFSETS["game"]
    out[o + n - 2] = 1.0
    out[o + 3] = float(state.mordred)
    out[o + 4] = _scaled(state.saxons, SAXON_INVASION)
    out[o + 5] = _scaled(state.resolved, NUM_REGIONS)
    out[o + 6] = _scaled(state.passes, MAX_SEATS)
    out[o + 7] = float(not over and last_card_applies(state))
    out[OFFSETS["to_move"] + rel(state.player)] = 1.0

    contested = state.order[state.resolved] if not over and state.resolved < NUM_REGIONS else None
    position = {region: i for i, region in enumerate(state.order)}
    held = [0] * 5
    projected = [0] * 5
    for r in range(NUM_REGIONS):
        o = OFFSETS["regions"] + r * len(REGION_SLOTS)
        counts = state.board[r * NUM_KINDS:(r + 1) * NUM_KINDS]
        for k in range(NUM_KINDS):
            out[o + k] = _scaled(counts[k], REGION_SCALE)
        control = state.control[r]
        if control < 0:
            lead = _leader(state.board, r)
            projected[lead] += 1
            out[o + 4 + lead] = 1.0
            top, second = sorted(counts)[-1], sorted(counts)[-2]
            out[o + 9] = _scaled(top - second, MARGIN_SCALE)
            out[o + 16] = max(position[r] - state.resolved, 0) / (NUM_REGIONS - 1)
        else:
            held[control] += 1
        out[o + 10 + control + 1] = 1.0
        out[o + 17] = float(r == contested)
        if state.crowns[r] >= 0:
            out[o + 18 + rel(state.crowns[r])] = 1.0

    o = OFFSETS["stock"]
    for f in range(NUM_FACTIONS):
        out[o + f] = _scaled(state.stock[f], STOCK_SCALE)
    out[o + 3] = _scaled(state.stock[3], LOYALIST_SCALE)

    values = evaluate(state)
    ranks = sorted((state.last_play[q], q) for q in range(n) if state.last_play[q])
    for q in range(n):
        o = OFFSETS["seats"] + rel(q) * len(SEAT_SLOTS)
        out[o] = 1.0
        out[o + 1] = float(q == seat or (n == 4 and q % 2 == seat % 2))
        for f in range(NUM_FACTIONS):
            out[o + 2 + f] = _scaled(state.courts[q * 3 + f], COURT_SCALE)
        hand = state.hands[q * NUM_CARDS:(q + 1) * NUM_CARDS]
        for c in range(NUM_CARDS):
            out[o + 5 + c] = _scaled(hand[c], CARD_COPIES[c])
        out[o + 12] = _scaled(sum(hand), HAND_SIZE)
        if state.last_play[q]:
            out[o + 13] = (ranks.index((state.last_play[q], q)) + 1) / MAX_SEATS
        out[o + 14] = float(state.undo_ban is not None and state.undo_ban[0] == q)
        out[o + 15] = (values[q] + 1.0) * 0.5

    o = OFFSETS["kinds"]
    invasion = held[4] + projected[4] >= SAXON_INVASION
    for k in range(5):
        out[o + k] = _scaled(held[k], NUM_REGIONS)
        out[o + 5 + k] = _scaled(projected[k], NUM_REGIONS)
    if not invasion:
        expected = [held[f] + PROJECTED_WEIGHT * projected[f] for f in range(NUM_FACTIONS)]
        most = max(expected) or 1.0
        for f in range(NUM_FACTIONS):
            out[o + 10 + f] = (expected[f] / most) ** 3
    out[o + 13] = float(invasion)
    return out


def features_array(states: Sequence[GameState], seats: Sequence[int]) -> np.ndarray:
    """The core's features of many states, each from its own seat: float32, shape (len(states), FEATURES)."""
    import numpy as np

    from .. import engine

    if len(states) != len(seats):
        raise ValueError("features_array: one seat per state is needed")
    raw = engine.features_batch(list(states), list(seats))
    return np.frombuffer(raw, dtype="<f4").reshape(len(states), FEATURES).copy()


def feature_names() -> list[str]:
    """A name for every slot, in order ('regions[Deva].Welsh', 'seats[1].cards left', ...)."""
    from ..board import REGION_NAMES

    names = [f"game.{s}" for s in ("2 players", "3 players", "4 players", "Mordred", "Saxon tokens",
                                   "resolved", "passes", "last card")]
    names += [f"to_move[{q}]" for q in range(MAX_SEATS)]
    names += [f"regions[{REGION_NAMES[r]}].{s}" for r in range(NUM_REGIONS) for s in REGION_SLOTS]
    names += [f"stock.{s}" for s in ("Scots", "Welsh", "Romano-British", "Loyalists")]
    names += [f"seats[{q}].{s}" for q in range(MAX_SEATS) for s in SEAT_SLOTS]
    names += [f"kinds.{s}" for s in KIND_SLOTS]
    return names
