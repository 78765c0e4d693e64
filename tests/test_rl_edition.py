"""The research interfaces in the second edition: an ``edition`` parameter, the same encodings, games to the end."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="needs the rl extra: pip install kingisdead[rl]")
pyspiel = pytest.importorskip("pyspiel", reason="needs the rl extra: pip install kingisdead[rl]")

from kingisdead import GameState  # noqa: E402
from kingisdead.edition import SECOND  # noqa: E402
from kingisdead.env import aec_env, gym_env, raw_env, vector_env  # noqa: E402
from kingisdead.interfaces.encoding import NUM_ACTIONS, OBSERVATION_SIZE, action_name, observation  # noqa: E402
from kingisdead.interfaces.openspiel_game import play_setup_from_seed  # noqa: E402  (registers the game)


def test_the_encodings_keep_their_shapes_and_numbers_in_the_second_edition():
    first, second = GameState.new(2, seed=3), GameState.new(2, seed=3, edition="second")
    assert len(observation(first, 0)) == len(observation(second, 0)) == OBSERVATION_SIZE
    assert [action_name(a, SECOND) for a in (0, 1, 2, 4, 5, 8, 16, 18, 20)] == [
        "pass", "Negotiate", "Outmanoeuvre", "Assemble", "Scottish Support", "region Moray", "faction Scottish",
        "faction English", "none"]
    assert action_name(1) == "Crown"  # the first edition stays the default


def test_pettingzoo_plays_a_second_edition_game_to_the_end():
    e = raw_env(players=3, render_mode="ansi", edition="second")
    e.reset(seed=5, options={"game_seed": 9})
    assert e.game.state == GameState.new(3, seed=9, edition="second")
    rng = np.random.default_rng(5)
    while not all(e.terminations.values()):
        observed = e.observe(e.agent_selection)
        assert observed["observation"].shape == (OBSERVATION_SIZE,) and observed["action_mask"].shape == (NUM_ACTIONS,)
        e.step(int(rng.choice(np.flatnonzero(observed["action_mask"]))))
    assert e.game.state.edition is SECOND and sorted(e.rewards.values()) != [0.0, 0.0, 0.0]
    text = e.render()
    assert "Instability discs" in text and "Saxon" not in text


def test_the_wrapped_pettingzoo_environment_takes_the_edition():
    e = aec_env(players=2, edition="second")
    e.reset(seed=1)
    assert e.unwrapped.game.state.edition.name == "second"
    with pytest.raises(ValueError, match="no Mordred variant"):
        raw_env(variant="mordred", edition="second")
    with pytest.raises(ValueError, match="unknown edition"):
        raw_env(edition="third")


def test_gymnasium_plays_a_second_edition_episode_against_a_bot():
    e = gym_env(opponent="greedy", edition="second")
    obs, info = e.reset(seed=2)
    assert obs.shape == (OBSERVATION_SIZE,) and e.game.state.edition is SECOND
    rng = np.random.default_rng(2)
    done = False
    while not done:
        obs, reward, done, truncated, info = e.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
    assert info["result"] and reward in (-1.0, 0.0, 1.0)
    with pytest.raises(ValueError, match="no network trained for the second edition yet"):
        gym_env(opponent="master", edition="second")


def test_the_vector_environment_plays_the_second_edition():
    """Its games are GameState.new's second-edition games, with the options given, and run to their end."""
    edition = SECOND.with_options(reversal="exact")
    env = vector_env(2, 3, edition=edition)
    obs, info = env.reset(options={"game_seeds": [7, 8]})
    for i, game_seed in enumerate([7, 8]):
        state = GameState.new(3, seed=game_seed, edition=edition)
        assert env.game_state(i) == state and env.game_state(i).edition == edition
        np.testing.assert_array_equal(obs[i], np.asarray(observation(state, 0), dtype=np.float32))
    rng = np.random.default_rng(3)
    ended = np.zeros(2, dtype=bool)
    for _ in range(2000):
        # A game that just ended has no legal action; its next step sets it up anew and ignores 0.
        actions = [int(rng.choice(np.flatnonzero(mask))) if mask.any() else 0 for mask in info["action_mask"]]
        obs, rewards, terminated, truncated, info = env.step(actions)
        ended |= terminated
        if ended.all():
            break
    assert ended.all()
    with pytest.raises(ValueError, match="unknown edition"):
        vector_env(2, edition="third")
    with pytest.raises(ValueError, match="no Mordred"):
        vector_env(2, variant="mordred", edition="second")


def test_openspiel_takes_the_edition_parameter_and_plays_to_the_end():
    game = pyspiel.load_game("kingisdead(players=2,edition=second)")
    assert game.get_parameters()["edition"] == "second"
    assert pyspiel.load_game("kingisdead").get_parameters()["edition"] == "first"
    state = game.new_initial_state()
    play_setup_from_seed(state, 12)
    assert state.stepped.state == GameState.new(2, seed=12, edition="second")
    assert state.action_to_string(state.current_player(), 1) == "Negotiate"
    rng = np.random.default_rng(12)
    while not state.is_terminal():
        assert len(state.observation_tensor(state.current_player())) == OBSERVATION_SIZE
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert sorted(state.returns()) in ([-1.0, 1.0], [0.0, 0.0])
    assert "Saxon" not in str(state) and "instability" in str(state)
    with pytest.raises(Exception, match="no Mordred variant"):
        pyspiel.load_game("kingisdead(variant=mordred,edition=second)")
    with pytest.raises(Exception, match="edition must be one of first, second"):
        pyspiel.load_game("kingisdead(edition=third)")


def test_openspiel_random_simulation_in_the_second_edition():
    pyspiel.random_sim_test(pyspiel.load_game("kingisdead(players=4,edition=second)"), num_sims=1, serialize=True,
                            verbose=False)
