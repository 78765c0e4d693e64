"""Properties of random games in every configuration, driven by Hypothesis.

Hypothesis supplies the setup seed and the random source of the fast sampler,
so a failing game shrinks to a short, replayable one. Sizes are kept modest
(the file runs in about a minute); KINGISDEAD_PROPERTY_SCALE=10 runs ten times more,
and HYPOTHESIS_PROFILE=explore draws fresh examples instead of the fixed ones.
"""

from __future__ import annotations

import os
from random import Random

from hypothesis import given, settings
from hypothesis import strategies as st

from kingisdead import Card, GameState, IllegalMoveError, Move, format_move, parse_move, rules
from kingisdead import lastcard
from kingisdead import legality
from kingisdead import playout
from kingisdead.board import FOLLOWERS_PER_FACTION, LOYALISTS_TOTAL, NUM_REGIONS, REMOVED_TWO_PLAYER
from kingisdead.building import move_steps
from kingisdead.moves import make_move
from kingisdead.position import dumps, loads
from kingisdead.record import GameRecord
from kingisdead.scoring import ENDINGS

SCALE = int(os.environ.get("KINGISDEAD_PROPERTY_SCALE", "1"))
"""Multiplies every example count (e.g. 10 for a long local run)."""


def examples(n: int) -> int:
    return n * SCALE


CONFIGS = [(2, "standard"), (3, "standard"), (4, "standard"), (2, "mordred"), (3, "mordred"), (4, "mordred")]
configs = st.sampled_from(CONFIGS)
seeds = st.integers(min_value=0, max_value=2**64 - 1)
randoms = st.randoms(use_true_random=False)


def check_invariants(s: GameState) -> None:
    """What no sequence of legal moves can break."""
    removed = REMOVED_TWO_PLAYER if s.players == 2 else 0
    for f in range(3):
        on_board = sum(s.board[r * 4 + f] for r in range(NUM_REGIONS))
        at_court = sum(s.courts[p * 3 + f] for p in range(s.players))
        assert on_board + s.stock[f] + at_court + removed == FOLLOWERS_PER_FACTION
    loyalists = sum(s.board[r * 4 + 3] for r in range(NUM_REGIONS)) + s.stock[3]
    assert loyalists == (LOYALISTS_TOTAL if s.mordred else 0)
    assert min(s.board) >= 0 and min(s.stock) >= 0 and min(s.courts) >= 0 and min(s.hands) >= 0
    for r in range(NUM_REGIONS):
        resolved = s.control[r] != -1
        assert resolved == (r in s.order[:s.resolved])
        assert resolved != bool(s.open >> r & 1)
        if resolved:
            assert s.board[r * 4:r * 4 + 4] == [0, 0, 0, 0], "followers in a resolved region"
    assert s.saxons == s.control.count(4) <= 4
    assert 0 <= s.passes < s.players


def check_result(s: GameState) -> None:
    result = s.result
    assert result is not None and result.ending in ENDINGS
    assert result.winners and set(result.winners) <= set(range(s.players))
    assert result.ruler is None or result.ruler in result.winners
    if s.players == 4:
        assert set(result.winners) in ({0, 2}, {1, 3}, {0, 1, 2, 3})
    if result.ending == "invasion":
        assert s.saxons == 4
    elif result.ending == "mordred":
        assert s.control[s.order[s.resolved - 1]] == 3
    else:
        assert s.resolved == NUM_REGIONS and s.saxons < 4
    assert s.legal_moves() == []


@settings(max_examples=examples(100))
@given(config=configs, seed=seeds, rng=randoms)
def test_random_games_keep_invariants_and_end_with_a_valid_result(config, seed, rng):
    """Every sampled move passes check_move, changes the state as the unchecked play does,
    keeps followers conserved, and has a notation that reads back; the game ends validly."""
    players, variant = config
    s = GameState.new(players, variant, seed)
    check_invariants(s)
    while not s.is_over():
        move = playout.sample_move(s, rng)
        assert legality.check_move(s, move) == move
        assert parse_move(format_move(move)) == move
        unchecked = s.copy()
        rules.play(unchecked, move)
        s.apply(move)
        assert s.key() == unchecked.key()
        check_invariants(s)
    check_result(s)


@settings(max_examples=examples(30))
@given(config=configs, seed=seeds, rng=randoms)
def test_undo_ban_removes_exactly_the_exchanges_with_the_banned_effect(config, seed, rng):
    """No immediate undo, judged by effect: under a ban, the Garrison and the Ambassador lose
    every spelling of the banned change and nothing else (the Garrison falls back to 1-for-1
    only when every 2-for-1 was banned)."""
    players, variant = config
    s = GameState.new(players, variant, seed)
    while not s.is_over():
        if s.undo_ban is not None and s.undo_ban[0] != s.player:
            banned = rules.exchange_effect(s.undo_ban[1])
            free = s.copy()
            free.undo_ban = None
            for card in (Card.GARRISON, Card.AMBASSADOR):
                kept = rules.card_actions(s, card)
                every = rules.card_actions(free, card)
                allowed = [a for a in every if rules.exchange_effect(a) != banned]
                if allowed:
                    assert kept == allowed
                else:
                    assert card is Card.GARRISON and len(every[0]) == 5
                    assert kept and all(len(a) != 5 for a in kept)
                for action in every:
                    if rules.exchange_effect(action) == banned:
                        try:
                            legality._explain_action(s, card, action)
                        except IllegalMoveError as exc:
                            assert "immediately undo" in str(exc)
                        else:
                            raise AssertionError(f"{card.title} {action} undoes the last exchange")
        playout.play_random(s, rng)


@settings(max_examples=examples(60))
@given(config=configs, seed=seeds, rng=randoms)
def test_position_json_round_trip_and_replay_reproduce_the_game(config, seed, rng):
    players, variant = config
    record = GameRecord([f"p{p}" for p in range(players)], variant, seed)
    s = record.start()
    while not s.is_over():
        again = loads(dumps(s))
        assert again.key() == s.key() and again.result == s.result
        record.add(playout.play_random(s, rng))
    record.result = s.result.to_dict()
    replayed = GameRecord.loads(record.dumps()).replay()
    assert replayed.key() == s.key()
    assert replayed.result == s.result


def positions_along_a_game(players: int, variant: str, seed: int, rng: Random, count: int) -> list[GameState]:
    """A few positions of one random game, chosen by ``rng`` (the finished one excluded)."""
    s = GameState.new(players, variant, seed)
    states = []
    while not s.is_over():
        states.append(s.copy())
        playout.play_random(s, rng)
    return rng.sample(states, min(count, len(states)))


@settings(max_examples=examples(20))
@given(config=configs, seed=seeds, rng=randoms)
def test_listed_legal_moves_apply_and_agree_with_check_move_and_the_sampler(config, seed, rng):
    players, variant = config
    for s in positions_along_a_game(players, variant, seed, rng, 2):
        moves = s.legal_moves()
        assert moves[0].is_pass and len(set(moves)) == len(moves)
        legal = set(moves)
        for move in rng.sample(moves, min(25, len(moves))):
            after = s.after(move)
            check_invariants(after)
        for _ in range(25):
            assert playout.sample_move(s, rng) in legal
        # Moves legal elsewhere are legal here exactly when listed here.
        other = positions_along_a_game(players, variant, seed ^ 1, rng, 1)[0]
        others = other.legal_moves()
        for move in rng.sample(others, min(25, len(others))):
            assert s.is_legal(move) == (move in legal)


@settings(max_examples=examples(12))
@given(config=configs, seed=seeds, rng=randoms)
def test_builder_offers_only_completable_choices_and_builds_every_legal_move(config, seed, rng):
    players, variant = config
    for s in positions_along_a_game(players, variant, seed, rng, 2):
        legal = set(s.legal_moves())
        for _ in range(10):  # random walks through the offered choices always complete legally
            builder = s.builder()
            while not builder.complete:
                options = builder.options()
                assert options
                builder.choose(rng.choice(options))
            assert builder.move() in legal
        for move in rng.sample(sorted(legal, key=format_move), min(20, len(legal))):
            builder = s.builder()
            for step in move_steps(move):
                builder.choose(step)
            assert builder.complete and builder.move() == move


small_ints = st.integers(min_value=-2, max_value=9)
junk_moves = st.builds(
    Move,
    st.sampled_from([None, *Card]),
    st.lists(small_ints, max_size=6).map(tuple),
    st.none() | st.tuples(small_ints, small_ints),
)


@settings(max_examples=examples(6))
@given(config=configs, seed=seeds, rng=randoms, data=st.data())
def test_any_move_is_either_legal_or_refused_with_illegal_move_error(config, seed, rng, data):
    """Arbitrary (card, action, court) values never crash the checker or change the state."""
    players, variant = config
    for s in positions_along_a_game(players, variant, seed, rng, 2):
        legal = set(s.legal_moves())
        before = s.key()
        listed = sorted(legal, key=format_move)
        near_misses = [mutate(rng.choice(listed), rng) for _ in range(40)]
        for move in data.draw(st.lists(junk_moves, min_size=40, max_size=40)) + near_misses:
            try:
                canonical = legality.check_move(s, move)
            except IllegalMoveError:
                assert s.key() == before
                if move.card is not None and isinstance(move.card, Card):
                    assert make_move(move.card, move.action, move.court) not in legal, move
                continue
            assert canonical in legal


def mutate(move: Move, rng: Random) -> Move:
    """A legal move with one choice changed to another small number (often illegal)."""
    if move.card is None:
        return Move(Card(rng.randrange(7)), (), (rng.randrange(8), rng.randrange(4)))
    action, court = list(move.action), move.court
    if action and (court is None or rng.random() < 0.7):
        action[rng.randrange(len(action))] = rng.randrange(-1, 8)
    else:
        court = (rng.randrange(8), rng.randrange(4))
    return Move(move.card, tuple(action), court)


@settings(max_examples=examples(30))
@given(seed=seeds, rng=randoms)
def test_three_player_games_obey_the_last_card_rule(seed, rng):
    s = GameState.new(3, "standard", seed)
    while not s.is_over():
        if lastcard.last_card_applies(s):
            move = playout.sample_move(s, rng)
            if not move.is_pass:
                after = s.after(move)
                while not after.is_over():
                    after.apply("pass")
                assert after.result.winners == (s.current_player,)
        playout.play_random(s, rng)
    check_result(s)


def test_random_sampler_is_reproducible():
    """Same seed, same moves, same game."""
    def game(seed: int) -> list[str]:
        s = GameState.new(3, "mordred", seed)
        rng = Random(seed)
        moves = []
        while not s.is_over():
            moves.append(format_move(playout.play_random(s, rng)))
        return moves

    assert game(5) == game(5)
    assert game(5) != game(6)


def test_rules_document_names_only_existing_tests():
    """docs/rules.md cites a test for every rule: each cited test must exist."""
    import re
    from pathlib import Path

    tests = Path(__file__).parent
    doc = (tests.parent / "docs" / "rules.md").read_text()
    cited = re.findall(r"`(?:(test_\w+)\.py)?::(test_\w+)`", doc)
    assert len(cited) > 100
    module = None
    for file, name in cited:
        module = file or module
        source = (tests / f"{module}.py").read_text()
        assert f"def {name}(" in source, f"docs/rules.md cites {module}.py::{name}, which does not exist"
