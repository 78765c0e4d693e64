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
from .board import CARDS, NUM_CARDS, Card
from .edition import FIRST, Edition
from .moves import NONE, PASS, IllegalMoveError, Move, make_move

if TYPE_CHECKING:
    from .state import GameState

KINDS = ("pass", "card", "region", "faction", "none")


class Choice(NamedTuple):
    """One step of a move: ``kind`` is one of KINDS, ``value`` a card, region or faction."""

    kind: str
    value: int = -1

    @property
    def label(self) -> str:
        """The choice's name in the first edition (:meth:`name` for another)."""
        return self.name(FIRST)

    def name(self, edition: Edition) -> str:
        """The choice's name in ``edition``: a card, region or faction name, or the kind."""
        if self.kind == "card":
            return edition.cards[self.value]
        if self.kind == "region":
            return edition.regions[self.value]
        if self.kind == "faction":
            return edition.factions[self.value]
        return self.kind


PASS_CHOICE = Choice("pass")


def step_kinds(card: int, length: int) -> str:
    """The kind of each step of ``card``'s action (``length`` steps): r a region, f a faction, x a region or none."""
    if card == Card.CROWN:
        return "rrr"
    if card in (Card.GARRISON, Card.AMBASSADOR):
        return "rffrf" if length == 5 else "rfrf"
    if card == Card.SETTLEMENTS:
        return "xxx"
    return "r" * length


def _mirrors(card: int, action: tuple[int, ...]) -> list[tuple[int, ...]]:
    """The action and its other spellings (unordered parts in the other order)."""
    if card == Card.CROWN and action:
        return [action, (action[1], action[0], action[2])]
    if card in (Card.GARRISON, Card.AMBASSADOR) and len(action) == 4:
        return [action, (action[2], action[3], action[0], action[1])]
    if card == Card.GARRISON and len(action) == 5 and action[1] != action[2]:
        return [action, (action[0], action[2], action[1], action[3], action[4])]
    if len(action) == 2 and card >= Card.SCOTS and action[0] != action[1]:
        return [action, (action[1], action[0])]
    return [action]


def _choice(kind: str, value: int) -> Choice:
    if kind == "x":
        return Choice("none") if value == NONE else Choice("region", value)
    return Choice("region" if kind == "r" else "faction", value)


def move_steps(move: Move) -> list[Choice]:
    """The choices that build ``move`` (in its canonical order)."""
    if move.card is None:
        return [PASS_CHOICE]
    kinds = step_kinds(move.card, len(move.action))
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

    # -- what may come next ------------------------------------------------------

    def options(self) -> list[Choice]:
        """The choices that can follow the steps so far (empty once the move is complete)."""
        s = self.state
        if s.is_over():
            return []
        if not self.steps:
            hand = s.hands[s.player * NUM_CARDS:(s.player + 1) * NUM_CARDS]
            # Every card in hand has an action (maybe the empty one); only the
            # last-card rule can leave a card with no winning move.
            cards = [c for c in range(NUM_CARDS) if hand[c] and (not self._last_card or self._card_actions(c))]
            return [PASS_CHOICE] + [Choice("card", c) for c in cards]
        first = self.steps[0]
        if first.kind == "pass":
            return []
        card = first.value
        actions = self._card_actions(card)
        length = len(actions[0])
        chosen = tuple(c.value if c.kind != "none" else NONE for c in self.steps[1:1 + length])
        if len(chosen) < length:
            kind = step_kinds(card, length)[len(chosen)]
            values = sorted({a[len(chosen)] for a in actions if a[:len(chosen)] == chosen})
            return [_choice(kind, v) for v in values]
        courts = self._courts(card, chosen)
        called = self.steps[1 + length:]
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
        length = len(self._card_actions(card)[0])
        values = [c.value if c.kind != "none" else NONE for c in self.steps[1:]]
        action = tuple(values[:length])
        court = (values[length], values[length + 1]) if len(values) > length else None
        return make_move(CARDS[card], action, court)

    # -- internals -----------------------------------------------------------------

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
        action = make_move(CARDS[card], chosen).action
        if self._last_card:
            return [m.court for m in self._winning_moves()
                    if m.card == card and m.action == action and m.court is not None]
        return engine.court_calls_after(self.state, card, action)
