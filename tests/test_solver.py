"""The endgame solver agrees with exhaustive search on generated small endgames."""

from __future__ import annotations

from functools import cache
from random import Random

import pytest

from kingisdead import GameState, rules
from kingisdead import playout
from kingisdead.bots.solver import solvable, solve
from kingisdead.moves import PASS

pytestmark = pytest.mark.usefixtures("each_engine")
"""Every rule test runs on both engines: the compiled core and the reference."""

NODE_CAP = 3000


class TooBig(Exception):
    pass


def endgame(seed: int, max_open: int, max_cards: int) -> GameState | None:
    """A real 2-player position with few regions open and few cards left, from seeded play.

    Passing often lets struggles end while cards are still in hand, so the
    generator reaches small endgames rather than games that ran out of cards early.
    """
    rng = Random(seed)
    s = GameState.new(2, "mordred" if seed % 3 == 0 else "standard", seed)
    while not s.is_over():
        if bin(s.open).count("1") <= max_open and sum(s.hands) <= max_cards:
            return s
        keep_cards = sum(s.hands) > max_cards and bin(s.open).count("1") <= max_open + 2
        if rng.random() < (0.3 if keep_cards else 0.75):
            rules.play(s, PASS)
        else:
            playout.play_random(s, rng)
    return None


def value_for_mover(s: GameState) -> int:
    winners = s.result.winners
    me, other = s.player in winners, (1 - s.player) in winners
    return 0 if me and other else 1 if me else -1


def brute_force(s: GameState, counter: list[int]) -> int:
    """Plain minimax over every legal move, checked moves, no pruning and no table."""
    if s.is_over():
        return value_for_mover(s)
    counter[0] += 1
    if counter[0] > NODE_CAP:
        raise TooBig
    return max(-brute_force(s.after(m), counter) for m in s.legal_moves())


@cache
def small_endgames() -> list[tuple[int, GameState, int]]:
    """Endgames whose full tree stays under NODE_CAP nodes, with their brute-force values (found once per process,
    when a test first asks: not while collecting, in every worker). Callers must not change the states."""
    found = []
    for seed in range(120):
        for max_open, max_cards in ((3, 2), (2, 3), (4, 1)):
            s = endgame(seed, max_open, max_cards)
            if s is None or len(s.legal_moves()) < 2:
                continue
            try:
                value = brute_force(s, [0])
            except TooBig:
                continue
            found.append((seed, s, value))
        if len(found) >= 14:
            break
    return found


@pytest.fixture
def endgames() -> list[tuple[int, GameState, int]]:
    return small_endgames()


def test_generator_finds_wins_and_losses(endgames):
    values = {value for _, _, value in endgames}
    assert len(endgames) >= 10
    assert {1, -1} <= values


def test_solver_matches_brute_force(endgames):
    for seed, state, value in endgames:
        solution = solve(state)
        assert solution is not None, f"seed {seed}"
        assert solution.value == value, f"seed {seed}"
        # The move it names achieves that value (values flip sides after the move).
        after = state.after(solution.move)
        achieved = -value_for_mover(after) if after.is_over() else -brute_force(after, [0])
        assert achieved == value, f"seed {seed}"


def test_solver_gives_up_past_its_node_limit(endgames):
    """Past its limit the solver answers None, never a guess; a proof stays within the limit."""
    for limit in (1, 5):
        outcomes = [solve(state, node_limit=limit) for _, state, _ in endgames]
        assert None in outcomes
        assert all(solution is None or solution.nodes <= limit for solution in outcomes)


def test_solver_refuses_other_player_counts_and_finished_games(endgames):
    with pytest.raises(ValueError, match="two players"):
        solve(GameState.new(3, seed=1))
    s = GameState.new(2, seed=1)
    while not s.is_over():
        rules.play(s, PASS)
    with pytest.raises(ValueError, match="over"):
        solve(s)
    assert not solvable(s, 16)
    assert solvable(endgames[0][1], 3)
