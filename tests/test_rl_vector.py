"""The batched environment in the core (interfaces/vector.py) against the PettingZoo environment."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from gymnasium import spaces  # noqa: E402
from gymnasium.utils.env_checker import data_equivalence  # noqa: E402
from gymnasium.utils.passive_env_checker import check_obs, check_space  # noqa: E402
from gymnasium.vector import AutoresetMode  # noqa: E402
from gymnasium.wrappers.vector import RecordEpisodeStatistics  # noqa: E402

from kingisdead import GameState  # noqa: E402
from kingisdead.interfaces.encoding import NUM_ACTIONS, OBSERVATION_SIZE, OFFSETS, observation  # noqa: E402
from kingisdead.interfaces.pettingzoo_env import raw_env  # noqa: E402
from kingisdead.interfaces.stepping import SteppedGame  # noqa: E402
from kingisdead.interfaces.vector import KingIsDeadVectorEnv, vector_env  # noqa: E402
from kingisdead.moves import IllegalMoveError  # noqa: E402

CONFIGS = [(2, "standard"), (2, "mordred"), (3, "standard"), (3, "mordred"), (4, "standard"), (4, "mordred")]


def random_actions(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One offered integer per row, uniformly (0 for a row with none offered)."""
    return (rng.random(masks.shape) * masks).argmax(axis=1)


def assert_same_as_pettingzoo(obs, info, pz, i: int) -> None:
    seat = pz.possible_agents.index(pz.agent_selection)
    assert info["seat"][i] == seat
    assert info["game_seed"][i] == pz.game_seed
    seen = pz.observe(pz.agent_selection)
    np.testing.assert_array_equal(obs[i], seen["observation"])
    np.testing.assert_array_equal(info["action_mask"][i], seen["action_mask"])


@pytest.mark.parametrize("mode", [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP])
@pytest.mark.parametrize(("players", "variant"), CONFIGS)
def test_step_by_step_the_vector_env_equals_the_pettingzoo_env(players, variant, mode):
    """Same seeds, same integers: the same observations, masks, seats, rewards and endings,
    through a whole game, its autoreset and the start of the next game."""
    n, seed = 2, 100 * players + len(variant)
    env = vector_env(n, players, variant, autoreset_mode=mode)
    obs, info = env.reset(seed=seed)
    pzs = [raw_env(players, variant) for _ in range(n)]
    for i, pz in enumerate(pzs):
        pz.reset(seed=seed + i)  # the vector env's env i plays the games of seed + i
        assert_same_as_pettingzoo(obs, info, pz, i)
    rng = np.random.default_rng(seed)
    restarted = [0] * n
    last_card_seen = False
    previous_terminations = np.zeros(n, dtype=bool)
    while min(restarted) < 1:
        actions = random_actions(info["action_mask"], rng)
        obs, rewards, terminations, truncations, info = env.step(actions)
        assert not truncations.any()
        assert ("final_obs" in info) == (mode is AutoresetMode.SAME_STEP and terminations.any())
        for i, pz in enumerate(pzs):
            if previous_terminations[i] and mode is AutoresetMode.NEXT_STEP:
                pz.reset()  # continues the seed sequence, as the autoreset does
                restarted[i] += 1
                assert rewards[i] == 0.0 and not terminations[i]
            else:
                actor = pz.agent_selection
                pz.step(int(actions[i]))
                assert rewards[i] == pz.rewards[actor]
                assert terminations[i] == pz.terminations[actor]
            assert list(info["seat_rewards"][i]) == [pz.rewards[a] for a in pz.possible_agents]
            if terminations[i] and mode is AutoresetMode.SAME_STEP:
                assert info["_final_obs"][i]
                last = pz.observe(pz.agent_selection)["observation"]
                np.testing.assert_array_equal(info["final_obs"][i], last)
                pz.reset()  # the new game is already under way in the vector env
                restarted[i] += 1
            elif "final_obs" in info:
                assert not info["_final_obs"][i] and info["final_obs"][i] is None
            assert_same_as_pettingzoo(obs, info, pz, i)
            assert env.game_state(i) == pz.game.state
            assert env.move_steps(i) == pz.game.steps
        last_card_seen |= bool(obs[:, OFFSETS["last_card"]].any())
        previous_terminations = terminations
    if players == 3:
        assert last_card_seen, "the 3-player last-card rule was exercised"


def test_one_seed_gives_the_same_games_and_another_seed_others():
    def run(seed: int) -> list[np.ndarray]:
        env = vector_env(8, 3, "mordred")
        obs, info = env.reset(seed=seed)
        rng = np.random.default_rng(1)
        seen = [obs, info["game_seed"]]
        for _ in range(400):
            obs, rewards, terminations, _, info = env.step(random_actions(info["action_mask"], rng))
            seen += [obs, rewards, terminations, info["action_mask"], info["game_seed"]]
        return seen

    first, again, other = run(5), run(5), run(6)
    assert data_equivalence(first, again, exact=True)
    assert not data_equivalence(first, other)


def test_seeds_and_options_set_up_the_games_as_game_state_new():
    env = vector_env(3, 4, "mordred")
    obs, info = env.reset(options={"game_seeds": [7, 8, 2**64 - 1], "first_player": 2})
    for i, game_seed in enumerate([7, 8, 2**64 - 1]):
        state = GameState.new(4, "mordred", seed=game_seed, first_player=2)
        assert env.game_state(i) == state
        assert info["seat"][i] == 2
        np.testing.assert_array_equal(obs[i], np.asarray(observation(state, 2), dtype=np.float32))
    assert list(info["game_seed"]) == [7, 8, 2**64 - 1]
    # A sequence of seeds gives each env its own; an integer seeds env i with seed + i.
    by_list = vector_env(2).reset(seed=[40, 41])[1]["game_seed"]
    by_int = vector_env(2).reset(seed=40)[1]["game_seed"]
    assert list(by_list) == list(by_int)
    # Without a seed, a later reset continues each env's sequence (as the PettingZoo env does).
    pz = raw_env(2)
    pz.reset(seed=40)
    pz.reset()
    env2 = vector_env(2)
    env2.reset(seed=40)
    assert env2.reset()[1]["game_seed"][0] == pz.game_seed


def test_autoreset_comes_at_the_next_step_and_ignores_its_action():
    env = vector_env(2, 2)
    assert env.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    obs, info = env.reset(seed=3)
    rng = np.random.default_rng(3)
    terminations = np.zeros(2, dtype=bool)
    while not terminations[0]:
        obs, rewards, terminations, _, info = env.step(random_actions(info["action_mask"], rng))
    assert not info["action_mask"][0].any(), "a finished game offers nothing"
    finished = env.game_state(0)
    assert finished.is_over()
    winners = finished.result.winners
    expected = [0.0] * 2 if len(winners) == 2 else [1.0 if p in winners else -1.0 for p in range(2)]
    assert list(info["seat_rewards"][0]) == expected
    old_seed = info["game_seed"][0]
    actions = random_actions(info["action_mask"], rng)
    actions[0] = 99  # ignored: game 0 is set up anew
    obs, rewards, terminations, _, info = env.step(actions)
    assert rewards[0] == 0.0 and not terminations[0]
    assert info["game_seed"][0] != old_seed
    state = GameState.new(2, "standard", seed=int(info["game_seed"][0]))
    assert env.game_state(0) == state
    np.testing.assert_array_equal(obs[0], np.asarray(observation(state, 0), dtype=np.float32))
    assert list(info["seat_rewards"][0]) == [0.0, 0.0]


def test_an_integer_outside_the_mask_is_refused_and_changes_no_game():
    env = vector_env(3, 3)
    obs, info = env.reset(seed=11)
    rng = np.random.default_rng(11)
    for _ in range(5):
        obs, _, _, _, info = env.step(random_actions(info["action_mask"], rng))
    states = [env.game_state(i) for i in range(3)]
    steps = [env.move_steps(i) for i in range(3)]
    masks = env.action_masks()
    actions = random_actions(info["action_mask"], rng)
    refused = int(np.flatnonzero(~masks[1])[0])
    bad = actions.copy()
    bad[1] = refused
    with pytest.raises(IllegalMoveError, match=rf"game 1 \(player \d to act\): action {refused} .* not offered; "
                                               r"the choices are: "):
        env.step(bad)
    for wrong in ([21, 0, 0], [-1, 0, 0]):
        wrong = np.where(np.arange(3) == 0, wrong[0], actions)
        with pytest.raises(IllegalMoveError, match="from 0 to 20"):
            env.step(wrong)
    with pytest.raises(ValueError, match=r"shape \(3,\)"):
        env.step(actions[:2])
    with pytest.raises(ValueError, match="integers"):
        env.step(actions.astype(float))
    assert [env.game_state(i) for i in range(3)] == states
    assert [env.move_steps(i) for i in range(3)] == steps
    np.testing.assert_array_equal(env.action_masks(), masks)
    # The environment goes on as if nothing had been tried.
    twin = vector_env(3, 3)
    twin_info = twin.reset(seed=11)[1]
    twin_rng = np.random.default_rng(11)
    for _ in range(5):
        twin_info = twin.step(random_actions(twin_info["action_mask"], twin_rng))[4]
    assert data_equivalence(env.step(actions), twin.step(actions), exact=True)


def test_the_spaces_and_data_pass_gymnasium_s_checks():
    env = vector_env(4, 2, "mordred")
    check_space(env.single_observation_space, "observation", lambda *_: None)
    assert env.single_action_space == spaces.Discrete(NUM_ACTIONS)
    assert env.action_space == spaces.MultiDiscrete([NUM_ACTIONS] * 4)
    assert env.observation_space.shape == (4, OBSERVATION_SIZE)
    obs, info = env.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(300):
        assert obs in env.observation_space
        for row in obs:
            check_obs(row, env.single_observation_space, "step")
        new = env.step(random_actions(info["action_mask"], rng))
        assert not np.shares_memory(new[0], obs), "copy=True returns fresh arrays"
        obs, info = new[0], new[4]
    assert obs.dtype == np.float32 and info["action_mask"].dtype == np.int8
    np.testing.assert_array_equal(env.action_masks(), info["action_mask"].astype(bool))


@pytest.mark.parametrize("mode", [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP])
def test_gymnasium_s_episode_statistics_wrapper_counts_whole_games(mode):
    env = RecordEpisodeStatistics(vector_env(2, 2, autoreset_mode=mode))
    obs, info = env.reset(seed=1)
    rng = np.random.default_rng(1)
    lengths = []
    while len(lengths) < 3:
        obs, rewards, terminations, _, info = env.step(random_actions(info["action_mask"], rng))
        if "episode" in info:
            lengths += list(info["episode"]["l"][info["_episode"]])
    assert all(length > 20 for length in lengths)


def test_without_copies_the_buffers_are_reused():
    env = vector_env(2, copy=False)
    obs, info = env.reset(seed=2)
    obs2, *_ = env.step(random_actions(info["action_mask"], np.random.default_rng(2)))
    assert obs2 is obs


def test_bad_arguments_are_refused():
    for num_envs in (0, -1, 2.0, True):
        with pytest.raises(ValueError, match="num_envs"):
            KingIsDeadVectorEnv(num_envs)
    with pytest.raises(ValueError):
        vector_env(2, players=5)
    with pytest.raises(ValueError):
        vector_env(2, variant="arthur")
    with pytest.raises(ValueError, match="autoreset_mode"):
        vector_env(2, autoreset_mode=AutoresetMode.DISABLED)
    assert vector_env(1, autoreset_mode="SameStep").metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
    assert KingIsDeadVectorEnv.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    env = vector_env(2, players=3)
    with pytest.raises(RuntimeError, match="reset"):
        env.step([0, 0])
    with pytest.raises(ValueError, match="first_player"):
        env.reset(options={"first_player": 3})
    with pytest.raises(ValueError, match="game_seeds"):
        env.reset(options={"game_seeds": [1]})
    with pytest.raises(ValueError, match="unknown reset options"):
        env.reset(options={"game_seed": 1})
    with pytest.raises(ValueError, match="seed"):
        env.reset(seed=[1, 2, 3])
    env.reset(seed=0)
    with pytest.raises(IndexError):
        env.game_state(2)


def test_render_shows_each_table():
    env = vector_env(2, 2, render_mode="ansi")
    env.reset(seed=4)
    texts = env.render()
    assert len(texts) == 2 and all("Caledonia" in text for text in texts)
    with pytest.warns(UserWarning, match="render_mode"):
        assert vector_env(1).render() is None


def test_the_example_in_docs_runs():
    text = (Path(__file__).resolve().parent.parent / "docs" / "rl.md").read_text()
    example = text.split("## The batched environment")[1].split("```python\n")[1].split("```")[0]
    namespace: dict = {}
    exec(example, namespace)  # noqa: S102 - our own documentation
    assert namespace["obs"].shape == (256, OBSERVATION_SIZE)
    assert namespace["terminations"].shape == (256,)


@pytest.mark.parametrize(("players", "variant"), [(2, "standard"), (3, "mordred"), (4, "standard")])
def test_positions_across_many_games_match_the_python_builder(players, variant):
    """Many games at once, one game checked at each step in turn: the position and the move
    under way, rebuilt in Python, give the same observation and mask."""
    n = 32
    env = vector_env(n, players, variant)
    obs, info = env.reset(seed=players)
    rng = np.random.default_rng(players)
    games = 0
    for t in range(1200):
        i = t % n
        game = SteppedGame(env.game_state(i))
        for action in env.move_steps(i):
            game.step(action)
        seat = game.player
        assert info["seat"][i] == seat
        np.testing.assert_array_equal(obs[i], np.asarray(game.observation(seat), dtype=np.float32))
        np.testing.assert_array_equal(info["action_mask"][i], np.asarray(game.action_mask(), dtype=np.int8))
        obs, _, terminations, _, info = env.step(random_actions(info["action_mask"], rng))
        games += int(terminations.sum())
    assert games >= n, "the run went through whole games"
