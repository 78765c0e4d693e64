"""The game's names as interface texts (see i18n.py): factions, who controls a region, cards.

Region names are proper names and stay as the engine spells them in every
language (Caledonia, Din Eidyn, Londinium...), as on the board.
"""

from __future__ import annotations

from .i18n import _

FACTION_TEXTS = (_("Scots"), _("Welsh"), _("Romano-British"), _("Loyalists"))
"""board.FACTION_NAMES as interface texts: a faction's people, in the plural ("the {faction} take control")."""
CONTROL_TEXTS = FACTION_TEXTS + (_("Saxons"),)
"""Who controls a resolved region, by views.table_view's ``control`` value (0-3 a faction, 4 the Saxons)."""
CARD_TEXTS = (_("Crown"), _("Garrison"), _("Ambassador"), _("Settlements"), _("Scots"), _("Welsh"),
              _("Romano-British"))
"""board.CARD_NAMES as interface texts."""
