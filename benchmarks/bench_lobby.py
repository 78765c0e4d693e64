"""What the lobby's listing costs: in the process (built as before, built now, kept), then over HTTP under load.

Usage: python benchmarks/bench_lobby.py [--games 200] [--calls 200] [--bot-games 50] [--lobbies 20]
                                        [--seconds 20] [--json]

1. In this process, on a fresh SQLite file with ``--games`` games (half with a
   public seat): the time of one listing (the 50 newest) built as before this
   change (the seats of each game fetched by a query of their own: the
   reference), built now (every listed game's seats in one query), and served
   from the kept listing (web/lobby.py); each with its ratio to the reference.
2. Over HTTP, a real `kingisdead serve` with the same games: ``--lobbies``
   clients each asking for `GET /api/games` every 0.25 s (twenty times the
   lobby page's pace), timed for ``--seconds`` on the idle server (the
   reference), then again while ``--bot-games`` games between two `strong` bots
   run (1 s of search a move). Prints p50/p99 and the busy/idle ratio.
Loopback only; every loop is bounded.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from webserver import start_server

from kingisdead.web.db import GameRow
from kingisdead.web.service import GameService


def make_games(service: GameService, games: int) -> None:
    for n in range(games):
        service.create(2, "standard", [{"kind": "human"}, {"kind": "human", "public": n % 2 == 0}], seed=n)


def listing_as_before(service: GameService, status: str | None) -> list[dict[str, Any]]:
    """The listing as it was built before: the 50 newest games, then each game's seats by a query of its own."""
    from sqlalchemy import select

    with service.sessions() as session:
        query = select(GameRow).order_by(GameRow.updated_at.desc()).limit(50)
        if status in ("running", "open"):
            query = query.where(GameRow.status == "running")
        summaries = [service._summary(row) for row in session.scalars(query).all()]
    return [s for s in summaries if s["open_seats"]] if status == "open" else summaries


def per_call(function: Any, calls: int) -> float:
    """Milliseconds per call, the best of three rounds of ``calls`` (the least disturbed by other jobs)."""
    function()
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        for _ in range(calls):
            function()
        best = min(best, (time.perf_counter() - start) / calls)
    return round(1000 * best, 3)


def in_process(games: int, calls: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        service = GameService(f"sqlite:///{tmp}/lobby.sqlite3")
        make_games(service, games)
        figures = {}
        for status in (None, "open"):
            reference = per_call(lambda: listing_as_before(service, status), calls)
            built = per_call(lambda: service._list_games(status, 50), calls)
            kept = per_call(lambda: service.list_games(status), calls)
            figures[status or "all"] = {"before_ms": reference, "built_ms": built, "kept_ms": kept,
                                        "built_ratio": round(built / reference, 3),
                                        "kept_ratio": round(kept / reference, 5)}
        service.close()
    return figures


def percentiles(times: list[float]) -> dict[str, float]:
    ordered = sorted(times)

    def pct(q: float) -> float:
        return round(1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))], 2)

    return {"p50": pct(0.50), "p99": pct(0.99), "max": round(1000 * ordered[-1], 2), "count": len(ordered)}


async def lobbies(http: httpx.AsyncClient, clients: int, seconds: float) -> list[float]:
    """``clients`` pollers of GET /api/games every 0.25 s for ``seconds``: each request's time."""
    times: list[float] = []
    until = time.perf_counter() + seconds

    async def poll(offset: float) -> None:
        await asyncio.sleep(offset)
        while time.perf_counter() < until:
            start = time.perf_counter()
            response = await http.get("/api/games")
            times.append(time.perf_counter() - start)
            response.raise_for_status()
            await asyncio.sleep(max(0.0, 0.25 - (time.perf_counter() - start)))

    await asyncio.gather(*(poll(0.25 * n / clients) for n in range(clients)))
    return times


async def over_http(url: str, games: int, bot_games: int, clients: int, seconds: float) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=url, timeout=600, limits=httpx.Limits(max_connections=clients + 4)) as http:
        for n in range(games):
            seats = [{"kind": "human"}, {"kind": "human", "public": n % 2 == 0}]
            (await http.post("/api/games", json={"players": 2, "seats": seats, "seed": n})).raise_for_status()
        idle = await lobbies(http, clients, seconds)
        bots = []
        for n in range(bot_games):
            response = await http.post("/api/games", json={"players": 2, "seed": 1000 + n,
                                                           "seats": [{"kind": "bot", "bot": "strong"}] * 2})
            response.raise_for_status()
            bots.append(response.json()["id"])
        await asyncio.sleep(1.0)
        busy = await lobbies(http, clients, seconds)
        moves = sum([(await http.get(f"/api/games/{g}")).json()["move_number"] for g in bots])
    idle_p, busy_p = percentiles(idle), percentiles(busy)
    return {"idle_ms": idle_p, "busy_ms": busy_p, "bot_moves": moves,
            "ratio": {k: round(busy_p[k] / idle_p[k], 2) for k in ("p50", "p99")}}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games in the database (the listing shows 50)")
    parser.add_argument("--calls", type=int, default=200, help="listings timed per round in the process")
    parser.add_argument("--bot-games", type=int, default=50, help="strong-vs-strong games during the busy probe")
    parser.add_argument("--lobbies", type=int, default=20, help="clients polling the listing every 0.25 s")
    parser.add_argument("--seconds", type=float, default=20, help="length of each HTTP probe")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    report: dict[str, Any] = {
        "machine": f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
                   f"{platform.python_implementation()} {platform.python_version()}",
        "games": args.games, "in_process": in_process(args.games, args.calls)}
    if args.seconds > 0:
        with tempfile.TemporaryDirectory() as tmp:
            process, url = start_server(Path(tmp) / "bench.sqlite3", {"KINGISDEAD_LIMIT_CREATE": "100000/minute"})
            try:
                report["http"] = asyncio.run(over_http(url, args.games, args.bot_games, args.lobbies, args.seconds))
            finally:
                process.terminate()
                process.wait(30)
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    print(f"machine: {report['machine']}; {args.games} games, the 50 newest listed")
    for status, row in report["in_process"].items():
        print(f"listing {status:>4}: before {row['before_ms']} ms, built now {row['built_ms']} ms "
              f"(ratio {row['built_ratio']}), kept {row['kept_ms']} ms (ratio {row['kept_ratio']})")
    if "http" in report:
        http = report["http"]
        for name in ("idle", "busy"):
            p = http[f"{name}_ms"]
            print(f"GET /api/games, {name}: {p['count']} requests, p50 {p['p50']} ms, p99 {p['p99']} ms, "
                  f"max {p['max']} ms")
        print(f"ratio busy/idle: p50 {http['ratio']['p50']}, p99 {http['ratio']['p99']} "
              f"({args.bot_games} strong-bot games made {http['bot_moves']} moves meanwhile)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
