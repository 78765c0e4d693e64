"""An edition of the game as one value: its board, its cards and its ending constants.

The first edition is :data:`FIRST`; :mod:`kingisdead.board` takes its map and
cards from it, and the compiled core holds the same value (``FIRST`` in
core/src/board.rs, checked equal by the test suite). The machinery every
edition shares (turns, passes, struggles, court calls, endings, tie-breaks,
the last-card rule) lives once per engine; see docs/architecture.md, "The seam
between the engines".
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Edition:
    """What one edition brings. Regions, factions and cards are numbered by their index here.

    - ``regions``/``region_codes``: the regions' names and three-letter codes, in map order
    - ``borders``: the pairs of bordering regions (undirected)
    - ``homes``: each faction's home region, by faction
    - ``factions``/``faction_codes``: the follower kinds (the three factions, then the Loyalists)
    - ``cards``/``card_copies``: the action cards and how many of each a player holds at the start
    - ``saxon_invasion``: Saxon control tokens that end the game at once
    """

    name: str
    regions: tuple[str, ...]
    region_codes: tuple[str, ...]
    borders: tuple[tuple[int, int], ...]
    homes: tuple[int, ...]
    factions: tuple[str, ...]
    faction_codes: tuple[str, ...]
    cards: tuple[str, ...]
    card_copies: tuple[int, ...]
    saxon_invasion: int


FIRST = Edition(
    name="first",
    regions=("Caledonia", "Din Eidyn", "Eboracum", "Deva", "Caerleon", "Ratae", "Londinium", "Aquae Sulis"),
    region_codes=("Cal", "Din", "Ebo", "Dev", "Cae", "Rat", "Lon", "Aqu"),
    # Caledonia 0, Din Eidyn 1, Eboracum 2, Deva 3, Caerleon 4, Ratae 5, Londinium 6, Aquae Sulis 7.
    borders=((0, 1), (1, 3), (1, 2), (3, 2), (3, 4), (3, 5), (2, 5), (2, 6), (4, 5), (4, 7), (5, 6), (5, 7), (6, 7)),
    homes=(0, 4, 6),  # Scots: Caledonia, Welsh: Caerleon, Romano-British: Londinium
    factions=("Scots", "Welsh", "Romano-British", "Loyalists"),
    faction_codes=("S", "W", "R", "L"),
    cards=("Crown", "Garrison", "Ambassador", "Settlements", "Scots", "Welsh", "Romano-British"),
    card_copies=(1, 1, 1, 2, 1, 1, 1),
    saxon_invasion=4,
)
"""The first edition (2020, Osprey Games)."""
