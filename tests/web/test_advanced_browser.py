"""The second edition's advanced game in Debian's headless chromium: created in the lobby, its secret Cunning
cards in the seat's hand, one played by clicks (static/lobby.js, game.js, choices.js, cards.js).

A screenshot of the hand lands in build/test-output/web/advanced-hand.png.
"""

from __future__ import annotations

import re
from random import Random

import httpx

import test_browser
from test_browser import shoot, wait_for_turn

from kingisdead import engine
from kingisdead.edition import CUNNING_CARDS, SECOND
from kingisdead.moves import format_move
from kingisdead.state import GameState
from kingisdead.web.choices import choices_view
from kingisdead.web.games import ADVANCED_LEVELS
from kingisdead.web.i18n import localize
from kingisdead.web.views import board_facts

new_page = test_browser.new_page


def test_a_person_plays_a_cunning_card_by_clicks_against_a_bot(server, new_page):
    page = new_page()
    page.goto(server.url)
    # the first edition has no advanced game: the choice is hidden
    assert page.locator("[data-testid=variant-advanced]").is_hidden()
    page.click("[data-testid=edition-second]")
    choice = page.locator("[data-testid=variant-advanced]")
    assert choice.get_attribute("title") == "Advanced game (secret Cunning cards)"
    choice.click()
    assert "secret Cunning cards" in page.inner_text("[data-testid=variant-help]")
    # the bots offered are the levels the advanced game allows
    levels = page.locator("[data-testid=seat-1] option[data-testid=level-option]").evaluate_all(
        "options => options.map((o) => o.value)")
    assert levels and {value.removeprefix("bot:") for value in levels} <= set(ADVANCED_LEVELS), levels
    page.select_option("[data-testid=seat-1]", "bot:beginner")
    # the advanced game's own rule options: shown for it alone, and sent when changed from their defaults
    page.click("[data-testid=rule-options] summary")
    assert page.locator("[data-testid=advanced-options]").is_visible()
    page.select_option("[data-testid=option-spy_spy]", "allowed")
    page.select_option("[data-testid=option-tie_faction]", "strict")
    assert page.inner_text("[data-testid=rule-options-state]") == "2 options changed from the defaults"
    shoot(page, "advanced-rule-options")
    page.click("#variant [data-v=standard]")
    assert page.locator("[data-testid=advanced-options]").is_hidden()
    assert page.inner_text("[data-testid=rule-options-state]") == "1 option changed from the defaults"
    choice.click()
    page.fill("[data-testid=seed]", "3")
    page.click("[data-testid=create]")
    page.wait_for_url(re.compile(r"/game/"))
    game_id = page.url.rsplit("/", 1)[1].split("?")[0].split("#")[0]
    assert httpx.get(f"{server.url}/api/games/{game_id}").json()["options"] == {"spy_spy": "allowed",
                                                                             "tie_faction": "strict"}
    assert wait_for_turn(page) == "you"  # seat 1 starts
    assert "Advanced game" in page.inner_text("#game-meta")

    cunning = page.locator("[data-testid=hand-card].k-cunning")
    assert cunning.count() == 3
    mine = set(cunning.evaluate_all("cards => cards.map((c) => c.dataset.cunning)"))
    assert len(mine) == 3 and mine <= set(CUNNING_CARDS)
    assert page.locator("[data-testid=hand-card]").count() == 7  # 4 kinds of standard card (one twice) and 3 Cunning
    assert "(8 cards)" in page.inner_text(".hand-title")
    shoot(page, "advanced-hand")
    # nothing on the page names a Cunning card the seat does not hold (none has been played yet)
    text = page.inner_text("body")
    assert not [name for name in set(CUNNING_CARDS) - mine if re.search(rf"\b{name}\b", text)]

    # the rule on hover, as the other cards'
    playable = page.locator("[data-testid=hand-card].k-cunning.playable")
    assert playable.count() >= 1  # Plot is never played; any other Cunning card is
    card = playable.first
    name = card.get_attribute("data-cunning")
    assert name != "Plot"
    card.hover()
    tip = page.locator("[data-testid=card-tip]")
    tip.wait_for(state="visible")
    assert name in tip.inner_text() and len(tip.inner_text()) > len(name) + 10

    # its choices, then the summon, then Confirm
    card.click()
    page.wait_for_selector("[data-testid=choice], [data-testid=confirm]")
    assert name in page.inner_text(".crumbs")
    while not page.locator("[data-testid=confirm]").count():
        steps = page.locator(".crumbs span").count()
        page.locator("[data-testid=choice]").first.click()
        page.wait_for_function("n => document.querySelectorAll('.crumbs span').length > n", arg=steps, polling=50)
    notation = page.inner_text("[data-testid=preview-notation]")
    assert notation.startswith(name), notation
    before = int(page.get_attribute("body", "data-move"))
    page.click("[data-testid=confirm]")
    page.wait_for_function("n => Number(document.body?.dataset.move) > n", arg=before, timeout=30_000, polling=50)
    # the log says the move, and the card left the hand
    page.wait_for_function("name => document.getElementById('log')?.innerText.includes(name)", arg=name, polling=100)
    assert page.locator(f"[data-testid=hand-card][data-cunning={name}]").count() == 0
    assert not page.errors, page.errors


WALK = """async ([facts, cases]) => {
  const { CunningChoices } = await import('/static/cunning.js');
  return cases.map((payload) => {
    const choices = new CunningChoices(payload, facts);
    const built = [];
    const walk = (steps) => {
      const options = choices.options(steps, null, 0);
      if (options.complete) { built.push([options.move, options.description]); return; }
      if (!options.options.length) throw new Error(`a dead end after ${JSON.stringify(steps)}`);
      for (const o of options.options) walk([...steps, { kind: o.kind, value: o.value }]);
    };
    for (const card of choices.cunning.keys()) walk([{ kind: 'card', value: card }]);
    return built;
  });
}"""


def test_every_cunning_move_and_only_those_can_be_built_by_clicks(server, new_page):
    """cunning.js walked through every choice it offers for the Cunning cards of random positions: each path
    ends in a legal move (in the server's notation, described in words), and every legal Cunning move is reached."""
    rng = Random(7)
    cases, wanted = [], []
    for seed in range(30):
        state = GameState.new(rng.choice([2, 3, 4]), edition="second", mode="advanced", seed=seed)
        for _ in range(rng.randrange(30)):
            if state.is_over():
                break
            engine.play_random(state, rng)
        moves = [] if state.is_over() else [m for m in engine.legal_moves(state) if m.card is not None and m.card >= 7]
        if moves:
            cases.append(localize(choices_view(state), "en"))
            wanted.append({format_move(m, state.edition) for m in moves})
    assert len(cases) >= 10
    page = new_page()
    page.goto(f"{server.url}/rules")
    facts = localize(board_facts(SECOND), "en")
    built = page.evaluate(WALK, [facts, cases])
    for moves, want in zip(built, wanted, strict=True):
        assert {move for move, _ in moves} == want
        assert all(description for _, description in moves)
