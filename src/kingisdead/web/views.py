"""What the browser is shown: per-seat views of a position, moves in words, step prompts.

A position as the engine keeps it contains every hand. The rules let a player
see only their own hand and the top card and size of everyone else's pile, so
:func:`table_view` builds the view for one seat and leaves the other hands out
entirely: the server never sends what a seat may not see.
"""

from __future__ import annotations

from typing import Any

from .. import rules
from ..board import (
    BORDERS,
    CARD_NAMES,
    CARDS,
    FACTION_NAMES,
    HOMES,
    MORDRED_FLAGS,
    NUM_CARDS,
    NUM_REGIONS,
    REGION_CODES,
    REGION_NAMES,
    Card,
)
from ..building import Choice
from ..moves import NONE, Move, make_move
from ..state import GameState
from .explain import explain_result

CONTROL_NAMES = FACTION_NAMES + ("Saxons",)


def bot_levels() -> list[dict[str, str]]:
    """The engine's level ladder for the lobby: name, what it is, and about how long it thinks a move."""
    from ..bots.levels import LEVELS

    return [{"name": level.name, "description": level.description,
             "thinks": "moves at once" if level.budget is None
             else "a fixed search a move" if level.budget.seconds is None
             else f"thinks about {level.budget.seconds:g} s a move"} for level in LEVELS.values()]


def board_facts() -> dict[str, Any]:
    """The fixed data the browser needs to draw the table (names, borders, homes, Mordred flags)."""
    return {
        "regions": [{"name": REGION_NAMES[r], "code": REGION_CODES[r]} for r in range(NUM_REGIONS)],
        "borders": [[int(a), int(b)] for a, b in BORDERS],
        "homes": [int(r) for r in HOMES],
        "factions": list(FACTION_NAMES),
        "cards": list(CARD_NAMES),
        "controls": list(CONTROL_NAMES),
        "mordred_flags": [int(r) for r in MORDRED_FLAGS],
    }


def hand_of(state: GameState, seat: int) -> list[int]:
    return state.hands[seat * NUM_CARDS:(seat + 1) * NUM_CARDS]


def table_view(state: GameState, seat: int | None, reveal: bool = False) -> dict[str, Any]:
    """The position as ``seat`` may see it (None: a spectator); ``reveal`` shows every hand.

    Other players' hands are absent, not blanked: only the top card and the
    number of cards left of each pile are public.
    """
    n = state.players
    view: dict[str, Any] = {
        "players": n,
        "variant": state.variant,
        "to_move": None if state.is_over() else state.player,
        "passes": state.passes,
        "resolved": state.resolved,
        "saxons": state.saxons,
        "contested": None if state.contested is None or state.is_over() else int(state.contested),
        "followers": [state.board[r * 4:r * 4 + 4] for r in range(NUM_REGIONS)],
        "control": state.control[:],
        "order": state.order[:],
        "crowns": state.crowns[:],
        "stock": state.stock[:],
        "courts": [list(state.court(p)) for p in range(n)],
        "tops": state.tops[:],
        "cards_left": [state.cards_left(p) for p in range(n)],
        "last_card_rule": rules.last_card_applies(state),
        "result": None if state.result is None else state.result.to_dict(),
        "explanation": explain_result(state),
        "hand": hand_of(state, seat) if seat is not None else None,
    }
    if reveal:
        view["hands"] = [hand_of(state, p) for p in range(n)]
    return view


# -- moves in words ------------------------------------------------------------------

def _follower(region: int, faction: int) -> str:
    return f"a {FACTION_NAMES[faction]} follower in {REGION_NAMES[region]}"


def describe_move(move: Move) -> str:
    """A move as a sentence, e.g. 'Crown: swaps Deva and Londinium, crowns Londinium; calls ...'."""
    if move.card is None:
        return "passes"
    card, a = move.card, move.action
    title = CARD_NAMES[card]
    if not a:
        text = f"{title}: no action possible"
    elif card == Card.CROWN:
        text = f"{title}: swaps {REGION_NAMES[a[0]]} and {REGION_NAMES[a[1]]}, crowns {REGION_NAMES[a[2]]}"
    elif card == Card.GARRISON and len(a) == 5:
        text = (f"{title}: {FACTION_NAMES[a[1]]} and {FACTION_NAMES[a[2]]} leave {REGION_NAMES[a[0]]} "
                f"for {REGION_NAMES[a[3]]}, a {FACTION_NAMES[a[4]]} follower comes back")
    elif card in (Card.GARRISON, Card.AMBASSADOR):
        text = f"{title}: exchanges {_follower(a[0], a[1])} with {_follower(a[2], a[3])}"
    elif card == Card.SETTLEMENTS:
        placed = [f"{FACTION_NAMES[f]} to {REGION_NAMES[r]}" for f, r in enumerate(a) if r != NONE]
        text = f"{title}: " + (", ".join(placed) if placed else "nothing to place")
    else:
        if len(a) == 2 and a[0] == a[1]:
            text = f"{title}: places 2 followers in {REGION_NAMES[a[0]]}"
        else:
            text = f"{title}: places followers in " + " and ".join(REGION_NAMES[r] for r in a)
    if move.court is not None:
        region, faction = move.court
        text += f"; calls a {FACTION_NAMES[faction]} follower from {REGION_NAMES[region]} to court"
    return text


# -- what a move changed --------------------------------------------------------------------

def describe_struggle(region: int, counts: list[int], control: int) -> str:
    """A struggle's outcome with its tally, e.g. 'Deva: Welsh 3, Scots 3 — tie, the Saxons take it'.

    ``counts`` holds the followers per faction (Scots, Welsh, Romano-British,
    Loyalists) in the region when the struggle was resolved; ``control`` the
    index into :data:`CONTROL_NAMES` of who took the region.
    """
    present = sorted(((n, f) for f, n in enumerate(counts) if n), key=lambda t: (-t[0], t[1]))
    tally = ", ".join(f"{FACTION_NAMES[f]} {n}" for n, f in present) or "no followers"
    if control == len(FACTION_NAMES):
        why = "tie, the Saxons take it" if len(present) > 1 and present[0][0] == present[1][0] \
            else "the Saxons take it"
    else:
        why = f"the {CONTROL_NAMES[control]} take control"
    return f"{REGION_NAMES[region]}: {tally} — {why}"


def move_changes(before: GameState, after: GameState, move: Move) -> dict[str, Any]:
    """What ``move`` (played in ``before``, giving ``after``) changed on the board.

    Returns ``{"touched": [region...], "arrived": {region: [count per faction]},
    "left": {region: [count per faction]}, "exchange": [from, to] | None,
    "swap": [region, region] | None, "court": {"region", "faction"} | None,
    "struggles": [{"region", "control", "counts", "text", "loyalist"}...]}``
    (region keys are strings, as in JSON; ``loyalist`` is the region where a
    Mordred Loyalist arrived after that struggle, or None).
    """
    touched: set[int] = set()
    arrived: dict[str, list[int]] = {}
    left: dict[str, list[int]] = {}
    exchange = swap = court = None
    struggles: list[dict[str, Any]] = []
    if move.card is not None:
        for r in range(NUM_REGIONS):
            diff = [after.board[r * 4 + f] - before.board[r * 4 + f] for f in range(4)]
            if move.court is not None and move.court[0] == r:
                diff[move.court[1]] += 1  # the court call is shown on its own
            if any(d > 0 for d in diff):
                arrived[str(r)] = [max(d, 0) for d in diff]
            if any(d < 0 for d in diff):
                left[str(r)] = [max(-d, 0) for d in diff]
            if any(diff):
                touched.add(r)
        a = move.action
        if move.card == Card.CROWN and a:
            swap = [int(a[0]), int(a[1])]
            touched.update(swap)
        elif move.card in (Card.GARRISON, Card.AMBASSADOR) and a:
            exchange = [int(a[0]), int(a[3] if len(a) == 5 else a[2])]
        if move.court is not None:
            court = {"region": int(move.court[0]), "faction": int(move.court[1])}
            touched.add(court["region"])
    for region in after.order[before.resolved:after.resolved]:
        counts = before.board[region * 4:region * 4 + 4]
        loyalist = None
        if after.mordred:
            flag = MORDRED_FLAGS[region]
            if after.board[flag * 4 + 3] > before.board[flag * 4 + 3]:
                loyalist = int(flag)
                touched.add(loyalist)
        control = after.control[region]
        touched.add(int(region))
        struggles.append({"region": int(region), "control": control, "counts": counts,
                          "text": describe_struggle(region, counts, control), "loyalist": loyalist})
    return {"touched": sorted(touched), "arrived": arrived, "left": left, "exchange": exchange,
            "swap": swap, "court": court, "struggles": struggles}


# -- step-by-step prompts ----------------------------------------------------------------

_ACTION_PROMPTS: dict[tuple[int, int], tuple[str, ...]] = {
    (Card.CROWN, 3): ("Choose a region card to swap", "Choose the card to swap it with",
                      "Choose which of the two cards gets your Crown token"),
    (Card.GARRISON, 5): ("Choose the region that sends two followers", "Choose the first follower that leaves {0}",
                         "Choose the second follower that leaves {0}", "Choose the bordering region they go to",
                         "Choose the follower that comes back from {3}"),
    (Card.GARRISON, 4): ("Choose a region for the exchange", "Choose the follower that leaves {0}",
                         "Choose the bordering region to exchange with", "Choose the follower that comes back from {2}"),
    (Card.AMBASSADOR, 4): ("Choose a region for the exchange", "Choose the follower that leaves {0}",
                           "Choose the other region", "Choose the follower that comes back from {2}"),
    (Card.SETTLEMENTS, 3): ("Choose where the Scots follower from the stock goes",
                            "Choose where the Welsh follower from the stock goes",
                            "Choose where the Romano-British follower from the stock goes"),
}


def _action_prompt(card: int, length: int, chosen: list[Choice]) -> str:
    names = [c.label for c in chosen]
    if card >= Card.SCOTS:
        which = "first" if not chosen else "second"
        return f"Choose a region for the {which} {FACTION_NAMES[card - Card.SCOTS]} follower"
    return _ACTION_PROMPTS[(card, length)][len(chosen)].format(*names)


def _partial_notes(state: GameState, card: int, length: int) -> list[str]:
    """Why a card's action will be partial here, in words (empty when it is full)."""
    notes = []
    if card == Card.CROWN and length == 0:
        notes.append("Partial action: fewer than two region cards can be swapped (crowned and resolved "
                     "cards cannot), so the Crown only lets you call a follower.")
    elif card == Card.GARRISON and length == 4:
        notes.append("Partial action: no region can send two followers to a bordering region, so the "
                     "Garrison exchanges one follower for one.")
    elif card in (Card.GARRISON, Card.AMBASSADOR) and length == 0:
        notes.append(f"Partial action: no exchange is possible, so the {CARD_NAMES[card]} only lets you "
                     "call a follower.")
    elif card == Card.SETTLEMENTS:
        for f in range(3):
            if not state.stock[f]:
                notes.append(f"Partial action: the stock has no {FACTION_NAMES[f]} follower left, "
                             "so none is placed.")
    elif card >= Card.SCOTS:
        f = card - Card.SCOTS
        name = FACTION_NAMES[f]
        if not state.stock[f]:
            notes.append(f"Partial action: the stock has no {name} follower left, so none is placed.")
        elif not rules.faction_targets(state, f):
            notes.append(f"Partial action: no unresolved region borders a region the {name} control, "
                         "so no follower is placed.")
        elif length == 1:
            notes.append(f"Partial action: only one {name} follower is left in the stock.")
    if card in (Card.GARRISON, Card.AMBASSADOR) and state.undo_ban is not None \
            and state.undo_ban[0] != state.player:
        notes.append(f"Player {state.undo_ban[0] + 1}'s last exchange may not be reversed right away.")
    return notes


def step_guide(state: GameState, steps: list[Choice], complete: bool) -> dict[str, Any]:
    """The prompt for the next step and notes on partial actions and the last-card rule."""
    notes: list[str] = []
    if rules.last_card_applies(state):
        notes.append("Last card (3 players): the last card of the game may only be played by a move "
                     "that wins the game outright; if none does, you can only pass.")
    if not steps:
        return {"prompt": "Play a card from your hand, or pass", "notes": notes}
    if steps[0].kind == "pass":
        return {"prompt": "Confirm your pass, or go back", "notes": notes}
    card = steps[0].value
    length = len(rules.action_options(state, card)[0])
    notes += _partial_notes(state, card, length)
    chosen = steps[1:1 + length]
    called = steps[1 + length:]
    if complete:
        if len(chosen) == length and not called:
            notes.append("No follower is left on the board to call to court.")
        prompt = "Confirm your move, or go back"
    elif len(chosen) < length:
        prompt = _action_prompt(card, length, chosen)
    elif not called:
        prompt = "Call a follower to court: choose a region"
    else:
        prompt = f"Call a follower to court: choose one in {called[0].label}"
    return {"prompt": prompt, "notes": notes}


def preview(state: GameState, steps: list[Choice]) -> GameState | None:
    """The position once the card's action (and the court call, if chosen) is carried out.

    None until every choice of the action is made. The preview is for showing
    only: the move is still checked in full when it is sent.
    """
    if not steps or steps[0].kind != "card":
        return None
    card = steps[0].value
    length = len(rules.action_options(state, card)[0])
    values = [c.value if c.kind != "none" else NONE for c in steps[1:]]
    if len(values) < length:
        return None
    court = (values[length], values[length + 1]) if len(values) >= length + 2 else None
    after = state.copy()
    rules.play(after, make_move(CARDS[card], tuple(values[:length]), court))
    return after
