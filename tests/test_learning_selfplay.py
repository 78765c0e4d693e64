"""Position features and self-play data for the learned evaluation (issue 12).

The core's features (core/src/features.rs) against the Python reading of
them (kingisdead/learning/features.py) on positions of every configuration;
the building steps of moves against the encoding's; the self-play shards:
their format, their policy targets, their results, their repeatability.
"""

from __future__ import annotations

from random import Random

import pytest

from kingisdead import GameState, core
from kingisdead.interfaces.encoding import move_to_actions
from kingisdead.learning import features as feats

pytestmark = pytest.mark.skipif(not core.available(), reason="the compiled core is not built")

CONFIGS = [(2, "standard"), (3, "standard"), (4, "standard"), (2, "mordred"), (3, "mordred"), (4, "mordred")]
CONFIG_IDS = [f"{p}p-{v}" for p, v in CONFIGS]


def random_positions(players: int, variant: str, games: int, seed: int) -> list[GameState]:
    """Every position of a few games of random moves, the end included."""
    rng = Random(seed)
    positions = []
    for g in range(games):
        s = GameState.new(players=players, variant=variant, seed=seed * 100 + g)
        positions.append(s)
        while not s.is_over():
            s = s.after(core.sample_move(s, rng))
            positions.append(s)
    return positions


def test_the_layout_is_documented_slot_by_slot():
    assert feats.FEATURES == 270 == core.require().FEATURES
    names = feats.feature_names()
    assert len(names) == feats.FEATURES == len(set(names))
    assert sum(b.size for b in feats.FIELDS) == feats.FEATURES
    assert names[feats.OFFSETS["seats"] + feats.SEAT_SLOTS.index("cards left")] == "seats[0].cards left"


@pytest.mark.parametrize(("players", "variant"), CONFIGS, ids=CONFIG_IDS)
def test_the_core_and_python_read_the_same_features(players, variant):
    positions = random_positions(players, variant, games=2, seed=players)
    seats = [q for s in positions for q in range(players)]
    states = [s for s in positions for _ in range(players)]
    batch = feats.features_array(states, seats)
    assert batch.shape == (len(states), feats.FEATURES) and batch.dtype.name == "float32"
    names = feats.feature_names()
    for row, s, q in zip(batch, states, seats):
        expected = feats.features(s, q)
        assert all(0.0 <= x <= 1.0 for x in expected)
        for i, (x, y) in enumerate(zip(row, expected)):
            assert abs(x - y) < 1e-6, (names[i], x, y, s)
    single = core.require().features(core.to_core(states[-1]), seats[-1])
    assert single == pytest.approx(list(batch[-1]), abs=0)


def test_features_change_with_what_they_describe():
    s = GameState.new(players=4, variant="mordred", seed=3)
    v = feats.features(s, 1)
    game = feats.OFFSETS["game"]
    assert v[game:game + 4] == [0.0, 0.0, 1.0, 1.0]
    # Seat 0 is to move: relative seat 3 from seat 1; seat 3 is seat 1's partner.
    assert v[feats.OFFSETS["to_move"] + 3] == 1.0
    side = feats.SEAT_SLOTS.index("own side")
    seats = feats.OFFSETS["seats"]
    assert [v[seats + q * len(feats.SEAT_SLOTS) + side] for q in range(4)] == [1.0, 0.0, 1.0, 0.0]
    # The contested region is the first of the order; its struggle is 0 ahead, the last one 1.
    regions = feats.OFFSETS["regions"]
    width = len(feats.REGION_SLOTS)
    first, last = s.order[0], s.order[-1]
    assert v[regions + first * width + feats.REGION_SLOTS.index("contested")] == 1.0
    assert v[regions + last * width + feats.REGION_SLOTS.index("struggles ahead")] == 1.0
    after = s.after(core.sample_move(s, Random(1)))
    assert feats.features(after, 1) != v


def test_a_seat_outside_the_game_is_refused():
    s = GameState.new(players=2, seed=1)
    with pytest.raises(ValueError, match="seat 2 is not in a 2-player game"):
        feats.features(s, 2)
    with pytest.raises(ValueError, match="seat 2 is not in a 2-player game"):
        feats.features_array([s], [2])
    with pytest.raises(ValueError, match="one seat per state"):
        feats.features_array([s], [0, 1])


@pytest.mark.parametrize(("players", "variant"), CONFIGS, ids=CONFIG_IDS)
def test_the_cores_move_steps_are_the_encodings(players, variant):
    rng = Random(players)
    native = core.require()
    for s in random_positions(players, variant, games=1, seed=7)[:-1][::3]:
        moves = s.legal_moves()
        for move in rng.sample(moves, min(len(moves), 40)) + [moves[0]]:
            assert native.move_steps(tuple(move)) == move_to_actions(move)
