"""Bots in the second edition: every level plays it to the end; the network-guided ones refuse it when built."""

from __future__ import annotations

import pytest

from kingisdead import GameState, core
from kingisdead.arena import run_arena
from kingisdead.bots import make_bot
from kingisdead.bots.budget import Budget
from kingisdead.edition import SECOND

TINY = Budget(iterations=8)


def play_checked(state: GameState, names: list[str]) -> None:
    bots = [make_bot(name, seat, TINY, edition=state.edition) for seat, name in enumerate(names)]
    while not state.is_over():
        state.apply(bots[state.current_player].choose(state))  # apply checks every move against the rules


@pytest.mark.parametrize("level", ["beginner", "intermediate", "strong", "max"])
def test_every_level_but_master_plays_a_second_edition_game_to_the_end(level):
    state = GameState.new(2, seed=11, edition="second")
    play_checked(state, [level, "random"])
    assert state.result is not None and state.edition is SECOND


@pytest.mark.parametrize("players", [3, 4])
def test_the_other_bots_play_the_second_edition_with_more_players(players):
    state = GameState.new(players, seed=players, edition="second")
    play_checked(state, ["random", "careless", "greedy", "mcts"][:players])
    assert state.result is not None


@pytest.mark.parametrize("name", ["master", "mcts-net", "mcts-net-b", "master:1s"])
def test_network_bots_refuse_the_second_edition_when_built(name):
    with pytest.raises(ValueError, match="no network trained for the second edition yet"):
        make_bot(name, edition="second")
    with pytest.raises(ValueError, match="no network trained for the second edition yet"):
        make_bot(name, edition=SECOND.with_options(reversal="exact"))
    with pytest.raises(ValueError, match="no network trained for the second edition yet"):
        run_arena(2, [name, "random"], 2, edition="second")


def test_master_given_a_second_edition_position_says_why_it_cannot_move():
    if not core.available():
        pytest.skip("the compiled core is not built")
    bot = make_bot("master", budget=TINY)  # built for the first edition
    with pytest.raises(ValueError, match="no network trained for the second edition yet"):
        bot.choose(GameState.new(2, seed=1, edition="second"))
