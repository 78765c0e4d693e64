"""The lobby for slow games in Debian's headless chromium: "my games" by time left with each game's clock, what a
time-out does, said where the clock is chosen, and the account's e-mail settings against a real SMTP server."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import httpx
from playwright.sync_api import expect
from sqlalchemy import create_engine, update
from webtools import Server, bot, fresh_sqlite, human, serious_accessibility_violations, wait_for

from kingisdead.web.accounts import SESSION_COOKIE
from kingisdead.web.db import GameRow

PASSWORD = "a long enough secret"
DAY = 86400



def sign_up(page, server: Server, name: str) -> dict[str, str]:
    """Sign up in the lobby's form; the session cookie, for requests made by the test as that player."""
    page.goto(server.url + "/")
    page.get_by_test_id("account-name").fill(name)
    page.get_by_test_id("account-password").fill(PASSWORD)
    page.get_by_test_id("sign-up").click()
    page.wait_for_function("name => document.body?.dataset.account === name", arg=name)
    [secret] = [c["value"] for c in page.context.cookies() if c["name"] == SESSION_COOKIE]
    return {"Cookie": f"{SESSION_COOKIE}={secret}"}


def clocks(page) -> list[list[str]]:
    """Each running game of "my games", in order: its id, its clock's text and whether it is marked urgent."""
    return page.eval_on_selector_all("[data-testid=my-games] [data-testid=my-game]", """items => items.map(li => {
        const clock = li.querySelector("[data-testid=game-clock]");
        return [li.dataset.game, clock ? clock.textContent : "", clock ? clock.dataset.urgent : ""];
    })""")


def test_my_slow_games_come_by_time_left_with_their_clocks_ticking(server, new_page):
    page = new_page()
    page.clock.install()  # the page's time runs as usual, until the test jumps it forward
    cookie = sign_up(page, server, "Lamorak")
    with httpx.Client(base_url=server.url, headers=cookie) as http:
        def made(seats: list[dict], **settings) -> str:
            answer = http.post("/api/games", json={"players": 2, "seats": seats, "seed": 5, **settings})
            assert answer.status_code == 201, answer.text
            return answer.json()["id"]

        # made in the wrong order for "most recently changed first": only the clocks put them right
        theirs = made([human(), {"kind": "human", "public": True}], first_player=1, time_limit=DAY)
        later = made([human(), bot("random")], time_limit=3 * DAY)
        sooner = made([human(), bot("random")], time_limit=DAY)
    now = datetime.now(UTC)
    deadlines = {sooner: now + timedelta(hours=1, minutes=30), later: now + timedelta(days=2, hours=4, minutes=30),
                 theirs: now + timedelta(hours=1, minutes=20)}
    engine = create_engine(server.database_url)
    with engine.begin() as connection:
        for game_id, deadline in deadlines.items():
            connection.execute(update(GameRow).where(GameRow.id == game_id).values(deadline=deadline))
    engine.dispose()

    page.reload()
    page.wait_for_selector(f"[data-testid=my-game][data-game='{theirs}'] [data-testid=game-clock]")
    shown = clocks(page)
    assert [game for game, _, _ in shown] == [sooner, later, theirs]
    assert re.fullmatch(r"1 h (29|30) min left", shown[0][1]) and shown[0][2] == "no", shown
    assert shown[1][1:] == ["2 d 4 h left", "no"], shown
    assert re.fullmatch(r"1 h (19|20) min left", shown[2][1]) and shown[2][2] == "no", shown
    assert page.locator("[data-testid=my-games] [data-testid=your-turn]").count() == 2

    page.clock.fast_forward("01:00:00")  # an hour later, without a reload: your last hour is urgent, theirs not
    page.wait_for_function("""() => document.querySelector("[data-testid=game-clock]")?.dataset.urgent === "yes" """)
    shown = clocks(page)
    assert re.fullmatch(r"(29|30) min left", shown[0][1]) and shown[0][2] == "yes", shown
    assert shown[1][1:] == ["2 d 3 h left", "no"], shown
    assert re.fullmatch(r"(19|20) min left", shown[2][1]) and shown[2][2] == "no", shown
    assert serious_accessibility_violations(page) == []  # the urgent clock's colours too
    # this server has no SMTP server: the account panel says so, and asks for no address
    expect(page.get_by_test_id("mail-off")).to_have_text("This site sends no e-mail.")
    assert page.get_by_test_id("email-input").count() == 0


def test_the_create_form_says_what_a_time_out_does_for_the_chosen_clock(server, new_page):
    page = new_page(url=server.url + "/")
    help_text = page.get_by_test_id("timeout-help")
    assert help_text.inner_text().startswith("No time limit: nobody runs out of time.")
    page.select_option("[data-testid=time-limit]", "600")
    page.select_option("[data-testid=stand-in]", "beginner")
    said = help_text.inner_text()
    assert "(10 min per move) is played by the beginner bot until they come back" in said
    assert "a seat played more by the stand-in than by its player counts as a loss" in said
    assert "e-mail" not in said  # a fast game sends no reminders
    page.select_option("[data-testid=time-limit]", str(3 * DAY))
    page.select_option("[data-testid=stand-in]", "intermediate")
    said = help_text.inner_text()
    assert "(3 days per move) is played by the intermediate bot" in said
    # this site has no SMTP server and no push keys: no reminder is promised (there is no switch to turn on)
    assert "This site sends no reminders by e-mail or push: look in on your games from the lobby." in said
    assert "turn them on" not in said


def mail_server_site(smtp_server, tmp_path, migrated_sqlite) -> Server:
    """A site sending its mail to ``smtp_server``, its notification rounds every 0.2 s."""
    mail = {"KINGISDEAD_SMTP_HOST": "127.0.0.1", "KINGISDEAD_SMTP_PORT": str(smtp_server.port),
            "KINGISDEAD_SMTP_TLS": "none", "KINGISDEAD_MAIL_FROM": "king@example.org",
            "KINGISDEAD_NOTIFY_EVERY": "0.2"}
    return Server(fresh_sqlite(migrated_sqlite, tmp_path / "games.sqlite3"), env=mail).start()


def test_an_address_is_saved_confirmed_by_its_link_and_the_choices_kept(smtp_server, tmp_path, migrated_sqlite,
                                                                        new_page):
    server = mail_server_site(smtp_server, tmp_path, migrated_sqlite)
    try:
        page = new_page()
        sign_up(page, server, "Dagonet")
        page.select_option("[data-testid=time-limit]", str(3 * DAY))  # a site with mail (no push keys) says so
        said = page.get_by_test_id("timeout-help").inner_text()
        assert "Reminders of your turn and of your last hour come by e-mail once you turn them on" in said, said
        panel = page.get_by_test_id("notifications")
        panel.get_by_test_id("email-input").fill("not an address")
        panel.get_by_test_id("email-save").click()
        expect(panel.get_by_test_id("email-error")).to_contain_text("this is not an e-mail address: not an address")
        assert smtp_server.mailbox.messages == []

        panel.get_by_test_id("email-input").fill("dagonet@example.org")
        panel.get_by_test_id("email-save").click()
        state = panel.get_by_test_id("email-state")
        assert state.inner_text().startswith("Waiting for confirmation: we sent a link to dagonet@example.org.")
        assert state.get_attribute("data-confirmed") == "no"
        assert panel.get_by_test_id("email-pending-note").is_visible()
        [message] = wait_for(lambda: smtp_server.mailbox.messages, what="the confirmation message")
        assert message["To"] == "dagonet@example.org"
        [link] = re.findall(r"http://\S+/email/confirm\?token=\S+", message.get_body(("plain",)).get_content())

        confirming = page.context.new_page()
        confirming.goto(link)  # a page with a button: opening the link alone confirms nothing
        confirming.get_by_test_id("notice-action").click()
        confirming.wait_for_selector("[data-testid=back-to-lobby]")
        assert "dagonet@example.org" in confirming.inner_text("main")
        confirming.close()
        page.reload()
        expect(state).to_have_text("dagonet@example.org: confirmed")
        assert panel.get_by_test_id("email-pending-note").count() == 0
        assert serious_accessibility_violations(page) == []

        choices = {name: panel.get_by_test_id(f"email-{name}") for name in ("digest", "clock", "ended")}
        assert [box.is_checked() for box in choices.values()] == [True, True, False]  # the defaults
        with page.expect_response(lambda r: r.url.endswith("/api/account/notifications") and r.request.method == "PATCH"):
            choices["ended"].check()
        with page.expect_response(lambda r: r.url.endswith("/api/account/notifications") and r.request.method == "PATCH"):
            choices["digest"].uncheck()
        page.reload()
        expect(state).to_be_visible()
        assert [box.is_checked() for box in choices.values()] == [False, True, True]
        assert len(smtp_server.mailbox.messages) == 1  # nothing but the confirmation
        panel.get_by_test_id("email-remove").click()
        panel.get_by_test_id("email-input").wait_for()
        page.reload()
        expect(panel.get_by_test_id("email-input")).to_have_value("")
    finally:
        server.stop()


def test_a_message_that_could_not_be_delivered_is_shown_in_the_account(smtp_server, tmp_path, migrated_sqlite,
                                                                        new_page):
    smtp_server.mailbox.refuse["nobody@example.org"] = "550 5.1.1 no such mailbox"
    server = mail_server_site(smtp_server, tmp_path, migrated_sqlite)
    try:
        page = new_page()
        sign_up(page, server, "Dagonet")
        page.select_option("[data-testid=time-limit]", str(3 * DAY))  # a site with mail (no push keys) says so
        said = page.get_by_test_id("timeout-help").inner_text()
        assert "Reminders of your turn and of your last hour come by e-mail once you turn them on" in said, said
        panel = page.get_by_test_id("notifications")
        panel.get_by_test_id("email-input").fill("nobody@example.org")
        panel.get_by_test_id("email-save").click()
        expect(panel.get_by_test_id("email-state")).to_contain_text("nobody@example.org")

        def shown() -> bool:
            page.reload()
            panel.get_by_test_id("email-state").wait_for()
            return panel.get_by_test_id("email-undelivered").count() == 1

        wait_for(shown, what="the failure in the account panel")
        expect(panel.get_by_test_id("email-undelivered")).to_contain_text(
            "The last message to nobody@example.org could not be delivered: recipient refused: [550]")
    finally:
        server.stop()
