"""Move time limits: what the server's deadline check and a take-back cost.

Run: .venv/bin/python benchmarks/bench_deadlines.py [--games 2000] [--due 200] [--looks 50]

One process, a fresh SQLite file. Prints:
- one look for due deadlines (``clocks.expire_due``, run every second by each
  server process) among ``--games`` running games with a time limit and none
  due, beside a reference in the same process: the lobby's list of running
  games (``GameService.list_games``), a query every lobby page makes;
- handling ``--due`` expired deadlines in one look (per expiry: the game loaded
  if need be, one conditional UPDATE, the seat marked away);
- a take-back of two moves at move 30 (the rewound position replayed from the
  start, two rows deleted) beside storing one move (``GameService.play``).
"""

from __future__ import annotations

import argparse
import platform
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from random import Random

from sqlalchemy import update

from kingisdead.moves import format_move
from kingisdead.web import clocks
from kingisdead.web.db import GameRow
from kingisdead.web.service import GameService

HUMAN = {"kind": "human"}


def timed(call, repeat: int) -> float:
    """Mean seconds of ``call()`` over ``repeat`` runs."""
    start = time.perf_counter()
    for _ in range(repeat):
        call()
    return (time.perf_counter() - start) / repeat


def take_back_game(service: GameService) -> tuple[str, int]:
    """A person-against-bot game played at random to move 20 or later, where the last two moves (the person's,
    then the bot's) resolved no struggle, so that they can be taken back: (its id, its moves)."""
    for seed in range(100):
        rng = Random(seed)
        game, _ = service.create(2, "standard", [HUMAN, {"kind": "bot", "bot": "random"}], seed=seed)
        for number in range(60):
            state = service.get(game.id).snapshot.state
            if state.is_over():
                break
            log = service.get(game.id).snapshot.log
            if number >= 20 and log[-2]["seat"] == 0 and not log[-2]["resolved"] and not log[-1]["resolved"]:
                return game.id, number
            service.play(game.id, state.player, format_move(rng.choice(state.legal_moves())), number)
    raise RuntimeError("no game reached a position to take back")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="running games with a time limit")
    parser.add_argument("--due", type=int, default=200, help="deadlines passed at once")
    parser.add_argument("--looks", type=int, default=50, help="looks timed (and lobby lists as reference)")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as folder:
        service = GameService(f"sqlite:///{Path(folder) / 'bench.sqlite3'}")
        ids = [service.create(2, "standard", [HUMAN, HUMAN], seed=i, time_limit=600)[0].id
               for i in range(args.games)]
        now = datetime.now(UTC)
        look = timed(lambda: clocks.expire_due(service, now), args.looks)
        lobby = timed(lambda: service.list_games("running"), args.looks)

        due = ids[:args.due]
        with service.engine.begin() as connection:
            connection.execute(update(GameRow).where(GameRow.id.in_(due)).values(deadline=now - timedelta(seconds=1)))
        for game_id in due:
            service.forget(game_id)  # as after a restart: each expiry loads its game
        start = time.perf_counter()
        handled = clocks.expire_due(service, now)
        expiries = time.perf_counter() - start
        assert len(handled) == len(due)

        game_id, moves = take_back_game(service)
        # the take-back undoes the person's move and the bot's reply; the reference stores one move
        seat = service.get(game_id).snapshot.log[-2]["seat"]
        rounds = 20
        back_total = play_total = 0.0
        for _ in range(rounds):
            snap = service.get(game_id).snapshot
            replies = snap.moves[len(snap.moves) - 2:]
            start = time.perf_counter()
            clocks.take_back(service, game_id, seat)
            back_total += time.perf_counter() - start
            start = time.perf_counter()
            service.play(game_id, seat, replies[0], len(snap.moves) - 2)
            play_total += time.perf_counter() - start
            service.play(game_id, 1 - seat, replies[1], len(snap.moves) - 1)
        service.close()

    print(f"{platform.python_implementation()} {platform.python_version()}, SQLite, one process")
    print(f"one look for due deadlines among {args.games} timed games: {look * 1000:.2f} ms "
          f"(lobby list of running games: {lobby * 1000:.2f} ms; ratio {look / lobby:.2f}x)")
    print(f"{args.due} expired deadlines handled in one look: {expiries:.2f} s "
          f"({expiries / args.due * 1000:.1f} ms each, games loaded from the database)")
    print(f"take-back of 2 moves at move {moves}: {back_total / rounds * 1000:.2f} ms "
          f"(storing one move: {play_total / rounds * 1000:.2f} ms; ratio {back_total / play_total:.1f}x)")


if __name__ == "__main__":
    main()
