"""A challenge in Debian's chromium (Playwright) against a real server: Alice challenges Bob from her friends panel,
and Carol for the third seat of a 3-player game; Carol accepts (through the API), Bob sees her answer in his lobby's
challenges panel on a phone and accepts last, which makes the game, and both reach the table, each in their own seat.
At the table Bob's page pings on its socket every 2 minutes while visible, never while hidden (friends' "online").
The challenges panel with Bob's incoming challenge is saved as build/test-output/web/screenshots/challenge.png
(docs/img/challenge.png is a copy for docs/web.md)."""

from __future__ import annotations


import httpx
from webtools import LAPTOP, OUTPUT, PHONE, Server, serious_accessibility_violations

from kingisdead.web.accounts import SESSION_COOKIE

PASSWORD = "a long enough secret"



def signed_up(new_page, server: Server, name: str, size: dict[str, int] = LAPTOP):
    """A page of a fresh browser (``size``) on the lobby, signed up as ``name``, its challenges panel shown."""
    page = new_page(size, server.url + "/")
    page.get_by_test_id("account-name").fill(name)
    page.get_by_test_id("account-password").fill(PASSWORD)
    page.get_by_test_id("sign-up").click()
    page.get_by_test_id("no-incoming").wait_for()
    return page


def test_a_challenge_from_the_friends_panel_accepted_in_the_lobby_seats_both_at_the_table(new_page, server):
    alice, bob = signed_up(new_page, server, "Alice"), signed_up(new_page, server, "Bob", PHONE)  # Bob on a phone
    cookie = next(c["value"] for c in alice.context.cookies() if c["name"] == SESSION_COOKIE)
    with httpx.Client(base_url=server.url) as http:
        assert http.post("/api/friends", headers={"Cookie": f"{SESSION_COOKIE}={cookie}"},
                         json={"name": "Bob"}).status_code == 200
    carol = httpx.Client(base_url=server.url)  # a third person, through the API
    signed = carol.post("/api/account/sign-up", json={"name": "Carol", "password": PASSWORD})
    assert signed.status_code == 201
    carol.headers["Cookie"] = f"{SESSION_COOKIE}={signed.cookies[SESSION_COOKIE]}"
    alice.reload()
    alice.get_by_role("button", name="Challenge Bob").click()  # the friend's button fills the challenge field
    field = alice.get_by_label("Challenge a player")
    assert field.input_value() == "Bob"
    assert alice.evaluate("document.activeElement.id") == "challenge-name"
    alice.locator("#players button[data-n='3']").click()  # the create form's settings go with it
    alice.get_by_test_id("time-limit").select_option("86400")
    alice.get_by_text("More people (3 or 4 players)").click()
    alice.get_by_label("Player 3").fill("Carol")
    alice.get_by_role("button", name="Challenge", exact=True).click()
    mine = alice.locator("[data-testid=outgoing-challenge][data-status=open]")
    mine.wait_for()
    assert "1 day per move" in mine.inner_text() and "Carol: waiting" in mine.inner_text()
    challenge = carol.get("/api/challenges").json()["incoming"][0]["id"]
    assert carol.post(f"/api/challenges/{challenge}/accept", json={}).json()["game"] is None  # Bob has not answered

    bob.reload()
    theirs = bob.get_by_test_id("incoming-challenge")
    theirs.wait_for()
    assert "Alice" in theirs.inner_text() and "1 day per move" in theirs.inner_text()
    assert "Carol: accepted" in theirs.inner_text()
    assert serious_accessibility_violations(bob) == []
    assert bob.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]  # nothing wider than the phone
    OUTPUT.joinpath("screenshots").mkdir(parents=True, exist_ok=True)
    bob.get_by_test_id("challenges").screenshot(path=str(OUTPUT / "screenshots" / "challenge.png"))
    sent: list[str] = []  # what Bob's pages send on their sockets
    bob.on("websocket", lambda socket: socket.on("framesent", lambda payload: sent.append(str(payload))))
    bob.clock.install()  # the table's timers, moved on below
    bob.get_by_role("button", name="Accept the challenge of Alice").click()  # the last accept: the game is made
    bob.wait_for_url(f"{server.url}/game/**")
    game_id = bob.url.rsplit("/", 1)[1]
    bob.get_by_test_id("board-view").wait_for()

    def pings(expected: int) -> int:
        """The pings sent so far, once ``expected`` of them were seen (or after 5 s)."""
        for _ in range(100):
            if sum('"ping"' in payload for payload in sent) >= expected:
                break
            bob.wait_for_timeout(50)
        return sum('"ping"' in payload for payload in sent)

    bob.locator("#conn.on").wait_for(state="attached")  # the socket is open
    bob.clock.fast_forward(121_000)
    assert pings(1) == 1
    hidden = "(hide) => { Object.defineProperty(document, 'hidden', {value: hide, configurable: true}); " \
             "document.dispatchEvent(new Event('visibilitychange')); }"
    bob.evaluate(hidden, True)
    bob.clock.fast_forward(121_000)
    assert pings(1) == 1  # a hidden tab sends nothing
    bob.evaluate(hidden, False)  # shown again: at once
    assert pings(2) == 2

    alice.reload()  # (the panel refreshes itself every 10 s)
    alice.get_by_test_id("challenge-game").click()
    alice.wait_for_url(f"{server.url}/game/{game_id}")
    alice.get_by_test_id("board-view").wait_for()
    with httpx.Client(base_url=server.url) as http:
        view = http.get(f"/api/games/{game_id}", headers={"Cookie": f"{SESSION_COOKIE}={cookie}"}).json()
    assert view["you"] == 0 and view["time_limit"] == 86400
    assert [s["name"] for s in view["seats"]] == ["Alice", "Bob", "Carol"]
    assert carol.get(f"/api/games/{game_id}").json()["you"] == 2
    carol.close()
