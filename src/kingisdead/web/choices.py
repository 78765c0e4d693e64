"""Every choice of the move to make, sent once with the position, so that the browser builds a move
without asking the server at each click (static/choices.js reads it).

The payload (a view's ``choices``, only for the seat to move)::

    {"cards": [{"card": 3, "kinds": "xxx", "moves": "016:0 01-:2 ...",
                "prompts": [...], "notes": [...]}, ...],
     "courts": [mask, ...], "notes": [...], "texts": {...}, "codes": {...}}

- ``cards``: each card the player can play, in card order. ``kinds`` has one
  letter per step of its action (r a region, f a faction, x a region or none).
  ``moves`` lists, space-separated, every spelling of every legal action (both
  orders of unordered choices): one character a step (the region's or the
  faction's number, ``-`` for none), then ``:`` and the index in ``courts`` of
  the court calls that may follow it. ``prompts`` are the steps' prompts, with
  ``{i}`` for the label of the choice made at step i; ``notes`` say why the
  card's action is partial here.
- ``courts``: sets of court calls as 32-bit masks, bit ``region * 4 + faction``;
  an empty set (0) means the action alone completes the move.
- ``notes``: notes for every move (the last-card rule); ``texts``: the other
  prompts and the sentences that describe a move, with ``{name}`` placeholders;
  ``codes``: what the move notation calls each card, region and faction;
- ``cunning``: the advanced game's Cunning cards the player can play (their own, read from the moves of
  their hand), each ``{"card": 9, "shapes": [{"kinds": "rf", "moves": "30:0 ..."}, ...]}``: a Cunning card's
  actions have several shapes, each with its kinds as ``kinds`` above plus y (a faction or none), p (a
  player: the pile a Spy copies) and c (a card); ``moves`` as above, a step's value written as a digit in
  base 36 (card 10 is ``a``); ``words`` the action of each of ``moves``, in order, as the notation writes it
  after the card's word (``"@1 Manoeuvre Mor:S<>Str:W"``; ``""`` for none). Empty in the standard game.
  ``shown_codes``: its card words and faction letters as the reader's language writes them
  (texts.notation_edition), for the move shown on the page (the move sent uses ``codes``).

Texts are :class:`~kingisdead.web.i18n.Text`, rendered in each reader's language
when the view is written, like every other text of a view. The pass is always
possible and is not listed. The server still checks the confirmed move in full.
"""

from __future__ import annotations

from typing import Any

from .. import engine
from ..board import FIRST_CUNNING
from ..building import action_kinds, choice_table, step_kinds
from ..edition import Edition
from ..moves import NONE, format_move, make_move
from ..state import GameState
from .i18n import _
from .texts import shown_codes
from .views import STEP_TEXTS, action_prompts, move_texts, partial_notes


_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"


def _spelling(values: tuple[int, ...]) -> str:
    return "".join("-" if v == NONE else _DIGITS[v] for v in values)


def _cunning_choices(card: int, entries: list[tuple[tuple[int, ...], tuple[tuple[int, int], ...]]],
                     masks: dict[int, int], edition: Edition) -> dict[str, Any]:
    """A Cunning card's moves, grouped by the kinds of their steps (see the module's docstring)."""
    shapes: dict[str, list[str]] = {}
    words: dict[str, list[str]] = {}
    for spelling, calls in entries:
        mask = sum(1 << (region * 4 + faction) for region, faction in calls)
        kinds = action_kinds(card, spelling)
        shapes.setdefault(kinds, []).append(f"{_spelling(spelling)}:{masks.setdefault(mask, len(masks))}")
        # the action as the notation writes it, after the card's word ("" for none): the table sends and shows it
        words.setdefault(kinds, []).append(format_move(make_move(card, spelling), edition).partition(" ")[2])
    return {"card": card, "shapes": [{"kinds": kinds, "moves": " ".join(moves), "words": words[kinds]}
                                     for kinds, moves in shapes.items()]}


def choices_view(state: GameState) -> dict[str, Any]:
    """The choices of the player to move as described above (nothing to choose once the game is over:
    ``cards`` empty). Costs one legal-move listing (a few ms from the compiled core)."""
    masks: dict[int, int] = {}
    last_card = STEP_TEXTS["last_card"]
    cards = []
    cunning = []
    for card, entries in sorted(choice_table(state).items()):
        if card >= FIRST_CUNNING:
            cunning.append(_cunning_choices(card, entries, masks, state.edition))
            continue
        length = len(entries[0][0])
        moves = []
        for spelling, calls in entries:
            mask = sum(1 << (region * 4 + faction) for region, faction in calls)
            moves.append(f"{_spelling(spelling)}:{masks.setdefault(mask, len(masks))}")
        cards.append({"card": card, "kinds": step_kinds(card, length), "moves": " ".join(moves),
                      "prompts": action_prompts(card, length, state.edition),
                      "notes": partial_notes(state, card, length)})
    return {
        "cards": cards,
        "cunning": cunning,
        "courts": list(masks),
        "notes": [_(last_card)] if engine.last_card_applies(state) else [],
        "texts": {name: _(text) for name, text in (STEP_TEXTS | move_texts(state.edition)).items()
                  if name != "last_card"},
        "codes": {"cards": list(state.edition.card_words), "regions": list(state.edition.region_codes),
                  "factions": list(state.edition.faction_codes)},
        "shown_codes": shown_codes(state.edition),
    }
