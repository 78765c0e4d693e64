"""Rich rendering of a game for the terminal.

Everything a person at the table could see is drawn here: the regions in
region-card order with their followers, the common stock, each court, each top
card and how many cards are left. A hand is drawn only for the player it
belongs to (the rulebook keeps hands hidden, partners included). The command
line (:mod:`kingisdead.cli`) decides when to draw what; this module only turns
engine values into text and tables, in the words of the game's edition (its
regions, factions, cards and invaders: :class:`kingisdead.edition.Edition`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich import box
from rich.console import Console, ConsoleOptions, Group, RenderResult
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from . import engine
from .board import (
    FACTION_CARD,
    MORDRED_FLAGS,
    NEIGHBOURS,
    NUM_REGIONS,
    SAXONS,
    UNRESOLVED,
    Card,
    Cunning,
)
from .building import Choice, MoveBuilder
from .edition import FIRST, Edition
from .moves import NONE, Move, format_move, make_move, parse_move
from .scoring import Result
from .state import GameState

FACTION_STYLES = ("bold bright_blue", "bold red", "bold yellow", "bold magenta")
"""Scots (Scottish) blue, Welsh red, Romano-British (English) yellow as on the board; Loyalists in magenta."""


@dataclass(frozen=True)
class Words:
    """What an edition calls the things the terminal talks about beyond its names of regions, factions and cards."""

    short_factions: tuple[str, ...]
    """Column headings for the factions and the Loyalists (kept short: the table fits 80 columns)."""
    adjectives: tuple[str, ...]
    """A follower of each kind: 'a Scots follower'."""
    token: str
    """The token a Crown (Negotiate) card puts on a region card."""
    invaders_token: str
    """What a region without a ruler receives, counted towards the ending ('Saxon token')."""
    unruled: str
    """The status of a region that fell to the invaders."""
    taken: str
    """What happens to a region a struggle leaves without a ruler."""
    examples: tuple[tuple[str, str], ...]
    """Moves in the first edition's notation (shown in the edition's) with what each does."""


WORDS = {
    "first": Words(
        short_factions=("Scots", "Welsh", "R-Brit", "Loyal"),
        adjectives=("Scots", "Welsh", "Romano-British", "Loyalist"),
        token="Crown token", invaders_token="Saxon token", unruled="Saxons", taken="the Saxons take it",
        examples=(
            ("pass", "let the struggle go on without you"),
            ("Crown Dev<>Lon *Lon +Ebo:W",
             "swap two region cards, your Crown token on Lon, call a Welsh from Eboracum"),
            ("Garrison Dev:SW>Ebo:R +Ebo:S", "a Scots and a Welsh leave Deva for Eboracum, a Romano-British goes back"),
            ("Garrison Dev:S<>Ebo:R +Ebo:S", "the one-for-one Garrison (only when no two-for-one exists anywhere)"),
            ("Ambassador Cal:S<>Lon:R +Lon:S", "swap one follower of Caledonia with one of Londinium"),
            ("Settlements S>Lon W>Dev R>Lon +Dev:W", "one follower of each faction from the stock"),
            ("Scots Din Din +Cal:S", "two Scots from the stock into Din Eidyn"),
            ("Crown +Ebo:W", "a card whose action is impossible still calls a follower to court"),
        )),
    "second": Words(
        short_factions=("Scottish", "Welsh", "English", "Loyal"),
        adjectives=("Scottish", "Welsh", "English", "Loyalist"),
        token="negotiation disc", invaders_token="instability disc", unruled="unstable",
        taken="it becomes unstable",
        examples=(
            ("pass", "let the struggle go on without you"),
            ("Crown Dev<>Lon *Lon +Ebo:W",
             "swap two region cards, your negotiation disc on Ess, call a Welsh from Northumbria"),
            ("Garrison Dev:SW>Ebo:R +Ebo:S",
             "a Scottish and a Welsh leave Lancaster for Northumbria, an English goes back"),
            ("Garrison Dev:S<>Ebo:R +Ebo:S", "the one-for-one Outmanoeuvre (only when no two-for-one exists anywhere)"),
            ("Ambassador Cal:S<>Lon:R +Lon:S", "swap one follower of Moray with one of Essex"),
            ("Settlements S>Lon W>Dev R>Lon +Dev:W", "one follower of each faction from the stock"),
            ("Scots Din Din +Cal:S", "two Scottish from the stock into Strathclyde"),
            ("Crown +Ebo:W", "a card whose action is impossible still calls a follower to court"),
        )),
}
"""The terminal's words by edition name."""


def words(edition: Edition) -> Words:
    return WORDS[edition.name]


def help_view(edition: Edition = FIRST) -> Group:
    """How to enter a move in ``edition``'s notation, the game's commands, and how to read the table."""
    said = words(edition)
    examples = Table.grid(padding=(0, 2))
    examples.add_column(no_wrap=True, style="bold cyan")
    examples.add_column()
    for notation, meaning in said.examples:
        examples.add_row("  " + format_move(parse_move(notation), edition), meaning)
    codes = ", ".join(edition.faction_codes[:3])
    flags = (" In the Mordred variant, Flag is the region that gets a Loyalist when this one is resolved."
             if edition.mordred else "")
    return Group(
        Text.from_markup("[bold]Type a move in notation[/bold] (regions by their three-letter codes, "
                         f"factions by {codes}; a follower called to court last, after +):"),
        examples,
        Text.from_markup(
            "[bold]Or build it step by step[/bold]: type the number of a choice; [bold]back[/bold] undoes "
            "the last step.\n"
            "[bold]board[/bold] shows the table again, [bold]borders[/bold] lists the borders, [bold]help[/bold] "
            "shows this, [bold]quit[/bold] saves the game record and stops.\n"
            "[bold]The map[/bold] lists the regions by region-card position (#): the struggle is for the one "
            f"marked contested. ✓ marks the faction in control, Pn under ♛ player n's {said.token} (that card "
            f"can no longer be swapped).{flags}"),
    )


def player_label(seat: int, seats: Sequence[str]) -> str:
    """'Player 2 (greedy)': people count seats from 1."""
    return f"Player {seat + 1} ({seats[seat]})"


def _faction(kind: int, text: str) -> Text:
    return Text(text, style=FACTION_STYLES[kind])


def _count(n: int, kind: int) -> Text:
    return Text(str(n), style=FACTION_STYLES[kind]) if n else Text("·", style="dim")


def _status(state: GameState, region: int, position: int) -> Text:
    control = state.control[region]
    if control == SAXONS:
        return Text(words(state.edition).unruled, style="bold white on red")
    if control != UNRESOLVED:
        return _faction(control, f"{words(state.edition).short_factions[control]} ✓")
    if position == state.resolved and not state.is_over():
        return Text("contested", style="bold reverse")
    return Text("waiting", style="dim")


def _table(title: str) -> Table:
    """A compact table (no vertical rules) so that the whole table fits 80 columns."""
    return Table(title=title, title_justify="left", title_style="bold", box=box.SIMPLE_HEAD, pad_edge=False,
                 show_edge=False, collapse_padding=True)


def map_table(state: GameState, borders: bool = True) -> Table:
    """The eight regions in region-card order: followers, control, Crown tokens, borders.

    In the Mordred variant a column names the region that receives a Loyalist when
    this region is resolved (its flag).
    """
    kinds = 4 if state.mordred else 3
    edition, short = state.edition, words(state.edition).short_factions
    table = _table("Britain, by region-card position")
    table.add_column("#", justify="right")
    table.add_column("Region", no_wrap=True)
    for k in range(kinds):
        table.add_column(_faction(k, short[k]), justify="right")
    table.add_column("Status", no_wrap=True)
    table.add_column("♛", no_wrap=True)
    if state.mordred:
        table.add_column("Flag", no_wrap=True)
    if borders:
        table.add_column("Borders", no_wrap=True)
    for position, region in enumerate(state.order):
        crown = state.crowns[region]
        contested = position == state.resolved and not state.is_over()
        row: list[str | Text] = [
            str(position + 1),
            f"{edition.region_codes[region]} {edition.regions[region]}",
            *(_count(state.board[region * 4 + k], k) for k in range(kinds)),
            _status(state, region, position),
            f"P{crown + 1}" if crown >= 0 else "",
        ]
        if state.mordred:
            row.append(edition.region_codes[MORDRED_FLAGS[region]])
        if borders:
            row.append(" ".join(edition.region_codes[r] for r in neighbours(region)))
        resolved = state.control[region] != UNRESOLVED
        table.add_row(*row, style="bold" if contested else "dim" if resolved else None)
    return table


def neighbours(region: int) -> list[int]:
    return [r for r in range(NUM_REGIONS) if NEIGHBOURS[region] >> r & 1]


def borders_view(edition: Edition = FIRST) -> Text:
    """Every region with the regions it borders (for terminals too narrow for the map's column)."""
    codes = edition.region_codes
    text = Text("Borders:", style="bold")
    for region in range(NUM_REGIONS):
        text += Text(f"\n  {codes[region]} {edition.regions[region]}: "
                     + ", ".join(codes[r] for r in neighbours(region)))
    return text


def stock_line(state: GameState) -> Text:
    """The common stock, the Saxon tokens (instability discs) and the passes so far in this struggle."""
    edition = state.edition
    line = Text("Stock: ", style="bold")
    for k in range(3):
        line += _faction(k, edition.factions[k]) + Text(f" {state.stock[k]}  ")
    if state.mordred:
        line += _faction(3, "Loyalist supply") + Text(f" {state.stock[3]}")
    token = words(edition).invaders_token
    line += Text(f"\n{token[0].upper()}{token[1:]}s: ", style="bold")
    line += Text(f"{state.saxons} of {edition.invasion}", style="bold red" if state.saxons else "")
    line += Text("  Passes in a row: ", style="bold") + Text(f"{state.passes} of {state.players}")
    return line


def players_table(state: GameState, seats: Sequence[str]) -> Table:
    """Each player's court, top card and cards left, with the player to move marked."""
    table = _table("Players and their courts")
    table.add_column("")
    table.add_column("Player", no_wrap=True)
    for k in range(3):
        table.add_column(_faction(k, words(state.edition).short_factions[k]), justify="right")
    table.add_column("Top card", no_wrap=True)
    table.add_column("Cards left", justify="right")
    if state.players == 4:
        table.add_column("Team", no_wrap=True)
    for p in range(state.players):
        to_move = p == state.current_player and not state.is_over()
        top = state.top_card(p)
        row = [
            "▶" if to_move else "",
            player_label(p, seats),
            *(_count(n, k) for k, n in enumerate(state.court(p))),
            state.edition.card_name(top) if top is not None else "-",
            str(state.cards_left(p)),
        ]
        if state.players == 4:
            first, second = sorted((p, (p + 2) % 4))
            row.append(f"P{first + 1} & P{second + 1}")
        table.add_row(*row, style="bold" if to_move else None)
    return table


def hand_line(state: GameState, seat: int) -> Text:
    """The cards a player still holds (show it only to that player)."""
    name = state.edition.card_name
    cards = [f"{name(card)} ×{n}" if n > 1 else name(card) for card, n in state.hand(seat).items()]
    return Text("Your hand: ", style="bold") + Text(", ".join(cards) if cards else "no cards left (you can only pass)")


class TableView:
    """The whole table; ``hand_of`` is the seat whose hand may be shown, if any.

    The map drops its Borders column when the terminal is too narrow for it
    (the ``borders`` command of the game lists them instead).
    """

    def __init__(self, state: GameState, seats: Sequence[str], hand_of: int | None = None) -> None:
        self.state, self.seats, self.hand_of = state, seats, hand_of

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        state = self.state
        board = map_table(state)
        if Measurement.get(console, options.update_width(10_000), board).maximum > options.max_width:
            board = map_table(state, borders=False)
        yield board
        yield stock_line(state)
        yield players_table(state, self.seats)
        contested = state.contested
        if contested is not None and not state.is_over():
            yield Text(f"Struggle for {state.edition.regions[contested]} (region card {state.resolved + 1} of 8). "
                       f"{player_label(state.current_player, self.seats)} to move.", style="bold")
        if self.hand_of is not None:
            yield hand_line(state, self.hand_of)


# -- moves in words ------------------------------------------------------------------

def _a(kind: int, edition: Edition = FIRST) -> str:
    """'a Welsh', 'a Loyalist', 'an English': to go before 'follower'."""
    adjective = words(edition).adjectives[kind]
    return f"{'an' if adjective[0] in 'AEIOU' else 'a'} {adjective}"


def describe_move(move: Move, edition: Edition = FIRST) -> str:
    """A move in plain words in ``edition``'s names, to go with its notation."""
    if move.card is None:
        return "passes"
    court = (f"; calls {_a(move.court[1], edition)} follower from {edition.regions[move.court[0]]} to court"
             if move.court is not None else "; no follower to call to court")
    return f"plays {edition.card_name(move.card)}: {_action_words(move.card, move.action, edition)}{court}"


def _action_words(card: int, a: tuple[int, ...], edition: Edition) -> str:
    """What ``card``'s action ``a`` does, in words."""
    if card >= Cunning.SPY:
        return _cunning_words(card, a, edition)
    card = Card(card)  # a Spy's copied card comes as a plain number
    regions, said = edition.regions, words(edition)
    if card is Card.CROWN:
        what = (f"swaps the region cards of {regions[a[0]]} and {regions[a[1]]} "
                f"and puts the {said.token} on {regions[a[2]]}") if a else "cannot swap any region cards"
    elif card is Card.GARRISON and len(a) == 5:
        what = (f"{_a(a[1], edition)} and {_a(a[2], edition)} follower leave {regions[a[0]]} for {regions[a[3]]}, "
                f"{_a(a[4], edition)} follower goes back")
    elif card in (Card.GARRISON, Card.AMBASSADOR) and a:
        what = (f"{_a(a[1], edition)} follower of {regions[a[0]]} changes places with "
                f"{_a(a[3], edition)} follower of {regions[a[2]]}")
    elif card in (Card.GARRISON, Card.AMBASSADOR):
        what = "no exchange is possible"
    elif card is Card.SETTLEMENTS:
        placed = [f"{_a(f, edition)} follower in {regions[r]}" for f, r in enumerate(a) if r != NONE]
        what = "places " + (", ".join(placed) if placed else "nothing (the stock is empty)")
    else:
        faction = FACTION_CARD[card]
        name = said.adjectives[faction]
        if not a:
            what = f"no {name} follower can be placed"
        elif len(a) == 1:
            what = f"{_a(faction, edition)} follower to {regions[a[0]]}"
        elif a[0] == a[1]:
            what = f"two {name} followers to {regions[a[0]]}"
        else:
            what = f"one {name} follower each to {regions[a[0]]} and {regions[a[1]]}"
    return what


def _followers(kinds: Sequence[int], edition: Edition) -> str:
    """'a Welsh and an English follower'."""
    return " and ".join(_a(k, edition) for k in kinds) + " follower" if kinds else "no follower"


def _cunning_words(card: int, a: tuple[int, ...], edition: Edition) -> str:
    """What a Cunning card's action ``a`` does, in words (the advanced game)."""
    regions = edition.regions
    if not a:
        return "nothing can be done"
    if card == Cunning.SPY:
        if len(a) == 2:
            return f"copies player {a[0] + 1}'s {edition.card_name(a[1])}, which does nothing"
        return (f"copies player {a[0] + 1}'s {edition.card_name(a[1])}: "
                f"{_action_words(a[1], a[2:], edition)}")
    if card == Cunning.AID:
        return f"the {edition.factions[a[0]]} place followers from the stock in {regions[a[1]]}"
    if card == Cunning.AMBUSH:
        return f"Scottish followers placed in {regions[a[0]]}, then {_a(a[1], edition)} follower sent back"
    if card == Cunning.MARCH:
        return f"{_followers(a[1:-1], edition)} march from {regions[a[0]]} to {regions[a[-1]]}"
    if card in (Cunning.DISPUTE, Cunning.INFLUENCE, Cunning.EDICT):
        if len(a) == 4:
            return (f"{_a(a[1], edition)} follower of {regions[a[0]]} changes places with "
                    f"{_a(a[3], edition)} follower of {regions[a[2]]}")
        leaving, back = (a[1:3], a[4:]) if len(a) == 6 else (a[1:3], a[4:5])
        return (f"{_followers(leaving, edition)} leave {regions[a[0]]} for {regions[a[3]]}, "
                f"{_followers(back, edition)} come back")
    if card == Cunning.SUPPRESS:
        parts = ["an English follower sent back if there is one"]
        if a[1] != NONE:
            parts.append(f"then {_a(a[1], edition)} follower")
        if a[2] != NONE:
            parts.append(f"then {_a(a[2], edition)} follower placed")
        return f"in {regions[a[0]]}: " + ", ".join(parts)
    placed = _followers(a[1:], edition) + " placed"  # Resist, Muster, Quell
    if card == Cunning.RESIST:
        return f"{placed} in {regions[a[0]]}"
    home = edition.factions[0 if card == Cunning.MUSTER else 1]
    return f"in {regions[a[0]]}: a {home} follower sent back if there is one, {placed}"


def describe_resolution(state: GameState, position: int) -> str:
    """What the struggle at ``position`` (already resolved) ended in."""
    edition, said = state.edition, words(state.edition)
    region = state.order[position]
    control = state.control[region]
    name = edition.regions[region]
    if control == SAXONS:
        return (f"The struggle for {name} ends with no faction in the lead: {said.taken} "
                f"({said.invaders_token} {_saxons_until(state, position)} of {edition.invasion}).")
    return f"The struggle for {name} ends: the {edition.factions[control]} take control."


def _saxons_until(state: GameState, position: int) -> int:
    return sum(1 for r in state.order[:position + 1] if state.control[r] == SAXONS)


def result_view(result: Result, seats: Sequence[str]) -> Text:
    winners = " and ".join(player_label(p, seats) for p in result.winners)
    text = Text("Game over. ", style="bold") + Text(f"{winners} win{'s' if len(result.winners) == 1 else ''}.",
                                                     style="bold green")
    return text + Text("\n" + result.reason)


# -- building a move step by step ---------------------------------------------------------

def _step_names(card: int, length: int, edition: Edition = FIRST) -> list[str]:
    """What each of the ``length`` steps of a card's action means, in order, in ``edition``'s words.

    A card whose action is impossible here has no action steps (``length`` 0).
    """
    if card == Card.CROWN:
        names = ["first region card to swap", "second region card to swap",
                 f"region card for your {words(edition).token}"]
    elif card == Card.GARRISON and length == 5:
        names = ["region that two followers leave", "first follower to leave", "second follower to leave",
                 "bordering region they go to", "follower sent back in exchange"]
    elif card in (Card.GARRISON, Card.AMBASSADOR):
        names = ["first region of the exchange", "follower leaving it",
                 "second region of the exchange", "follower leaving that one"]
    elif card == Card.SETTLEMENTS:
        names = [f"region for the {edition.factions[f]} follower" for f in range(3)]
    else:
        name = edition.factions[FACTION_CARD[Card(card)]]
        names = [f"region for the first {name} follower", f"region for the second {name} follower"]
    return names[:length]


def _action_length(builder: MoveBuilder) -> int:
    """How many of the steps after the card belong to the card's action (the rest call to court)."""
    options = engine.card_actions(builder.state, builder.steps[0].value)
    return len(options[0]) if options else 0


def step_prompt(builder: MoveBuilder) -> str:
    """What the next choice of a move under construction decides."""
    steps = builder.steps
    if not steps:
        return "card to play (or pass)"
    names = _step_names(steps[0].value, _action_length(builder), builder.state.edition)
    done = len(steps) - 1
    if done < len(names):
        return names[done]
    return "region of the follower to call to court" if done == len(names) else "follower to call to court"


def board_for_choices(builder: MoveBuilder) -> list[int]:
    """The board the next choice is made on: once the action is chosen, the board after it."""
    state = builder.state
    if not builder.steps or builder.steps[0].kind != "card":
        return state.board
    length = _action_length(builder)
    if len(builder.steps) - 1 < length:
        return state.board
    action = tuple(NONE if c.kind == "none" else c.value for c in builder.steps[1:1 + length])
    after = state.copy()
    engine.play_unchecked(after, make_move(Card(builder.steps[0].value), action))
    return after.board


def steps_so_far(builder: MoveBuilder) -> str:
    return " › ".join(choice.name(builder.state.edition) for choice in builder.steps)


def choice_label(state: GameState, choice: Choice, board: Sequence[int] | None = None) -> str:
    """A choice with what helps decide it: the followers of a region, the copies of a card."""
    if choice.kind == "region":
        board = state.board if board is None else board
        base = choice.value * 4
        kinds = 4 if state.mordred else 3
        counts = " ".join(f"{state.edition.faction_codes[k]}{board[base + k]}" for k in range(kinds))
        return f"{state.edition.regions[choice.value]} ({counts})"
    if choice.kind == "card":
        copies = state.hands[state.current_player * 7 + choice.value] if choice.value < Cunning.SPY else 1
        return state.edition.card_name(choice.value) + (f" ×{copies}" if copies > 1 else "")
    return choice.name(state.edition)


class Flow:
    """Short items on as few lines as the width allows, never splitting an item."""

    def __init__(self, items: Sequence[Text], gap: int = 3) -> None:
        self.items, self.gap = items, gap

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        line = Text()
        for item in self.items:
            if line and line.cell_len + self.gap + item.cell_len > options.max_width:
                yield line
                line = Text()
            if line:
                line += Text(" " * self.gap)
            line += item
        yield line


def choices_view(builder: MoveBuilder) -> Flow:
    """The numbered choices of the next step."""
    board = board_for_choices(builder)
    return Flow([Text(f"{number})", style="bold cyan") + Text(" " + choice_label(builder.state, choice, board))
                 for number, choice in enumerate(builder.options(), start=1)])
