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

The advanced game (second edition, Cunning cards) has 16 more integers, after those 21::

    21-32    play (or, for a Spy, copy) Cunning card 7-18 (Spy ... Plot)
    33-36    player 0-3, an absolute seat (the pile a Spy copies)

Observations: one flat vector of ``OBSERVATION_SIZE`` numbers for a given
player, laid out field by field as :data:`FIELDS` says. Seats are relative to
the observer (0 = the observer, 1 = the next player in turn, ...), so one
policy can play any seat. Nothing is hidden in the standard game: after the
setup every move is public and every player starts with the same eight cards,
so a player with a perfect memory knows every hand anyway.

In the advanced game the observation is :data:`ADVANCED_FIELDS`, built from the
observer's :class:`~kingisdead.information.SeatView` only (its own Cunning cards,
every card played, how many each other seat holds), never another seat's.

This module imports only the standard library (no numpy), so it is part of
the plain install and any framework can build on it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from ..board import FIRST_CUNNING, NUM_CARDS, NUM_CUNNING, NUM_KINDS, NUM_REGIONS, SAXONS
from ..building import PASS_CHOICE, Choice, MoveBuilder, move_steps
from ..edition import FIRST, Edition
from ..information import SeatView
from ..moves import Move
from ..engine import last_card_applies
from ..state import GameState, _play_ranking

PASS_ACTION = 0
CARD_BASE = 1
REGION_BASE = CARD_BASE + NUM_CARDS
FACTION_BASE = REGION_BASE + NUM_REGIONS
NONE_ACTION = FACTION_BASE + NUM_KINDS
NUM_ACTIONS = NONE_ACTION + 1
"""The integers of the standard game (either edition)."""
CUNNING_BASE = NUM_ACTIONS
PLAYER_BASE = CUNNING_BASE + NUM_CUNNING
ADVANCED_NUM_ACTIONS = PLAYER_BASE + 4
"""The integers of the advanced game: the standard 21, the 12 Cunning cards, the 4 seats."""

MAX_SEATS = 4
MAX_STEPS = 8
"""The longest move: a card, a 2-for-1 Garrison (5 choices) and a court call (2)."""
ADVANCED_MAX_STEPS = 10
"""The most steps a move under way in the advanced game has taken (the rows of its ``partial_move``): one fewer
than its longest move, :data:`ADVANCED_LONGEST_MOVE`, whose last step plays it."""
ADVANCED_LONGEST_MOVE = ADVANCED_MAX_STEPS + 1
"""The longest move of the advanced game: a Spy, its seat and copied card, a copied 2-for-2 Edict (6), a court
call (2)."""

_BASE = {"region": REGION_BASE, "faction": FACTION_BASE, "player": PLAYER_BASE}


def num_actions(edition: Edition) -> int:
    """How many integers ``edition``'s game has: 21, or 37 in the advanced game."""
    return ADVANCED_NUM_ACTIONS if edition.advanced else NUM_ACTIONS


def max_move_steps(edition: Edition) -> int:
    """The most steps one move of ``edition``'s game takes: 8, or 11 in the advanced game."""
    return ADVANCED_LONGEST_MOVE if edition.advanced else MAX_STEPS


def choice_to_action(choice: Choice) -> int:
    """The integer of one building step."""
    if choice.kind == "pass":
        return PASS_ACTION
    if choice.kind == "none":
        return NONE_ACTION
    if choice.kind == "card":
        if choice.value >= FIRST_CUNNING:
            return CUNNING_BASE + choice.value - FIRST_CUNNING
        return CARD_BASE + choice.value
    return _BASE[choice.kind] + choice.value


def action_to_choice(action: int, limit: int = NUM_ACTIONS) -> Choice:
    """The building step of an integer; ValueError outside ``range(limit)`` (:func:`num_actions`)."""
    if not isinstance(action, int) or isinstance(action, bool) or not 0 <= action < limit:
        raise ValueError(f"action must be an integer from 0 to {limit - 1}, got {action!r}")
    if action == PASS_ACTION:
        return PASS_CHOICE
    if action == NONE_ACTION:
        return Choice("none")
    if action >= PLAYER_BASE:
        return Choice("player", action - PLAYER_BASE)
    if action >= CUNNING_BASE:
        return Choice("card", FIRST_CUNNING + action - CUNNING_BASE)
    if action < REGION_BASE:
        return Choice("card", action - CARD_BASE)
    if action < FACTION_BASE:
        return Choice("region", action - REGION_BASE)
    return Choice("faction", action - FACTION_BASE)


def action_name(action: int, edition: Edition = FIRST) -> str:
    """A short readable name in ``edition``'s words: 'pass', 'Crown', 'region Deva', 'faction Welsh', 'none'
    (second edition: 'Negotiate', 'region Lancaster'...; advanced game: 'Spy', 'player 2'). The integers mean
    the same in both editions."""
    choice = action_to_choice(action, ADVANCED_NUM_ACTIONS)
    if choice.kind == "card":
        return edition.card_name(choice.value)
    if choice.kind == "region":
        return "region " + edition.regions[choice.value]
    if choice.kind == "faction":
        return "faction " + edition.factions[choice.value]
    return choice.name(edition)


def legal_actions(builder: MoveBuilder) -> list[int]:
    """The integers the builder offers next, ascending (empty once the move is complete)."""
    return sorted(choice_to_action(c) for c in builder.options())


def action_mask(builder: MoveBuilder) -> list[int]:
    """1 for each offered integer, 0 elsewhere (length :func:`num_actions`)."""
    mask = [0] * num_actions(builder.state.edition)
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

ADVANCED_FIELDS: tuple[Field, ...] = (
    *(f for f in FIELDS if f.name not in ("cards_left", "partial_move")),
    Field("cards_left", (MAX_SEATS,), 8.0,
          "number of cards left in each relative seat's hand, Cunning cards included (another's unseen ones too)"),
    Field("cunning_hand", (NUM_CUNNING,), 1.0, "the observer's own Cunning cards: 1 for each held (Spy ... Plot)"),
    Field("cunning_hidden", (MAX_SEATS,), 3.0,
          "Cunning cards each relative seat holds that the observer cannot see (0 for the observer itself)"),
    Field("cunning_played", (MAX_SEATS, NUM_CUNNING), 1.0, "the Cunning cards each relative seat has played"),
    Field("cunning_top", (MAX_SEATS, NUM_CUNNING), 1.0,
          "one-hot Cunning card on top of each relative seat's pile (top_card's row is then all 0)"),
    Field("partial_move", (ADVANCED_MAX_STEPS, ADVANCED_NUM_ACTIONS), 1.0,
          "one-hot action of each step the observer has taken so far in the move it is building (0 for the others)"),
)
"""The advanced game's observation: the standard fields but ``cards_left`` and ``partial_move`` in their order, then
the Cunning cards one seat may know of (:class:`~kingisdead.information.SeatView`) and the wider ``partial_move``."""


def _offsets(fields: tuple[Field, ...]) -> dict[str, int]:
    offsets, at = {}, 0
    for field in fields:
        offsets[field.name] = at
        at += field.size
    return offsets


OFFSETS: dict[str, int] = _offsets(FIELDS)
OBSERVATION_SIZE = sum(f.size for f in FIELDS)
OBSERVATION_HIGH: tuple[float, ...] = tuple(f.high for f in FIELDS for _ in range(f.size))
ADVANCED_OFFSETS: dict[str, int] = _offsets(ADVANCED_FIELDS)
ADVANCED_OBSERVATION_SIZE = sum(f.size for f in ADVANCED_FIELDS)
ADVANCED_OBSERVATION_HIGH: tuple[float, ...] = tuple(f.high for f in ADVANCED_FIELDS for _ in range(f.size))


def fields(edition: Edition) -> tuple[Field, ...]:
    """The observation's fields in ``edition``'s game: :data:`FIELDS`, or :data:`ADVANCED_FIELDS`."""
    return ADVANCED_FIELDS if edition.advanced else FIELDS


def observation_size(edition: Edition) -> int:
    """The observation's length in ``edition``'s game: 456, or :data:`ADVANCED_OBSERVATION_SIZE`."""
    return ADVANCED_OBSERVATION_SIZE if edition.advanced else OBSERVATION_SIZE


def observation_high(edition: Edition) -> tuple[float, ...]:
    """The bound of each slot of the observation in ``edition``'s game (the lows are 0)."""
    return ADVANCED_OBSERVATION_HIGH if edition.advanced else OBSERVATION_HIGH


def observation(state: GameState, player: int, steps: Sequence[int] = ()) -> list[float]:
    """The observation vector of ``state`` for ``player``, with ``steps`` of a move already chosen.

    In the advanced game it is :func:`view_observation` of ``state.view(player)``: what ``player`` may
    know, and the steps only when ``player`` is the one building the move. ValueError for a seat not
    in the game.
    """
    if state.edition.advanced:
        view = state.view(player)
        mine = player == state.player and not state.is_over()
        return view_observation(view, steps if mine else (), mine and last_card_applies(state))
    n = state.players
    rel = [(q - player) % n for q in range(n)]
    out = [0.0] * OBSERVATION_SIZE
    _public(out, OFFSETS, state, player, rel, state.is_over(), state.saxons)
    hands, left_at = state.hands, OFFSETS["cards_left"]
    for q in range(n):
        out[left_at + rel[q]] = sum(hands[q * NUM_CARDS:(q + 1) * NUM_CARDS])
    out[OFFSETS["last_card"]] = float(not state.is_over() and last_card_applies(state))
    partial_at = OFFSETS["partial_move"]
    for i, action in enumerate(steps):
        out[partial_at + i * NUM_ACTIONS + action] = 1.0
    return out


def view_observation(view: SeatView, steps: Sequence[int] = (), last_card: bool = False) -> list[float]:
    """The advanced game's observation vector (:data:`ADVANCED_FIELDS`, length
    :data:`ADVANCED_OBSERVATION_SIZE`) of ``view.seat``, from its view alone.

    ``steps`` are the integers the seat has chosen in the move it is building (give none for a seat
    not to move), ``last_card`` whether the last-card rule binds it (only the seat to move can be bound).
    """
    player, n = view.seat, view.players
    rel = [(q - player) % n for q in range(n)]
    out = [0.0] * ADVANCED_OBSERVATION_SIZE
    offsets = ADVANCED_OFFSETS
    _public(out, offsets, view, player, rel, view.is_over(), view.control.count(SAXONS))
    left_at, hidden_at = offsets["cards_left"], offsets["cunning_hidden"]
    played_at, cunning_top_at = offsets["cunning_played"], offsets["cunning_top"]
    for q in range(n):
        r = rel[q]
        out[left_at + r] = view.cards_left(q)
        out[hidden_at + r] = view.hidden(q)
        for i in range(NUM_CUNNING):
            out[played_at + r * NUM_CUNNING + i] = float(view.cunning_played[q] >> i & 1)
        if view.tops[q] >= FIRST_CUNNING:
            out[cunning_top_at + r * NUM_CUNNING + view.tops[q] - FIRST_CUNNING] = 1.0
    for i in range(NUM_CUNNING):
        out[offsets["cunning_hand"] + i] = float(view.cunning >> i & 1)
    out[offsets["last_card"]] = float(last_card)
    partial_at = offsets["partial_move"]
    for i, action in enumerate(steps):
        out[partial_at + i * ADVANCED_NUM_ACTIONS + action] = 1.0
    return out


def _public(out: list[float], offsets: dict[str, int], s: GameState | SeatView, player: int, rel: list[int],
            over: bool, saxons: int) -> None:
    """Write the fields every player sees into ``out`` (laid out by ``offsets``): the board, the stock, the
    courts, the Action cards in hand, the piles' standard top cards, the regions and the turn."""
    o = offsets["board"]
    out[o:o + NUM_REGIONS * NUM_KINDS] = s.board
    o = offsets["stock"]
    out[o:o + NUM_KINDS] = s.stock
    courts, courts_at = s.courts, offsets["courts"]
    hands, hands_at = s.hands, offsets["hands"]
    top_at = offsets["top_card"]
    recent_at, ranking = offsets["recent_play"], _play_ranking(list(s.last_play))
    for q in range(s.players):
        r = rel[q]
        out[courts_at + r * 3:courts_at + r * 3 + 3] = courts[q * 3:q * 3 + 3]
        out[hands_at + r * NUM_CARDS:hands_at + (r + 1) * NUM_CARDS] = hands[q * NUM_CARDS:(q + 1) * NUM_CARDS]
        if s.tops[q] < FIRST_CUNNING:
            out[top_at + r * (NUM_CARDS + 1) + s.tops[q] + 1] = 1.0
        out[recent_at + r] = ranking[q]
    order_at, crowns_at, control_at = offsets["region_position"], offsets["crowns"], offsets["control"]
    for position, region in enumerate(s.order):
        out[order_at + region * NUM_REGIONS + position] = 1.0
    for region in range(NUM_REGIONS):
        if s.crowns[region] >= 0:
            out[crowns_at + region * MAX_SEATS + rel[s.crowns[region]]] = 1.0
        out[control_at + region * 6 + s.control[region] + 1] = 1.0
    if s.resolved < NUM_REGIONS and not over:
        out[offsets["contested"] + s.order[s.resolved]] = 1.0
    out[offsets["saxons"]] = saxons
    out[offsets["resolved"]] = s.resolved
    out[offsets["passes"]] = s.passes
    out[offsets["to_move"] + rel[s.player]] = 1.0
    out[offsets["seat"] + player] = 1.0
    out[offsets["players"] + s.players - 2] = 1.0
    out[offsets["mordred"]] = float(s.mordred)
    if s.undo_ban is not None:
        out[offsets["exchange_ban"] + rel[s.undo_ban[0]]] = 1.0


def observation_dict(vector: Sequence[float], edition: Edition = FIRST) -> dict[str, list]:
    """The observation split into its named fields (those of ``edition``'s game), each nested to its shape
    (for people and debugging)."""
    view: dict[str, list] = {}
    at = 0
    for field in fields(edition):
        flat: list = list(vector[at:at + field.size])
        at += field.size
        for dim in reversed(field.shape[1:]):
            flat = [flat[i:i + dim] for i in range(0, len(flat), dim)]
        view[field.name] = flat
    return view
