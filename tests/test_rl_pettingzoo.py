"""The PettingZoo AEC environment: PettingZoo's own API, seed and render tests, plus our rules."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="needs the rl extra: pip install kingisdead[rl]")

from pettingzoo.test import api_test, render_test, seed_test  # noqa: E402

from kingisdead import GameState, IllegalMoveError  # noqa: E402
from kingisdead.env import aec_env, env, raw_env  # noqa: E402
from kingisdead.interfaces.encoding import NUM_ACTIONS, OBSERVATION_SIZE  # noqa: E402
from kingisdead.interfaces.stepping import returns  # noqa: E402


@pytest.mark.parametrize(("players", "variant"), [(2, "standard"), (3, "mordred"), (4, "standard")])
def test_pettingzoo_api_test(players: int, variant: str) -> None:
    api_test(aec_env(players=players, variant=variant), num_cycles=300)


def test_pettingzoo_seed_test() -> None:
    seed_test(lambda render_mode=None: aec_env(players=3, render_mode=render_mode), num_cycles=200)


def test_pettingzoo_render_test() -> None:
    render_test(lambda render_mode=None: aec_env(players=2, variant="mordred", render_mode=render_mode))


def test_ansi_render_shows_the_table_and_the_move_being_built() -> None:
    e = aec_env(render_mode="ansi")
    e.reset(seed=3)
    e.step(2)  # Garrison: the move is under way
    text = e.render()
    assert "Struggle for" in text and "building a move: Garrison" in text


def play_out(e, rng: np.random.Generator) -> dict[str, float]:
    """Random masked play to the end; the rewards each agent saw at its last turn."""
    final: dict[str, float] = {}
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        final[agent] = reward
        if terminated or truncated:
            e.step(None)
        else:
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return final


@pytest.mark.parametrize("players", [2, 4])
def test_rewards_come_from_the_result(players: int) -> None:
    e = raw_env(players=players)
    e.reset(seed=players)
    final = play_out(e, np.random.default_rng(0))
    game = e.game
    assert game.is_over()
    assert [final[f"player_{p}"] for p in range(players)] == returns(game.state)
    assert e.agents == []


def test_game_seed_option_sets_up_that_game_and_the_mask_follows_the_turn() -> None:
    e = env(players=3)
    e.reset(options={"game_seed": 99, "first_player": 2})
    assert e.unwrapped.game.state == GameState.new(3, seed=99, first_player=2)
    assert e.agent_selection == "player_2"
    obs = e.observe("player_2")
    assert obs["observation"].shape == (OBSERVATION_SIZE,) and obs["observation"].dtype == np.float32
    assert obs["action_mask"].shape == (NUM_ACTIONS,) and obs["action_mask"][0] == 1
    assert not e.observe("player_0")["action_mask"].any()  # not its turn


def test_the_same_agent_acts_until_its_move_is_complete() -> None:
    e = env(players=2)
    e.reset(seed=8)
    first = e.agent_selection
    e.step(4)  # Settlements: three more choices and a court call follow
    assert e.agent_selection == first
    while e.agent_selection == first:
        e.step(int(np.flatnonzero(e.observe(first)["action_mask"])[0]))
    assert len(e.unwrapped.game.moves) == 1 and e.unwrapped.game.moves[0].card.title == "Settlements"


def test_illegal_integer_raises_in_the_raw_env_and_loses_in_the_wrapped_one() -> None:
    e = raw_env()
    e.reset(seed=1)
    with pytest.raises(IllegalMoveError):
        e.step(15)  # a region, but a card or a pass is expected
    wrapped = aec_env()
    wrapped.reset(seed=1)
    cheater = wrapped.agent_selection
    wrapped.step(15)
    assert all(wrapped.terminations.values())
    assert wrapped.rewards[cheater] == -1.0


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError):
        raw_env(players=5)
    with pytest.raises(ValueError):
        raw_env(variant="arthur")
    with pytest.raises(ValueError):
        raw_env(render_mode="rgb_array")
