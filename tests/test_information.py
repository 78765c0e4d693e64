"""One seat's view of a game, and full states sampled from it (the advanced game's secret Cunning cards).

The advanced states here are dealt by the seed and then played with the Action cards only (Negotiate
and Assemble: they set no undo ban), or have Cunning cards marked as played by :func:`mark_played`, so
that the tests need nothing of the Cunning cards' own rules.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import fields
from itertools import permutations
from random import Random

import pytest

from kingisdead import PASS, GameState, engine
from kingisdead.board import CUNNING_DEALT, FIRST_CUNNING, NUM_CUNNING, Card, Cunning
from kingisdead.edition import CUNNING_CARDS
from kingisdead.information import ALL_CUNNING, SeatView
from kingisdead.moves import make_move
from kingisdead.position import from_dict, to_dict

PUBLIC = {"edition", "seat", "players", "mordred", "board", "stock", "courts", "hands", "cunning", "cunning_played",
          "order", "crowns", "control", "resolved", "player", "passes", "tops", "last_play", "plays", "undo_ban"}
"""Every field of a view: the public position, the seat's own Cunning cards (``cunning``, one mask) and nothing else."""


def advanced(players: int = 2, seed: int = 1, **options: str) -> GameState:
    return GameState.new(players, seed=seed, edition="second", mode="advanced", options=options)


def mark_played(s: GameState, player: int) -> GameState:
    """``player`` played the first Cunning card of its hand (its effect left out): the hand, the pile and the
    play numbers; a new state."""
    bit = s.cunning[player] & -s.cunning[player]
    card = Cunning(FIRST_CUNNING + bit.bit_length() - 1)
    assert s.cunning[player] & bit
    s.cunning[player] &= ~bit
    s.cunning_played[player] |= bit
    s.tops[player] = card
    s.plays += 1
    s.last_play[player] = s.plays
    return from_dict(to_dict(s))  # a valid position


def play_simple(s: GameState, rng: Random, moves: int) -> GameState:
    """``moves`` random turns with Negotiate, Assemble or a pass."""
    for _ in range(moves):
        p = s.player
        cards = [c for c in (Card.CROWN, Card.SETTLEMENTS) if s.hands[p * 7 + c]]
        if not cards or rng.random() < 0.3 or s.is_over():
            s.apply(PASS)
            continue
        card = rng.choice(cards)
        action = rng.choice(s.card_actions(card))
        calls = engine.court_calls_after(s, card, action)
        s.apply(make_move(card, action, rng.choice(calls) if calls else None))
    return s


def words(data: object) -> list[str]:
    """Every key and string in JSON-like data."""
    if isinstance(data, dict):
        return [w for key, value in data.items() for w in [key, *words(value)]]
    if isinstance(data, list):
        return [w for item in data for w in words(item)]
    return [data] if isinstance(data, str) else []


def others_hidden(s: GameState, seat: int) -> GameState:
    """``s`` with every Cunning card ``seat`` has not seen dealt again, differently (the box included)."""
    unseen = [i for i in range(NUM_CUNNING) if s.view(seat).unseen >> i & 1]
    other = s.copy()
    deal = unseen[1:] + unseen[:1]
    for p in range(s.players):
        if p != seat:
            count = s.cunning[p].bit_count()
            other.cunning[p] = sum(1 << i for i in deal[:count])
            del deal[:count]
    assert other.cunning != s.cunning
    return other


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_view_holds_the_seats_own_cunning_cards_and_no_other_seats(players):
    s = play_simple(advanced(players, seed=players), Random(players), 6)
    for seat in range(players):
        view = s.view(seat)
        assert {f.name for f in fields(view)} == PUBLIC
        assert view.cunning == s.cunning[seat] and view.cunning_played == tuple(s.cunning_played)
        assert view.hand(seat) == s.hand(seat)
        for p in range(players):
            assert view.cards_left(p) == s.cards_left(p)
            if p != seat:
                assert all(card < FIRST_CUNNING for card in view.hand(p))
                assert view.hidden(p) == s.cunning[p].bit_count() == CUNNING_DEALT
                assert s.cunning[p] & view.unseen == s.cunning[p]
        others = {CUNNING_CARDS[i] for p in range(players) if p != seat for i in range(NUM_CUNNING)
                  if s.cunning[p] >> i & 1}
        assert others and not others & set(words(to_dict(s, view=seat)))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_states_that_differ_only_in_hidden_cards_give_the_seat_equal_views(players):
    s = mark_played(advanced(players, seed=11), 1)
    for seat in range(players):
        other = others_hidden(s, seat)
        assert other.view(seat) == s.view(seat) and hash(other.view(seat)) == hash(s.view(seat))
        assert all(other.view(p) != s.view(p) for p in range(players) if other.cunning[p] != s.cunning[p])


def test_the_unseen_cards_are_those_held_by_others_and_those_in_the_box():
    s = mark_played(advanced(3, seed=2), 2)
    view = s.view(0)
    box = ALL_CUNNING & ~(s.cunning[0] | s.cunning[1] | s.cunning[2] | s.cunning_played[2])
    assert view.unseen == s.cunning[1] | s.cunning[2] | box
    assert [view.hidden(p) for p in range(3)] == [0, 3, 2]


@pytest.mark.parametrize(("players", "played"), [(2, 0), (3, 2), (4, 3)])
def test_a_sample_is_a_valid_state_consistent_with_the_view(players, played):
    s = advanced(players, seed=7)
    for n in range(played):  # the seats after 0 play a Cunning card each
        s = mark_played(s, 1 + n % (players - 1))
    s = play_simple(s, Random(3), 5)
    rng = Random(9)
    for seat in range(players):
        view = s.view(seat)
        for _ in range(30):
            sample = view.sample(rng)
            assert sample.view(seat) == view
            assert [sample.cunning[p].bit_count() for p in range(players)] == [s.cunning[p].bit_count()
                                                                                for p in range(players)]
            assert from_dict(to_dict(sample)) == sample  # one of each card, 3 dealt to each player
            if players == 4:  # every card is dealt: the box is empty
                assert sum(sample.cunning) + sum(sample.cunning_played) == ALL_CUNNING


def test_samples_are_uniform_over_the_other_hand():
    # Two players: the other hand's 3 cards among the 9 seat 0 has not seen, each of the 84 hands alike.
    s = advanced(2, seed=5)
    view = s.view(0)
    rng = Random(2024)
    draws = 84 * 100
    hands = Counter(view.sample(rng).cunning[1] for _ in range(draws))
    assert len(hands) == 84 and all(hand & view.unseen == hand and hand.bit_count() == 3 for hand in hands)
    chi2 = sum((n - 100) ** 2 / 100 for n in hands.values())
    assert chi2 < 124.8  # 83 degrees of freedom, p = 0.002
    cards = Counter(i for hand, n in hands.items() for i in range(NUM_CUNNING) if hand >> i & 1 for _ in range(n))
    assert sorted(cards) == [i for i in range(NUM_CUNNING) if view.unseen >> i & 1]
    assert all(abs(n / draws - 3 / 9) < 0.02 for n in cards.values())


def test_samples_are_uniform_over_deals_to_several_hands():
    # Three players, each other seat having played two of its three: one card each among the 5 unseen,
    # the 20 deals alike.
    s = advanced(3, seed=8)
    for p in (1, 2, 1, 2):
        s = mark_played(s, p)
    view = s.view(0)
    unseen = [i for i in range(NUM_CUNNING) if view.unseen >> i & 1]
    assert len(unseen) == 5 and [view.hidden(p) for p in (1, 2)] == [1, 1]
    rng = Random(7)
    deals: Counter[tuple[int, int]] = Counter()
    for _ in range(20 * 200):
        sample = view.sample(rng)
        deals[sample.cunning[1], sample.cunning[2]] += 1
    assert set(deals) == {(1 << a, 1 << b) for a, b in permutations(unseen, 2)}
    chi2 = sum((n - 200) ** 2 / 200 for n in deals.values())
    assert chi2 < 43.8  # 19 degrees of freedom, p = 0.001


def test_sampling_is_reproducible_from_a_seeded_generator():
    s = play_simple(advanced(3, seed=4), Random(4), 4)
    view = s.view(2)
    first = [view.sample(Random(seed)) for seed in range(20)]
    assert [view.sample(Random(seed)) for seed in range(20)] == first
    assert [s.sample(2, Random(seed)) for seed in range(20)] == first  # the state's method asks the view
    assert len({tuple(sample.cunning) for sample in first}) > 1


@pytest.mark.parametrize(("edition", "variant", "players"), [("first", "standard", 2), ("first", "mordred", 3),
                                                             ("second", "standard", 4)])
def test_a_standard_games_view_is_the_whole_position(edition, variant, players):
    s = GameState.new(players, variant, seed=3, edition=edition)
    rng = Random(1)
    while True:
        for seat in range(players):
            view = s.view(seat)
            assert view.unseen == 0 and all(view.hidden(p) == 0 for p in range(players))
            before = rng.getstate()
            sample = view.sample(rng)
            assert rng.getstate() == before  # nothing to draw
            assert sample.key() == s.key() and sample.result == s.result
            assert to_dict(s, view=seat) == {"view": seat} | to_dict(s)
        if s.is_over():
            break
        engine.play_random(s, rng)


def test_a_finished_games_sample_is_scored_from_its_own_cards():
    s = advanced(2, seed=6)
    while not s.is_over():
        s.apply(PASS)
    view = s.view(1)
    assert view.is_over() and view.ending == s.result.ending
    sample = view.sample(Random(1))
    assert sample.result is not None and sample.result.ending == s.result.ending
    assert sample.result == engine.score(sample, s.result.ending)


@pytest.mark.parametrize("seat", [-1, 2, 5])
def test_a_seat_out_of_range_has_no_view(seat):
    s = advanced(2)
    with pytest.raises(ValueError, match="seat must be from 0 to 1"):
        s.view(seat)
    with pytest.raises(ValueError, match="seat must be from 0 to 1"):
        s.sample(seat, Random(0))
    with pytest.raises(ValueError, match="seat must be from 0 to 1"):
        SeatView.of(s, seat)
