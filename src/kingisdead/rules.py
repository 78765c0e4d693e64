"""The rules: legal actions, what a move does, struggles and their resolution.

Functions here work on the flat lists of a :class:`~kingisdead.state.GameState`
and avoid creating objects on the hot path, so that random playouts and search
stay fast (and a compiled core could replace them one by one).

Three families of functions mirror each other and are cross-checked by tests:
``*_options`` enumerate every legal action of a card, ``check_move`` explains
why a move is illegal, and ``sample_move``/``play_random`` draw a legal move
without enumerating them all.
"""

from __future__ import annotations

from itertools import product
from random import Random
from typing import TYPE_CHECKING

from .board import (
    CARDS,
    HOMES,
    MORDRED_FLAGS,
    NEIGHBOURS,
    NUM_REGIONS,
    SAXONS,
    UNRESOLVED,
    Card,
    Faction,
)
from .moves import NONE, PASS, IllegalMoveError, Move, normalise
from .scoring import score

if TYPE_CHECKING:
    from .edition import Edition
    from .state import GameState

LOYALISTS = int(Faction.LOYALISTS)
CROWN, GARRISON, AMBASSADOR, SETTLEMENTS = (int(c) for c in CARDS[:4])
EXCHANGES = (GARRISON, AMBASSADOR)
ALL_REGIONS = (1 << NUM_REGIONS) - 1


def _reach(mask: int) -> int:
    out = 0
    for r in range(NUM_REGIONS):
        if mask >> r & 1:
            out |= NEIGHBOURS[r]
    return out


REACH = tuple(_reach(mask) for mask in range(1 << NUM_REGIONS))
"""Bitmask of the regions bordering any region of a mask."""
MASK_REGIONS = tuple(tuple(r for r in range(NUM_REGIONS) if mask >> r & 1) for mask in range(1 << NUM_REGIONS))
"""The regions of each bitmask, as a tuple (avoids loops on the hot path)."""


def _name(s: GameState, region: int) -> str:
    return s.edition.regions[region]


def _title(s: GameState, card: int) -> str:
    return s.edition.cards[card]


# -- legal actions ---------------------------------------------------------------

def swappable_cards(s: GameState) -> list[int]:
    """Regions whose card is face up and carries no Crown token, in region order."""
    crowns, control = s.crowns, s.control
    return [r for r in range(NUM_REGIONS) if control[r] == UNRESOLVED and crowns[r] < 0]


def crown_actions(s: GameState) -> list[tuple[int, ...]]:
    free = swappable_cards(s)
    if len(free) < 2:
        return [()]
    return [(a, b, c) for i, a in enumerate(free) for b in free[i + 1:] for c in (a, b)]




# -- the no-immediate-undo rule, judged by effect ------------------------------------

Effect = tuple[int, int, tuple[int, int, int, int]]
"""``(from, to, delta)``: region ``from`` changes by ``delta``, region ``to`` by ``-delta``."""

_UNIT = ((1, 0, 0, 0), (0, 1, 0, 0), (0, 0, 1, 0), (0, 0, 0, 1))


def exchange_effect(action: tuple[int, ...]) -> Effect | None:
    """What an exchange (Garrison or Ambassador action) does to the two regions' make-up.

    Returns ``(from, to, delta)`` in canonical form: region ``from`` changes by
    ``delta`` (followers by kind: Scots, Welsh, Romano-British, Loyalists) and
    region ``to`` by ``-delta``. For a 2-for-1, ``from`` is the region that gives
    two followers (its followers drop by one in all); for a 1-for-1, ``from`` is
    the lower-numbered region. Every spelling of the same change has the same
    effect; an exchange of the same faction has a zero ``delta``. The empty
    action has no effect (None). The compiled core uses this same definition.
    """
    if len(action) == 5:
        a, f1, f2, b, g = action
        d = [0, 0, 0, 0]
        d[f1] -= 1
        d[f2] -= 1
        d[g] += 1
        return (a, b, (d[0], d[1], d[2], d[3]))
    if len(action) == 4:
        a, f, b, g = action
        if a > b:
            a, f, b, g = b, g, a, f
        if f == g:
            return (a, b, (0, 0, 0, 0))
        uf, ug = _UNIT[f], _UNIT[g]
        return (a, b, (ug[0] - uf[0], ug[1] - uf[1], ug[2] - uf[2], ug[3] - uf[3]))
    return None


def changes_nothing(effect: Effect | None) -> bool:
    """Whether an exchange with this effect leaves both regions' make-up as it was."""
    return effect is None or not any(effect[2])


UndoBan = tuple[int, tuple[int, ...]]
"""``(player, reverse)``: the others may not now make the exchange ``reverse``, which
undoes ``player``'s last exchange. Under the ``"effect"`` reversal (the first
edition's ruling, the second's default) ``reverse`` is the one spelling of its
effect that :func:`spell_effect` writes, and every exchange with that effect is
banned; under ``"exact"`` it is the literal reverse, the only exchange banned.
The compiled core keeps the same thing (``Ban`` in core/src/state.rs) and reads
and writes it as this tuple."""


def ban_after(edition: Edition, player: int, action: tuple[int, ...]) -> UndoBan | None:
    """The undo ban that ``player``'s exchange ``action`` leaves in ``edition``; None when
    judged by effect and the exchange changed nothing (same factions both ways)."""
    reverse = reverse_exchange(action)
    if edition.reversal == "exact":
        return (player, reverse)
    effect = exchange_effect(reverse)
    return None if changes_nothing(effect) else (player, spell_effect(effect))  # type: ignore[arg-type]


def spell_effect(effect: Effect) -> tuple[int, ...]:
    """One spelling of an exchange with exactly ``effect`` (a non-zero one), the
    one written in position files: ``(from, f1, f2, to, g)`` for a 2-for-1 (the
    arriving follower of a leaving kind when only one net follower leaves),
    ``(from, f, to, g)`` for a 1-for-1. ValueError for an effect no exchange has."""
    source, target, delta = effect
    leaving = [k for k, d in enumerate(delta) for _ in range(max(-d, 0))]
    arriving = [k for k, d in enumerate(delta) if d > 0]
    if len(leaving) == 2 and len(arriving) == 1:
        return (source, leaving[0], leaving[1], target, arriving[0])
    if len(leaving) == 1 and not arriving:
        return (source, leaving[0], leaving[0], target, leaving[0])
    if len(leaving) == 1 and len(arriving) == 1:
        return (source, leaving[0], target, arriving[0])
    raise ValueError(f"no exchange has the effect {effect}")


def _banned(s: GameState, card: int) -> tuple[int, ...] | None:
    """The exchange that the player to move may not make with ``card`` (undoing the last one), or None."""
    ban = s.undo_ban
    if ban is None or ban[0] == s.player:
        return None
    if s.edition.ban_binds_card and s.tops[ban[0]] != card:
        return None  # the second edition: only the same card may not reverse it
    return ban[1]


def is_banned(s: GameState, action: tuple[int, ...], reverse: tuple[int, ...]) -> bool:
    """Whether ``action`` undoes the exchange the ban ``reverse`` protects, by effect or
    literally as the edition's ``reversal`` says."""
    if s.edition.reversal == "exact":
        return action == reverse
    return len(action) == len(reverse) and exchange_effect(action) == exchange_effect(reverse)


def _drop_banned(s: GameState, options: list[tuple[int, ...]], reverse: tuple[int, ...]) -> list[tuple[int, ...]]:
    """The options that the ban ``reverse`` leaves."""
    a, b = reverse[0], reverse[-2]
    return [o for o in options
            if not ((o[0] == a or o[0] == b) and (o[-2] == a or o[-2] == b) and is_banned(s, o, reverse))]


def _kinds_in(board: list[int], region: int) -> list[int]:
    base = region * 4
    return [k for k in range(4) if board[base + k]]


def _pairs_in(board: list[int], region: int) -> list[tuple[int, int]]:
    """The distinct pairs of followers (by kind) that can leave a region."""
    base = region * 4
    return [(f1, f2) for f1 in range(4) for f2 in range(f1, 4)
            if board[base + f1] >= (2 if f1 == f2 else 1) and board[base + f2]]


def garrison_actions(s: GameState) -> list[tuple[int, ...]]:
    """2-for-1 exchanges if any exists, else 1-for-1 ones, else the empty action."""
    board, ban = s.board, _banned(s, GARRISON)
    opens = MASK_REGIONS[s.open]
    two: list[tuple[int, ...]] = [
        (a, f1, f2, b, g)
        for a in opens
        for f1, f2 in _pairs_in(board, a)
        for b in MASK_REGIONS[NEIGHBOURS[a] & s.open]
        for g in _kinds_in(board, b)
    ]
    if ban is not None and two and len(ban) == 5:
        two = _drop_banned(s, two, ban)
    if two:
        return two
    one: list[tuple[int, ...]] = [
        (a, f, b, g)
        for a in opens
        for b in MASK_REGIONS[NEIGHBOURS[a] & s.open]
        if b > a
        for f in _kinds_in(board, a)
        for g in _kinds_in(board, b)
    ]
    if ban is not None and len(ban) == 4:
        one = _drop_banned(s, one, ban)
    return one or [()]


def ambassador_actions(s: GameState) -> list[tuple[int, ...]]:
    board, ban = s.board, _banned(s, AMBASSADOR)
    opens = MASK_REGIONS[s.open]
    one: list[tuple[int, ...]] = [
        (a, f, b, g)
        for i, a in enumerate(opens)
        for b in opens[i + 1:]
        for f in _kinds_in(board, a)
        for g in _kinds_in(board, b)
    ]
    if ban is not None and len(ban) == 4:
        one = _drop_banned(s, one, ban)
    return one or [()]


def settlements_actions(s: GameState) -> list[tuple[int, ...]]:
    opens = MASK_REGIONS[s.open]
    return list(product(*(opens if s.stock[f] else (NONE,) for f in range(3))))


def faction_targets(s: GameState, faction: int) -> tuple[int, ...]:
    """Unresolved regions bordering a region the faction controls (home counts while unresolved)."""
    control = s.control
    controlled = 0
    for r in range(NUM_REGIONS):
        if control[r] == faction:
            controlled |= 1 << r
    home = HOMES[faction]
    if control[home] == UNRESOLVED:
        controlled |= 1 << home
    return MASK_REGIONS[REACH[controlled] & s.open]


def faction_card_actions(s: GameState, faction: int) -> list[tuple[int, ...]]:
    targets = faction_targets(s, faction)
    count = min(2, s.stock[faction]) if targets else 0
    if count == 0:
        return [()]
    if count == 1:
        return [(r,) for r in targets]
    if s.edition.support_together:
        return [(r, r) for r in targets]
    return [(a, b) for i, a in enumerate(targets) for b in targets[i:]]


def card_actions(s: GameState, card: int) -> list[tuple[int, ...]]:
    """Every legal action of a card in this state, each in its canonical form."""
    if card == CROWN:
        return crown_actions(s)
    if card == GARRISON:
        return garrison_actions(s)
    if card == AMBASSADOR:
        return ambassador_actions(s)
    if card == SETTLEMENTS:
        return settlements_actions(s)
    return faction_card_actions(s, card - Card.SCOTS)


def court_options(board: list[int], open_mask: int) -> list[tuple[int, int]]:
    """Followers that can be called to court: any faction follower in an unresolved region."""
    return [(r, f) for r in MASK_REGIONS[open_mask] for f in range(3) if board[r * 4 + f]]


def legal_moves(s: GameState) -> list[Move]:
    """Every legal move: pass first, then by card, action and court call."""
    if s._result is not None:
        return []
    moves = [PASS]
    p = s.player
    hand = s.hands[p * 7:p * 7 + 7]
    for card in range(7):
        if not hand[card]:
            continue
        card_enum = CARDS[card]
        for action in card_actions(s, card):
            board = s.board
            if card != CROWN:
                board = board[:]
                _move_followers(board, s.stock[:], card, action)
            for court in court_options(board, s.open) or (None,):
                moves.append(Move(card_enum, action, court))
    if last_card_applies(s):
        memo: dict[tuple, bool] = {}
        moves = [PASS] + [m for m in moves[1:] if wins_outright(s, m, memo)]
    return moves


# -- the last-card rule (3 players) -----------------------------------------------

def last_card_applies(s: GameState) -> bool:
    """3 players, one card left in all hands, the player to move holds it, and the edition's
    ``last_card`` is ``"must_win"`` (the first edition's rule; the second edition's default is
    ``"free"``: "a card may always be played")."""
    return (s.edition.last_card == "must_win" and s.players == 3 and sum(s.hands) == 1
            and sum(s.hands[s.player * 7:s.player * 7 + 7]) == 1)


def wins_outright(s: GameState, move: Move, memo: dict[tuple, bool] | None = None) -> bool:
    """Whether the mover wins the game that follows when everyone passes to the end.

    ``memo`` shares work between moves whose remaining struggles end alike and
    that call the same faction to court (all the final scoring can tell apart).
    """
    card, action, court = move.card, move.action, move.court
    board, order = s.board[:], s.order
    if card == CROWN and action:
        order = order[:]
        i, j = order.index(action[0]), order.index(action[1])
        order[i], order[j] = order[j], order[i]
    elif card is not None:
        _move_followers(board, s.stock[:], card, action)
    if court is not None:
        board[court[0] * 4 + court[1]] -= 1
    key = (_remaining_outcomes(s, board, order), None if court is None else court[1])
    if memo is not None and key in memo:
        return memo[key]
    after = s.copy()
    play(after, move)
    while after._result is None:
        resolve(after)  # every player passes: each struggle ends in turn
    wins = after._result.winners == (s.player,)
    if memo is not None:
        memo[key] = wins
    return wins


def _remaining_outcomes(s: GameState, board: list[int], order: list[int]) -> tuple[int, ...]:
    """Who wins each remaining struggle, in order, if every player passes from now on.

    ``board`` and ``order`` are those after the move (``board`` is modified).
    """
    outcomes = []
    saxons, loyalists, resolved = s.saxons, s.stock[LOYALISTS], ~s.open & ALL_REGIONS
    for position in range(s.resolved, NUM_REGIONS):
        region = order[position]
        counts = board[region * 4:region * 4 + 4]
        best = max(counts)
        winner = counts.index(best) if best and counts.count(best) == 1 else SAXONS
        outcomes.append(winner)
        resolved |= 1 << region
        if winner == SAXONS:
            saxons += 1
            if saxons >= s.edition.invasion:
                break
        elif winner == LOYALISTS:
            break
        flag = MORDRED_FLAGS[region]
        if s.mordred and loyalists and not resolved >> flag & 1:
            loyalists -= 1
            board[flag * 4 + LOYALISTS] += 1
    return tuple(outcomes)


# -- checking a move ----------------------------------------------------------------

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
        card = Card(move.card)
    except ValueError:
        raise IllegalMoveError(f"unknown card {move.card!r}") from None
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
    board = s.board[:]
    if card != CROWN:
        _move_followers(board, s.stock[:], card, action)
    _check_court(s, board, move.court)
    move = Move(card, action, move.court)
    if last_card_applies(s) and not wins_outright(s, move):
        raise IllegalMoveError(
            "last card: with 3 players the last card of the game may only be played "
            "by a move that wins the game, and this move does not"
        )
    return move


def _check_court(s: GameState, board: list[int], court: object) -> None:
    open_mask = s.open
    options = court_options(board, open_mask)
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
        ban = _banned(s, card)
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


# -- applying a move ----------------------------------------------------------------

def _move_followers(board: list[int], stock: list[int], card: int, action: tuple[int, ...]) -> None:
    """The effect of a card's action on the board and the stock (Crown has none)."""
    if card == GARRISON or card == AMBASSADOR:
        if len(action) == 5:
            a, f1, f2, b, g = action
            board[a * 4 + f1] -= 1
            board[a * 4 + f2] -= 1
            board[b * 4 + f1] += 1
            board[b * 4 + f2] += 1
            board[b * 4 + g] -= 1
            board[a * 4 + g] += 1
        elif action:
            a, f, b, g = action
            board[a * 4 + f] -= 1
            board[b * 4 + f] += 1
            board[b * 4 + g] -= 1
            board[a * 4 + g] += 1
    elif card == SETTLEMENTS:
        for f in range(3):
            r = action[f]
            if r != NONE:
                stock[f] -= 1
                board[r * 4 + f] += 1
    elif card != CROWN:
        f = card - 4
        for r in action:
            stock[f] -= 1
            board[r * 4 + f] += 1


def reverse_exchange(action: tuple[int, ...]) -> tuple[int, ...]:
    """The literal reverse of an exchange: the same followers moved back, in canonical spelling.

    Other spellings with the same effect (see :func:`exchange_effect`) undo it too
    when reversal is judged by effect; a swap within one faction is its own reverse.
    """
    if len(action) == 5:
        a, f1, f2, b, g = action
        return (b, f1, f2, a, g)
    a, f, b, g = action
    return (a, g, b, f)


def _play_card(s: GameState, p: int, card: int, action: tuple[int, ...]) -> None:
    """Play a card from player p's hand and carry out its action (not the court call)."""
    s.hands[p * 7 + card] -= 1
    s.tops[p] = card
    s.plays += 1
    s.last_play[p] = s.plays
    s.passes = 0
    if card == CROWN:
        if action:
            order = s.order
            a, b, crowned = action
            i, j = order.index(a), order.index(b)
            order[i], order[j] = b, a
            s.crowns[crowned] = p
        s.undo_ban = None
        return
    _move_followers(s.board, s.stock, card, action)
    if (card == GARRISON or card == AMBASSADOR) and action:
        s.undo_ban = ban_after(s.edition, p, action)
    else:
        s.undo_ban = None


def play(s: GameState, move: Move) -> None:
    """Apply a move that is known to be legal (no checks: see check_move)."""
    p = s.player
    card = move.card
    if card is None:
        s.passes += 1
        if s.passes >= s.players:
            s.passes = 0
            resolve(s)
    else:
        _play_card(s, p, card, move.action)
        court = move.court
        if court is not None:
            s.board[court[0] * 4 + court[1]] -= 1
            s.courts[p * 3 + court[1]] += 1
    s.player = (p + 1) % s.players


def resolve(s: GameState) -> None:
    """End the current struggle: control or a Saxon token, followers back to stock."""
    region = s.order[s.resolved]
    board, stock = s.board, s.stock
    base = region * 4
    counts = board[base:base + 4]
    best = max(counts)
    winner = counts.index(best) if best and counts.count(best) == 1 else SAXONS
    for k in range(4):
        stock[k] += counts[k]
        board[base + k] = 0
    s.control[region] = winner
    s.open &= ~(1 << region)
    s.resolved += 1
    if not s.edition.ban_outlives_struggle:
        s.undo_ban = None
    if winner == SAXONS:
        s.saxons += 1
        if s.saxons >= s.edition.invasion:
            s._result = score(s, "invasion")
            return
    elif winner == LOYALISTS:
        s._result = score(s, "mordred")
        return
    if s.resolved == NUM_REGIONS:
        s._result = score(s, "coronation")
        return
    if s.mordred:
        flag = MORDRED_FLAGS[region]
        if s.open >> flag & 1 and stock[LOYALISTS]:
            stock[LOYALISTS] -= 1
            board[flag * 4 + LOYALISTS] += 1


# -- random moves without enumeration -------------------------------------------------

def _random_follower(board: list[int], region: int, rnd: float, skip: int = -1) -> int:
    """A follower of a region drawn in proportion to numbers (``skip`` one of that kind already drawn)."""
    base = region * 4
    counts = [board[base], board[base + 1], board[base + 2], board[base + 3]]
    if skip >= 0:
        counts[skip] -= 1
    pick = rnd * (counts[0] + counts[1] + counts[2] + counts[3])
    for k in range(3):
        pick -= counts[k]
        if pick < 0:
            return k
    return 3


def _sample_exchange(s: GameState, card: int, rng: Random) -> tuple[int, ...]:
    board, opens = s.board, s.open
    totals = [board[r * 4] + board[r * 4 + 1] + board[r * 4 + 2] + board[r * 4 + 3] for r in range(8)]
    rand = rng.random
    if card == GARRISON:
        pairs = [(a, b) for a in MASK_REGIONS[opens] if totals[a] >= 2
                 for b in MASK_REGIONS[NEIGHBOURS[a] & opens] if totals[b]]
        two = True
        if not pairs:
            two = False
            pairs = [(a, b) for a in MASK_REGIONS[opens] if totals[a]
                     for b in MASK_REGIONS[NEIGHBOURS[a] & opens] if b > a and totals[b]]
    else:
        two = False
        occupied = [r for r in MASK_REGIONS[opens] if totals[r]]
        pairs = [(a, b) for i, a in enumerate(occupied) for b in occupied[i + 1:]]
    if not pairs:
        return ()
    ban = _banned(s, card)
    for _ in range(8):
        a, b = pairs[int(rand() * len(pairs))]
        if two:
            f1 = _random_follower(board, a, rand())
            f2 = _random_follower(board, a, rand(), f1)
            if f1 > f2:
                f1, f2 = f2, f1
            action: tuple[int, ...] = (a, f1, f2, b, _random_follower(board, b, rand()))
        else:
            action = (a, _random_follower(board, a, rand()), b, _random_follower(board, b, rand()))
        if ban is None or not is_banned(s, action, ban):
            return action
    # The ban keeps hitting: fall back to the full list, which excludes every banned spelling.
    options = card_actions(s, card)
    return options[int(rand() * len(options))]


def _sample_action(s: GameState, card: int, rng: Random) -> tuple[int, ...]:
    rand = rng.random
    if card == SETTLEMENTS:
        opens = MASK_REGIONS[s.open]
        n = len(opens)
        stock = s.stock
        return (
            opens[int(rand() * n)] if stock[0] else NONE,
            opens[int(rand() * n)] if stock[1] else NONE,
            opens[int(rand() * n)] if stock[2] else NONE,
        )
    if card >= 4:
        f = card - 4
        targets = faction_targets(s, f)
        if not targets:
            return ()
        n = len(targets)
        a = targets[int(rand() * n)]
        if s.stock[f] >= 2:
            if s.edition.support_together:
                return (a, a)
            b = targets[int(rand() * n)]
            return (a, b) if a <= b else (b, a)
        return (a,) if s.stock[f] else ()
    if card == CROWN:
        free = swappable_cards(s)
        if len(free) < 2:
            return ()
        a, b = rng.sample(free, 2)
        if a > b:
            a, b = b, a
        return (a, b, a if rand() < 0.5 else b)
    return _sample_exchange(s, card, rng)


def play_random(s: GameState, rng: Random) -> Move:
    """Play a random legal move in place and return it (the fast sampler).

    The player passes with probability 1/(k+1) for k distinct cards in hand,
    else plays one of those cards with random choices and a random court call.
    It is not uniform over moves (that needs enumeration); every move it can
    produce is legal and every legal move has a chance.
    """
    p = s.player
    base = p * 7
    hands = s.hands
    cards = [c for c in range(7) if hands[base + c]]
    if last_card_applies(s):
        move = PASS if rng.random() < 0.5 else _random_winning_move(s, cards[0], rng)
        play(s, move)
        return move
    k = int(rng.random() * (len(cards) + 1))
    if k == len(cards):
        play(s, PASS)
        return PASS
    card = cards[k]
    action = _sample_action(s, card, rng)
    # Play the card, then draw the court call from the board as the action left it.
    _play_card(s, p, card, action)
    options = court_options(s.board, s.open)
    court = options[int(rng.random() * len(options))] if options else None
    if court is not None:
        s.board[court[0] * 4 + court[1]] -= 1
        s.courts[p * 3 + court[1]] += 1
    s.player = (p + 1) % s.players
    return Move(CARDS[card], action, court)


def _random_winning_move(s: GameState, card: int, rng: Random) -> Move:
    """A random move with the last card that wins outright, or PASS if there is none."""
    actions = card_actions(s, card)
    rng.shuffle(actions)
    memo: dict[tuple, bool] = {}
    for action in actions:
        board = s.board[:]
        _move_followers(board, s.stock[:], card, action)
        courts: list = court_options(board, s.open) or [None]
        rng.shuffle(courts)
        for court in courts:
            move = Move(CARDS[card], action, court)
            if wins_outright(s, move, memo):
                return move
    return PASS


def sample_move(s: GameState, rng: Random) -> Move:
    """A random legal move, drawn as :func:`play_random` draws it; ``s`` is unchanged."""
    return play_random(s.copy(), rng)
