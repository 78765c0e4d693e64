"""The map of Britain in Debian's headless chromium: regions, cubes, tokens, last-move marks, Mordred flags.

drawMap is driven directly on a page of a real server, with views built here from
real positions, so each check knows exactly what the map must show. Screenshots
of the map (desktop and phone) land in build/test-output/web/.
"""

from __future__ import annotations

import random

import test_browser
from test_browser import LAPTOP, PHONE, shoot
from webtools import OUTPUT

from kingisdead import GameState
from kingisdead.board import MORDRED_FLAGS, NUM_REGIONS
from kingisdead.web.views import board_facts, move_changes, table_view

# the browser tests' fixtures (a real server, Debian's chromium; the module skips without chromium)
server, new_page = test_browser.server, test_browser.new_page

DRAW = """async ([facts, table, ui]) => {
  const { drawMap } = await import('/static/map.js');
  document.body.replaceChildren();
  document.body.style.margin = '0';
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.id = 'board';
  svg.style.width = '100%';
  svg.style.maxHeight = '100vh';
  document.body.appendChild(svg);
  drawMap(svg, facts, table, { ...ui, selectable: new Set(ui.selectable || []), chosen: new Map() });
}"""


def played(state: GameState, seed: int, until) -> tuple[GameState, GameState, object]:
    """Play random moves from ``state`` until ``until(before, after)``: (before, after, move)."""
    rng = random.Random(seed)
    while not state.is_over():
        move = rng.choice(state.legal_moves())
        after = state.after(move)
        if until(state, after):
            return state, after, move
        state = after
    raise AssertionError("the game ended first")


def draw(page, server, table, ui=None):
    if not page.url.startswith(server.url):
        page.goto(f"{server.url}/rules")
    page.evaluate(DRAW, [board_facts(), table, ui or {}])
    return page.locator("#board")


def test_the_map_shows_the_regions_cubes_and_homes_of_a_seeded_game(server, new_page):
    state = GameState.new(3, "standard", 11)
    table = table_view(state, None)
    for viewport, name in ((LAPTOP, "map-desktop"), (PHONE, "map-phone")):
        page = new_page(viewport)
        board = draw(page, server, table)
        regions = board.locator("path.region")
        assert regions.count() == NUM_REGIONS
        assert [regions.nth(r).get_attribute("data-name") for r in range(NUM_REGIONS)] == [
            f["name"] for f in board_facts()["regions"]]
        assert board.locator("text.region-name").all_text_contents() == [f["name"] for f in board_facts()["regions"]]
        for r in range(NUM_REGIONS):
            cubes = board.locator(f"g.region-info[data-region='{r}'] g.cube")
            shown = {int(c.get_attribute("data-kind")): int(c.get_attribute("data-count")) for c in cubes.all()}
            assert shown == {k: n for k, n in enumerate(table["followers"][r]) if n}, r
        homes = board.locator("path.home-symbol")
        assert sorted(int(h.get_attribute("data-faction")) for h in homes.all()) == [0, 1, 2]
        box = board.bounding_box()
        assert box["width"] <= viewport["width"] + 1
        OUTPUT.mkdir(parents=True, exist_ok=True)
        board.screenshot(path=str(OUTPUT / f"{name}.png"))


def test_sixteen_followers_stay_readable_as_counts(server, new_page):
    table = table_view(GameState.new(2, "standard", 3), None)
    table["followers"][2] = [6, 5, 5, 0]
    board = draw(new_page(), server, table)
    counts = [int(c.get_attribute("data-count")) for c in board.locator("g.region-info[data-region='2'] g.cube").all()]
    assert counts == [6, 5, 5]
    assert board.locator("g.region-info[data-region='2'] text.cube-number").all_text_contents() == ["6", "5", "5"]


def test_a_resolution_leaves_its_control_token_and_the_last_move_is_marked(server, new_page):
    before, after, move = played(GameState.new(2, "standard", 5), 5, lambda b, a: a.resolved > b.resolved)
    changes = move_changes(before, after, move)
    table = table_view(after, None)
    page = new_page()
    board = draw(page, server, table, {"marks": changes})
    resolved = [r for r in range(NUM_REGIONS) if table["control"][r] >= 0]
    assert resolved
    tokens = board.locator("g.control-token")
    assert sorted(int(t.get_attribute("data-control")) for t in tokens.all()) == sorted(
        table["control"][r] for r in resolved)
    for r in resolved:  # a resolved region shows its token instead of followers
        assert board.locator(f"g.region-info[data-region='{r}'] g.control-token").count() == 1
        assert board.locator(f"g.region-info[data-region='{r}'] g.cube").count() == 0
    touched = sorted(int(x.get_attribute("data-region")) for x in board.locator("path.region.touched").all())
    assert touched == sorted(changes["touched"]) and touched
    assert board.locator("path.touched-outline").count() == len(touched)
    arrived = sum(1 for counts in changes["arrived"].values() for n in counts if n)
    assert board.locator("g.mark-arrived").count() == arrived
    shoot(page, "map-after-resolution")

    # no marks: nothing outlined
    board = draw(page, server, table)
    assert board.locator("path.region.touched").count() == 0


def test_exchange_swap_and_court_marks_and_dimming(server, new_page):
    table = table_view(GameState.new(2, "standard", 3), None)
    marks = {"touched": [3, 5], "arrived": {"5": [1, 1, 0, 0]}, "left": {"3": [1, 1, 0, 0]},
             "exchange": [3, 5], "swap": [0, 7], "court": {"region": 5, "faction": 1}}
    page = new_page()
    board = draw(page, server, table, {"marks": marks, "selectable": [1, 2], "dim": True})
    assert board.locator("path.mark-exchange").count() == 1
    assert board.locator("path.mark-swap").count() == 1
    assert board.locator("path.mark-swap").get_attribute("marker-start") == "url(#arrow)"
    assert board.locator("g.mark-court[data-region='5'] g.cube.kind-1").count() == 1
    assert board.locator("g.mark-left").count() == 2 and board.locator("g.mark-arrived").count() == 2
    assert sorted(int(x.get_attribute("data-region")) for x in board.locator("path.region.selectable").all()) == [1, 2]
    assert board.locator("path.region.dimmed").count() == NUM_REGIONS - 2
    shoot(page, "map-marks-dimmed")


def test_a_mordred_game_marks_where_each_loyalist_arrives(server, new_page):
    state = GameState.new(2, "mordred", 9)
    page = new_page()
    board = draw(page, server, table_view(state, None))
    flags = {int(f.get_attribute("data-region")): int(f.get_attribute("data-to"))
             for f in board.locator("g.loyalist-flag").all()}
    assert flags == {r: int(MORDRED_FLAGS[r]) for r in range(NUM_REGIONS)}
    assert board.locator("g.loyalist-key").count() == 1
    key = board.locator("g.loyalist-key").text_content()
    assert "Aqu = Aquae Sulis" in key and "Din = Din Eidyn" in key and "a Loyalist to the region" in key  # in words
    deva = board.locator("g.loyalist-flag[data-region='3'] title").text_content()
    assert deva == "Resolving Deva adds a Loyalist to Aquae Sulis"
    shoot(page, "map-mordred")

    _, after, _ = played(state, 9, lambda b, a: a.resolved > b.resolved)
    table = table_view(after, None)
    board = draw(page, server, table)
    shown = {int(f.get_attribute("data-region")) for f in board.locator("g.loyalist-flag").all()}
    assert shown == {r for r in range(NUM_REGIONS) if table["control"][r] < 0}
    # a standard game has no Loyalist flags
    board = draw(page, server, table_view(GameState.new(2, "standard", 9), None))
    assert board.locator("g.loyalist-flag").count() == 0 and board.locator("g.loyalist-key").count() == 0
