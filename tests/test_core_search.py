"""The search and the solver in the compiled core, seen from Python.

The algorithm is the reference's (max-n, progressive widening over ranked
candidates, heuristic leaves, solver hand-off); these tests pin down what the
core adds: one seed makes a search repeatable under an iteration budget, the
GIL is released while it thinks, several threads pool their visits, and the
solver's verdicts match the reference solver's on small endgames.
"""

from __future__ import annotations

import threading
from random import Random

import pytest

from kingisdead import GameState, IllegalMoveError, core, engine, parse_move, rules
from kingisdead import playout
from kingisdead.bots import levels, make_bot
from kingisdead.bots.budget import Budget
from kingisdead.bots.mcts import search
from kingisdead.bots.solver import solve
from kingisdead.moves import PASS

pytestmark = pytest.mark.skipif(not core.available(), reason="the compiled core is not built")

CONFIGS = [(2, "standard"), (3, "standard"), (4, "standard"), (2, "mordred"), (3, "mordred"), (4, "mordred")]


def midgame(players: int, variant: str, seed: int, plies: int) -> GameState:
    s = GameState.new(players, variant, seed)
    rng = Random(seed)
    for _ in range(plies):
        if s.is_over():
            break
        playout.play_random(s, rng)
    return s


def endgame(seed: int, cards_each: int) -> GameState | None:
    """A 2-player position from a random game with ``cards_each`` cards left in each hand (None if it ended)."""
    s = GameState.new(2, seed=seed)
    rng = Random(seed)
    while not s.is_over() and max(s.cards_left(0), s.cards_left(1)) > cards_each:
        rules.play(s, PASS) if rng.random() < 0.5 else playout.play_random(s, rng)
    if s.is_over() or s.cards_left(0) != cards_each or s.cards_left(1) != cards_each:
        return None
    return s


def test_an_iteration_budget_repeats_exactly_for_one_seed():
    s = midgame(2, "standard", 3, 6)
    first = search(s, Budget(iterations=1500), Random(9))
    again = search(s, Budget(iterations=1500), Random(9))
    assert first.iterations == again.iterations == 1500
    assert [(m.move, m.visits, m.value) for m in first.moves] == [(m.move, m.visits, m.value) for m in again.moves]
    other = search(s, Budget(iterations=1500), Random(10))
    assert [(m.move, m.visits) for m in other.moves] != [(m.move, m.visits) for m in first.moves]


def test_threads_pool_their_visits_and_repeat_for_one_seed():
    s = midgame(2, "standard", 4, 4)
    pooled = search(s, Budget(iterations=800), Random(2), threads=2, engine="core")  # threads: the core's
    again = search(s, Budget(iterations=800), Random(2), threads=2, engine="core")
    assert pooled.iterations == 1600
    assert sum(m.visits for m in pooled.moves) <= pooled.iterations
    assert [(m.move, m.visits) for m in pooled.moves] == [(m.move, m.visits) for m in again.moves]
    assert s.is_legal(pooled.best)


@pytest.mark.parametrize(("players", "variant"), CONFIGS, ids=[f"{p}p-{v}" for p, v in CONFIGS])
def test_search_returns_legal_moves_everywhere(players, variant):
    for plies in (0, 15, 40, 70):
        s = midgame(players, variant, 17 + plies, plies)
        if s.is_over():
            continue
        result = search(s, Budget(iterations=300), Random(plies))
        assert s.is_legal(result.best)
        assert all(s.is_legal(m.move) for m in result.moves)


def test_included_moves_are_judged_first():
    s = GameState.new(2, seed=5)
    wanted = s.legal_moves()[777]
    result = search(s, Budget(iterations=50), Random(1), include=(wanted,))
    assert wanted in [m.move for m in result.moves]


def test_the_search_releases_the_gil_while_it_thinks():
    """Another Python thread keeps running during a core search (it could not if the GIL were held)."""
    s = GameState.new(2, seed=8)
    done = threading.Event()
    thread = threading.Thread(target=lambda: (search(s, Budget(seconds=0.5), Random(1)), done.set()))
    counted = 0
    thread.start()
    while not done.is_set():
        counted += 1
    thread.join()
    assert counted > 10_000


def test_max_uses_threads_not_processes():
    bot = make_bot("max:300", seed=1)
    with engine.use_engine("core"):  # the core's search runs on threads (the suite may run on the reference)
        move = bot.choose(GameState.new(2, seed=6))
    assert GameState.new(2, seed=6).is_legal(move)
    assert levels._POOLS == {}


def test_a_finished_game_cannot_be_searched_or_solved():
    s = midgame(2, "standard", 1, 400)
    assert s.is_over()
    with pytest.raises(ValueError, match="over"):
        search(s, Budget(iterations=10), Random(1))
    with pytest.raises(ValueError, match="over"):
        solve(s)
    with pytest.raises(ValueError, match="two players"):
        solve(GameState.new(3, seed=1))


REFERENCE_NODES = 30_000
"""The reference solver's node budget in the comparison (pure Python: about 1 s per 10,000 nodes)."""


@pytest.mark.parametrize("cards", [1, 2])
def test_core_solver_agrees_with_the_reference_solver(cards):
    """On small endgames both solvers prove the same value, and each proven move achieves it."""
    checked = 0
    for seed in range(200):
        s = endgame(seed, cards)
        if s is None:
            continue
        ours = solve(s, 5_000_000, engine="core")
        assert ours is not None
        if ours.nodes > REFERENCE_NODES:  # past the reference's budget too: seconds spent to learn nothing
            continue
        theirs = solve(s, REFERENCE_NODES, engine="reference")
        if theirs is None:
            continue
        assert ours.value == theirs.value, f"seed {seed}"
        assert s.is_legal(ours.move)
        # The proven move is worth the value: the opponent's best reply cannot do better.
        after = s.after(ours.move)
        if not after.is_over():
            reply = solve(after, 5_000_000, engine="core")
            assert reply is not None and -reply.value == ours.value
        checked += 1
        if checked == (6 if cards == 1 else 3):
            break
    assert checked >= 3


def test_an_illegal_included_move_is_refused_with_the_rule():
    s = GameState.new(2, seed=1)
    with pytest.raises(IllegalMoveError, match="Garrison"):
        search(s, Budget(iterations=10), Random(1), include=(parse_move("Garrison Dev:SW>Lon:R +Lon:S"),))
    with pytest.raises(ValueError, match="not legal"):
        core.require().search(s, None, 10, 1, (0.3, 1.0, 2.0, 3, 24, 0, 1.0),
                              [(1, (9, 9, 9, 9, 9), (0, 0))])
    with pytest.raises(ValueError, match="not legal"):
        core.play(s, parse_move("Garrison Dev:SW>Lon:R +Lon:S"))
