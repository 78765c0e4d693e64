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
from ..board import CUNNING, Cunning, card_kind
from ..evaluation import evaluate
from ..moves import PASS, Move

if TYPE_CHECKING:
    from ..state import GameState


def _value_of_call(s: GameState, region: int, faction: int) -> float:
    """The heuristic's value, for the mover, of ``s`` once they call ``faction`` from ``region`` to court and
    their turn ends."""
    trial = s.copy()
    engine.finish_turn(trial, (region, faction))
    return evaluate(trial)[s.player]


def court_preferences(s: GameState) -> list[tuple[int, int]]:
    """The court calls open now, best first for the player to move (judged by calling alone)."""
    return sorted(engine.court_calls(s), key=lambda call: -_value_of_call(s, *call))


def _best_court(after_card: GameState, preferences: list[tuple[int, int]]) -> tuple[int, int] | None:
    """The first preferred call still possible once a card's action has moved followers (``after_card``: the
    state after the card, before its court call)."""
    open_calls = engine.court_calls(after_card)
    for call in preferences:
        if call in open_calls:
            return call
    # The action emptied every preferred spot: judge what is left directly.
    return max(open_calls, key=lambda call: _value_of_call(after_card, *call), default=None)


def finish_move(s: GameState, card: int, action: tuple[int, ...],
                preferences: list[tuple[int, int]]) -> tuple[Move, GameState]:
    """``card`` with ``action`` and the preferred court call: the move, and the state after it (played by the
    engine on a copy of ``s``, the court call chosen once the card has moved its followers)."""
    after = s.copy()
    engine.play_card(after, card, action)
    court = _best_court(after, preferences)
    engine.finish_turn(after, court)
    return Move(card_kind(card), action, court), after


def playable_cards(s: GameState) -> list[int]:
    """The card numbers the player to move may play: each kind in hand once, the advanced game's Cunning cards
    included but Plot (never played)."""
    p = s.player
    cards = [card for card in range(7) if s.hands[p * 7 + card]]
    held = s.cunning[p]
    return cards + [int(card) for i, card in enumerate(CUNNING) if held >> i & 1 and card != Cunning.PLOT]


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
        for card in playable_cards(s):
            actions = engine.card_actions(s, card)
            if len(actions) > per_card:
                actions = rng.sample(actions, per_card)
            for action in actions:
                move, after = finish_move(s, card, action, preferences)
                scored.append((evaluate(after)[p], move))
    scored.sort(key=lambda x: -x[0])
    return scored
