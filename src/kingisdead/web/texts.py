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
    - ``cards``: the action cards, by card number; ``card_rules``: each card's rule in one sentence
    - ``track``: the title of the invaders' track on the board; ``about``: what its tokens do
    - ``invasion``: the invasion that ends a game ("The Saxons invade"), the start of a result's title
    - ``seat_token``: a player's token on a region card (Crown token, negotiation disc)
    """

    factions: tuple[Text | str, ...]
    controls: tuple[Text | str, ...]
    cards: tuple[Text | str, ...]
    card_rules: tuple[Text, ...]
    track: Text
    about: Text
    invasion: Text
    seat_token: Text


_FIRST_FACTIONS = (_("Scots"), _("Welsh"), _("Romano-British"), _("Loyalists"))
_SECOND_FACTIONS = ("Scottish", "Welsh", "English", _("Loyalists"))

FIRST_TEXTS = EditionTexts(
    factions=_FIRST_FACTIONS,
    controls=_FIRST_FACTIONS + (_("Saxons"),),
    cards=(_("Crown"), _("Garrison"), _("Ambassador"), _("Settlements"), _("Scots"), _("Welsh"), _("Romano-British")),
    card_rules=(_("Swap two region cards and crown one of them."),
                _("Trade 2 followers of a region for 1 from a bordering region."),
                _("Trade 1 follower with 1 from any other region."),
                _("Place one Scots, one Welsh and one Romano-British follower from the stock."),
                _("Place 2 Scots next to Scots-held land."), _("Place 2 Welsh next to Welsh-held land."),
                _("Place 2 Romano-British next to their land.")),
    track=_("Saxons"),
    about=_("Saxon control tokens: four end the game"),
    invasion=_("The Saxons invade"),
    seat_token=_("Crown token"),
)
SECOND_TEXTS = EditionTexts(
    factions=_SECOND_FACTIONS,
    controls=_SECOND_FACTIONS + (_("Instability"),),
    cards=("Negotiate", "Outmanoeuvre", "Manoeuvre", "Assemble", "Scottish Support", "Welsh Support",
           "English Support"),
    card_rules=(_("Swap two region cards and put your negotiation disc on one of them."),
                _("Trade 2 followers of a region for 1 from a bordering region."),
                _("Trade 1 follower with 1 from any other region."),
                _("Place one follower of each faction from the stock, each where you like."),
                *(_("Place 2 {faction} together next to {faction}-held land.", faction=f) for f in _SECOND_FACTIONS[:3])),
    track=_("France"),
    about=_("Instability discs: three start in France, and the third to leave it ends the game"),
    invasion=_("The French invade"),
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
