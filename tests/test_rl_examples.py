"""Smoke tests of the examples with tiny budgets (the real runs take minutes; see examples/README.md)."""

from __future__ import annotations

import re
import runpy
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def run_example(name: str, *args: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "argv", [name, *args])
    runpy.run_path(str(EXAMPLES / name), run_name="__main__")


def test_training_example_runs_and_plots(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("torch", reason="the training example needs the rl-examples extra")
    pytest.importorskip("matplotlib", reason="the training example needs the rl-examples extra")
    plot = tmp_path / "curve.png"
    run_example("train_vs_random.py", "--minutes", "0.001", "--batch", "2", "--eval-games", "2",
                "--plot", str(plot), monkeypatch=monkeypatch)
    out = capsys.readouterr().out
    assert "untrained agent: wins" in out
    # At least one batch of 2 games is played, however fast the machine.
    trained = re.search(r"trained agent after (\d+) games: wins .* of 2 games \(95% interval", out)
    assert trained and int(trained.group(1)) % 2 == 0 and int(trained.group(1)) >= 2
    assert plot.read_bytes().startswith(b"\x89PNG")


def test_mcts_example_plays_our_bots(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("pyspiel", reason="needs the rl extra")
    run_example("mcts_vs_bots.py", "--games", "1", "--simulations", "2", "--opponents", "random",
                monkeypatch=monkeypatch)
    out = capsys.readouterr().out
    assert "vs random" in out and "of 1" in out
