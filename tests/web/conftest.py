"""Fixtures for the web tests: an in-process app, and a real server process on loopback.

Without the web extra installed, the web tests are not collected at all.
"""

from __future__ import annotations

import importlib.util
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

if importlib.util.find_spec("fastapi") is None:
    collect_ignore_glob = ["test_*.py"]


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'games.sqlite3'}"


@pytest.fixture
def client(db_url: str) -> Iterator[Any]:
    with warnings.catch_warnings():  # Starlette asks for httpx2, which FastAPI's pinned stack does not need yet
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient

    from kingisdead.web import create_app

    with TestClient(create_app(db_url)) as c:
        yield c


@pytest.fixture
def server_factory(tmp_path: Path) -> Iterator[Any]:
    from webtools import Server

    started: list[Server] = []

    def make(bot_delay: float = 0.0, database: Path | None = None) -> Server:
        server = Server(database or tmp_path / "served.sqlite3", bot_delay)
        started.append(server)
        return server.start()

    yield make
    for server in started:
        server.stop()
