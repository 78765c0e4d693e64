"""The determinised bot plays the advanced game from its seat's view alone, and the other bots are kept out of it."""

from __future__ import annotations

from random import Random

import pytest

from kingisdead import GameState
from kingisdead.board import FIRST_CUNNING, NUM_CUNNING
from kingisdead.bots import BOTS, SEAT_VIEW_BOTS, make_bot
from kingisdead.bots.budget import Budget
from kingisdead.bots.determinised import DeterminisedBot
from kingisdead.edition import get_edition
from kingisdead.playout import play_random

ADVANCED = get_edition("second", "advanced")
BUDGET = Budget(iterations=24)


def with_hidden_cards_swapped(s: GameState, seat: int) -> GameState:
    """A copy of ``s`` whose other seats hold other Cunning cards (the box's), so that ``seat`` sees it alike."""
    other = s.copy()
    dealt = 0
    for p in range(s.players):
        dealt |= s.cunning[p] | s.cunning_played[p]
    box = [i for i in range(NUM_CUNNING) if not dealt >> i & 1]
    for p in range(s.players):
        if p == seat:
            continue
        held = [i for i in range(NUM_CUNNING) if s.cunning[p] >> i & 1]
        for i in held:
            if box:  # give a boxed card for a held one: the count stays, the cards differ
                other.cunning[p] = other.cunning[p] & ~(1 << i) | 1 << box.pop()
    return other


@pytest.mark.parametrize("players", [2, 3])
def test_a_seat_that_sees_two_positions_alike_gets_the_same_move(players):
    """The no-peeking test: the hidden Cunning cards differ, the seat's view and so the bot's move do not."""
    s = GameState.new(players, seed=17, edition=ADVANCED)
    rng = Random(3)
    for _ in range(4):  # a few moves in, so that cards have been played
        play_random(s, rng)
    seat = s.player
    other = with_hidden_cards_swapped(s, seat)
    assert [other.cunning[p] for p in range(players) if p != seat] != [s.cunning[p] for p in range(players)
                                                                         if p != seat]
    assert other.view(seat) == s.view(seat)
    first = DeterminisedBot(seed=5, budget=BUDGET, worlds=3).choose(s)
    second = DeterminisedBot(seed=5, budget=BUDGET, worlds=3).choose(other)
    assert first == second
    assert s.is_legal(first)


def test_the_determinised_bot_plays_an_advanced_game_to_its_end():
    s = GameState.new(2, seed=8, edition=ADVANCED)
    bots = [make_bot("determinised", 1, BUDGET, edition=ADVANCED), make_bot("random", 2, edition=ADVANCED)]
    played_cunning = False
    while not s.is_over():
        move = bots[s.player].choose(s)
        assert s.is_legal(move)
        played_cunning |= move.card is not None and move.card >= FIRST_CUNNING
        s.apply(move)
    assert played_cunning
    assert s.result is not None and s.result.winners


def test_bots_that_would_read_the_secret_hands_are_refused_in_the_advanced_game():
    for name in BOTS:
        if name in SEAT_VIEW_BOTS:
            continue
        with pytest.raises(ValueError, match="does not play the advanced game"):
            make_bot(name, 0, edition=ADVANCED)
    assert make_bot("mcts", 0, edition="second")  # the standard game keeps every bot


def test_a_determinised_search_needs_a_world():
    with pytest.raises(ValueError, match="at least one world"):
        DeterminisedBot(worlds=0)
    finished = GameState.new(2, seed=8, edition=ADVANCED)
    rng = Random(1)
    while not finished.is_over():
        play_random(finished, rng)
    with pytest.raises(ValueError, match="over"):
        DeterminisedBot().choose(finished)


def test_hints_and_lines_in_the_advanced_game_come_from_the_movers_view():
    """An analysis (hints) and a best line read no hidden hand: positions the mover sees alike give the same."""
    from kingisdead.analysis import analyse_position, best_line

    s = GameState.new(2, seed=21, edition=ADVANCED)
    rng = Random(4)
    for _ in range(3):
        play_random(s, rng)
    other = with_hidden_cards_swapped(s, s.player)
    budget = Budget(iterations=40)
    first, second = analyse_position(s, budget, seed=2), analyse_position(other, budget, seed=2)
    assert first.moves == second.moves and first.exact is None
    assert all(s.is_legal(s.parse(estimate.move)) for estimate in first.moves)
    move = s.parse(first.moves[0].move)
    assert best_line(s, move, Budget(iterations=8), seed=3) == best_line(other, move, Budget(iterations=8), seed=3)
