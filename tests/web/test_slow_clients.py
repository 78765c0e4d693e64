"""A real `kingisdead serve` against clients that hold connections open: slow heads and bodies are cut,
oversized heads refused, connections per address bounded (src/kingisdead/web/server.py)."""

from __future__ import annotations

import json
import socket
import time

import httpx
import pytest
from webtools import Server, create, fresh_sqlite, human, wait_for

TIMEOUT = 1.0  # the server's --request-timeout in these tests
PER_ADDRESS = 8


@pytest.fixture(scope="module")
def server(tmp_path_factory, migrated_sqlite):
    running = Server(fresh_sqlite(migrated_sqlite, tmp_path_factory.mktemp("slow") / "games.sqlite3"),
                     args=("--request-timeout", str(TIMEOUT),
                           "--max-connections-per-address", str(PER_ADDRESS))).start()
    yield running
    running.stop()


def connect(server: Server, source: str = "127.0.0.1") -> socket.socket:
    conn = socket.create_connection(("127.0.0.1", server.port), timeout=30, source_address=(source, 0))
    return conn


def trickle(conn: socket.socket, data: bytes, pause: float = 0.2, give_up: float = 60.0) -> bytes:
    """Send ``data`` a byte every ``pause`` s until the server answers or closes: what it sent back
    (b"" when it closed without a word). Fails if the server still listens after ``give_up`` seconds."""
    deadline = time.monotonic() + give_up
    conn.settimeout(pause)
    for byte in data:
        try:
            conn.sendall(bytes([byte]))
        except (BrokenPipeError, ConnectionResetError):
            return b""
        try:
            return conn.recv(4096)
        except TimeoutError:
            pass
        except ConnectionResetError:
            return b""
        if time.monotonic() > deadline:
            break
    raise AssertionError("the server still waits for a request trickling in")


def test_a_head_sent_a_byte_at_a_time_is_cut(server):
    head = b"GET /api/meta HTTP/1.1\r\nHost: x\r\n" + b"X-Slow: " + b"a" * 2000 + b"\r\n\r\n"
    with connect(server) as conn:
        answer = trickle(conn, head)  # 2,000 bytes at 5 a second: 400 s if never cut
    assert answer == b"" or answer.startswith(b"HTTP/1.1 408"), answer[:80]
    assert httpx.get(f"{server.url}/api/meta").status_code == 200  # the server itself is fine


def test_a_body_sent_a_byte_at_a_time_is_cut(server):
    body = b'{"players": 2, "seats": [' + b" " * 2000 + b"]}"
    head = (b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n")
    with connect(server) as conn:
        conn.sendall(head)
        answer = trickle(conn, body)
    assert answer == b"" or answer.startswith(b"HTTP/1.1 408"), answer[:80]
    assert httpx.get(f"{server.url}/api/games").json()["games"] == []  # nothing half-made


def test_a_connection_that_never_speaks_is_closed(server):
    with connect(server) as conn:
        conn.settimeout(60)
        try:
            answer = conn.recv(4096)
        except ConnectionResetError:
            answer = b""
    assert answer == b"" or answer.startswith(b"HTTP/1.1 408")


@pytest.mark.parametrize("head", [
    b"GET /api/meta HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 100_000 + b"\r\n\r\n",
    b"GET /api/meta HTTP/1.1\r\nHost: x\r\n" + b"".join(b"X-%d: 1\r\n" % n for n in range(1000)) + b"\r\n",
], ids=["100 KB of headers", "1000 header lines"])
def test_an_oversized_head_is_refused(server, head):
    with connect(server) as conn:
        try:
            conn.sendall(head)
            answer = conn.recv(4096)
        except (BrokenPipeError, ConnectionResetError):
            answer = b""
    assert answer == b"" or answer.startswith(b"HTTP/1.1 431"), answer[:80]


def test_a_head_at_the_usual_size_is_served(server):
    headers = {f"X-Header-{n}": "v" * 40 for n in range(40)}
    assert httpx.get(f"{server.url}/api/meta", headers=headers).status_code == 200


def test_connections_per_address_are_bounded_and_others_still_get_in(server):
    held = [connect(server, "127.0.0.3") for _ in range(PER_ADDRESS)]
    try:
        for conn in held:  # each is a complete keep-alive request: the server keeps them
            conn.sendall(b"GET /api/meta HTTP/1.1\r\nHost: x\r\n\r\n")
            assert conn.recv(65536).startswith(b"HTTP/1.1 200")
        with connect(server, "127.0.0.3") as extra:
            extra.settimeout(30)
            try:
                extra.sendall(b"GET /api/meta HTTP/1.1\r\nHost: x\r\n\r\n")
                answer = extra.recv(4096)
            except (BrokenPipeError, ConnectionResetError):
                answer = b""
        assert answer == b""  # one too many from that address: closed at once
        other = httpx.Client(transport=httpx.HTTPTransport(local_address="127.0.0.4"))
        assert other.get(f"{server.url}/api/meta").status_code == 200  # another address is served
    finally:
        for conn in held:
            conn.close()

    def served_again() -> bool:  # closed ones no longer count, once the server has seen them close
        fresh = httpx.Client(transport=httpx.HTTPTransport(local_address="127.0.0.3"))
        try:
            return fresh.get(f"{server.url}/api/meta").status_code == 200
        except httpx.TransportError:
            return False

    wait_for(served_again, 30, "the address to be served again")


def test_a_websocket_outlives_the_request_deadline(server):
    from websockets.sync.client import connect as ws_connect

    with httpx.Client(base_url=server.url, timeout=30) as http:
        game = create(http, [human(), human()], seed=2)
    with ws_connect(f"ws://127.0.0.1:{server.port}/api/games/{game['id']}/ws") as socket:
        assert json.loads(socket.recv(timeout=30))["type"] == "state"
        time.sleep(3 * TIMEOUT)  # well past the deadline for a request: an upgraded connection is not cut
        socket.send(json.dumps({"type": "ping"}))
        assert json.loads(socket.recv(timeout=30)) == {"type": "pong"}
