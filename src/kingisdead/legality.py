"""Why a move is illegal, in the rule's own words.

The compiled core only answers whether a move is legal (``rules.rs::is_legal``);
the reference says which rule the move breaks, so that a refused move is explained
to the player (:class:`~kingisdead.moves.IllegalMoveError`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .board import FIRST_CUNNING, LOYALISTS, NEIGHBOURS, NUM_REGIONS, UNRESOLVED, Card, Cunning, card_kind
from .lastcard import last_card_applies, wins_outright
from .moves import NONE, PASS, IllegalMoveError, Move, normalise
from .rules import (
    AMBASSADOR,
    CROWN,
    EXCHANGES,
    GARRISON,
    SETTLEMENTS,
    active_ban,
    card_actions,
    court_options_after,
    faction_targets,
    is_banned,
    swappable_cards,
)

if TYPE_CHECKING:
    from .state import GameState


def _name(s: GameState, region: int) -> str:
    return s.edition.regions[region]


def _title(s: GameState, card: int) -> str:
    return s.edition.cards[card] if card < FIRST_CUNNING else Cunning(card).title


def check_move(s: GameState, move: Move) -> Move:
    """Raise IllegalMoveError naming the broken rule; return the move in canonical form if legal."""
    if s._result is not None:
        raise IllegalMoveError("the game is over")
    if not isinstance(move, Move):
        raise IllegalMoveError(f"not a move: {move!r}")
    if move.card is None:
        if move.action or move.court is not None:
            raise IllegalMoveError("a pass has no action and no court call")
        return PASS
    try:
        kind = card_kind(move.card) if s.edition.advanced else Card(move.card)
    except (TypeError, ValueError):
        raise IllegalMoveError(f"unknown card {move.card!r}") from None
    if isinstance(kind, Cunning):
        return _check_cunning(s, kind, move)
    card = kind
    p = s.player
    if not s.hands[p * 7 + card]:
        raise IllegalMoveError(f"{_title(s, card)}: player {p + 1} has no {_title(s, card)} card left")
    action = move.action
    if not isinstance(action, tuple) or not all(isinstance(x, int) for x in action):
        raise IllegalMoveError(f"{_title(s, card)}: the action must be a tuple of integers")
    action = normalise(card, action)
    if action not in card_actions(s, card):
        _explain_action(s, card, action)
        raise IllegalMoveError(f"{_title(s, card)}: {action} is not a legal action here")
    _check_court(s, court_options_after(s, card, action), move.court)
    move = Move(card, action, move.court)
    _check_last_card(s, move)
    return move


def _check_last_card(s: GameState, move: Move) -> None:
    if last_card_applies(s) and not wins_outright(s, move):
        raise IllegalMoveError(
            "last card: with 3 players the last card of the game may only be played "
            "by a move that wins the game, and this move does not"
        )


def _check_cunning(s: GameState, card: Cunning, move: Move) -> Move:
    """:func:`check_move` for the advanced game's Cunning cards."""
    title, p = card.title, s.player
    if card is Cunning.PLOT:
        raise IllegalMoveError(f"{title}: Plot is never played; its holder reveals it when the winner is decided")
    if not s.cunning[p] >> (card - FIRST_CUNNING) & 1:
        raise IllegalMoveError(f"{title}: player {p + 1} does not hold the {title} card")
    action = move.action
    if not isinstance(action, tuple) or not all(isinstance(x, int) for x in action):
        raise IllegalMoveError(f"{title}: the action must be a tuple of integers")
    action = normalise(card, action)
    options = card_actions(s, card)
    if action not in options:
        _explain_cunning(s, card, action, options)
        raise IllegalMoveError(f"{title}: {action} is not a legal action here")
    _check_court(s, court_options_after(s, card, action), move.court)
    move = Move(card, action, move.court)
    _check_last_card(s, move)
    return move


def _explain_cunning(s: GameState, card: Cunning, action: tuple[int, ...], options: list[tuple[int, ...]]) -> None:
    """Raise the most specific reason why ``action`` is not legal for Cunning ``card``, where one is clear."""
    title = card.title
    if card is Cunning.SPY and action:
        seat = action[0]
        if seat == s.player or seat not in range(s.players):
            raise IllegalMoveError(f"{title}: a Spy copies the top card of another player's pile")
        top = s.tops[seat]
        if top < 0:
            raise IllegalMoveError(f"{title}: player {seat + 1} has played no card yet")
        if len(action) < 2 or action[1] != top:
            raise IllegalMoveError(f"{title}: the top of player {seat + 1}'s pile is {_title(s, top)}")
        if top == Cunning.SPY and s.edition.spy_spy == "forbidden":
            raise IllegalMoveError(f"{title}: a pile topped by a Spy cannot be spied")
    if options == [()]:
        raise IllegalMoveError(f"{title}: nothing can happen here, so the card is played with no action")
    if not action:
        raise IllegalMoveError(f"{title}: the card can have an effect here, so it is carried out as fully as it can")
    if card is Cunning.SPY:
        return
    if all(len(o) > len(action) for o in options):
        raise IllegalMoveError(f"{title}: a fuller effect is possible, so this partial one is not allowed")
    ban = active_ban(s, card)
    if ban is not None and is_banned(s, action, ban):
        raise IllegalMoveError(
            f"{title}: this would immediately undo player {s.undo_ban[0] + 1}'s exchange"  # type: ignore[index]
        )


def _check_court(s: GameState, options: list[tuple[int, int]], court: object) -> None:
    """Raise the reason why ``court`` is not among the court calls ``options`` open after the card."""
    open_mask = s.open
    if court is None:
        if options:
            raise IllegalMoveError("court call: a follower must be called to court")
        return
    if not options:
        raise IllegalMoveError("court call: no unresolved region has a follower to call")
    if court in options:
        return
    if not (isinstance(court, tuple) and len(court) == 2 and court[0] in range(8) and court[1] in range(4)):
        raise IllegalMoveError(f"court call: {court!r} is not a (region, faction) pair")
    region, faction = court
    if faction == LOYALISTS:
        raise IllegalMoveError("court call: Loyalists are never called to court")
    if not open_mask >> region & 1:
        raise IllegalMoveError(f"court call: {_name(s, region)} is resolved; nothing leaves it")
    raise IllegalMoveError(f"court call: {_name(s, region)} has no {s.edition.factions[faction]} follower to call")


def _valid_shape(title: str, action: tuple[int, ...], kinds: str) -> None:
    """Check that an action's parts are regions ('r') and factions ('f') as expected."""
    if len(action) != len(kinds):
        raise IllegalMoveError(f"{title}: expected {len(kinds)} choices, got {len(action)}")
    for value, kind in zip(action, kinds):
        if kind == "r" and value not in range(NUM_REGIONS):
            raise IllegalMoveError(f"{title}: {value} is not a region")
        if kind == "f" and value not in range(4):
            raise IllegalMoveError(f"{title}: {value} is not a faction")


def _explain_action(s: GameState, card: Card, action: tuple[int, ...]) -> None:
    """Raise the most specific reason why ``action`` is not legal for ``card``."""
    title = _title(s, card)
    if card == CROWN:
        free = swappable_cards(s)
        if len(free) < 2:
            raise IllegalMoveError(f"{title}: fewer than two region cards can be swapped, so the Crown does nothing")
        if not action:
            raise IllegalMoveError(f"{title}: two region cards can be swapped, so the Crown must swap them")
        _valid_shape(title, action, "rrr")
        a, b, crowned = action
        for r in (a, b):
            if s.control[r] != UNRESOLVED:
                raise IllegalMoveError(f"{title}: {_name(s, r)} is resolved; its card is face down")
            if s.crowns[r] >= 0:
                raise IllegalMoveError(f"{title}: {_name(s, r)}'s card carries a Crown token and cannot be swapped")
        if a == b:
            raise IllegalMoveError(f"{title}: swap two different region cards")
        if crowned not in (a, b):
            raise IllegalMoveError(f"{title}: the Crown token goes on one of the two swapped cards")
        return
    if card in EXCHANGES:
        options = card_actions(s, card)
        if not action:
            raise IllegalMoveError(f"{title}: an exchange is possible, so one must be made")
        if card == GARRISON and len(action) == 4 and len(options[0]) == 5:
            raise IllegalMoveError(f"{title}: a 2-for-1 exchange exists, so a 1-for-1 exchange is not allowed")
        if card == AMBASSADOR and len(action) != 4:
            raise IllegalMoveError(f"{title}: the Ambassador exchanges one follower for one")
        _valid_shape(title, action, "rffrf" if len(action) == 5 else "rfrf")
        a, b = action[0], action[-2]
        for r in (a, b):
            if not s.open >> r & 1:
                raise IllegalMoveError(f"{title}: {_name(s, r)} is resolved; nothing enters or leaves it")
        if a == b:
            raise IllegalMoveError(f"{title}: the exchange is between two different regions")
        if card == GARRISON and not NEIGHBOURS[a] >> b & 1:
            raise IllegalMoveError(f"{title}: {_name(s, a)} does not border {_name(s, b)}")
        given, taken = list(action[1:-2]), [action[-1]]
        for region, leaving in ((a, given), (b, taken)):
            for f in set(leaving):
                have, need = s.board[region * 4 + f], leaving.count(f)
                if have < need:
                    raise IllegalMoveError(
                        f"{title}: {_name(s, region)} has {have} {s.edition.factions[f]} follower(s), not {need}")
        ban = active_ban(s, card)
        if ban is not None and is_banned(s, action, ban):
            raise IllegalMoveError(
                f"{title}: this would immediately undo player {s.undo_ban[0] + 1}'s exchange"  # type: ignore[index]
            )
        if len(action) == 5:
            raise IllegalMoveError(f"{title}: no 2-for-1 exchange is possible, so exchange 1 for 1")
        return
    if card == SETTLEMENTS:
        _valid_shape(title, action, "xxx")
        for f, r in enumerate(action):
            if r == NONE:
                if s.stock[f]:
                    raise IllegalMoveError(f"{title}: a {s.edition.factions[f]} follower is in the stock, so it must be placed")
                continue
            if r not in range(NUM_REGIONS):
                raise IllegalMoveError(f"{title}: {r} is not a region")
            if not s.stock[f]:
                raise IllegalMoveError(f"{title}: no {s.edition.factions[f]} follower is left in the stock")
            if not s.open >> r & 1:
                raise IllegalMoveError(f"{title}: {_name(s, r)} is resolved; nothing may enter it")
        return
    faction = card - Card.SCOTS
    name = s.edition.factions[faction]
    targets = faction_targets(s, faction)
    count = min(2, s.stock[faction]) if targets else 0
    if len(action) != count:
        if not targets:
            why = f"no unresolved region borders a region the {name} control"
        elif count < 2:
            why = f"the stock holds {s.stock[faction]} {name} follower(s)"
        else:
            why = f"2 {name} followers can be placed, so both must be"
        raise IllegalMoveError(f"{title}: {why}; place exactly {count}")
    for r in action:
        if r not in range(NUM_REGIONS):
            raise IllegalMoveError(f"{title}: {r} is not a region")
        if not s.open >> r & 1:
            raise IllegalMoveError(f"{title}: {_name(s, r)} is resolved; nothing may enter it")
        if r not in targets:
            raise IllegalMoveError(f"{title}: {_name(s, r)} does not border a region the {name} control")
    if s.edition.support_together and len(set(action)) > 1:
        raise IllegalMoveError(f"{title}: both {name} followers go into the same region")
