"""Promising moves without listing every legal move.

A 2-player start has about 19,000 legal moves, nearly all of them the same few
ideas with a different court call. Search cannot afford to list them at every
node, so it works from a short list built here: for each card in hand a few
actions drawn from that card's legal actions, each finished with the court call
that the heuristic likes best, plus the pass, all ranked by :func:`evaluate`.
"""

from __future__ import annotations

from random import Random
from typing import TYPE_CHECKING

from .. import engine
from ..board import CARDS
from ..evaluation import evaluate
from ..moves import PASS, Move

if TYPE_CHECKING:
    from ..state import GameState


def court_preferences(s: GameState) -> list[tuple[int, int]]:
    """The court calls open now, best first for the player to move (judged by calling alone)."""
    p = s.player
    board, courts = s.board, s.courts
    scored = []
    for region, faction in engine.court_calls(s):
        board[region * 4 + faction] -= 1
        courts[p * 3 + faction] += 1
        scored.append((evaluate(s)[p], region, faction))
        board[region * 4 + faction] += 1
        courts[p * 3 + faction] -= 1
    scored.sort(key=lambda x: -x[0])
    return [(r, f) for _, r, f in scored]


def _best_court(after: GameState, mover: int, preferences: list[tuple[int, int]]) -> tuple[int, int] | None:
    """The first preferred call still possible once a card's action has moved followers."""
    board = after.board
    for region, faction in preferences:
        if board[region * 4 + faction]:
            return region, faction
    # The action emptied every preferred spot: judge what is left directly.
    options = engine.court_calls(after)
    best, best_value = None, -2.0
    for region, faction in options:
        trial = after.copy()
        trial.board[region * 4 + faction] -= 1
        trial.courts[mover * 3 + faction] += 1
        value = evaluate(trial)[mover]
        if value > best_value:
            best, best_value = (region, faction), value
    return best


def finish_move(s: GameState, card: int, action: tuple[int, ...],
                preferences: list[tuple[int, int]]) -> tuple[Move, GameState]:
    """Play ``card`` with ``action`` on a copy and add the preferred court call; the move and the state after it."""
    p = s.player
    after = s.copy()
    engine.play_card(after, card, action)
    court = _best_court(after, p, preferences)
    if court is not None:
        after.board[court[0] * 4 + court[1]] -= 1
        after.courts[p * 3 + court[1]] += 1
    after.player = (p + 1) % s.players
    return Move(CARDS[card], action, court), after


def ranked_candidates(s: GameState, rng: Random, per_card: int) -> list[tuple[float, Move]]:
    """Pass and up to ``per_card`` actions of each card in hand, each with its best court call, best first.

    Each entry is (value for the mover after the move, move). With 3 players'
    last card in play, the few legal moves are listed exactly instead.
    """
    p = s.player
    if engine.last_card_applies(s):
        moves = engine.legal_moves(s)
    else:
        moves = None
    scored: list[tuple[float, Move]] = []
    after = s.copy()
    engine.play(after, PASS)
    scored.append((evaluate(after)[p], PASS))
    if moves is not None:
        for move in moves[1:]:
            after = s.copy()
            engine.play(after, move)
            scored.append((evaluate(after)[p], move))
    else:
        preferences = court_preferences(s)
        hand = s.hands[p * 7:p * 7 + 7]
        for card in range(7):
            if not hand[card]:
                continue
            actions = engine.card_actions(s, card)
            if len(actions) > per_card:
                actions = rng.sample(actions, per_card)
            for action in actions:
                move, after = finish_move(s, card, action, preferences)
                scored.append((evaluate(after)[p], move))
    scored.sort(key=lambda x: -x[0])
    return scored
