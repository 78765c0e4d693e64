"""Load check of the web server: many concurrent bot-vs-bot games through the real server on loopback.

Usage: python benchmarks/bench_web_load.py [--games 60] [--concurrency 30] [--bot-games 10] [--json]

Starts `kingisdead serve` on 127.0.0.1 with a fresh SQLite file (or uses --url).
Each client game seats people only (hot-seat, so the creator holds every token): the benchmark plays every seat with a
local random bot, sending each move over HTTP with its seat's token and move
number, while a spectator WebSocket follows the game. Server-side bot games
(--bot-games) are played by the server's own bot runner. At the end every game
is checked: its downloaded record must replay to exactly the moves that were
sent and to the same result, and each spectator must have seen the last move.
Prints moves per second and move latency percentiles; exits 1 if any game was
lost or corrupted. Sends traffic to loopback only; every loop is bounded.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path
from random import Random
from typing import Any

import httpx
from webserver import start_server
import websockets

from kingisdead import GameState
from kingisdead import playout
from kingisdead.moves import format_move
from kingisdead.record import GameRecord

MAX_MOVES = 400  # no game of The King Is Dead comes near this; a bound for the loop


class Tally:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.errors: list[str] = []
        self.lost: list[str] = []
        self.corrupted: list[str] = []


async def spectate(url: str, game_id: str, seen: dict[str, int], stop: asyncio.Event) -> None:
    """Follow a game as a spectator; remember the highest move number pushed to us."""
    ws_url = url.replace("http://", "ws://") + f"/api/games/{game_id}/ws"
    async with websockets.connect(ws_url, max_size=2**22) as socket_:
        while not stop.is_set():
            try:
                message = json.loads(await asyncio.wait_for(socket_.recv(), timeout=0.5))
            except TimeoutError:
                continue
            if message.get("type") == "state":
                seen[game_id] = max(seen.get(game_id, 0), message["game"]["move_number"])
                if message["game"]["status"] == "finished":
                    return


async def client_game(http: httpx.AsyncClient, url: str, players: int, seed: int, tally: Tally,
                      seen: dict[str, int], deadline: float) -> tuple[str, list[str], dict[str, Any]] | None:
    created = await http.post("/api/games", json={"players": players, "seed": seed, "hotseat": True,
                                                  "seats": [{"kind": "human"} for _ in range(players)]})
    created.raise_for_status()
    game = created.json()
    game_id, tokens = game["id"], [s["token"] for s in game["seats"]]
    stop = asyncio.Event()
    watcher = asyncio.create_task(spectate(url, game_id, seen, stop))
    state, rng, sent = GameState.new(players, "standard", seed), Random(seed), []
    while not state.is_over() and len(sent) < MAX_MOVES and time.monotonic() < deadline:
        move = playout.sample_move(state, rng)
        text = format_move(move)
        start = time.perf_counter()
        response = await http.post(f"/api/games/{game_id}/moves", json={"move": text, "move_number": len(sent)},
                                   headers={"Authorization": f"Bearer {tokens[state.player]}"})
        tally.latencies.append(time.perf_counter() - start)
        if response.status_code != 200:
            tally.errors.append(f"{game_id} move {len(sent) + 1}: {response.status_code} {response.text[:120]}")
            break
        state.apply(move)
        sent.append(text)
    try:
        await asyncio.wait_for(watcher, timeout=10)
    except (TimeoutError, OSError, websockets.WebSocketException):
        stop.set()  # the spectator check below reports what it missed
    return game_id, sent, state.result.to_dict() if state.result else {}


async def server_bot_game(http: httpx.AsyncClient, players: int, seed: int, deadline: float) -> str:
    created = await http.post("/api/games", json={"players": players, "seed": seed,
                                                  "seats": [{"kind": "bot", "bot": "random"}] * players})
    created.raise_for_status()
    game_id = created.json()["id"]
    while time.monotonic() < deadline:
        if (await http.get(f"/api/games/{game_id}")).json()["status"] == "finished":
            break
        await asyncio.sleep(0.2)
    return game_id


async def check_record(http: httpx.AsyncClient, game_id: str, sent: list[str] | None,
                       result: dict[str, Any] | None, tally: Tally) -> int:
    data = (await http.get(f"/api/games/{game_id}/record")).json()
    if data["result"] is None:  # a running game's record has no seed: count its moves only
        tally.lost.append(f"{game_id}: not finished on the server")
        return len(data["moves"])
    record = GameRecord.from_dict(data)
    try:
        replayed = record.replay()
    except ValueError as exc:
        tally.corrupted.append(f"{game_id}: {exc}")
        return len(record.moves)
    if sent is not None and (record.moves != sent or replayed.result.to_dict() != result):
        tally.corrupted.append(f"{game_id}: the stored moves or result differ from what was played")
    return len(record.moves)


async def run(url: str, games: int, concurrency: int, bot_games: int, players: int, limit: float) -> dict[str, Any]:
    tally, seen = Tally(), {}
    deadline = time.monotonic() + limit
    gate = asyncio.Semaphore(concurrency)
    limits = httpx.Limits(max_connections=concurrency + bot_games + 4)
    async with httpx.AsyncClient(base_url=url, timeout=60, limits=limits) as http:
        async def one(seed: int) -> tuple[str, list[str], dict[str, Any]] | None:
            async with gate:
                return await client_game(http, url, players, seed, tally, seen, deadline)

        start = time.perf_counter()
        bots = [asyncio.create_task(server_bot_game(http, players, 10_000 + i, deadline)) for i in range(bot_games)]
        played = await asyncio.gather(*(one(seed) for seed in range(games)))
        bot_ids = await asyncio.gather(*bots)
        elapsed = time.perf_counter() - start
        for game_id, sent, result in (p for p in played if p is not None):
            await check_record(http, game_id, sent, result, tally)
            if seen.get(game_id, 0) != len(sent):
                tally.lost.append(f"{game_id}: the spectator saw move {seen.get(game_id, 0)} of {len(sent)}")
        bot_moves = sum([await check_record(http, g, None, None, tally) for g in bot_ids])
    lat = sorted(tally.latencies)

    def pct(q: float) -> float:
        return 1000 * lat[min(len(lat) - 1, int(q * len(lat)))] if lat else float("nan")

    return {
        "machine": f"{platform.processor() or platform.machine()}, {platform.python_implementation()} "
                   f"{platform.python_version()}",
        "client_games": games, "concurrency": concurrency, "server_bot_games": bot_games, "players": players,
        "client_moves": len(lat), "server_bot_moves": bot_moves, "seconds": round(elapsed, 2),
        "client_moves_per_s": round(len(lat) / elapsed, 1),
        "all_moves_per_s": round((len(lat) + bot_moves) / elapsed, 1),
        "latency_ms": {"p50": round(pct(0.50), 1), "p90": round(pct(0.90), 1), "p99": round(pct(0.99), 1),
                       "max": round(1000 * lat[-1], 1) if lat else None,
                       "mean": round(1000 * statistics.fmean(lat), 1) if lat else None},
        "errors": tally.errors, "lost": tally.lost, "corrupted": tally.corrupted,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=60, help="client-played games (every seat a local bot)")
    parser.add_argument("--concurrency", type=int, default=30, help="client games in flight at once")
    parser.add_argument("--bot-games", type=int, default=10, help="games played by the server's own bots")
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    parser.add_argument("--limit", type=float, default=300, help="stop sending moves after this many seconds")
    parser.add_argument("--url", help="use a running server instead of starting one")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    process = None
    with tempfile.TemporaryDirectory() as tmp:
        url = args.url
        if url is None:
            process, url = start_server(Path(tmp) / "bench.sqlite3",
                                         {"KINGISDEAD_LIMIT_CREATE": "100000/minute"})  # one address creates every game
        try:
            report = asyncio.run(run(url, args.games, args.concurrency, args.bot_games, args.players, args.limit))
        finally:
            if process is not None:
                process.terminate()
                process.wait(10)
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        lat = report["latency_ms"]
        print(f"machine: {report['machine']}")
        print(f"{report['client_games']} client games ({report['concurrency']} at once) + "
              f"{report['server_bot_games']} server bot games, {report['players']} players, {report['seconds']} s")
        print(f"client moves: {report['client_moves']} -> {report['client_moves_per_s']} moves/s over HTTP; "
              f"with server bot moves: {report['all_moves_per_s']} moves/s")
        print(f"move latency ms: p50 {lat['p50']}  p90 {lat['p90']}  p99 {lat['p99']}  max {lat['max']}")
        print(f"errors: {len(report['errors'])}  lost games: {len(report['lost'])}  "
              f"corrupted games: {len(report['corrupted'])}")
        for line in report["errors"][:5] + report["lost"][:5] + report["corrupted"][:5]:
            print("  " + line)
    return 1 if report["lost"] or report["corrupted"] or report["errors"] else 0


if __name__ == "__main__":
    sys.exit(main())
