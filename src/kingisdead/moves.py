"""Moves as values, and their text notation.

A move is either a pass or one action card played with its choices and the
follower then called to court. Moves are plain tuples (cheap to create, hash
and compare), normalised so that one action has exactly one spelling.

Notation (see docs/notation.md)::

    pass
    Crown Dev<>Lon *Lon +Ebo:W
    Garrison Dev:SW>Ebo:R +Ebo:S
    Ambassador Cal:S<>Lon:R +Lon:S
    Settlements S>Lon W>Dev R>Lon +Dev:W
    Scots Din Din +Cal:S

The second edition has the same grammar with its own words and codes
(:class:`kingisdead.edition.Edition`'s ``card_words``, ``region_codes`` and
``faction_codes``), e.g. ``Outmanoeuvre Lan:SW>Nor:E +Nor:S`` or
``Scottish Str Str +Mor:S``: pass the edition to :func:`format_move` and
:func:`parse_move`.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from .board import FACTION_CARD, Card, Cunning, card_kind
from .edition import FIRST, Edition

NONE = -1
"""Placeholder in a Settlements action for a faction that had no follower in stock."""


class IllegalMoveError(ValueError):
    """A move that the rules forbid in the position it was offered in.

    The message names the rule that is broken; the state is left unchanged.
    """


class NotationError(ValueError):
    """Text that is not a move in the notation (whatever the position)."""


class Move(NamedTuple):
    """One turn: a pass (``card is None``) or a card with its action and court call.

    ``action`` holds the card's choices as small integers (regions and factions):

    - Crown: ``(a, b, crowned)``: swap the cards of regions a < b, crown one of them;
      ``()`` when fewer than two cards can be swapped.
    - Garrison: ``(a, f1, f2, b, g)``: f1 and f2 leave a for b, g leaves b for a;
      ``(a, f, b, g)`` for the one-for-one fallback (a < b); ``()`` for no exchange.
    - Ambassador: ``(a, f, b, g)``: f leaves a for b, g leaves b for a (a < b); ``()``.
    - Settlements: ``(rS, rW, rR)``: the region for each faction, NONE if skipped.
    - Scots, Welsh, Romano-British: the sorted regions receiving a follower (0-2).

    ``court`` is ``(region, faction)`` or None when no follower could be called.
    """

    card: Card | Cunning | None
    action: tuple[int, ...] = ()
    court: tuple[int, int] | None = None

    @property
    def is_pass(self) -> bool:
        return self.card is None

    def __str__(self) -> str:
        return format_move(self)


PASS = Move(None)


def normalise(card: Card | Cunning, action: tuple[int, ...]) -> tuple[int, ...]:
    """The canonical spelling of an action whose parts are unordered."""
    if card is Card.CROWN and len(action) == 3 and action[0] > action[1]:
        return (action[1], action[0], action[2])
    if card in (Card.GARRISON, Card.AMBASSADOR) and len(action) == 4 and action[0] > action[2]:
        return (action[2], action[3], action[0], action[1])
    if card is Card.GARRISON and len(action) == 5 and action[1] > action[2]:
        return (action[0], action[2], action[1], action[3], action[4])
    if card in FACTION_CARD and len(action) == 2 and action[0] > action[1]:
        return (action[1], action[0])
    return action


def make_move(card: int | None, action: tuple[int, ...] = (), court: tuple[int, int] | None = None) -> Move:
    """Build a move, normalising the order of unordered choices (ValueError for an unknown card number)."""
    if card is None:
        return PASS
    kind = card_kind(card)
    return Move(kind, normalise(kind, tuple(action)), court)


def format_move(move: Move, edition: Edition = FIRST) -> str:
    """The move in ``edition``'s text notation (the inverse of :func:`parse_move`)."""
    if move.card is None:
        return "pass"
    REGION_CODES, FACTION_CODES = edition.region_codes, edition.faction_codes  # noqa: N806

    def _follower(region: int, faction: int) -> str:
        return f"{REGION_CODES[region]}:{FACTION_CODES[faction]}"

    card, a = move.card, move.action
    parts = [edition.card_words[card]]
    if card is Card.CROWN and a:
        parts += [f"{REGION_CODES[a[0]]}<>{REGION_CODES[a[1]]}", "*" + REGION_CODES[a[2]]]
    elif card is Card.GARRISON and len(a) == 5:
        parts.append(
            f"{REGION_CODES[a[0]]}:{FACTION_CODES[a[1]]}{FACTION_CODES[a[2]]}>{_follower(a[3], a[4])}"
        )
    elif card in (Card.GARRISON, Card.AMBASSADOR) and a:
        parts.append(f"{_follower(a[0], a[1])}<>{_follower(a[2], a[3])}")
    elif card is Card.SETTLEMENTS:
        parts += [f"{FACTION_CODES[f]}>{REGION_CODES[r]}" for f, r in enumerate(a) if r != NONE]
    elif card in FACTION_CARD:
        parts += [REGION_CODES[r] for r in a]
    if move.court is not None:
        parts.append("+" + _follower(*move.court))
    return " ".join(parts)


_FOLLOWER = r"([A-Za-z]{3}):([A-Za-z])"
_GARRISON_2 = re.compile(r"([A-Za-z]{3}):([A-Za-z])([A-Za-z])>" + _FOLLOWER + "$")
_SWAP_1 = re.compile(_FOLLOWER + "<>" + _FOLLOWER + "$")
_CROWN_SWAP = re.compile(r"([A-Za-z]{3})<>([A-Za-z]{3})$")
_FOLLOWER_ONLY = re.compile(_FOLLOWER + "$")
_SETTLE = re.compile(r"([A-Za-z])>([A-Za-z]{3})$")


def parse_move(text: str, edition: Edition = FIRST) -> Move:
    """Read a move written in ``edition``'s notation of :func:`format_move`.

    Parsing needs no position: it checks the syntax only. Whether the move is
    legal is the state's business (:meth:`GameState.apply` says why not).
    Card words are read in any case, with '-', '_' or a space alike; codes in any case.
    """
    try:
        return _parse(text, edition)
    except NotationError:
        raise
    except ValueError as exc:
        raise NotationError(f"cannot read move {text!r}: {exc}") from None


def _lookup(text: str, names: tuple[str, ...], what: str, full: tuple[str, ...] = ()) -> int:
    """The index of ``text`` among ``names`` (or the ``full`` names), in any case."""
    key = text.strip().lower().replace("_", "-").replace(" ", "-")
    for table in (names, full):
        for index, name in enumerate(table):
            if key == name.lower().replace(" ", "-"):
                return index
    raise ValueError(f"unknown {what} {text!r} (expected one of {', '.join(names)})")


def _parse(text: str, edition: Edition) -> Move:
    def card_by_name(word: str) -> Card:
        return Card(_lookup(word, edition.card_words, "card"))

    def region_by_code(word: str) -> int:
        return _lookup(word, edition.region_codes, "region", edition.regions)

    def faction_by_code(word: str) -> int:
        return _lookup(word, edition.faction_codes, "faction", edition.factions)

    title = edition.card_words
    words = text.split()
    if not words:
        raise NotationError("empty move")
    if len(words) == 1 and words[0].lower() == "pass":
        return PASS
    card = card_by_name(words[0])
    rest = words[1:]
    court = None
    if rest and rest[-1].startswith("+"):
        m = _FOLLOWER_ONLY.match(rest.pop()[1:])
        if not m:
            raise NotationError(f"court call in {text!r} must look like +Ebo:W")
        court = (region_by_code(m[1]), faction_by_code(m[2]))
    action: tuple[int, ...] = ()
    if card is Card.CROWN and rest:
        if len(rest) != 2 or not _CROWN_SWAP.match(rest[0]) or not rest[1].startswith("*"):
            raise NotationError(f"{title[card]} takes 'A<>B *C', got {' '.join(rest)!r}")
        m = _CROWN_SWAP.match(rest[0])
        assert m is not None
        action = (region_by_code(m[1]), region_by_code(m[2]), region_by_code(rest[1][1:]))
    elif card in (Card.GARRISON, Card.AMBASSADOR) and rest:
        if len(rest) != 1:
            raise NotationError(f"{title[card]} takes one exchange, got {' '.join(rest)!r}")
        m2 = _GARRISON_2.match(rest[0]) if card is Card.GARRISON else None
        m1 = _SWAP_1.match(rest[0])
        if m2:
            action = (region_by_code(m2[1]), faction_by_code(m2[2]), faction_by_code(m2[3]),
                      region_by_code(m2[4]), faction_by_code(m2[5]))
        elif m1:
            action = (region_by_code(m1[1]), faction_by_code(m1[2]),
                      region_by_code(m1[3]), faction_by_code(m1[4]))
        else:
            shape = "'Dev:SW>Ebo:R' or 'Dev:S<>Ebo:R'" if card is Card.GARRISON else "'Cal:S<>Lon:R'"
            raise NotationError(f"{title[card]} exchange must look like {shape}, got {rest[0]!r}")
    elif card is Card.SETTLEMENTS:
        regions = [NONE, NONE, NONE]
        for word in rest:
            m = _SETTLE.match(word)
            if not m:
                raise NotationError(f"{title[card]} placements look like 'S>{edition.region_codes[6]}', got {word!r}")
            faction = faction_by_code(m[1])
            if faction > 2 or regions[faction] != NONE:
                raise NotationError(f"{title[card]} places one {', '.join(edition.factions[:2])} and "
                                    f"{edition.factions[2]} follower each, got {word!r}")
            regions[faction] = region_by_code(m[2])
        action = tuple(regions)
    elif card in FACTION_CARD:
        if len(rest) > 2:
            raise NotationError(f"{title[card]} places at most 2 followers, got {' '.join(rest)!r}")
        action = tuple(region_by_code(word) for word in rest)
    elif rest:
        raise NotationError(f"unexpected {' '.join(rest)!r} after {title[card]}")
    return make_move(card, action, court)
