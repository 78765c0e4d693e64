"""Position features and self-play data for the learned evaluation (issue 12).

The core's features (core/src/features.rs) against the Python reading of
them (kingisdead/learning/features.py) on positions of every configuration;
the building steps of moves against the encoding's; the self-play shards:
their format, their policy targets, their results, their repeatability.
"""

from __future__ import annotations

import json
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
    single = core.require().features(states[-1], seats[-1])
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


# -- self-play ------------------------------------------------------------------------

np = pytest.importorskip("numpy")

from kingisdead.bots.mcts import rewards  # noqa: E402
from kingisdead.interfaces.encoding import action_to_choice, legal_actions  # noqa: E402
from kingisdead.learning import selfplay  # noqa: E402

TINY = selfplay.SelfPlaySettings(players=(2, 3, 4), variants=("standard", "mordred"), budget=40, explore=6,
                                 shard_games=4)


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory):
    """Six games, one of each configuration, in two shards."""
    out = tmp_path_factory.mktemp("selfplay")
    run = selfplay.generate(out, games=6, seed=11, settings=TINY)
    return out, run


def test_a_tiny_run_writes_its_shards_and_manifest(tiny_run):
    out, run = tiny_run
    manifest = json.loads((out / "manifest.json").read_text())
    assert [s["file"] for s in manifest["shards"]] == ["shard-00000.npz", "shard-00001.npz"]
    assert manifest["games"] == run.games == 6 and manifest["features"] == feats.FEATURES
    assert sum(s["positions"] for s in manifest["shards"]) == run.positions > 100
    shard = selfplay.load_shard(out / "shard-00001.npz")
    assert list(shard["game_number"]) == [4, 5]
    assert list(zip(shard["game_players"], shard["game_mordred"])) == [(4, False), (4, True)]


def test_the_shards_have_the_documented_shapes_and_types(tiny_run):
    out, _ = tiny_run
    shard = selfplay.load_shard(out / "shard-00000.npz")
    n, m, k, g = len(shard["player"]), len(shard["move_visits"]), len(shard["target"]), len(shard["game_players"])
    expected = {
        "features": ((n, feats.FEATURES), "float32"), "player": ((n,), "int8"), "players": ((n,), "int8"),
        "mordred": ((n,), "bool"), "game": ((n,), "int32"), "ply": ((n,), "int16"), "forced": ((n,), "bool"),
        "result": ((n, 4), "float32"), "policy": ((n, 21), "float32"), "played": ((n,), "int64"),
        "move_start": ((n + 1,), "int64"), "move_steps": ((m, 8), "int8"), "move_visits": ((m,), "int32"),
        "move_prob": ((m,), "float32"), "move_value": ((m,), "float32"), "target_start": ((n + 1,), "int64"),
        "target_prefix": ((k, 8), "int8"), "target_len": ((k,), "int8"), "target": ((k, 21), "float32"),
        "target_legal": ((k, 21), "bool"), "legal": ((n, 21), "bool"),
        "game_start": ((g + 1,), "int64"), "game_number": ((g,), "int64"), "game_setup_seed": ((g,), "uint64"),
        "game_play_seed": ((g,), "uint64"), "game_players": ((g,), "int8"), "game_mordred": ((g,), "bool"),
        "game_result": ((g, 4), "float32"), "game_winners": ((g,), "uint8"), "game_ending": ((g,), "int8"),
        "format_version": ((), "int32"),
    }
    assert set(shard) == set(expected)
    for name, (shape, dtype) in expected.items():
        assert (shard[name].shape, shard[name].dtype.name) == (shape, dtype), name
    assert shard["move_start"][-1] == m and shard["target_start"][-1] == k and shard["game_start"][-1] == n
    assert ((shard["features"] >= 0) & (shard["features"] <= 1)).all()


def replay(shard, game):
    """The positions of one game of a shard, replayed in the Python engine from its setup seed."""
    players, variant = int(shard["game_players"][game]), ("mordred" if shard["game_mordred"][game] else "standard")
    s = GameState.new(players=players, variant=variant, seed=int(shard["game_setup_seed"][game]))
    start, stop = shard["game_start"][game], shard["game_start"][game + 1]
    states = []
    for i in range(start, stop):
        states.append(s)
        builder = s.builder()
        for a in shard["move_steps"][shard["played"][i]]:
            if a < 0:
                break
            builder.choose(action_to_choice(int(a)))
        s = s.after(builder.move())   # checked by the rules
    return states, s


def test_positions_targets_and_results_agree_with_the_python_engine(tiny_run):
    out, _ = tiny_run
    for path in sorted(out.glob("shard-*.npz")):
        shard = selfplay.load_shard(path)
        for game in range(len(shard["game_players"])):
            states, end = replay(shard, game)
            assert end.is_over()
            assert int(shard["game_winners"][game]) == sum(1 << p for p in end.result.winners)
            assert selfplay.ENDINGS[shard["game_ending"][game]] == end.result.ending
            n = end.players
            assert list(shard["game_result"][game][:n]) == pytest.approx(rewards(end))
            assert not shard["game_result"][game][n:].any()
            first = int(shard["game_start"][game])
            for j, s in enumerate(states):
                i = first + j
                assert shard["player"][i] == s.current_player and shard["ply"][i] == j
                assert list(shard["features"][i]) == pytest.approx(feats.features(s, s.current_player), abs=1e-6)
                # The mover's result first, then the next seats in turn.
                mover = s.current_player
                assert list(shard["result"][i][:n]) == pytest.approx(
                    [rewards(end)[(mover + q) % n] for q in range(n)])
                targets = selfplay.step_targets(shard, i)
                assert list(targets)[0] == () and list(targets[()]) == list(shard["policy"][i])
                for prefix, target in targets.items():
                    builder = s.builder()
                    for a in prefix:
                        builder.choose(action_to_choice(a))
                    offered = np.zeros(21, bool)
                    offered[legal_actions(builder)] = True
                    assert target.sum() == pytest.approx(1.0, abs=1e-5)
                    assert not target[~offered].any(), (prefix, target, offered)
                    k = shard["target_start"][i] + list(targets).index(prefix)
                    assert (shard["target_legal"][k] == offered).all()
                assert (shard["legal"][i] == shard["target_legal"][shard["target_start"][i]]).all()
                moves = slice(shard["move_start"][i], shard["move_start"][i + 1])
                assert shard["move_prob"][moves].sum() == pytest.approx(1.0, abs=1e-5)
                # Along a move's steps the targets multiply to its share of the visits.
                for steps, prob in zip(shard["move_steps"][moves], shard["move_prob"][moves]):
                    steps = [int(a) for a in steps if a >= 0]
                    product = np.prod([targets[tuple(steps[:k])][a] for k, a in enumerate(steps)])
                    assert product == pytest.approx(prob, rel=1e-4)
                if not shard["forced"][i]:
                    assert shard["move_visits"][moves].sum() == TINY.budget
                else:
                    assert s.hands[mover * 7:mover * 7 + 7] == [0] * 7
                    assert list(shard["move_steps"][moves][0]) == [0] + [-1] * 7


def test_the_same_seed_writes_the_same_bytes_with_any_number_of_processes(tiny_run, tmp_path):
    out, _ = tiny_run
    settings = selfplay.SelfPlaySettings(players=(2, 3, 4), variants=("standard", "mordred"), budget=40, explore=6,
                                         shard_games=4)
    assert selfplay.main(["--games", "6", "--players", "2,3,4", "--variant", "standard,mordred", "--budget", "40",
                          "--explore", "6", "--shard-games", "4", "--seed", "11", "--jobs", "2",
                          "--out", str(tmp_path / "again")]) == 0
    for name in ("shard-00000.npz", "shard-00001.npz", "manifest.json"):
        assert (tmp_path / "again" / name).read_bytes() == (out / name).read_bytes(), name
    other = selfplay.generate(tmp_path / "other", games=4, seed=12, settings=settings)
    assert other.games == 4
    assert (tmp_path / "other" / "shard-00000.npz").read_bytes() != (out / "shard-00000.npz").read_bytes()


def test_bad_settings_are_refused_before_anything_is_written(tmp_path, capsys):
    for bad in ({"players": (5,)}, {"variants": ("chess",)}, {"budget": 0}, {"explore": -1},
                {"temperature": 0.0}, {"shard_games": 0}):
        with pytest.raises(ValueError):
            selfplay.SelfPlaySettings(**bad)
    with pytest.raises(ValueError, match="at least 1"):
        selfplay.generate(tmp_path / "none", games=0, seed=1)
    with pytest.raises(SystemExit):
        selfplay.main(["--games", "2", "--players", "5", "--out", str(tmp_path / "x")])
    assert "players must be among 2, 3 and 4" in capsys.readouterr().err
    assert not (tmp_path / "none").exists() and not (tmp_path / "x").exists()


def test_a_shard_of_another_format_is_refused(tmp_path, tiny_run):
    out, _ = tiny_run
    shard = selfplay.load_shard(out / "shard-00000.npz")
    shard["format_version"] = np.array(99, np.int32)
    selfplay.write_shard(tmp_path / "old.npz", shard)
    with pytest.raises(ValueError, match="self-play format 99"):
        selfplay.load_shard(tmp_path / "old.npz")


def test_ray_tasks_write_the_same_shards(ray, tiny_run, tmp_path):
    out, _ = tiny_run
    try:
        run = selfplay.generate(tmp_path / "ray", games=6, seed=11, settings=TINY, jobs=1, ray=True)
    finally:
        if ray.is_initialized():
            ray.shutdown()
    assert run.games == 6
    for name in ("shard-00000.npz", "shard-00001.npz", "manifest.json"):
        assert (tmp_path / "ray" / name).read_bytes() == (out / name).read_bytes(), name
