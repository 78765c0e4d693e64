"""Every game keeps moving: hostile watchers and database outages, against a real server process.

A watcher that floods and never reads, a database locked or stopped for a while: moves still answer,
bots keep playing (or play again once the database is back, without a restart), errors are JSON.
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import socket
import sqlite3
import struct
import threading
import time
import warnings
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
from websockets.sync.client import connect
from webtools import PostgresCluster, auth, bot, create, human, required_postgres_binaries, wait_for


def raw_socket(url: str, path: str, receive_buffer: int = 4096) -> socket.socket:
    """A WebSocket opened by hand with a tiny receive buffer, its handshake done; nothing reads it after that."""
    parts = urlsplit(url)
    raw = socket.socket()
    raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    raw.connect((parts.hostname, parts.port))
    key = base64.b64encode(os.urandom(16)).decode()
    raw.sendall((f"GET {path} HTTP/1.1\r\nHost: {parts.netloc}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                 f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    answer = b""
    while b"\r\n\r\n" not in answer:
        answer += raw.recv(1)  # byte by byte: not a byte of the first frame is taken with the headers
    assert answer.startswith(b"HTTP/1.1 101"), answer
    return raw


def frame(payload: bytes, opcode: int = 0x1) -> bytes:
    """One masked client frame (payload under 126 bytes)."""
    mask = os.urandom(4)
    return bytes([0x80 | opcode, 0x80 | len(payload)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


class Flood(threading.Thread):
    """Sends ``count`` move frames on a raw socket as fast as the server takes them; never reads."""

    def __init__(self, raw: socket.socket, count: int = 40_000) -> None:
        super().__init__(daemon=True)
        self.raw, self.count, self.sent, self.stalled = raw, count, 0, threading.Event()
        self.payload = frame(b'{"type":"move","move":"pass"}')

    def run(self) -> None:
        self.raw.settimeout(3)
        try:
            for _ in range(self.count):
                self.raw.sendall(self.payload)
                self.sent += 1
        except OSError:  # the server stopped taking frames (timeout) or cut the connection
            pass
        self.stalled.set()


def moves_of(client: httpx.Client, game_id: str) -> int:
    return int(client.get(f"/api/games/{game_id}").json()["move_number"])


def test_a_watcher_that_floods_and_never_reads_delays_no_move(server_factory: Any) -> None:
    server = server_factory(bot_delay=0.2)
    with httpx.Client(base_url=server.url, timeout=60) as client:
        seated = create(client, [human(), bot("random")], seed=3)
        bots = create(client, [bot("random"), bot("random")], seed=4)
        floods = [Flood(raw_socket(server.url, f"/api/games/{g['id']}/ws")) for g in (seated, bots)]
        for flood in floods:
            flood.start()
        for flood in floods:  # every frame sent, or the server has stopped reading this socket
            assert flood.stalled.wait(120)
        started = moves_of(client, bots["id"])
        with connect(server.url.replace("http", "ws") + f"/api/games/{seated['id']}/ws", open_timeout=60) as watcher:
            assert json.loads(watcher.recv(60))["type"] == "state"  # a well-behaved watcher of the same game
            answer = client.post(f"/api/games/{seated['id']}/moves", json={"move": "pass", "move_number": 0},
                                 headers=auth(seated["seats"][0]["token"]))
            assert answer.status_code == 200, answer.text
            while json.loads(watcher.recv(60))["game"]["move_number"] < 1:
                pass  # it is told of the move too (recv fails after 60 s without a message)
        wait_for(lambda: moves_of(client, bots["id"]) >= started + 3
                 or client.get(f"/api/games/{bots['id']}").json()["status"] == "finished", 90,
                 "the bot game to move on")
        fresh = client.get(f"/api/games/{seated['id']}")  # another reader of the same game is served too
        assert fresh.status_code == 200
        for flood in floods:
            flood.raw.close()


def read_frames(raw: socket.socket, timeout: float = 30) -> list[tuple[int, bytes]]:
    """Every (opcode, payload) the server sends (unmasked, any length) until it closes or ``timeout`` passes."""
    raw.settimeout(timeout)
    data, frames = b"", []

    def take(n: int) -> bytes:
        nonlocal data
        while len(data) < n:
            chunk = raw.recv(65536)
            if not chunk:
                raise EOFError
            data += chunk
        taken, data = data[:n], data[n:]
        return taken

    try:
        while True:
            head = take(2)
            size = head[1] & 0x7F
            if size == 126:
                size = struct.unpack(">H", take(2))[0]
            elif size == 127:
                size = struct.unpack(">Q", take(8))[0]
            frames.append((head[0] & 0x0F, take(size)))
            if frames[-1][0] == 0x8:
                return frames
    except (EOFError, OSError):
        return frames


def test_a_frame_that_is_not_utf8_is_closed_cleanly_with_one_log_line(server_factory: Any) -> None:
    server = server_factory()
    with httpx.Client(base_url=server.url, timeout=60) as client:
        game = create(client, [human(), human()], seed=5)
    raw = raw_socket(server.url, f"/api/games/{game['id']}/ws")
    raw.sendall(frame(b'{"type": "ping", "x": "\xff\xfe"}'))
    frames = read_frames(raw)
    raw.close()
    assert frames[-1][0] == 0x8 and struct.unpack(">H", frames[-1][1][:2])[0] == 1007, frames[-1:]
    process = server.process
    assert process is not None and process.stderr is not None
    server.stop()
    log = process.stderr.read().decode()
    assert "Traceback" not in log, log
    assert len([line for line in log.splitlines() if "UTF-8" in line]) == 1, log


def unavailable(answer: httpx.Response) -> None:
    """A 503 ``database_unavailable`` as documented: JSON, ``Retry-After``, the detail in French (asked for)."""
    assert answer.status_code == 503, answer.text
    assert answer.headers["content-type"].startswith("application/json") and "retry-after" in answer.headers
    body = answer.json()
    assert body["error"] == "database_unavailable", body
    assert "base de données" in body["detail"], body


def log_of(server: Any) -> str:
    """The server's log (stderr) once it has stopped."""
    process = server.process
    assert process is not None and process.stderr is not None
    server.stop()
    return process.stderr.read().decode()


def test_bots_move_again_after_sqlite_was_locked_without_a_restart(server_factory: Any, tmp_path: Any) -> None:
    path = tmp_path / "locked.sqlite3"
    server = server_factory(bot_delay=0.3, database=f"sqlite:///{path}?timeout=2")  # a writer waits 2 s for the lock
    with httpx.Client(base_url=server.url, timeout=120) as client:
        game = create(client, [bot("random"), bot("random")], seed=6)
        wait_for(lambda: moves_of(client, game["id"]) >= 2, 60, "the bots to start")
        lock = sqlite3.connect(path, timeout=60, isolation_level=None)
        lock.execute("BEGIN EXCLUSIVE")  # no other writer until it ends; the server waits 2 s, then fails
        answers: list[httpx.Response] = []
        creating = threading.Thread(target=lambda: answers.append(client.post(
            "/api/games", json={"players": 2, "seats": [bot(), bot()]}, headers={"Accept-Language": "fr"})))
        creating.start()
        creating.join(90)
        time.sleep(1)  # the bots' next write has failed too by now (it started waiting before the request)
        lock.execute("ROLLBACK")
        lock.close()
        released = moves_of(client, game["id"])
        wait_for(lambda: moves_of(client, game["id"]) > released, 90, "the bots to move again")
    unavailable(answers[0])
    log = log_of(server)
    assert log.count("bots: database unavailable") == 1 and log.count("bots: database back") == 1, log
    assert "Traceback" not in log, log


@pytest.fixture
def own_postgres() -> Iterator[PostgresCluster]:
    """A PostgreSQL server for one test alone, to stop and start again."""
    cluster = PostgresCluster(required_postgres_binaries()).start()
    yield cluster
    cluster.remove()


def test_bots_move_again_after_postgresql_was_stopped_without_a_restart(server_factory: Any,
                                                                          own_postgres: PostgresCluster) -> None:
    import psycopg

    with psycopg.connect(f"{own_postgres.url}/postgres", autocommit=True) as connection:
        connection.execute("CREATE DATABASE games")
    server = server_factory(bot_delay=0.3, database=f"{own_postgres.url}/games")
    with httpx.Client(base_url=server.url, timeout=120) as client:
        game = create(client, [bot("random"), bot("random")], seed=7)
        wait_for(lambda: moves_of(client, game["id"]) >= 2, 60, "the bots to start")
        own_postgres.stop()
        unavailable(client.get("/api/games", headers={"Accept-Language": "fr"}))
        time.sleep(1.5)  # the bots' next write fails meanwhile (they move every 0.3 s)
        own_postgres.start()
        restarted = moves_of(client, game["id"])
        wait_for(lambda: moves_of(client, game["id"]) > restarted, 90, "the bots to move again")
        assert client.get("/api/games").status_code == 200
    log = log_of(server)
    assert log.count("bots: database unavailable") == 1 and log.count("bots: database back") == 1, log
    assert log.count("move listener: database unavailable") == 1, log
    assert log.count("move clocks: database unavailable") == 1, log
    assert "Traceback" not in log, log


class StuckSocket:
    """A socket that takes no message: every send waits for ever; it records how it was closed."""

    def __init__(self) -> None:
        self.scope: dict[str, Any] = {}
        self.closed: tuple[int, str] | None = None

    async def send_json(self, _message: Any) -> None:
        await asyncio.Event().wait()

    async def receive(self) -> dict[str, Any]:
        await asyncio.Event().wait()
        raise AssertionError("unreachable")

    async def close(self, code: int, reason: str) -> None:
        self.closed = (code, reason)


class ViewsOnly:
    """The little of GameService that the Hub uses: a cached game and its view."""

    def cached(self, _game_id: str) -> object:
        return object()

    def view(self, _game: object, seat: int | None) -> dict[str, Any]:
        return {"you": seat}


def test_a_socket_that_takes_nothing_is_dropped_and_no_broadcast_waits_for_it() -> None:
    from kingisdead.web.live import QUEUE, TOO_SLOW, Hub

    async def scenario() -> StuckSocket:
        hub = Hub(ViewsOnly())  # type: ignore[arg-type]
        stuck = StuckSocket()
        serving = asyncio.create_task(hub.serve("g", stuck, None, lambda _text: asyncio.sleep(0)))  # type: ignore
        await asyncio.sleep(0.1)  # its first view is being sent, for ever
        for number in range(QUEUE + 1):
            await asyncio.wait_for(hub.broadcast("g"), 5)  # each returns at once: nothing awaits the socket
            await asyncio.wait_for(hub.announce("g", {"type": "note", "number": number}), 5)
        await asyncio.wait_for(serving, 30)  # the socket was dropped: serving it ended
        assert hub.watching("g") == 0
        return stuck

    stuck = asyncio.run(scenario())
    assert stuck.closed is not None and stuck.closed[0] == TOO_SLOW and "too slow" in stuck.closed[1]


def test_a_socket_over_its_message_rate_is_answered_rate_limited(monkeypatch: Any, tmp_path: Any) -> None:
    with warnings.catch_warnings():  # Starlette asks for httpx2, which FastAPI's pinned stack does not need yet
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient

    from kingisdead.web import create_app, live

    monkeypatch.setattr(live, "INBOUND", "3/minute")
    with TestClient(create_app(f"sqlite:///{tmp_path / 'rate.sqlite3'}")) as client:
        game = create(client, [human(), human()], seed=8)
        with client.websocket_connect(f"/api/games/{game['id']}/ws?lang=de") as ws:
            assert ws.receive_json()["type"] == "state"
            for _ in range(4):
                ws.send_json({"type": "ping"})
            replies = [ws.receive_json() for _ in range(4)]
    assert replies[:3] == [{"type": "pong"}] * 3
    assert replies[3]["type"] == "error" and replies[3]["error"] == "rate_limited", replies[3]
    assert replies[3]["retry_after"] >= 1 and "Nachrichten" in replies[3]["detail"]


def test_a_signed_in_browser_gets_json_503_while_the_database_is_out_of_reach(browsers: Any, monkeypatch: Any,
                                                                             tmp_path: Any) -> None:
    from sqlalchemy.exc import OperationalError

    from kingisdead.web import create_app
    from kingisdead.web.routes import deps, languages

    client = browsers(create_app(f"sqlite:///{tmp_path / 'down.sqlite3'}"))
    assert client.post("/api/account/sign-up", json={"name": "Morgan", "password": "correct horse"}).status_code == 201
    game = create(client, [human(), bot()], seed=9, claim=False)

    def down(*_args: Any) -> None:
        raise OperationalError("SELECT users", {}, sqlite3.OperationalError("database is locked"))

    monkeypatch.setattr(languages, "user_for_secret", down)  # the account's language, looked up for every request
    monkeypatch.setattr(deps, "user_for_secret", down)
    unavailable(client.get(f"/api/games/{game['id']}", headers={"Accept-Language": "fr"}))


def test_a_socket_that_takes_one_message_too_long_is_dropped(monkeypatch: Any) -> None:
    from kingisdead.web import live

    monkeypatch.setattr(live, "SEND_TIMEOUT", 0.2)

    async def scenario() -> StuckSocket:
        hub = live.Hub(ViewsOnly())  # type: ignore[arg-type]
        stuck = StuckSocket()
        await asyncio.wait_for(hub.serve("g", stuck, 1, lambda _text: asyncio.sleep(0)), 30)  # type: ignore
        assert hub.watching("g") == 0
        return stuck

    stuck = asyncio.run(scenario())  # its first view never leaves: dropped, and serving it ended
    assert stuck.closed is not None and stuck.closed[0] == live.TOO_SLOW and "waited" in stuck.closed[1]


def test_a_socket_message_that_finds_the_database_away_gets_database_unavailable(client: Any, monkeypatch: Any) -> None:
    from sqlalchemy.exc import OperationalError

    game = create(client, [human(), bot()], seed=10)
    service = client.app.state.service

    def down(*_args: Any) -> None:
        raise OperationalError("INSERT INTO moves", {}, sqlite3.OperationalError("database or disk is full"))

    with client.websocket_connect(f"/api/games/{game['id']}/ws?lang=fr") as ws:
        assert ws.receive_json()["type"] == "state"
        ws.send_json({"type": "auth", "token": game["seats"][0]["token"]})
        assert ws.receive_json()["type"] == "state"
        monkeypatch.setattr(service, "play", down)
        ws.send_json({"type": "move", "move": "pass", "move_number": 0})
        reply = ws.receive_json()
        assert reply["type"] == "error" and reply["error"] == "database_unavailable", reply
        assert reply["retry_after"] > 0 and "base de données" in reply["detail"]
        monkeypatch.undo()
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong"}  # the socket stays open
