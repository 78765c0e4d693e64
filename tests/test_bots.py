"""Bots: only legal moves in every configuration, budgets honoured, seeds repeat, names and levels resolve."""

from __future__ import annotations

import itertools
from random import Random

import pytest

from kingisdead import GameState, engine, rules
from kingisdead import lastcard
from kingisdead import playout
from kingisdead.bots import BOTS, Bot, SearchBot, make_bot, split_name
from kingisdead.bots.budget import Budget
from kingisdead.bots.candidates import ranked_candidates
from kingisdead.bots.levels import LEVELS, ParallelSearchBot
from kingisdead.bots.mcts import SearchConfig, rewards, search
from kingisdead.evaluation import evaluate
from kingisdead.moves import PASS

TINY = Budget(iterations=8)
CONFIGS = list(itertools.product((2, 3, 4), ("standard", "mordred")))


def play_checked(state: GameState, bots: list[Bot], max_moves: int | None = None) -> int:
    """Play with every move checked by the rules (apply raises on an illegal move); the number of moves."""
    played = 0
    while not state.is_over() and (max_moves is None or played < max_moves):
        move = bots[state.current_player].choose(state)
        state.apply(move)
        played += 1
    return played


@pytest.mark.parametrize("players, variant", CONFIGS)
def test_search_bot_plays_only_legal_moves_to_the_end(players, variant):
    state = GameState.new(players, variant, seed=players * 10 + len(variant))
    bots = [make_bot("mcts", seed, TINY) for seed in range(players)]
    play_checked(state, bots)
    assert state.is_over()


@pytest.mark.parametrize("players, variant", CONFIGS)
def test_fast_bots_play_only_legal_moves_to_the_end(players, variant):
    state = GameState.new(players, variant, seed=7 + players)
    names = ["random", "careless", "beginner", "mcts:3"]
    bots = [make_bot(names[seat % len(names)], seat) for seat in range(players)]
    play_checked(state, bots)
    assert state.is_over()


def test_greedy_and_uniform_play_legal_moves_late_in_a_game():
    """These list every legal move, so they are checked from a late (smaller) position."""
    state = GameState.new(2, seed=3)
    rng = Random(3)
    while sum(state.hands) > 6 and not state.is_over():
        playout.play_random(state, rng)
    play_checked(state, [make_bot("greedy", 1), make_bot("uniform", 2)], max_moves=12)


def test_last_card_rule_positions_get_legal_moves():
    """3 players, one card left in all hands: search must respect the last-card rule."""
    checked = 0
    for seed in range(40):
        state = GameState.new(3, seed=seed)
        rng = Random(seed)
        while not state.is_over() and not lastcard.last_card_applies(state):
            playout.play_random(state, rng)
        if state.is_over():
            continue
        move = make_bot("mcts", seed, TINY).choose(state)
        assert move in rules.legal_moves(state)
        checked += 1
        if checked == 4:
            break
    assert checked == 4


def test_iteration_budget_is_exact_and_search_is_repeatable():
    state = GameState.new(2, seed=11)
    first = search(state, Budget(iterations=25), Random(5))
    again = search(state, Budget(iterations=25), Random(5))
    assert first.iterations == again.iterations == 25
    assert sum(m.visits for m in first.moves) == 25
    assert [(m.move, m.visits) for m in first.moves] == [(m.move, m.visits) for m in again.moves]


def test_time_budget_stops_the_search_when_the_clock_runs_out():
    """A fake clock that advances 10 ms per reading: a 50 ms budget allows a handful of iterations."""
    ticks = itertools.count()
    result = search(GameState.new(2, seed=2), Budget(seconds=0.05), Random(1), clock=lambda: next(ticks) * 0.01)
    assert 1 <= result.iterations <= 5
    both = search(GameState.new(2, seed=2), Budget(seconds=100, iterations=4), Random(1))
    assert both.iterations == 4


def test_same_seed_same_moves():
    def game(seed: int) -> list:
        state = GameState.new(3, seed=5)
        bots = [make_bot("mcts:6", seed + seat) for seat in range(3)]
        moves = []
        while not state.is_over():
            moves.append(bots[state.current_player].choose(state))
            state.apply(moves[-1])
        return moves

    assert game(1) == game(1)


def test_bots_do_not_change_the_state_they_are_given():
    state = GameState.new(4, "mordred", seed=9)
    before = state.key()
    for name in ("random", "careless", "mcts:5"):
        make_bot(name, 1).choose(state)
    assert state.key() == before


def test_no_cards_means_pass_without_searching():
    state = GameState.new(2, seed=1)
    state.hands[state.player * 7:state.player * 7 + 7] = [0] * 7
    assert SearchBot(0, Budget(iterations=1)).choose(state) == PASS


def test_search_takes_a_proven_win_in_a_small_endgame():
    from test_solver import small_endgames

    seed, state, value = next(e for e in small_endgames() if e[2] == 1)
    move = SearchBot(seed, Budget(iterations=2)).choose(state)
    after = state.after(move)
    # With best play from here the opponent (now to move) loses.
    from kingisdead.bots.solver import solve

    if after.is_over():
        assert state.player in after.result.winners
    else:
        assert solve(after).value == -1


def test_candidates_are_legal_and_ranked():
    state = GameState.new(2, seed=4)
    ranked = ranked_candidates(state, Random(0), 3)
    assert PASS in [m for _, m in ranked]
    values = [v for v, _ in ranked]
    assert values == sorted(values, reverse=True)
    for _, move in ranked:
        assert state.is_legal(move)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_candidates_are_valued_on_the_state_the_engine_plays_them_to(players):
    """Each candidate's value is the heuristic's on the position the engine reaches by playing it: the court
    call made, the turn passed, the undo ban set (nothing of a move is replayed by hand)."""
    rng = Random(players)
    state = GameState.new(players, seed=players)
    for _ in range(12):
        ranked = ranked_candidates(state, rng, 2)
        for value, move in ranked:
            after = state.copy()
            engine.play(after, move)
            assert after.player == (state.player + 1) % players
            assert value == evaluate(after)[state.player], move
        engine.play(state, ranked[min(1, len(ranked) - 1)][1])
        if state.is_over():
            break


def test_rewards_share_a_4_player_team_win_and_split_shared_wins():
    state = GameState.new(4, seed=1)
    while not state.is_over():
        rules.play(state, PASS)
    reward = rewards(state)
    winners = state.result.winners
    assert all(reward[p] == (1.0 if p in winners else 0.0) for p in range(4))
    assert reward[0] == reward[2] and reward[1] == reward[3]


def test_names_levels_and_budgets():
    for level in ("beginner", "intermediate", "strong", "max"):
        assert level in BOTS
        assert LEVELS[level].description
    assert isinstance(make_bot("strong"), SearchBot)
    assert make_bot("strong").budget == Budget(seconds=1.0)
    assert make_bot("STRONG:300").budget == Budget(iterations=300)
    assert make_bot("mcts", budget=Budget(seconds=0.5)).budget == Budget(seconds=0.5)
    assert isinstance(make_bot("max"), ParallelSearchBot)
    assert split_name("mcts:250ms") == ("mcts", Budget(seconds=0.25))
    assert Budget.parse("2s") == Budget(seconds=2.0)
    assert str(Budget(seconds=1.5, iterations=10)) == "1.5s or 10 iterations"
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot("grandmaster")
    for bad in ("fast", "-1s", "0", "1.5"):
        with pytest.raises(ValueError):
            Budget.parse(bad)
    with pytest.raises(ValueError):
        Budget()


def test_bots_registry_still_builds_from_a_seed_alone():
    for name, factory in BOTS.items():
        bot = factory(3)
        assert callable(bot.choose), name


def test_parallel_search_pools_two_processes_and_repeats_with_an_iteration_budget():
    state = GameState.new(2, seed=6)
    move = ParallelSearchBot(4, Budget(iterations=12)).choose(state)
    assert state.is_legal(move)
    assert ParallelSearchBot(4, Budget(iterations=12)).choose(state) == move


def test_search_config_changes_are_honoured():
    wide = search(GameState.new(2, seed=8), Budget(iterations=30), Random(0), SearchConfig(root_widening=50.0))
    narrow = search(GameState.new(2, seed=8), Budget(iterations=30), Random(0), SearchConfig(root_widening=0.1))
    assert len(wide.moves) > len(narrow.moves)
    rolled = search(GameState.new(3, seed=8), Budget(iterations=10), Random(0), SearchConfig(rollout_moves=5))
    assert rolled.iterations == 10
