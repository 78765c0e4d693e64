"""Learn to play: a guided first game at /learn on the real table.

The tutorial is an ordinary 2-player game with a set-up chosen for teaching
(:data:`SEED`) and a fixed script of moves (:data:`MOVES`): the learner (seat 0)
makes theirs by clicking, and the tutor's replies (seat 1, "Morgan", a person's
seat whose token the learner's browser holds) are sent by the tutorial layer in
the browser (static/tutorial.js), which also explains each step and refuses
moves the script does not ask for. The script is short: one struggle taken by
a faction, then four Saxon tokens end the game by invasion after 15 moves, and
every kind of card is played once along the way. The invasion ends in a tie on
complete sets that the last card play breaks: tie-breaks decide many games. Nothing about other games
changes. See docs/web.md ("Learn to play").

Each edition has its tutorial (:data:`TUTORIALS`): the second edition's is the
same lesson on its own set-up, 13 moves long (three instability discs end it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


from ..building import move_steps
from ..edition import EDITIONS
from ..moves import parse_move
from .service import GameService

SEED = 1
"""The set-up: Caledonia is contested first, and the script below ends the game by invasion."""
LEARNER, TUTOR = 0, 1
TUTOR_NAME = "Morgan"
MOVES = (
    "Romano-British Ebo Aqu +Aqu:R",   # the learner: a faction card (Londinium, their home, counts as held)
    "Ambassador Ebo:S<>Cae:R +Aqu:S",  # the tutor
    "Garrison Aqu:SR>Lon:R +Cal:W",    # the learner: Caledonia is left with 2 Scots against 1
    "pass",
    "pass",                            # both passed: the Scots take Caledonia
    "Crown Ebo<>Lon *Ebo +Dev:W",      # the tutor: Londinium's struggle now comes before Eboracum's; a set each
    "Settlements S>Din W>Din R>Rat +Ebo:R",
    "pass", "pass",                    # Aquae Sulis, tied: the first Saxon token
    "pass", "pass",                    # Londinium, tied: the second
    "pass", "pass",                    # Eboracum, tied: the third
    "pass", "pass",                    # Ratae, tied: the fourth, and the Saxons invade; one set each, a tie that
)                                      # goes to the learner, who played a card last
"""Every move of the tutorial game in order; seat 0 moves first and the seats alternate."""
SECOND_SEED = 1
"""The second edition's set-up: Moray is contested first, and the script below ends the game by invasion."""
SECOND_MOVES = (
    "English War War +Lan:W",             # the learner: Support puts both followers in one region
    "Manoeuvre Lan:E<>War:S +War:E",      # the tutor
    "Outmanoeuvre Str:SS>Mor:W +Mor:S",   # the learner: Moray is left with 3 Scottish against 1 English
    "pass",
    "pass",                               # both passed: the Scottish take Moray
    "Negotiate Ess<>Dev *Dev +Ess:E",     # the tutor: Essex's struggle now comes before Devon's
    "Assemble S>Nor W>Dev E>Dev +Dev:S",
    "pass", "pass",                       # Essex, tied: the first instability disc leaves France
    "pass", "pass",                       # Northumbria, tied: the second
    "pass", "pass",                       # Devon, tied: the third, and the French invade; no set on either
)                                         # side, a tie that goes to the learner, who played a card last
"""The second edition's tutorial game, as :data:`MOVES`."""


@dataclass(frozen=True)
class Tutorial:
    """One edition's tutorial game: its set-up (seed) and its moves in that edition's notation."""

    edition: str
    seed: int
    moves: tuple[str, ...]


TUTORIALS = {"first": Tutorial("first", SEED, MOVES), "second": Tutorial("second", SECOND_SEED, SECOND_MOVES)}
"""The tutorial of each edition, by the edition's name."""


def script(edition: str = "first") -> list[dict[str, Any]]:
    """The moves of ``edition``'s tutorial, each ``{"number", "seat", "move", "steps"}``: ``number`` counts
    from 1, ``move`` is the notation, ``steps`` the choices that build it on the table (``{"kind", "value"}``,
    as the table's hand, choice and pass controls name them)."""
    tutorial = TUTORIALS[edition]
    return [{"number": n, "seat": (n - 1) % 2, "move": text,
             "steps": [{"kind": c.kind, "value": c.value}
                       for c in move_steps(parse_move(text, EDITIONS[edition]))]}
            for n, text in enumerate(tutorial.moves, start=1)]


def create_tutorial(service: GameService, edition: str = "first") -> tuple[str, str, str]:
    """A new tutorial game of ``edition``: (its id, the learner's seat token, the tutor's seat token). No
    account holds the learner's seat, so a tutorial never counts in anyone's statistics."""
    game, tokens = service.create(2, "standard", [{"kind": "human"}, {"kind": "human", "name": TUTOR_NAME}],
                                  seed=TUTORIALS[edition].seed, first_player=LEARNER, edition=edition)
    _seat, tutor = service.claim_invite(game.id, tokens[TUTOR])
    return game.id, tokens[LEARNER], tutor
