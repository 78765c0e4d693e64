"""The lobby at a laptop's and a phone's size, in Debian's headless chromium: the create form's "Create game" in
view without scrolling at 1440x900 (issue 30, point 8: it was below the fold), and nothing wider than a phone.

Each language (its words are longest in French and German) with each edition: the second adds the "Rule options"
row. Screenshots land in build/test-output/web/screenshots/lobby/.
"""

from __future__ import annotations


import pytest
from webtools import OUTPUT, Server

SHOTS = OUTPUT / "screenshots" / "lobby"
LOCALES = {"en": "en-GB", "fr": "fr-FR", "de": "de-DE"}



def open_lobby(browser, server: Server, size: tuple[int, int], language: str, edition: str):
    """A fresh context at ``size`` in ``language``, on the lobby with ``edition`` chosen and its seats drawn."""
    context = browser.new_context(viewport={"width": size[0], "height": size[1]}, locale=LOCALES[language],
                                  reduced_motion="reduce")
    context.set_default_timeout(30_000)
    page = context.new_page()
    page.goto(server.url + "/")
    page.wait_for_selector("[data-testid=seat-1]")
    page.get_by_test_id("sign-in").wait_for()  # the account panel, beside the form, is drawn too
    assert page.evaluate("() => document.documentElement.lang") == language
    page.get_by_test_id(f"edition-{edition}").click()
    assert page.get_by_test_id("rule-options").is_visible() == (edition == "second")
    return context, page


def overflows(page) -> bool:
    """Whether the page is wider than the window (it would scroll sideways)."""
    return page.evaluate("() => document.scrollingElement.scrollWidth > innerWidth + 1")


@pytest.mark.parametrize("edition", ["first", "second"])
@pytest.mark.parametrize("language", list(LOCALES))
def test_create_game_is_in_view_at_1440x900(browser, server, language, edition):
    context, page = open_lobby(browser, server, (1440, 900), language, edition)
    try:
        assert page.evaluate("() => scrollY") == 0
        button = page.get_by_test_id("create")
        box = button.bounding_box()
        assert box is not None and button.is_visible()
        assert 0 <= box["x"] and box["x"] + box["width"] <= 1440, box
        assert 0 <= box["y"] and box["y"] + box["height"] <= 900, f"below the fold: {box}"
        # nothing covers it: a click at its middle lands on it
        hit = page.evaluate("([x, y]) => document.elementFromPoint(x, y)?.closest('[data-testid=create]') !== null",
                            [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2])
        assert hit
        assert not overflows(page)
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"1440x900-{language}-{edition}.png"))
    finally:
        context.close()


@pytest.mark.parametrize("language", list(LOCALES))
def test_a_phone_shows_the_whole_form_without_scrolling_sideways(browser, server, language):
    context, page = open_lobby(browser, server, (390, 844), language, "second")
    try:
        page.locator("[data-testid=rule-options] summary").click()  # the longest form: its options open
        page.get_by_test_id("option-tie_faction").wait_for()
        page.locator("#players [data-n='4']").click()
        page.wait_for_selector("[data-testid=seat-3]")
        assert not overflows(page)
        form = page.locator(".new-game").bounding_box()
        assert form is not None and form["x"] >= 0 and form["x"] + form["width"] <= 390, form
        for testid in ("create", "seat-3", "option-tie_faction", "rated", "edition-second"):
            box = page.get_by_test_id(testid).bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390, (testid, box)
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"390x844-{language}.png"), full_page=True)
    finally:
        context.close()
