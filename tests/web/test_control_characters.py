"""The audit's NUL list over every route: a control character in a path or a query, or NUL in a JSON body, is
refused with a 422 JSON ``invalid_request`` before the database sees it, and the connection serves the next
request. Runs on SQLite and PostgreSQL (which refuses NUL in text: a 500 and a reset connection before), on a
real server so that the keep-alive connection is the one a browser would reuse."""

from __future__ import annotations

import http.client
import json
import socket
from typing import Any

import pytest
from webtools import Server, human, on_both_databases

from kingisdead.web import create_app

pytestmark = on_both_databases

PATH_VALUES = ["a%00b", "%00", "a%0d%0ab", "a%1bb", "a%7fb", "a%c2%85b"]  # NUL, CR LF, ESC, DEL, NEL
QUERY_VALUES = ["%00", "a%0ab", "%7f"]
BODIES = ['{"name": "a\\u0000b"}', '{"\\u0000": 1}', '{"seats": [{"name": "\\u0000"}]}', '{"x": "\\ud800"}',
          '{"x": "a\x00b"}']
ROUTES = [(path, method.upper(), "requestBody" in item)
          for path, methods in create_app("sqlite://").openapi()["paths"].items()
          for method, item in methods.items()]


def _filled(path: str, value: str) -> str:
    """``path`` with each ``{parameter}`` replaced by ``value``."""
    while "{" in path:
        start, end = path.index("{"), path.index("}")
        path = path[:start] + value + path[end + 1:]
    return path


def _ask(connection: http.client.HTTPConnection, method: str, path: str, body: str | None = None,
         lang: str = "en") -> tuple[int, Any]:
    headers = {"Accept-Language": lang, "Content-Type": "application/json"}
    connection.request(method, path, body=None if body is None else body.encode(), headers=headers)
    response = connection.getresponse()
    data = response.read()
    assert response.getheader("content-type", "").startswith("application/json"), (method, path, data[:200])
    assert response.getheader("connection", "") != "close", (method, path)
    return response.status, json.loads(data)


@pytest.fixture
def site(db_url: str, server_factory: Any) -> Server:
    return server_factory(database=db_url)


def test_every_route_refuses_control_characters_and_the_connection_goes_on(site: Server) -> None:
    connection = http.client.HTTPConnection("127.0.0.1", site.port, timeout=30)
    connection.connect()
    held = connection.sock
    status, game = _ask(connection, "POST", "/api/games", json.dumps({"players": 2, "seats": [human(), human()]}))
    assert status == 201
    refused = []
    for path, method, has_body in ROUTES:
        probes = [(_filled(path, value), None) for value in PATH_VALUES if "{" in path]
        probes += [(f"{_filled(path, game['id'])}?lang={value}", None) for value in QUERY_VALUES]
        if has_body:
            probes += [(_filled(path, game["id"]), body) for body in BODIES]
        for target, body in probes:
            status, answer = _ask(connection, method, target, body)
            refused.append((method, target, body, status, answer["error"]))
            # the same connection serves the next request at once
            assert _ask(connection, "GET", f"/api/games/{game['id']}")[0] == 200
    assert [r for r in refused if r[3:] != (422, "invalid_request")] == []
    assert connection.sock is held  # never closed by the server
    status, answer = _ask(connection, "GET", "/api/games/a%00b", lang="fr")
    assert status == 422 and "contrôle" in answer["detail"]  # in the request's language


def test_a_websocket_handshake_with_a_control_character_is_refused(site: Server) -> None:
    with socket.create_connection(("127.0.0.1", site.port), timeout=30) as raw:
        raw.sendall(b"GET /api/games/a%00b/ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
                    b"Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                    b"Sec-WebSocket-Version: 13\r\n\r\n")
        head = raw.recv(4096).decode("latin-1")
    assert head.split(" ")[1] in ("403", "422"), head  # refused before any route: not 101, not 500


@pytest.mark.parametrize("name", ["Mallory\r\n\r\nYour account is closed", "tab\there", "bell\x07", "nel\x85"])
def test_a_seat_name_with_a_control_character_is_refused(client: Any, name: str) -> None:
    for seat in (human(name), {"kind": "bot", "bot": "random", "name": name}):
        response = client.post("/api/games", json={"players": 2, "seats": [human(), seat]})
        assert response.status_code == 422 and response.json()["error"] == "invalid_request", response.text
        assert "seats.1" in response.json()["detail"]


def test_a_websocket_message_holding_nul_is_an_error_message(client: Any) -> None:
    game = client.post("/api/games", json={"players": 2, "seats": [human(), human()]}).json()
    with client.websocket_connect(f"/api/games/{game['id']}/ws") as socket:
        assert socket.receive_json()["type"] == "state"
        socket.send_text('{"type": "auth", "token": "a\\u0000b"}')
        reply = socket.receive_json()
        assert reply["type"] == "error" and reply["error"] == "invalid_request", reply
        socket.send_json({"type": "ping"})
        assert socket.receive_json()["type"] == "pong"  # the socket goes on
