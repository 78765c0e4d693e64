"""Two seats chat at the table in Debian's chromium while a signed-in watcher chats apart (the open chat checked by
axe and on a phone's screen); a line holding HTML is shown as the text it is; then one seat blocks the other and
their lines stop reaching each other. The table
with the chat open is saved as build/test-output/web/screenshots/table-chat.png (docs/img/table-chat.png is a
copy in 256 colours)."""

from __future__ import annotations

from typing import Any

from webtools import LAPTOP, OUTPUT, PHONE, serious_accessibility_violations



def in_page(page: Any, method: str, path: str, body: dict[str, Any] | None = None,
            token: str | None = None) -> dict[str, Any]:
    """A JSON request from the page itself, so that the browser's own session cookie goes with it."""
    answer: dict[str, Any] = page.evaluate(
        """async ([method, path, body, token]) => {
            const headers = {"Content-Type": "application/json"};
            if (token) headers.Authorization = `Bearer ${token}`;
            const response = await fetch(path, {method, headers,
                                                body: body === null ? undefined : JSON.stringify(body)});
            return {status: response.status, data: await response.json()};
        }""", [method, path, body, token])
    assert answer["status"] in (200, 201), answer
    return answer["data"]


def say(page: Any, text: str) -> None:
    page.fill("[data-testid=chat-input]", text)
    page.press("[data-testid=chat-input]", "Enter")
    page.wait_for_function("t => [...document.querySelectorAll('[data-testid=chat-text]')].some(n => n.textContent === t)",
                           arg=text)


def texts(page: Any) -> list[str]:
    return page.locator("[data-testid=chat-text]").all_inner_texts()


def test_two_seats_chat_while_a_watcher_chats_apart_and_a_block_parts_them(server, browser):
    pages = {}
    for name in ("Lunete", "Bedwyr", "Cador"):
        context = browser.new_context(viewport=LAPTOP, reduced_motion="reduce", bypass_csp=True)  # axe's script
        context.set_default_timeout(15_000)
        page = context.new_page()
        page.errors = []
        page.on("pageerror", lambda exc, page=page: page.errors.append(str(exc)))
        page.on("dialog", lambda dialog: dialog.accept())  # "Block Lunete?"
        page.goto(server.url + "/")
        in_page(page, "POST", "/api/account/sign-up", {"name": name, "password": "a long password"})
        pages[name] = page
    lunete, bedwyr, cador = pages["Lunete"], pages["Bedwyr"], pages["Cador"]
    game = in_page(lunete, "POST", "/api/games", {"players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]})
    claimed = in_page(bedwyr, "POST", f"/api/games/{game['id']}/claim", {}, game["seats"][1]["invite_token"])
    lunete.goto(f"{server.url}/game/{game['id']}#token={game['seats'][0]['token']}")
    bedwyr.goto(f"{server.url}/game/{game['id']}#token={claimed['token']}")
    cador.goto(f"{server.url}/game/{game['id']}")
    for page in (lunete, bedwyr, cador):
        page.wait_for_selector("#conn.on")

    lunete.click("[data-testid=chat-toggle]")
    assert lunete.locator("[data-testid=chat-log]").get_attribute("role") == "log"
    assert lunete.locator("[data-testid=chat-log]").get_attribute("aria-live") == "polite"
    say(lunete, "<b>x</b> see https://example.com")
    bedwyr.wait_for_selector("[data-testid=chat-unread]:not(.hidden)")  # heard while closed: counted on the button
    assert bedwyr.inner_text("[data-testid=chat-unread]") == "1"
    bedwyr.click("[data-testid=chat-toggle]")
    bedwyr.wait_for_selector("[data-testid=chat-text]")
    assert texts(bedwyr) == ["<b>x</b> see https://example.com"]  # shown as text: no bold, no link
    assert bedwyr.locator("[data-testid=chat-log] b, [data-testid=chat-log] a").count() == 0
    say(bedwyr, "good luck")
    lunete.wait_for_function("() => document.querySelectorAll('[data-testid=chat-text]').length === 2")

    cador.click("[data-testid=chat-toggle]")  # a watcher: the watchers' chat only
    assert cador.locator("[data-testid=chat-tab-seats]").count() == 0
    say(cador, "watching you two")
    assert texts(cador) == ["watching you two"]
    assert serious_accessibility_violations(cador) == []
    cador.set_viewport_size(PHONE)  # a sheet along the bottom of a phone, all of it on screen
    box = cador.locator("[data-testid=chat]").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"] + 0.5
    assert box["y"] + box["height"] <= PHONE["height"] + 0.5 and cador.locator("[data-testid=chat-input]").is_visible()
    lunete.wait_for_timeout(300)
    assert "watching you two" not in texts(lunete)
    lunete.click("[data-testid=chat-tab-watchers]")  # a seat opens the watchers' chat
    lunete.wait_for_function("() => [...document.querySelectorAll('[data-testid=chat-text]')]"
                          ".some(n => n.textContent === 'watching you two')")
    lunete.click("[data-testid=chat-tab-seats]")
    lunete.wait_for_function("() => document.querySelectorAll('[data-testid=chat-text]').length === 2")
    OUTPUT.joinpath("screenshots").mkdir(parents=True, exist_ok=True)
    lunete.screenshot(path=str(OUTPUT / "screenshots" / "table-chat.png"))

    bedwyr.locator("[data-testid=chat-line]", has_text="<b>x</b>").locator("[data-testid=chat-block]").click()
    bedwyr.wait_for_function("() => !document.querySelector('[data-testid=chat-text]')"
                          " || [...document.querySelectorAll('[data-testid=chat-text]')].every(n => n.textContent === 'good luck')")
    say(lunete, "are you there?")
    say(bedwyr, "not for you")
    lunete.wait_for_timeout(300)
    assert "not for you" not in texts(lunete) and "are you there?" not in texts(bedwyr)
    assert texts(bedwyr) == ["good luck", "not for you"]
    for page in (lunete, bedwyr, cador):
        assert page.errors == []
        page.context.close()
