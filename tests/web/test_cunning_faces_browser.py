"""The advanced game's Cunning cards at the table in Debian's headless chromium: their faces (static/cards.js from
editions/second/cards.json's "cunning"), the other seats' hands as backs, a Spy's choice of pile by its top
card, and Plot revealed at the end (static/game.js).

Screenshots land in build/test-output/web/: cunning-faces.png (the twelve faces at each size) and
advanced-table-{laptop,phone,phone-spy}-{en,fr}.png, advanced-end-laptop.png (docs/img/ holds the chosen ones).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable

import httpx
import test_browser
from test_browser import LAPTOP, PHONE, shoot, wait_for_turn
from test_cards_browser import EDITIONS, KINDS
from webtools import OUTPUT, auth, bot, create, hand_settled, human

from kingisdead.edition import CUNNING_CARDS, SECOND
from kingisdead.state import GameState
from kingisdead.web.views import board_facts

new_page = test_browser.new_page

DRAWN = {**KINDS, "card": "g.art-card", "eye": "g.art-eye"}
"""The mark each primitive leaves in a face's <svg> (test_cards_browser's, and the two the Cunning cards added)."""

SPY, PLOT = CUNNING_CARDS.index("Spy"), CUNNING_CARDS.index("Plot")  # bits of GameState.cunning

# The twelve Cunning faces at the hand's size, then the smaller ones, on a page of the server.
SHEET = """async ([facts]) => {
  const { cardFace } = await import('/static/cards.js');
  await import('/static/cunning.js');  // the primitives only the Cunning cards draw
  const { useBoard } = await import('/static/board.js');
  useBoard(await (await fetch('/static/editions/second/board.json')).json());
  const cards = await (await fetch('/static/editions/second/cards.json')).json();
  const link = document.createElement('link');
  link.rel = 'stylesheet'; link.href = '/static/cards.css';
  const loaded = new Promise((done) => { link.onload = done; });
  document.head.append(link);
  await loaded;
  document.body.replaceChildren();
  document.body.style.cssText = 'margin:0;padding:12px;background:#f6efdc;width:max-content';
  for (const size of ['hand', 'small', 'icon']) {
    const row = document.createElement('div');
    row.className = 'sheet-' + size;
    row.style.cssText = 'display:grid;grid-template-columns:repeat(6,auto);gap:10px;margin-bottom:12px;justify-content:start';
    facts.cunning_cards.forEach((name, i) => row.append(cardFace(facts.card_keys.length + i, facts, cards, { size })));
    document.body.append(row);
  }
}"""


def test_each_cunning_card_draws_its_pictogram_and_shows_its_rule_on_hover(server, new_page):
    facts = board_facts(SECOND)
    data = json.loads((EDITIONS / "second" / "cards.json").read_text())
    assert [face["key"] for face in data["cunning"]] == list(CUNNING_CARDS) == facts["cunning_cards"]
    assert len({face["frame"] for face in data["cunning"]}) == 1  # one frame for them all...
    assert not {face["frame"] for face in data["cunning"]} & {face["frame"] for face in data["cards"]}  # ...of their own
    page = new_page(LAPTOP)
    page.goto(f"{server.url}/rules")
    page.evaluate(SHEET, [facts])
    faces = page.locator(".sheet-hand .card-face")
    assert faces.count() == 12
    tip = page.locator("[data-testid=card-tip]")
    for i, name in enumerate(CUNNING_CARDS):
        face = faces.nth(i)
        assert face.get_attribute("data-cunning") == name and "k-cunning" in face.get_attribute("class")
        assert face.locator(".title").inner_text() == name
        for kind in {p["type"] for p in data["cunning"][i]["pictogram"]}:  # each primitive of the data is drawn
            assert face.locator(f"svg.card-art {DRAWN[kind]}").count() >= 1, (name, kind)
        box = face.bounding_box()
        assert (round(box["width"]), round(box["height"])) == (88, 124)
        face.hover()
        tip.wait_for(state="visible")
        assert tip.inner_text() == f"{name}\n{facts['cunning_rules'][i]}"
    for size in ("small", "icon"):  # the top card and the log draw the same picture, smaller
        assert page.locator(f".sheet-{size} .card-face.k-cunning svg.card-art").count() == 12
    page.mouse.move(0, 0)
    tip.wait_for(state="hidden")
    OUTPUT.mkdir(parents=True, exist_ok=True)
    page.locator("body").screenshot(path=str(OUTPUT / "cunning-faces.png"))  # the sheet alone

    errors = page.evaluate("""async () => {
      const { drawPictogram } = await import('/static/cards.js');
      await import('/static/cunning.js');
      const g = document.createElementNS('http://www.w3.org/2000/svg', 'g');
      const tried = [[{type: 'card', x: 0, y: 0, w: 30, h: 40, side: 'sideways'}],
                     [{type: 'card', x: 0, y: 0, w: 30, h: 40, side: 'front', pile: 9}],
                     [{type: 'card', x: 0, y: 0, w: 30, side: 'back'}], [{type: 'eye', x: 3}]];
      return tried.map((primitives) => { try { drawPictogram(g, primitives); return null; } catch (e) { return e.message; } });
    }""")
    assert 'card side "sideways" is not "front", "back" or "copy"' in errors[0]
    assert '"pile" as a whole number 0-5, got 9' in errors[1]
    assert 'primitive "card" needs a number "h"' in errors[2]
    assert 'primitive "eye" needs a number "y"' in errors[3]
    assert not page.errors, page.errors


def a_deal(players: int) -> int:
    """The first seed whose advanced deal gives seat 0 the Spy and another seat Plot (the deal is the seed's)."""
    for seed in range(1, 200):
        hands = GameState.new(players, "standard", seed, 0, SECOND.with_mode("advanced")).cunning
        if hands[0] >> SPY & 1 and any(mask >> PLOT & 1 for mask in hands[1:]):
            return seed
    raise AssertionError("no seed in 1-199 deals it")


def pass_until(http: httpx.Client, game: dict, token: str, done: Callable[[dict], bool]) -> dict:
    """Pass for seat 0 at each of its turns until ``done(table)`` holds (60 s at most); that table."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        view = http.get(f"/api/games/{game['id']}", headers=auth(token)).json()
        if done(view["table"]):
            return view["table"]
        if view["table"]["to_move"] == 0:
            answer = http.post(f"/api/games/{game['id']}/moves", headers=auth(token),
                               json={"move": "pass", "move_number": view["move_number"]})
            assert answer.status_code in (200, 409), answer.text  # 409: a bot moved first
        else:
            time.sleep(0.05)  # the bots' turns
    raise AssertionError(f"not reached in 60 s: {view['table']}")


def spy_choices(page, facts: dict) -> None:
    """Start a Spy: its first choice is the pile, each shown by the card on its top."""
    hand_settled(page)  # no redraw resets the move begun
    page.mouse.move(0, 0)
    spy = page.locator("[data-testid=hand-card][data-cunning=Spy]")
    assert "playable" in spy.get_attribute("class")
    spy.click()
    try:
        page.wait_for_selector("[data-testid=choice][data-kind=player]")
    except Exception:
        shoot(page, "failure-spy")
        raise
    choices = page.locator("[data-testid=choice][data-kind=player]")
    tops = page.locator("[data-testid=player] [data-testid=top-card]")
    top_of = {int(tops.nth(i).evaluate("n => n.closest('[data-seat]').dataset.seat")): tops.nth(i).get_attribute("data-card")
              for i in range(tops.count())}
    assert choices.count() == 2
    for i in range(choices.count()):
        choice = choices.nth(i)
        assert choice.locator("[data-testid=choice-card]").get_attribute("data-card") == top_of[int(choice.get_attribute("data-value"))]
        assert choice.locator("svg.card-art g > *").count() >= 3
    page.mouse.move(0, 0)


def test_the_advanced_table_shows_backs_the_spys_piles_and_plot_at_the_end(server, new_page):
    facts = board_facts(SECOND)
    with httpx.Client(base_url=server.url) as http:
        game = create(http, [human("You"), bot("random"), bot("random")], seed=a_deal(3), edition="second",
                      mode="advanced")
        token = game["seats"][0]["token"]
        # seat 0 passes until both other piles have a card on top that its Spy may copy (a Spy's may not be): with
        # one, the table would take the only pile for it
        spy = len(facts["card_keys"]) + SPY
        pass_until(http, game, token, lambda table: table["to_move"] == 0
                   and all(top >= 0 and top != spy for top in table["tops"][1:]))
        page = new_page(LAPTOP)
        page.goto(f"{server.url}/game/{game['id']}#token={token}")
        assert wait_for_turn(page) == "you"
        # the hand's Cunning cards carry their pictures; the other seats' hands are backs, as many as their cards
        cunning = page.locator("[data-testid=hand-card].k-cunning")
        assert cunning.count() == 3
        for i in range(3):
            assert cunning.nth(i).locator("svg.card-art g > *").count() >= 4
        view = http.get(f"/api/games/{game['id']}", headers=auth(token)).json()
        for p in (1, 2):
            seat = page.locator(f"[data-testid=player][data-seat='{p}']")
            assert seat.locator(".card-back").count() == view["table"]["cards_left"][p]
        assert page.locator("[data-testid=player][data-seat='0'] [data-testid=card-backs]").count() == 0  # its own: the hand
        spy_choices(page, facts)
        shoot(page, "advanced-table-laptop-en")
        page.click("[data-testid=back]")  # on a phone the choices go above the hand: the hand first, then the Spy
        page.set_viewport_size(PHONE)
        page.wait_for_selector("[data-testid=choice][data-kind=player]", state="detached")
        assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")  # nothing overflows sideways
        shoot(page, "advanced-table-phone-en")
        spy_choices(page, facts)
        shoot(page, "advanced-table-phone-spy-en")
        page.context.add_cookies([{"name": "lang", "value": "fr", "url": server.url}])
        page.reload()
        assert wait_for_turn(page) == "you"
        assert page.get_attribute("html", "lang") == "fr"
        assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
        shoot(page, "advanced-table-phone-fr")
        spy_choices(page, facts)
        shoot(page, "advanced-table-phone-spy-fr")
        page.set_viewport_size(LAPTOP)
        page.wait_for_timeout(200)
        shoot(page, "advanced-table-laptop-fr")

        # to the end: seat 0 passes on; the bots' hands are shown, Plot face up with what it counted as
        page.context.add_cookies([{"name": "lang", "value": "en", "url": server.url}])
        page.reload()
        end = pass_until(http, game, token, lambda table: table["result"] is not None)
    page.wait_for_selector("[data-testid=result-title]")
    plot = len(facts["card_keys"]) + PLOT
    holder = next(p for p, held in enumerate(end["cunning_hands"]) if plot in held)
    revealed = page.locator(f"[data-testid=player][data-seat='{holder}'] [data-testid=plot-revealed]")
    assert revealed.locator(".card-face[data-cunning=Plot] svg.card-art").count() == 1
    assert "reveals Plot, which counts as one" in revealed.inner_text()
    assert page.locator(".card-back").count() == 0  # every hand is shown now
    # the Cunning cards the bots played carry their pictures in the log too (random bots play them often)
    played = page.locator("[data-testid=log-card].k-cunning")
    assert played.count() >= 1
    for i in range(played.count()):
        assert played.nth(i).locator("svg.card-art g > *").count() >= 3
    page.locator("#players").scroll_into_view_if_needed()
    shoot(page, "advanced-end-laptop")
    assert not page.errors, page.errors
