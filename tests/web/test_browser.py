"""People playing in Debian's headless chromium, driven by Playwright, against a real server.

Screenshots of the table land in build/test-output/web/.
"""

from __future__ import annotations


import httpx
import pytest
from webtools import OUTPUT, bot, create, human


LAPTOP = {"width": 1366, "height": 800}
PHONE = {"width": 390, "height": 844}



@pytest.fixture
def new_page(browser):
    contexts = []

    def make(viewport: dict = LAPTOP):
        context = browser.new_context(viewport=viewport, reduced_motion="reduce")
        context.set_default_timeout(30_000)  # a loaded 2-core machine can be slow; failures still end
        contexts.append(context)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.errors = errors
        return page

    yield make
    for context in contexts:
        assert not getattr(context.pages[0], "errors", []) if context.pages else True, context.pages[0].errors
        context.close()


def shoot(page, name: str, full_page: bool = False) -> None:
    OUTPUT.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(OUTPUT / f"{name}.png"), full_page=full_page)


def move_number(page) -> int:
    return int(page.get_attribute("body", "data-move") or -1)


def wait_for_turn(page, after: int = -1) -> str:
    """Wait until it is this page's turn (or the game is over) at a move number past ``after``."""
    try:
        page.wait_for_function(
            "after => ['you', 'over'].includes(document.body?.dataset.turn) && Number(document.body?.dataset.move) > after",
            arg=after, timeout=60_000, polling=50)
    except Exception:
        shoot(page, "failure-wait-for-turn")
        raise
    turn = page.get_attribute("body", "data-turn")
    if turn == "you":
        page.wait_for_selector("[data-testid=pass]", timeout=30_000)
    return turn


def play_turn(page, with_card: bool, shot: str | None = None) -> int:
    """Make one move by clicking: a card and its first offered choices, or a pass; then confirm.

    Returns the move number before the move, to wait for the next turn after it.
    """
    before = move_number(page)
    playable = page.locator("[data-testid=hand-card].playable")
    if with_card and playable.count():
        playable.first.click()
        page.wait_for_selector("[data-testid=choice], [data-testid=confirm]")
        if shot:
            shoot(page, shot)
        while not page.locator("[data-testid=confirm]").count():
            steps = page.locator(".crumbs span").count()
            page.locator("[data-testid=choice]").first.click()
            page.wait_for_function("n => document.querySelectorAll('.crumbs span').length > n", arg=steps, polling=50)
    else:
        page.click("[data-testid=pass]")
    page.wait_for_selector("[data-testid=confirm]")
    page.click("[data-testid=confirm]")
    page.wait_for_function("n => Number(document.body?.dataset.move) > n", arg=before, timeout=30_000, polling=50)
    return before


def test_a_person_plays_a_bot_to_the_end_and_replays_the_game(server, new_page):
    page = new_page()
    page.goto(server.url + "/")
    page.check("[data-testid=advanced-bots]")  # the raw random bot, for a short game
    page.select_option("[data-testid=seat-1]", "bot:random")
    page.fill("[data-testid=seed]", "193")  # a short game: 12 turns of ours
    page.fill("[data-testid=name-0]", "Guinevere")
    page.click("[data-testid=create]")
    page.wait_for_url("**/game/*")
    turn, turns = wait_for_turn(page), 0
    shoot(page, "table-start-laptop")
    while turn == "you":
        before = play_turn(page, with_card=turns % 3 == 0, shot="table-choosing-laptop" if turns == 3 else None)
        turns += 1
        if turns == 6:
            shoot(page, "table-midgame-laptop")
        turn = wait_for_turn(page, before)
    assert turn == "over" and turns >= 4
    result = page.locator("[data-testid=result]")
    result.wait_for()
    reason = page.locator("[data-testid=result-reason]").inner_text()
    assert reason.split(":")[0] in ("Coronation", "The Saxons invade")
    assert result.inner_text().count(reason) == 1  # said once, not again in the explanation
    shoot(page, "table-result-laptop")
    href = page.get_attribute("[data-testid=download-record]", "href")
    record = httpx.get(server.url + href).json()
    assert record["players"][0] == "Guinevere" and record["result"] is not None
    page.click("[data-testid=replay]")
    page.wait_for_selector("[data-testid=replay-bar]:not(.hidden)")
    assert page.inner_text("[data-testid=replay-position]") == f"Move 0 / {len(record['moves'])}"
    for n in (1, 2):  # one click at a time: each click redraws the bar, a second one could hit the old button
        page.click("[data-testid=replay-next]")
        page.wait_for_function("n => document.querySelector('[data-testid=replay-position]')?.innerText"
                               ".startsWith(`Move ${n} `)", arg=n)
    assert page.locator("#log li.current[data-number='2']").count() == 1
    shoot(page, "table-replay-laptop")


def test_two_people_play_each_other_from_two_browsers(server, new_page):
    alice = new_page()
    alice.goto(server.url + "/")
    alice.fill("[data-testid=seed]", "191")  # ends by invasion after 11 moves
    alice.select_option("[data-testid=seat-1]", "human")
    alice.click("[data-testid=create]")
    invite = alice.locator("[data-testid=invite-1]")
    invite.wait_for()
    link = invite.input_value()
    alice.click("[data-testid=open-game]")
    bob = new_page(PHONE)
    bob.goto(link)
    pages = [alice, bob]
    mover, before, moves = 0, -1, 0
    while wait_for_turn(pages[mover], before) == "you":
        if moves == 3:
            assert bob.locator("[data-testid=player] .row:has-text('Hand:')").count() == 0  # no one else's hand
            shoot(bob, "table-second-player-phone", full_page=True)
        before = play_turn(pages[mover], with_card=moves < 3)
        mover, moves = 1 - mover, moves + 1
    assert "#token=" not in bob.url  # the secret left the address bar
    for page in pages:
        page.wait_for_function("() => document.body?.dataset.turn === 'over'")
    titles = {page.inner_text("[data-testid=result-title]") for page in pages}
    assert len(titles) == 1
    shoot(bob, "table-result-phone", full_page=True)


def test_a_reload_mid_game_restores_the_table(server, new_page):
    with httpx.Client(base_url=server.url) as http:
        game = create(http, [human(), bot("random")], seed=5)
    page = new_page(PHONE)
    page.goto(f"{server.url}/game/{game['id']}#token={game['seats'][0]['token']}")
    wait_for_turn(page)
    wait_for_turn(page, play_turn(page, with_card=True))
    wait_for_turn(page, play_turn(page, with_card=False))
    log_before = page.inner_text("[data-testid=log]")
    hand_before = page.locator("[data-testid=hand-card]").all_inner_texts()
    number = move_number(page)
    page.reload()
    wait_for_turn(page)
    assert move_number(page) == number
    assert page.inner_text("[data-testid=log]") == log_before
    assert page.locator("[data-testid=hand-card]").all_inner_texts() == hand_before
    shoot(page, "table-after-reload-phone", full_page=True)


def test_hot_seat_veils_each_hand_until_its_owner_is_ready(server, new_page):
    page = new_page()
    page.goto(server.url + "/")
    page.select_option("[data-testid=seat-1]", "human")
    page.check("[data-testid=hotseat]")
    page.click("[data-testid=create]")
    page.wait_for_url("**/game/*")
    for seat in (0, 1, 0):
        veil = page.locator("[data-testid=veil]")
        veil.wait_for(state="visible")
        assert f"Player {seat + 1}" in veil.inner_text()
        assert page.locator("[data-testid=hand]").count() == 0  # no hand behind the veil
        if seat == 1:
            shoot(page, "table-hotseat-veil-laptop")
        page.click("[data-testid=reveal]")
        wait_for_turn(page)
        assert page.locator(f"[data-testid=player][data-seat='{seat}'] .tag").first.inner_text() == "you"
        play_turn(page, with_card=False)


def console_of(page) -> list[str]:
    messages: list[str] = []
    page.on("console", lambda message: messages.append(message.text))
    return messages


def test_an_invite_link_opens_only_for_the_browser_that_claimed_it(server, new_page):
    alice = new_page()
    alice.goto(server.url + "/")
    alice.select_option("[data-testid=seat-1]", "human")
    assert alice.locator("[data-testid=access-0]").is_hidden()  # the creator's own seat
    assert alice.input_value("[data-testid=access-1]") == "private"
    alice.click("[data-testid=create]")
    invite = alice.locator("[data-testid=invite-1]")
    invite.wait_for()
    link = invite.input_value()
    assert link.startswith(server.url + "/game/") and "#token=invite-" in link
    bob = new_page(PHONE)
    bob_console = console_of(bob)
    bob.goto(link)
    bob.locator("[data-testid=hand-card]").first.wait_for(state="attached")  # folded while waiting on a phone
    assert bob.locator("[data-testid=player][data-seat='1'] .tag").first.inner_text() == "you"
    eve = new_page()
    eve_console = console_of(eve)
    eve.goto(link)  # the same link, forwarded or read over a shoulder: the seat is Bob's now
    eve.locator("#toast").wait_for(state="visible")
    assert "already used" in eve.inner_text("#toast")
    eve.wait_for_function("() => document.body?.dataset.turn === 'wait'")
    assert eve.locator("[data-testid=hand-card]").count() == 0
    bob.reload()  # Bob's browser keeps the seat through its own new token
    bob.locator("[data-testid=hand-card]").first.wait_for(state="attached")  # folded while waiting on a phone
    for messages in (bob_console, eve_console):
        assert not [m for m in messages if "Content Security Policy" in m], messages


def test_the_api_docs_work_offline_under_the_security_policy(server, new_page):
    page = new_page()
    messages = console_of(page)
    page.goto(server.url + "/docs")
    page.locator(".swagger-ui .info .title").wait_for()
    assert "The King Is Dead" in page.inner_text(".swagger-ui .info .title")
    page.get_by_text("/api/games/{game_id}/claim").first.wait_for()
    assert not [m for m in messages if "Content Security Policy" in m], messages
    shoot(page, "api-docs-laptop")


def test_the_creator_opens_a_private_seat_from_the_table(server, new_page):
    with httpx.Client(base_url=server.url) as http:
        game = create(http, [human(), human()], seed=6, claim=False)
    page = new_page()
    page.goto(f"{server.url}/game/{game['id']}#token={game['seats'][0]['token']}")
    page.click("[data-testid=open-seat-1]")
    page.locator("[data-testid=player][data-seat='1'] .tag:has-text('open in the lobby')").wait_for()
    with httpx.Client(base_url=server.url) as http:
        listed = http.get("/api/games", params={"status": "open"}).json()["games"]
        assert game["id"] in [g["id"] for g in listed]
        assert http.post(f"/api/games/{game['id']}/join").json()["seat"] == 1
