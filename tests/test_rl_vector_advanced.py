"""The batched environment (interfaces/vector.py) in the second edition's advanced game (secret Cunning cards).

The core's games are checked against the Python reference step by step: against the PettingZoo environment
(same seeds, same integers, every seat), against the Gymnasium single-agent environment (each seat in turn
as its learner, the other seats replaying the vector game's moves), and against the hidden cards of the
other seats, which never reach the seat to act's observation.
"""

from __future__ import annotations

from random import Random

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
from kingisdead.board import NUM_CUNNING  # noqa: E402
from kingisdead.edition import get_edition  # noqa: E402
from kingisdead.env import gym_env, raw_env, vector_env  # noqa: E402
from kingisdead.information import ALL_CUNNING  # noqa: E402
from kingisdead.interfaces.encoding import (  # noqa: E402
    ADVANCED_NUM_ACTIONS,
    ADVANCED_OBSERVATION_SIZE,
    ADVANCED_OFFSETS,
    CUNNING_BASE,
    PLAYER_BASE,
    observation,
    observation_dict,
)
from kingisdead.interfaces.stepping import SteppedGame  # noqa: E402
from kingisdead.moves import IllegalMoveError, Move  # noqa: E402

ADVANCED = get_edition("second", "advanced")
ADVANCED_ARGS = {"edition": "second", "mode": "advanced"}


def advanced_env(num_envs: int, players: int, **kwargs):
    return vector_env(num_envs, players, **ADVANCED_ARGS, **kwargs)


def random_actions(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One offered integer per row, uniformly (0 for a row with none offered)."""
    return (rng.random(masks.shape) * masks).argmax(axis=1)


def hidden_from(s: GameState, seat: int) -> set[int]:
    """The Cunning cards (indices 0-11) ``seat`` has not seen: those the others hold and those in the box."""
    seen = s.cunning[seat]
    for played in s.cunning_played:
        seen |= played
    return {i for i in range(NUM_CUNNING) if not seen >> i & 1}


def cards_marked(vector) -> set[int]:
    """Every Cunning card (index 0-11) an advanced observation marks: held, played, on top, or a step taken."""
    fields = observation_dict(list(vector), ADVANCED)
    marked = {i for i, x in enumerate(fields["cunning_hand"]) if x}
    for rows in (fields["cunning_played"], fields["cunning_top"]):
        marked |= {i for row in rows for i, x in enumerate(row) if x}
    for row in fields["partial_move"]:
        marked |= {a - CUNNING_BASE for a, x in enumerate(row) if x and CUNNING_BASE <= a < PLAYER_BASE}
    return marked


def assert_same_as_pettingzoo(obs, info, pz, i: int) -> None:
    seat = pz.possible_agents.index(pz.agent_selection)
    assert info["seat"][i] == seat
    assert info["game_seed"][i] == pz.game_seed
    seen = pz.observe(pz.agent_selection)
    np.testing.assert_array_equal(obs[i], seen["observation"])
    np.testing.assert_array_equal(info["action_mask"][i], seen["action_mask"])


@pytest.mark.parametrize("mode", [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_step_by_step_the_vector_env_equals_the_pettingzoo_env(players, mode):
    """Same seeds, same integers: the same observations, masks, seats, rewards, endings and positions,
    through whole advanced games, their autoreset and the start of the next."""
    n, seed = 2, 31 * players
    env = advanced_env(n, players, autoreset_mode=mode)
    assert env.single_observation_space.shape == (ADVANCED_OBSERVATION_SIZE,)
    assert env.single_action_space == spaces.Discrete(ADVANCED_NUM_ACTIONS)
    obs, info = env.reset(seed=seed)
    pzs = [raw_env(players, **ADVANCED_ARGS) for _ in range(n)]
    for i, pz in enumerate(pzs):
        pz.reset(seed=seed + i)
        assert_same_as_pettingzoo(obs, info, pz, i)
    rng = np.random.default_rng(seed)
    restarted, cunning_steps = [0] * n, 0
    previous_terminations = np.zeros(n, dtype=bool)
    while min(restarted) < 1:
        actions = random_actions(info["action_mask"], rng)
        cunning_steps += int((actions >= CUNNING_BASE).sum())
        obs, rewards, terminations, truncations, info = env.step(actions)
        assert not truncations.any()
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
                last = pz.observe(pz.agent_selection)["observation"]
                np.testing.assert_array_equal(info["final_obs"][i], last)
                pz.reset()
                restarted[i] += 1
            assert_same_as_pettingzoo(obs, info, pz, i)
            assert env.game_state(i) == pz.game.state
            assert env.move_steps(i) == pz.game.steps
        previous_terminations = terminations
    assert cunning_steps >= 4, "Cunning cards and seats were chosen"


class Replay:
    """A bot that plays the moves it is given, in order (the other seats of a recorded game)."""

    def __init__(self, moves: list[Move]) -> None:
        self.moves = list(moves)

    def choose(self, state: GameState) -> Move:
        return self.moves.pop(0)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_each_seat_sees_what_the_gymnasium_env_shows_its_learner(players):
    """One recorded vector game, replayed in the single-agent Gymnasium environment with each seat in turn as
    the learner: at every step of that seat the same observation and mask, and at the end the same reward."""
    env = advanced_env(1, players)
    obs, info = env.reset(seed=players)
    game_seed = int(info["game_seed"][0])
    reference = SteppedGame(GameState.new(players, seed=game_seed, edition=ADVANCED))
    rng = np.random.default_rng(players)
    record = []  # (seat, observation, mask, action) of every step
    moves: list[tuple[int, Move]] = []
    terminated = False
    while not terminated:
        seat, actions = int(info["seat"][0]), random_actions(info["action_mask"], rng)
        record.append((seat, obs[0], info["action_mask"][0], int(actions[0])))
        move = reference.step(int(actions[0]))
        if move is not None:
            moves.append((seat, move))
        obs, _, terminations, _, info = env.step(actions)
        terminated = bool(terminations[0])
    final_rewards = info["seat_rewards"][0]
    assert reference.is_over() and list(final_rewards) == reference.returns()
    for learner in range(players):
        others = Replay([m for seat, m in moves if seat != learner])
        gym = gym_env(players, opponent=others, seat=learner, **ADVANCED_ARGS)
        gym_obs, gym_info = gym.reset(seed=0, options={"game_seed": game_seed})
        mine = [(o, mask, a) for seat, o, mask, a in record if seat == learner]
        assert mine, "every seat acts"
        for k, (o, mask, action) in enumerate(mine):
            np.testing.assert_array_equal(gym_obs, o)
            np.testing.assert_array_equal(gym_info["action_mask"], mask)
            gym_obs, reward, done, _, gym_info = gym.step(action)
            assert done == (k == len(mine) - 1)
        assert reward == final_rewards[learner] and not others.moves


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_seat_to_act_never_sees_another_seat_s_hidden_cards(players):
    """Over whole random games: no card the seat to act has not seen is marked in its observation, and a game
    that differs only in the other seats' hidden Cunning cards (sampled from its view) gives the same row."""
    n = 3
    env = advanced_env(n, players)
    obs, info = env.reset(seed=7 * players)
    rng, twins = np.random.default_rng(players), Random(players)
    games = 0
    while games < n:
        for i in range(n):
            s, seat, steps = env.game_state(i), int(info["seat"][i]), env.move_steps(i)
            assert not cards_marked(obs[i]) & hidden_from(s, seat)
            twin = s.sample(seat, twins)
            np.testing.assert_array_equal(obs[i], np.asarray(observation(twin, seat, steps), dtype=np.float32))
        obs, _, terminations, _, info = env.step(random_actions(info["action_mask"], rng))
        games += int(terminations.sum())


def test_two_games_differing_in_another_seat_s_hidden_cards_look_the_same_to_the_seat_to_move():
    """Seat 1 takes a card from the box for one of its own and then swaps hands with seat 2 (as
    tests/test_rl_advanced.py builds them): the seat to move, 0, observes the same vector in both."""
    env = advanced_env(1, 3)
    obs, _ = env.reset(options={"game_seeds": [5]})
    s = env.game_state(0)
    assert s.player == 0
    box = ALL_CUNNING & ~(s.cunning[0] | s.cunning[1] | s.cunning[2])
    twin = s.copy()
    low = twin.cunning[1] & -twin.cunning[1]
    twin.cunning[1] = twin.cunning[1] & ~low | box & -box
    twin.cunning[1], twin.cunning[2] = twin.cunning[2], twin.cunning[1]
    assert twin.cunning != s.cunning and twin.view(0) == s.view(0)
    np.testing.assert_array_equal(obs[0], np.asarray(observation(twin, 0), dtype=np.float32))
    fields = observation_dict(list(obs[0]), ADVANCED)
    assert fields["cunning_hand"] == [float(s.cunning[0] >> i & 1) for i in range(NUM_CUNNING)]
    assert fields["cunning_hidden"] == [0.0, 3.0, 3.0, 0.0]
    assert fields["cards_left"] == [float(sum(s.hands[q * 7:q * 7 + 7]) + 3) for q in range(3)] + [0.0]


def test_the_spaces_and_data_pass_gymnasium_s_checks():
    env = advanced_env(4, 3)
    check_space(env.single_observation_space, "observation", lambda *_: None)
    assert env.action_space == spaces.MultiDiscrete([ADVANCED_NUM_ACTIONS] * 4)
    assert env.observation_space.shape == (4, ADVANCED_OBSERVATION_SIZE)
    obs, info = env.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(300):
        assert obs in env.observation_space
        for row in obs:
            check_obs(row, env.single_observation_space, "step")
        obs, _, _, _, info = env.step(random_actions(info["action_mask"], rng))
    assert obs.dtype == np.float32 and info["action_mask"].shape == (4, ADVANCED_NUM_ACTIONS)
    np.testing.assert_array_equal(env.action_masks(), info["action_mask"].astype(bool))


@pytest.mark.parametrize("mode", [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP])
def test_gymnasium_s_episode_statistics_wrapper_counts_whole_games(mode):
    env = RecordEpisodeStatistics(advanced_env(2, 2, autoreset_mode=mode))
    obs, info = env.reset(seed=1)
    rng = np.random.default_rng(1)
    lengths = []
    while len(lengths) < 3:
        obs, _, _, _, info = env.step(random_actions(info["action_mask"], rng))
        if "episode" in info:
            lengths += list(info["episode"]["l"][info["_episode"]])
    assert all(length > 20 for length in lengths)


def test_one_seed_gives_the_same_games_and_another_seed_others():
    def run(seed: int) -> list[np.ndarray]:
        env = advanced_env(4, 4)
        obs, info = env.reset(seed=seed)
        rng = np.random.default_rng(1)
        seen = [obs, info["game_seed"]]
        for _ in range(300):
            obs, rewards, terminations, _, info = env.step(random_actions(info["action_mask"], rng))
            seen += [obs, rewards, terminations, info["action_mask"], info["game_seed"]]
        return seen

    first, again, other = run(5), run(5), run(6)
    assert data_equivalence(first, again, exact=True)
    assert not data_equivalence(first, other)


def test_integers_outside_the_mask_or_the_range_are_refused():
    env = advanced_env(2, 2)
    obs, info = env.reset(seed=3)
    masks = env.action_masks()
    actions = random_actions(info["action_mask"], np.random.default_rng(3))
    bad = actions.copy()
    bad[1] = PLAYER_BASE  # no Spy has been played: no seat is offered
    with pytest.raises(IllegalMoveError, match=r"game 1 \(player 1 to act\): action 33 \(player 1\) is not offered"):
        env.step(bad)
    bad[1] = ADVANCED_NUM_ACTIONS
    with pytest.raises(IllegalMoveError, match="from 0 to 36"):
        env.step(bad)
    np.testing.assert_array_equal(env.action_masks(), masks)
    with pytest.raises(ValueError, match="advanced"):
        vector_env(2, edition="first", mode="advanced")
    assert ADVANCED_OFFSETS["partial_move"] + 10 * ADVANCED_NUM_ACTIONS == ADVANCED_OBSERVATION_SIZE


@pytest.mark.parametrize("players", [2, 3, 4])
def test_positions_across_many_games_match_the_python_builder(players):
    """Many games at once, one checked at each step in turn: the position and the move under way, rebuilt
    in Python, give the same observation and mask; the Spy's copies (seat, then card) come up among them."""
    n = 16
    env = advanced_env(n, players)
    obs, info = env.reset(seed=50 + players)
    rng = np.random.default_rng(players)
    games, spy_copies = 0, 0
    for t in range(1500):
        i = t % n
        game = SteppedGame(env.game_state(i))
        for action in env.move_steps(i):
            game.step(action)
        seat = game.player
        assert info["seat"][i] == seat
        np.testing.assert_array_equal(obs[i], np.asarray(game.observation(seat), dtype=np.float32))
        np.testing.assert_array_equal(info["action_mask"][i], np.asarray(game.action_mask(), dtype=np.int8))
        spy_copies += int(info["action_mask"][i][PLAYER_BASE:].any())
        obs, _, terminations, _, info = env.step(random_actions(info["action_mask"], rng))
        games += int(terminations.sum())
    assert games >= n and spy_copies > 0, (games, spy_copies)
