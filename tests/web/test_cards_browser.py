"""The action cards' faces (static/cards.js) in Debian's headless chromium.

The faces are drawn from each edition's cards.json on a page of a real server; screenshots of every
face and of the hand land in build/test-output/web/ (card-<key>.png, cards-<edition>.png, hand-*.png).
"""

from __future__ import annotations

import json
from pathlib import Path

import test_browser
from test_browser import LAPTOP, PHONE, shoot
from webtools import OUTPUT

from kingisdead.web.views import board_facts

server, new_page = test_browser.server, test_browser.new_page

EDITIONS = Path(__file__).resolve().parents[2] / "src" / "kingisdead" / "web" / "static" / "editions"

# Every face of an edition's cards.json side by side, at the hand's size and the smaller ones.
SHEET = """async ([facts, edition]) => {
  const { cardFace } = await import('/static/cards.js');
  // cards.json alone: the second edition has no board.json yet, for edition.js's loadEdition
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
    # the second edition's facts come with its board (a later issue): its keys stand for its names here
    facts = {"card_keys": keys, "cards": keys}
    page = new_page(LAPTOP)
    sheet(page, server, facts, "second")
    faces = page.locator(".sheet-hand .card-face")
    assert faces.count() == len(keys)
    for card, face in enumerate(data["cards"]):
        for kind in {p["type"] for p in face["pictogram"]}:
            assert faces.nth(card).locator(f"svg.card-art {KINDS[kind]}").count() >= 1, (face["key"], kind)
    shoot(page, "cards-second", full_page=True)


def test_an_unknown_primitive_or_a_bad_parameter_fails_loudly(server, new_page):
    page = new_page(LAPTOP)
    page.goto(f"{server.url}/rules")
    errors = page.evaluate("""async () => {
      const { drawPictogram } = await import('/static/cards.js');
      const g = document.createElementNS('http://www.w3.org/2000/svg', 'g');
      const tried = [[{type: 'dragon', x: 1}], [{type: 'piece', x: 1, y: 2, faction: 7}],
                     [{type: 'arrow', from: [0, 0], to: [1, 1], style: 'zigzag'}], [{type: 'region', x: 1}]];
      return tried.map((primitives) => { try { drawPictogram(g, primitives); return null; } catch (e) { return e.message; } });
    }""")
    assert errors[0].startswith('card face: unknown primitive "dragon"')
    assert 'no faction 7' in errors[1]
    assert 'arrow style "zigzag"' in errors[2]
    assert 'needs a number "y"' in errors[3]
