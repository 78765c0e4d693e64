"""What pairing a tournament round costs: 1,000 players at 2, 3 and 4 per table, after 0 to 11 rounds.

Usage: python benchmarks/bench_pairing.py [--players 1000] [--rounds 12] [--sizes 2 3 4] [--repeat 3] [--seed 1]
                                        [--parts pairing queries]

The pairing part: for each table size, a simulated Swiss tournament of ``--players`` entrants (ratings drawn
around 1500) is paired round after round by :func:`kingisdead.web.pairing.pair_round`, and every game's result
drawn from the ratings (as Elo expects; 2/1/0 points, a bye worth 2). Each round's pairing is timed (the
best of ``--repeat`` runs, the same input each time) and printed as it is measured: milliseconds, the ratio to
the same size's round-1 pairing in the same run, and how many pairs at the tables met before. In process, no
database; every loop is bounded.

The queries part: one tournament of ``--players`` entrants (2 a table) taken through the service
(web/tournaments.py) on a fresh SQLite file: its start, round 1's pairing, the round's games made, their results
counted, the round closed and round 2 paired. Each step is timed once and its SQL statements counted (a
SQLAlchemy ``before_cursor_execute`` listener on the service's engine). The accounts, their ratings and the
entries are inserted beforehand, and the games' ends are written straight into the database (every game won by
seat 0): playing 500 games is not what is measured. Announcements are composed as on a site that sends e-mail
(no entrant has an address here, so none is queued).
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time
import tempfile
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import event, update

from kingisdead.web import tournaments
from kingisdead.web.db import GameRow, RatingRow, TournamentEntryRow, TournamentRow, UserRow
from kingisdead.web.mail import MailSettings
from kingisdead.web.notify import Notifier, NotifySettings
from kingisdead.web.pairing import Entrant, Pairing, pair_round
from kingisdead.web.service import GameService

WIN, SHARED, LOSS = 2, 1, 0
"""The tournament's default points."""


def play_round(entrants: dict[int, Entrant], pairing: Pairing, size: int, rng: random.Random) -> dict[int, Entrant]:
    """The entrants after the round's games: one in ten shared, else a side wins with a chance in proportion to
    10 ** (rating / 400) (a team's: its mean rating), as Elo expects."""
    after = dict(entrants)
    gained: dict[int, int] = {}
    for table in pairing.tables:
        ratings = [entrants[i].rating for i in table]
        if size == 4:  # seats 0 and 2 against seats 1 and 3
            sides = [(table[0], table[2]), (table[1], table[3])]
            strength = [(ratings[0] + ratings[2]) / 2, (ratings[1] + ratings[3]) / 2]
        else:
            sides = [(i,) for i in table]
            strength = ratings
        if rng.random() < 0.1:
            for i in table:
                gained[i] = SHARED
            continue
        weights = [10.0 ** (s / 400.0) for s in strength]
        side = rng.choices(range(len(sides)), weights=weights)[0]
        winners = set(sides[side])
        for i in table:
            gained[i] = WIN if i in winners else LOSS
    for table in pairing.tables:
        for i in table:
            entrant = after[i]
            after[i] = Entrant(id=i, rating=entrant.rating, points=entrant.points + gained[i],
                               opponents=entrant.opponents | frozenset(j for j in table if j != i), byes=entrant.byes)
    for i in pairing.byes:
        entrant = after[i]
        after[i] = Entrant(id=i, rating=entrant.rating, points=entrant.points + WIN, opponents=entrant.opponents,
                           byes=entrant.byes + 1)
    return after


def repeats(pairing: Pairing, entrants: dict[int, Entrant]) -> int:
    """Pairs of players at one table who met in an earlier round."""
    return sum(1 for table in pairing.tables for n, a in enumerate(table) for b in table[n + 1:]
               if b in entrants[a].opponents)


def timed_pairing(field: Sequence[Entrant], size: int, round_: int, repeat: int) -> tuple[float, Pairing]:
    """The best of ``repeat`` pairings of ``field`` (seconds) and the pairing."""
    best = float("inf")
    pairing = None
    for _ in range(repeat):
        start = time.perf_counter()
        pairing = pair_round(field, size, random.Random(f"bench:{round_}"))
        best = min(best, time.perf_counter() - start)
    assert pairing is not None
    return best, pairing


def pairing_part(players: int, rounds: int, sizes: Sequence[int], repeat: int, seed: int) -> dict[int, list[float]]:
    """Pair and play ``rounds`` rounds at each table size, printing each round as it is timed.

    Returns, per size, each round's pairing time in milliseconds.
    """
    print(f"## Pairing: {players} players, rounds 1..{rounds} (after 0..{rounds - 1} rounds played), "
          f"best of {repeat}")
    figures: dict[int, list[float]] = {}
    for size in sizes:
        rng = random.Random(seed)
        entrants = {i: Entrant(id=i, rating=round(rng.gauss(1500, 250)), points=0, opponents=frozenset(), byes=0)
                    for i in range(players)}
        print(f"\n{size} per table\n| round | ms | ratio to round 1 | repeated pairs | byes |")
        figures[size] = []
        for round_ in range(1, rounds + 1):
            seconds, pairing = timed_pairing(list(entrants.values()), size, round_, repeat)
            figures[size].append(seconds * 1000)
            print(f"| {round_} | {seconds * 1000:.1f} | {seconds * 1000 / figures[size][0]:.2f}x "
                  f"| {repeats(pairing, entrants)} | {len(pairing.byes)} |", flush=True)
            entrants = play_round(entrants, pairing, size, rng)
        print(f"worst: {max(figures[size]):.1f} ms (round {figures[size].index(max(figures[size])) + 1})",
              flush=True)
    return figures


def queries_part(players: int, seed: int) -> list[tuple[str, float, int]]:
    """Take a ``players``-entrant, 2-a-table tournament through its first round and round 2's pairing on a fresh
    SQLite file, printing each step as it is measured: (step, milliseconds, SQL statements)."""
    print(f"\n## Queries: one {players}-player round through the service, SQLite")
    rng = random.Random(seed)
    figures: list[tuple[str, float, int]] = []
    with tempfile.TemporaryDirectory() as folder:
        service = GameService(f"sqlite:///{folder}/bench.sqlite3")
        notifier = Notifier(service.engine, NotifySettings(mail=MailSettings(host="127.0.0.1", port=9)),
                            "https://kid.example")
        statements = [0]

        def counted(*_args: Any) -> None:
            statements[0] += 1

        event.listen(service.engine, "before_cursor_execute", counted)
        now = datetime.now(UTC)
        with service.sessions.begin() as session:
            users = [UserRow(name=f"Player {i}", name_key=f"player {i}") for i in range(players)]
            session.add_all(users)
            session.flush()
            session.add_all(RatingRow(user_id=u.id, players=2, edition="first", mu=rng.gauss(25, 3), sigma=2.0,
                                      games=10) for u in users)
            tournament = TournamentRow(
                creator_id=users[0].id, name="Benchmark", edition="first", variant="standard", mode="standard",
                players=2, time_limit=86400, rounds=3, points=dict(tournaments.POINTS),
                starts_at=now - timedelta(seconds=1), entry_limit=players, rating_floor=None, rated=False,
                round_days=14, stand_in="random", seed=seed, status="open", round=0, created_at=now)
            session.add(tournament)
            session.flush()
            session.add_all(TournamentEntryRow(tournament_id=tournament.id, user_id=u.id, entered_at=now, rating=0.0)
                            for u in users)
            tournament_id = tournament.id

        def measured(step: str, call: Callable[[], Any]) -> None:
            statements[0] = 0
            start = time.perf_counter()
            call()
            seconds = time.perf_counter() - start
            figures.append((step, seconds * 1000, statements[0]))
            print(f"| {step} | {seconds * 1000:.0f} | {statements[0]} |", flush=True)

        print("| step | ms | SQL statements |")
        measured("start (ratings read)", lambda: tournaments.start_due(service, notifier, now))
        measured("pair round 1", lambda: tournaments.pair(service, notifier, tournament_id, 1, now))
        measured(f"make its {players // 2} games", lambda: tournaments.make_games(service, tournament_id))
        with service.engine.begin() as connection:  # every game ends, won by seat 0 (not measured)
            connection.execute(update(GameRow).values(status="finished", result={"winners": [0]}, to_move=None,
                                                      deadline=None))
        measured("count the results", lambda: tournaments.count_results(service, now, tournament_id))
        measured("close the round", lambda: tournaments.close_rounds(service, now))
        measured("pair round 2", lambda: tournaments.pair(service, notifier, tournament_id, 2, now))
        service.close()
    return figures


def main() -> None:
    """Run the benchmark's parts in order, each printing as it goes."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000, help="entrants in the tournament")
    parser.add_argument("--rounds", type=int, default=12, help="rounds paired (the last after rounds - 1 played)")
    parser.add_argument("--sizes", type=int, nargs="+", default=[2, 3, 4], choices=[2, 3, 4],
                        help="players per table")
    parser.add_argument("--repeat", type=int, default=3, help="pairings timed per round (the best is kept)")
    parser.add_argument("--seed", type=int, default=1, help="the simulated tournament's seed")
    parser.add_argument("--parts", nargs="+", default=["pairing", "queries"], choices=["pairing", "queries"],
                        help="the parts to run, in this order")
    args = parser.parse_args()
    print(f"Python {platform.python_version()} on {platform.machine()}, {sys.platform}")
    if "pairing" in args.parts:
        pairing_part(args.players, args.rounds, args.sizes, args.repeat, args.seed)
    if "queries" in args.parts:
        queries_part(args.players, args.seed)


if __name__ == "__main__":
    main()
