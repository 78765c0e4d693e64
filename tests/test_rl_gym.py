"""The Gymnasium single-agent environment: Gymnasium's checker and full episodes against bots."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("gymnasium", reason="needs the rl extra: pip install kingisdead[rl]")

from gymnasium.utils.env_checker import check_env  # noqa: E402

from kingisdead import GameState, IllegalMoveError  # noqa: E402
from kingisdead.bots import RandomBot  # noqa: E402
from kingisdead.env import gym_env  # noqa: E402
from kingisdead.interfaces.encoding import OBSERVATION_SIZE, observation  # noqa: E402


def test_gymnasium_env_checker() -> None:
    # The checker steps unmasked random integers, so illegal ones must end the episode rather than raise.
    check_env(gym_env(players=2, illegal_reward=-1.0), skip_render_check=False)


def run_episode(env, seed: int) -> tuple[float, dict]:
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    total, done = 0.0, False
    while not done:
        assert obs.shape == (OBSERVATION_SIZE,)
        assert (info["action_mask"] == env.action_masks()).all()
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, reward, done, truncated, info = env.step(action)
        assert not truncated
        total += reward
    return total, info


@pytest.mark.parametrize(("players", "variant", "seat"), [(2, "standard", 1), (3, "mordred", "random"), (4, "standard", 0)])
def test_episodes_end_with_the_learner_s_result(players, variant, seat) -> None:
    env = gym_env(players=players, variant=variant, opponent="random", seat=seat)
    for seed in range(2):
        total, info = run_episode(env, seed)
        me = env.seat
        winners = info["result"]["winners"]
        if len(winners) == players:
            assert total == 0.0
        else:
            assert total == (1.0 if me in winners else -1.0)
        assert env.game.is_over()


def test_the_learner_always_sees_its_own_turn() -> None:
    env = gym_env(players=3, seat=2, opponent=RandomBot(seed=4))
    obs, info = env.reset(seed=0, options={"game_seed": 5})
    game = env.game
    assert game.player == 2 and info["seat"] == 2
    assert np.allclose(obs, observation(game.state, 2, game.steps))
    # The bots played the seats before the learner's.
    assert len(game.moves) == 2 and game.state != GameState.new(3, seed=5)


def test_reset_with_a_seed_repeats_the_episode() -> None:
    first = run_episode(gym_env(players=2, seat="random"), seed=11)
    again = run_episode(gym_env(players=2, seat="random"), seed=11)
    assert first[0] == again[0] and first[1]["result"] == again[1]["result"]


def test_illegal_integers() -> None:
    env = gym_env(players=2)
    env.reset(seed=0)
    with pytest.raises(IllegalMoveError):
        env.step(20)
    lenient = gym_env(players=2, illegal_reward=-5.0)
    lenient.reset(seed=0)
    _, reward, terminated, _, info = lenient.step(20)
    assert (reward, terminated, info["illegal_action"]) == (-5.0, True, True)
    with pytest.raises(IllegalMoveError, match="reset"):
        lenient.step(0)


def test_bad_arguments_are_refused() -> None:
    for kwargs in ({"players": 1}, {"seat": 2}, {"opponent": "nobody"}, {"render_mode": "rgb_array"}):
        with pytest.raises(ValueError):
            gym_env(**kwargs)
