"""The Ray compute backend on a real cluster: a head node and a second node started with `ray start` on
this machine, and a real `kingisdead serve` using it (KINGISDEAD_COMPUTE=ray, RAY_ADDRESS). The head
offers no CPU, so a bot's move can only have been searched on the second node.

Costs about 30 s here (up to a minute on a busy machine), most of it waiting for Ray's two nodes to start."""

from __future__ import annotations

import os
import secrets
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from webtools import Server, bot, create, free_port, human, wait_for

SRC = Path(__file__).resolve().parents[2] / "src"


def ray_node(arguments: list[str], env: dict[str, str], log: Path) -> subprocess.Popen:
    """`ray start --block ...`: the node lives as long as this process (ending it ends the node's processes)."""
    ray = Path(sys.executable).with_name("ray")
    process = subprocess.Popen([str(ray), "start", "--block", "--disable-usage-stats", *arguments], env=env,
                               stdout=log.open("w"), stderr=subprocess.STDOUT)

    def started() -> bool:
        if process.poll() is not None:
            raise RuntimeError(f"ray start exited: {log.read_text()[-3000:]}")
        return "Ray runtime started" in log.read_text()

    wait_for(started, 240, f"ray start {' '.join(arguments[:2])}")
    return process


@pytest.fixture(scope="module")
def cluster(ray: object) -> Iterator[tuple[str, dict[str, str]]]:
    """(the head's address, the environment a member of the cluster needs: its token)."""
    home = Path(tempfile.mkdtemp(prefix="kid-ray-"))  # short: Ray's socket paths live under it
    env = {**os.environ, "RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN": secrets.token_hex(32),
           "RAY_USAGE_STATS_ENABLED": "0", "PYTHONPATH": f"{SRC}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    port = free_port()
    nodes = []
    try:
        # free ports where Ray has fixed defaults, so that another Ray on this machine does not collide
        nodes.append(ray_node(["--head", f"--port={port}", "--node-ip-address=127.0.0.1", "--num-cpus=0",
                               "--include-dashboard=false", f"--temp-dir={home}",
                               f"--dashboard-agent-listen-port={free_port()}"], env, home / "head.log"))
        nodes.append(ray_node([f"--address=127.0.0.1:{port}", "--node-ip-address=127.0.0.1", "--num-cpus=1",
                               f"--dashboard-agent-listen-port={free_port()}"], env, home / "node.log"))
        yield f"127.0.0.1:{port}", env
    finally:
        for node in reversed(nodes):
            node.terminate()
            try:
                node.wait(60)
            except subprocess.TimeoutExpired:
                node.kill()
        shutil.rmtree(home, ignore_errors=True)


def test_a_bot_move_is_searched_on_the_second_node(cluster, tmp_path):
    address, env = cluster
    server = Server(tmp_path / "games.sqlite3",
                    env={key: env[key] for key in ("RAY_AUTH_MODE", "RAY_AUTH_TOKEN", "RAY_USAGE_STATS_ENABLED",
                                                   "PYTHONPATH")} | {"KINGISDEAD_COMPUTE": "ray",
                                                                      "RAY_ADDRESS": address}).start()
    try:
        with httpx.Client(base_url=server.url, timeout=30) as http:
            game = create(http, [human(), bot("greedy")], seed=5, first_player=1)
            moved = wait_for(lambda: (view := http.get(f"/api/games/{game['id']}").json())["move_number"] == 1
                             and view, 180, "the bot's move on the cluster")
            assert moved["log"][0]["seat"] == 1
            played = http.post(f"/api/games/{game['id']}/moves", json={"move": "pass", "move_number": 1},
                               headers={"Authorization": f"Bearer {game['seats'][0]['token']}"})
            assert played.status_code == 200, played.text
            wait_for(lambda: http.get(f"/api/games/{game['id']}").json()["move_number"] == 3, 180,
                     "the bot's reply on the cluster")
    finally:
        server.stop()
