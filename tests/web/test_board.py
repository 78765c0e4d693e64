"""The board in Debian's headless chromium: regions in their colours, banners, pieces, tokens, the struggle
order, the stock and the Saxon track on the board, targets lit and clickable there, last-move marks, Mordred.

drawBoard is driven directly on a page of a real server, with views built here from real positions and the
edition's board.json, so each check knows exactly what the board must show. Screenshots of the board (start,
mid-game, desktop and phone) land in build/test-output/web/.
"""

from __future__ import annotations

import json
import random
from importlib.resources import files

import test_browser
from test_browser import LAPTOP, PHONE, shoot
from webtools import OUTPUT

from kingisdead import GameState
from kingisdead.board import MORDRED_FLAGS, NUM_REGIONS
from kingisdead.edition import SECOND
from kingisdead.web.views import board_facts, move_changes, table_view

# the browser tests' fixtures (a real server, Debian's chromium; the module skips without chromium)
new_page = test_browser.new_page

BOARD = json.loads((files("kingisdead.web") / "static" / "editions" / "first" / "board.json").read_text())

DRAW = """async ([facts, table, ui]) => {
  const { drawBoard } = await import('/static/board.js');
  const { loadEdition } = await import('/static/edition.js');
  const board = (await loadEdition(facts.edition)).board;
  if (!document.querySelector('link[href="/static/board.css"]')) {
    const link = Object.assign(document.createElement('link'), { rel: 'stylesheet', href: '/static/board.css' });
    const loaded = new Promise((done) => { link.onload = done; });
    document.head.appendChild(link);
    await loaded;
  }
  let svg = document.getElementById('board');
  if (!svg) {
    document.body.replaceChildren();
    document.body.style.margin = '0';
    svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
    svg.id = 'board';
    svg.style.width = '100%';
    svg.style.maxHeight = '100vh';
    document.body.appendChild(svg);
  }
  window.clicked = [];
  drawBoard(svg, facts, board, table, { ...ui, selectable: new Set(ui.selectable || []), chosen: new Map(ui.chosen || []),
    onRegion: (r) => window.clicked.push(r) });
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


def draw(page, server, table, ui=None, facts=None):
    if not page.url.startswith(server.url):
        page.goto(f"{server.url}/rules")
    page.evaluate(DRAW, [facts or board_facts(), table, ui or {}])
    return page.locator("#board")


def overlaps(a: dict, b: dict) -> bool:
    return (a["x"] < b["x"] + b["width"] and b["x"] < a["x"] + a["width"]
            and a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"])


def test_the_board_shows_each_region_in_its_colour_with_its_banner_pieces_and_homes(server, new_page):
    state = GameState.new(3, "standard", 11)
    table = table_view(state, None)
    facts = board_facts()
    for viewport, name in ((LAPTOP, "board-desktop-start"), (PHONE, "board-phone-start")):
        page = new_page(viewport)
        board = draw(page, server, table)
        regions = board.locator("path.region")
        assert regions.count() == NUM_REGIONS
        assert [regions.nth(r).get_attribute("data-name") for r in range(NUM_REGIONS)] == [f["name"] for f in facts["regions"]]
        assert [regions.nth(r).get_attribute("fill") for r in range(NUM_REGIONS)] == [p["colour"] for p in BOARD["places"]]
        assert len({p["colour"] for p in BOARD["places"]}) == NUM_REGIONS
        assert board.locator("g.ribbon text.region-name").all_text_contents() == [f["name"] for f in facts["regions"]]
        positions = {r: i + 1 for i, r in enumerate(table["order"])}
        seals = board.locator("g.ribbon .position-number").all_text_contents()
        assert seals == [str(positions[r]) for r in range(NUM_REGIONS)]
        for r in range(NUM_REGIONS):
            cubes = board.locator(f"g.region-info[data-region='{r}'] g.cube")
            shown = {int(c.get_attribute("data-kind")): int(c.get_attribute("data-count")) for c in cubes.all()}
            assert shown == {k: n for k, n in enumerate(table["followers"][r]) if n}, r
            for c in cubes.all():  # the count on the piece, and its faction's mark as well as its colour
                kind = int(c.get_attribute("data-kind"))
                assert c.locator("text.cube-number").text_content() == c.get_attribute("data-count")
                assert c.locator(f".mark-{BOARD['factions'][kind]['mark']}").count() == 1
        homes = board.locator("g.home-shield")
        assert sorted(int(h.get_attribute("data-faction")) for h in homes.all()) == [0, 1, 2]
        key = [row.get_attribute("data-mark") for row in board.locator("g.faction-key g.key-row").all()]
        assert key == ["saltire", "triangle", "circle", "axes"]
        assert board.locator("g.faction-key").text_content() == "ScotsWelshRomano-BritishSaxons"
        box = board.bounding_box()
        assert box["width"] <= viewport["width"] + 1
        _, _, width, height = map(float, board.get_attribute("viewBox").split())
        assert 0.62 <= width / height <= 0.72  # the table's layout is made for this shape
        OUTPUT.mkdir(parents=True, exist_ok=True)
        board.screenshot(path=str(OUTPUT / f"{name}.png"))


def test_the_struggle_order_stock_and_saxon_track_are_on_the_board(server, new_page):
    before, after, _ = played(GameState.new(2, "standard", 5), 5,
                              lambda b, a: a.resolved >= 3 and any(c >= 0 for c in table_view(a, None)["crowns"]))
    table = table_view(after, None)
    page = new_page()
    board = draw(page, server, table, {"marks": move_changes(before, after, _)})
    cards = board.locator("[data-testid=region-card]")
    assert [int(c.get_attribute("data-region")) for c in cards.all()] == table["order"]
    for position, region in enumerate(table["order"]):
        card = cards.nth(position)
        classes = card.get_attribute("class").split()
        assert card.locator(".card-name").text_content() == board_facts()["regions"][region]["name"]
        assert card.locator(".card-position").text_content() == str(position + 1)
        assert ("contested" in classes) == (table["contested"] == region)
        assert ("resolved" in classes) == (table["control"][region] >= 0)
        tokens = card.locator("g.control-token")
        assert [int(x.get_attribute("data-control")) for x in tokens.all()] == (
            [table["control"][region]] if table["control"][region] >= 0 else [])
        assert card.locator("g.seat-token[data-glyph=crown]").count() == (1 if table["crowns"][region] >= 0 else 0)
    piles = {int(p.get_attribute("data-kind")): int(p.get_attribute("data-count")) for p in board.locator("[data-testid=stock-pile]").all()}
    assert piles == dict(enumerate(table["stock"][:3]))
    assert board.locator("[data-testid=stock-pile] text.stock-count").all_text_contents() == [str(n) for n in table["stock"][:3]]
    slots = board.locator("[data-testid=invader-slot]")
    assert slots.count() == 4
    assert board.locator("[data-testid=invader-slot].filled").count() == table["saxons"]
    assert board.locator("[data-testid=invader-slot] g.invader-token").count() == table["saxons"]
    assert board.locator("[data-testid=invader-track] text.board-title").text_content() == "Saxons"
    shoot(page, "board-desktop-mid")
    board.screenshot(path=str(OUTPUT / "board-mid.png"))


def test_the_second_editions_board_draws_its_names_france_and_negotiation_discs(server, new_page):
    facts = board_facts(SECOND)
    second = json.loads((files("kingisdead.web") / "static" / "editions" / "second" / "board.json").read_text())
    table = table_view(GameState.new(2, "standard", 5), None)
    order = table["order"]
    table["control"][order[0]], table["control"][order[1]] = 4, 2  # one region unstable, one English
    table["resolved"], table["saxons"], table["contested"] = 2, 1, order[2]
    table["crowns"][order[3]] = 1  # player 2's negotiation disc on a region card
    page = new_page()
    board = draw(page, server, table, facts=facts)
    names = ["Moray", "Strathclyde", "Northumbria", "Lancaster", "Gwynedd", "Warwick", "Essex", "Devon"]
    assert board.locator("g.ribbon text.region-name").all_text_contents() == names
    assert [board.locator("path.region").nth(r).get_attribute("fill") for r in range(NUM_REGIONS)] == [
        p["colour"] for p in second["places"]]
    # France: three slots, the discs start there and one has left it for the unstable region
    track = board.locator("[data-testid=invader-track]")
    assert track.get_attribute("data-fill") == "left"
    assert track.locator("text.board-title").text_content() == "France"
    assert track.locator("[data-testid=invader-slot]").count() == 3
    assert track.locator("[data-testid=invader-slot].filled").count() == 2
    assert track.locator("g.invader-token .mark-bolt").count() == 2
    assert board.locator(f"g.region-info[data-region='{order[0]}'] g.control-token[data-control='4'] .mark-bolt").count() == 1
    disc = board.locator(f"[data-testid=region-card][data-region='{order[3]}'] g.seat-token")
    assert disc.get_attribute("data-glyph") == "disc" and disc.get_attribute("data-player") == "1"
    assert disc.locator("title").text_content() == "Negotiation disc of player 2"
    assert board.locator("g.seat-token .crown-glyph").count() == 0
    key = [row.get_attribute("data-mark") for row in board.locator("g.faction-key g.key-row").all()]
    assert key == ["saltire", "triangle", "cross", "bolt"]
    assert board.locator("g.faction-key").text_content() == "ScottishWelshEnglishInstability"
    assert "North Sea" in board.locator("text.map-sea-label").all_text_contents()
    shoot(page, "board-second-edition")
    board.screenshot(path=str(OUTPUT / "board-second-edition.png"))


def test_region_cards_asked_for_are_lit_and_answer_clicks_and_keys(server, new_page):
    table = table_view(GameState.new(2, "standard", 3), None)
    page = new_page()
    board = draw(page, server, table, {"selectable": [2, 6], "dim": True})
    lit = board.locator("[data-testid=region-card].selectable")
    assert sorted(int(c.get_attribute("data-region")) for c in lit.all()) == [2, 6]
    assert all(c.get_attribute("tabindex") == "0" and c.get_attribute("role") == "button" for c in lit.all())
    assert "Eboracum" in board.locator("[data-testid=region-card][data-region='2']").get_attribute("aria-label")
    assert board.locator("[data-testid=region-card].dimmed").count() == NUM_REGIONS - 2
    board.locator("[data-testid=region-card][data-region='6']").click()
    board.locator("[data-testid=region-card][data-region='2']").focus()
    page.keyboard.press("Enter")
    board.locator("path.region[data-region='2']").click()
    board.locator("[data-testid=region-card][data-region='0']").click(force=True)  # not asked for: no answer
    assert page.evaluate("window.clicked") == [6, 2, 2]
    assert board.locator("path.region.selectable[tabindex='0'][role=button]").count() == 2


def test_a_resolution_leaves_its_control_token_and_the_last_move_is_marked(server, new_page):
    before, after, move = played(GameState.new(2, "standard", 5), 5, lambda b, a: a.resolved > b.resolved)
    changes = move_changes(before, after, move)
    table = table_view(after, None)
    page = new_page()
    board = draw(page, server, table, {"marks": changes})
    resolved = [r for r in range(NUM_REGIONS) if table["control"][r] >= 0]
    assert resolved
    for r in resolved:  # a resolved region shows its token instead of followers
        assert board.locator(f"g.region-info[data-region='{r}'] g.control-token").count() == 1
        assert board.locator(f"g.region-info[data-region='{r}'] g.cube").count() == 0
    touched = sorted(int(x.get_attribute("data-region")) for x in board.locator("path.region.touched").all())
    assert touched == sorted(changes["touched"]) and touched
    assert board.locator("path.touched-outline").count() == len(touched)
    assert board.locator("[data-testid=region-card].touched").count() == len(touched)
    arrived = sum(1 for counts in changes["arrived"].values() for n in counts if n)
    assert board.locator("g.mark-arrived").count() == arrived
    shoot(page, "board-after-resolution")
    board = draw(page, server, table)  # no marks: nothing outlined
    assert board.locator("path.region.touched").count() == 0


def test_last_move_marks_never_cover_a_banner(server, new_page):
    table = table_view(GameState.new(4, "mordred", 3), None)
    settlements = {"touched": list(range(NUM_REGIONS)), "arrived": {str(r): [1, 1, 1, 0] for r in range(NUM_REGIONS)},
                   "left": {}, "exchange": None, "swap": [0, 7], "court": None}
    exchanges = {"touched": list(range(NUM_REGIONS)), "arrived": {str(r): [0, 2, 0, 1] for r in range(NUM_REGIONS)},
                 "left": {str(r): [1, 0, 0, 0] for r in range(NUM_REGIONS)}, "exchange": [3, 5], "swap": None,
                 "court": {"region": 5, "faction": 1}}
    page = new_page()
    for marks, badges_drawn, name in ((settlements, 3 * NUM_REGIONS, "board-marks"), (exchanges, 3 * NUM_REGIONS + 1, "board-marks-exchange")):
        board = draw(page, server, table, {"marks": marks})
        assert board.locator("path.mark-swap").count() == (1 if marks["swap"] else 0)
        assert board.locator("path.mark-exchange").count() == (1 if marks["exchange"] else 0)
        badges = [b.bounding_box() for b in board.locator("g.mark-arrived, g.mark-left, g.mark-court").all()]
        assert len(badges) == badges_drawn
        banners = [b.bounding_box() for b in board.locator("g.ribbon").all()]
        assert len(banners) == NUM_REGIONS
        shoot(page, name)
        covered = [(i, j) for i, b in enumerate(badges) for j, r in enumerate(banners) if overlaps(b, r)]
        assert covered == [], name
    assert board.locator("g.mark-court[data-region='5'] g.cube.kind-1").count() == 1
    # the order in which a move being built chose its regions: beside the pieces, off the banners too
    board = draw(page, server, table, {"chosen": [[r, "1,2"] for r in range(NUM_REGIONS)], "selectable": list(range(NUM_REGIONS))})
    labels = [b.bounding_box() for b in board.locator("g.chosen-mark").all()]
    assert len(labels) == NUM_REGIONS
    shoot(page, "board-chosen")
    assert [(i, j) for i, b in enumerate(labels) for j, r in enumerate(banners) if overlaps(b, r)] == []


def test_a_hand_cards_targets_are_lit(server, new_page):
    table = table_view(GameState.new(2, "standard", 3), None)
    page = new_page()
    page.goto(f"{server.url}/rules")
    page.evaluate(DRAW.replace("...ui,", "...ui, lit: { regions: new Set([1, 4]), followers: new Map([[1, new Set([0])]]) },"),
                  [board_facts(), table, {}])
    board = page.locator("#board")
    assert sorted(int(x.get_attribute("data-region")) for x in board.locator("path.region.lit").all()) == [1, 4]
    assert board.locator("path.lit-outline").count() == 2
    assert [int(c.get_attribute("data-kind")) for c in board.locator("g.region-info[data-region='1'] g.cube.lit").all()] == [0]


def test_sixteen_followers_stay_readable_as_counts(server, new_page):
    table = table_view(GameState.new(2, "standard", 3), None)
    table["followers"][2] = [6, 5, 5, 0]
    board = draw(new_page(), server, table)
    counts = [int(c.get_attribute("data-count")) for c in board.locator("g.region-info[data-region='2'] g.cube").all()]
    assert counts == [6, 5, 5]
    assert board.locator("g.region-info[data-region='2'] text.cube-number").all_text_contents() == ["6", "5", "5"]


# The regions under the Mordred key: points of its box, in the board's units, inside a region's shape.
KEY_ON_LAND = """svg => {
  const key = svg.querySelector("g.loyalist-key"), box = key.querySelector("rect");
  const [dx, dy] = key.getAttribute("transform").match(/[-\\d.]+/g).map(Number);
  const [w, h] = [Number(box.getAttribute("width")), Number(box.getAttribute("height"))];
  const under = new Set();
  for (let x = 0; x <= w; x += 2) for (let y = 0; y <= h; y += 2)
    for (const region of svg.querySelectorAll("path.region"))
      if (region.isPointInFill(new DOMPoint(dx + x, dy + y))) under.add(region.dataset.name);
  return [...under];
}"""


def test_a_mordred_game_shows_the_loyalists_and_where_each_arrives(server, new_page):
    state = GameState.new(2, "mordred", 9)
    page = new_page()
    table = table_view(state, None)
    board = draw(page, server, table)
    flags = {int(f.get_attribute("data-region")): int(f.get_attribute("data-to"))
             for f in board.locator("g.loyalist-flag").all()}
    assert flags == {r: int(MORDRED_FLAGS[r]) for r in range(NUM_REGIONS)}
    key = board.locator("g.loyalist-key").text_content()
    assert "Aqu = Aquae Sulis" in key and "Din = Din Eidyn" in key and "a Loyalist is added to Aquae Sulis" in key
    # the key stays on the sea: it covers no region (it once sat on the Hebrides)
    assert board.evaluate(KEY_ON_LAND) == []
    deva = board.locator("g.loyalist-flag[data-region='3'] title").text_content()
    assert deva == "Resolving Deva adds a Loyalist to Aquae Sulis"
    assert [row.get_attribute("data-mark") for row in board.locator("g.faction-key g.key-row").all()][3] == "diamond"
    assert board.locator("[data-testid=stock-pile]").count() == 4
    loyalists = board.locator("g.region-info g.cube.kind-3")
    assert [int(c.get_attribute("data-count")) for c in loyalists.all()] == [n[3] for n in table["followers"] if n[3]]
    shoot(page, "board-mordred")
    # a standard game has no Loyalist flags
    board = draw(page, server, table_view(GameState.new(2, "standard", 9), None))
    assert board.locator("g.loyalist-flag").count() == 0 and board.locator("g.loyalist-key").count() == 0


def test_the_pieces_of_a_move_drop_in_once_and_never_under_reduced_motion(server, new_page):
    table = table_view(GameState.new(2, "standard", 3), None)
    region = next(r for r in range(NUM_REGIONS) if table["followers"][r][0])
    marks = {"touched": [region], "arrived": {str(region): [1, 0, 0, 0]}, "left": {}, "exchange": None, "swap": None,
             "court": None}
    page = new_page()
    page.emulate_media(reduced_motion="no-preference")  # the tests' pages ask for reduced motion
    board = draw(page, server, table, {"marks": marks})
    arriving = board.locator("g.cube.arriving")
    assert [(int(c.get_attribute("data-kind")), c.evaluate("c => c.closest('[data-region]').dataset.region")) for c in arriving.all()] == [
        (0, str(region))]
    animated = arriving.evaluate("c => getComputedStyle(c.firstElementChild).animationName")
    assert animated == "board-drop"
    assert board.locator("g.cube.arriving").count() == 1
    board = draw(page, server, table, {"marks": marks})  # the same move redrawn (a click, a new view): no replay
    assert board.locator("g.cube.arriving").count() == 0
    board = draw(page, server, table, {})  # a move being built, then back to the same last move: no replay
    board = draw(page, server, table, {"marks": marks})
    assert board.locator("g.cube.arriving").count() == 0
    page.emulate_media(reduced_motion="reduce")
    board = draw(page, server, table, {"marks": {**marks, "touched": [region, region]}})
    assert board.locator("g.cube.arriving").count() == 0


def test_a_piece_drawn_off_the_board_keeps_its_colour_and_mark(server, new_page):
    """Courts and card pictograms draw pieces with cube() on pages without board.css."""
    page = new_page()
    page.goto(f"{server.url}/rules")
    faces = page.evaluate("""async () => {
      const { cube, useBoard } = await import('/static/board.js');
      const { loadEdition } = await import('/static/edition.js');
      useBoard((await loadEdition('first')).board);
      const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
      document.body.appendChild(svg);
      const piece = cube(svg, 0, 0, 1, 12);
      return [...piece.children].map((node) => [node.getAttribute('class'), getComputedStyle(node).fill]);
    }""")
    assert faces[0] == [None, "rgb(200, 54, 47)"]  # the Welsh red of board.json
    assert faces[-1] == ["cube-edge", "none"]  # the edges do not paint over it
    assert ["mark mark-triangle", "none"] in faces
