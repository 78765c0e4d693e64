"""One screen at every size, in Debian's headless chromium: the table's parts in view without scrolling.

At 1920x1080, 1440x900 and 1366x768 the board, the hand, the prompt, every player's court and top
card and the last moves are all in view and the page does not scroll; on a 390x844 phone the board,
the hand and the prompt are in view while the player is to move, the board zooms, and the result is
in view at the end. The screenshots of each size, language and moment (start, mid-move, end) land
in build/test-output/web/screenshots/layout/ (docs/img holds copies).
"""

from __future__ import annotations

import time

import httpx
import pytest
from test_end_screen import finished_game
from webtools import OUTPUT, Server, bot, create, human

DESKTOPS = {"1920x1080": (1920, 1080), "1440x900": (1440, 900), "1366x768": (1366, 768)}
PHONE = (390, 844)
SHOTS = OUTPUT / "screenshots" / "layout"

# The part of `node` that is visible: inside the window and inside every scrolling box around it.
VISIBLE = """node => {
  let r = node.getBoundingClientRect();
  let box = { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
  for (let p = node.parentElement; p; p = p.parentElement) {
    const style = getComputedStyle(p);
    if (style.display === "contents" || !/(auto|scroll|hidden)/.test(style.overflowX + style.overflowY)) continue;
    const c = p.getBoundingClientRect();
    box = { left: Math.max(box.left, c.left), top: Math.max(box.top, c.top),
            right: Math.min(box.right, c.right), bottom: Math.min(box.bottom, c.bottom) };
  }
  box = { left: Math.max(box.left, 0), top: Math.max(box.top, 0),
          right: Math.min(box.right, innerWidth), bottom: Math.min(box.bottom, innerHeight) };
  const shown = Math.max(0, box.right - box.left) * Math.max(0, box.bottom - box.top);
  return { shown, whole: r.width * r.height };
}"""


def shown_whole(locator) -> bool:
    """Every element of ``locator`` shown whole (at least 98% of its area), none hidden."""
    assert locator.count(), "nothing matched"
    for i in range(locator.count()):
        seen = locator.nth(i).evaluate(VISIBLE)
        if not seen["whole"] or seen["shown"] < 0.98 * seen["whole"]:
            print(f"not in view: {locator} #{i}: {seen}, its box {locator.nth(i).bounding_box()}")
            return False
    return True


def in_view(locator, seconds: float = 5.0) -> bool:
    """``shown_whole``, given a few seconds: a view arriving over the socket redraws the panels meanwhile."""
    deadline = time.monotonic() + seconds
    while not shown_whole(locator):
        if time.monotonic() > deadline:
            return False
        locator.page.wait_for_timeout(100)
    return True


def page_scrolls(page) -> bool:
    return page.evaluate("() => { const s = document.scrollingElement;"
                         " return s.scrollHeight > innerHeight + 1 || s.scrollWidth > innerWidth + 1; }")



@pytest.fixture(scope="module")
def games(server: Server) -> dict[str, dict]:
    with httpx.Client(base_url=server.url) as http:
        two = create(http, [human("You"), bot("random")], seed=7)
        four = create(http, [human("You"), bot("random"), bot("random"), bot("random")], seed=3)
    ended, _ = finished_game(server, 2, seed=5)
    return {"two": two, "four": four, "ended": ended}


def open_table(browser, server: Server, game: dict, size: tuple[int, int], locale: str = "en-GB", ended: bool = False):
    width, height = size
    phone = width < 500
    context = browser.new_context(viewport={"width": width, "height": height}, locale=locale,
                                  reduced_motion="reduce", is_mobile=phone, has_touch=phone)
    context.set_default_timeout(30_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{server.url}/game/{game['id']}#token={game['seats'][0]['token']}")
    if ended:
        page.wait_for_selector("[data-testid=result-explanation]")
    else:
        page.wait_for_selector("body[data-turn=you] [data-testid=hand-card].playable")
    # the layout settled: fonts in, two frames drawn
    page.evaluate("() => document.fonts.ready.then(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))))")
    page.errors = errors
    return context, page


@pytest.mark.parametrize("size", list(DESKTOPS))
def test_the_whole_table_is_on_one_screen(browser, server, games, size):
    for players in ("two", "four") if size == "1366x768" else ("two",):
        context, page = open_table(browser, server, games[players], DESKTOPS[size])
        assert not page_scrolls(page), f"the page scrolls at {size}"
        assert in_view(page.locator("#map")), "the board"
        assert in_view(page.locator("[data-testid=hand-card]")), "every hand card"
        assert in_view(page.locator("[data-testid=prompt]")), "the prompt"
        assert page.locator("[data-testid=player]").count() == (2 if players == "two" else 4)
        assert in_view(page.locator("[data-testid=player] .court")), "every court"
        assert in_view(page.locator("[data-testid=player] .top-card")), "every top card"
        assert in_view(page.locator("[data-testid=last-moves]")), "the last moves"
        # the board's parts keep their own sizes beside the page's styles (a card face's CSS once stretched them)
        assert in_view(page.locator("#map [data-testid=region-card]")), "the struggle order on the board"
        cards = [page.locator("#map [data-testid=region-card]").nth(i).bounding_box() for i in range(8)]
        assert all(a["y"] + a["height"] <= b["y"] + 0.5 for a, b in zip(cards, cards[1:])), "region cards overlap"
        # halfway through a move the choices and the board stay on the screen too
        page.locator("[data-testid=hand-card].playable").first.click()
        page.wait_for_selector("[data-testid=choice], [data-testid=confirm]")
        assert not page_scrolls(page)
        assert in_view(page.locator("#map")) and in_view(page.locator("[data-testid=prompt]"))
        assert page.errors == []
        context.close()


def test_a_phone_shows_the_board_the_hand_and_the_prompt_and_zooms(browser, server, games):
    context, page = open_table(browser, server, games["two"], PHONE)
    assert in_view(page.locator("#map")), "the board, whole"
    assert in_view(page.locator("[data-testid=prompt]"))
    assert in_view(page.locator("[data-testid=hand-card]").first)
    view = page.locator("[data-testid=board-view]")
    width = page.locator("#map").bounding_box()["width"]
    page.click("[data-testid=zoom-in]")
    assert view.get_attribute("data-zoom") == "1.6"
    assert page.locator("#map").bounding_box()["width"] == pytest.approx(1.6 * width, rel=0.02)
    assert view.evaluate("v => v.scrollWidth > v.clientWidth && v.scrollHeight > v.clientHeight"), "it pans"
    # a region clicked on the zoomed board: the Crown's region card to swap, chosen on the map
    page.locator("[data-testid=hand-card][data-card='0']").click()
    region = page.locator("#map .region.selectable").first
    region.scroll_into_view_if_needed()
    steps = page.locator(".crumbs span").count()
    region.click()
    page.wait_for_function("n => document.querySelectorAll('.crumbs span').length > n", arg=steps)
    page.click("[data-testid=zoom-out]")
    assert view.get_attribute("data-zoom") == "1"
    assert page.locator("#map").bounding_box()["width"] == pytest.approx(width, rel=0.02)
    assert page.errors == []
    context.close()


@pytest.mark.parametrize("size", [*DESKTOPS, "phone"])
def test_the_result_is_in_view_at_the_end(browser, server, games, size):
    context, page = open_table(browser, server, games["ended"], DESKTOPS.get(size, PHONE), ended=True)
    assert in_view(page.locator("[data-testid=result] h2"))
    if size != "phone":
        assert not page_scrolls(page) and in_view(page.locator("#map"))
    assert page.errors == []
    context.close()


SCREENSHOT_SIZES = {"en-GB": [*DESKTOPS, "390x844"], "fr-FR": ["1440x900", "390x844"], "de-DE": ["1920x1080", "390x844"]}
"""Every size in English; the phone (the narrowest, where longer words wrap first) in French and German, with a
laptop in French and the largest screen in German: the sizes of docs/img's copies."""


@pytest.mark.parametrize("locale", list(SCREENSHOT_SIZES))
def test_screenshots_at_each_size_and_moment(browser, server, games, locale):
    """Start, mid-move and end at the language's sizes (copied to docs/img by hand)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    language = locale[:2]
    for size in SCREENSHOT_SIZES[locale]:
        dimensions = DESKTOPS.get(size, PHONE)
        context, page = open_table(browser, server, games["two"], dimensions, locale)
        assert page.locator("html").get_attribute("lang") == language
        page.screenshot(path=str(SHOTS / f"table-{size}-{language}-start.jpg"), type="jpeg", quality=70)
        page.locator("[data-testid=hand-card].playable").first.click()
        page.wait_for_selector("[data-testid=choice], [data-testid=confirm]")
        page.screenshot(path=str(SHOTS / f"table-{size}-{language}-mid-move.jpg"), type="jpeg", quality=70)
        context.close()
        context, page = open_table(browser, server, games["ended"], dimensions, locale, ended=True)
        page.screenshot(path=str(SHOTS / f"table-{size}-{language}-end.jpg"), type="jpeg", quality=70)
        assert page.errors == []
        context.close()


def test_a_follower_is_chosen_by_clicking_its_piece_on_the_board(browser, server, games):
    context, page = open_table(browser, server, games["two"], DESKTOPS["1440x900"])
    page.locator("[data-testid=hand-card][data-card='1']").click()  # the Garrison: a region, then its followers
    assert page.locator("#map .cube.selectable").count() == 0, "no piece to choose before the region"
    page.locator("#map .region.selectable").first.click()
    pieces = page.locator("#map .cube.selectable")
    pieces.first.wait_for()
    region = page.locator(".crumbs span").last.inner_text()
    # the pieces lit are those of the region just chosen, of the kinds the step offers as buttons
    offered = {int(b.get_attribute("data-value")) for b in page.locator("[data-testid=choice][data-kind=faction]").all()}
    assert {int(p.get_attribute("data-piece")) for p in pieces.all()} == offered
    assert in_view(pieces)
    kind = pieces.first.get_attribute("data-piece")
    label = page.locator(f"[data-testid=choice][data-kind=faction][data-value='{kind}']").inner_text().strip()
    steps = page.locator(".crumbs span").count()
    pieces.first.click()
    page.wait_for_function("n => document.querySelectorAll('.crumbs span').length > n", arg=steps)
    assert region and page.locator(".crumbs span").nth(steps).inner_text().strip() == label
    assert page.errors == []
    context.close()


HAND_BOXES = """() => Object.fromEntries([...document.querySelectorAll('[data-testid=hand-card]')].map((card) => {
  const r = card.getBoundingClientRect();
  return [card.dataset.card, [Math.round(r.x), Math.round(r.y)]];
}))"""


@pytest.mark.parametrize("size", ["1440x900", "1366x768"])
def test_nothing_under_the_pointer_moves_after_confirm(browser, server, size):
    """Confirm takes the move's controls away, below the hand: the cards left stay where they were (the card played
    out leaves its place empty) and no card slides under the pointer, where its tooltip would open."""
    with httpx.Client(base_url=server.url) as http:
        game = create(http, [human("You"), human("Other")], seed=7)
    context, page = open_table(browser, server, game, DESKTOPS[size])
    single = page.locator("[data-testid=hand-card].playable:not(:has([data-testid=card-count]))").first
    played = single.get_attribute("data-card")
    single.click()
    while not page.locator("[data-testid=confirm]").count():
        steps = page.locator(".crumbs span").count()
        page.locator("[data-testid=choice]").first.click()
        page.wait_for_function("n => document.querySelectorAll('.crumbs span').length > n"
                               " || document.querySelector('[data-testid=confirm]')", arg=steps)
    before = page.evaluate(HAND_BOXES)
    confirm = page.locator("[data-testid=confirm]").bounding_box()
    pointer = (confirm["x"] + confirm["width"] / 2, confirm["y"] + confirm["height"] / 2)
    page.mouse.move(*pointer)
    page.mouse.down()
    page.mouse.up()
    page.wait_for_selector("body[data-turn=wait]")
    after = page.evaluate(HAND_BOXES)
    assert played in before and played not in after
    assert after == {card: box for card, box in before.items() if card != played}, "a hand card moved"
    assert page.locator("[data-testid=card-slot]").count() == 1  # the card played out leaves its place
    under = page.evaluate("([x, y]) => { const node = document.elementFromPoint(x, y);"
                          " return node ? node.closest('[data-testid=hand-card], .card-face') !== null : false; }",
                          list(pointer))
    assert not under, "a card slid under the pointer"
    assert page.errors == []
    context.close()


# Whether the middle of `node` is `node` itself or inside it: nothing (the phone's bar, a badge) lies over it.
UNCOVERED = """node => { if (node === null) return false;
  const r = node.getBoundingClientRect();
  const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return top !== null && node.contains(top); }"""
# The preview badge over a title of the board (the struggle order's) or one of the struggle order's region cards.
FLAG_OVER_ORDER = """() => {
  const flag = document.getElementById('preview-flag').getBoundingClientRect();
  return [...document.querySelectorAll('#map .board-title, #map [data-testid=region-card]')].some((node) => {
    const r = node.getBoundingClientRect();
    return flag.left < r.right && r.left < flag.right && flag.top < r.bottom && r.top < flag.bottom; });
}"""


def test_a_phone_keeps_the_turn_line_in_sight_through_a_move(browser, server):
    """The move's bar at the bottom grows with the move's steps; the turn line stays above it, uncovered, and the
    move's preview badge covers none of the struggle order."""
    with httpx.Client(base_url=server.url) as http:
        game = create(http, [human("You"), human("Other")], seed=7)
    context, page = open_table(browser, server, game, PHONE)
    turn = page.locator("[data-testid=turn-text]")
    # once the table has settled (a clean-clone run under load caught it covered while the page was still drawing);
    # a line covered for good still fails here
    page.wait_for_function(f"({UNCOVERED})(document.querySelector('[data-testid=turn-text]'))", timeout=10_000)
    page.locator("[data-testid=hand-card][data-card='0']").click()  # the Crown: three steps, a tall bar
    page.wait_for_selector("[data-testid=choice]")
    while not page.locator("[data-testid=confirm]").count():
        assert turn.evaluate(UNCOVERED), f"at step {page.locator('.crumbs span').count()}"
        assert in_view(page.locator("#map")), "the board, whole, between the turn line and the bar"
        steps = page.locator(".crumbs span").count()
        page.locator("[data-testid=choice]").first.click()
        page.wait_for_function("n => document.querySelectorAll('.crumbs span').length > n"
                               " || document.querySelector('[data-testid=confirm]')", arg=steps)
    page.wait_for_selector("[data-testid=preview-flag]:not(.hidden)")
    assert turn.evaluate(UNCOVERED), "with the move complete"
    assert not page.evaluate(FLAG_OVER_ORDER)
    assert page.errors == []
    context.close()


def test_four_players_at_a_laptop_size_each_whole_with_their_name(browser, server):
    """1440x900, four players with levelled bots: every name whole (once cut to "intermedia…"), the players in view
    without scrolling their panel, the log a few lines tall, the preview badge off the struggle order."""
    with httpx.Client(base_url=server.url) as http:
        game = create(http, [human("You"), bot("intermediate"), bot("intermediate"), bot("intermediate")], seed=3,
                      variant="mordred")
    context, page = open_table(browser, server, game, DESKTOPS["1440x900"])
    names = page.locator("[data-testid=player] .name")
    assert names.count() == 4
    for i in range(4):
        assert names.nth(i).evaluate("n => n.scrollWidth <= n.clientWidth"), names.nth(i).inner_text()
        assert "intermediate bot" in names.nth(i).inner_text() or i == 0
    # a bot's level is said once: in its name, not again in a tag
    assert "bot: intermediate" not in page.locator("#players").inner_text()
    page.locator("[data-testid=hand-card][data-card='0']").click()
    while not page.locator("[data-testid=confirm]").count():
        steps = page.locator(".crumbs span").count()
        page.locator("[data-testid=choice]").first.click()
        page.wait_for_function("n => document.querySelectorAll('.crumbs span').length > n"
                               " || document.querySelector('[data-testid=confirm]')", arg=steps)
    page.wait_for_selector("[data-testid=preview-flag]:not(.hidden)")
    assert not page.evaluate(FLAG_OVER_ORDER)
    assert page.locator("#players").evaluate("p => p.scrollHeight <= p.clientHeight + 1"), "the players scroll"
    assert in_view(page.locator("[data-testid=player] .court")) and in_view(page.locator("[data-testid=player] .head"))
    assert page.locator(".log").evaluate("n => n.clientHeight") >= 100, "the log, a strip"
    assert not page_scrolls(page)
    assert page.errors == []
    context.close()


def test_the_tables_first_load_weighs_at_most_100_kib(browser, server):
    """What a player's browser fetches before it can play, cold, over the wire (gzip as served, headers included):
    at most 100 KiB and 200 KiB decoded, the budget docs/performance.md measures against (131.5 KiB before the
    scripts were minified and the view fetched once). The benchmark (bench_table_paint.py) says what takes it."""
    with httpx.Client(base_url=server.url) as http:
        game = create(http, [human("You"), human("Other")], seed=11)
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
    wire: dict[str, int] = {}
    decoded: dict[str, int] = {}
    cdp.on("Network.loadingFinished", lambda e: wire.__setitem__(e["requestId"], int(e["encodedDataLength"])))
    cdp.on("Network.dataReceived", lambda e: decoded.__setitem__(e["requestId"],
                                                                 decoded.get(e["requestId"], 0) + e["dataLength"]))
    page.goto(f"{server.url}/game/{game['id']}#token={game['seats'][0]['token']}")
    page.wait_for_selector("body[data-turn=you] [data-testid=hand-card].playable")
    page.wait_for_load_state("networkidle")
    assert len(wire) >= 15, wire  # the page, its scripts, style sheets, board data and view were all counted
    assert sum(wire.values()) <= 100 * 1024, f"{sum(wire.values()) / 1024:.1f} KiB over the wire"
    assert sum(decoded.values()) <= 200 * 1024, f"{sum(decoded.values()) / 1024:.1f} KiB decoded"
    context.close()
