"""The research interfaces in the second edition's advanced game: one seat's information, never another's.

Each interface is checked three ways over whole random games: by its framework's own test (OpenSpiel's
random simulation, PettingZoo's api_test, Gymnasium's env checker); by the hidden cards of the other seats
(built from the full state at each step), which never appear in what a player observes; and by twin games
that differ only in those hidden cards, which give the player the same observation.
"""

from __future__ import annotations

import re
from random import Random

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="needs the rl extra: pip install kingisdead[rl]")
pyspiel = pytest.importorskip("pyspiel", reason="needs the rl extra: pip install kingisdead[rl]")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test  # noqa: E402

from kingisdead import GameState  # noqa: E402
from kingisdead.board import CUNNING_DEALT, NUM_CUNNING  # noqa: E402
from kingisdead.edition import CUNNING_CARDS, get_edition  # noqa: E402
from kingisdead.env import aec_env, gym_env, raw_env, vector_env  # noqa: E402
from kingisdead.information import ALL_CUNNING  # noqa: E402
from kingisdead.interfaces.encoding import (  # noqa: E402
    ADVANCED_FIELDS,
    ADVANCED_NUM_ACTIONS,
    ADVANCED_OBSERVATION_HIGH,
    ADVANCED_OBSERVATION_SIZE,
    CUNNING_BASE,
    NUM_ACTIONS,
    OBSERVATION_SIZE,
    PLAYER_BASE,
    action_name,
    action_to_choice,
    choice_to_action,
    move_to_actions,
    observation,
    observation_dict,
)
from kingisdead.interfaces.openspiel_game import play_setup_from_seed  # noqa: E402  (registers the game)
from kingisdead.interfaces.stepping import SteppedGame  # noqa: E402

ADVANCED = get_edition("second", "advanced")


def advanced(players: int, seed: int) -> GameState:
    return GameState.new(players, seed=seed, edition="second", mode="advanced")


def hidden_from(s: GameState, player: int) -> set[int]:
    """The Cunning cards ``player`` must not see (indices 0-11): those the others hold and those in the box."""
    seen = s.cunning[player]
    for played in s.cunning_played:
        seen |= played
    return {i for i in range(NUM_CUNNING) if not seen >> i & 1}


def others_hold(s: GameState, player: int) -> set[int]:
    """The Cunning cards the other players hold now (indices 0-11)."""
    return {i for q in range(s.players) if q != player for i in range(NUM_CUNNING) if s.cunning[q] >> i & 1}


def cards_marked(vector, width: int = ADVANCED_NUM_ACTIONS) -> set[int]:
    """Every Cunning card (index 0-11) an advanced observation vector marks anywhere: as held, played, on top,
    or as a step of the move being built."""
    fields = observation_dict(list(vector), ADVANCED)
    marked = {i for i, x in enumerate(fields["cunning_hand"]) if x}
    for rows in (fields["cunning_played"], fields["cunning_top"]):
        marked |= {i for row in rows for i, x in enumerate(row) if x}
    for row in fields["partial_move"]:
        marked |= {a - CUNNING_BASE for a, x in enumerate(row[:width]) if x and CUNNING_BASE <= a < PLAYER_BASE}
    return marked


def names_in(text: str, cards: set[int]) -> set[str]:
    return {CUNNING_CARDS[i] for i in cards if re.search(rf"\b{CUNNING_CARDS[i]}\b", text)}


# -- the encodings ---------------------------------------------------------------------


def test_the_advanced_integers_follow_the_standard_ones():
    assert (CUNNING_BASE, PLAYER_BASE, ADVANCED_NUM_ACTIONS) == (21, 33, 37)
    for a in range(ADVANCED_NUM_ACTIONS):
        assert choice_to_action(action_to_choice(a, ADVANCED_NUM_ACTIONS)) == a
    assert [action_name(a, ADVANCED) for a in (1, 21, 32, 33, 36)] == [
        "Negotiate", "Spy", "Plot", "player 1", "player 4"]
    with pytest.raises(ValueError, match="from 0 to 20"):
        action_to_choice(21)  # the standard game's range stays the default


def test_the_advanced_observation_layout():
    assert sum(f.size for f in ADVANCED_FIELDS) == ADVANCED_OBSERVATION_SIZE == len(ADVANCED_OBSERVATION_HIGH)
    assert len({f.name for f in ADVANCED_FIELDS}) == len(ADVANCED_FIELDS)
    s = advanced(3, 2)
    vector = observation(s, 1)
    assert len(vector) == ADVANCED_OBSERVATION_SIZE
    assert all(0 <= x <= high for x, high in zip(vector, ADVANCED_OBSERVATION_HIGH))
    fields = observation_dict(vector, ADVANCED)
    assert fields["cunning_hand"] == [float(s.cunning[1] >> i & 1) for i in range(NUM_CUNNING)]
    assert fields["cunning_hidden"] == [0.0, 3.0, 3.0, 0.0]
    assert fields["cards_left"] == [8.0, 8.0, 8.0, 0.0]
    assert len(observation(GameState.new(3, seed=2, edition="second"), 1)) == OBSERVATION_SIZE


def test_an_observation_ignores_the_other_seats_hidden_cards():
    """Two states that differ only in another seat's hidden Cunning cards give the observer the same vector."""
    s = advanced(3, 5)
    box = ALL_CUNNING & ~(s.cunning[0] | s.cunning[1] | s.cunning[2])
    twin = s.copy()
    low = twin.cunning[1] & -twin.cunning[1]
    twin.cunning[1] = twin.cunning[1] & ~low | box & -box  # seat 1 holds a card from the box instead
    twin.cunning[1], twin.cunning[2] = twin.cunning[2], twin.cunning[1]
    assert twin.cunning != s.cunning and twin.view(0) == s.view(0)
    assert observation(twin, 0) == observation(s, 0)
    assert observation(twin, 1) != observation(s, 1) and observation(twin, 2) != observation(s, 2)


def test_only_the_mover_sees_the_steps_of_its_move():
    s = advanced(2, 3)
    game = SteppedGame(s)
    game.step(next(a for a in game.legal_actions() if a >= CUNNING_BASE))
    mine, theirs = (observation_dict(game.observation(p), ADVANCED)["partial_move"][0] for p in (0, 1))
    assert sum(mine) == 1 and not any(theirs)


# -- OpenSpiel ----------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_openspiel_random_sim_test_in_the_advanced_game(players: int):
    game = pyspiel.load_game(f"kingisdead(players={players},edition=second,mode=advanced)")
    assert game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert game.get_type().provides_information_state_tensor
    assert game.num_distinct_actions() == ADVANCED_NUM_ACTIONS and game.max_chance_outcomes() == NUM_CUNNING
    assert game.observation_tensor_size() == ADVANCED_OBSERVATION_SIZE
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_the_standard_games_stay_of_perfect_information():
    for name in ["kingisdead", "kingisdead(edition=second)", "kingisdead(edition=second,mode=standard)"]:
        game = pyspiel.load_game(name)
        assert game.get_type().information == pyspiel.GameType.Information.PERFECT_INFORMATION
        assert game.num_distinct_actions() == NUM_ACTIONS and game.observation_tensor_size() == OBSERVATION_SIZE
    with pytest.raises(Exception, match="mode must be one of standard, advanced"):
        pyspiel.load_game("kingisdead(mode=secret)")
    with pytest.raises(Exception, match="advanced"):
        pyspiel.load_game("kingisdead(edition=first,mode=advanced)")


def test_openspiel_deals_the_cunning_cards_as_chance_nodes():
    game = pyspiel.load_game("kingisdead(players=3,edition=second,mode=advanced)")
    state = game.new_initial_state()
    while state.setup.kind != "deal":
        state.apply_action(state.chance_outcomes()[0][0])
    assert state.chance_outcomes() == [(i, 1 / 12) for i in range(NUM_CUNNING)]
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 0) == "deal Spy to p1"
    state.apply_action(4)
    assert state.chance_outcomes() == [(i, 1 / 11) for i in range(NUM_CUNNING) if i != 4]
    for seed in range(5):
        state = game.new_initial_state()
        play_setup_from_seed(state, seed)
        assert state.stepped.state == advanced(3, seed)


def _twin_history(state, player: int, rng: Random) -> list[int]:
    """The history of ``state`` with the other seats' Cunning cards dealt again (each keeps those it has played,
    ``player``'s deal is unchanged) and without the steps another player has taken in the move it is building
    (they may name a card it holds): a game ``player`` cannot tell from ``state``'s."""
    s, setup = state.stepped.state, state.setup
    sample = s.sample(player, rng)
    deals = s.players * CUNNING_DEALT
    public = len(setup.outcomes) - deals
    deal = list(setup.outcomes[public:])
    for q in range(s.players):
        if q != player:
            held = sample.cunning[q] | sample.cunning_played[q]
            deal[q * CUNNING_DEALT:(q + 1) * CUNNING_DEALT] = [i for i in range(NUM_CUNNING) if held >> i & 1]
    history = state.history()
    if s.player != player:
        history = history[:len(history) - len(state.stepped.steps)]
    return [*setup.outcomes[:public], *deal, *history[len(setup.outcomes):]]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_openspiel_never_shows_a_player_the_others_hidden_cards(players: int):
    """Over whole random games: no hidden card's name in a player's strings, no hidden card marked in its tensors,
    and a twin game dealt differently among the others looks the same to it."""
    game = pyspiel.load_game(f"kingisdead(players={players},edition=second,mode=advanced)")
    rng, twins = np.random.default_rng(players), Random(players)
    for seed in range(2):
        state = game.new_initial_state()
        play_setup_from_seed(state, seed)
        steps = 0
        while not state.is_terminal():
            s = state.stepped.state
            for p in range(players):
                hidden = hidden_from(s, p)
                assert others_hold(s, p) <= hidden
                for text in (state.information_state_string(p), state.observation_string(p)):
                    assert not names_in(text, hidden), text
                info = state.information_state_tensor(p)
                assert not cards_marked(state.observation_tensor(p)) & hidden
                assert not cards_marked(info[:ADVANCED_OBSERVATION_SIZE]) & hidden
                rows = np.reshape(info[ADVANCED_OBSERVATION_SIZE:], (-1, ADVANCED_NUM_ACTIONS + 4))
                assert not set(np.flatnonzero(rows[:, CUNNING_BASE:PLAYER_BASE].any(0)).tolist()) & hidden
                if steps % 10 == 0:
                    twin = game.new_initial_state()
                    for action in _twin_history(state, p, twins):
                        twin.apply_action(action)
                    assert twin.information_state_string(p) == state.information_state_string(p)
                    assert twin.information_state_tensor(p) == info
                    assert twin.observation_string(p) == state.observation_string(p)
                    assert twin.observation_tensor(p) == state.observation_tensor(p)
            state.apply_action(int(rng.choice(state.legal_actions())))
            steps += 1


def test_openspiel_information_states_tell_the_moves_and_the_own_deal():
    game = pyspiel.load_game("kingisdead(players=2,edition=second,mode=advanced)")
    state = game.new_initial_state()
    play_setup_from_seed(state, 3)
    own = [CUNNING_CARDS[i] for i in state.setup.outcomes[-2 * CUNNING_DEALT:-CUNNING_DEALT]]
    lines = state.information_state_string(0).splitlines()
    assert lines[0] == "seat 0" and lines[1].endswith(" ".join(own) + " ? ? ?")
    game_move = state.stepped.state.legal_moves()[-1]
    for action in move_to_actions(game_move):
        state.apply_action(action)
    assert state.information_state_string(1).splitlines()[-1] == "p1 " + state.stepped.state.notation(game_move)
    assert state.information_state_string(0).splitlines()[-1].endswith(str(move_to_actions(game_move)))


# -- PettingZoo and Gymnasium --------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_pettingzoo_api_test_in_the_advanced_game(players: int):
    api_test(aec_env(players=players, edition="second", mode="advanced"), num_cycles=300)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_pettingzoo_never_shows_an_agent_the_others_hidden_cards(players: int):
    e = raw_env(players=players, edition="second", mode="advanced")
    e.reset(seed=players)
    assert e.observation_space("player_0")["observation"].shape == (ADVANCED_OBSERVATION_SIZE,)
    assert e.action_space("player_0").n == ADVANCED_NUM_ACTIONS
    rng, twins = np.random.default_rng(players), Random(players)
    while not all(e.terminations.values()):
        game = e.game
        for p, agent in enumerate(e.possible_agents):
            observed = e.observe(agent)
            assert not cards_marked(observed["observation"]) & hidden_from(game.state, p)
            twin = SteppedGame(game.state.sample(p, twins))
            twin.steps = list(game.steps)
            assert np.array_equal(np.asarray(twin.observation(p), np.float32), observed["observation"])
        e.step(int(rng.choice(np.flatnonzero(e.observe(e.agent_selection)["action_mask"]))))
    assert e.game.state.result is not None


def test_gymnasium_env_checker_and_leaks_in_the_advanced_game():
    check_env(gym_env(players=3, edition="second", mode="advanced", illegal_reward=-1.0), skip_render_check=False)
    e = gym_env(players=3, seat=1, edition="second", mode="advanced")
    assert e.observation_space.shape == (ADVANCED_OBSERVATION_SIZE,) and e.action_space.n == ADVANCED_NUM_ACTIONS
    rng, twins = np.random.default_rng(4), Random(4)
    for episode in range(3):
        obs, info = e.reset(seed=episode)
        done = False
        while not done:
            s = e.game.state
            assert not cards_marked(obs) & hidden_from(s, 1)
            assert np.array_equal(obs, np.asarray(observation(s.sample(1, twins), 1, e.game.steps), np.float32))
            obs, reward, done, _, info = e.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        assert info["result"]
    with pytest.raises(ValueError, match="does not play the advanced game"):
        gym_env(opponent="greedy", edition="second", mode="advanced")


# -- the vector environment ------------------------------------------------------------------


def test_the_vector_environment_plays_the_advanced_game_in_its_encodings():
    """Its checks against the other environments are in tests/test_rl_vector_advanced.py."""
    for kwargs in ({"edition": "second", "mode": "advanced"}, {"edition": ADVANCED}):
        env = vector_env(2, **kwargs)
        obs, info = env.reset(seed=1)
        assert obs.shape == (2, ADVANCED_OBSERVATION_SIZE) and info["action_mask"].shape == (2, ADVANCED_NUM_ACTIONS)
    with pytest.raises(ValueError, match="advanced"):
        vector_env(2, edition="first", mode="advanced")
