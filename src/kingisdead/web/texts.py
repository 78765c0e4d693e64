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

import unicodedata
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from ..edition import Edition
from ..moves import Move, format_move
from .i18n import DEFAULT, Text, _, localize


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
CUNNING_RULES = (
    _("Carry out the top card of another player's pile as if you had played it."),
    _("The faction with the most followers in the supply places 2 of them in one region."),
    _("Place 2 Scottish followers in a region, then return one follower from there."),
    _("Swap a Welsh follower of one region with a non-Welsh follower of any other."),
    _("Swap an English follower of one region with 2 non-English followers of any other."),
    _("Swap 2 Scottish followers of a region with 2 non-Scottish followers of a bordering one."),
    _("Move 2 followers from a region into a bordering one."),
    _("Place 2 non-Scottish followers in a region the Scottish Support could target."),
    _("Return a Scottish follower from a region the Scottish Support could target, then place 2 there."),
    _("Return a Welsh follower from a region the Welsh Support could target, then place 2 there."),
    _("Return an English and another follower from a region the English Support could target, then place 1."),
    _("Never played: at the end it counts as one follower of the faction you choose."),
)
"""The advanced game's Cunning cards' rules, one short sentence each, in card order (numbers 7 to 18:
edition.CUNNING_CARDS; shared/rules/second-edition.md, "The advanced game"); the table's hover line."""

EDITION_TEXTS = {"first": FIRST_TEXTS, "second": SECOND_TEXTS}
"""Each edition's texts, by the edition's name (kingisdead.edition.EDITIONS)."""

FACTION_TEXTS = FIRST_TEXTS.factions
"""The first edition's board.FACTION_NAMES as interface texts."""
CONTROL_TEXTS = FIRST_TEXTS.controls
"""The first edition's controls (0-3 a faction, 4 the Saxons)."""
CARD_TEXTS = FIRST_TEXTS.cards
"""The first edition's board.CARD_NAMES as interface texts."""


def notation_edition(edition: Edition, lang: str) -> Edition:
    """``edition`` with its notation's words as a page in ``lang`` names things: for formatting only.

    The first edition's cards are written by their names in ``lang`` (Couronne, Garnison...; Krone...) and the
    factions by the first letter of theirs, unaccented (French Écossais, Gallois, Romano-Bretons, Loyalistes: E, G,
    R, L). Region codes are proper names and stay; so does the whole second edition, whose names stay English. The
    words of each language are unambiguous: :func:`kingisdead.moves.parse_move` reads them back (tests/web).
    """
    return _notation_edition(edition, lang if edition.name == "first" else DEFAULT)


@lru_cache(maxsize=32)
def _notation_edition(edition: Edition, lang: str) -> Edition:
    if lang == DEFAULT:
        return edition
    texts = EDITION_TEXTS[edition.name]
    names = localize(list(texts.factions), lang)
    letters = tuple(unicodedata.normalize("NFD", name)[0].upper() for name in names)
    return replace(edition, card_words=tuple(localize(list(texts.cards), lang)), faction_codes=letters)


class NotationText(Text):
    """A move in its edition's notation, written as the language shown names things (:func:`notation_edition`).

    The str is the notation every language shares, the one the API and the records read and write:
    ``Crown Cal<>Din *Cal +Cal:S``; in French the page shows ``Couronne Cal<>Din *Cal +Cal:E`` beside the
    move's French sentence. A pass is ``pass`` in every language, as in the records.
    """

    move: Move
    edition: Edition

    def __new__(cls, move: Move, edition: Edition) -> NotationText:
        self = super().__new__(cls, format_move(move, edition))
        self.move, self.edition = move, edition
        return self

    def in_language(self, lang: str) -> str:
        """Kept once made, as every Text's: the log's notations are written again for every socket on every move."""
        done = self._rendered.get(lang)
        if done is None:
            done = self._rendered[lang] = format_move(self.move, notation_edition(self.edition, lang))
        return done

    def __reduce__(self) -> tuple[Any, ...]:  # pickled into compute workers and back
        return (NotationText, (self.move, self.edition))


class NotationWord(Text):
    """One word of the notation (a card's, ``card_words``, or a faction's letter, ``faction_codes``) as the language
    shown writes it (:func:`notation_edition`): for the browser, which writes the move being built itself."""

    edition: Edition
    table: str
    position: int

    def __new__(cls, edition: Edition, table: str, position: int) -> NotationWord:
        self = super().__new__(cls, getattr(edition, table)[position])
        self.edition, self.table, self.position = edition, table, position
        return self

    def in_language(self, lang: str) -> str:
        return str(getattr(notation_edition(self.edition, lang), self.table)[self.position])

    def __reduce__(self) -> tuple[Any, ...]:
        return (NotationWord, (self.edition, self.table, self.position))


def shown_codes(edition: Edition) -> dict[str, list[NotationWord]]:
    """The notation's card words and faction letters in the reader's language (web/choices.py's ``shown_codes``)."""
    return {"cards": [NotationWord(edition, "card_words", i) for i in range(len(edition.card_words))],
            "factions": [NotationWord(edition, "faction_codes", i) for i in range(len(edition.faction_codes))]}
