"""Helpers for the web tests: request shortcuts, polling, and a real server process on loopback."""

from __future__ import annotations

import glob
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

CHROMIUM = "/usr/bin/chromium-headless-shell"
"""The browser of the browser tests: Debian's package of chromium's headless shell (what Playwright launches for
headless by default), same engine as the ``chromium`` package at about two thirds of its CPU time."""
FULL_CHROMIUM = "/usr/bin/chromium"
"""Debian's whole chromium: for what the headless shell leaves out (notifications shown, installing the app)."""
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
on_both_databases = pytest.mark.parametrize("db_url", ["sqlite", "postgresql"], indirect=True)
"""Runs a test on SQLite and on PostgreSQL (tests/web/conftest.py's ``db_url``), where the two can differ: several
processes or transactions at once, what a column accepts, what a deletion takes with it. Other tests run on
SQLite, which the app's code treats alike through SQLAlchemy."""
OUTPUT = Path(__file__).resolve().parents[2] / "build" / "test-output" / "web"
LAPTOP = {"width": 1366, "height": 800}
PHONE = {"width": 390, "height": 844}


def human(name: str | None = None) -> dict[str, Any]:
    return {"kind": "human", "name": name}


def bot(level: str = "random") -> dict[str, Any]:
    return {"kind": "bot", "bot": level}


def create(client: Any, seats: list[dict[str, Any]], seed: int = 1, claim: bool = True,
           **settings: Any) -> dict[str, Any]:
    """Create a game; with ``claim``, every invite is exchanged so each human seat has its ``token``."""
    response = client.post("/api/games", json={"players": len(seats), "seats": seats, "seed": seed, **settings})
    assert response.status_code == 201, response.text
    game = response.json()
    if claim:
        for seat in game["seats"]:
            if seat["invite_token"]:
                claimed = client.post(f"/api/games/{game['id']}/claim", headers=auth(seat["invite_token"]))
                assert claimed.status_code == 200, claimed.text
                seat["token"] = claimed.json()["token"]
    return game


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def launched_browser(playwrights: Any, executable: str) -> Any:
    """The chromium at ``executable``, launched headless by ``playwrights`` (tests/conftest.py's
    :class:`Playwrights`) or already running there; skips the test without it."""
    if not os.path.exists(executable):
        pytest.skip(f"{executable} is not installed (./dev test installs it)")
    return playwrights.browser(executable, CHROMIUM_ARGS)


def fresh_sqlite(template: Path, path: Path) -> Path:
    """``path``, a copy of the migrated empty database ``template``, readable by its owner only (as the app
    creates one)."""
    shutil.copyfile(template, path)
    path.chmod(0o600)
    return path


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as s:
        s.bind((host, 0))
        return s.getsockname()[1]


@dataclass
class Server:
    """A real `kingisdead serve` process on loopback; ``database``: a SQLite file on disk, or a database URL."""

    database: Path | str
    bot_delay: float = 0.0
    process: subprocess.Popen | None = None
    port: int = 0
    args: tuple[str, ...] = ()
    """More `serve` options, e.g. ("--request-timeout", "1")."""
    env: dict[str, str] | None = None
    """More environment variables for the process."""
    host: str = "127.0.0.1"

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    @property
    def database_url(self) -> str:
        return self.database if isinstance(self.database, str) else f"sqlite:///{self.database}"

    def start(self) -> Server:
        self.port = free_port(self.host)
        command = [sys.executable, "-c", "from kingisdead.cli import app; app()", "serve", "--port", str(self.port),
                   "--database", self.database_url, "--bot-delay", str(self.bot_delay),
                   "--host", self.host, "--public-url", self.url,  # the tests reach it there: invite links must too
                   *self.args]
        env = {**os.environ, **self.env} if self.env else None
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
        deadline = time.monotonic() + 90
        with httpx.Client(timeout=1) as http:  # one client: each new one loads the CA bundle (30 ms of CPU)
            while time.monotonic() < deadline:
                if self.process.poll() is not None:
                    raise RuntimeError(f"server exited: {self.process.stderr.read().decode() if self.process.stderr else ''}")
                try:
                    if http.get(f"{self.url}/api/meta").status_code == 200:
                        return self
                except httpx.TransportError:
                    time.sleep(0.1)
        raise RuntimeError("server did not start in 90 s")

    def kill(self) -> None:
        """Stop the process abruptly (SIGKILL): nothing gets a chance to flush."""
        if self.process is not None and self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGKILL)
            self.process.wait(10)
        self.process = None

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()
        self.process = None


def postgres_binaries() -> Path | None:
    """The directory of PostgreSQL's pg_ctl and initdb (Debian's ``postgresql`` package), or None."""
    found = shutil.which("pg_ctl")
    if found:
        return Path(found).resolve().parent
    versions = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"))
    return Path(versions[-1]).parent if versions else None


def required_postgres_binaries() -> Path:
    """:func:`postgres_binaries`, else the test is skipped (failed under CI, where ``./dev test`` installs them)."""
    binaries = postgres_binaries()
    if binaries is None:
        message = "PostgreSQL is not installed (Debian: apt-get install postgresql; ./dev test does it)"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    return binaries


class PostgresCluster:
    """A PostgreSQL server of its own in a temporary directory, on a free loopback port, trust authentication;
    run as the ``postgres`` user when the tests run as root (the server refuses root). ``stop()`` and
    ``start()`` may be called again and again (the port and the data stay); ``remove()`` ends it for good."""

    def __init__(self, binaries: Path) -> None:
        self.binaries = binaries
        self.home = Path(tempfile.mkdtemp(prefix="kingisdead-pg-"))
        self.as_user: list[str] = []
        if os.geteuid() == 0:
            shutil.chown(self.home, "postgres", "postgres")
            self.as_user = ["runuser", "-u", "postgres", "--"]
        self.data, self.port = self.home / "data", free_port()
        subprocess.run([*self.as_user, str(binaries / "initdb"), "-D", str(self.data), "-U", "postgres",
                        "--auth=trust", "--no-sync", "-E", "UTF8"], check=True, capture_output=True)

    @property
    def url(self) -> str:
        """The server's base URL: ``postgresql://postgres@127.0.0.1:PORT`` (add ``/database``)."""
        return f"postgresql://postgres@127.0.0.1:{self.port}"

    def start(self) -> PostgresCluster:
        subprocess.run([*self.as_user, str(self.binaries / "pg_ctl"), "-D", str(self.data), "-l",
                        str(self.home / "log"), "-w", "-o", f"-p {self.port} -k {self.home} "
                        "-c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200", "start"],
                       check=True, capture_output=True)
        return self

    def stop(self, mode: str = "fast") -> None:
        subprocess.run([*self.as_user, str(self.binaries / "pg_ctl"), "-D", str(self.data), "-m", mode, "stop"],
                       capture_output=True)

    def remove(self) -> None:
        self.stop("immediate")
        shutil.rmtree(self.home, ignore_errors=True)


HAND_HOLDS_STILL = """quiet => {
  const card = document.querySelector("[data-testid=hand-card]");
  if (!card || window.kidTestCard !== card) { window.kidTestCard = card; window.kidTestSince = performance.now(); }
  return card !== null && performance.now() - window.kidTestSince >= quiet;
}"""


def hand_settled(page: Any, quiet_ms: int = 300) -> None:
    """Wait until the table's live view is drawn: the socket open (``#conn.on``) and the hand's first card the
    same element for ``quiet_ms`` (drawing the hand makes every card anew). After it connects the socket sends the spectators' view, then, once the seat's
    token is checked, the seat's: each draws the hand again, and an element taken before is then detached."""
    page.wait_for_selector("#conn.on", state="attached")
    page.wait_for_function(HAND_HOLDS_STILL, arg=quiet_ms, polling=50)


def wait_for(predicate: Any, timeout: float = 90.0, what: str = "condition") -> Any:
    """Poll until ``predicate()`` is truthy (returns it); fail after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def serious_accessibility_violations(page: Any) -> list[str]:
    """axe-core's (axe-playwright-python) violations of impact serious or critical on the page as it is now,
    each as ``"rule-id: help (n nodes: first selector)"``; an empty list when the page passes."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    return [f"{v['id']}: {v['help']} ({len(v['nodes'])} nodes: {v['nodes'][0]['target']})"
            for v in results.response["violations"] if v.get("impact") in ("serious", "critical")]
