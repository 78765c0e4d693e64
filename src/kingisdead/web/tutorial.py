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
The second edition's advanced game has a lesson of its own for players who know
the standard game (:data:`ADVANCED_MOVES`, 12 moves): the learner plays two
Cunning cards (Influence, then Spy copying the tutor's Manoeuvre), the tutor one
(Ambush, secret until played), and the learner's Plot, revealed at the French
invasion, completes the set that wins.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


from ..board import FIRST_CUNNING
from ..building import action_kinds, choice_table, move_steps
from ..moves import NONE, Move
from ..state import GameState
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
ADVANCED_SEED = 14
"""The advanced game's set-up: the learner is dealt Spy, Influence and Plot, the tutor Ambush, Edict and Muster."""
ADVANCED_MOVES = (
    "Influence Mor:SW>Nor:E +Lan:E",          # the learner: Moray is left with 1 Scottish against 2 English
    "Manoeuvre Nor:W<>Ess:E +Gwy:W",          # the tutor: the top of the tutor's pile, for the Spy to copy
    "Spy @1 Manoeuvre Mor:E<>War:W +War:E",   # the learner: Moray is left with one follower of each faction
    "pass",
    "pass",                                   # Moray, tied: the first instability disc
    "Ambush Lan -S +Ess:E",                   # the tutor: a Cunning card, unseen until now
    "Assemble S>Str W>Str E>Lan +Gwy:W",      # the learner: Gwynedd is left with 1 Welsh against 1 English
    "Negotiate Ess<>Dev *Dev +Ess:E",         # the tutor: Essex before Devon, 1 Welsh against 1 English
    "pass", "pass",                           # Gwynedd, tied: the second disc
    "pass", "pass",                           # Essex, tied: the third, and the French invade; no set on either
)                                             # side but the learner's Plot completes one: 1 against 0
"""The advanced game's tutorial game, as :data:`MOVES` (without Plot the tie would go to the tutor, who played
a card last)."""


@dataclass(frozen=True)
class Tutorial:
    """One tutorial game: its edition, set-up (seed), moves in that edition's notation and mode."""

    edition: str
    seed: int
    moves: tuple[str, ...]
    mode: str = "standard"

    def new_game(self) -> GameState:
        """The game's set-up, the learner to move."""
        return GameState.new(2, "standard", self.seed, LEARNER, edition=self.edition, mode=self.mode)


TUTORIALS = {"first": Tutorial("first", SEED, MOVES), "second": Tutorial("second", SECOND_SEED, SECOND_MOVES),
             "advanced": Tutorial("second", ADVANCED_SEED, ADVANCED_MOVES, "advanced")}
"""The tutorials by lesson: each edition's ("first", "second") and the second edition's advanced game's."""


_TABLE_KINDS = {"r": "region", "x": "region", "f": "faction", "y": "faction", "p": "player", "c": "copy"}
"""The table's name of each kind of a Cunning card's step (static/cunning.js's STEP_KIND)."""


def table_steps(state: GameState, move: Move) -> list[dict[str, Any]]:
    """The clicks that build ``move`` on ``state``'s table, each ``{"kind", "value"}`` as the table's hand,
    choice and pass controls name them. A Cunning card's action is built by static/cunning.js's steps: a
    Spy's copied card is a "copy", a part left out "none", and where a longer action of the same card begins
    with the whole of this one the table asks whether the action stops here ("end")."""
    if move.card is None or move.card < FIRST_CUNNING:
        return [{"kind": c.kind, "value": c.value} for c in move_steps(move)]
    action = move.action
    steps = [{"kind": "card", "value": int(move.card)}]
    steps += [{"kind": "none", "value": -1} if value == NONE else {"kind": _TABLE_KINDS[kind], "value": int(value)}
              for kind, value in zip(action_kinds(move.card, action), action)]
    spellings = [spelling for spelling, _calls in choice_table(state).get(move.card, [])]
    if any(len(other) > len(action) and other[:len(action)] == action for other in spellings):
        steps.append({"kind": "end", "value": -1})
    if move.court is not None:
        steps += [{"kind": "region", "value": move.court[0]}, {"kind": "faction", "value": move.court[1]}]
    return steps


def script(name: str = "first") -> list[dict[str, Any]]:
    """The moves of the tutorial ``name`` (a key of :data:`TUTORIALS`), each ``{"number", "seat", "move",
    "steps"}``: ``number`` counts from 1, ``move`` is the notation, ``steps`` the clicks that build it on the
    table (:func:`table_steps`). The game is replayed to know each position (a few ms)."""
    state = TUTORIALS[name].new_game()
    moves = []
    for n, text in enumerate(TUTORIALS[name].moves, start=1):
        move = state.parse(text)
        moves.append({"number": n, "seat": (n - 1) % 2, "move": text, "steps": table_steps(state, move)})
        state.apply(move)
    return moves


def create_tutorial(service: GameService, name: str = "first") -> tuple[str, str, str]:
    """A new game of the tutorial ``name`` (a key of :data:`TUTORIALS`): (its id, the learner's seat token, the
    tutor's seat token). No account holds the learner's seat, so a tutorial never counts in anyone's
    statistics."""
    tutorial = TUTORIALS[name]
    game, tokens = service.create(2, "standard", [{"kind": "human"}, {"kind": "human", "name": TUTOR_NAME}],
                                  seed=tutorial.seed, first_player=LEARNER, edition=tutorial.edition,
                                  mode=tutorial.mode)
    _seat, tutor = service.claim_invite(game.id, tokens[TUTOR])
    return game.id, tokens[LEARNER], tutor
