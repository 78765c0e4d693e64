"""Fixtures for the web tests: an in-process app, a real server process on loopback, a PostgreSQL server.

Without the web extra installed, the web tests are not collected at all. A test
marked with ``webtools.on_both_databases`` runs on SQLite and on PostgreSQL (Debian's
``postgresql`` package, started once per session; ``./dev test`` installs it):
without its binaries those runs skip, or fail under CI (``CI=true``). The others
run on SQLite.
"""

from __future__ import annotations

import importlib.util
import uuid
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

if importlib.util.find_spec("fastapi") is None:
    collect_ignore_glob = ["test_*.py"]


@pytest.fixture(autouse=True, scope="session")
def cheap_password_hashes() -> Iterator[None]:
    """Apps made in this process hash passwords with argon2's cheapest parameters (``argon2.profiles.CHEAPEST``,
    made for tests): the real ones (64 MiB, three passes) cost about 0.1 s a sign-up or sign-in, and the suite
    signs in hundreds of times. A served process (webtools.Server) keeps the real ones."""
    from argon2 import PasswordHasher, profiles

    from kingisdead.web import accounts

    real = accounts._hasher
    accounts._hasher = PasswordHasher.from_parameters(profiles.CHEAPEST)
    yield
    accounts._hasher = real

@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """A PostgreSQL server for this session (:class:`webtools.PostgresCluster`): its base URL
    (``postgresql://postgres@127.0.0.1:PORT``, trust authentication)."""
    from webtools import PostgresCluster, required_postgres_binaries

    cluster = PostgresCluster(required_postgres_binaries()).start()
    try:
        yield cluster.url
    finally:
        cluster.remove()


@contextmanager
def fresh_postgres(server: str, template: str = "template1") -> Iterator[str]:
    """A new PostgreSQL database on ``server`` copied from ``template``: its URL, the database dropped after."""
    import psycopg

    name = f"test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(f"{server}/postgres", autocommit=True) as connection:
        connection.execute(f"CREATE DATABASE {name} TEMPLATE {template}")
    yield f"{server}/{name}"
    with psycopg.connect(f"{server}/postgres", autocommit=True) as connection:
        connection.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@pytest.fixture
def postgres_url(request: pytest.FixtureRequest) -> Iterator[str]:
    """A fresh, empty PostgreSQL database for one test (dropped after it)."""
    with fresh_postgres(request.getfixturevalue("postgres_server")) as url:
        yield url


@pytest.fixture(scope="session")
def migrated_postgres(postgres_server: str) -> str:
    """The name of a PostgreSQL database upgraded to the latest schema, made once per session: a test's fresh
    database (:func:`db_url`) is copied from it, which saves running every migration again (about half a second
    each)."""
    import psycopg

    from kingisdead.web.db import make_engine

    name = "migrated_template"
    with psycopg.connect(f"{postgres_server}/postgres", autocommit=True) as connection:
        connection.execute(f"CREATE DATABASE {name}")
    make_engine(f"{postgres_server}/{name}").dispose()  # no connection left: a template must have none
    return name


@pytest.fixture(scope="session")
def migrated_sqlite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An empty SQLite database upgraded to the latest schema, made once per session: a test's fresh database
    is a copy of it (:func:`webtools.fresh_sqlite`), which saves running every migration again (about a second each)."""
    from kingisdead.web.db import make_engine

    path = tmp_path_factory.mktemp("migrated") / "empty.sqlite3"
    make_engine(f"sqlite:///{path}").dispose()  # the last connection closed: the WAL is folded into the file
    return path


@pytest.fixture
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """The database of one test, already migrated: a fresh SQLite file, or (parametrized "postgresql") a fresh
    PostgreSQL database."""
    if getattr(request, "param", "sqlite") == "postgresql":
        with fresh_postgres(request.getfixturevalue("postgres_server"),
                            request.getfixturevalue("migrated_postgres")) as url:
            yield url
        return
    from webtools import fresh_sqlite

    path = fresh_sqlite(request.getfixturevalue("migrated_sqlite"), tmp_path / "games.sqlite3")
    yield f"sqlite:///{path}"


@pytest.fixture
def client(db_url: str) -> Iterator[Any]:
    with warnings.catch_warnings():  # Starlette asks for httpx2, which FastAPI's pinned stack does not need yet
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient

    from kingisdead.web import create_app

    with TestClient(create_app(db_url)) as c:
        yield c


class Browser:
    """One browser's view of a shared TestClient: its own cookie jar, swapped in for each call.

    Several entered TestClients of one app would each run the app's lifespan in
    an event loop of its own (bot tasks started in one loop, stopped from another);
    one client with a jar per browser keeps one lifespan, as a real server has.
    """

    _CALLS = frozenset({"get", "post", "put", "patch", "delete", "request", "websocket_connect"})

    def __init__(self, client: Any) -> None:
        import httpx

        self._client = client
        self.cookies = httpx.Cookies()

    def __getattr__(self, name: str) -> Any:
        attribute = getattr(self._client, name)
        if name not in self._CALLS:
            return attribute

        def call(*args: Any, **kwargs: Any) -> Any:
            self._client.cookies = self.cookies
            try:
                return attribute(*args, **kwargs)
            finally:
                self.cookies = self._client.cookies

        return call


@pytest.fixture
def browsers() -> Iterator[Any]:
    """``open(app)``: a new :class:`Browser` on the app (https, as the session cookie is Secure)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient
    entered: dict[int, Any] = {}

    def open_browser(app: Any) -> Browser:
        if id(app) not in entered:
            entered[id(app)] = TestClient(app, base_url="https://testserver").__enter__()
        return Browser(entered[id(app)])

    yield open_browser
    for client in entered.values():
        client.__exit__(None, None, None)


@pytest.fixture
def server_factory(tmp_path: Path, migrated_sqlite: Path) -> Iterator[Any]:
    """``make(bot_delay=0.0, database=None)``: a started :class:`webtools.Server` (stopped after the test), on
    ``database`` or else on the test's own SQLite file (fresh at the first server, kept for the next ones)."""
    from webtools import Server, fresh_sqlite

    started: list[Server] = []
    served = tmp_path / "served.sqlite3"

    def make(bot_delay: float = 0.0, database: Path | str | None = None) -> Server:
        if database is None and not served.exists():
            fresh_sqlite(migrated_sqlite, served)
        server = Server(database or served, bot_delay)
        started.append(server)
        return server.start()

    yield make
    for server in started:
        server.stop()


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory, migrated_sqlite: Path) -> Iterator[Any]:
    """A real `kingisdead serve` (:class:`webtools.Server`) shared by every module of the test process that asks
    for ``server``: each start costs about 1.5 s of CPU. Its database outlives a module, so each module signs up
    accounts under names no other module uses and finds other modules' games and players there; a module that
    needs a server of its own, or other settings, defines its own ``server`` fixture."""
    from dataclasses import fields

    from webtools import Server, fresh_sqlite

    from kingisdead.web.security import RateLimits

    # every rate limit high (RateLimits.from_env's variables): every module's requests come from one address
    limits = {f"KINGISDEAD_LIMIT_{limit.name.upper()}": "100000/hour" for limit in fields(RateLimits)}
    path = fresh_sqlite(migrated_sqlite, tmp_path_factory.mktemp("shared") / "games.sqlite3")
    running = Server(path, env=limits).start()
    yield running
    running.stop()


@pytest.fixture(scope="module")
def playwright(playwrights: Any) -> Any:
    """Playwright's sync API, kept running from one browser module to the next (tests/conftest.py's
    :class:`Playwrights`); skips without it."""
    pytest.importorskip("playwright.sync_api")
    return playwrights.playwright()


@pytest.fixture(scope="module")
def browser(playwright: Any, playwrights: Any) -> Any:
    """Debian's chromium headless shell (:data:`webtools.CHROMIUM`) driven by Playwright, kept running from one
    browser module to the next (each test makes its own contexts and closes them); skips without it."""
    from webtools import CHROMIUM, launched_browser

    return launched_browser(playwrights, CHROMIUM)


@pytest.fixture
def new_page(browser: Any) -> Iterator[Any]:
    """``new_page(viewport=LAPTOP, url=None, timeout=30_000, **context_options)``: a page in a fresh browser
    context with reduced motion, at ``url`` if given. Its uncaught script errors (``page.errors``) fail the test
    when it ends; its answers of status 400 and above are kept in ``page.failed`` (what the console shows)."""
    from webtools import LAPTOP

    contexts: list[Any] = []

    def make(viewport: dict[str, int] = LAPTOP, url: str | None = None, timeout: float = 30_000,
             **options: Any) -> Any:
        context = browser.new_context(viewport=viewport, reduced_motion="reduce", **options)
        context.set_default_timeout(timeout)
        contexts.append(context)
        page = context.new_page()
        page.errors, page.failed = [], []
        page.on("pageerror", lambda exc: page.errors.append(str(exc)))
        page.on("response", lambda r: page.failed.append(f"{r.status} {r.request.method} {r.url}")
                if r.status >= 400 else None)
        if url is not None:
            page.goto(url)
        return page

    yield make
    for context in contexts:
        for page in context.pages:
            assert not page.errors, page.errors
        context.close()


class Mailbox:
    """The messages a test SMTP server (aiosmtpd) accepted, and how it answers.

    ``answers``: replies given to the next messages instead of accepting them ("451 4.3.0 busy"), one per
    message, first in first out; ``refuse``: RCPT replies for some addresses; ``raw``: the bytes received. ``hold_after``: once that many messages are accepted, each RCPT waits
    (``waiting`` is set) until ``released`` is set: a sender caught in the middle of a message."""

    def __init__(self) -> None:
        import threading

        self.messages: list[Any] = []
        self.raw: list[bytes] = []  # each accepted message as it came
        self.refuse: dict[str, str] = {}  # RCPT answers for these addresses ("450 4.2.1 mailbox busy")
        self.answers: list[str] = []
        self.hold_after: int | None = None
        self.waiting, self.released = threading.Event(), threading.Event()

    async def handle_RCPT(self, server: Any, session: Any, envelope: Any, address: str, options: Any) -> str:
        import asyncio

        while self.hold_after is not None and len(self.messages) >= self.hold_after and not self.released.is_set():
            self.waiting.set()
            await asyncio.sleep(0.02)
        if address in self.refuse:
            return self.refuse[address]
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        from email import message_from_bytes, policy

        if self.answers:
            return self.answers.pop(0)
        self.raw.append(envelope.original_content or envelope.content)
        self.messages.append(message_from_bytes(self.raw[-1], policy=policy.default))
        return "250 Message accepted"

    def ids(self) -> list[str]:
        return [str(m["Message-ID"]) for m in self.messages]


@pytest.fixture
def smtp_server() -> Iterator[Any]:
    """A real SMTP server on loopback (aiosmtpd): ``.port``, ``.mailbox`` (:class:`Mailbox`), ``.stop()`` and
    ``.start()`` again on the same port (a server that is down, then back)."""
    from aiosmtpd.controller import Controller
    from webtools import free_port

    mailbox = Mailbox()
    port = free_port("127.0.0.1")

    class Server:
        def __init__(self) -> None:
            self.port, self.mailbox, self.controller = port, mailbox, None
            self.utf8 = True  # False: a relay without SMTPUTF8 (from the next start)

        def start(self) -> Server:
            self.controller = Controller(mailbox, hostname="127.0.0.1", port=port, enable_SMTPUTF8=self.utf8)
            self.controller.start()
            return self

        def stop(self) -> None:
            if self.controller is not None:
                self.controller.stop()
                self.controller = None

    server = Server().start()
    yield server
    server.stop()
