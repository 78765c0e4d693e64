"""The action and observation encodings and the step-by-step game (standard library only)."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest

from kingisdead import GameState, IllegalMoveError, parse_move
from kingisdead import playout
from kingisdead.building import Choice
from kingisdead.interfaces.encoding import (
    FIELDS,
    NUM_ACTIONS,
    OBSERVATION_HIGH,
    OBSERVATION_SIZE,
    OFFSETS,
    action_name,
    action_to_choice,
    choice_to_action,
    move_to_actions,
    observation,
    observation_dict,
)
from kingisdead.interfaces.stepping import SteppedGame, max_steps, returns
from kingisdead.scoring import Result

CONFIGS = [(2, "standard"), (3, "mordred"), (4, "standard")]


def random_positions(players: int, variant: str, seed: int, every: int = 3):
    """Positions along a random game (the fast sampler), every few moves."""
    rng = random.Random(seed)
    state = GameState.new(players, variant, seed)
    n = 0
    while not state.is_over():
        if n % every == 0:
            yield state.copy()
        playout.play_random(state, rng)
        n += 1


def test_every_integer_is_one_choice_and_back() -> None:
    kinds = [action_to_choice(a).kind for a in range(NUM_ACTIONS)]
    assert kinds == ["pass"] + ["card"] * 7 + ["region"] * 8 + ["faction"] * 4 + ["none"]
    for a in range(NUM_ACTIONS):
        assert choice_to_action(action_to_choice(a)) == a
    assert action_name(0) == "pass" and action_name(1) == "Crown"
    assert action_name(11) == "region Deva" and action_name(17) == "faction Welsh" and action_name(20) == "none"
    for bad in (-1, NUM_ACTIONS, 2.0, True, "3"):
        with pytest.raises(ValueError):
            action_to_choice(bad)


@pytest.mark.parametrize(("players", "variant"), CONFIGS)
def test_every_move_is_a_sequence_of_offered_integers(players: int, variant: str) -> None:
    """Along random games: each sampled move, spelled as integers, is offered step by step and plays the same."""
    rng = random.Random(players)
    for state in random_positions(players, variant, seed=players * 10):
        for _ in range(3):
            move = playout.sample_move(state, rng)
            game = SteppedGame(state.copy())
            actions = move_to_actions(move)
            for i, a in enumerate(actions):
                assert a in game.legal_actions()
                assert (game.step(a) is None) == (i < len(actions) - 1)
            assert game.state == state.after(move)
            assert game.moves == [move] and game.steps == []


def test_mask_matches_the_builder_and_illegal_steps_change_nothing() -> None:
    game = SteppedGame(GameState.new(2, seed=3))
    builder = game.state.builder()
    assert game.legal_actions() == sorted(choice_to_action(c) for c in builder.options())
    assert game.action_mask() == [int(a in game.legal_actions()) for a in range(NUM_ACTIONS)]
    game.step(2)  # Garrison
    before = (game.state.key(), game.steps[:], game.legal_actions())
    assert all(8 <= a < 16 for a in before[2])  # it asks for a region
    with pytest.raises(IllegalMoveError, match="not offered"):
        game.step(0)
    with pytest.raises(ValueError):
        game.step(99)
    assert (game.state.key(), game.steps, game.legal_actions()) == before
    with pytest.raises(IllegalMoveError, match="finish it first"):
        game.play(parse_move("pass"))


@pytest.mark.parametrize(("players", "variant"), CONFIGS)
def test_random_step_games_end_within_the_bound(players: int, variant: str) -> None:
    rng = random.Random(5)
    for seed in range(3):
        game = SteppedGame(GameState.new(players, variant, seed))
        steps = 0
        while not game.is_over():
            game.step(rng.choice(game.legal_actions()))
            steps += 1
        assert steps <= max_steps(players)
        assert game.legal_actions() == []
        assert game.returns() == returns(game.state)
        replay = GameState.new(players, variant, seed)
        for move in game.moves:
            replay.apply(move)
        assert replay == game.state


def test_observation_fields_tile_the_vector() -> None:
    offset = 0
    for field in FIELDS:
        assert OFFSETS[field.name] == offset and field.doc
        offset += field.size
    assert offset == OBSERVATION_SIZE == len(OBSERVATION_HIGH)


@pytest.mark.parametrize(("players", "variant"), CONFIGS)
def test_observations_stay_in_bounds_and_show_the_position(players: int, variant: str) -> None:
    for state in random_positions(players, variant, seed=1):
        for player in range(players):
            vector = observation(state, player)
            assert len(vector) == OBSERVATION_SIZE
            assert all(0 <= x <= high for x, high in zip(vector, OBSERVATION_HIGH))
            view = observation_dict(vector)
            assert [sum(row) for row in view["board"]] == [sum(state.board[r * 4:r * 4 + 4]) for r in range(8)]
            assert view["stock"] == state.stock
            assert view["courts"][0] == list(state.court(player))  # the observer is always row 0
            assert view["courts"][1] == list(state.court((player + 1) % players))
            assert sum(view["cards_left"]) == sum(state.hands)
            assert view["seat"][player] == 1 and view["players"][players - 2] == 1
            assert view["mordred"] == [float(variant == "mordred")]
            assert view["to_move"][(state.player - player) % players] == 1
            for region, row in enumerate(view["region_position"]):
                assert row.index(1.0) == state.order.index(region)
            for region, row in enumerate(view["control"]):
                assert row.index(1.0) == state.control[region] + 1
            assert view["resolved"] == [state.resolved] and view["saxons"] == [state.saxons]


def test_observation_shows_the_partial_move_and_crowns() -> None:
    state = GameState.new(2, seed=11)
    game = SteppedGame(state)
    crown = next(m for m in state.legal_moves() if m.card is not None and m.card.title == "Crown")
    steps = move_to_actions(crown)
    for a in steps[:2]:
        game.step(a)
    view = observation_dict(game.observation(0))
    assert view["partial_move"][0][steps[0]] == 1 and view["partial_move"][1][steps[1]] == 1
    assert sum(map(sum, view["partial_move"])) == 2
    for a in steps[2:]:
        game.step(a)
    crowned = crown.action[2]
    assert observation_dict(game.observation(0))["crowns"][crowned][0] == 1  # seat 0's token, seen by seat 0
    assert observation_dict(game.observation(1))["crowns"][crowned][1] == 1  # the same token, seen by seat 1
    assert observation_dict(game.observation(1))["top_card"][1][1 + 0] == 1  # seat 0 (seen by 1) shows a Crown


def test_returns_follow_the_documented_scheme() -> None:
    state = GameState.new(4, seed=2)
    assert returns(state) == [0.0] * 4
    state._result = Result("coronation", (0, 2), 0, "test")
    assert returns(state) == [1.0, -1.0, 1.0, -1.0]
    state._result = Result("coronation", (0, 1, 2, 3), None, "test")
    assert returns(state) == [0.0] * 4  # everyone shares the win: a draw
    three = GameState.new(3, seed=2)
    three._result = Result("invasion", (1,), 1, "test")
    assert returns(three) == [-1.0, 1.0, -1.0]


def test_copies_are_independent() -> None:
    game = SteppedGame(GameState.new(3, seed=4))
    game.step(4)  # Settlements
    twin = game.copy()
    twin.step(twin.legal_actions()[0])
    assert len(game.steps) == 1 and len(twin.steps) == 2
    assert game.legal_actions() != twin.legal_actions() or game.steps != twin.steps


def test_core_and_encoding_import_without_the_rl_libraries() -> None:
    """With numpy, gymnasium, pettingzoo and pyspiel unimportable, the core and the encodings still work,
    and kingisdead.env says how to install the extra."""
    code = """
import sys
for name in ("numpy", "gymnasium", "pettingzoo", "pyspiel", "open_spiel"):
    sys.modules[name] = None
import kingisdead, kingisdead.interfaces.encoding, kingisdead.interfaces.stepping
from kingisdead.interfaces.stepping import SteppedGame
SteppedGame(kingisdead.GameState.new(2)).step(0)
try:
    import kingisdead.env
except ImportError as exc:
    print(exc)
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert "pip install kingisdead[rl]" in out


def test_choice_values_match_the_builder_kinds() -> None:
    assert choice_to_action(Choice("region", 7)) == 15
    assert choice_to_action(Choice("faction", 3)) == 19
    assert choice_to_action(Choice("none")) == 20
