"""The fixed data of the game: regions, borders, factions, cards.

Everything the rules need to know about the physical board lives here; the
map, the cards and the ending constant come from the first edition's value
(:data:`kingisdead.edition.FIRST`), so a corrected map is a one-line change
there (and in core/src/board.rs). Regions and factions are small integers
because the engine keeps its state in flat integer lists (cheap to copy, and
easy for a compiled core to share).
"""

from __future__ import annotations

from enum import IntEnum

from .edition import CUNNING_CARDS, FIRST


class Region(IntEnum):
    """The eight regions of Britain, numbered north to south."""

    CALEDONIA = 0
    DIN_EIDYN = 1
    EBORACUM = 2
    DEVA = 3
    CAERLEON = 4
    RATAE = 5
    LONDINIUM = 6
    AQUAE_SULIS = 7

    @property
    def title(self) -> str:
        return REGION_NAMES[self]

    @property
    def code(self) -> str:
        return REGION_CODES[self]


class Faction(IntEnum):
    """The three factions, plus the Loyalists of the Mordred variant."""

    SCOTS = 0
    WELSH = 1
    ROMANO_BRITISH = 2
    LOYALISTS = 3

    @property
    def title(self) -> str:
        return FACTION_NAMES[self]

    @property
    def code(self) -> str:
        return FACTION_CODES[self]


class Card(IntEnum):
    """The kinds of action card. Every player holds one of each, Settlements twice."""

    CROWN = 0
    GARRISON = 1
    AMBASSADOR = 2
    SETTLEMENTS = 3
    SCOTS = 4
    WELSH = 5
    ROMANO_BRITISH = 6

    @property
    def title(self) -> str:
        return CARD_NAMES[self]


class Cunning(IntEnum):
    """The advanced game's twelve Cunning cards (second edition), one copy of each in the game.

    They are card numbers 7 to 18, after the seven :class:`Card` kinds, so that a move's card
    and a pile's top card are one small integer in both modes.
    """

    SPY = 7
    AID = 8
    AMBUSH = 9
    DISPUTE = 10
    INFLUENCE = 11
    EDICT = 12
    MARCH = 13
    RESIST = 14
    MUSTER = 15
    QUELL = 16
    SUPPRESS = 17
    PLOT = 18

    @property
    def title(self) -> str:
        return CUNNING_CARDS[self - FIRST_CUNNING]


REGIONS = tuple(Region)
FACTIONS = (Faction.SCOTS, Faction.WELSH, Faction.ROMANO_BRITISH)
"""The three factions that can be called to court (Loyalists never can)."""
CARDS = tuple(Card)

NUM_REGIONS = 8
NUM_FACTIONS = 3
NUM_KINDS = 4
"""Follower kinds on the board: the three factions and the Loyalists."""
NUM_CARDS = 7
"""Card kinds of the standard game: the stride of ``GameState.hands``."""
FIRST_CUNNING = 7
"""The card number of the first Cunning card (:class:`Cunning`)."""
NUM_CUNNING = 12
CUNNING = tuple(Cunning)
SUPPORT_CARDS = (Card.SCOTS, Card.WELSH, Card.ROMANO_BRITISH)
"""The faction cards (the second edition's Support cards), which the advanced game puts back in the box."""
CUNNING_DEALT = 3
"""Cunning cards dealt to each player in the advanced game."""


def card_kind(number: int) -> Card | Cunning:
    """The card a card number names (0-6 :class:`Card`, 7-18 :class:`Cunning`); ValueError otherwise."""
    return Card(number) if number < FIRST_CUNNING else Cunning(number)

# The map and the cards of the first edition (kingisdead.edition.FIRST), as the rules use them.
REGION_NAMES = FIRST.regions
REGION_CODES = FIRST.region_codes
FACTION_NAMES = FIRST.factions
FACTION_CODES = FIRST.faction_codes
CARD_NAMES = FIRST.cards

BORDERS: tuple[tuple[Region, Region], ...] = tuple((Region(a), Region(b)) for a, b in FIRST.borders)

HOMES: tuple[Region, ...] = tuple(Region(r) for r in FIRST.homes)
"""Home region of each faction, indexed by faction."""

MORDRED_FLAGS: tuple[Region, ...] = (
    Region.AQUAE_SULIS,  # Caledonia
    Region.AQUAE_SULIS,  # Din Eidyn
    Region.DIN_EIDYN,    # Eboracum
    Region.AQUAE_SULIS,  # Deva
    Region.DIN_EIDYN,    # Caerleon
    Region.AQUAE_SULIS,  # Ratae
    Region.DIN_EIDYN,    # Londinium
    Region.DIN_EIDYN,    # Aquae Sulis
)
"""Where a Loyalist is added after resolving each region (Mordred variant)."""

MORDRED_START = (Region.DIN_EIDYN, Region.AQUAE_SULIS)
"""Regions that start with one Loyalist in the Mordred variant."""

FOLLOWERS_PER_FACTION = 18
LOYALISTS_TOTAL = 9
REMOVED_TWO_PLAYER = 2
"""Followers of each faction taken out of a 2-player game before setup."""
START_IN_HOME = 2
REGION_START_SIZE = 4
COURT_START_SIZE = 2
CARD_COPIES = FIRST.card_copies
"""How many of each card a player starts with, indexed by Card."""
HAND_SIZE = sum(CARD_COPIES)
SAXON_INVASION = FIRST.invasion
"""Saxon control tokens that end the game at once."""

SAXONS = 4
"""Control value of a region that fell to the Saxons."""
LOYALISTS = int(Faction.LOYALISTS)
"""The Loyalists' place in a region's counts and the stock (Mordred variant), and their control value."""
UNRESOLVED = -1
"""Control value of a region whose struggle is still to come."""

NEIGHBOURS: tuple[int, ...] = tuple(
    sum(1 << (b if a == r else a) for a, b in BORDERS if r in (a, b)) for r in range(NUM_REGIONS)
)
"""Bitmask of the regions bordering each region."""

FACTION_CARD = {Card.SCOTS: Faction.SCOTS, Card.WELSH: Faction.WELSH, Card.ROMANO_BRITISH: Faction.ROMANO_BRITISH}


def borders(a: int, b: int) -> bool:
    """Whether two regions share a border."""
    return bool(NEIGHBOURS[a] >> b & 1)


def region_by_code(text: str) -> Region:
    """Find a region by its three-letter code or its full name (any case)."""
    key = text.strip().lower().replace("_", " ")
    for region in REGIONS:
        if key in (REGION_CODES[region].lower(), REGION_NAMES[region].lower()):
            return region
    raise ValueError(f"unknown region {text!r} (expected one of {', '.join(REGION_CODES)})")


def faction_by_code(text: str) -> Faction:
    """Find a faction by its letter or its full name (any case)."""
    key = text.strip().lower()
    for faction in Faction:
        if key in (FACTION_CODES[faction].lower(), FACTION_NAMES[faction].lower()):
            return faction
    raise ValueError(f"unknown faction {text!r} (expected one of {', '.join(FACTION_CODES)})")


def card_by_name(text: str) -> Card:
    """Find a card by its name (any case, '-' or '_' or space alike)."""
    key = text.strip().lower().replace("_", "-").replace(" ", "-")
    for card in CARDS:
        if key == CARD_NAMES[card].lower():
            return card
    raise ValueError(f"unknown card {text!r} (expected one of {', '.join(CARD_NAMES)})")
