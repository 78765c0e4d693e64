"""The interface in French and German in Debian's chromium: no untranslated text, and the language switch.

"Untranslated" is checked against the catalogs: a visible text (a text node,
a placeholder, a tooltip, an option) must not be an English catalog text
whose translation differs, whole or with its {placeholders} filled in.
"""

from __future__ import annotations

import functools
import json
import re
from random import Random

import httpx
import pytest
from webtools import OUTPUT, Server, auth, bot, create, human

from kingisdead import GameState
from kingisdead import playout
from kingisdead.edition import EDITIONS
from kingisdead.moves import format_move, parse_move
from kingisdead.web.i18n import placeholders, read_catalog
from kingisdead.web.texts import notation_edition

SHOWN_TEXTS = """() => {
  const shown = (node) => !!(node && (node.offsetParent !== null || node.getClientRects().length));
  const texts = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  // names kept in English on purpose (the second edition's, in any language) are marked lang="en"
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent.trim();
    if (text && shown(node.parentElement) && !node.parentElement.closest("script, style, .mono, code, body [lang]")) texts.push(text);
  }
  for (const el of document.querySelectorAll("[placeholder], [title], [aria-label]")) {
    if (!shown(el) && el.tagName !== "title") continue;
    for (const name of ["placeholder", "title", "aria-label"]) if (el.getAttribute(name)) texts.push(el.getAttribute(name).trim());
  }
  for (const option of document.querySelectorAll("option, optgroup")) texts.push((option.label || option.textContent).trim());
  texts.push(document.title);
  return texts;
}"""


@functools.cache
def english_patterns(lang: str) -> list[tuple[str, re.Pattern[str]]]:
    """The English texts whose ``lang`` translation differs, as patterns matching a whole shown text."""
    patterns = []
    for message in read_catalog(lang):
        if not message.id:
            continue
        english = [message.id] if isinstance(message.id, str) else list(message.id)
        translated = [message.string] if isinstance(message.string, str) else list(message.string)
        for k, text in enumerate(english):
            if text in translated or (len(translated) > k and translated[k] == text):
                continue
            literal = re.sub(r"\{\w+\}", "", text)
            if placeholders(text) and len(re.sub(r"\W", "", literal)) < 6:
                continue  # "{faction} {count}", "P{n}": too little English of its own to tell
            parts = re.split(r"(\{\w+\})", text)
            regex = "".join(".+?" if re.fullmatch(r"\{\w+\}", p) else re.escape(p) for p in parts)
            patterns.append((text, re.compile(regex, re.S)))
    return patterns


def untranslated(page, lang: str) -> list[str]:
    shown = page.evaluate(SHOWN_TEXTS)
    return sorted({f"{text!r} (catalog: {english!r})" for text in shown for english, pattern in english_patterns(lang)
                   if pattern.fullmatch(text)})


@pytest.fixture(scope="module")
def games(server: Server) -> dict[str, dict]:
    """A running Mordred game against a bot (the bot has moved), and a finished game of two people."""
    with httpx.Client(base_url=server.url) as http:
        running = create(http, [human("Ada"), bot("random")], variant="mordred", first_player=1, hints=True)
        finished = create(http, [human(), human()], seed=11)
        state, rng = GameState.new(2, "standard", 11), Random(11)
        number = 0
        while not state.is_over():
            seat = state.player
            move = playout.play_random(state, rng)
            answer = http.post(f"/api/games/{finished['id']}/moves", headers=auth(finished["seats"][seat]["token"]),
                               json={"move": str(move), "move_number": number})
            assert answer.status_code == 200, answer.text
            number += 1
    return {"running": running, "finished": finished}


def open_in(browser, lang: str):
    context = browser.new_context(viewport={"width": 1440, "height": 900}, locale=f"{lang}-{lang.upper()}",
                                  reduced_motion="reduce")
    context.set_default_timeout(30_000)
    return context, context.new_page()


@pytest.mark.parametrize("lang", ["fr", "de"])
def test_lobby_table_and_result_have_no_untranslated_text(browser, server: Server, games: dict, lang: str):
    context, page = open_in(browser, lang)  # the browser's language: Accept-Language
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    OUTPUT.mkdir(parents=True, exist_ok=True)
    try:
        page.goto(server.url + "/")
        page.wait_for_selector("[data-testid=level-option]", state="attached")
        page.select_option("[data-testid=seat-1]", "human")  # the invite choices show for a person's seat
        assert page.evaluate("document.documentElement.lang") == lang
        page.screenshot(path=str(OUTPUT / f"i18n-lobby-{lang}.png"), full_page=True)
        assert untranslated(page, lang) == []

        running = games["running"]
        page.goto(f"{server.url}/game/{running['id']}#token={running['seats'][0]['token']}")
        page.wait_for_selector("[data-testid=hand-card]:not([disabled])")
        page.wait_for_selector("[data-testid=prompt]")
        assert untranslated(page, lang) == []
        page.click("[data-testid=hand-card]:not([disabled])")  # a card chosen: its action's prompt and notes
        page.wait_for_selector("[data-testid=back]")
        page.screenshot(path=str(OUTPUT / f"i18n-table-{lang}.png"), full_page=True)
        assert untranslated(page, lang) == []

        finished = games["finished"]
        page.goto(f"{server.url}/game/{finished['id']}#token={finished['seats'][0]['token']}")
        page.wait_for_selector("[data-testid=result-explanation]")
        page.screenshot(path=str(OUTPUT / f"i18n-result-{lang}.png"), full_page=True)
        assert untranslated(page, lang) == []

        page.goto(server.url + "/rules")
        assert untranslated(page, lang) == []
        assert not errors, errors
    finally:
        context.close()


@pytest.mark.parametrize("lang", ["fr", "de"])
def test_the_socket_speaks_the_pages_language_when_its_handshake_says_english(browser, server: Server,
                                                                              games: dict, lang: str):
    # Chromium 148 sent the page's Accept-Language on HTTP requests but en-US on the WebSocket handshake. Made
    # so here whatever the browser's version: an English browser whose HTTP requests (not the handshake,
    # which routes do not see) are rewritten to ask for the language.
    context, page = open_in(browser, "en")

    def asking(route) -> None:
        route.continue_(headers={**route.request.headers, "accept-language": f"{lang}-{lang.upper()}"})

    page.route("**/*", asking)
    seat_views: list[dict] = []  # the seat's views that came over the socket

    def received(payload: str | bytes) -> None:
        message = json.loads(payload)
        if message.get("type") == "state" and message["game"].get("you") == 0:
            seat_views.append(message["game"])

    page.on("websocket", lambda socket: socket.on("framereceived", received))
    try:
        running = games["running"]
        page.goto(f"{server.url}/game/{running['id']}#token={running['seats'][0]['token']}")
        page.wait_for_selector("[data-testid=hand-card]:not([disabled])")
        for _attempt in range(100):
            if seat_views:
                break
            page.wait_for_timeout(100)
        assert seat_views, "no seat view came over the socket"
        assert page.evaluate("document.documentElement.lang") == lang
        texts = [entry["text"] for entry in seat_views[-1]["log"]]
        assert texts and not [t for t in texts for _e, pattern in english_patterns(lang) if pattern.fullmatch(t)]
        assert untranslated(page, lang) == []
    finally:
        context.close()


def test_the_language_selector_switches_and_the_choice_persists(browser, server: Server):
    context, page = open_in(browser, "en")
    try:
        page.goto(server.url + "/")
        page.wait_for_selector("[data-testid=level-option]", state="attached")
        assert page.text_content("h1") == "Arthur is dead. Who will rule Britain?"
        with page.expect_navigation():
            page.select_option("[data-testid=language]", "de")
        page.wait_for_selector("[data-testid=level-option]", state="attached")
        assert page.text_content("h1") == "Artus ist tot. Wer wird über Britannien herrschen?"
        assert page.text_content("[data-testid=create]") == "Partie erstellen"
        page.reload()
        assert page.input_value("[data-testid=language]") == "de"
        page.goto(server.url + "/rules")  # every page, and the cookie outlasts the page
        assert page.text_content("h1") == "Regelübersicht"
        with page.expect_navigation():
            page.select_option("[data-testid=language]", "fr")
        assert page.text_content("h1") == "Aide-mémoire des règles"
        assert [c["value"] for c in context.cookies() if c["name"] == "lang"] == ["fr"]
    finally:
        context.close()


def test_the_move_built_and_the_log_write_the_notation_in_the_pages_words(browser, server: Server):
    """French: "Couronne Cal<>Din *Cal +Cal:E" beside the French sentence, the records' notation in its tooltip;
    the move sent is still the one every language shares."""
    with httpx.Client(base_url=server.url) as http:
        game = create(http, [human("Ada"), human("Bea")], seed=7)
    context, page = open_in(browser, "fr")
    try:
        page.goto(f"{server.url}/game/{game['id']}#token={game['seats'][0]['token']}")
        page.locator("[data-testid=hand-card][data-card='0']").click()  # the Crown
        while not page.locator("[data-testid=confirm]").count():
            steps = page.locator(".crumbs span").count()
            page.locator("[data-testid=choice]").first.click()
            page.wait_for_function("n => document.querySelectorAll('.crumbs span').length > n"
                                   " || document.querySelector('[data-testid=confirm]')", arg=steps)
        shown = page.locator("[data-testid=preview-notation]")
        record = shown.get_attribute("title").split(" : ", 1)[1]
        assert record.startswith("Crown ") and shown.inner_text().startswith("Couronne ")
        assert shown.inner_text() == shown_text(record)
        assert untranslated(page, "fr") == []
        page.click("[data-testid=confirm]")
        page.wait_for_selector("#log [data-testid=log-notation]")
        assert page.locator("#log [data-testid=log-notation]").first.inner_text() == shown_text(record)
        sent = httpx.get(f"{server.url}/api/games/{game['id']}").json()["log"][0]["notation"]
        assert sent == record
    finally:
        context.close()


def shown_text(record: str) -> str:
    return format_move(parse_move(record), notation_edition(EDITIONS["first"], "fr"))
