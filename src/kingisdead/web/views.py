"""What the browser is shown: per-seat views of a position, moves in words, step prompts.

A position as the engine keeps it contains every hand. The rules let a player
see only their own hand and the top card and size of everyone else's pile, so
:func:`table_view` builds the view for one seat and leaves the other hands out
entirely: the server never sends what a seat may not see.
"""

from __future__ import annotations

from typing import Any

from .. import engine
from ..board import (
    CARDS,
    CUNNING,
    FACTION_NAMES,
    FIRST_CUNNING,
    MORDRED_FLAGS,
    NUM_CARDS,
    NUM_REGIONS,
    Card,
)
from ..building import Choice
from ..edition import CUNNING_CARDS, FIRST, Edition
from ..moves import NONE, Move, format_move, make_move
from ..state import GameState
from .explain import explain_result, hand_effects, struggle_now
from .i18n import N_, Text, _, and_list, join
from .texts import CUNNING_RULES, EDITION_TEXTS

LEVEL_TEXTS = {
    "beginner": (_("beginner"), _("greedy over a few drawn moves, with a random move two times in three")),
    "intermediate": (_("intermediate"), _("greedy: looks at every legal move, one move deep")),
    "strong": (_("strong"), _("Monte Carlo tree search with the endgame solver, 1 s a move")),
    "max": (_("max"), _("the same search on two cores, 2 s a move")),
    "master": (_("master"), _("the search guided by a network learnt in self-play, two cores, 2 s a move")),
}
"""The engine's levels (bots.levels.LEVELS) by name: label and description as interface texts (a description
the engine has since reworded is shown as the engine words it, in English; tests/web/test_i18n.py checks)."""
LEVEL_FEEL = {
    "beginner": _("plays loosely and often throws a turn away: a first game's opponent"),
    "intermediate": _("grabs what helps most right now, keeping a few cards for the struggles to come"),
    "strong": _("plans several moves ahead and punishes mistakes: a real fight"),
    "max": _("plays like the strong bot with twice the thought: hard to beat"),
    "master": _("the strongest: taught by thousands of its own games, for seasoned players"),
}
"""What playing each level is like, in a player's words (the lobby shows these; the engine's words above
are the option's tooltip)."""


def bot_levels() -> list[dict[str, Any]]:
    """The engine's level ladder for the lobby: name, label (in words), ``feel`` (what playing it is like), what
    it is in the engine's words (``description``), about how long it thinks a move, and whether the description
    says so already."""
    from ..bots.levels import LEVELS

    return [{"name": level.name, "label": LEVEL_TEXTS.get(level.name, (level.name,))[0],
             "feel": LEVEL_FEEL.get(level.name, level.description),
             "description": described if (described := LEVEL_TEXTS.get(level.name, ("", ""))[1]) == level.description
             else level.description,
             "thinks_in_description": " a move" in level.description,
             "thinks": _("moves at once") if level.budget is None
             else _("a fixed search a move") if level.budget.seconds is None
             else _("thinks about {seconds} s a move", seconds=f"{level.budget.seconds:g}")}
            for level in LEVELS.values()]


def choice_label(kind: str, value: int, edition: Edition = FIRST) -> str:
    """A move step's label in words, in ``edition``'s names: the card, region or faction it names; region names
    are proper names."""
    if kind == "card":  # the advanced game's Cunning cards (7 to 18) keep their English names, as in the views
        return edition.card_name(value) if value >= FIRST_CUNNING else EDITION_TEXTS[edition.name].cards[value]
    if kind == "region":
        return edition.regions[value]
    if kind == "faction":
        return EDITION_TEXTS[edition.name].factions[value]
    return _("pass") if kind == "pass" else _("none")


def board_facts(edition: Edition = FIRST) -> dict[str, Any]:
    """The fixed data the browser needs to draw a table of ``edition`` (names, borders, homes, Mordred flags).

    ``edition`` (in the answer: its name) names the folder of /static/editions/ that holds the
    board's drawing and the card faces (static/edition.js loads them); ``card_rules`` each card's
    rule in a sentence. ``invaders`` gives the title of the invaders' track (``track``: Saxons,
    France), what its tokens do (``about``) and the invasion's name (``invasion``);
    ``seat_token`` names a player's token on a region card (Crown token, negotiation disc);
    ``cunning_cards`` the advanced game's Cunning cards (numbers 7 to 18; the second edition's only) and
    ``cunning_rules`` their rules in a sentence each.
    """
    texts = EDITION_TEXTS[edition.name]
    return {
        "edition": edition.name,
        "regions": [{"name": name, "code": code} for name, code in zip(edition.regions, edition.region_codes, strict=True)],
        "borders": [[int(a), int(b)] for a, b in edition.borders],
        "homes": [int(r) for r in edition.homes],
        "factions": list(texts.factions),
        "cards": list(texts.cards),
        "card_keys": list(edition.cards),
        "controls": list(texts.controls),
        "card_rules": list(texts.card_rules),
        "invaders": {"track": texts.track, "about": texts.about, "invasion": texts.invasion},
        "seat_token": texts.seat_token,
        "mordred_flags": [int(r) for r in MORDRED_FLAGS],
        "cunning_cards": list(CUNNING_CARDS) if edition.name == "second" else [],
        "cunning_rules": list(CUNNING_RULES) if edition.name == "second" else [],
    }


def hand_of(state: GameState, seat: int) -> list[int]:
    return state.hands[seat * NUM_CARDS:(seat + 1) * NUM_CARDS]


def cunning_cards(mask: int) -> list[int]:
    """The card numbers (7-18) of a bit mask of Cunning cards (bit ``i``: card ``7 + i``), in card order."""
    return [int(card) for i, card in enumerate(CUNNING) if mask >> i & 1]


def table_view(state: GameState, seat: int | None, reveal: bool = False) -> dict[str, Any]:
    """The position as ``seat`` may see it (None: a spectator); ``reveal`` shows every hand. ``edition`` names
    the game's edition (views.board_facts gives its names).

    Other players' hands are absent, not blanked: only the top card and the
    number of cards left of each pile are public. In the advanced game ``cunning`` lists the seat's own
    Cunning cards, read from its view (:meth:`GameState.view`: never another seat's, nor the box's; those
    played are in the log, as every card, and on the piles' tops); ``reveal`` adds ``cunning_hands``, the
    Cunning cards each player still holds (Plot's holder among them). ``struggle`` says who leads
    the contested region and what an all-pass gives (``explain.struggle_now``);
    ``card_effects`` what each card of the seat's hand would do here
    (``explain.hand_effects``), for the seat to move only (None for the others
    and spectators: the position will have changed by their turn).
    """
    n = state.players
    view: dict[str, Any] = {
        "players": n,
        "variant": state.variant,
        "edition": state.edition.name,
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
        "last_card_rule": engine.last_card_applies(state),
        "result": None if state.result is None else state.result.to_dict(),
        "explanation": explain_result(state),
        "hand": hand_of(state, seat) if seat is not None else None,
        "mode": state.edition.mode,
        "cunning": cunning_cards(state.view(seat).cunning) if seat is not None else None,
        "struggle": struggle_now(state),
        "card_effects": hand_effects(state, seat) if seat is not None and seat == state.player else None,
    }
    if reveal:
        view["hands"] = [hand_of(state, p) for p in range(n)]
        view["cunning_hands"] = [cunning_cards(mask) for mask in state.cunning]
    return view


# -- moves in words ------------------------------------------------------------------

MOVE_TEXTS = {
    "pass": N_("passes"),
    "no_action": N_("{card}: no action possible"),
    "crown": N_("{card}: swaps {first} and {second}, crowns {crowned}"),
    "garrison_two": N_("{card}: {first} and {second} leave {source} for {target}, a {back} follower comes back"),
    "exchange": N_("{card}: exchanges a {faction} follower in {region} with a {other_faction} follower in "
                   "{other_region}"),
    "placement": N_("{faction} to {region}"),
    "settlements": N_("{card}: {placements}"),
    "nothing_to_place": N_("{card}: nothing to place"),
    "two_in_one": N_("{card}: places 2 followers in {region}"),
    "places": N_("{card}: places followers in {regions}"),
    "court": N_("{action}; calls a {faction} follower from {region} to court"),
    "and": N_("{list} and {last}"),
    "cunning": N_("{card}: {action} (in the notation)"),
}
"""The sentences of :func:`describe_move`, by name (the browser fills them in too: web/choices.py)."""
SECOND_MOVE_TEXTS = MOVE_TEXTS | {
    "crown": N_("{card}: swaps {first} and {second}, puts the negotiation disc on {crowned}"),
    "garrison_two": N_("{card}: {first} and {second} leave {source} for {target}, one {back} follower comes back"),
    "exchange": N_("{card}: exchanges one {faction} follower in {region} with one {other_faction} follower in "
                   "{other_region}"),
    "court": N_("{action}; calls one {faction} follower from {region} to court"),
}
"""The same for the second edition: its Negotiate leaves a negotiation disc where the Crown left a Crown token,
and "one" stands before its faction names ("one English follower", never "a English")."""


def move_texts(edition: Edition) -> dict[str, str]:
    """The sentences of :func:`describe_move` in ``edition``."""
    return SECOND_MOVE_TEXTS if edition.name == "second" else MOVE_TEXTS


def _said(texts: dict[str, str], name: str, **params: Any) -> Text:
    """The text ``name`` of a table of texts, filled in (a call that text extraction does not mistake for one)."""
    return _(texts[name], **params)


def describe_move(move: Move, edition: Edition = FIRST) -> Text:
    """A move as a sentence in ``edition``'s names, e.g. 'Crown: swaps Deva and Londinium, crowns Londinium;
    calls ...'."""
    texts = move_texts(edition)
    if move.card is None:
        return _said(texts, "pass")
    card, a = move.card, move.action
    names = EDITION_TEXTS[edition.name]
    title = names.cards[card] if card < FIRST_CUNNING else edition.card_name(card)  # Cunning: its notation word
    regions, factions = edition.regions, names.factions
    if not a:
        text = _said(texts, "no_action", card=title)
    elif card >= FIRST_CUNNING:  # the advanced game's Cunning cards: the action as the notation writes it
        text = _said(texts, "cunning", card=title,
                     action=format_move(make_move(card, a), edition).split(" ", 1)[1])
    elif card == Card.CROWN:
        text = _said(texts, "crown", card=title, first=regions[a[0]], second=regions[a[1]], crowned=regions[a[2]])
    elif card == Card.GARRISON and len(a) == 5:
        text = _said(texts, "garrison_two", card=title, first=factions[a[1]], second=factions[a[2]],
                 source=regions[a[0]], target=regions[a[3]], back=factions[a[4]])
    elif card in (Card.GARRISON, Card.AMBASSADOR):
        text = _said(texts, "exchange", card=title, faction=factions[a[1]], region=regions[a[0]],
                 other_faction=factions[a[3]], other_region=regions[a[2]])
    elif card == Card.SETTLEMENTS:
        placed = [_said(texts, "placement", faction=factions[f], region=regions[r]) for f, r in enumerate(a) if r != NONE]
        text = _said(texts, "settlements", card=title, placements=join(placed)) if placed \
            else _said(texts, "nothing_to_place", card=title)
    elif len(a) == 2 and a[0] == a[1]:
        text = _said(texts, "two_in_one", card=title, region=regions[a[0]])
    else:
        text = _said(texts, "places", card=title, regions=and_list([regions[r] for r in a]))
    if move.court is not None:
        region, faction = move.court
        text = _said(texts, "court", action=text, faction=factions[faction], region=regions[region])
    return text


# -- what a move changed --------------------------------------------------------------------

def describe_struggle(region: int, counts: list[int], control: int, edition: Edition = FIRST) -> Text:
    """A struggle's outcome with its tally in ``edition``'s names, e.g. 'Deva: Welsh 3, Scots 3 — tie, the
    Saxons take it' (the second edition: '... — tie, Lancaster becomes unstable').

    ``counts`` holds the followers per faction (the three factions, then the
    Loyalists) in the region when the struggle was resolved; ``control`` who
    took the region (0-3 a faction, 4 the invaders: the Saxons, or instability).
    """
    names = EDITION_TEXTS[edition.name]
    present = sorted(((n, f) for f, n in enumerate(counts) if n), key=lambda t: (-t[0], t[1]))
    tally = join([_("{faction} {count}", faction=names.factions[f], count=n) for n, f in present]) if present \
        else _("no followers")
    tie = len(present) > 1 and present[0][0] == present[1][0]
    if control == len(FACTION_NAMES) and edition.name == "second":
        why = _("tie, {region} becomes unstable", region=edition.regions[region]) if tie \
            else _("{region} becomes unstable", region=edition.regions[region])
    elif control == len(FACTION_NAMES):
        why = _("tie, the Saxons take it") if tie else _("the Saxons take it")
    else:
        why = _("the {faction} take control", faction=names.controls[control])
    return _("{region}: {tally} — {outcome}", region=edition.regions[region], tally=tally, outcome=why)


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
                          "text": describe_struggle(region, counts, control, after.edition), "loyalist": loyalist})
    return {"touched": sorted(touched), "arrived": arrived, "left": left, "exchange": exchange,
            "swap": swap, "court": court, "struggles": struggles}


# -- step-by-step prompts ----------------------------------------------------------------

_ACTION_PROMPTS: dict[tuple[int, int], tuple[str, ...]] = {  # {0}, {2}, {3}: the region chosen at that step
    (Card.CROWN, 3): (N_("Choose a region card to swap"), N_("Choose the card to swap it with"),
                      N_("Choose which of the two cards gets your Crown token")),
    (Card.GARRISON, 5): (N_("Choose the region that sends two followers"),
                         N_("Choose the first follower that leaves {0}"), N_("Choose the second follower that leaves {0}"),
                         N_("Choose the bordering region they go to"), N_("Choose the follower that comes back from {3}")),
    (Card.GARRISON, 4): (N_("Choose a region for the exchange"), N_("Choose the follower that leaves {0}"),
                         N_("Choose the bordering region to exchange with"),
                         N_("Choose the follower that comes back from {2}")),
    (Card.AMBASSADOR, 4): (N_("Choose a region for the exchange"), N_("Choose the follower that leaves {0}"),
                           N_("Choose the other region"), N_("Choose the follower that comes back from {2}")),
    (Card.SETTLEMENTS, 3): (N_("Choose where the {faction} follower from the stock goes"),) * 3,
}
_SECOND_EDITION_PROMPTS: dict[tuple[int, int], str] = {
    (Card.CROWN, 2): N_("Choose which of the two cards gets your negotiation disc"),
}
"""The steps the second edition words otherwise, by (card, step)."""
_FACTION_PROMPTS = (N_("Choose a region for the first {faction} follower"),
                    N_("Choose a region for the second {faction} follower"))


def action_prompts(card: int, length: int, edition: Edition = FIRST) -> list[Text]:
    """The prompt of each step of ``card``'s action (``length`` steps) in ``edition``'s names; ``{i}`` stands
    for the label of the choice made at step i."""
    factions = EDITION_TEXTS[edition.name].factions
    if card >= Card.SCOTS:
        return [_(_FACTION_PROMPTS[i], faction=factions[card - Card.SCOTS]) for i in range(length)]
    prompts = list(_ACTION_PROMPTS[(card, length)]) if length else []
    if edition.name == "second":
        prompts = [_SECOND_EDITION_PROMPTS.get((card, i), prompt) for i, prompt in enumerate(prompts)]
    return [_(prompt, faction=factions[i]) if card == Card.SETTLEMENTS else _(prompt) for i, prompt in enumerate(prompts)]


def _action_prompt(card: int, length: int, chosen: list[Choice], edition: Edition) -> Text:
    prompt = action_prompts(card, length, edition)[len(chosen)]
    return Text(prompt.msgid, {**prompt.params, **{str(i): choice_label(c.kind, c.value, edition)
                                                   for i, c in enumerate(chosen)}})


def partial_notes(state: GameState, card: int, length: int) -> list[str]:
    """Why a card's action will be partial here, in words of the state's edition (empty when it is full)."""
    notes: list[str] = []
    names = EDITION_TEXTS[state.edition.name]
    if card == Card.CROWN and length == 0:
        notes.append(_("Partial action: fewer than two region cards can be swapped (cards with a negotiation "
                       "disc and resolved cards cannot), so {card} only lets you call a follower.",
                       card=names.cards[card]) if state.edition.name == "second" else
                     _("Partial action: fewer than two region cards can be swapped (crowned and resolved "
                       "cards cannot), so the Crown only lets you call a follower."))
    elif card == Card.GARRISON and length == 4:
        notes.append(_("Partial action: no region can send two followers to a bordering region, so the "
                       "{card} exchanges one follower for one.", card=names.cards[card]))
    elif card in (Card.GARRISON, Card.AMBASSADOR) and length == 0:
        notes.append(_("Partial action: no exchange is possible, so the {card} only lets you call a follower.",
                       card=names.cards[card]))
    elif card == Card.SETTLEMENTS:
        for f in range(3):
            if not state.stock[f]:
                notes.append(_("Partial action: the stock has no {faction} follower left, so none is placed.",
                               faction=names.factions[f]))
    elif card >= Card.SCOTS:
        f = card - Card.SCOTS
        name = names.factions[f]
        if not state.stock[f]:
            notes.append(_("Partial action: the stock has no {faction} follower left, so none is placed.",
                           faction=name))
        elif not engine.faction_targets(state, f):
            notes.append(_("Partial action: no unresolved region borders a region the {faction} control, "
                           "so no follower is placed.", faction=name))
        elif length == 1:
            notes.append(_("Partial action: only one {faction} follower is left in the stock.", faction=name))
    if card in (Card.GARRISON, Card.AMBASSADOR) and (ban := state.undo_ban) is not None \
            and _ban_restricts(state, card):
        notes.append(_("Player {n}'s last exchange may not be reversed right away.", n=ban[0] + 1))
    return notes


def _ban_restricts(state: GameState, card: int) -> bool:
    """Whether the undo ban takes an action away from ``card`` here: the engine's actions with the ban
    against those it would allow without it (a ban on another card or another kind of exchange, or
    on the mover's own exchange, takes none)."""
    unbanned = state.copy()
    unbanned.undo_ban = None
    return engine.card_actions(state, card) != engine.card_actions(unbanned, card)


STEP_TEXTS = {
    "last_card": N_("Last card (3 players): the last card of the game may only be played by a move "
                    "that wins the game outright; if none does, you can only pass."),
    "play": N_("Play a card from your hand, or pass"),
    "confirm_pass": N_("Confirm your pass, or go back"),
    "confirm": N_("Confirm your move, or go back"),
    "no_court": N_("No follower is left on the board to call to court."),
    "court_region": N_("Call a follower to court: choose a region"),
    "court_faction": N_("Call a follower to court: choose one in {region}"),
    "cunning_step": N_("{card}: choose the next part of its action, then the follower to call to court"),
}
"""The prompts and notes of :func:`step_guide`, by name (the browser fills them in too: web/choices.py)."""


def step_guide(state: GameState, steps: list[Choice], complete: bool) -> dict[str, Any]:
    """The prompt for the next step and notes on partial actions and the last-card rule."""
    texts = STEP_TEXTS
    notes: list[str] = []
    if engine.last_card_applies(state):
        notes.append(_said(texts, "last_card"))
    if not steps:
        return {"prompt": _said(texts, "play"), "notes": notes}
    if steps[0].kind == "pass":
        return {"prompt": _said(texts, "confirm_pass"), "notes": notes}
    card = steps[0].value
    if card >= FIRST_CUNNING:  # a Cunning card's actions have several shapes: one prompt for each step
        prompt = _said(texts, "confirm") if complete else _said(texts, "cunning_step", card=state.edition.card_name(card))
        return {"prompt": prompt, "notes": notes}
    length = len(engine.card_actions(state, card)[0])
    notes += partial_notes(state, card, length)
    chosen = steps[1:1 + length]
    called = steps[1 + length:]
    if complete:
        if len(chosen) == length and not called:
            notes.append(_said(texts, "no_court"))
        prompt = _said(texts, "confirm")
    elif len(chosen) < length:
        prompt = _action_prompt(card, length, chosen, state.edition)
    elif not called:
        prompt = _said(texts, "court_region")
    else:
        prompt = _said(texts, "court_faction", region=choice_label(called[0].kind, called[0].value, state.edition))
    return {"prompt": prompt, "notes": notes}


def preview(state: GameState, steps: list[Choice]) -> GameState | None:
    """The position once the card's action (and the court call, if chosen) is carried out.

    None until every choice of the action is made, and for a Cunning card (whose actions have several
    lengths: the move's own position once complete). The preview is for showing only: the move is still
    checked in full when it is sent.
    """
    if not steps or steps[0].kind != "card" or steps[0].value >= FIRST_CUNNING:
        return None
    card = steps[0].value
    length = len(engine.card_actions(state, card)[0])
    values = [c.value if c.kind != "none" else NONE for c in steps[1:]]
    if len(values) < length:
        return None
    court = (values[length], values[length + 1]) if len(values) >= length + 2 else None
    after = state.copy()
    engine.play_unchecked(after, make_move(CARDS[card], tuple(values[:length]), court))
    return after
