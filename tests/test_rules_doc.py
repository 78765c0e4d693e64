"""docs/rules.md names, for every rule, its place in the Python reference and in the Rust core: each place exists."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TABLE = re.compile(r"^\| (?P<rule>[^|]+) \| (?P<python>[^|]+) \| (?P<rust>[^|]+) \|$", re.MULTILINE)
PLACE = re.compile(r"`([\w./]+)::?([\w.]+)`|`([\w.]+)`")


def places() -> list[tuple[str, str, str]]:
    """The table's rows under "Where each rule lives": (rule, Python places, Rust places)."""
    text = (ROOT / "docs/rules.md").read_text()
    section = text.split("## Where each rule lives", 1)[1].split("\n## ", 1)[0]
    rows = [(m["rule"].strip(), m["python"], m["rust"]) for m in TABLE.finditer(section)]
    return [row for row in rows if not set(row[0]) <= {"-", " "} and row[0] != "rule"]


def test_the_table_covers_the_rules():
    assert len(places()) >= 15


def test_every_python_place_exists():
    for rule, python, _rust in places():
        names = re.findall(r"`([\w.]+)`", python)
        assert names, rule
        for name in names:
            module, _, attribute = name.rpartition(".")
            assert hasattr(importlib.import_module(f"kingisdead.{module}"), attribute), (rule, name)


def test_every_rust_place_exists():
    for rule, _python, rust in places():
        names = re.findall(r"`(\w+)\.rs::(\w+)`", rust)
        assert names, rule
        for file, function in names:
            source = (ROOT / "core/src" / f"{file}.rs").read_text()
            assert re.search(rf"\bfn {function}\b|\bstruct {function}\b|\benum {function}\b", source), (rule, file, function)
