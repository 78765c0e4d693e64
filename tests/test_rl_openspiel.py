"""The OpenSpiel game: OpenSpiel's random simulation test, its playthrough check, explicit chance, MCTS."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="needs the rl extra: pip install kingisdead[rl]")

from absl import flags  # noqa: E402
from open_spiel.python.algorithms import mcts  # noqa: E402

from kingisdead import GameState  # noqa: E402
from kingisdead.interfaces.openspiel_game import play_setup_from_seed  # noqa: E402  (registers the game)
from kingisdead.interfaces.encoding import OBSERVATION_SIZE, observation  # noqa: E402

PLAYTHROUGH = Path(__file__).parent / "data" / "kingisdead_playthrough.txt"


@pytest.mark.parametrize("name", ["kingisdead", "kingisdead(players=3,variant=mordred)", "kingisdead(players=4)"])
def test_openspiel_random_sim_test_with_serialisation(name: str) -> None:
    pyspiel.random_sim_test(pyspiel.load_game(name), num_sims=2, serialize=True, verbose=False)


def test_playthrough_is_reproduced() -> None:
    """As OpenSpiel checks its own games: regenerating the committed playthrough gives the same text.

    After a deliberate change to the game or its encodings, regenerate it with
    ``UPDATE_PLAYTHROUGH=1 python -m pytest tests/test_rl_openspiel.py -k playthrough`` and review the diff.
    """
    # imported here, not while collecting: it brings OpenSpiel's mean-field games, SciPy and JAX (~2.5 s per worker)
    from open_spiel.python.algorithms import generate_playthrough

    if not flags.FLAGS.is_parsed():
        flags.FLAGS.mark_as_parsed()
    if os.environ.get("UPDATE_PLAYTHROUGH"):
        PLAYTHROUGH.write_text(generate_playthrough.playthrough("kingisdead", None, seed=7), encoding="utf-8")
    original, regenerated = generate_playthrough.replay(str(PLAYTHROUGH))
    assert original == regenerated


@pytest.mark.parametrize(("players", "variant"), [(2, "standard"), (3, "mordred"), (4, "standard")])
def test_chance_nodes_are_the_setup_draws(players: int, variant: str) -> None:
    game = pyspiel.load_game(f"kingisdead(players={players},variant={variant})")
    for seed in range(10):
        state = game.new_initial_state()
        play_setup_from_seed(state, seed)
        assert state.current_player() == 0
        assert state.stepped.state == GameState.new(players, variant, seed)


def test_chance_outcomes_are_probabilities_of_the_bag() -> None:
    state = pyspiel.load_game("kingisdead").new_initial_state()
    assert state.chance_outcomes() == [(0, 1 / 3), (1, 1 / 3), (2, 1 / 3)]
    state.apply_action(0)
    assert state.chance_outcomes() == [(0, 13 / 41), (1, 14 / 41), (2, 14 / 41)]
    with pytest.raises(ValueError, match="not a possible outcome"):
        state.apply_action(5)
    assert state.history() == [0] and len(state.setup.outcomes) == 1


def test_actions_are_sorted_and_tensors_match_the_encoding() -> None:
    game = pyspiel.load_game("kingisdead(players=3)")
    rng = np.random.default_rng(2)
    state = game.new_initial_state()
    play_setup_from_seed(state, 2)
    assert game.observation_tensor_size() == OBSERVATION_SIZE
    for _ in range(40):
        legal = state.legal_actions()
        assert legal == sorted(legal)
        for player in range(3):
            expected = observation(state.stepped.state, player, state.stepped.steps)
            assert np.allclose(state.observation_tensor(player), expected)
        state.apply_action(int(rng.choice(legal)))
    copy = game.deserialize_state(state.serialize())
    assert copy.history() == state.history() and str(copy) == str(state)


def test_openspiel_mcts_bot_plays_a_whole_game() -> None:
    game = pyspiel.load_game("kingisdead")
    rng = np.random.RandomState(0)
    bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=3,
                       evaluator=mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        elif state.current_player() == 0:
            state.apply_action(bot.step(state))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    assert sorted(state.returns()) in ([-1.0, 1.0], [0.0, 0.0])


def test_bad_parameters_are_refused() -> None:
    for name in ["kingisdead(players=5)", "kingisdead(variant=arthur)"]:
        with pytest.raises(Exception, match="players|variant"):
            pyspiel.load_game(name)
