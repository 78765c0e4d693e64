"""Learn to play, in Debian's chromium: each edition's tutorial and the advanced game's played to their end in
English, the first edition's read in French.

The learner starts from the lobby's link, reads each step, makes the moves each
step asks for with the table's own controls, has a wrong move refused with its
reason, and finishes the short game. The English runs save screenshots under
build/test-output/web/screenshots/; docs/img/tutorial-*.png and learn-advanced.png are copies of them. The
tutor answers after 50 ms instead of 700 (window.kidTutorDelayMs, set before the page's scripts run).
"""

from __future__ import annotations

import json
import threading

import httpx
import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from test_i18n_browser import untranslated
from webtools import OUTPUT, PHONE, Server, auth, serious_accessibility_violations

SHOTS = OUTPUT / "screenshots"
REFUSED = {("first", "en"): "Romano-British", ("first", "fr"): "Romano-Bretons", ("first", "de"): "Romano-Briten",
           ("second", "en"): "English Support", ("advanced", "en"): "Influence"}
"""The card the first move step asks for, as its refusal names it in each lesson and language."""
FACES = {"first": {3: 6, 4: 2, 5: 1, 8: 0, 9: 3},  # Romano-British, Ambassador, Garrison, Crown, Settlements
         "second": {3: 6, 4: 2, 5: 1, 8: 0, 9: 3},  # English Support, Manoeuvre, Outmanoeuvre, Negotiate, Assemble
         "advanced": {1: 11, 2: 2, 3: 7, 5: 9, 6: 3, 7: 0, 10: 18}}  # Influence, Manoeuvre, Spy, Ambush, ..., Plot
"""The card each step introduces shows its face: step -> card."""
LESSONS = {"first": ("", "learn-start", 16), "second": ("?edition=second", "learn-start-second", 15),
           "advanced": ("?edition=second&mode=advanced", "learn-start-advanced", 11)}
"""Each lesson: its /learn page's query, the lobby's link to it and the number of its steps."""
TUTOR_DELAY = "window.kidTutorDelayMs = 50;"
"""Set before the page's scripts run: the tutor answers sooner than a person would see it think."""
SECRET = {"Ambush": 6, "Edict": 99, "Muster": 99}
"""The advanced lesson: the Cunning cards of Morgan's hand and the move number from which a step may name each
(Ambush once played; the others never)."""


def click_until(page, selector: str, then: str) -> None:
    """Click ``selector`` until ``then`` shows: on a loaded machine a redraw (the opponent's moves shown one by
    one change the height of the panels above) can move the target between Playwright's check and its click."""
    for _attempt in range(3):
        page.click(selector)
        try:
            page.wait_for_selector(then, timeout=5_000)
            return
        except PlaywrightTimeout:
            if page.locator(then).count():
                return
    page.wait_for_selector(then)



def board_box(page) -> tuple[float, ...]:
    """The top of the map on the page and the height of the step box above it, in CSS pixels. (The map's
    size changes when a struggle's banner shows under it: that is the table's, not the tutorial's.)"""
    return tuple(page.evaluate("() => [document.getElementById('map').getBoundingClientRect().top + scrollY,"
                               " document.getElementById('tutorial').offsetHeight]"))


def choice_selector(choice: dict) -> str:
    """The table's control that makes one step of a move."""
    if choice["kind"] == "card":
        return f"[data-testid=hand-card][data-card='{choice['value']}']"
    if choice["kind"] == "pass":
        return "[data-testid=pass]"
    return f"[data-testid=choice][data-kind={choice['kind']}][data-value='{choice['value']}']"


def move_number(page) -> int:
    return int(page.get_attribute("body", "data-move") or -1)


TUTORIAL_SCREEN = {"width": 1366, "height": 900}


def next_until_move_or_done(page) -> None:
    """Press Next through the steps that only tell, up to one that asks for a move (or waits), or the end."""
    while page.get_attribute("#tutorial", "data-wait") == "next":
        step = page.get_attribute("#tutorial", "data-step")
        page.click("[data-testid=tutorial-next]")
        page.wait_for_function("step => document.getElementById('tutorial').dataset.step !== step "
                               "|| document.getElementById('tutorial').dataset.wait === 'done'", arg=step)


# Each lesson is played by clicks in English; the translated one in the test after this.
@pytest.mark.parametrize(("lesson", "lang"), [("first", "en"), ("second", "en"), ("advanced", "en")])
def test_the_tutorial_is_played_to_its_end(browser, server: Server, lesson: str, lang: str):
    """``lesson``: a key of web/tutorial.py's TUTORIALS (each edition's, and the second edition's advanced
    game's)."""
    query, link, steps_total = LESSONS[lesson]
    moves = httpx.get(server.url + "/api/learn", params={"lesson": lesson}).json()["moves"]
    shots = lesson == "first" and lang == "en"  # docs/img's copies
    context = browser.new_context(viewport=TUTORIAL_SCREEN, locale=f"{lang}-{lang.upper()}",
                                  reduced_motion="reduce")
    context.add_init_script(TUTOR_DELAY)
    context.set_default_timeout(30_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.goto(server.url + "/")
        page.click(f"[data-testid={link}]")
        page.wait_for_selector("#tutorial[data-wait=next] [data-testid=tutorial-step]")
        assert lang == "en" or untranslated(page, lang) == []
        refused = False
        steps_seen = 0
        faces: dict[int, int] = {}
        boards: set[tuple[float, ...]] = set()  # where the board and the step box are, step after step
        while True:
            page.wait_for_selector("#tutorial:is([data-wait=next], [data-wait=move], [data-wait=done])")
            wait = page.get_attribute("#tutorial", "data-wait")
            if wait == "done":
                break
            steps_seen += 1
            if page.locator("#map .region").count() and page.get_attribute("body", "data-turn") != "over":
                boards.add(board_box(page))
                # the step stands beside the board, which keeps the window's height (above it, it took a fifth);
                # the players never scroll inside their panel (a top card was cut)
                assert page.locator("#map").bounding_box()["height"] >= 0.8 * TUTORIAL_SCREEN["height"]
                assert page.locator("#players").evaluate("p => p.scrollHeight <= p.clientHeight + 1"), "players cut"
            step = page.get_attribute("#tutorial", "data-step")
            if lesson == "advanced":  # a card of Morgan's secret hand is named only once played
                said = page.locator("#tutorial").inner_text()
                assert [card for card, shown in SECRET.items() if card in said and move_number(page) < shown] == []
                if step == "3" and wait == "move":  # the Spy's step: docs/img/learn-advanced.png
                    page.screenshot(path=str(SHOTS / "learn-advanced.png"))
            face = page.locator("#tutorial [data-testid=tutorial-card]")
            if face.count():  # a step that introduces a card shows its face, with its art
                assert face.locator("svg.card-art g > *").count() >= 4
                faces[int(step)] = int(face.get_attribute("data-card"))
            if wait == "next":
                if shots and page.locator("[data-testid=result]").is_visible():
                    page.screenshot(path=str(SHOTS / "tutorial-end.png"))
                if lesson == "advanced" and page.locator("[data-testid=result]").is_visible():
                    assert page.locator("[data-testid=plot-revealed]").count() == 1  # the learner's Plot, face up
                    page.screenshot(path=str(SHOTS / "learn-advanced-end.png"))
                page.click("[data-testid=tutorial-next]")
                page.wait_for_function("step => document.getElementById('tutorial').dataset.step !== step "
                                       "|| document.getElementById('tutorial').dataset.wait === 'done'", arg=step)
                continue
            number = move_number(page)
            if not refused:  # a wrong move: pass when the step asks for a card
                page.click("[data-testid=pass]")
                refusal = page.text_content("[data-testid=tutorial-refusal]")
                assert REFUSED[lesson, lang] in refusal, refusal
                boards.add(board_box(page))  # the refusal's line does not move the board either
                assert page.locator("[data-testid=confirm]").count() == 0  # the pass was not even chosen
                assert move_number(page) == number
                if shots:
                    page.screenshot(path=str(SHOTS / "tutorial-refused.png"))
                assert lang == "en" or untranslated(page, lang) == []
                assert serious_accessibility_violations(page) == []
                leave = page.locator("[data-testid=leave]")  # no stand-in bot to take the script over
                assert leave.count() == 1 and leave.is_hidden()
                refused = True
            page.wait_for_selector("[data-testid=tutorial-clicks][data-done='0']")
            for done, choice in enumerate(moves[number]["steps"]):
                if int(page.get_attribute("[data-testid=tutorial-clicks]", "data-done")) > done:
                    continue  # a step with one choice only, taken by the table (the second edition's Support)
                reached = ", ".join(f"[data-testid=tutorial-clicks][data-done='{k}']"  # or past it, by a forced step
                                    for k in range(done + 1, len(moves[number]["steps"]) + 1))
                # the click asked for next is underlined by its place in the move, not by its label
                clicks = page.locator("[data-testid=tutorial-clicks] span")
                assert [clicks.nth(k).get_attribute("class") for k in range(clicks.count())][:done + 1] == \
                    ["done"] * done + ["next"]
                click_until(page, choice_selector(choice), reached)
            page.click("[data-testid=confirm]")
            page.wait_for_function("n => Number(document.body?.dataset.move) > n", arg=number)
            if number == 0:  # /learn again while it runs: the same game, at the step reached
                table, step = page.url, page.get_attribute("#tutorial", "data-step")
                page.goto(server.url + "/learn" + query)
                page.wait_for_url(table)
                page.wait_for_selector(f"#tutorial[data-step='{step}']")
        assert refused and steps_seen == steps_total  # the second edition's: one tie fewer, three discs end it
        assert len(boards) == 1, boards  # neither a step's text nor a refusal moves the board
        assert faces == FACES[lesson]
        if lesson != "first":
            assert page.get_attribute("body", "data-edition") == "second"
            assert "Saxon" not in page.locator("#tutorial").inner_text()
        assert page.get_attribute("body", "data-turn") == "over"
        assert page.locator("[data-testid=tutorial-done]").is_visible()
        assert page.locator("[data-testid=play-again]").is_hidden()  # no rematch against a scripted tutor
        assert lang == "en" or untranslated(page, lang) == []
        assert not errors, errors
    finally:
        context.close()


def test_the_tutorial_speaks_french_from_its_first_step_to_its_end(new_page, server: Server):
    """French stands for the translated tutorials (tools/i18n.py check proves every German text is there too):
    its steps, a refusal and its end carry no English. The clicks are the English runs' job: here the moves after
    the refusal up to the last go through the API, the tutorial's page closed meanwhile, /learn resumes the game
    and the learner's last move is clicked."""
    moves = httpx.get(server.url + "/api/learn").json()["moves"]
    page = new_page(TUTORIAL_SCREEN, server.url + "/", locale="fr-FR")
    page.click("[data-testid=learn-start]")
    page.wait_for_selector("#tutorial[data-wait=next] [data-testid=tutorial-step]")
    assert untranslated(page, "fr") == []
    next_until_move_or_done(page)
    page.wait_for_selector("#tutorial[data-wait=move]")  # once the table shows the game
    page.click("[data-testid=pass]")
    assert REFUSED["first", "fr"] in page.text_content("[data-testid=tutorial-refusal]")
    assert untranslated(page, "fr") == []
    saved = json.loads(page.evaluate("() => localStorage.getItem('kid:tutorial')"))
    learner = json.loads(page.evaluate(f"() => localStorage.getItem('kid:tokens:{saved['id']}')"))[0]
    page.goto("about:blank")
    for number, move in enumerate(moves[:-1]):
        answer = httpx.post(f"{server.url}/api/games/{saved['id']}/moves",
                            json={"move": move["move"], "move_number": number},
                            headers=auth(learner if move["seat"] == 0 else saved["tutor"]))
        assert answer.status_code == 200, answer.text
    page.goto(server.url + "/learn")
    page.wait_for_selector("#tutorial:is([data-wait=next], [data-wait=move])")
    next_until_move_or_done(page)
    assert page.get_attribute("#tutorial", "data-wait") == "move"
    assert moves[-1]["steps"] == [{"kind": "pass", "value": -1}]  # the last move, clicked
    page.click("[data-testid=pass]")
    page.click("[data-testid=confirm]")
    page.wait_for_function("n => Number(document.body?.dataset.move) === n", arg=len(moves))
    page.wait_for_selector("#tutorial[data-wait=next]")  # the result's step
    next_until_move_or_done(page)
    assert page.get_attribute("#tutorial", "data-wait") == "done"
    assert page.get_attribute("body", "data-turn") == "over"
    assert untranslated(page, "fr") == []


def test_next_pressed_before_the_table_shows_the_game_waits_for_it(new_page, server: Server):
    """The tutorial's box draws before the table (game.js asks the server several times first): a learner who
    presses Next through the opening steps meanwhile reaches the first move step, which waits for the table."""
    page = new_page(TUTORIAL_SCREEN, server.url + "/learn")
    held: list = []  # the table's requests, held back until let_go is set
    let_go = threading.Event()

    def hold(route) -> None:
        if let_go.is_set():
            route.continue_()
        else:
            held.append(route)

    page.wait_for_url("**/game/*")
    page.route("**/api/games/*", hold)  # the table's views, held back
    page.reload()
    page.wait_for_selector("#tutorial[data-wait=next]")
    next_until_move_or_done(page)
    assert page.get_attribute("#tutorial", "data-wait") == "tutor"
    assert page.text_content("[data-testid=tutorial-step]") == "The table is being set…"
    assert held and not page.errors, page.errors
    let_go.set()
    for route in held:
        route.continue_()
    page.wait_for_selector("#tutorial[data-wait=move] [data-testid=tutorial-clicks]")
    assert page.get_attribute("#tutorial", "data-step") == "3"


def test_on_a_phone_the_step_and_its_refusal_stay_in_view_above_the_map(browser, server: Server):
    context = browser.new_context(viewport=PHONE, reduced_motion="reduce")
    context.set_default_timeout(30_000)
    page = context.new_page()

    def in_view(selector: str) -> dict:
        box = page.locator(selector).bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"], (selector, box)
        return box

    try:
        page.goto(server.url + "/learn")
        page.wait_for_selector("#tutorial[data-wait=next]")
        next_until_move_or_done(page)
        page.wait_for_selector("#tutorial[data-wait=move]")  # once the table shows the game
        moves = httpx.get(server.url + "/api/learn").json()["moves"]
        page.click("[data-testid=pass]")  # refused: the step asks for a card
        in_view("[data-testid=tutorial-refusal]")
        click_until(page, choice_selector(moves[0]["steps"][0]), "[data-testid=tutorial-clicks][data-done='1']")
        page.wait_for_timeout(300)  # the map scrolls into view on the next frame
        step = in_view("[data-testid=tutorial-step]")
        bar = page.locator("#action").bounding_box()
        board = page.locator("#map").bounding_box()
        assert board["y"] >= step["y"] + step["height"] - 1 and board["y"] < bar["y"], (step, board, bar)
        page.screenshot(path=str(SHOTS / "tutorial-phone.png"))
    finally:
        context.close()
