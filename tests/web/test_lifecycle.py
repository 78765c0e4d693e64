"""Processes die with the server: after a `max` move, SIGTERM or SIGKILL leaves no child and frees the port."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from webtools import auth, bot, create, free_port, human, wait_for


def serve(port: int, database: Path) -> subprocess.Popen:
    command = [sys.executable, "-c", "from kingisdead.cli import app; app()", "serve", "--port", str(port),
               "--database", f"sqlite:///{database}", "--bot-delay", "0"]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}"

    def up() -> bool:
        if process.poll() is not None:
            raise AssertionError(f"server exited: {process.stderr.read().decode() if process.stderr else ''}")
        try:
            return http.get(f"{url}/api/meta").status_code == 200
        except httpx.TransportError:
            return False

    with httpx.Client(timeout=1) as http:  # one client for every poll (a new one loads the CA bundle each time)
        wait_for(up, timeout=60, what="the server to start")
    return process


def descendants(pid: int) -> set[int]:
    """Every live process below ``pid`` (read from /proc)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            fields = stat[stat.rindex(")") + 2:].split()
            if fields[0] != "Z":
                children.setdefault(int(fields[1]), []).append(int(entry.name))
    found, todo = set(), [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.add(child)
            todo.append(child)
    return found


def alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2] != "Z"


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads processes from /proc")
@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGKILL], ids=["SIGTERM", "SIGKILL"])
def test_after_a_max_move_a_stopped_server_leaves_no_process_and_restarts_on_its_port(tmp_path, how):
    port, database = free_port(), tmp_path / "lifecycle.sqlite3"
    server = serve(port, database)
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as http:
            game = create(http, [bot("max"), human()], seed=41)
            wait_for(lambda: http.get(f"/api/games/{game['id']}").json()["move_number"] == 1, what="max's move")
            workers = descendants(server.pid)
            assert workers  # the bot moved in a worker process
        os.kill(server.pid, how)
        server.wait(30)
        wait_for(lambda: not any(alive(pid) for pid in workers), timeout=15, what="the workers to exit")
        again = serve(port, database)  # the same port at once: nothing else holds it
        try:
            with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as http:
                view = http.get(f"/api/games/{game['id']}", headers=auth(game["seats"][1]["token"])).json()
                assert view["move_number"] == 1 and view["you"] == 1
        finally:
            again.terminate()
            again.wait(30)
    finally:
        if server.poll() is None:
            server.kill()
            server.wait(10)


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads processes from /proc")
def test_the_reference_engines_max_helpers_die_with_their_parent_even_by_sigkill(tmp_path):
    script = ("from kingisdead import GameState; from kingisdead.bots import make_bot; "
              "from kingisdead.bots.budget import Budget; import sys, time; "
              "make_bot('max', 1, Budget(iterations=40)).choose(GameState.new(2, 'standard', 3, 0)); "
              "print('moved', flush=True); time.sleep(120)")
    parent = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE,
                              env={**os.environ, "KINGISDEAD_ENGINE": "reference"})
    try:
        assert parent.stdout is not None and parent.stdout.readline().strip() == b"moved"
        helpers = descendants(parent.pid)
        assert helpers  # the helper search ran in a spawned process
        os.kill(parent.pid, signal.SIGKILL)
        parent.wait(10)
        wait_for(lambda: not any(alive(pid) for pid in helpers), timeout=15, what="the helpers to exit")
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait(10)
