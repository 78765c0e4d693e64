"""The rules: legal actions, the undo ban, legal moves, what a move does, struggles and their resolution.

The Python reference of the compiled core's ``core/src/rules.rs``; its neighbours
mirror the core's modules one by one: :mod:`.lastcard` (the 3-player last card,
``lastcard.rs``), :mod:`.playout` (random moves without listing them,
``playout.rs``), :mod:`.legality` (the words of the rule a move breaks; the core
only answers yes or no) and :mod:`.scoring` (``scoring.rs``).

Functions here work on the flat lists of a :class:`~kingisdead.state.GameState`
and avoid creating objects on the hot path, so that random playouts stay usable
in the reference engine.
"""

from __future__ import annotations

from itertools import product
from typing import TYPE_CHECKING

from . import cunning, lastcard
from .board import (
    CARDS,
    FIRST_CUNNING,
    NUM_CUNNING,
    HOMES,
    LOYALISTS,
    MORDRED_FLAGS,
    NEIGHBOURS,
    NUM_REGIONS,
    SAXONS,
    UNRESOLVED,
    Card,
    card_kind,
)
from .moves import NONE, PASS, Move
from .scoring import score

if TYPE_CHECKING:
    from .edition import Edition
    from .state import GameState

CROWN, GARRISON, AMBASSADOR, SETTLEMENTS = (int(c) for c in CARDS[:4])
EXCHANGES = (GARRISON, AMBASSADOR)


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
    """What an exchange (Garrison or Ambassador action; the advanced game's Dispute, Influence and
    Edict) does to the two regions' make-up.

    Returns ``(from, to, delta)`` in canonical form: region ``from`` changes by
    ``delta`` (followers by kind: Scots, Welsh, Romano-British, Loyalists) and
    region ``to`` by ``-delta``. For a 2-for-1, ``from`` is the region that gives
    two followers (its followers drop by one in all); for a 1-for-1, ``from`` is
    the lower-numbered region; for Edict's 2-for-2 ``(a, f1, f2, b, g1, g2)``, the
    region whose first changed kind drops. Every spelling of the same change has the same
    effect; an exchange of the same faction has a zero ``delta``. The empty
    action has no effect (None). The compiled core uses this same definition
    (it has no 2-for-2: the standard game has none).
    """
    if len(action) == 6:
        a, f1, f2, b, g1, g2 = action
        d = [0, 0, 0, 0]
        d[f1] -= 1
        d[f2] -= 1
        d[g1] += 1
        d[g2] += 1
        if next((x for x in d if x), 0) > 0:
            a, b, d = b, a, [-x for x in d]
        return (a, b, (d[0], d[1], d[2], d[3]))
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


UndoBan = tuple[int, tuple[int, ...]] | tuple[int, tuple[int, ...], int]
"""``(player, reverse)``: the others may not now make the exchange ``reverse``, which
undoes ``player``'s last exchange. Under the ``"effect"`` reversal (the first
edition's ruling, the second's default) ``reverse`` is the one spelling of its
effect that :func:`spell_effect` writes, and every exchange with that effect is
banned; under ``"exact"`` it is the literal reverse, the only exchange banned.
The compiled core keeps the same thing (``Ban`` in core/src/state.rs) and reads
and writes it as this tuple. The advanced game's ban is ``(player, reverse, card)``,
``card`` the card that made the exchange and the only one the ban binds (a Spy's
copy makes it as the copied card, the Spy on top of the pile)."""


def ban_after(edition: Edition, player: int, action: tuple[int, ...], card: int) -> UndoBan | None:
    """The undo ban that ``player``'s exchange ``action`` with ``card`` leaves in ``edition``; None when
    judged by effect and the exchange changed nothing (same factions both ways). The advanced game's
    ban names ``card``: a Spy's copy binds and is bound as the copied card, not the pile's top."""
    ban = ban_on(edition, player, reverse_exchange(action))
    return (ban[0], ban[1], card) if ban is not None and edition.advanced else ban


def ban_on(edition: Edition, player: int, reverse: tuple[int, ...]) -> UndoBan | None:
    """The undo ban on the exchange ``reverse`` that undoes ``player``'s last one: judged by effect,
    the one spelling of its effect (None for an exchange that changes nothing); under
    ``reversal="exact"`` the literal ``reverse`` (as ``rules.rs::ban_on``)."""
    if edition.reversal == "exact":
        return (player, reverse)
    effect = exchange_effect(reverse)
    return None if changes_nothing(effect) else (player, spell_effect(effect))  # type: ignore[arg-type]


def spell_effect(effect: Effect) -> tuple[int, ...]:
    """One spelling of an exchange with exactly ``effect`` (a non-zero one), the
    one written in position files: ``(from, f1, f2, to, g)`` for a 2-for-1 (the
    arriving follower of a leaving kind when only one net follower leaves),
    ``(from, f, to, g)`` for a 1-for-1, ``(from, f1, f2, to, g1, g2)`` for the
    advanced game's Edict. ValueError for an effect no exchange has."""
    source, target, delta = effect
    leaving = [k for k, d in enumerate(delta) for _ in range(max(-d, 0))]
    arriving = [k for k, d in enumerate(delta) for _ in range(max(d, 0))]
    if len(leaving) == 2 and len(arriving) == 2:  # the advanced game's Edict
        return (source, leaving[0], leaving[1], target, arriving[0], arriving[1])
    if len(leaving) == 2 and len(arriving) == 1:
        return (source, leaving[0], leaving[1], target, arriving[0])
    if len(leaving) == 1 and not arriving:
        return (source, leaving[0], leaving[0], target, leaving[0])
    if len(leaving) == 1 and len(arriving) == 1:
        return (source, leaving[0], target, arriving[0])
    raise ValueError(f"no exchange has the effect {effect}")


def active_ban(s: GameState, card: int) -> tuple[int, ...] | None:
    """The exchange that the player to move may not make with ``card`` (undoing the last one), or None."""
    ban = s.undo_ban
    if ban is None or ban[0] == s.player:
        return None
    if s.edition.ban_binds_card and (ban[2] if len(ban) == 3 else s.tops[ban[0]]) != card:
        return None  # the second edition: only the same card (the advanced game names it) may not reverse it
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
    board, ban = s.board, active_ban(s, GARRISON)
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
    board, ban = s.board, active_ban(s, AMBASSADOR)
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
    """Every legal action of a card in this state, each in its canonical form (the advanced game's
    Cunning cards: :func:`kingisdead.cunning.card_actions`)."""
    if card >= FIRST_CUNNING:
        return cunning.card_actions(s, card)
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


def court_options_after(s: GameState, card: int, action: tuple[int, ...]) -> list[tuple[int, int]]:
    """The court calls open once ``card``'s ``action`` has moved its followers (``s`` is unchanged)."""
    if card >= FIRST_CUNNING:
        after = s.copy()
        cunning.carry_out(after, card, action)
        return court_options(after.board, after.open)
    board = s.board
    if card != CROWN:  # the Crown moves no follower: no copy
        board = board[:]
        move_followers(board, s.stock[:], card, action)
    return court_options(board, s.open)


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
            for court in court_options_after(s, card, action) or (None,):
                moves.append(Move(card_enum, action, court))
    held = s.cunning[p]
    for i in range(NUM_CUNNING):
        if held >> i & 1:
            kind = card_kind(FIRST_CUNNING + i)
            for action in cunning.card_actions(s, kind):
                for court in court_options_after(s, kind, action) or (None,):
                    moves.append(Move(kind, action, court))
    if lastcard.last_card_applies(s):  # a module, not its names: lastcard.py imports this module too
        memo: dict[tuple, bool] = {}
        moves = [PASS] + [m for m in moves[1:] if lastcard.wins_outright(s, m, memo)]
    return moves


# -- applying a move ----------------------------------------------------------------

def move_followers(board: list[int], stock: list[int], card: int, action: tuple[int, ...]) -> None:
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
    if len(action) == 6:
        a, f1, f2, b, g1, g2 = action
        return (b, f1, f2, a, g1, g2)
    if len(action) == 5:
        a, f1, f2, b, g = action
        return (b, f1, f2, a, g)
    a, f, b, g = action
    return (a, g, b, f)


def play_card(s: GameState, card: int, action: tuple[int, ...]) -> None:
    """Play a card from the mover's hand and carry out its action: no court call, and the player to move is
    not advanced (see :func:`finish_turn`)."""
    p = s.player
    if card >= FIRST_CUNNING:
        s.cunning[p] &= ~(1 << (card - FIRST_CUNNING))
        s.cunning_played[p] |= 1 << (card - FIRST_CUNNING)
    else:
        s.hands[p * 7 + card] -= 1
    s.tops[p] = card
    s.plays += 1
    s.last_play[p] = s.plays
    s.passes = 0
    if card >= FIRST_CUNNING:
        cunning.carry_out(s, card, action)
        return
    if card == CROWN:
        if action:
            negotiate(s, p, action)
        s.undo_ban = None
        return
    move_followers(s.board, s.stock, card, action)
    if (card == GARRISON or card == AMBASSADOR) and action:
        s.undo_ban = ban_after(s.edition, p, action, card)
    else:
        s.undo_ban = None


def negotiate(s: GameState, player: int, action: tuple[int, ...]) -> None:
    """A Crown (Negotiate) action ``(a, b, crowned)``: swap the region cards of a and b, and put ``player``'s
    token on ``crowned`` (-1: none, a Spy's copy without its disc)."""
    a, b, crowned = action
    order = s.order
    i, j = order.index(a), order.index(b)
    order[i], order[j] = b, a
    if crowned >= 0:
        s.crowns[crowned] = player


def finish_turn(s: GameState, court: tuple[int, int] | None) -> None:
    """End the mover's turn after :func:`play_card`: the court call ``(region, faction)``, if any, then the
    next player."""
    p = s.player
    if court is not None:
        s.board[court[0] * 4 + court[1]] -= 1
        s.courts[p * 3 + court[1]] += 1
    s.player = (p + 1) % s.players


def play(s: GameState, move: Move) -> None:
    """Apply a move that is known to be legal (no checks: see check_move)."""
    if move.card is None:
        s.passes += 1
        if s.passes >= s.players:
            s.passes = 0
            resolve(s)
        s.player = (s.player + 1) % s.players
    else:
        play_card(s, move.card, move.action)
        finish_turn(s, move.court)


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
