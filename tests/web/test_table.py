"""The table during play, in Debian's headless chromium: opponents' moves shown on the board one by
one (skippable), the struggle banner with its tally, targets marked, single options taken for the
player, the phone's move bar, and the hot-seat hand-over text.

Screenshots land in build/test-output/web/ (table-*-laptop.png, table-*-phone.png).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from test_browser import LAPTOP, PHONE, shoot
from webtools import Server, auth, bot, create, fresh_sqlite, human

from kingisdead import rules
from kingisdead.board import Card
from kingisdead.moves import format_move, parse_move
from kingisdead.state import GameState

TURNS = 3  # moves each before both pass: with seed 11 a single-option step comes up in them


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, migrated_sqlite: Path) -> Iterator[Server]:
    running = Server(fresh_sqlite(migrated_sqlite, tmp_path_factory.mktemp("table") / "games.sqlite3"),
                     bot_delay=1.0).start()
    yield running
    running.stop()


@pytest.fixture
def open_page(browser):
    contexts = []

    def make(url: str, viewport: dict = LAPTOP, clock: bool = False):
        """``clock``: the page's timers run on Playwright's clock, which the test may pause and advance."""
        context = browser.new_context(viewport=viewport)
        context.set_default_timeout(30_000)
        contexts.append(context)
        page = context.new_page()
        page.errors = []
        page.on("pageerror", lambda exc: page.errors.append(str(exc)))
        if clock:
            page.clock.install()
        page.goto(url)
        return page

    yield make
    for context in contexts:
        for page in context.pages:
            assert not page.errors, page.errors
        context.close()


def opponent_card_move(game: dict, client: httpx.Client, seat: int) -> str:
    """A legal card move (not a pass) for ``seat`` in the game's current position, in notation."""
    view = client.get(f"/api/games/{game['id']}").json()
    state = GameState.new(view["players"], view["variant"], 11, 0)
    for entry in view["log"]:
        rules.play(state, parse_move(entry["notation"]))
    assert state.player == seat
    return next(format_move(m) for m in rules.legal_moves(state) if m.card is not None)


def play_as(client: httpx.Client, game: dict, seat: int, move: str) -> None:
    number = len(client.get(f"/api/games/{game['id']}").json()["log"])
    answer = client.post(f"/api/games/{game['id']}/moves", json={"move": move, "move_number": number},
                         headers=auth(game["seats"][seat]["token"]))
    assert answer.status_code == 200, answer.text


def build_move(page) -> tuple[bool, bool]:
    """Play the first playable card and the first choices by clicking, checking targets on the way.

    Returns (a step was taken automatically, Back undid it with the choice before it).
    """
    auto = undone = False
    page.locator("[data-testid=hand-card].playable").first.click()
    page.wait_for_selector("[data-testid=choice], [data-testid=confirm]")
    while not page.locator("[data-testid=confirm]").count():
        if page.locator("[data-testid=choice][data-kind=region]").count():
            selectable = page.locator("[data-testid=region-card].selectable").count()
            dimmed = page.locator("[data-testid=region-card].dimmed").count()
            assert selectable + dimmed == 8 and selectable >= 1
            shoot(page, "table-mid-move-laptop" if page.viewport_size["width"] > 760 else "table-mid-move-phone")
        steps = page.locator(".crumbs span").count()
        notes = page.locator("[data-testid=auto-note]").count()
        page.locator("[data-testid=choice]").first.click()
        page.wait_for_function("n => document.querySelectorAll('.crumbs span').length > n", arg=steps, polling=50)
        if page.locator(".crumbs span").count() > steps + 1 and not auto:
            auto = True
            note = page.inner_text("[data-testid=auto-note]")
            assert note.startswith("Only one choice:")
            page.click("[data-testid=back]")
            page.wait_for_function("n => document.querySelectorAll('.crumbs span').length === n", arg=steps,
                                   polling=50)
            undone = page.locator("[data-testid=auto-note]").count() == notes
    page.click("[data-testid=confirm]")
    return auto, undone


def test_opponent_moves_marked_struggle_banner_and_auto_taken_choices(server, open_page):
    with httpx.Client(base_url=server.url) as client:
        game = create(client, [human("Arthur"), human("Morgan")], seed=11)
        page = open_page(f"{server.url}/game/{game['id']}#token={game['seats'][0]['token']}")
        autos = []
        for turn in range(TURNS):
            page.wait_for_function("n => document.body?.dataset.turn === 'you' && +document.body?.dataset.move === n",
                                   arg=2 * turn)
            page.wait_for_selector("[data-testid=pass]")
            autos.append(build_move(page))
            page.wait_for_function("n => +document.body?.dataset.move === n", arg=2 * turn + 1)
            play_as(client, game, 1, opponent_card_move(game, client, 1))
            page.wait_for_function("n => +document.body?.dataset.move === n", arg=2 * turn + 2)
            # The opponent's move is on the board: its regions are outlined, it leads the last moves.
            page.wait_for_selector("[data-testid=region-card].touched")
            assert "Morgan" in page.locator("[data-testid=last-moves-list] li").last.inner_text()
            if turn == 0:
                shoot(page, "table-after-opponent-move-laptop")
                page.set_viewport_size(PHONE)
                shoot(page, "table-after-opponent-move-phone")
                page.set_viewport_size(LAPTOP)
        assert any(auto for auto, _ in autos), "no single-option step came up"
        assert all(undone for auto, undone in autos if auto)
        # Both pass: the struggle is resolved, and the banner gives the tally.
        page.click("[data-testid=pass]")
        page.click("[data-testid=confirm]")
        page.wait_for_function("n => +document.body?.dataset.move === n", arg=2 * TURNS + 1)
        play_as(client, game, 1, "pass")
        page.wait_for_selector("[data-testid=banner]:not(.hidden)")
        line = page.inner_text("[data-testid=banner-line]")
        assert re.match(r"^[A-Z][\w ]+: (.+ \d+|no followers) — (tie, )?the \S.* take", line), line
        assert line in page.inner_text("[data-testid=log]")
        shoot(page, "table-resolution-banner-laptop")
        page.set_viewport_size(PHONE)
        assert page.locator("[data-testid=banner]").is_visible()
        shoot(page, "table-resolution-banner-phone")


def test_a_click_pressed_while_the_table_redraws_is_not_lost(server, open_page):
    """A click counts only where its press and its release land: the end of an opponent's move shown (a redraw of
    the table, STEP_MS after it arrives) falling between them must not swallow the click on a card. The page's
    clock is paused while the move is shown, so a slow machine cannot let the showing end before the press."""
    with httpx.Client(base_url=server.url) as client:
        game = create(client, [human("Arthur"), human("Morgan")], seed=11)
        page = open_page(f"{server.url}/game/{game['id']}#token={game['seats'][0]['token']}", clock=True)
        page.wait_for_function("() => document.body?.dataset.turn === 'you'")
        play_as(client, game, 0, "pass")
        page.wait_for_function("() => +document.body?.dataset.move === 1")
        page.clock.pause_at(page.evaluate("Date.now()") + 100)
        play_as(client, game, 1, opponent_card_move(game, client, 1))
        page.wait_for_selector("[data-testid=stepping]")  # the move is being shown: the redraw comes in 1.2 s
        card = page.locator("[data-testid=hand-card].playable").first.bounding_box()
        page.mouse.move(card["x"] + card["width"] / 2, card["y"] + card["height"] / 2)
        page.mouse.down()
        page.clock.run_for(2_000)
        page.mouse.up()
        page.clock.resume()
        page.wait_for_selector("[data-testid=choice], [data-testid=confirm]", timeout=5_000)  # the click counted
        page.wait_for_selector("[data-testid=stepping]", state="detached", timeout=5_000)  # the held redraw ran
        assert page.locator("[data-testid=choice], [data-testid=confirm]").count()  # and kept the move begun


def test_moves_of_several_bots_are_stepped_and_skippable(server, open_page):
    with httpx.Client(base_url=server.url) as client:
        game = create(client, [human("Arthur"), bot(), bot(), bot()], seed=11, first_player=1)
    page = open_page(f"{server.url}/game/{game['id']}#token={game['seats'][0]['token']}")
    page.wait_for_selector("[data-testid=stepping]")
    assert re.match(r"Showing move \d+ \(\d+ of \d+\)", page.inner_text("[data-testid=stepping]"))
    page.keyboard.press("Escape")
    page.wait_for_selector("[data-testid=stepping]", state="detached")
    page.wait_for_function("() => document.body?.dataset.turn === 'you'", timeout=60_000)
    page.wait_for_selector("[data-testid=pass]")
    # Settled on the latest position: the latest move's regions stay outlined (none for a pass).
    latest = httpx.get(f"{server.url}/api/games/{game['id']}").json()["log"][-1]
    touched = page.eval_on_selector_all("[data-testid=region-card].touched", "cs => cs.map(c => +c.dataset.region)")
    assert sorted(touched) == latest["changes"]["touched"]
    assert page.locator("[data-testid=last-moves-list] li").count() == 3


def test_phone_bar_is_fixed_at_the_bottom_and_the_map_in_view_while_choosing(server, open_page):
    with httpx.Client(base_url=server.url) as client:
        game = create(client, [human("Arthur"), human("Morgan")], seed=11)
    page = open_page(f"{server.url}/game/{game['id']}#token={game['seats'][0]['token']}", PHONE)
    page.wait_for_selector("[data-testid=pass]")
    page.locator("[data-testid=hand-card].playable").first.click()
    page.wait_for_selector("[data-testid=choice]")
    bar = page.locator("#action").bounding_box()
    assert page.eval_on_selector("#action", "e => getComputedStyle(e).position") == "fixed"
    assert abs(bar["y"] + bar["height"] - PHONE["height"]) <= 1
    svg = page.locator("#map").bounding_box()
    assert svg["y"] >= 0 and svg["y"] + svg["height"] / 2 <= bar["y"], (svg, bar)
    shoot(page, "table-mid-move-phone")
    assert svg["width"] >= 0.6 * PHONE["width"], svg  # no longer a thumbnail in a wide panel


def test_phone_bar_is_one_line_while_waiting_and_everything_scrolls_above_it(server, open_page):
    with httpx.Client(base_url=server.url) as client:
        game = create(client, [human("Arthur"), human("Morgan")], seed=11)
    page = open_page(f"{server.url}/game/{game['id']}#token={game['seats'][1]['token']}", PHONE)  # Arthur moves first
    page.wait_for_selector("[data-testid=hand-summary]")
    page.wait_for_function("() => document.body?.dataset.turn === 'wait'")
    bar = page.locator("#action").bounding_box()
    assert page.eval_on_selector("#action", "e => getComputedStyle(e).position") == "fixed"
    assert abs(bar["y"] + bar["height"] - PHONE["height"]) <= 1
    assert bar["height"] <= 0.1 * PHONE["height"], bar  # one line, not 40% of the screen
    assert page.inner_text("[data-testid=hand-summary]") == "Your hand (8 cards) — wait for your turn"
    assert page.locator("[data-testid=hand-card]").first.is_hidden()
    svg = page.locator("#map").bounding_box()
    panel = page.locator(".map-wrap").bounding_box()
    assert svg["width"] >= panel["width"] - 20, (svg, panel)  # the map uses the panel's full width
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    bar = page.locator("#action").bounding_box()
    log = page.locator(".log").bounding_box()
    assert log["y"] + log["height"] <= bar["y"] + 1, (log, bar)  # the last section scrolls clear of the bar
    page.locator(".map-legend").scroll_into_view_if_needed()
    page.evaluate("document.querySelector('.track').scrollIntoView({block: 'end'})")
    page.evaluate("window.scrollBy(0, document.getElementById('action').offsetHeight)")
    track = page.locator(".track").bounding_box()
    assert track["y"] + track["height"] <= bar["y"] + 1, (track, bar)  # the region cards can be read
    shoot(page, "table-waiting-phone")
    page.click("[data-testid=hand-summary]")  # the hand on demand
    page.locator("[data-testid=hand-card]").first.wait_for()
    bar = page.locator("#action").bounding_box()
    assert abs(bar["y"] + bar["height"] - PHONE["height"]) <= 1
    shoot(page, "table-waiting-hand-open-phone")


def test_hot_seat_veil_says_whose_turn_it_is(server, open_page):
    with httpx.Client(base_url=server.url) as client:
        game = create(client, [human("Arthur"), human("Morgan")], seed=11, hotseat=True)
    tokens = ",".join(s["token"] for s in game["seats"])
    page = open_page(f"{server.url}/game/{game['id']}#tokens={tokens}")
    page.wait_for_selector("[data-testid=veil]:not(.hidden)")
    text = page.inner_text("[data-testid=handover]")
    assert "Arthur" in text and "watching" not in page.inner_text("#action")


def test_memory_mode_sends_no_card_history_until_the_end(server, open_page, browser):
    with httpx.Client(base_url=server.url) as client:
        game = create(client, [human("Arthur"), bot()], seed=11, first_player=1, memory=True)
        context = browser.new_context(viewport=LAPTOP)
        page = context.new_page()
        frames: list[dict] = []
        page.on("websocket", lambda ws: ws.on("framereceived", lambda data: frames.append(json.loads(data))))
        page.goto(f"{server.url}/game/{game['id']}#token={game['seats'][0]['token']}")
        for turn in range(2):
            page.wait_for_function("n => document.body?.dataset.turn === 'you' && +document.body?.dataset.move > n",
                                   arg=2 * turn)
            page.wait_for_selector("[data-testid=pass]")
            build_move(page)
        page.wait_for_function("() => +document.body?.dataset.move >= 4")
        states = [f["game"] for f in frames if f.get("type") == "state"]
        entries = [e for s in states for e in s["log"]]
        assert states and all(s["memory"] for s in states) and len(entries) >= 3
        assert {e["notation"] for e in entries} <= {"pass", "card"}
        assert {e["text"] for e in entries} <= {"passes", "plays a card"}
        assert all(len(s["table"]["tops"]) == 2 and len(s["table"]["cards_left"]) == 2 for s in states)
        for path in ("record", "replay/1"):
            refused = client.get(f"/api/games/{game['id']}/{path}")
            assert refused.status_code == 409 and refused.json()["error"] == "memory_mode", refused.text
        assert "card" in page.inner_text("[data-testid=log]")
        context.close()


@pytest.mark.parametrize("locale", ["en-GB", "fr-FR", "de-DE"])
def test_phone_header_shows_the_record_link_whole_beside_the_language_selector(server, browser, locale):
    """At 390 px the table's top bar holds the lobby, rules and record links and the language selector side by
    side, none cut off or under another (the longest names are French and German)."""
    with httpx.Client(base_url=server.url) as client:
        game = create(client, [human("Arthur"), human("Morgan")], seed=11)
    context = browser.new_context(viewport=PHONE, locale=locale)
    try:
        page = context.new_page()
        page.goto(f"{server.url}/game/{game['id']}#token={game['seats'][0]['token']}")
        page.wait_for_selector("[data-testid=language]")
        boxes = page.eval_on_selector_all(
            ".topbar a:not(.brand), .topbar select", "es => es.filter(e => e.offsetParent !== null)"
            ".map(e => { const b = e.getBoundingClientRect(); return [e.dataset.testid, b.left, b.right]; })")
        shown = [name for name, _, _ in boxes]
        assert {"lobby-link", "rules-link", "download", "language"} <= set(shown), shown
        assert all(right <= PHONE["width"] for _, _, right in boxes), boxes
        assert all(a[2] <= b[1] for a, b in zip(boxes, boxes[1:])), boxes  # left to right, none over the next
    finally:
        context.close()


NO_WELSH = ["Garrison Ebo:WR>Rat:S +Ebo:S", "Welsh Dev Dev +Aqu:W"]
"""From seed 1 (2 players): then the stock has no Welsh follower, and Settlements can place none."""


def test_a_follower_the_stock_lacks_is_a_step_of_its_own_not_taken_for_you(server, open_page):
    """Settlements with no Welsh in the stock: the Welsh step shows its only choice, "none (stock empty)", and waits
    for it; a click on the map meant for the Welsh is not taken as the next faction's region."""
    with httpx.Client(base_url=server.url) as client:
        game = create(client, [human("Arthur"), human("Morgan")], seed=1)
        for number, move in enumerate(NO_WELSH):
            play_as(client, game, number % 2, move)
    page = open_page(f"{server.url}/game/{game['id']}#token={game['seats'][0]['token']}")
    page.wait_for_selector("body[data-turn=you] [data-testid=hand-card].playable")
    page.click(f"[data-testid=hand-card][data-card='{int(Card.SETTLEMENTS)}']")
    page.locator("[data-testid=choice][data-kind=region]").first.click()  # the Scots' region
    none = page.locator("[data-testid=choice][data-kind=none]")
    none.wait_for()
    assert none.inner_text() == "none (stock empty)" and page.locator("[data-testid=choice]").count() == 1
    assert page.locator(".crumbs span").count() == 2 and page.locator("[data-testid=auto-note]").count() == 0
    assert page.locator("#map .region.selectable").count() == 0  # nothing on the map to click for the Welsh
    page.locator("#map .region").first.click(force=True)
    assert page.locator(".crumbs span").count() == 2, "a click on the map was taken for another step"
    none.click()
    page.wait_for_function("() => document.querySelectorAll('.crumbs span').length === 3")
    assert page.locator(".crumbs span").nth(2).inner_text() == "none (stock empty)"
    texts = [page.locator("#action .auto-note, #action .notes li").nth(i).inner_text()
             for i in range(page.locator("#action .auto-note, #action .notes li").count())]
    assert not any(a in b for a in texts for b in texts if a is not b), f"a note printed twice: {texts}"
