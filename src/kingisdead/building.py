"""Building a move one choice at a time.

A browser or an RL agent cannot pick from ~18,000 moves at once; it picks a
card, then each region and faction the card needs, then the follower to call
to court. :class:`MoveBuilder` offers at each step only the choices that can
still be completed into a legal move, so a player is never led into a dead end.
Unordered choices (the two cards a Crown swaps, the two sides of an exchange,
the two regions of a faction card) may be picked in either order.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from . import engine
from .board import CUNNING, NUM_CARDS, Card, Cunning
from .edition import FIRST, Edition
from .moves import NONE, PASS, IllegalMoveError, Move, make_move

if TYPE_CHECKING:
    from .state import GameState

KINDS = ("pass", "card", "region", "faction", "none", "player")


class Choice(NamedTuple):
    """One step of a move: ``kind`` is one of KINDS, ``value`` a card, region, faction or player (a seat:
    the pile a Spy copies)."""

    kind: str
    value: int = -1

    @property
    def label(self) -> str:
        """The choice's name in the first edition (:meth:`name` for another)."""
        return self.name(FIRST)

    def name(self, edition: Edition) -> str:
        """The choice's name in ``edition``: a card, region or faction name, or the kind."""
        if self.kind == "card":
            return edition.card_name(self.value)
        if self.kind == "region":
            return edition.regions[self.value]
        if self.kind == "faction":
            return edition.factions[self.value]
        if self.kind == "player":
            return f"player {self.value + 1}"
        return self.kind


PASS_CHOICE = Choice("pass")


def step_kinds(card: int, length: int) -> str:
    """The kind of each step of a standard card's action (``length`` steps): r a region, f a faction,
    x a region or none (:func:`action_kinds` for every card)."""
    if card == Card.CROWN:
        return "rrr"
    if card in (Card.GARRISON, Card.AMBASSADOR):
        return "rffrf" if length == 5 else "rfrf"
    if card == Card.SETTLEMENTS:
        return "xxx"
    return "r" * length


_CUNNING_KINDS = {
    Cunning.AID: "fr", Cunning.AMBUSH: "rf", Cunning.DISPUTE: "rfrf", Cunning.SUPPRESS: "ryy",
    Cunning.INFLUENCE: "rffrf", Cunning.EDICT: "rffrff", Cunning.MARCH: "rffr",
}
"""The longest shape of each Cunning card's action (a shorter one is the same shape cut short, but for the
exchanges' 1-for-1 ``rfrf`` and March's ``rfr``)."""


def action_kinds(card: int, action: tuple[int, ...]) -> str:
    """The kind of each part of ``card``'s ``action``: r a region, f a faction, x a region or none, y a
    faction or none, p a player, c a card; a Spy's ``(seat, card, *action)`` is ``pc`` then the copied card's."""
    n = len(action)
    if card < Cunning.SPY:
        return "rrx" if card == Card.CROWN and n == 3 and action[2] == NONE else step_kinds(card, n)
    if card == Cunning.SPY:
        return ("pc" + action_kinds(action[1], action[2:]))[:n] if n >= 2 else "p"[:n]
    if n == 4 and card in (Cunning.DISPUTE, Cunning.INFLUENCE, Cunning.EDICT):
        return "rfrf"
    if n == 3 and card == Cunning.MARCH:
        return "rfr"
    return _CUNNING_KINDS.get(Cunning(card), "rff")[:n]  # Resist, Muster, Quell: a region, then the kinds placed


def _mirrors(card: int, action: tuple[int, ...]) -> list[tuple[int, ...]]:
    """The action and its other spellings (unordered parts in the other order)."""
    n = len(action)
    if card == Cunning.SPY and n > 2:
        return [action[:2] + copied for copied in _mirrors(action[1], action[2:])]
    if card == Card.CROWN and action:
        return [action, (action[1], action[0], action[2])]
    if n == 4 and card in (Card.GARRISON, Card.AMBASSADOR, Cunning.DISPUTE, Cunning.INFLUENCE, Cunning.EDICT):
        return [action, (action[2], action[3], action[0], action[1])]
    if n == 5 and card in (Card.GARRISON, Cunning.INFLUENCE, Cunning.EDICT) and action[1] != action[2]:
        return [action, (action[0], action[2], action[1], action[3], action[4])]
    if n == 6 and card == Cunning.EDICT and action[4] != action[5]:
        return [action, action[:4] + (action[5], action[4])]
    if n == 4 and card == Cunning.MARCH and action[1] != action[2]:
        return [action, (action[0], action[2], action[1], action[3])]
    if n == 3 and card in (Cunning.RESIST, Cunning.MUSTER, Cunning.QUELL) and action[1] != action[2]:
        return [action, (action[0], action[2], action[1])]
    if n == 2 and Card.SCOTS <= card <= Card.ROMANO_BRITISH and action[0] != action[1]:
        return [action, (action[1], action[0])]
    return [action]


_STEP = {"r": "region", "f": "faction", "p": "player", "c": "card"}


def _choice(kind: str, value: int) -> Choice:
    if kind in "xy":
        return Choice("none") if value == NONE else Choice("region" if kind == "x" else "faction", value)
    return Choice(_STEP[kind], value)


def move_steps(move: Move) -> list[Choice]:
    """The choices that build ``move`` (in its canonical order)."""
    if move.card is None:
        return [PASS_CHOICE]
    kinds = action_kinds(move.card, move.action)
    steps = [Choice("card", int(move.card))]
    steps += [_choice(kind, value) for kind, value in zip(kinds, move.action)]
    if move.court is not None:
        steps += [Choice("region", move.court[0]), Choice("faction", move.court[1])]
    return steps


ChoiceTable = dict[int, list[tuple[tuple[int, ...], tuple[tuple[int, int], ...]]]]
"""card -> [(a spelling of an action, the court calls that may follow it as (region, faction))]."""


def choice_table(state: GameState) -> ChoiceTable:
    """Every choice of every move the player to move has, for building a move without asking again.

    Each card that :class:`MoveBuilder` would offer maps to every spelling of
    each of its legal actions (both orders of unordered choices: see
    :func:`_mirrors`), each with the court calls that may follow it; no court
    calls means the action alone completes the move. The pass, always
    possible, is not listed. Empty once the game is over.
    """
    table: ChoiceTable = {}
    for card, action, court_calls in engine.legal_move_groups(state):
        table.setdefault(card, []).extend((spelling, court_calls) for spelling in _mirrors(card, action))
    return table


class MoveBuilder:
    """Builds a move for ``state`` step by step; the state itself is never changed."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.steps: list[Choice] = []
        self._last_card = engine.last_card_applies(state)
        self._winning: list[Move] | None = None
        self._actions: dict[int, list[tuple[int, ...]]] = {}
        self._beginning: dict[tuple[int, tuple[int, ...]], list[tuple[int, ...]]] = {}
        self._first_at: dict[int, dict[tuple[int, ...], int]] = {}

    # -- what may come next ------------------------------------------------------

    def options(self) -> list[Choice]:
        """The choices that can follow the steps so far (empty once the move is complete)."""
        s = self.state
        if s.is_over():
            return []
        if not self.steps:
            hand = s.hands[s.player * NUM_CARDS:(s.player + 1) * NUM_CARDS]
            cards = [c for c in range(NUM_CARDS) if hand[c]]
            held = s.cunning[s.player]
            cards += [c for i, c in enumerate(CUNNING) if held >> i & 1 and c != Cunning.PLOT]  # Plot is never played
            # Every card in hand has an action (maybe the empty one); only the
            # last-card rule can leave a card with no winning move.
            return [PASS_CHOICE] + [Choice("card", c) for c in cards if not self._last_card or self._card_actions(c)]
        first = self.steps[0]
        if first.kind == "pass":
            return []
        card = first.value
        values = self._values()
        chosen, longer = self._action(card, values)
        if longer:
            n = len(values)
            return [_choice(action_kinds(card, a)[n], a[n]) for a in longer]
        courts = self._courts(card, chosen)
        called = self.steps[1 + len(chosen):]
        if not courts or len(called) == 2:
            return []
        if not called:
            return [Choice("region", r) for r in sorted({r for r, _ in courts})]
        return [Choice("faction", f) for r, f in courts if r == called[0].value]

    @property
    def complete(self) -> bool:
        return bool(self.steps) and not self.options()

    def choose(self, choice: Choice) -> MoveBuilder:
        """Add a step; a choice that is not offered raises IllegalMoveError."""
        offered = self.options()
        if choice not in offered:
            edition = self.state.edition
            listed = ", ".join(c.name(edition) for c in offered) or "nothing (the move is complete)"
            raise IllegalMoveError(f"cannot choose {choice.name(edition)} here; the choices are: {listed}")
        self.steps.append(choice)
        return self

    def back(self) -> MoveBuilder:
        """Take back the last step (no-op at the start)."""
        if self.steps:
            self.steps.pop()
        return self

    def move(self) -> Move:
        """The finished move (raises if steps are still missing)."""
        if not self.complete:
            raise IllegalMoveError("the move is not complete yet")
        first = self.steps[0]
        if first.kind == "pass":
            return PASS
        card = first.value
        values = self._values()
        action, _ = self._action(card, values)
        length = len(action)
        court = (values[length], values[length + 1]) if len(values) > length else None
        return make_move(card, action, court)

    # -- internals -----------------------------------------------------------------

    def _values(self) -> tuple[int, ...]:
        """The values chosen after the card, NONE for a "none" step."""
        return tuple(c.value if c.kind != "none" else NONE for c in self.steps[1:])

    def _action(self, card: int, values: tuple[int, ...]) -> tuple[tuple[int, ...], list[tuple[int, ...]]]:
        """The action that ``values`` begin with (the court call comes after it), or, while ``values`` are only
        the start of actions, ``((), [one action for each next value, in order])``."""
        n = len(values)
        longer = {a[n]: a for a in self._beginning_with(card, values) if len(a) > n}
        if longer:
            return (), [longer[v] for v in sorted(longer)]
        # The first spelling, in the card's order, that ``values`` begin with: every one is some values[:k].
        first_at = self._first_at.get(card)
        if first_at is None:
            first_at = self._first_at[card] = {}
            for i, spelling in enumerate(self._card_actions(card)):
                first_at.setdefault(spelling, i)
        return min((values[:k] for k in range(n + 1) if values[:k] in first_at), key=first_at.__getitem__), []

    def _beginning_with(self, card: int, values: tuple[int, ...]) -> list[tuple[int, ...]]:
        """The spellings of ``card``'s actions that begin with ``values``, in order. Each is narrowed from the
        list for ``values`` less its last value and kept: a step then looks through the actions its earlier
        steps left, not through all of them (Settlements has about 10,000 at a game's start)."""
        key = (card, values)
        found = self._beginning.get(key)
        if found is None:
            if values:
                n, value = len(values) - 1, values[-1]
                found = [a for a in self._beginning_with(card, values[:-1]) if len(a) > n and a[n] == value]
            else:
                found = self._card_actions(card)
            self._beginning[key] = found
        return found

    def _winning_moves(self) -> list[Move]:
        if self._winning is None:
            self._winning = [m for m in self.state.legal_moves() if not m.is_pass]
        return self._winning

    def _card_actions(self, card: int) -> list[tuple[int, ...]]:
        """Every spelling of every legal action of ``card`` (empty if it cannot be played)."""
        if card not in self._actions:
            if self._last_card:
                canonical = list(dict.fromkeys(m.action for m in self._winning_moves() if m.card == card))
            else:
                canonical = self.state.card_actions(card)
            self._actions[card] = [spelling for a in canonical for spelling in _mirrors(card, a)]
        return self._actions[card]

    def _courts(self, card: int, chosen: tuple[int, ...]) -> list[tuple[int, int]]:
        action = make_move(card, chosen).action
        if self._last_card:
            return [m.court for m in self._winning_moves()
                    if m.card == card and m.action == action and m.court is not None]
        return engine.court_calls_after(self.state, card, action)
