"""How games between bots unfold: cards spent on the first struggle, the struggle a game ends at, and how it ends.

Run: .venv/bin/python benchmarks/eval_game_shape.py --players 4 --games 200 [--levels beginner intermediate]

A newcomer saw three intermediate bots spend almost every card on the first struggle of a 4-player game and
Mordred's rebellion end it at struggle 2 (issue 30, point 9). This plays ``--games`` seeded games per level
and variant, every seat the same level (seed ``7000 + game``; the bots' seeds follow from it), and prints per
level and variant: the mean share of all cards in hand played before the first struggle is resolved, the
share of games over by struggle 2, the mean number of struggles resolved, and the endings. The reference in
the same run is random play (the fast sampler), whose shape the rules alone decide.
"""

from __future__ import annotations

import argparse
import collections
from random import Random

from kingisdead import GameState, engine
from kingisdead.bots import make_bot

RANDOM = "random play"


def shape(players: int, variant: str, level: str, games: int) -> dict[str, object]:
    """The figures of ``games`` games of ``level`` in every seat (or random play)."""
    first_share, resolved, early = 0.0, 0, 0
    endings: collections.Counter[str] = collections.Counter()
    for game in range(games):
        seed = 7000 + game
        state = GameState.new(players, variant, seed)
        cards = sum(state.hands)
        bots = None if level == RANDOM else [make_bot(level, seed * 10 + seat) for seat in range(players)]
        rng = Random(seed)
        spent_before_first = None
        while not state.is_over():
            move = engine.sample_move(state, rng) if bots is None else bots[state.player].choose(state)
            engine.play(state, move)
            if spent_before_first is None and state.resolved >= 1:
                spent_before_first = cards - sum(state.hands)
        first_share += (spent_before_first if spent_before_first is not None else cards - sum(state.hands)) / cards
        resolved += state.resolved
        early += state.resolved <= 2
        endings[state.result.ending] += 1
    return {"first": first_share / games, "early": early / games, "resolved": resolved / games,
            "endings": ", ".join(f"{name} {n / games:.0%}" for name, n in endings.most_common())}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--levels", nargs="+", default=["beginner", "intermediate"])
    args = parser.parse_args()
    print(f"{args.players} players, {args.games} seeded games per row; every seat the same level")
    print(f"{'level':<14}{'variant':<10}{'cards on struggle 1':>20}{'over by 2':>11}{'struggles':>11}  endings")
    for variant in ("standard", "mordred"):
        for level in [RANDOM, *args.levels]:
            row = shape(args.players, variant, level, args.games)
            print(f"{level:<14}{variant:<10}{row['first']:>20.0%}{row['early']:>11.0%}{row['resolved']:>11.2f}  {row['endings']}")


if __name__ == "__main__":
    main()
