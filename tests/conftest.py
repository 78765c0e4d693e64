"""Shared pytest setup: the test helpers on the path, a reproducible Hypothesis profile, the markers
``browser``, ``postgres``, ``ray`` and ``slow`` set from the fixtures a test uses (registered in pyproject.toml;
``pytest -m "not slow"`` runs the tests that start no outside process), the scheduling of ``--dist loadfile``
and Playwright kept from one browser module to the next."""

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
        ``--loadscope-reorder``), except that the modules named ``*_browser.py`` go out before the others, so
        that on each worker they follow each other and share one Playwright (:class:`Playwrights`), and the
        tests of SPREAD after every module, so that they fill both workers to the end (a module of one long
        test, such as the Ray cluster's, no longer comes after them)."""

        def _split_scope(self, nodeid: str) -> str:
            module = nodeid.split("::", 1)[0]
            return nodeid if module in SPREAD else module

        def _assign_work_unit(self, node: Any) -> None:
            if not getattr(self, "_reordered", False):  # the queue is full and sorted by size: reorder it once
                self._reordered = True
                units = sorted(self.workqueue.items(),  # stable: by size within each group
                               key=lambda unit: (not unit[0].endswith("_browser.py"), "::" in unit[0]))
                self.workqueue.clear()
                self.workqueue.update(units)
            super()._assign_work_unit(node)

    return ModulesAndSpreadTests(config, log)


class Playwrights:
    """Playwright's sync API and the browsers launched through it, kept from one module that drives a browser to
    the next (tests/web/conftest.py's ``playwright`` and ``browser`` fixtures ask for them).

    Starting Playwright (a node process) and launching chromium cost about 0.8 s of CPU, which each of the
    browser modules paid. They are stopped before a test of a module that uses neither: while Playwright runs,
    its event loop runs on the main thread, where ``asyncio.run`` (and the code that calls it, such as
    ``Notifier.deliver``) refuses to start another.
    """

    def __init__(self) -> None:
        self._playwright: Any = None
        self._browsers: dict[str, Any] = {}

    def playwright(self) -> Any:
        """The running Playwright (its sync API), started if it is not."""
        if self._playwright is None:
            from playwright.sync_api import sync_playwright

            self._playwright = sync_playwright().start()
        return self._playwright

    def browser(self, executable: str, args: list[str]) -> Any:
        """Chromium at ``executable``, launched headless with ``args`` if it is not running."""
        if executable not in self._browsers:
            self._browsers[executable] = self.playwright().chromium.launch(executable_path=executable, args=args)
        return self._browsers[executable]

    def stop(self) -> None:
        """Close the browsers and stop Playwright (nothing if it is not running)."""
        for launched in self._browsers.values():
            launched.close()
        self._browsers.clear()
        if self._playwright is not None:
            self._playwright.stop()
            self._playwright = None


PLAYWRIGHTS = pytest.StashKey[Playwrights]()
BROWSER_MODULES = pytest.StashKey[set[str]]()
"""The modules with a test that uses Playwright (its ``playwright`` fixture), by path."""


def pytest_configure(config: pytest.Config) -> None:
    config.stash[PLAYWRIGHTS] = Playwrights()
    config.stash[BROWSER_MODULES] = set()


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    if item.nodeid.split("::", 1)[0] not in item.config.stash[BROWSER_MODULES]:
        item.config.stash[PLAYWRIGHTS].stop()


def pytest_sessionfinish(session: pytest.Session) -> None:
    session.config.stash[PLAYWRIGHTS].stop()


@pytest.fixture(scope="session")
def playwrights(pytestconfig: pytest.Config) -> Playwrights:
    """This test process's :class:`Playwrights`."""
    return pytestconfig.stash[PLAYWRIGHTS]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if item.nodeid.split("::", 1)[0] in SPREAD:
            shared = [name for name, defs in item._fixtureinfo.name2fixturedefs.items()  # type: ignore[attr-defined]
                      if defs[-1].scope in ("module", "package", "class")]
            assert not shared, f"{item.nodeid} shares {shared}: take its module out of SPREAD (tests/conftest.py)"
        used = set(getattr(item, "fixturenames", ()))
        if "playwright" in used:
            config.stash[BROWSER_MODULES].add(item.nodeid.split("::", 1)[0])
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
