"""Log entries and hints name the card a move plays (its index in board_facts()["card_keys"]), so that the
table draws the card's face beside them (static/cards.js); memory mode hides it while the game runs."""

from __future__ import annotations

from kingisdead import GameState
from kingisdead.bots.budget import Budget
from kingisdead.moves import format_move, parse_move
from kingisdead.web.compute import hint
from kingisdead.web.games import _without_card
from kingisdead.web.live_game import Snapshot


def test_a_log_entry_names_the_card_played_and_none_for_a_pass():
    state = GameState.new(2, "standard", 5)
    card_move = next(m for m in state.legal_moves() if m.card is not None)
    snap = Snapshot(state).after(card_move)
    entry = snap.log[-1]
    assert entry["card"] == int(card_move.card) and entry["notation"] == format_move(card_move)
    passed = snap.after(next(m for m in snap.state.legal_moves() if m.card is None)).log[-1]
    assert passed["card"] is None
    assert _without_card(entry)["card"] is None  # memory mode: the card stays secret


def test_each_hinted_move_names_its_card():
    state = GameState.new(2, "standard", 8)
    for suggestion in hint(state, 1, Budget(iterations=40), 3)["moves"]:
        card = parse_move(suggestion["move"]).card
        assert suggestion["card"] == (None if card is None else int(card))
