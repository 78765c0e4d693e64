"""What a newcomer meets, in Debian's chromium against a real server (issue 19, item 4): bots described by
how they play, the options explained where they are chosen, the struggle banner beside the map, the replay's
move shown everywhere, the invite links kept on the table, rated games said so, provisional ratings, the
notation in French and German, and a guest's language switch without a 401."""

from __future__ import annotations

import re

import httpx
import pytest
from playwright.sync_api import expect
from test_accessibility_browser import finished_game
from webtools import LAPTOP, OUTPUT, PHONE, auth




def shoot(page, name: str) -> None:
    OUTPUT.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(OUTPUT / f"newcomer-{name}.png"))


def test_a_guest_switches_language_without_a_401(server, new_page):
    for url in ("/", "/rules"):
        page = new_page()
        page.goto(server.url + url)
        page.wait_for_selector("[data-testid=language]")
        with page.expect_navigation():
            page.select_option("[data-testid=language]", "fr")
        expect(page.locator("html")).to_have_attribute("lang", "fr")  # the reload may land after the first load
        page.wait_for_selector("[data-testid=language]")
        assert page.failed == [], page.failed


def test_the_lobby_says_what_playing_each_bot_is_like_and_explains_the_options(server, new_page):
    page = new_page()
    page.goto(server.url + "/")
    page.wait_for_selector("[data-testid=level-option]", state="attached")
    bots = page.locator("[data-testid=seat-1] [data-testid=level-option]").all_text_contents()
    assert len(bots) == 5
    for text in bots:  # what playing it is like, not how the engine works
        assert not re.search(r"greedy|Monte Carlo|search|network|legal move|core", text, re.I), text
    assert "throws a turn away" in bots[0] and "strongest" in bots[-1]
    assert "keeping a few cards" in page.inner_text("[data-testid=seat-help-1]")  # the chosen bot, under its seat
    page.select_option("[data-testid=seat-1]", "bot:beginner")
    assert "throws a turn away" in page.inner_text("[data-testid=seat-help-1]")
    assert not page.locator("[data-testid=seat-help-0]").is_visible()  # a person's seat
    # the engine's words are still there, as each option's tooltip
    assert "Monte Carlo" in page.get_attribute("[data-testid=seat-1] [data-testid=level-option] >> nth=2", "title")

    help_of = {name: page.locator(f"[data-testid={name}-help]") for name in
               ("variant", "memory", "rated", "stand-in", "hints", "hotseat")}
    for name, node in help_of.items():
        assert node.is_visible() and node.inner_text().strip(), name
    assert "Loyalist" not in help_of["variant"].inner_text()
    page.click("#variant button[data-v=mordred]")
    assert "Loyalist" in help_of["variant"].inner_text()
    assert "top card" in help_of["memory"].inner_text()
    assert "provisional" in help_of["rated"].inner_text() and "signed-in" in help_of["rated"].inner_text()
    assert "out of time" in help_of["stand-in"].inner_text() and "leaves" in help_of["stand-in"].inner_text()
    shoot(page, "lobby-options")


def overlap(a: dict, b: dict) -> bool:
    """Whether two bounding boxes (Playwright's x, y, width, height) share any area."""
    return (a["x"] < b["x"] + b["width"] and b["x"] < a["x"] + a["width"]
            and a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"])


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_the_struggle_banner_covers_neither_the_map_nor_its_key(server, new_page, viewport):
    game, tokens = finished_game(server)  # its last move resolved the last struggle: the banner tells it
    page = new_page(viewport)
    page.goto(f"{server.url}/game/{game['id']}#token={tokens[0]}")
    page.wait_for_selector("[data-testid=banner-line]")
    banner = page.locator("[data-testid=banner]").bounding_box()
    for part in ("#map", "#legend"):
        assert not overlap(banner, page.locator(part).bounding_box()), part
    shoot(page, f"banner-{'phone' if viewport is PHONE else 'laptop'}")


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_the_replay_shows_the_move_it_is_at_everywhere_and_keeps_the_map_in_view(server, new_page, viewport):
    game, tokens = finished_game(server)
    log = httpx.get(f"{server.url}/api/games/{game['id']}").json()["log"]
    total = len(log)
    at = next(e["number"] for e in log if e["changes"] and e["changes"]["touched"] and e["number"] > 3)
    page = new_page(viewport)
    page.goto(f"{server.url}/game/{game['id']}#token={tokens[0]}")
    page.click("[data-testid=replay]")
    page.wait_for_selector("[data-testid=replay-position]")
    for _ in range(at):
        before = page.inner_text("[data-testid=replay-position]")
        page.click("[data-testid=replay-next]")
        page.wait_for_function("before => (document.querySelector('[data-testid=replay-position]')?.textContent ?? before) !== before",
                               arg=before, polling=50)
    assert f"{at} / {total}" in page.inner_text("[data-testid=replay-position]")
    entry = log[at - 1]
    # the top bar (hidden on a phone, where the turn line says it) and the turn line
    if viewport is LAPTOP:
        assert f"Replay: move {at} of {total}" in page.inner_text("#game-meta")
    assert f"after move {at} of {total}" in page.inner_text("[data-testid=turn-text]")
    # the last moves: those up to the move shown, that one marked; none after it
    shown = page.locator("#last-moves li[data-number]")
    assert shown.evaluate_all("items => items.map((li) => Number(li.dataset.number))") == \
        [n for n in range(max(1, at - 2), at + 1)]
    assert page.get_attribute("#last-moves li.current", "data-number") == str(at)
    assert page.get_attribute("#log li.current", "data-number") == str(at)
    # the map marks what that move changed
    touched = page.locator("#map .region.touched").evaluate_all("paths => paths.map((p) => Number(p.dataset.region))")
    assert sorted(touched) == sorted(entry["changes"]["touched"])
    assert page.locator("[data-testid=region-card].touched").count() == len(entry["changes"]["touched"])
    # the map is in view: below the top bar, above the replay bar (fixed at the bottom on a phone)
    box = page.locator("#map").bounding_box()
    top = page.locator(".topbar").bounding_box()
    bar = page.locator("[data-testid=replay-bar]").bounding_box()
    assert box["y"] >= top["y"] + top["height"] - 1
    if viewport is PHONE:
        assert box["y"] + box["height"] <= bar["y"] + 1, (box, bar)
    else:
        assert box["y"] + box["height"] <= viewport["height"] + 1
    shoot(page, f"replay-{'phone' if viewport is PHONE else 'laptop'}")


def test_the_creators_invite_links_stay_on_the_table_until_their_seats_are_taken(server, new_page, browser):
    page = new_page()
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.url)
    page.goto(server.url + "/")
    page.wait_for_selector("[data-testid=level-option]", state="attached")
    page.click("#players button[data-n='3']")
    page.select_option("[data-testid=seat-1]", "human")
    page.select_option("[data-testid=seat-2]", "human")
    page.click("[data-testid=create]")
    page.wait_for_selector("[data-testid=invite-1]")
    links = {seat: page.input_value(f"[data-testid=invite-{seat}]") for seat in (1, 2)}
    page.click("[data-testid=open-game]")
    for seat in (1, 2):  # at the table: each free seat's link, with a copy button
        page.wait_for_selector(f"[data-testid=table-invite-{seat}]")
        assert page.input_value(f"[data-testid=table-invite-{seat}] input") == links[seat]
    page.click("[data-testid=table-invite-2] button")
    page.wait_for_function("link => navigator.clipboard.readText().then((text) => text === link)", arg=links[2])
    shoot(page, "table-invites")

    game_id = page.url.rsplit("/", 1)[1].split("#")[0]
    invite = links[1].split("#token=")[1]
    assert httpx.post(f"{server.url}/api/games/{game_id}/claim", headers=auth(invite)).status_code == 200
    page.wait_for_selector("[data-testid=table-invite-1]", state="detached")
    assert page.locator("[data-testid=table-invite-2]").is_visible()
    page.reload()  # kept in this browser, not only in the page
    page.wait_for_selector("[data-testid=table-invite-2]")
    assert page.locator("[data-testid=table-invite-1]").count() == 0


@pytest.mark.parametrize("lang", ["fr", "de"])
def test_in_french_and_german_the_replay_says_the_move_in_words_and_skip_is_not_pass(server, new_page, lang):
    game, tokens = finished_game(server)
    page = new_page()
    page.context.add_cookies([{"name": "lang", "value": lang, "url": server.url}])
    log = httpx.get(f"{server.url}/api/games/{game['id']}", cookies={"lang": lang}).json()["log"]
    page.goto(f"{server.url}/game/{game['id']}#token={tokens[0]}")
    page.click("[data-testid=replay]")
    page.click("[data-testid=replay-next]")
    page.wait_for_function("() => document.querySelector('[data-testid=replay-move]')?.textContent.includes('1')",
                           polling=50)
    first = log[0]  # a card play: its words in the page's language, not the record's English notation
    shown = page.inner_text("[data-testid=replay-move]")
    assert first["text"] in shown and first["notation"] not in shown, shown
    assert page.get_attribute("[data-testid=replay-move]", "title") == first["notation"]
    # the log writes the notation in the page's words, the records' (every language's) as its tooltip
    notation = page.locator("#log [data-testid=log-notation]").first
    assert notation.inner_text() == first["shown_notation"] != first["notation"]
    assert first["notation"] in notation.get_attribute("title")
    # "Pass" (your turn) and "Skip" (the opponents' moves being shown) are two different words
    words = page.evaluate("""async () => { const { t } = await import("/static/i18n.js");
                                            return [t("Pass"), t("Skip ▸▸")]; }""")
    assert words[0].casefold() not in words[1].casefold(), words


def test_a_rated_game_offers_no_stand_in_stronger_than_the_server_allows(server, new_page):
    allowed = httpx.get(server.url + "/api/meta").json()["rated_stand_ins"]
    assert allowed == ["beginner", "intermediate"]
    page = new_page()
    page.goto(server.url + "/")
    page.wait_for_selector("[data-testid=rated]")
    page.select_option("[data-testid=stand-in]", "strong")
    page.check("[data-testid=rated]")
    assert page.input_value("[data-testid=stand-in]") == "intermediate"  # the strongest one a rated game allows
    options = page.eval_on_selector_all("[data-testid=stand-in] option", "options => options.map(o => [o.value, o.disabled])")
    assert {value for value, disabled in options if disabled} == {value for value, _ in options} - set(allowed)
    assert {"strong", "max"} <= {value for value, _ in options}
    page.uncheck("[data-testid=rated]")
    assert page.eval_on_selector_all("[data-testid=stand-in] option", "options => options.filter(o => o.disabled)") == []
