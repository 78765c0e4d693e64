"""The fixed action and observation encodings shared by every research interface.

Actions: a move is built as a short sequence of steps (see
:class:`~kingisdead.building.MoveBuilder`), and every step is one integer of a
single ``Discrete(NUM_ACTIONS)`` space. The meaning of a step (which region is
swapped, which one receives a follower, where the court call comes from) is
given by the steps before it, so 21 integers cover every move of the game::

    0        pass
    1-7      play card 0-6 (Crown, Garrison, Ambassador, Settlements, Scots, Welsh, Romano-British)
    8-15     region 0-7 (Caledonia ... Aquae Sulis)
    16-19    faction 0-3 (Scots, Welsh, Romano-British, Loyalists)
    20       none (a Settlements follower whose faction has none left in stock)

Observations: one flat vector of ``OBSERVATION_SIZE`` numbers for a given
player, laid out field by field as :data:`FIELDS` says. Seats are relative to
the observer (0 = the observer, 1 = the next player in turn, ...), so one
policy can play any seat. Nothing is hidden: after the setup every move is
public and every player starts with the same eight cards, so a player with a
perfect memory knows every hand anyway.

This module imports only the standard library (no numpy), so it is part of
the plain install and any framework can build on it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from ..board import NUM_CARDS, NUM_KINDS, NUM_REGIONS
from ..building import PASS_CHOICE, Choice, MoveBuilder, move_steps
from ..edition import FIRST, Edition
from ..moves import Move
from ..engine import last_card_applies
from ..state import GameState, _play_ranking

PASS_ACTION = 0
CARD_BASE = 1
REGION_BASE = CARD_BASE + NUM_CARDS
FACTION_BASE = REGION_BASE + NUM_REGIONS
NONE_ACTION = FACTION_BASE + NUM_KINDS
NUM_ACTIONS = NONE_ACTION + 1

MAX_SEATS = 4
MAX_STEPS = 8
"""The longest move: a card, a 2-for-1 Garrison (5 choices) and a court call (2)."""

_BASE = {"card": CARD_BASE, "region": REGION_BASE, "faction": FACTION_BASE}


def choice_to_action(choice: Choice) -> int:
    """The integer of one building step."""
    if choice.kind == "pass":
        return PASS_ACTION
    if choice.kind == "none":
        return NONE_ACTION
    return _BASE[choice.kind] + choice.value


def action_to_choice(action: int) -> Choice:
    """The building step of an integer; ValueError outside ``range(NUM_ACTIONS)``."""
    if not isinstance(action, int) or isinstance(action, bool) or not 0 <= action < NUM_ACTIONS:
        raise ValueError(f"action must be an integer from 0 to {NUM_ACTIONS - 1}, got {action!r}")
    if action == PASS_ACTION:
        return PASS_CHOICE
    if action == NONE_ACTION:
        return Choice("none")
    if action < REGION_BASE:
        return Choice("card", action - CARD_BASE)
    if action < FACTION_BASE:
        return Choice("region", action - REGION_BASE)
    return Choice("faction", action - FACTION_BASE)


def action_name(action: int, edition: Edition = FIRST) -> str:
    """A short readable name in ``edition``'s words: 'pass', 'Crown', 'region Deva', 'faction Welsh', 'none'
    (second edition: 'Negotiate', 'region Lancaster'...). The integers mean the same in both editions."""
    choice = action_to_choice(action)
    if choice.kind == "card":
        return edition.cards[choice.value]
    if choice.kind == "region":
        return "region " + edition.regions[choice.value]
    if choice.kind == "faction":
        return "faction " + edition.factions[choice.value]
    return choice.kind


def legal_actions(builder: MoveBuilder) -> list[int]:
    """The integers the builder offers next, ascending (empty once the move is complete)."""
    return sorted(choice_to_action(c) for c in builder.options())


def action_mask(builder: MoveBuilder) -> list[int]:
    """1 for each offered integer, 0 elsewhere (length NUM_ACTIONS)."""
    mask = [0] * NUM_ACTIONS
    for a in legal_actions(builder):
        mask[a] = 1
    return mask


def move_to_actions(move: Move) -> list[int]:
    """The integers that build ``move`` in its canonical order."""
    return [choice_to_action(c) for c in move_steps(move)]


# -- observations -------------------------------------------------------------------


class Field(NamedTuple):
    """One named block of the observation vector."""

    name: str
    shape: tuple[int, ...]
    high: float
    """Largest value a slot can hold (the low is always 0)."""
    doc: str

    @property
    def size(self) -> int:
        n = 1
        for d in self.shape:
            n *= d
        return n


_COUNT = 63.0
"""Bound on any follower count (54 faction followers and 9 Loyalists in all)."""

FIELDS: tuple[Field, ...] = (
    Field("board", (NUM_REGIONS, NUM_KINDS), _COUNT,
          "followers in each region (row) by kind: Scots, Welsh, Romano-British, Loyalists"),
    Field("stock", (NUM_KINDS,), _COUNT, "followers in the common stock by kind (Loyalists: the Loyalist supply)"),
    Field("courts", (MAX_SEATS, 3), _COUNT, "followers at each relative seat's court by faction"),
    Field("hands", (MAX_SEATS, NUM_CARDS), 2.0, "cards left in each relative seat's hand by card (Settlements: 0-2)"),
    Field("cards_left", (MAX_SEATS,), 8.0, "number of cards left in each relative seat's hand"),
    Field("top_card", (MAX_SEATS, NUM_CARDS + 1), 1.0,
          "one-hot top card of each relative seat's played pile: column 0 = none yet, 1 + card"),
    Field("region_position", (NUM_REGIONS, NUM_REGIONS), 1.0,
          "one-hot: row = region, column = position (0-7) of its region card in the order of struggles"),
    Field("contested", (NUM_REGIONS,), 1.0, "one-hot region whose struggle is under way (zeros once all are resolved)"),
    Field("crowns", (NUM_REGIONS, MAX_SEATS), 1.0, "one-hot relative seat whose Crown token lies on each region's card"),
    Field("control", (NUM_REGIONS, 6), 1.0,
          "one-hot control of each region: unresolved, Scots, Welsh, Romano-British, Loyalists, Saxons"),
    Field("saxons", (1,), 8.0, "Saxon control tokens placed (four end the game)"),
    Field("resolved", (1,), 8.0, "struggles resolved so far"),
    Field("passes", (1,), 4.0, "consecutive passes in the current struggle"),
    Field("to_move", (MAX_SEATS,), 1.0, "one-hot relative seat to move"),
    Field("seat", (MAX_SEATS,), 1.0, "one-hot absolute seat of the observer (0 = player 1)"),
    Field("players", (3,), 1.0, "one-hot number of players: 2, 3, 4"),
    Field("mordred", (1,), 1.0, "1 in the Mordred variant"),
    Field("recent_play", (MAX_SEATS,), 4.0,
          "order of each relative seat's latest card play (tie-breaks): 0 = none yet, higher = more recent"),
    Field("exchange_ban", (MAX_SEATS,), 1.0,
          "one-hot relative seat whose last exchange the others may not immediately reverse"),
    Field("last_card", (1,), 1.0, "1 when the 3-player last-card rule binds the player to move"),
    Field("partial_move", (MAX_STEPS, NUM_ACTIONS), 1.0,
          "one-hot action of each step taken so far in the move being built (rows after the last step are 0)"),
)

OFFSETS: dict[str, int] = {}
_offset = 0
for _field in FIELDS:
    OFFSETS[_field.name] = _offset
    _offset += _field.size
OBSERVATION_SIZE = _offset
OBSERVATION_HIGH: tuple[float, ...] = tuple(f.high for f in FIELDS for _ in range(f.size))


def observation(state: GameState, player: int, steps: Sequence[int] = ()) -> list[float]:
    """The observation vector of ``state`` for ``player``, with ``steps`` of a move already chosen."""
    n = state.players
    rel = [(q - player) % n for q in range(n)]
    out = [0.0] * OBSERVATION_SIZE
    o = OFFSETS["board"]
    out[o:o + NUM_REGIONS * NUM_KINDS] = state.board
    o = OFFSETS["stock"]
    out[o:o + NUM_KINDS] = state.stock
    courts, courts_at = state.courts, OFFSETS["courts"]
    hands, hands_at = state.hands, OFFSETS["hands"]
    left_at, top_at = OFFSETS["cards_left"], OFFSETS["top_card"]
    recent_at, ranking = OFFSETS["recent_play"], _play_ranking(state.last_play)
    for q in range(n):
        r = rel[q]
        out[courts_at + r * 3:courts_at + r * 3 + 3] = courts[q * 3:q * 3 + 3]
        hand = hands[q * NUM_CARDS:(q + 1) * NUM_CARDS]
        out[hands_at + r * NUM_CARDS:hands_at + (r + 1) * NUM_CARDS] = hand
        out[left_at + r] = sum(hand)
        out[top_at + r * (NUM_CARDS + 1) + state.tops[q] + 1] = 1.0
        out[recent_at + r] = ranking[q]
    order_at, crowns_at, control_at = OFFSETS["region_position"], OFFSETS["crowns"], OFFSETS["control"]
    for position, region in enumerate(state.order):
        out[order_at + region * NUM_REGIONS + position] = 1.0
    for region in range(NUM_REGIONS):
        if state.crowns[region] >= 0:
            out[crowns_at + region * MAX_SEATS + rel[state.crowns[region]]] = 1.0
        out[control_at + region * 6 + state.control[region] + 1] = 1.0
    if state.resolved < NUM_REGIONS and not state.is_over():
        out[OFFSETS["contested"] + state.order[state.resolved]] = 1.0
    out[OFFSETS["saxons"]] = state.saxons
    out[OFFSETS["resolved"]] = state.resolved
    out[OFFSETS["passes"]] = state.passes
    out[OFFSETS["to_move"] + rel[state.player]] = 1.0
    out[OFFSETS["seat"] + player] = 1.0
    out[OFFSETS["players"] + n - 2] = 1.0
    out[OFFSETS["mordred"]] = float(state.mordred)
    if state.undo_ban is not None:
        out[OFFSETS["exchange_ban"] + rel[state.undo_ban[0]]] = 1.0
    out[OFFSETS["last_card"]] = float(not state.is_over() and last_card_applies(state))
    partial_at = OFFSETS["partial_move"]
    for i, action in enumerate(steps):
        out[partial_at + i * NUM_ACTIONS + action] = 1.0
    return out


def observation_dict(vector: list[float]) -> dict[str, list]:
    """The observation split into its named fields, each nested to its shape (for people and debugging)."""
    view: dict[str, list] = {}
    for field in FIELDS:
        flat: list = list(vector[OFFSETS[field.name]:OFFSETS[field.name] + field.size])
        for dim in reversed(field.shape[1:]):
            flat = [flat[i:i + dim] for i in range(0, len(flat), dim)]
        view[field.name] = flat
    return view
