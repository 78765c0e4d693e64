"""Request latency while the compute pool is busy: GET p50/p99 idle, then with bot games and analyses running.

Usage: python benchmarks/bench_web_compute.py [--bot-games 50] [--analyses 10] [--requests 400] [--seconds 20]
                                             [--json]

Starts `kingisdead serve` on 127.0.0.1 with a fresh SQLite file. First it
times ``--requests`` sequential `GET /api/games/{id}` of a game between people
on the idle server (the reference). Then it starts ``--bot-games`` games
between two `strong` bots (1 s of search a move) and asks for the analysis of
``--analyses`` finished games at once, and times the same GETs again while
they run (for ``--seconds``). Prints both sets of percentiles and their ratio, and how many bot
moves and analyses the pool finished meanwhile. Loopback only; every loop is bounded.
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


async def create(http: httpx.AsyncClient, seats: list[dict[str, Any]], seed: int) -> str:
    response = await http.post("/api/games", json={"players": len(seats), "seats": seats, "seed": seed})
    response.raise_for_status()
    return response.json()["id"]


async def timed_gets(http: httpx.AsyncClient, game_id: str, count: int, seconds: float = 0.0) -> list[float]:
    """Sequential GETs of the game: ``count`` of them, and more until ``seconds`` have passed."""
    times: list[float] = []
    until = time.perf_counter() + seconds
    while len(times) < count or time.perf_counter() < until:
        start = time.perf_counter()
        response = await http.get(f"/api/games/{game_id}")
        times.append(time.perf_counter() - start)
        response.raise_for_status()
    return times


def percentiles(times: list[float]) -> dict[str, float]:
    ordered = sorted(times)

    def pct(q: float) -> float:
        return round(1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))], 2)

    return {"p50": pct(0.50), "p99": pct(0.99), "max": round(1000 * ordered[-1], 2)}


async def moves_of(http: httpx.AsyncClient, ids: list[str]) -> int:
    return sum([(await http.get(f"/api/games/{g}")).json()["move_number"] for g in ids])


async def run(url: str, bot_games: int, analyses: int, requests: int, seconds: float) -> dict[str, Any]:
    limits = httpx.Limits(max_connections=analyses + 8)
    async with httpx.AsyncClient(base_url=url, timeout=600, limits=limits) as http:
        person = await create(http, [{"kind": "human"}, {"kind": "human"}], 1)
        finished = [await create(http, [{"kind": "bot", "bot": "random"}] * 2, 100 + i) for i in range(analyses)]
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            views = [(await http.get(f"/api/games/{g}")).json() for g in finished]
            if all(v["status"] == "finished" for v in views):
                break
            await asyncio.sleep(0.2)
        await timed_gets(http, person, 20)  # warm-up
        idle = await timed_gets(http, person, requests)

        bots = [await create(http, [{"kind": "bot", "bot": "strong"}] * 2, 1000 + i) for i in range(bot_games)]
        before = await moves_of(http, bots)
        asked = [asyncio.create_task(http.get(f"/api/games/{g}/analysis")) for g in finished]
        await asyncio.sleep(0.5)  # the analyses are submitted
        start = time.perf_counter()
        busy = await timed_gets(http, person, requests, seconds)
        elapsed = time.perf_counter() - start
        bot_moves = await moves_of(http, bots) - before
        analysed = [a for a in asked if a.done()]
        statuses = [(await a).status_code for a in asked]
    idle_p, busy_p = percentiles(idle), percentiles(busy)
    return {
        "machine": f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
                   f"{platform.python_implementation()} {platform.python_version()}",
        "requests": {"idle": len(idle), "busy": len(busy)}, "bot_games": bot_games, "analyses": analyses,
        "idle_ms": idle_p, "busy_ms": busy_p,
        "ratio": {k: round(busy_p[k] / idle_p[k], 2) for k in ("p50", "p99")},
        "busy_seconds": round(elapsed, 2), "bot_moves_meanwhile": bot_moves,
        "analyses_done_meanwhile": len(analysed), "analysis_statuses": sorted(statuses),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bot-games", type=int, default=50, help="games between two strong bots during the probe")
    parser.add_argument("--analyses", type=int, default=10, help="finished games analysed during the probe")
    parser.add_argument("--requests", type=int, default=400, help="GETs timed on the idle server (and at least as "
                                                                  "many on the busy one)")
    parser.add_argument("--seconds", type=float, default=20, help="keep timing GETs on the busy server this long")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        process, url = start_server(Path(tmp) / "bench.sqlite3", {
            "KINGISDEAD_LIMIT_CREATE": "100000/minute",  # one address creates every game
            "KINGISDEAD_COMPUTE_PER_CLIENT": str(args.analyses + 1)})  # and asks for every analysis
        try:
            report = asyncio.run(run(url, args.bot_games, args.analyses, args.requests, args.seconds))
        finally:
            process.terminate()
            process.wait(30)
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print(f"machine: {report['machine']}")
        print(f"GET /api/games/{{id}}, sequential: {report['requests']['idle']} idle, "
              f"{report['requests']['busy']} busy")
        print(f"idle server:  p50 {report['idle_ms']['p50']} ms  p99 {report['idle_ms']['p99']} ms  "
              f"max {report['idle_ms']['max']} ms")
        print(f"busy server:  p50 {report['busy_ms']['p50']} ms  p99 {report['busy_ms']['p99']} ms  "
              f"max {report['busy_ms']['max']} ms  ({report['bot_games']} strong-bot games, "
              f"{report['analyses']} analyses)")
        print(f"ratio busy/idle: p50 {report['ratio']['p50']}  p99 {report['ratio']['p99']}")
        print(f"meanwhile: {report['bot_moves_meanwhile']} bot moves in {report['busy_seconds']} s, "
              f"{report['analyses_done_meanwhile']} analyses done; analysis statuses {report['analysis_statuses']}")
    return 0 if report["busy_ms"]["p99"] < 50 else 1


if __name__ == "__main__":
    sys.exit(main())
