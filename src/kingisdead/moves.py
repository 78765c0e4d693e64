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
:func:`parse_move`. Its advanced game adds the twelve Cunning cards
(:data:`kingisdead.edition.CUNNING_CARDS`), e.g. ``Edict Mor:SS<>Str:WE +Str:S``
or ``Spy @1 Manoeuvre Mor:S<>Str:W +Str:S``.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from .board import FACTION_CARD, FIRST_CUNNING, Card, Cunning, Faction, card_kind
from .edition import CUNNING_CARDS, FIRST, SECOND, Edition

NONE = -1
"""Placeholder for a part of an action that could not happen: a Settlements faction that had no
follower in stock, a spied Negotiate's disc, a Suppress return or placement."""


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

    The advanced game's Cunning cards (f1 <= f2 wherever two kinds go together; ``()``
    for a card with no effect; see docs/notation.md):

    - Spy: ``(seat, card, *copied)``: the top card of ``seat``'s pile and its action
      (a spied Negotiate without a disc: ``(seat, 0, a, b, NONE)``; a spied Spy: ``(seat, 7)``).
    - Aid: ``(faction, region)``. Ambush: ``(region, returned)``.
    - Dispute: ``(a, f, b, g)`` a < b. Influence: ``(b, g1, g2, a, e)`` or ``(a, f, b, g)``.
    - Edict: ``(a, s1, s2, b, g1, g2)``, ``(x, f1, f2, y, g)`` or ``(a, f, b, g)``.
    - March: ``(a, f1, f2, b)`` or ``(a, f, b)``.
    - Resist, Muster, Quell: ``(r, f1, f2)``, ``(r, f)``, and for Muster and Quell ``(r,)``.
    - Suppress: ``(r, returned, placed)``, NONE for a part that cannot happen. Plot: ``()``.

    ``court`` is ``(region, faction)`` or None when no follower could be called.
    """

    card: Card | Cunning | None
    action: tuple[int, ...] = ()
    court: tuple[int, int] | None = None

    @property
    def is_pass(self) -> bool:
        return self.card is None

    def __str__(self) -> str:
        """The first edition's spelling; a Cunning card's move in the advanced game's, the only one it has."""
        return format_move(self, _ADVANCED if isinstance(self.card, Cunning) else FIRST)


PASS = Move(None)

_ADVANCED = SECOND.with_mode("advanced")
_ADVANCED_ONLY = "is a Cunning card: the Cunning cards belong to the advanced game (the second edition's mode 'advanced')"

_SCOTS_PAIR = (Faction.SCOTS, Faction.SCOTS)
"""Two Scottish followers (faction 0 in both editions)."""
_ONE_FOR_ONE = (Card.GARRISON, Card.AMBASSADOR, Cunning.DISPUTE, Cunning.INFLUENCE, Cunning.EDICT)
"""The cards whose 4-part action ``(a, f, b, g)`` exchanges two followers, written with a < b."""
_PAIR_AT_1 = {5: (Card.GARRISON, Cunning.INFLUENCE, Cunning.EDICT), 4: (Cunning.MARCH,),
              3: (Cunning.RESIST, Cunning.MUSTER, Cunning.QUELL)}
"""By action length, the cards whose action's parts 1 and 2 are two kinds going together."""


def normalise(card: Card | Cunning, action: tuple[int, ...]) -> tuple[int, ...]:
    """The canonical spelling of an action whose parts are unordered.

    Two regions swapping cards or one follower each are written lowest first, two kinds going
    together in faction order, an Edict's two Scots before the two followers they swap
    with; a Spy's copied action as that card's.
    """
    n = len(action)
    if card is Cunning.SPY and n >= 2:
        return action[:2] + normalise(card_kind(action[1]), action[2:])
    if card is Card.CROWN and n == 3 and action[0] > action[1]:
        return (action[1], action[0], action[2])
    if card in _ONE_FOR_ONE and n == 4 and action[0] > action[2]:
        return (action[2], action[3], action[0], action[1])
    if card in _PAIR_AT_1.get(n, ()) and action[1] > action[2]:
        return (action[0], action[2], action[1], *action[3:])
    if card in FACTION_CARD and n == 2 and action[0] > action[1]:
        return (action[1], action[0])
    if card is Cunning.EDICT and n == 6:
        a, f1, f2, b, g1, g2 = action
        if (g1, g2) == _SCOTS_PAIR != (f1, f2):  # the two Scots written second
            a, f1, f2, b, g1, g2 = b, g1, g2, a, f1, f2
        return (a, min(f1, f2), max(f1, f2), b, min(g1, g2), max(g1, g2))
    return action


def make_move(card: int | None, action: tuple[int, ...] = (), court: tuple[int, int] | None = None) -> Move:
    """Build a move, normalising the order of unordered choices (ValueError for an unknown card number)."""
    if card is None:
        return PASS
    kind = card_kind(card)
    return Move(kind, normalise(kind, tuple(action)), court)


class _Shape(NamedTuple):
    """One way of writing a Cunning card's action, made from an example such as ``Mor:SS<>Str:WE``."""

    example: str
    pattern: re.Pattern[str]
    template: str
    slots: str
    """What each part of the action is, in order: ``r`` a region, ``f`` a faction."""


def _shape(example: str) -> _Shape:
    """The shape of ``example``: its three-letter words are regions, its capitals factions, the rest is kept."""
    pattern, template, slots = "", "", ""
    for token in re.findall(r"[A-Z][a-z]{2}|[A-Z]|[^A-Za-z]+", example):
        if len(token) == 3 and token.isalpha():
            pattern, template, slots = pattern + r"([A-Za-z]{3})", template + "{}", slots + "r"
        elif token.isalpha():
            pattern, template, slots = pattern + r"([A-Za-z])", template + "{}", slots + "f"
        else:
            pattern, template = pattern + re.escape(token), template + token
    return _Shape(example, re.compile(pattern + "$"), template, slots)


_CUNNING_EXAMPLES = {
    Cunning.AID: ("S>Lan",),
    Cunning.AMBUSH: ("Lan -W",),
    Cunning.DISPUTE: ("Str:W<>Lan:E",),
    Cunning.INFLUENCE: ("Lan:SW>Nor:E", "Str:E<>Lan:S"),
    Cunning.EDICT: ("Mor:SS<>Str:WE", "Mor:SS>Str:W", "Mor:S<>Str:W"),
    Cunning.MARCH: ("Lan:SW>Nor", "Lan:S>Nor"),
    Cunning.RESIST: ("Str:WE", "Str:W"),
    Cunning.MUSTER: ("Str:WE", "Str:W", "Str"),
    Cunning.QUELL: ("Gwy:SE", "Gwy:S", "Gwy"),
}
"""Each Cunning card's ways of writing its action, one per action length, by example (but Spy's and Suppress's)."""
_CUNNING_SHAPES: dict[int, tuple[_Shape, ...]] = {
    card: tuple(map(_shape, examples)) for card, examples in _CUNNING_EXAMPLES.items()}

_SUPPRESS = re.compile(r"([A-Za-z]{3})(?: -([A-Za-z]))?(?: ([A-Za-z]))?$")
_SEAT = re.compile(r"@(\d+)$")


def _card_word(card: Card | Cunning, edition: Edition) -> str:
    """The word naming ``card`` in ``edition``'s notation (ValueError for a Cunning card outside the advanced game)."""
    if card < FIRST_CUNNING:
        return edition.card_words[card]
    if not edition.advanced:
        raise ValueError(f"{CUNNING_CARDS[card - FIRST_CUNNING]} {_ADVANCED_ONLY}")
    return CUNNING_CARDS[card - FIRST_CUNNING]


def format_move(move: Move, edition: Edition = FIRST) -> str:
    """The move in ``edition``'s text notation (the inverse of :func:`parse_move`).

    Raises ValueError for a Cunning card outside the advanced game, or an action of no shape of its card.
    """
    if move.card is None:
        return "pass"
    parts = [_card_word(move.card, edition), *_format_action(move.card, move.action, edition)]
    if move.court is not None:
        region, faction = move.court
        parts.append(f"+{edition.region_codes[region]}:{edition.faction_codes[faction]}")
    return " ".join(parts)


def _format_action(card: Card | Cunning, a: tuple[int, ...], edition: Edition) -> list[str]:
    """The words after the card's: its action as written (none for ``()``)."""
    REGION_CODES, FACTION_CODES = edition.region_codes, edition.faction_codes  # noqa: N806

    def _follower(region: int, faction: int) -> str:
        return f"{REGION_CODES[region]}:{FACTION_CODES[faction]}"

    if card is Card.CROWN and a:
        disc = ["*" + REGION_CODES[a[2]]] if a[2] != NONE else []  # NONE: a spied Negotiate's swap only
        return [f"{REGION_CODES[a[0]]}<>{REGION_CODES[a[1]]}", *disc]
    if card is Card.GARRISON and len(a) == 5:
        return [f"{REGION_CODES[a[0]]}:{FACTION_CODES[a[1]]}{FACTION_CODES[a[2]]}>{_follower(a[3], a[4])}"]
    if card in (Card.GARRISON, Card.AMBASSADOR) and a:
        return [f"{_follower(a[0], a[1])}<>{_follower(a[2], a[3])}"]
    if card is Card.SETTLEMENTS:
        return [f"{FACTION_CODES[f]}>{REGION_CODES[r]}" for f, r in enumerate(a) if r != NONE]
    if card in FACTION_CARD:
        return [REGION_CODES[r] for r in a]
    if not a:
        return []
    if card is Cunning.SPY and len(a) >= 2:
        copied = card_kind(a[1])
        return [f"@{a[0]}", _card_word(copied, edition), *_format_action(copied, a[2:], edition)]
    if card is Cunning.SUPPRESS and len(a) == 3:
        region, returned, placed = a
        return ([REGION_CODES[region]] + (["-" + FACTION_CODES[returned]] if returned != NONE else [])
                + ([FACTION_CODES[placed]] if placed != NONE else []))
    for shape in _CUNNING_SHAPES.get(card, ()):
        if len(shape.slots) == len(a):
            codes = (REGION_CODES[x] if slot == "r" else FACTION_CODES[x] for slot, x in zip(shape.slots, a))
            return shape.template.format(*codes).split(" ")
    raise ValueError(f"{_card_word(card, edition)} has no action of {len(a)} parts: {a}")


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
    The Cunning cards' words are known to the advanced game only.
    """
    try:
        return _parse(text, edition)
    except NotationError:
        raise
    except ValueError as exc:
        raise NotationError(f"cannot read move {text!r}: {exc}") from None


def _key(text: str) -> str:
    """A name as compared: in any case, with '-', '_' or a space alike."""
    return text.strip().lower().replace("_", "-").replace(" ", "-")


def _lookup(text: str, names: tuple[str, ...], what: str, full: tuple[str, ...] = ()) -> int:
    """The index of ``text`` among ``names`` (or the ``full`` names), in any case."""
    key = _key(text)
    for table in (names, full):
        for index, name in enumerate(table):
            if key == _key(name):
                return index
    raise ValueError(f"unknown {what} {text!r} (expected one of {', '.join(names)})")


def _card(word: str, edition: Edition) -> Card | Cunning:
    """The card ``word`` names in ``edition``'s notation (the Cunning cards' words in the advanced game only)."""
    if edition.advanced:
        return card_kind(_lookup(word, edition.card_words + CUNNING_CARDS, "card"))
    if _key(word) in map(_key, CUNNING_CARDS):
        raise ValueError(f"{word} {_ADVANCED_ONLY}")
    return Card(_lookup(word, edition.card_words, "card"))


def _region(word: str, edition: Edition) -> int:
    return _lookup(word, edition.region_codes, "region", edition.regions)


def _faction(word: str, edition: Edition) -> int:
    return _lookup(word, edition.faction_codes, "faction", edition.factions)


def _parse(text: str, edition: Edition) -> Move:
    words = text.split()
    if not words:
        raise NotationError("empty move")
    if len(words) == 1 and words[0].lower() == "pass":
        return PASS
    card = _card(words[0], edition)
    rest = words[1:]
    court = None
    if rest and rest[-1].startswith("+"):
        m = _FOLLOWER_ONLY.match(rest.pop()[1:])
        if not m:
            raise NotationError(f"court call in {text!r} must look like +Ebo:W")
        court = (_region(m[1], edition), _faction(m[2], edition))
    return make_move(card, _parse_action(card, rest, edition), court)


def _parse_action(card: Card | Cunning, rest: list[str], edition: Edition, spied: bool = False) -> tuple[int, ...]:
    """The action written by the words ``rest`` after the card's (``spied``: a card a Spy copies)."""
    def region(word: str) -> int:
        return _region(word, edition)

    def faction(word: str) -> int:
        return _faction(word, edition)

    title = _card_word(card, edition)
    if card is Card.CROWN and rest:
        m = _CROWN_SWAP.match(rest[0])
        if spied and m and len(rest) == 1:  # a spied Negotiate without a disc to place swaps only
            return (region(m[1]), region(m[2]), NONE)
        if len(rest) != 2 or not m or not rest[1].startswith("*"):
            ways = "'A<>B *C' or, without a disc, 'A<>B'" if spied else "'A<>B *C'"
            raise NotationError(f"{title} takes {ways}, got {' '.join(rest)!r}")
        return (region(m[1]), region(m[2]), region(rest[1][1:]))
    if card in (Card.GARRISON, Card.AMBASSADOR) and rest:
        if len(rest) != 1:
            raise NotationError(f"{title} takes one exchange, got {' '.join(rest)!r}")
        m2 = _GARRISON_2.match(rest[0]) if card is Card.GARRISON else None
        m1 = _SWAP_1.match(rest[0])
        if m2:
            return (region(m2[1]), faction(m2[2]), faction(m2[3]), region(m2[4]), faction(m2[5]))
        if m1:
            return (region(m1[1]), faction(m1[2]), region(m1[3]), faction(m1[4]))
        shape = "'Dev:SW>Ebo:R' or 'Dev:S<>Ebo:R'" if card is Card.GARRISON else "'Cal:S<>Lon:R'"
        raise NotationError(f"{title} exchange must look like {shape}, got {rest[0]!r}")
    if card is Card.SETTLEMENTS:
        regions = [NONE, NONE, NONE]
        for word in rest:
            m = _SETTLE.match(word)
            if not m:
                raise NotationError(f"{title} placements look like 'S>{edition.region_codes[6]}', got {word!r}")
            f = faction(m[1])
            if f > 2 or regions[f] != NONE:
                raise NotationError(f"{title} places one {', '.join(edition.factions[:2])} and "
                                    f"{edition.factions[2]} follower each, got {word!r}")
            regions[f] = region(m[2])
        return tuple(regions)
    if card in FACTION_CARD:
        if len(rest) > 2:
            raise NotationError(f"{title} places at most 2 followers, got {' '.join(rest)!r}")
        return tuple(region(word) for word in rest)
    if not rest:
        return ()
    written = " ".join(rest)
    if card is Cunning.SPY:
        return _parse_spy(rest, edition)
    if card is Cunning.SUPPRESS:
        m = _SUPPRESS.match(written)
        if not m:
            raise NotationError(f"{title} takes 'Ess -W E', 'Ess -W', 'Ess E' or 'Ess', got {written!r}")
        return (region(m[1]), faction(m[2]) if m[2] else NONE, faction(m[3]) if m[3] else NONE)
    shapes = _CUNNING_SHAPES.get(card, ())
    for way in shapes:
        m = way.pattern.match(written)
        if m:
            return tuple(region(w) if slot == "r" else faction(w) for slot, w in zip(way.slots, m.groups()))
    if not shapes:
        raise NotationError(f"unexpected {written!r} after {title}")
    examples = [f"'{way.example}'" for way in shapes]
    ways = examples[0] if len(examples) == 1 else ", ".join(examples[:-1]) + " or " + examples[-1]
    raise NotationError(f"{title} takes {ways}, got {written!r}")


def _parse_spy(rest: list[str], edition: Edition) -> tuple[int, ...]:
    """A Spy's action from ``@seat``, the copied card's word and that card's action."""
    if len(rest) < 2 or not rest[0].startswith("@"):
        raise NotationError("Spy takes '@seat' then the spied card and its action, "
                            f"e.g. 'Spy @1 Manoeuvre Mor:S<>Str:W', got {' '.join(rest)!r}")
    seat = _SEAT.match(rest[0])
    if not seat:
        raise NotationError(f"Spy's seat is a number after '@' (0-based, as in positions), got {rest[0]!r}")
    copied = _card(rest[1], edition)
    if copied is Cunning.SPY and rest[2:]:
        raise NotationError(f"a spied Spy copies nothing further, got {' '.join(rest[2:])!r} after it")
    return (int(seat[1]), copied, *_parse_action(copied, rest[2:], edition, spied=True))
