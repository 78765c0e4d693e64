"""Shared pytest setup: the test helpers on the path, a reproducible Hypothesis profile, and the markers
``browser``, ``postgres``, ``ray`` and ``slow`` set from the fixtures a test uses (registered in pyproject.toml;
``pytest -m "not slow"`` runs the tests that start no outside process)."""

from __future__ import annotations

import gc
import os
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

from kingisdead import core

sys.path.insert(0, str(Path(__file__).parent))

# "kingisdead": the same examples on every run (the suite's default);
# "explore": fresh random examples each run, for hunting bugs locally.
for name, derandomize in (("kingisdead", True), ("explore", False)):
    settings.register_profile(
        name, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=derandomize,
    )
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "kingisdead"))

# Listing and comparing moves allocates millions of small tuples, none of them in a cycle: with CPython's default
# first threshold (700) the cyclic collector runs thousands of times a second over them. Collecting 70 times less
# often takes a third of the time off the cross-check between the engines (docs/architecture.md).
gc.set_threshold(50_000, 50, 100)


MARKED_BY_FIXTURE = {
    "browser": "browser",  # Debian's chromium driven by Playwright (tests/web/conftest.py)
    "postgres_server": "postgres",  # a PostgreSQL server started for the session (tests/web/conftest.py)
    "ray": "ray",  # Ray, a local instance or a cluster of its own (below)
}
"""Fixture name: the marker a test that uses it gets."""

STARTS_A_PROCESS = {"server", "server_factory"}
"""Fixtures that start a `kingisdead serve` process (the shared ``server`` of tests/web/conftest.py, or a module's
own); a test that uses one, or a browser, PostgreSQL or Ray, is marked ``slow``."""


SPREAD = {"tests/test_core_crosscheck.py", "tests/test_perft.py", "tests/test_properties.py", "tests/test_arena.py",
          "tests/test_core_search.py"}
"""Long modules whose tests share no module-scoped fixture: under ``--dist loadfile`` (``./dev test``) their tests
are dealt to the workers one by one (:class:`ModulesAndSpreadTests`), the other modules each to one worker."""


def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    if config.getvalue("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class ModulesAndSpreadTests(LoadScopeScheduling):
        """pytest-xdist's ``loadfile`` (a module's tests on one worker, so that its server and browser start once),
        except that the tests of :data:`SPREAD` are units of their own. Units go out largest first (xdist's
        ``--loadscope-reorder``), so the one-test units come last and fill both workers to the end."""

        def _split_scope(self, nodeid: str) -> str:
            module = nodeid.split("::", 1)[0]
            return nodeid if module in SPREAD else module

    return ModulesAndSpreadTests(config, log)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.nodeid.split("::", 1)[0] in SPREAD:
            shared = [name for name, defs in item._fixtureinfo.name2fixturedefs.items()  # type: ignore[attr-defined]
                      if defs[-1].scope in ("module", "package", "class")]
            assert not shared, f"{item.nodeid} shares {shared}: take its module out of SPREAD (tests/conftest.py)"
        used = set(getattr(item, "fixturenames", ()))
        callspec = getattr(item, "callspec", None)
        if callspec is not None and callspec.params.get("db_url") == "postgresql":
            used.add("postgres_server")  # asked for by db_url at run time (tests/web/conftest.py)
        marks = {mark for fixture, mark in MARKED_BY_FIXTURE.items() if fixture in used}
        if marks or used & STARTS_A_PROCESS:
            marks.add("slow")
        for mark in sorted(marks):
            item.add_marker(mark)


@pytest.fixture(scope="session")
def ray():
    """The ``ray`` module (the ``dist`` extra); skips without it. Marks the test ``ray``."""
    return pytest.importorskip("ray")


@pytest.fixture(params=["core", "reference"])
def each_engine(request):
    """Run a test once on the compiled core and once on the pure-Python reference (kingisdead.core)."""
    if request.param == "core" and not core.available():
        pytest.skip("the compiled core is not built")
    with core.use_engine(request.param):
        yield request.param
