"""An edition of the game as one value: its board, its cards, its ending and its rule switches.

Two editions exist. The first (Osprey Games, 2015) is the one the project's
rulebook describes: Scots, Welsh and Romano-British, Saxon invaders, Crown,
Garrison, Ambassador and Settlements cards, and the Mordred variant. The
second (Osprey Games, 2020, the one in print) is the same game on the same map
graph with other names (Moray to Devon; Scottish, Welsh, English), other card
names, instability discs from France in place of the Saxons, and a few rule
differences, each a switch below (see docs/rules.md, "The second edition").

Card kinds, regions and factions keep their numbers in both editions: card 0
is the Crown or Negotiate, 1 Garrison or Outmanoeuvre, 2 Ambassador or
Manoeuvre, 3 Settlements or Assemble, 4-6 the faction cards (Scots or
Scottish Support, and so on). Both engines read the same value: the compiled
core holds its own copy (``EDITIONS`` in core/src/board.rs), compared field
by field by the test suite, and a game state carries its edition
(:attr:`kingisdead.state.GameState.edition`).

The second edition's open points (see ../shared/rules/second-edition.md) are
game options with a default: :meth:`Edition.with_options`. Its advanced game
(each player's three Support cards swapped for three of twelve secret Cunning
cards) is the same edition in another mode, ``Edition.mode == "advanced"``,
with open points of its own (:data:`ADVANCED_OPTIONS`); for now only the
reference engine plays it (docs/rules.md, "The advanced game").
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from typing import Any


@dataclass(frozen=True, repr=False)
class Edition:
    """What one edition brings. Regions, factions and cards are numbered by their index here.

    Data:

    - ``regions``/``region_codes``: the regions' names and three-letter codes, in map order
    - ``borders``: the pairs of bordering regions (undirected)
    - ``homes``: each faction's home region, by faction
    - ``factions``/``faction_codes``: the follower kinds (the three factions, then the Loyalists)
    - ``cards``/``card_words``: the action cards' names, and the word naming each in the notation
    - ``card_copies``: how many of each card a player holds at the start
    - ``invaders``: who takes a region a struggle leaves without a ruler ("Saxons", "instability")
    - ``invasion``: tokens of theirs (Saxon tokens, instability discs) that end the game at once

    Rule switches (fixed by the edition):

    - ``mordred``: the Mordred variant exists
    - ``support_together``: a faction card places its followers in one region, not one each in two
    - ``ban_outlives_struggle``: a struggle's resolution does not lift the undo ban
    - ``ban_binds_card``: the undo ban binds only a card of the kind that made the exchange
    - ``hands_break_ties``: at a coronation, players still tied after the factions are parted by
      who emptied their hand first, then by whose last card play came earliest

    Options (the second edition's open points; the first edition's rulebook fixes them):

    - ``reversal``: ``"effect"`` (an exchange is undone when its change to the two regions is
      reversed, however spelled) or ``"exact"`` (only the literal reverse exchange)
    - ``court_redraw``: players whose two court followers clash redraw them at setup
    - ``tie_faction``: which factions a coronation tie compares after the top one: ``"second"``
      (the second edition's printed rule: the second faction only, then the hands), ``"strict"``
      (every next faction while the ranking is strict: the first edition's rule) or ``"always"``
      (every faction in turn, those without regions in faction order)
    - ``tie_hands``: ``"earliest"`` (as ``hands_break_ties`` says) or ``"lowest_seat"`` (where no
      tied player emptied their hand, the lowest tied seat instead of the earliest last play)
    - ``last_card``: ``"free"`` (any play of the last card is legal) or ``"must_win"`` (with 3
      players the last card of the game may only be played by a move that wins: the first
      edition's rule, see :func:`kingisdead.lastcard.last_card_applies`)

    The mode: ``mode`` is ``"standard"`` or, in the second edition, ``"advanced"`` (the Cunning
    cards, :data:`CUNNING_CARDS`), whose open points are the options of :data:`ADVANCED_OPTIONS`
    (the fields from ``spy_spy`` on; see ../shared/rules/second-edition.md, "The advanced game").
    """

    name: str
    regions: tuple[str, ...]
    region_codes: tuple[str, ...]
    borders: tuple[tuple[int, int], ...]
    homes: tuple[int, ...]
    factions: tuple[str, ...]
    faction_codes: tuple[str, ...]
    cards: tuple[str, ...]
    card_words: tuple[str, ...]
    card_copies: tuple[int, ...]
    invaders: str
    invasion: int
    mordred: bool
    support_together: bool
    ban_outlives_struggle: bool
    ban_binds_card: bool
    hands_break_ties: bool
    reversal: str = "effect"
    court_redraw: bool = False
    tie_faction: str = "second"
    tie_hands: str = "earliest"
    last_card: str = "free"
    mode: str = "standard"
    spy_spy: str = "forbidden"
    spy_negotiate: str = "own_disc"
    spy_ban: str = "as_card"
    spy_pile: str = "any"
    aid_tie: str = "choose"
    partial_rank: str = "most_followers"
    plot_coronation: str = "top_only"
    plot_team: str = "each"
    plot_tiebreak: str = "none"
    plot_empty_hand: str = "empty"
    cunning_ban: str = "none"

    @property
    def advanced(self) -> bool:
        """Whether this is the advanced game (secret Cunning cards)."""
        return self.mode == "advanced"

    def card_name(self, card: int) -> str:
        """The name of card number ``card``: 0-6 this edition's :attr:`cards`, 7-18 the Cunning cards
        (:data:`CUNNING_CARDS`); IndexError for another number."""
        return self.cards[card] if card < len(self.cards) else CUNNING_CARDS[card - len(self.cards)]

    def __hash__(self) -> int:
        """Computed once per object: a position's key (``GameState.key``) holds its edition, and hashing
        its thirty-four fields again for each position put in a set was a third of counting perft's distinct
        positions (tests/perft)."""
        cached: int | None = self.__dict__.get("_hash")
        if cached is None:
            cached = hash(tuple(getattr(self, field.name) for field in fields(self)))
            object.__setattr__(self, "_hash", cached)  # frozen: not a field, so neither compared nor repr'd
        return cached

    def __getstate__(self) -> dict[str, Any]:
        """Pickled without the cached hash: another process hashes strings differently."""
        return {name: value for name, value in self.__dict__.items() if name != "_hash"}

    def __repr__(self) -> str:
        """``Edition('second', reversal='exact')``: the name, the mode if advanced and the options that differ."""
        mode = ", mode='advanced'" if self.advanced else ""
        options = "".join(f", {name}={value!r}" for name, value in self.options().items())
        return f"Edition({self.name!r}{mode}{options})"

    def options(self) -> dict[str, Any]:
        """The options (the advanced game's included) whose value differs from the edition's default,
        by name (empty for the defaults)."""
        default = EDITIONS[self.name]
        return {name: getattr(self, name) for name in ALL_OPTIONS if getattr(self, name) != getattr(default, name)}

    def with_mode(self, mode: str) -> Edition:
        """This edition in ``mode``: ``"standard"`` or ``"advanced"`` (the second edition's Cunning cards).

        Raises ValueError for an unknown mode, the advanced mode of the first edition, and a standard
        mode that keeps an advanced option away from its default.
        """
        if mode not in MODES:
            raise ValueError(f"unknown mode {mode!r} (expected one of {', '.join(MODES)})")
        if mode == "advanced" and self.name != "second":
            raise ValueError(f"the {self.name} edition has no advanced game (the second edition's Cunning cards)")
        if mode == "standard" and any(getattr(self, o) != ADVANCED_OPTIONS[o][0] for o in ADVANCED_OPTIONS):
            raise ValueError("the advanced game's options need mode 'advanced'")
        return replace(self, mode=mode)

    def with_options(self, **options: Any) -> Edition:
        """This edition with some options set, e.g. ``SECOND.with_options(reversal="exact")``.

        Raises ValueError for an unknown option or value, and for any option of
        the first edition (its rulebook and rulings settle every point).
        """
        if not options:
            return self
        if self.name == "first":
            raise ValueError("the first edition has no options: its rulebook and rulings settle every point")
        for option, value in options.items():
            if option not in ALL_OPTIONS:
                raise ValueError(f"unknown option {option!r} (expected one of {', '.join(ALL_OPTIONS)})")
            if option in ADVANCED_OPTIONS and not self.advanced:
                raise ValueError(f"option {option} belongs to the advanced game (mode 'advanced')")
            if value not in ALL_OPTIONS[option] or type(value) is not type(ALL_OPTIONS[option][0]):
                allowed = ", ".join(repr(v) for v in ALL_OPTIONS[option])
                raise ValueError(f"option {option} cannot be {value!r} (expected one of {allowed})")
        return replace(self, **options)

    def to_dict(self) -> dict[str, Any]:
        """The edition as plain data (lists for tuples), as the compiled core returns it."""
        return {name: _plain(value) for name, value in asdict(self).items()}


def _plain(value: Any) -> Any:
    return [_plain(v) for v in value] if isinstance(value, tuple) else value


OPTIONS: dict[str, tuple[Any, ...]] = {
    "reversal": ("effect", "exact"),
    "court_redraw": (False, True),
    "tie_faction": ("second", "strict", "always"),
    "tie_hands": ("earliest", "lowest_seat"),
    "last_card": ("free", "must_win"),
}
"""The second edition's game options and their values, the default first."""

ADVANCED_OPTIONS: dict[str, tuple[str, ...]] = {
    "spy_spy": ("forbidden", "allowed"),
    "spy_negotiate": ("own_disc", "no_effect", "always"),
    "spy_ban": ("as_card", "free"),
    "spy_pile": ("any", "fullest"),
    "aid_tie": ("choose", "none"),
    "partial_rank": ("most_followers",),
    "plot_coronation": ("top_only", "any_faction"),
    "plot_team": ("each", "once"),
    "plot_tiebreak": ("none", "holder_first"),
    "plot_empty_hand": ("empty", "never"),
    "cunning_ban": ("none", "same_effect"),
}
"""The advanced game's open points (../shared/rules/second-edition.md, "The advanced game") and
their values, the default first: provisional, each described in docs/rules.md."""

ALL_OPTIONS: dict[str, tuple[Any, ...]] = {**OPTIONS, **ADVANCED_OPTIONS}
"""Every option an edition value can set."""

MODES = ("standard", "advanced")
"""The modes of a game: the advanced one is the second edition's game with Cunning cards."""

CUNNING_CARDS = ("Spy", "Aid", "Ambush", "Dispute", "Influence", "Edict", "March", "Resist", "Muster",
                 "Quell", "Suppress", "Plot")
"""The advanced game's twelve Cunning cards, card numbers 7 to 18 in this order
(:class:`kingisdead.board.Cunning`); each name is also its word in the notation."""

_BORDERS = ((0, 1), (1, 3), (1, 2), (3, 2), (3, 4), (3, 5), (2, 5), (2, 6), (4, 5), (4, 7), (5, 6), (5, 7), (6, 7))

FIRST = Edition(
    name="first",
    regions=("Caledonia", "Din Eidyn", "Eboracum", "Deva", "Caerleon", "Ratae", "Londinium", "Aquae Sulis"),
    region_codes=("Cal", "Din", "Ebo", "Dev", "Cae", "Rat", "Lon", "Aqu"),
    # Caledonia 0, Din Eidyn 1, Eboracum 2, Deva 3, Caerleon 4, Ratae 5, Londinium 6, Aquae Sulis 7.
    borders=_BORDERS,
    homes=(0, 4, 6),  # Scots: Caledonia, Welsh: Caerleon, Romano-British: Londinium
    factions=("Scots", "Welsh", "Romano-British", "Loyalists"),
    faction_codes=("S", "W", "R", "L"),
    cards=("Crown", "Garrison", "Ambassador", "Settlements", "Scots", "Welsh", "Romano-British"),
    card_words=("Crown", "Garrison", "Ambassador", "Settlements", "Scots", "Welsh", "Romano-British"),
    card_copies=(1, 1, 1, 2, 1, 1, 1),
    invaders="Saxons",
    invasion=4,
    mordred=True,
    support_together=False,
    ban_outlives_struggle=False,
    ban_binds_card=False,
    hands_break_ties=False,
    court_redraw=True,
    tie_faction="strict",
    last_card="must_win",
)
"""The first edition (Osprey Games, 2015): the project's rulebook."""

SECOND = Edition(
    name="second",
    regions=("Moray", "Strathclyde", "Northumbria", "Lancaster", "Gwynedd", "Warwick", "Essex", "Devon"),
    region_codes=("Mor", "Str", "Nor", "Lan", "Gwy", "War", "Ess", "Dev"),
    # The same map graph as the first edition's: Moray 0 ... Devon 7 (../shared/rules/second-edition.md).
    borders=_BORDERS,
    homes=(0, 4, 6),  # Scottish: Moray, Welsh: Gwynedd, English: Essex
    factions=("Scottish", "Welsh", "English", "Loyalists"),
    faction_codes=("S", "W", "E", "L"),
    cards=("Negotiate", "Outmanoeuvre", "Manoeuvre", "Assemble",
           "Scottish Support", "Welsh Support", "English Support"),
    card_words=("Negotiate", "Outmanoeuvre", "Manoeuvre", "Assemble", "Scottish", "Welsh", "English"),
    card_copies=(1, 1, 1, 2, 1, 1, 1),
    invaders="instability",
    invasion=3,
    mordred=False,
    support_together=True,
    ban_outlives_struggle=True,
    ban_binds_card=True,
    hands_break_ties=True,
)
"""The second edition (Osprey Games, 2020), with its options at their defaults."""

EDITIONS: dict[str, Edition] = {"first": FIRST, "second": SECOND}
"""The editions by name."""


def get_edition(edition: str | Edition = "first", mode: str | None = None, **options: Any) -> Edition:
    """The edition named ``edition`` (or the Edition given) in ``mode`` (None: the edition's own, for a
    name the standard game) with ``options`` set.

    Raises ValueError for an unknown edition, mode, option or option value, and for an advanced
    option outside the advanced mode.
    """
    if not isinstance(edition, Edition):
        if edition not in EDITIONS:
            raise ValueError(f"unknown edition {edition!r} (expected one of {', '.join(EDITIONS)})")
        edition = EDITIONS[edition]
    if mode is not None and mode != edition.mode:
        edition = edition.with_mode(mode)
    return edition.with_options(**options)


def read_edition(data: dict[str, Any], error: type[ValueError]) -> Edition:
    """The edition a position or record names (``"edition"``, ``"mode"``, ``"options"``; without them,
    the first edition's standard game); ``error`` is raised for an unknown edition, mode or option."""
    name = data.get("edition", "first")
    mode = data.get("mode", "standard")
    options = data.get("options", {})
    if not isinstance(name, str) or not isinstance(mode, str) or not isinstance(options, dict):
        raise error("edition and mode must be names and options an object")
    try:
        return get_edition(name, mode, **options)
    except ValueError as exc:
        raise error(str(exc)) from None
