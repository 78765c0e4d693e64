"""What a newcomer meets, in Debian's chromium against a real server (issue 19, item 4): bots described by
how they play, the options explained where they are chosen, the struggle banner beside the map, the replay's
move shown everywhere, the invite links kept on the table, rated games said so, provisional ratings, the
notation in French and German, and a guest's language switch without a 401."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest
from webtools import OUTPUT, Server, auth, bot, create, human

LAPTOP = {"width": 1366, "height": 800}
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("newcomer") / "games.sqlite3").start()
    yield running
    running.stop()


@pytest.fixture
def new_page(browser):
    """``new_page(viewport)``: a page in a fresh context; its uncaught errors and failed requests (status
    400 and above, as the console shows them) are in ``page.errors`` and ``page.failed``."""
    contexts = []

    def make(viewport: dict = LAPTOP):
        context = browser.new_context(viewport=viewport, reduced_motion="reduce")
        context.set_default_timeout(30_000)
        contexts.append(context)
        page = context.new_page()
        page.errors, page.failed = [], []
        page.on("pageerror", lambda exc: page.errors.append(str(exc)))
        page.on("response", lambda r: page.failed.append(f"{r.status} {r.request.method} {r.url}")
                if r.status >= 400 else None)
        return page

    yield make
    for context in contexts:
        for page in context.pages:
            assert not page.errors, page.errors
        context.close()


def shoot(page, name: str) -> None:
    OUTPUT.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(OUTPUT / f"newcomer-{name}.png"))


def test_a_guest_switches_language_without_a_401(server, new_page):
    for url in ("/", "/rules"):
        page = new_page()
        page.goto(server.url + url)
        page.wait_for_selector("[data-testid=language]")
        with page.expect_navigation():
            page.select_option("[data-testid=language]", "fr")
        page.wait_for_selector("[data-testid=language]")
        assert page.get_attribute("html", "lang") == "fr"
        assert page.failed == [], page.failed
