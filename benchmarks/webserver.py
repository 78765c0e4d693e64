"""A real ``kingisdead serve`` process on loopback for the web benchmarks (bench_web_*.py)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(database: Path, env: dict[str, str]) -> tuple[subprocess.Popen, str]:
    """Start a server on a SQLite file with extra environment ``env``; (process, base URL) once it answers.

    Raises RuntimeError if it does not answer within 60 s.
    """
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-c", "from kingisdead.cli import app; app()", "serve", "--port", str(port),
         "--database", f"sqlite:///{database}", "--bot-delay", "0",
         "--max-connections-per-address", "100000"],  # every client of a benchmark is on 127.0.0.1
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env={**os.environ, **env})
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{url}/api/meta", timeout=1).status_code == 200:
                return process, url
        except httpx.TransportError:
            time.sleep(0.1)
    process.kill()
    raise RuntimeError("the server did not start within 60 s")
