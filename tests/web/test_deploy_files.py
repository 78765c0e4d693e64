"""The shipped service unit (deploy/kingisdead@.service) is one systemd accepts, and starts the server
with options `kingisdead serve` has. (The nginx site file is run for real in test_proxy.py.)"""

from __future__ import annotations

import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import typer

from kingisdead.cli import app

UNIT = Path(__file__).resolve().parents[2] / "deploy" / "kingisdead@.service"


def exec_start() -> list[str]:
    [line] = [line for line in UNIT.read_text().splitlines() if line.startswith("ExecStart=")]
    return shlex.split(line.removeprefix("ExecStart="))


def test_the_unit_starts_serve_with_options_it_has():
    command = exec_start()
    assert command[0].endswith("/bin/kingisdead") and command[1] == "serve"
    serve = typer.main.get_command(app).commands["serve"]  # type: ignore[attr-defined]
    known = {option for param in serve.params for option in param.opts}
    given = [word for word in command[2:] if word.startswith("--")]
    assert given and all(option in known for option in given), (given, known)
    assert "--trusted-proxies" in given and "--lan" not in given


def test_systemd_accepts_the_unit(tmp_path):
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed")
    unit = tmp_path / "kingisdead@8000.service"  # an instance: %i is its port
    kingisdead = Path(sys.executable).with_name("kingisdead")
    executable = kingisdead if kingisdead.exists() else Path(sys.executable)
    unit.write_text(UNIT.read_text().replace("/opt/kingisdead/.venv/bin/kingisdead", str(executable)))
    result = subprocess.run([analyze, "verify", str(unit)], capture_output=True, text=True)
    problems = [line for line in (result.stdout + result.stderr).splitlines()
                if "kingisdead" in line and "postgresql.service" not in line]
    assert result.returncode == 0 and not problems, result.stdout + result.stderr
