"""Random legal moves without listing them all: the fast sampler of random playouts.

Drawn card by card (pass, or a card in hand; its action; a court call), so that
a random game costs no enumeration of the ~19,000 moves of a turn. Not uniform
over moves; every move it draws is legal and every legal move can be drawn. The
reference of the compiled core's ``core/src/playout.rs``.
"""

from __future__ import annotations

from random import Random
from typing import TYPE_CHECKING

from .board import CARDS, CUNNING, NEIGHBOURS, Cunning, card_kind
from .lastcard import last_card_applies, wins_outright
from .moves import NONE, PASS, Move
from .rules import (
    CROWN,
    GARRISON,
    MASK_REGIONS,
    SETTLEMENTS,
    active_ban,
    card_actions,
    court_options,
    court_options_after,
    faction_targets,
    finish_turn,
    is_banned,
    play,
    play_card,
    swappable_cards,
)

if TYPE_CHECKING:
    from .state import GameState


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
    ban = active_ban(s, card)
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
    if card >= Cunning.SPY:  # the advanced game's: few enough actions to list
        options = card_actions(s, card)
        return options[int(rand() * len(options))]
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
    held = s.cunning[p]
    if held:  # the advanced game: Plot is never played
        cards += [card for i, card in enumerate(CUNNING) if held >> i & 1 and card != Cunning.PLOT]
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
    play_card(s, card, action)
    options = court_options(s.board, s.open)
    court = options[int(rng.random() * len(options))] if options else None
    finish_turn(s, court)
    return Move(CARDS[card] if card < Cunning.SPY else Cunning(card), action, court)


def _random_winning_move(s: GameState, card: int, rng: Random) -> Move:
    """A random move with the last card that wins outright, or PASS if there is none."""
    actions = card_actions(s, card)
    rng.shuffle(actions)
    memo: dict[tuple, bool] = {}
    for action in actions:
        courts: list = court_options_after(s, card, action) or [None]
        rng.shuffle(courts)
        for court in courts:
            move = Move(card_kind(card), action, court)
            if wins_outright(s, move, memo):
                return move
    return PASS


def sample_move(s: GameState, rng: Random) -> Move:
    """A random legal move, drawn as :func:`play_random` draws it; ``s`` is unchanged."""
    return play_random(s.copy(), rng)
