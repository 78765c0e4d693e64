"""Fuzzing: every generated HTTP request and WebSocket message gets a 4xx or an answer, never a server error.

schemathesis generates requests from the app's own OpenAPI schema (through ASGI,
in process) and checks each response against that schema; a Hypothesis test
sends the WebSocket any text, bytes and JSON, huge and deeply nested. Each operation gets schemathesis's boundary
cases and a few generated requests (4 of any kind, 6 the schema allows); KINGISDEAD_PROPERTY_SCALE=10 sends ten
times more.

The schemas are read when the tests run, as a fixture (``schemathesis.pytest.from_fixture``): each operation is a
subtest. Collected eagerly, the cases were made in every test process; and under pytest 9.2 the operations' tests
shared one node id, so pytest-xdist ran one operation of the 61 (pytest stays at 9.1 until schemathesis follows).
"""

from __future__ import annotations

import json
import logging
import os
import re
import tempfile
import unicodedata
import warnings
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.config._operations import OperationConfig
from schemathesis.checks import (
    allow_header_conformance,
    content_type_conformance,
    negative_data_rejection,
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
    unsupported_method,
)

from kingisdead.web import create_app
from kingisdead.web.accounts import NAME_PATTERN
from kingisdead.web.security import MAX_WS_MESSAGE, PRINTABLE, RateLimits

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

_folder = tempfile.mkdtemp(prefix="kingisdead-fuzz-")
APP = create_app(f"sqlite:///{Path(_folder) / 'fuzz.sqlite3'}",
                 rate_limits=RateLimits(create="100000/minute", join="100000/minute", bad_token="100000/minute",
                                        sign_in="100000/minute", sign_up="100000/minute"))


def fuzzed(positive_only: bool) -> Any:
    """APP's schema for schemathesis, read when a test runs (in the test process that runs it: every process
    collects this module, and making the cases at collection cost each one 5 s). ``positive_only``: only requests
    the schema allows, none holding NUL (a 422 on every route)."""
    generated = schemathesis.openapi.from_asgi("/openapi.json", APP)
    if positive_only:
        generated.config.generation.update(modes=[GenerationMode.POSITIVE], allow_x00=False)
    # Sign-up's name pattern (its lookaheads make each candidate string a rejection sample) took 10 to 20 s of the
    # coverage phase's boundary cases alone. The fuzzing phase still sends sign-up generated names; the coverage
    # phase covers every other operation.
    generated.config.operations.operations.append(OperationConfig.from_dict(
        {"include-path": "/api/account/sign-up", "phases": {"coverage": {"enabled": False}}}))
    # And schemathesis's own strings for it were kept once in about 200 tries (9 s for 6 names): the names the
    # schema allows come from Hypothesis's reading of the same pattern (ACCOUNT_NAMES), as a format of its own.
    generated.raw_schema["components"]["schemas"]["SignUp"]["properties"]["name"]["format"] = "account-name"
    return generated


@pytest.fixture(scope="module")
def any_request() -> Any:
    return fuzzed(positive_only=False)


@pytest.fixture(scope="module")
def allowed_request() -> Any:
    return fuzzed(positive_only=True)


ACCOUNT_NAMES = st.from_regex(NAME_PATTERN, fullmatch=True)
"""The sign-up names the schema allows, as Hypothesis makes them from its pattern (lookaheads included)."""
schemathesis.openapi.format("account-name", ACCOUNT_NAMES)

schema = schemathesis.pytest.from_fixture("any_request")
positive = schemathesis.pytest.from_fixture("allowed_request")
SCALE = int(os.environ.get("KINGISDEAD_PROPERTY_SCALE", "1"))
GAME_RULES = {"illegal_move", "illegal_step"}
"""422s that a request the schema allows may still get: the engine refuses the move in this position."""


@pytest.fixture(scope="module")
def client() -> Any:
    """One client of APP for the module: the app starts once, not once per example."""
    with TestClient(APP) as entered:
        yield entered


@pytest.fixture(scope="module")
def game() -> dict[str, Any]:
    """A running game with hints, whose id and creator's token the fuzzed requests use half of the time."""
    with TestClient(APP) as client:
        response = client.post("/api/games", json={"players": 3, "hints": True, "seed": 9, "seats": [
            {"kind": "human"}, {"kind": "human", "public": True}, {"kind": "bot", "bot": "random"}]})
        assert response.status_code == 201
        return response.json()


def _aimed_at(case: Any, game: dict[str, Any]) -> None:
    """Half of the requests to a game's routes go to the module's game, with its creator's token (not those
    whose game id is the invalid part: a control character, which the real id would make valid)."""
    game_id = (case.path_parameters or {}).get("game_id")
    if game_id is not None and hash(repr(case.body)) % 2 and re.fullmatch(PRINTABLE, unquote(game_id)):
        case.path_parameters["game_id"] = game["id"]
        case.headers = {**(case.headers or {}), "Authorization": f"Bearer {game['seats'][0]['token']}"}


@schema.parametrize()
@settings(max_examples=4 * SCALE, deadline=None, suppress_health_check=list(HealthCheck))
def test_every_request_gets_an_answer_the_schema_documents(case, game) -> None:
    _aimed_at(case, game)
    # what the schema forbids is refused, and a 405 names every method of the path (what the schema allows is
    # accepted: the test below)
    case.call_and_validate(checks=[not_a_server_error, status_code_conformance, content_type_conformance,
                                   response_schema_conformance, negative_data_rejection, unsupported_method,
                                   allow_header_conformance])


@positive.parametrize()
@settings(max_examples=6 * SCALE, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
def test_every_request_the_schema_allows_is_not_refused_as_malformed(case, game) -> None:
    """The schema says what the server accepts: a request it allows gets no 422 but the engine's own refusals."""
    _aimed_at(case, game)
    response = case.call()
    if response.status_code == 422 and not _refused_by_the_name_check_alone(case.body):
        assert response.json()["error"] in GAME_RULES, (case.method, case.formatted_path, case.body, response.text)


def _refused_by_the_name_check_alone(body: Any) -> bool:
    """Whether a body's account name is one the schema's pattern lets through but ``account_name`` refuses
    (``NAME_PATTERN`` says why): it holds an invisible character of Unicode's category C, or it changes length
    once normalised (NFKC, casefolded, spaces collapsed: "ﷺ" is spelt in several characters)."""
    if not isinstance(body, dict) or not isinstance(body.get("name"), str):
        return False
    name = body["name"]
    invisible = any(unicodedata.category(char).startswith("C") for char in name)
    return invisible or len(" ".join(unicodedata.normalize("NFKC", name).casefold().split())) != len(
        " ".join(name.split()))


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=30)
protocol_like = st.fixed_dictionaries(
    {"type": st.sampled_from(["move", "options", "ping", "auth", "dance"])},
    optional={"steps": st.lists(st.fixed_dictionaries({"kind": st.sampled_from(["pass", "card", "region",
                                                                               "faction", "none", "x"])},
                                                      optional={"value": st.integers() | json_values}), max_size=14)
              | json_values,
              "move": st.text(max_size=120) | json_values, "move_number": st.integers() | json_values,
              "token": st.text(max_size=30) | json_values})
messages = st.one_of(
    st.text(max_size=200).map(lambda t: ("text", t)),
    st.binary(max_size=200).map(lambda b: ("bytes", b)),
    json_values.map(lambda v: ("text", json.dumps(v))),
    protocol_like.map(lambda v: ("text", json.dumps(v))),
    st.integers(1, 50_000).map(lambda depth: ("text", "[" * depth + "]" * depth)),
    st.integers(MAX_WS_MESSAGE - 10, 2 * MAX_WS_MESSAGE).map(lambda n: ("text", '"' + "x" * n + '"')),
    st.sampled_from(["NaN", "Infinity", "-Infinity", '{"type": "move", "move": "pass", "move_number": 1e400}',
                     '{"type": "options", "steps": [{"kind": "card", "value": 99999999999999999999}]}'])
    .map(lambda t: ("text", t)),
)


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(batch=st.lists(messages, min_size=1, max_size=6))
def test_the_websocket_survives_any_message(batch: list[tuple[str, Any]], game: dict[str, Any], client: Any,
                                            caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.ERROR)
    with client.websocket_connect(f"/api/games/{game['id']}/ws") as socket:
        assert socket.receive_json()["type"] == "state"
        socket.send_json({"type": "auth", "token": game["seats"][0]["token"]})
        assert socket.receive_json()["type"] == "state"
        for kind, payload in batch:
            if kind == "bytes":
                socket.send_bytes(payload)
            else:
                socket.send_text(payload)
            socket.send_json({"type": "ping"})
            # whatever the message did (an error, options, a new state), the socket still answers a ping
            for _ in range(5):
                reply = socket.receive_json()
                assert reply["type"] in ("error", "options", "state", "pong"), reply
                if reply["type"] == "error":
                    assert reply["error"] and reply["detail"] and reply["error"] != "internal"
                if reply["type"] == "pong":
                    break
            else:
                raise AssertionError("no pong")
    assert not [r for r in caplog.records if r.exc_info], "a traceback was logged"
