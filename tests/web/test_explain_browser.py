"""Explanations at the table in Debian's chromium (Playwright) against a real server: a hand card's effect and
targets, the struggle line, hints with reasons and "Play this", and "learn from your mistakes" after a game.

Screenshots of each land in build/test-output/web/screenshots/ (docs/img/ keeps copies for docs/web.md and the README).
"""

from __future__ import annotations

import sqlite3

import httpx
from test_browser import wait_for_turn
from test_end_screen import finished_game
from webtools import OUTPUT, bot, create, human, serious_accessibility_violations

from kingisdead import GameState, parse_move
from kingisdead import playout
from kingisdead.analysis import best_line
from kingisdead.web.explain import card_effect, hint_reason, struggle_now
from kingisdead.web.i18n import localize

IMAGES = OUTPUT / "screenshots"
DESKTOP = {"width": 1440, "height": 900}



def lit_regions(page) -> set[int]:
    return {int(r) for r in page.eval_on_selector_all("#map path.region.lit", "nodes => nodes.map(n => n.dataset.region)")}


def test_a_hand_card_shows_its_effect_here_and_lights_its_targets_and_the_struggle_line_tells_the_all_pass(
        server, new_page):
    with httpx.Client(base_url=server.url) as http:
        game = create(http, [human("You"), bot("random")], seed=7)
    state = GameState.new(2, "standard", 7)
    page = new_page(DESKTOP, timeout=60_000, bypass_csp=True)  # axe-core is injected as a script, which the page's CSP forbids
    page.goto(f"{server.url}/game/{game['id']}#token={game['seats'][0]['token']}")
    assert wait_for_turn(page) == "you"

    # Caerleon is contested: Welsh 3 against Scots 1, so an all-pass gives it to the Welsh (as the engine resolves it).
    now = struggle_now(state)
    passed = state.copy()
    passed.apply("pass")
    passed.apply("pass")
    assert passed.control[now["region"]] == now["leader"] == 1
    line = page.locator("[data-testid=struggle-line]")
    assert line.locator("[data-testid=struggle-lead]").inner_text() == \
        "The Welsh lead in Caerleon with 3 against 1 Scots."
    assert line.locator("[data-testid=struggle-all-pass]").inner_text() == \
        "If everyone passes now, Caerleon goes to the Welsh."

    assert not lit_regions(page)
    welsh = page.locator("[data-testid=hand-card][data-card='5']")
    welsh.hover()
    effect = card_effect(state, 5)
    assert page.inner_text("[data-testid=card-effect]") == localize(effect["text"], "en")
    assert lit_regions(page) == set(effect["regions"]) == {3, 5, 7}
    page.locator("[data-testid=hand-card][data-card='1']").focus()  # the keyboard too: focus shows it
    garrison = card_effect(state, 1)
    assert page.inner_text("[data-testid=card-effect]") == localize(garrison["text"], "en")
    assert lit_regions(page) == set(garrison["regions"])
    lit_cubes = {(int(r), int(k)) for r, k in page.eval_on_selector_all(
        "#map .region-info", "gs => gs.flatMap(g => [...g.querySelectorAll('.cube.lit')].map(c => [g.dataset.region, c.dataset.kind]))")}
    assert lit_cubes == {(int(r), k) for r, kinds in garrison["followers"].items() for k in kinds}
    page.locator("[data-testid=hand-card][data-card='5']").hover()
    page.locator("[data-testid=hand-card][data-card='5']").focus()
    page.screenshot(path=str(IMAGES / "table-card-effect.png"))
    assert serious_accessibility_violations(page) == []
    page.mouse.move(5, 5)
    page.locator("[data-testid=hand-card][data-card='5']").blur()
    assert not lit_regions(page)


def test_hints_come_best_first_with_a_reason_and_play_this_plays_the_move(server, new_page):
    with httpx.Client(base_url=server.url) as http:
        game = create(http, [human("You"), bot("random")], seed=11, hints=True)
    page = new_page(DESKTOP, timeout=60_000, bypass_csp=True)
    page.goto(f"{server.url}/game/{game['id']}#token={game['seats'][0]['token']}")
    assert wait_for_turn(page) == "you"
    page.click("[data-testid=hint]")
    page.wait_for_selector("[data-testid=play-hint]")
    moves = page.locator("[data-testid=hint-move]")
    chances = [float(moves.nth(i).get_attribute("data-chance")) for i in range(moves.count())]
    assert len(chances) == 3 and chances == sorted(chances, reverse=True)
    # each with the server's reason in words: what follows it along its best line, played with the hint's seed
    state = GameState.new(2, "standard", 11)
    with sqlite3.connect(server.database) as db:
        [(bot_seed,)] = db.execute("SELECT bot_seed FROM games WHERE id = ?", (game["id"],)).fetchall()
    for i in range(moves.count()):
        move = parse_move(page.locator("[data-testid=play-hint]").nth(i).get_attribute("data-move"))
        reason = localize(hint_reason(state, move, best_line(state, move, seed=bot_seed)), "en")
        assert moves.nth(i).locator("[data-testid=hint-reason]").inner_text() == reason[0].upper() + reason[1:]
    page.locator("[data-testid=hint-box]").scroll_into_view_if_needed()
    page.screenshot(path=str(IMAGES / "table-hints.png"))
    assert serious_accessibility_violations(page) == []
    second = page.locator("[data-testid=play-hint]").nth(1)
    chosen = second.get_attribute("data-move")
    second.click()
    page.wait_for_function("() => Number(document.body?.dataset.move) >= 1")
    with httpx.Client(base_url=server.url) as http:
        record = http.get(f"/api/games/{game['id']}/record").json()
    assert record["moves"][0] == chosen


def test_learn_from_your_mistakes_asks_for_a_move_before_showing_the_better_one(server, new_page):
    game, _ = finished_game(server, 2, 5)
    page = new_page(DESKTOP, timeout=60_000, bypass_csp=True)
    page.goto(f"{server.url}/game/{game['id']}#token={game['seats'][0]['token']}")
    page.click("[data-testid=analyse]")
    page.wait_for_selector("[data-testid=learn-start]", timeout=120_000)
    with httpx.Client(base_url=server.url) as http:
        analysis = http.get(f"/api/games/{game['id']}/analysis").json()
    mistakes = analysis["summary"][0]["mistakes"]
    assert len(mistakes) == 3
    page.click("[data-testid=learn-start]")
    page.wait_for_selector("[data-testid=learn-board] .region")
    panel = page.locator("[data-testid=learn-panel]")
    first = mistakes[0]
    assert panel.locator("[data-testid=learn-head]").inner_text() == f"Mistake 1 of 3: move {first['number']}"
    assert not panel.locator("[data-testid=learn-reveal]").count()
    offered = panel.locator("[data-testid=learn-choice]")
    assert {offered.nth(i).get_attribute("data-move") for i in range(offered.count())} >= {first["played"], first["best"]}
    # pointing at an offered move marks on the board what it would change
    pointed = next(c for c in first["choices"] if c["changes"] and c["changes"]["touched"])
    panel.locator(f"[data-testid=learn-choice][data-move='{pointed['move']}']").hover()
    touched = {int(r) for r in page.eval_on_selector_all("[data-testid=learn-board] .touched-outline",
                                                          "nodes => nodes.map(n => n.dataset.region)")}
    assert touched == set(pointed["changes"]["touched"])
    assert not panel.locator("[data-testid=learn-reveal]").count()
    panel.locator(f"[data-testid=learn-choice][data-move='{first['played']}']").click()
    reveal = panel.locator("[data-testid=learn-reveal]")
    assert f"The better move: {first['best_description']} ({round(first['best_chance'] * 100)}% to win)." \
        in reveal.inner_text()
    assert f"it cost {round(first['loss'] * 100)}% win chance" in reveal.inner_text()
    # and why, from both moves' lines
    assert first["why"].startswith("After the better move") and \
        reveal.locator("[data-testid=learn-why]").inner_text() == first["why"]
    page.add_style_tag(content=".topbar { position: static; }")  # the sticky bar would cover the panel's shot
    panel.screenshot(path=str(IMAGES / "learn-from-mistakes.png"))
    assert serious_accessibility_violations(page) == []
    panel.locator("[data-testid=learn-next]").click()
    assert panel.locator("[data-testid=learn-head]").inner_text() == f"Mistake 2 of 3: move {mistakes[1]['number']}"
    assert not panel.locator("[data-testid=learn-reveal]").count()


def test_the_struggle_line_foresees_the_tie_break_when_the_passes_would_end_the_game(server, new_page):
    from random import Random

    from webtools import auth

    seed = 71  # its random game reaches such a struggle with cards in hand
    state, rng = GameState.new(2, "standard", seed), Random(seed)
    with httpx.Client(base_url=server.url) as http:
        game = create(http, [human("You"), human("Other")], seed=seed)
        number = 0
        # to a struggle whose passes end it, with cards in hand (an empty hand's turns are passed by the server)
        while struggle_now(state)["if_over"] is None or state.player != 0 or state.cards_left(0) == 0:
            seat = state.player
            move = playout.play_random(state, rng)
            answer = http.post(f"/api/games/{game['id']}/moves", headers=auth(game["seats"][seat]["token"]),
                               json={"move": str(move), "move_number": number})
            assert answer.status_code == 200, answer.text
            number += 1
    page = new_page(DESKTOP, timeout=60_000)
    page.goto(f"{server.url}/game/{game['id']}#token={game['seats'][0]['token']}")
    assert wait_for_turn(page) == "you"
    foreseen = page.locator("[data-testid=struggle-if-over]").inner_text()
    assert foreseen == localize(struggle_now(state)["if_over"], "en") and foreseen.startswith("If it ends so: ")
