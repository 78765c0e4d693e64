"""Screenshots of the table for people and for the docs, at desktop and phone size.

One game against the random bot per size: the start, a move half built, the
table after the bot's move, a struggle's resolution banner and the end screen,
saved under build/test-output/web/screenshots/ (docs/img/ holds a few of them).
"""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest
from test_browser import play_turn, wait_for_turn
from webtools import OUTPUT, Server, bot, create, human

SIZES = {"desktop": {"width": 1440, "height": 900}, "phone": {"width": 390, "height": 844}}
SHOTS = OUTPUT / "screenshots"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("shots") / "games.sqlite3").start()
    yield running
    running.stop()


@pytest.mark.parametrize("size", list(SIZES))
def test_screenshots_of_a_whole_game(server, size, browser):
    SHOTS.mkdir(parents=True, exist_ok=True)
    with httpx.Client(base_url=server.url) as http:
        game = create(http, [human("You"), bot("random")], seed=7)
    context = browser.new_context(viewport=SIZES[size], reduced_motion="reduce")
    context.set_default_timeout(30_000)
    page = context.new_page()
    page.goto(f"{server.url}/game/{game['id']}#token={game['seats'][0]['token']}")

    def shoot(name: str) -> None:
        path = SHOTS / f"{size}-{name}.png"
        page.screenshot(path=str(path))
        assert path.stat().st_size > 10_000  # a drawn table, not a blank page

    assert wait_for_turn(page) == "you"
    shoot("start")
    page.locator("[data-testid=hand-card].playable").first.click()
    page.wait_for_selector("[data-testid=choice], [data-testid=confirm]")
    shoot("mid-move")
    while not page.locator("[data-testid=confirm]").count():
        steps = page.locator(".crumbs span").count()
        page.locator("[data-testid=choice]").first.click()
        # the next step's choices replace these: wait for the new step before looking again
        page.wait_for_function("n => document.querySelectorAll('.crumbs span').length > n", arg=steps, polling=50)
    number = int(page.get_attribute("body", "data-move"))
    page.click("[data-testid=confirm]")
    turn = wait_for_turn(page, number + 1)
    shoot("after-opponent-move")
    banner = False
    while turn == "you":
        turn = wait_for_turn(page, play_turn(page, with_card=False))
        if not banner and page.locator("[data-testid=banner]:not(.hidden)").count():
            banner = True
            shoot("resolution-banner")
    assert banner, "a struggle was resolved during the game"
    page.wait_for_selector("[data-testid=result-explanation]")
    page.locator("[data-testid=result]").scroll_into_view_if_needed()
    shoot("end-screen")
    context.close()
