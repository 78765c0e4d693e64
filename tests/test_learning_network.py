"""The learned network: training end to end, resuming, the weight file in NumPy and in the core, the master bot."""

from __future__ import annotations

import json
from pathlib import Path
from random import Random

import numpy as np
import pytest

pytest.importorskip("jax", reason="training needs the learn extra")

from kingisdead import GameState, core  # noqa: E402
from kingisdead.bots.budget import Budget  # noqa: E402
from kingisdead.bots.master import Guidance, guided_search, load_network  # noqa: E402
from kingisdead.interfaces.encoding import CARD_BASE, NUM_ACTIONS, REGION_BASE  # noqa: E402
from kingisdead.learning.features import FEATURES, features_array  # noqa: E402
from kingisdead.learning.network import (  # noqa: E402
    MAGIC_STEPS, STEP_CARDS, STEP_DEPTHS, Network, masked_softmax)
from kingisdead.learning.selfplay import SelfPlaySettings, make_shard  # noqa: E402
from kingisdead.learning.train import (  # noqa: E402
    CHECKPOINT, CURVES, HISTORY, WEIGHTS, TrainConfig, load_shards, main, train, value_targets)

pytestmark = pytest.mark.skipif(not core.available(), reason="the compiled core is not built")

CONFIGURATIONS = [(2, "standard"), (3, "standard"), (3, "mordred"), (4, "standard")]
TINY = TrainConfig(hidden=(32, 16), epochs=2, batch=64, seed=3)


@pytest.fixture(scope="module")
def shards(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A few hundred positions of real self-play, every configuration, in two shards."""
    folder = tmp_path_factory.mktemp("shards")
    settings = SelfPlaySettings(players=(2, 3, 4), variants=("standard", "mordred"), budget=30)
    for i in range(2):
        np.savez(folder / f"shard-{i:05d}.npz", **make_shard(settings, 5, 6 * i, 6))
    return folder


@pytest.fixture(scope="module")
def trained(shards: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("run")
    train(load_shards([shards]), out, TINY, log=lambda _: None)
    return out


def positions() -> list[GameState]:
    """Positions of random games in every configuration, start to end."""
    rng = Random(4)
    found = []
    for players, variant in CONFIGURATIONS:
        s = GameState.new(players=players, variant=variant, seed=players)
        while not s.is_over():
            found.append(s.copy())
            s.apply(core.sample_move(s, rng))
    return found[::3]


def test_shards_give_consistent_training_arrays(shards: Path) -> None:
    data = load_shards([shards])
    assert 200 <= len(data) <= 1000
    assert data.features.shape == (len(data), FEATURES)
    np.testing.assert_allclose(data.policy.sum(axis=1), 1.0, atol=1e-5)
    assert not np.any(data.policy[~data.legal] > 0)
    assert data.legal[:, 0].all()  # the pass is always a first step
    # Values by seat relative to the mover: only seats in the game, one result each (shared wins split).
    assert set(data.seats.sum(axis=1)) == {2, 3, 4}
    assert np.all(data.values[~data.seats] == 0)
    # Two shards, twelve games: numbered apart.
    assert len(np.unique(data.games)) == 12


def test_training_runs_end_to_end_and_writes_its_outputs(trained: Path) -> None:
    for name in (CHECKPOINT, WEIGHTS, HISTORY, CURVES):
        assert (trained / name).stat().st_size > 0
    assert (trained / CURVES).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    net = Network.load(trained / WEIGHTS)
    assert (net.inputs, net.widths) == (FEATURES, [32, 16])
    history = (trained / HISTORY).read_text()
    assert '"train_loss"' in history and "NaN" not in history


def test_training_learns_the_data(shards: Path, tmp_path: Path) -> None:
    data = load_shards([shards])
    history = train(data, tmp_path, TrainConfig(hidden=(32,), epochs=12, batch=32, learning_rate=3e-3, seed=1,
                                                validation=0.0), log=lambda _: None)
    assert history.train_loss[-1] < 0.8 * history.train_loss[0]


def test_a_resumed_run_ends_with_the_weights_of_an_unbroken_one(shards: Path, trained: Path, tmp_path: Path) -> None:
    data = load_shards([shards])
    half = TrainConfig(**{**TINY.__dict__, "epochs": 1})
    train(data, tmp_path, half, log=lambda _: None)
    lines: list[str] = []
    history = train(data, tmp_path, TINY, resume=True, log=lines.append)
    assert lines[0] == "resumed after epoch 1" and history.epochs == 2
    assert (tmp_path / WEIGHTS).read_bytes() == (trained / WEIGHTS).read_bytes()
    # Other settings cannot continue the run.
    with pytest.raises(ValueError, match="other settings"):
        train(data, tmp_path, TrainConfig(**{**TINY.__dict__, "epochs": 3, "seed": 4}), resume=True)


def test_the_command_line_trains_and_refuses_bad_input(shards: Path, tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(shards), "--out", str(tmp_path / "a"), "--epochs", "1", "--hidden", "8"]) == 0
    assert (tmp_path / "a" / WEIGHTS).exists()
    assert main([str(tmp_path / "nothing"), "--out", str(tmp_path / "b")]) == 2
    assert "nothing" in capsys.readouterr().err
    assert main([str(shards), "--out", str(tmp_path / "c"), "--hidden", "0"]) == 2
    assert not (tmp_path / "c").exists()


def test_python_and_the_core_give_the_same_values(trained: Path) -> None:
    py = Network.load(trained / WEIGHTS)
    rs = core.require().Network(str(trained / WEIGHTS))
    states = positions()
    x = features_array(states, [s.player for s in states])
    values, logits = py.evaluate(x)
    assert np.all((values > 0) & (values < 1))
    for s, row, v, lg in zip(states, x, values, logits):
        core_v, core_lg = rs.evaluate(row.tolist())
        np.testing.assert_allclose(core_v, v, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(core_lg, lg, rtol=1e-5, atol=1e-5)
        # The search's own path: features made in the core from the state.
        state_v, _ = rs.evaluate_state(s)
        np.testing.assert_allclose(state_v, v, rtol=1e-5, atol=1e-6)


def test_bad_weight_files_are_refused_by_both(trained: Path, tmp_path: Path) -> None:
    good = (trained / WEIGHTS).read_bytes()
    assert Network.from_bytes(good).to_bytes() == good
    nan = good[:-4] + np.float32(np.nan).tobytes()
    for name, data, reason in [("magic", b"XXXXXXXX" + good[8:], "magic"), ("short", good[:-3], "truncated"),
                               ("long", good + b"\0\0\0\0", "after"), ("nan", nan, "finite")]:
        path = tmp_path / name
        path.write_bytes(data)
        with pytest.raises(ValueError, match=reason):
            Network.load(path)
        with pytest.raises(ValueError, match=reason):
            core.require().Network(str(path))
    narrow = Network(((np.zeros((5, 3), np.float32), np.zeros(3, np.float32)),),
                     (np.zeros((3, 4), np.float32), np.zeros(4, np.float32)),
                     (np.zeros((3, NUM_ACTIONS), np.float32), np.zeros(NUM_ACTIONS, np.float32)))
    narrow.save(tmp_path / "narrow.kdn")
    with pytest.raises(ValueError, match="features"):
        load_network(tmp_path / "narrow.kdn")


def test_masked_softmax() -> None:
    logits = np.array([[1.0, 2.0, 50.0], [0.0, 0.0, 0.0]])
    p = masked_softmax(logits, np.array([[True, True, False], [False, False, False]]))
    np.testing.assert_allclose(p[0], [1 / (1 + np.e), np.e / (1 + np.e), 0.0])
    assert not p[1].any()


def test_guided_self_play_writes_shards_training_reads_and_repeats(trained: Path, tmp_path: Path) -> None:
    from kingisdead.learning.guided import main as guided_main

    for name in ("a", "b"):
        assert guided_main(["--weights", str(trained / WEIGHTS), "--games", "3", "--budget", "20",
                            "--shard-games", "2", "--seed", "5", "--out", str(tmp_path / name)]) == 0
    a, b = load_shards([tmp_path / "a"]), load_shards([tmp_path / "b"])
    assert len(np.unique(a.games)) == 3 and set(a.seats.sum(axis=1)) == {2, 3}
    for field in ("features", "values", "policy", "legal"):
        np.testing.assert_array_equal(getattr(a, field), getattr(b, field))
    assert guided_main(["--weights", str(tmp_path / "missing.kdn"), "--games", "1", "--out", str(tmp_path)]) == 2


# -- the step policy (format version 2) ------------------------------------------------------------

STEPS = TrainConfig(hidden=(32, 16), epochs=2, batch=64, seed=3, step_weight=1.0)


@pytest.fixture(scope="module")
def trained_with_steps(shards: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("steps")
    train(load_shards([shards]), out, STEPS, log=lambda _: None)
    return out


def test_step_targets_follow_the_shards(shards: Path) -> None:
    data = load_shards([shards])
    steps = data.steps
    assert len(steps) > len(data)  # a searched position has many prefixes
    np.testing.assert_allclose(steps.target.sum(axis=1), 1.0, atol=1e-5)
    assert not np.any(steps.target[~steps.legal] > 0)
    assert np.all(steps.legal.sum(axis=1) > 1)  # only prefixes with a choice
    assert steps.head.min() >= 0 and steps.head.max() < STEP_CARDS * STEP_DEPTHS
    # Later steps are regions, factions or "none", never a card or the pass.
    assert not steps.legal[:, :REGION_BASE].any()
    # Each row points at a position with a card in hand: a searched one, not a forced pass.
    assert np.all(np.diff(steps.position) >= 0)
    assert data.legal[steps.position][:, CARD_BASE:REGION_BASE].any(axis=1).all()


def test_training_a_step_policy_writes_version_2_and_learns(trained_with_steps: Path) -> None:
    net = Network.load(trained_with_steps / WEIGHTS)
    assert net.steps is not None
    assert (trained_with_steps / WEIGHTS).read_bytes()[:8] == MAGIC_STEPS
    assert net.steps[0].shape == (STEP_CARDS, STEP_DEPTHS, 16, NUM_ACTIONS)
    history = json.loads((trained_with_steps / HISTORY).read_text())
    assert len(history["step_loss"]) == 2 and all(np.isfinite(history["step_loss"]))
    good = (trained_with_steps / WEIGHTS).read_bytes()
    assert net.to_bytes() == good
    # A version 2 file cut short (in its step layers) is refused by both readers.
    with pytest.raises(ValueError, match="truncated"):
        Network.from_bytes(good[:-4])
    short = trained_with_steps / "short.kdn"
    short.write_bytes(good[:-4])
    with pytest.raises(ValueError, match="truncated"):
        core.require().Network(str(short))


def test_a_step_policy_needs_step_targets(trained: Path, tmp_path: Path) -> None:
    from kingisdead.learning.guided import main as guided_main

    assert guided_main(["--weights", str(trained / WEIGHTS), "--games", "2", "--budget", "10",
                        "--seed", "2", "--out", str(tmp_path / "g")]) == 0
    guided = load_shards([tmp_path / "g"])
    assert len(guided.steps) == 0  # guided shards keep only the first step
    with pytest.raises(ValueError, match="step targets"):
        train(guided, tmp_path / "run", STEPS, log=lambda _: None)
    assert main([str(tmp_path / "g"), "--out", str(tmp_path / "cli"), "--step-weight", "-1"]) == 2


def test_python_and_the_core_give_the_same_step_logits(trained_with_steps: Path) -> None:
    py = Network.load(trained_with_steps / WEIGHTS)
    rs = core.require().Network(str(trained_with_steps / WEIGHTS))
    assert rs.has_steps
    states = positions()[::4]
    x = features_array(states, [s.player for s in states])
    for card, step in [(0, 1), (2, 3), (3, 7), (6, 2)]:
        want = py.step_logits(x, card, step)
        for row, lg in zip(x, want):
            np.testing.assert_allclose(rs.step_logits(row.tolist(), card, step), lg, rtol=1e-5, atol=1e-5)
    for bad in [(7, 1), (0, 0), (0, 8)]:
        with pytest.raises(ValueError, match="card must lie"):
            py.step_logits(x[0], *bad)
        with pytest.raises(ValueError, match="card must lie"):
            rs.step_logits(x[0].tolist(), *bad)


def test_a_network_without_a_step_policy_says_so(trained: Path) -> None:
    x = np.zeros(FEATURES, np.float32)
    with pytest.raises(ValueError, match="no step policy"):
        Network.load(trained / WEIGHTS).step_logits(x, 0, 1)
    rs = core.require().Network(str(trained / WEIGHTS))
    assert not rs.has_steps
    with pytest.raises(ValueError, match="no step policy"):
        rs.step_logits(x.tolist(), 0, 1)


def test_the_guided_search_with_a_step_policy_plays_legal_moves_and_repeats(trained_with_steps: Path) -> None:
    net = load_network(trained_with_steps / WEIGHTS)
    for players, variant in CONFIGURATIONS:
        s = GameState.new(players=players, variant=variant, seed=7)
        for guidance in (Guidance(), Guidance(step_weight=1.0), Guidance(draw_weight=1.0),
                         Guidance(step_weight=0.5, draw_weight=0.5)):
            a = guided_search(s, Budget(iterations=150), Random(2), network=net, guidance=guidance)
            b = guided_search(s, Budget(iterations=150), Random(2), network=net, guidance=guidance)
            s.check(a.best)
            assert [(m.move, m.visits) for m in a.moves] == [(m.move, m.visits) for m in b.moves]
    with pytest.raises(ValueError, match="step_weight"):
        Guidance(step_weight=1.5)
    with pytest.raises(ValueError, match="draw_weight"):
        Guidance(draw_weight=-0.1)


# -- value targets from the search --------------------------------------------------------------------


def test_shards_carry_the_searchs_value_of_the_played_move(shards: Path) -> None:
    data = load_shards([shards])
    assert data.search_value is not None
    known = ~np.isnan(data.search_value)
    assert 0 < known.sum() < len(data)  # forced passes have none
    assert np.all((data.search_value[known] >= 0) & (data.search_value[known] <= 1))


def test_value_targets_mix_the_search_into_the_movers_side(shards: Path) -> None:
    data = load_shards([shards])
    np.testing.assert_array_equal(value_targets(data, 0.0), data.values)
    mixed = value_targets(data, 0.25)
    known = ~np.isnan(data.search_value)
    np.testing.assert_allclose(mixed[known, 0], 0.75 * data.values[known, 0] + 0.25 * data.search_value[known],
                               rtol=1e-6)
    np.testing.assert_array_equal(mixed[~known], data.values[~known])
    players = data.seats.sum(axis=1)
    two, four, three = known & (players == 2), known & (players == 4), known & (players == 3)
    np.testing.assert_allclose(mixed[two, 0] + mixed[two, 1], 1.0, rtol=1e-6)
    np.testing.assert_allclose(mixed[four, 2], mixed[four, 0])
    np.testing.assert_allclose(mixed[four, 1] + mixed[four, 0], 1.0, rtol=1e-6)
    np.testing.assert_array_equal(mixed[three, 1:], data.values[three, 1:])
    assert np.all(mixed[~data.seats] == 0)  # seats a game does not have stay out
    assert main([str(shards), "--out", "unused", "--search-value", "1.5"]) == 2
