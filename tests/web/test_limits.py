"""Limits: request and message sizes, every bad input a 4xx, rate limits, security headers, offline docs."""

from __future__ import annotations

import asyncio
import json
import warnings
from collections import Counter
from typing import Any

import httpx
import pytest
from webtools import auth, create, human, on_both_databases

from kingisdead.web.security import MAX_BODY, MAX_WS_MESSAGE, RateLimits


def app_client(db_url: str, **settings):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient
    from kingisdead.web import create_app

    return TestClient(create_app(db_url, **settings))


def error_of(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.text
    body = response.json()
    assert body["error"] == code and body["detail"], body
    return body


def test_a_body_over_the_limit_is_refused_before_it_is_read(client):
    big = b'{"players": 2, "seats": [' + b'{"kind": "human"},' * (MAX_BODY // 18) + b'{"kind": "human"}]}'
    error_of(client.post("/api/games", content=big, headers={"Content-Type": "application/json"}), 413, "too_large")

    def streamed():  # no Content-Length: the body is counted as it arrives
        for _ in range(MAX_BODY // 1024 + 2):
            yield b" " * 1024

    error_of(client.post("/api/games", content=streamed(), headers={"Content-Type": "application/json"}),
             413, "too_large")
    assert client.get("/api/games").json()["games"] == []


@pytest.mark.parametrize("body", [
    {"players": 2, "seats": [{"kind": "human"}] * 500},
    {"players": 2, "seats": [{"kind": "human", "name": "x" * 41}, {"kind": "human"}]},
    {"players": 2, "seats": [{"kind": "bot", "bot": "b" * 5000}, {"kind": "human"}]},
    {"players": 2, "seed": 2**64, "seats": [{"kind": "human"}, {"kind": "human"}]},
])
def test_oversized_fields_are_refused(client, body):
    error_of(client.post("/api/games", json=body), 422, "invalid_request")


@pytest.mark.parametrize("steps, code", [
    ([{"kind": "card", "value": 100}], "invalid_request"),
    ([{"kind": "region", "value": -2}], "invalid_request"),
    ([{"kind": "region", "value": 2**70}], "invalid_request"),
    ([{"kind": "card", "value": 7}], "illegal_step"),  # in range for some step, no card
    ([{"kind": "card", "value": 1}, {"kind": "region", "value": 7}, {"kind": "faction", "value": 7}],
     "illegal_step"),
    ([{"kind": "pass"}] * 13, "invalid_request"),
])
def test_out_of_range_steps_are_a_4xx_not_a_server_error(client, steps, code):
    game = create(client, [human(), human()], seed=3)
    response = client.post(f"/api/games/{game['id']}/options", json={"steps": steps},
                           headers=auth(game["seats"][0]["token"]))
    error_of(response, 422, code)


def test_the_websocket_answers_bad_messages_with_errors_and_stays_open(client):
    game = create(client, [human(), human()], seed=4)
    with client.websocket_connect(f"/api/games/{game['id']}/ws") as socket:
        assert socket.receive_json()["type"] == "state"
        socket.send_json({"type": "auth", "token": game["seats"][0]["token"]})
        assert socket.receive_json()["game"]["you"] == 0
        cases = [
            ("x" * (MAX_WS_MESSAGE + 1), "too_large"),
            ('{"type": "ping", "n": ' + "[" * 5000 + "]" * 5000 + "}", "invalid_request"),
            ('{"type": "move", "move": "pass", "move_number": NaN}', "invalid_request"),
            ('{"type": "move", "move": "pass", "move_number": Infinity}', "invalid_request"),
            ('{"type": "move", "move": "pass", "move_number": 1e999}', "invalid_request"),
            ('{"type": "move", "move": "pass", "move_number": ' + "9" * 5000 + "}", "invalid_request"),
            ('{"type": "move", "move": "pass", "move_number": true}', "invalid_request"),
            ('{"type": "move", "move": "' + "p" * 101 + '"}', "invalid_request"),
            ('{"type": "options", "steps": [{"kind": "card", "value": 100}]}', "invalid_request"),
            ('{"type": "options", "steps": [{"kind": "card", "value": 7}]}', "illegal_step"),
            ('{"type": "options", "steps": {"kind": "pass"}}', "invalid_request"),
            ('{"type": "auth", "token": 5}', "invalid_request"),
            ("[]", "invalid_request"),
            ("\ud800", "invalid_request"),
        ]
        for text, code in cases:
            socket.send_text(text)
            reply = socket.receive_json()
            assert reply["type"] == "error" and reply["error"] == code and reply["detail"], (text[:60], reply)
        socket.send_bytes(b'{"type": "ping"}')
        assert socket.receive_json()["error"] == "invalid_request"
        socket.send_json({"type": "ping"})
        assert socket.receive_json() == {"type": "pong"}
    assert client.get(f"/api/games/{game['id']}").json()["move_number"] == 0


def test_rate_limits_answer_429_with_retry_after(db_url):
    with app_client(db_url, rate_limits=RateLimits(create="2/minute", join="2/minute", bad_token="3/minute")) as c:
        games = [create(c, [human(), {**human(), "public": True}], seed=1, claim=False) for _ in range(2)]
        refused = error_of(c.post("/api/games", json={"players": 2, "seats": [human(), human()]}),
                           429, "rate_limited")
        assert "limit" in refused["detail"]
        response = c.post("/api/games", json={"players": 2, "seats": [human(), human()]})
        assert int(response.headers["retry-after"]) >= 1
        assert len(c.get("/api/games").json()["games"]) == 2

        game_id = games[0]["id"]
        for _ in range(3):
            error_of(c.get(f"/api/games/{game_id}", headers=auth("guess")), 403, "bad_token")
        error_of(c.get(f"/api/games/{game_id}", headers=auth("guess")), 429, "rate_limited")
        # once over the limit even the right token waits: guessing gains nothing
        error_of(c.get(f"/api/games/{game_id}", headers=auth(games[0]["seats"][0]["token"])), 429, "rate_limited")

        assert c.post(f"/api/games/{games[0]['id']}/join").status_code == 200
        error_of(c.post(f"/api/games/{games[0]['id']}/join"), 409, "no_free_seat")  # counts as a join too
        error_of(c.post(f"/api/games/{games[1]['id']}/join"), 429, "rate_limited")
        assert c.get("/api/games", params={"status": "open"}).json()["games"][0]["id"] == games[1]["id"]


def test_every_response_carries_the_security_headers(client):
    for response in (client.get("/"), client.get("/game/x"), client.get("/api/meta"), client.get("/static/common.js"),
                     client.get("/api/games/missing"), client.get("/nowhere"), client.get("/docs"),
                     client.post("/api/games", content=b"x" * (MAX_BODY + 1))):
        headers = response.headers
        csp = headers["content-security-policy"]
        assert "script-src 'self'" in csp and "frame-ancestors 'none'" in csp and "unsafe-eval" not in csp
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["referrer-policy"] == "no-referrer"
    error_of(client.get("/nowhere"), 404, "not_found")


def test_the_api_docs_are_served_from_the_package(client):
    page = client.get("/docs")
    assert page.status_code == 200
    assert "<script>" not in page.text  # no inline script: the CSP would block it
    for asset in ("/docs-assets/swagger-ui-bundle.js", "/docs-assets/swagger-ui.css", "/static/docs.js"):
        assert asset in page.text
        assert client.get(asset).status_code == 200
    assert "http" not in page.text  # nothing from another site
    assert 'href="/" data-testid="back-to-lobby"' in page.text  # a way back to the lobby


def test_a_browser_gets_the_friendly_page_for_an_unknown_path_and_the_api_keeps_json(client):
    html = {"Accept": "text/html,application/xhtml+xml,*/*;q=0.8"}
    page = client.get("/nonexistent-page", headers=html)
    assert page.status_code == 404 and page.headers["content-type"].startswith("text/html")
    assert 'data-testid="not-found"' in page.text and 'href="/"' in page.text
    error_of(client.get("/api/nonexistent", headers=html), 404, "not_found")  # the API: always JSON
    error_of(client.get("/nonexistent-page"), 404, "not_found")  # no HTML asked for: JSON


def test_invite_links_use_the_configured_public_url(db_url):
    with app_client(db_url, public_url="https://kings.example.org/") as c:
        game = create(c, [human(), human()], claim=False)
        response = c.post("/api/games", json={"players": 2, "seats": [human(), human()]},
                          headers={"Host": "evil.example.com"})
    assert game["seats"][1]["invite"].startswith("https://kings.example.org/game/")
    assert response.json()["seats"][1]["invite"].startswith("https://kings.example.org/game/")


def test_a_served_websocket_answers_big_messages_and_cuts_off_giant_frames(server_factory):
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    from kingisdead.web.security import WS_TRANSPORT_MAX

    server = server_factory()
    with httpx.Client(base_url=server.url, timeout=30) as http:
        game = create(http, [human(), human()], seed=5)
    address = f"ws://127.0.0.1:{server.port}/api/games/{game['id']}/ws"
    with connect(address, max_size=None) as socket:
        assert json.loads(socket.recv(timeout=30))["type"] == "state"
        socket.send("x" * (MAX_WS_MESSAGE * 2))  # over the app's limit, under the transport's
        assert json.loads(socket.recv(timeout=30))["error"] == "too_large"
        socket.send(json.dumps({"type": "ping"}))
        assert json.loads(socket.recv(timeout=30)) == {"type": "pong"}
        socket.send("x" * (WS_TRANSPORT_MAX + 1))  # over uvicorn's ws_max_size: the server closes (1009)
        with pytest.raises(ConnectionClosed) as closed:
            socket.recv(timeout=30)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009


def _burst(url: str, requests: list[tuple[str, dict[str, Any]]]) -> list[httpx.Response]:
    """Send every (path, {json, headers}) POST or GET at once and wait for all the answers."""
    async def send() -> list[httpx.Response]:
        async with httpx.AsyncClient(base_url=url, timeout=120,
                                     limits=httpx.Limits(max_connections=len(requests))) as c:
            await asyncio.gather(*(c.get("/api/meta") for _ in requests))  # every connection open first
            return list(await asyncio.gather(*(c.request("POST" if "json" in options else "GET", path, **options)
                                               for path, options in requests)))
    return asyncio.run(send())


def test_wrong_passwords_sent_at_once_are_checked_no_more_than_the_limit(server_factory):
    server = server_factory()  # the default limit: 10 wrong passwords a minute
    with httpx.Client(base_url=server.url, timeout=60) as http:
        assert http.post("/api/account/sign-up", json={"name": "Gawain", "password": "the right one"}).status_code == 201
        answers = _burst(server.url, [("/api/account/sign-in", {"json": {"name": "Gawain", "password": password}})
                                      for password in [f"guess {n}" for n in range(39)] + ["the right one"]])
        # 10 passwords checked (each answered 401, or 200 for the right one), the other 30 refused unchecked
        checked = Counter(a.status_code for a in answers if a.status_code != 429)
        assert checked.total() == 10 and set(checked) <= {200, 401}, checked
        right = http.post("/api/account/sign-in", json={"name": "Gawain", "password": "the right one"})
        error_of(right, 429, "rate_limited")  # the limit is spent: even the right password waits


def test_a_right_password_does_not_count_towards_the_limit(db_url):
    with app_client(db_url, rate_limits=RateLimits(sign_in="2/minute")) as c:
        assert c.post("/api/account/sign-up", json={"name": "Gawain", "password": "the right one"}).status_code == 201
        for _ in range(4):
            assert c.post("/api/account/sign-in", json={"name": "Gawain", "password": "the right one"}).status_code == 200
        for _ in range(2):
            error_of(c.post("/api/account/sign-in", json={"name": "Gawain", "password": "wrong one"}), 401,
                     "wrong_credentials")
        error_of(c.post("/api/account/sign-in", json={"name": "Gawain", "password": "the right one"}), 429,
                 "rate_limited")


def test_wrong_tokens_sent_at_once_to_two_server_processes_share_one_limit(server_factory, tmp_path):
    first = server_factory(database=tmp_path / "shared.sqlite3")
    second = server_factory(database=tmp_path / "shared.sqlite3")
    with httpx.Client(base_url=first.url, timeout=60) as http:
        game = create(http, [human(), human()], seed=2)
    path = f"/api/games/{game['id']}"
    answers = _burst(first.url, [(path, {"headers": auth(f"guess{n}")}) for n in range(20)]) + _burst(
        second.url, [(path, {"headers": auth(f"guess{n}")}) for n in range(20)])
    assert Counter(a.status_code for a in answers) == {403: 20, 429: 20}  # the default: 20 wrong tokens a minute
    for server in (first, second):
        right = httpx.get(server.url + path, headers=auth(game["seats"][0]["token"]), timeout=60)
        error_of(right, 429, "rate_limited")


@on_both_databases
def test_two_apps_on_one_database_count_together(db_url):
    limits = RateLimits(create="3/minute")
    with app_client(db_url, rate_limits=limits) as one, app_client(db_url, rate_limits=limits) as two:
        for c in (one, two, one):
            create(c, [human(), human()], claim=False)
        for c in (one, two):
            error_of(c.post("/api/games", json={"players": 2, "seats": [human(), human()]}), 429, "rate_limited")
        assert len(one.get("/api/games").json()["games"]) == 3


def test_a_failed_sign_up_logs_no_password_hash(server_factory, tmp_path):
    import sqlalchemy as sa

    database = tmp_path / "broken.sqlite3"
    server = server_factory(database=database)
    engine = sa.create_engine(f"sqlite:///{database}")
    with engine.begin() as connection:  # every insert into users now fails (a trigger on a table that is gone)
        connection.execute(sa.text("CREATE TABLE gone (x INTEGER)"))
        connection.execute(sa.text("CREATE TRIGGER broken BEFORE INSERT ON users BEGIN INSERT INTO gone VALUES (1); END"))
        connection.execute(sa.text("DROP TABLE gone"))
    engine.dispose()
    response = httpx.post(server.url + "/api/account/sign-up", json={"name": "Gawain", "password": "secret words"},
                          timeout=60)
    assert response.status_code == 503  # an OperationalError: answered as the database being out of reach
    process = server.process
    assert process is not None and process.stderr is not None
    server.stop()
    log = process.stderr.read().decode()
    assert "no such table: main.gone" in log  # the failure is logged...
    assert "$argon2" not in log and "Gawain" not in log  # ...without the statement's parameters


@pytest.mark.parametrize("path", ["/api/games/", "/rules/", "/api/meta/"])
def test_no_answer_sends_a_browser_to_the_host_the_request_named(client, path):
    response = client.get(path, headers={"Host": "evil.example"}, follow_redirects=False)
    assert "location" not in response.headers and "evil.example" not in response.text
    error_of(response, 404, "not_found")


def test_the_schema_asks_for_what_the_validation_asks_for(client):
    schema = client.get("/openapi.json").json()
    parts = schema["components"]["schemas"]
    sign_up = schema["paths"]["/api/account/sign-up"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    name = parts[sign_up["$ref"].rpartition("/")[2]]["properties"]["name"]
    assert (name["minLength"], name["maxLength"]) == (3, 40)
    error_of(client.post("/api/account/sign-up", json={"name": "  ab  ", "password": "long enough"}), 422, "invalid_name")
    assert "bot" in parts["BotSeat"]["required"] and "bot" not in parts["HumanSeat"]["properties"]
    error_of(client.post("/api/games", json={"players": 2, "seats": [human(), {"kind": "bot"}]}), 422,
             "invalid_request")
    for path, allowed in (("/api/account", {"DELETE", "GET", "PATCH"}), ("/api/games", {"GET", "POST"})):
        refused = client.request("OPTIONS", path)
        assert refused.status_code == 405
        assert set(refused.headers["allow"].replace(" ", "").split(",")) == allowed
