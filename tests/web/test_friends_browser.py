"""Friends in Debian's chromium (Playwright) against a real server: two signed-in people follow each other from the
lobby's friends panel, see each other online and the game they share with whose turn it is, then one blocks the
other and the follows go both ways. The friends panel is saved as build/test-output/web/screenshots/friends-panel.png
(docs/img/friends-panel.png is a copy for docs/web.md)."""

from __future__ import annotations


import httpx
from webtools import LAPTOP, OUTPUT, Server, human, serious_accessibility_violations

from kingisdead.web.accounts import SESSION_COOKIE

PASSWORD = "a long enough secret"



def signed_up(new_page, server: Server, name: str):
    """A page of a fresh browser on the lobby, signed up as ``name``, its friends panel shown."""
    page = new_page(LAPTOP, server.url + "/")
    page.get_by_test_id("account-name").fill(name)
    page.get_by_test_id("account-password").fill(PASSWORD)
    page.get_by_test_id("sign-up").click()
    page.get_by_test_id("no-friends").wait_for()
    return page


def follow(page, typed: str, name: str) -> None:
    """Follow ``typed`` from the panel's field; the list then shows the account's ``name``."""
    page.get_by_label("Follow a player").fill(typed)
    page.get_by_role("button", name="Follow", exact=True).click()
    page.locator(f"[data-testid=friend][data-name='{name}']").wait_for()


def test_two_friends_see_each_other_online_and_their_game_then_a_block_ends_both_follows(new_page, server):
    nimue, pelleas = signed_up(new_page, server, "Nimue"), signed_up(new_page, server, "Pelleas")
    cookie = {name: {"Cookie": f"{SESSION_COOKIE}={next(c['value'] for c in page.context.cookies() if c['name'] == SESSION_COOKIE)}"}
              for name, page in (("nimue", nimue), ("pelleas", pelleas))}
    with httpx.Client(base_url=server.url) as http:
        games = []
        for first in (1, 0):  # two games of theirs: Pelleas's turn in the first, Nimue's in the second
            game = http.post("/api/games", headers=cookie["nimue"], json={
                "players": 2, "seats": [human(), {"kind": "human", "public": True}], "seed": 5, "first_player": first})
            assert http.post(f"/api/games/{game.json()['id']}/join", headers=cookie["pelleas"], json={}).status_code == 200
            games.append(game.json()["id"])
        # Ettard signs up and is not seen again: offline
        assert http.post("/api/account/sign-up", json={"name": "Ettard", "password": PASSWORD}).status_code == 201

    follow(nimue, "pelleas", "Pelleas")
    follow(nimue, "ettard", "Ettard")
    follow(pelleas, "Nimue", "Nimue")
    nimue.reload()  # Pelleas follows her now: the panel says so
    his = nimue.locator("[data-testid=friend][data-name='Pelleas']")
    his.get_by_test_id("follows-you").wait_for()
    assert his.get_attribute("data-online") == "yes"
    assert his.get_by_role("img", name="online").is_visible()
    links = his.get_by_test_id("shared-game")
    assert [(links.nth(i).get_attribute("href"), links.nth(i).get_attribute("data-turn"), links.nth(i).inner_text())
            for i in range(links.count())] == [(f"/game/{games[0]}", "theirs", "their turn"),
                                               (f"/game/{games[1]}", "yours", "your turn")]
    ettard = nimue.locator("[data-testid=friend][data-name='Ettard']")
    assert ettard.get_attribute("data-online") == "no" and ettard.get_by_role("img", name="offline").is_visible()
    assert nimue.get_by_test_id("friend").nth(1).get_attribute("data-name") == "Ettard"  # online ones first
    hers = pelleas.locator("[data-testid=friend][data-name='Nimue']")
    assert hers.get_attribute("data-online") == "yes"
    shared = hers.get_by_test_id("shared-game")
    assert [shared.nth(i).get_attribute("data-turn") for i in range(2)] == ["yours", "theirs"]
    assert serious_accessibility_violations(nimue) == []
    OUTPUT.joinpath("screenshots").mkdir(parents=True, exist_ok=True)
    nimue.get_by_test_id("friends").screenshot(path=str(OUTPUT / "screenshots" / "friends-panel.png"))

    # Nimue blocks Pelleas from her list: the follows go both ways
    his.get_by_role("button", name="Block Pelleas").click()
    his.wait_for(state="detached")
    assert nimue.evaluate("() => document.activeElement.dataset.testid") == "friend-name"  # the button went
    nimue.get_by_test_id("block-list").locator("summary").click()
    assert nimue.locator("[data-testid=blocked][data-name='Pelleas']").is_visible()
    assert [f.get_attribute("data-name") for f in nimue.get_by_test_id("friend").all()] == ["Ettard"]
    pelleas.reload()
    pelleas.get_by_test_id("no-friends").wait_for()
    assert pelleas.get_by_test_id("blocked").count() == 0  # her block list is hers alone
    pelleas.get_by_label("Follow a player").fill("Nimue")
    pelleas.get_by_role("button", name="Follow", exact=True).click()
    status = pelleas.get_by_test_id("friends-status")
    status.filter(has_text="takes no new followers").wait_for()
    assert pelleas.get_by_test_id("friend").count() == 0
