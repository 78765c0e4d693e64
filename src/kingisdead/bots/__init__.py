"""Bots: anything that, given a state, chooses a legal move.

Every bot is built from a name (``make_bot("greedy", seed=1)``) so that the
command line, the arena and the web app accept the same names.
"""

from __future__ import annotations

from collections.abc import Callable
from random import Random
from typing import Protocol

from .. import rules
from ..evaluation import evaluate
from ..moves import Move
from ..state import GameState


class Bot(Protocol):
    """Chooses a move for the player to move; never changes the state it is given."""

    name: str

    def choose(self, state: GameState) -> Move: ...


class RandomBot:
    """The fast sampler: a random legal move without listing them all (see rules.play_random)."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = Random(seed)

    def choose(self, state: GameState) -> Move:
        return rules.sample_move(state, self.rng)


class UniformBot:
    """Uniform over the list of legal moves (slow: lists up to ~19,000 moves a turn)."""

    name = "uniform"

    def __init__(self, seed: int = 0) -> None:
        self.rng = Random(seed)

    def choose(self, state: GameState) -> Move:
        return self.rng.choice(state.legal_moves())


class GreedyBot:
    """One-move lookahead: the move after which :func:`evaluate` likes its position best.

    Ties are broken at random (seeded), so greedy games still vary.
    """

    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self.rng = Random(seed)

    def choose(self, state: GameState) -> Move:
        me = state.player
        best: list[Move] = []
        best_value = -2.0
        for move in state.legal_moves():
            after = state.copy()
            rules.play(after, move)
            value = evaluate(after)[me]
            if value > best_value + 1e-9:
                best, best_value = [move], value
            elif value > best_value - 1e-9:
                best.append(move)
        return self.rng.choice(best)


BOTS: dict[str, Callable[[int], Bot]] = {
    "random": RandomBot,
    "uniform": UniformBot,
    "greedy": GreedyBot,
}


def make_bot(name: str, seed: int = 0) -> Bot:
    """A bot by name; unknown names raise ValueError listing the known ones."""
    try:
        factory = BOTS[name.lower()]
    except KeyError:
        raise ValueError(f"unknown bot {name!r} (known: {', '.join(sorted(BOTS))})") from None
    return factory(seed)
