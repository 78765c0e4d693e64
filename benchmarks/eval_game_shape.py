"""How games between bots unfold: cards spent on the first struggle, the struggle a game ends at, and how it ends.

Run: .venv/bin/python benchmarks/eval_game_shape.py --players 2 3 4 --games 200 [--levels beginner intermediate]
     [--editions first second] [--seed 7000]

A newcomer saw three intermediate bots spend almost every card on the first struggle of a 4-player game and
Mordred's rebellion end it at struggle 2 (issue 30, point 9). This plays ``--games`` seeded games per level,
player count, edition and variant (the first edition's standard game and Mordred variant, the second
edition's standard game), every seat the same level. Game ``g`` is set up from seed ``--seed + g`` and the
bot in seat ``p`` gets seed ``(--seed + g) * 10 + p``, so one seed decides every draw. Per row it prints:

- ``on 1``: the share of each player's 8 cards played before the first struggle is resolved, averaged over
  the seats, and ``seats``: the same share seat by seat;
- ``by 2``: the share of games over by the end of struggle 2;
- ``ends at``: the mean struggle the game ended at (8 for a coronation), and ``histogram``: how many games
  ended at struggles 1-8;
- ``endings``: how the games ended (coronation after the last struggle, invasion by the Saxons or
  instability, mordred: the Loyalists won a struggle).

The reference in the same run is random play (the fast sampler), whose shape the rules alone decide.
"""

from __future__ import annotations

import argparse
import collections
import json
import time
from dataclasses import asdict, dataclass
from random import Random

from kingisdead import GameState, engine
from kingisdead.bots import make_bot

RANDOM = "random play"
CARDS = 8
"""Action cards each player starts with (both editions)."""


@dataclass
class Shape:
    """How ``games`` games of one level, table and variant unfolded (see the module's docstring)."""

    level: str
    players: int
    edition: str
    variant: str
    games: int
    first_share: float
    seat_shares: list[float]
    over_by_two: float
    ended_at: float
    histogram: list[int]
    endings: dict[str, float]
    seconds: float


def play_one(players: int, edition: str, variant: str, level: str, seed: int) -> tuple[list[int], GameState]:
    """One seeded game, every seat ``level`` (or random play): each seat's cards played on struggle 1, the end."""
    state = GameState.new(players, variant, seed, edition=edition)
    bots = None if level == RANDOM else [make_bot(level, seed * 10 + seat, edition=edition) for seat in range(players)]
    rng = Random(seed)
    first: list[int] | None = None
    while not state.is_over():
        move = engine.sample_move(state, rng) if bots is None else bots[state.player].choose(state)
        engine.play(state, move)
        if first is None and state.resolved >= 1:
            first = [CARDS - sum(state.hands[p * 7:p * 7 + 7]) for p in range(players)]
    return first or [CARDS - sum(state.hands[p * 7:p * 7 + 7]) for p in range(players)], state


def shape(players: int, edition: str, variant: str, level: str, games: int, seed: int = 7000) -> Shape:
    """The figures of ``games`` seeded games of ``level`` in every seat (or random play)."""
    start = time.perf_counter()
    seats = [0.0] * players
    histogram = [0] * 8
    endings: collections.Counter[str] = collections.Counter()
    for game in range(games):
        spent, state = play_one(players, edition, variant, level, seed + game)
        for p in range(players):
            seats[p] += spent[p] / CARDS / games
        histogram[max(state.resolved, 1) - 1] += 1
        assert state.result is not None
        endings[state.result.ending] += 1
    return Shape(level, players, edition, variant, games, sum(seats) / players, seats,
                 sum(histogram[:2]) / games, sum((i + 1) * n for i, n in enumerate(histogram)) / games, histogram,
                 {name: n / games for name, n in endings.most_common()}, time.perf_counter() - start)


def tables(editions: list[str]) -> list[tuple[str, str]]:
    """(edition, variant) pairs measured: the second edition has no Mordred variant."""
    return [(edition, variant) for edition in editions
            for variant in (("standard", "mordred") if edition == "first" else ("standard",))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, nargs="+", default=[4])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--levels", nargs="+", default=["beginner", "intermediate"])
    parser.add_argument("--editions", nargs="+", default=["first"], choices=["first", "second"])
    parser.add_argument("--seed", type=int, default=7000)
    parser.add_argument("--no-random", action="store_true", help="leave out the random-play reference rows")
    parser.add_argument("--json", action="store_true", help="print one JSON object a row instead of the table")
    args = parser.parse_args()
    levels = args.levels if args.no_random else [RANDOM, *args.levels]
    if not args.json:
        print(f"{args.games} seeded games per row (seeds {args.seed}-{args.seed + args.games - 1}); "
              "every seat the same level")
        print(f"{'p':>2} {'edition':<8}{'variant':<9}{'level':<14}{'on 1':>5}  {'seats':<17}{'by 2':>5}"
              f"{'ends at':>8}  {'histogram (1-8)':<30}endings")
    for players in args.players:
        for edition, variant in tables(args.editions):
            for level in levels:
                row = shape(players, edition, variant, level, args.games, args.seed)
                if args.json:
                    print(json.dumps(asdict(row)))
                    continue
                seats = " ".join(f"{s:.0%}" for s in row.seat_shares)
                endings = ", ".join(f"{name} {share:.0%}" for name, share in row.endings.items())
                print(f"{players:>2} {edition:<8}{variant:<9}{level:<14}{row.first_share:>5.0%}  {seats:<17}"
                      f"{row.over_by_two:>5.0%}{row.ended_at:>8.2f}  {' '.join(map(str, row.histogram)):<30}{endings}",
                      flush=True)


if __name__ == "__main__":
    main()
