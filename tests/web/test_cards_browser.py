"""The action cards' faces (static/cards.js) in Debian's headless chromium.

The faces are drawn from each edition's cards.json on a page of a real server; screenshots of every
face and of the hand land in build/test-output/web/ (card-<key>.png, cards-<edition>.png, hand-*.png).
"""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import test_browser
from test_browser import LAPTOP, PHONE, shoot, wait_for_turn
from webtools import OUTPUT, auth, bot, create, hand_settled, human

from kingisdead.edition import SECOND
from kingisdead.web.views import board_facts

new_page = test_browser.new_page

EDITIONS = Path(__file__).resolve().parents[2] / "src" / "kingisdead" / "web" / "static" / "editions"

# Every face of an edition's cards.json side by side, at the hand's size and the smaller ones.
SHEET = """async ([facts, edition]) => {
  const { cardFace } = await import('/static/cards.js');
  const { useBoard } = await import('/static/board.js');  // the factions' colours and marks: the first edition's
  useBoard(await (await fetch('/static/editions/first/board.json')).json());
  // cards.json alone: the sheet needs no board
  const cards = await (await fetch(`/static/editions/${edition}/cards.json`)).json();
  const link = document.createElement('link');
  link.rel = 'stylesheet'; link.href = '/static/cards.css';
  const loaded = new Promise((done) => { link.onload = done; });
  document.head.append(link);
  await loaded;
  document.body.replaceChildren();
  document.body.style.cssText = 'margin:0;padding:12px;background:#f6efdc';
  const row = (size) => {
    const div = document.createElement('div');
    div.className = 'sheet-' + size;
    div.style.cssText = 'display:flex;gap:10px;margin-bottom:12px;align-items:flex-end';
    facts.card_keys.forEach((key, card) => div.append(cardFace(card, facts, cards, { size, count: card === 3 ? 2 : 1 })));
    document.body.append(div);
  };
  row('hand'); row('small'); row('icon');
}"""

KINDS = {"region": "path.art-region", "piece": ".art-piece", "arrow": "path.art-arrow", "regionCard": "g.art-region-card",
         "crown": "g.art-crown", "stock": "g.art-stock", "count": "g.art-count", "sea": "path.art-sea", "disc": "circle.art-disc"}


def sheet(page, server, facts, edition: str):
    if not page.url.startswith(server.url):
        page.goto(f"{server.url}/rules")
    page.evaluate(SHEET, [facts, edition])


def test_each_first_edition_card_face_draws_its_pictogram_and_name(server, new_page):
    facts = board_facts()
    data = json.loads((EDITIONS / "first" / "cards.json").read_text())
    assert [face["key"] for face in data["cards"]] == facts["card_keys"]
    page = new_page(LAPTOP)
    sheet(page, server, facts, "first")
    faces = page.locator(".sheet-hand .card-face")
    assert faces.count() == len(facts["card_keys"])
    OUTPUT.mkdir(parents=True, exist_ok=True)
    for card, key in enumerate(facts["card_keys"]):
        face = faces.nth(card)
        assert face.get_attribute("data-card-key") == key
        assert face.locator(".title").inner_text() == facts["cards"][card]
        primitives = data["cards"][card]["pictogram"]
        for kind in {p["type"] for p in primitives}:  # each primitive of the data is drawn
            assert face.locator(f"svg.card-art {KINDS[kind]}").count() >= 1, (key, kind)
        box = face.bounding_box()
        assert (round(box["width"]), round(box["height"])) == (88, 124)
        face.screenshot(path=str(OUTPUT / f"card-{key}.png"), scale="device")
    assert page.locator(".sheet-hand .card-face").nth(3).locator("[data-testid=card-count]").inner_text() == "×2"
    shoot(page, "cards-first", full_page=True)


def test_the_second_editions_cards_draw_with_the_same_primitives(server, new_page):
    data = json.loads((EDITIONS / "second" / "cards.json").read_text())
    keys = [face["key"] for face in data["cards"]]
    assert keys == ["Scottish Support", "Welsh Support", "English Support", "Assemble", "Negotiate", "Manoeuvre",
                    "Outmanoeuvre"]
    facts = board_facts(SECOND)
    assert sorted(facts["card_keys"]) == sorted(keys)
    page = new_page(LAPTOP)
    sheet(page, server, facts, "second")
    faces = page.locator(".sheet-hand .card-face")
    assert faces.count() == len(keys)
    for face in data["cards"]:
        drawn = page.locator(f".sheet-hand .card-face[data-card-key='{face['key']}']")
        assert drawn.locator(".title").inner_text() == face["key"]  # the game's own name, in every language
        for kind in {p["type"] for p in face["pictogram"]}:
            assert drawn.locator(f"svg.card-art {KINDS[kind]}").count() >= 1, (face["key"], kind)
    shoot(page, "cards-second", full_page=True)


def test_an_unknown_primitive_or_a_bad_parameter_fails_loudly(server, new_page):
    page = new_page(LAPTOP)
    page.goto(f"{server.url}/rules")
    errors = page.evaluate("""async () => {
      const { drawPictogram } = await import('/static/cards.js');
      const { useBoard } = await import('/static/board.js');
      useBoard(await (await fetch('/static/editions/first/board.json')).json());
      const g = document.createElementNS('http://www.w3.org/2000/svg', 'g');
      const tried = [[{type: 'dragon', x: 1}], [{type: 'piece', x: 1, y: 2, faction: 7}],
                     [{type: 'arrow', from: [0, 0], to: [1, 1], style: 'zigzag'}], [{type: 'region', x: 1}]];
      return tried.map((primitives) => { try { drawPictogram(g, primitives); return null; } catch (e) { return e.message; } });
    }""")
    assert errors[0].startswith('card face: unknown primitive "dragon"')
    assert 'no faction 7' in errors[1]
    assert 'arrow style "zigzag"' in errors[2]
    assert 'needs a number "y"' in errors[3]


def open_table(server, page, seed: int, hints: bool = False) -> dict:
    with httpx.Client(base_url=server.url) as http:
        game = create(http, [human("You"), bot("random")], seed=seed, hints=hints)
    page.goto(f"{server.url}/game/{game['id']}#token={game['seats'][0]['token']}")
    assert wait_for_turn(page) == "you"
    return game


def test_the_hand_log_top_cards_and_hints_carry_the_cards_art_with_the_rule_on_hover(server, new_page):
    facts = board_facts()
    page = new_page(LAPTOP)
    open_table(server, page, seed=11, hints=True)
    hand = page.locator("[data-testid=hand-card]")
    assert hand.count() == len(facts["card_keys"])  # one face per kind of card, Settlements with its ×2
    for i in range(hand.count()):
        card = hand.nth(i)
        number = int(card.get_attribute("data-card"))
        assert card.locator(".title").inner_text() == facts["cards"][number]
        assert card.locator("svg.card-art g > *").count() >= 4, number  # the pictogram's primitives are drawn
    assert page.locator("[data-testid=hand-card][data-card='3'] [data-testid=card-count]").inner_text() == "×2"
    # one row at 1366 px: every card on the same line, none scrolled out of the hand
    tops = {round(hand.nth(i).bounding_box()["y"]) for i in range(hand.count())}
    assert len(tops) == 1
    assert page.eval_on_selector("[data-testid=hand]", "h => h.scrollWidth <= h.clientWidth")
    page.locator("[data-testid=hand]").screenshot(path=str(OUTPUT / "hand-laptop.png"))

    tip = page.locator("[data-testid=card-tip]")
    assert tip.is_hidden()
    garrison = page.locator("[data-testid=hand-card][data-card='1']")
    garrison.hover()
    tip.wait_for(state="visible")
    rule = garrison.locator(".rule").text_content()
    assert rule and tip.inner_text() == f"{facts['cards'][1]}\n{rule}"
    assert garrison.get_attribute("aria-describedby") == "card-tip"
    shoot(page, "hand-card-rule-laptop")
    page.mouse.move(5, 5)
    tip.wait_for(state="hidden")
    page.keyboard.press("Tab")  # the keyboard: focus shows the rule too
    page.locator("[data-testid=hand-card][data-card='1']").focus()
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Tab")
    tip.wait_for(state="visible")

    page.click("[data-testid=hint]")
    page.wait_for_selector("[data-testid=play-hint]")
    for i in range(page.locator("[data-testid=hint-move]").count()):
        move = page.locator("[data-testid=hint-move]").nth(i)
        notation = move.locator("[data-testid=play-hint]").get_attribute("data-move")
        if notation != "pass":
            card = move.locator("[data-testid=hint-card]")
            assert facts["card_keys"][int(card.get_attribute("data-card"))] == notation.split()[0].split(":")[0]
            assert card.locator("svg.card-art g > *").count() >= 4
    page.locator("[data-testid=hint-box]").screenshot(path=str(OUTPUT / "hint-cards-laptop.png"))
    first = page.locator("[data-testid=play-hint]").first
    played = first.get_attribute("data-move")
    first.click()
    page.wait_for_function("() => Number(document.body?.dataset.move) >= 1")
    if played != "pass":
        entry = page.locator("#log li[data-number='1']")
        assert entry.locator("[data-testid=log-card] svg.card-art").count() == 1
        top = page.locator("[data-testid=player][data-seat='0'] [data-testid=top-card]")
        assert top.locator("svg.card-art").count() == 1
        assert top.get_attribute("data-card") == entry.locator("[data-testid=log-card]").get_attribute("data-card")
        last = page.locator("[data-testid=last-moves-list] li[data-number='1'] [data-testid=last-move-card]")
        assert last.get_attribute("data-card") == top.get_attribute("data-card")
        page.locator("#players").screenshot(path=str(OUTPUT / "top-cards-laptop.png"))
        page.locator(".log").screenshot(path=str(OUTPUT / "log-cards-laptop.png"))
    shoot(page, "table-cards-laptop")


def test_on_a_touch_screen_a_long_press_shows_the_rule_without_playing_and_a_tap_plays(server, browser):
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True, reduced_motion="reduce")
    context.set_default_timeout(30_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        game = open_table(server, page, seed=11)
        hand_settled(page)  # no redraw replaces the hand under the finger
        playable = page.locator("[data-testid=hand-card].playable")
        first, second = playable.nth(0), playable.nth(1)
        first.scroll_into_view_if_needed()
        box = first.bounding_box()
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        touch = context.new_cdp_session(page)
        touch.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
        page.locator("[data-testid=card-tip]").wait_for(state="visible")  # held: the rule shows
        # and, as a mouse's pointer shows on a laptop, what the card would do here, its targets lit on the map
        card = int(first.get_attribute("data-card"))
        seen = httpx.get(f"{server.url}/api/games/{game['id']}", headers=auth(game["seats"][0]["token"])).json()
        effect = next(e for e in seen["table"]["card_effects"] if e["card"] == card)
        assert page.locator("[data-testid=tip-effect]").inner_text() == effect["text"]
        lit = page.eval_on_selector_all("#map path.region.lit", "nodes => nodes.map(n => Number(n.dataset.region))")
        assert set(lit) == set(effect["regions"]) and lit
        assert first.bounding_box() == box, "the card stays under the finger"
        shoot(page, "hand-card-long-press-phone")
        touch.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        # chromium ends the press with a click on the card (pointerType touch): it plays nothing
        # then a tap on another card: it is the one played, the long-pressed one was not
        tapped = int(second.get_attribute("data-card"))
        second.tap()  # scrolled to and tapped once it holds still: that click may still be redrawing the hand
        page.wait_for_selector(f"[data-testid=hand-card].selected[data-card='{tapped}']")
        assert page.locator(".crumbs span").count() == 1
        assert page.locator("[data-testid=hand-card].selected").count() == 1
        page.locator("[data-testid=hand]").screenshot(path=str(OUTPUT / "hand-phone.png"))
        assert not errors, errors
    finally:
        context.close()
