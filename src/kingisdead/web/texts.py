"""Each edition's names as interface texts (see i18n.py): factions, who controls a region, cards, the invaders.

Region names are proper names and stay as the engine spells them in every
language (Caledonia, Din Eidyn, Londinium...; Moray, Strathclyde...), as on
the board. The first edition's faction and card names translate (Écossais,
Garnison...). The second edition's cards and factions are the game's own names
and stay in English: no French or German printing of the second edition is
known (docs/i18n.md); only its plain words (instability, France, the
negotiation disc) translate.
"""

from __future__ import annotations

from dataclasses import dataclass

from .i18n import Text, _


@dataclass(frozen=True)
class EditionTexts:
    """The names an edition gives things, for the interface (each a :class:`Text` or a plain ``str``).

    - ``factions``: the follower kinds' people, in the plural ("the {faction} take control"), by kind
    - ``controls``: who controls a resolved region, by views.table_view's ``control`` value (0-3 a faction,
      4 the invaders: the Saxons, or instability)
    - ``cards``: the action cards, by card number
    - ``track``: the title of the invaders' track on the board; ``about``: what its tokens do
    - ``seat_token``: a player's token on a region card (Crown token, negotiation disc)
    """

    factions: tuple[Text | str, ...]
    controls: tuple[Text | str, ...]
    cards: tuple[Text | str, ...]
    track: Text
    about: Text
    seat_token: Text


_FIRST_FACTIONS = (_("Scots"), _("Welsh"), _("Romano-British"), _("Loyalists"))
_SECOND_FACTIONS = ("Scottish", "Welsh", "English", _("Loyalists"))

FIRST_TEXTS = EditionTexts(
    factions=_FIRST_FACTIONS,
    controls=_FIRST_FACTIONS + (_("Saxons"),),
    cards=(_("Crown"), _("Garrison"), _("Ambassador"), _("Settlements"), _("Scots"), _("Welsh"), _("Romano-British")),
    track=_("Saxons"),
    about=_("Saxon control tokens: four end the game"),
    seat_token=_("Crown token"),
)
SECOND_TEXTS = EditionTexts(
    factions=_SECOND_FACTIONS,
    controls=_SECOND_FACTIONS + (_("Instability"),),
    cards=("Negotiate", "Outmanoeuvre", "Manoeuvre", "Assemble", "Scottish Support", "Welsh Support",
           "English Support"),
    track=_("France"),
    about=_("Instability discs: three start in France, and the third to leave it ends the game"),
    seat_token=_("Negotiation disc"),
)
EDITION_TEXTS = {"first": FIRST_TEXTS, "second": SECOND_TEXTS}
"""Each edition's texts, by the edition's name (kingisdead.edition.EDITIONS)."""

FACTION_TEXTS = FIRST_TEXTS.factions
"""The first edition's board.FACTION_NAMES as interface texts."""
CONTROL_TEXTS = FIRST_TEXTS.controls
"""The first edition's controls (0-3 a faction, 4 the Saxons)."""
CARD_TEXTS = FIRST_TEXTS.cards
"""The first edition's board.CARD_NAMES as interface texts."""
