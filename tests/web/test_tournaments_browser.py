"""A tournament in Debian's chromium (Playwright) against a real server: Morgause creates one from the lobby's
tournaments panel (a refused setting first, its message shown), Gaheris enters it from his lobby on a phone in French,
its page shows them both, and once it has started (its start moved into the past in the database; the server's
tournament loop starts it within seconds) the page shows round 1's table, whose link takes Morgause to her seat. The
pages are saved as build/test-output/web/screenshots/tournament-laptop.png and tournament-phone.png
(docs/img/ holds copies for docs/web.md)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import httpx
from sqlalchemy import create_engine, update
from test_i18n_browser import untranslated
from webtools import LAPTOP, OUTPUT, Server, serious_accessibility_violations, wait_for

from kingisdead.web.db import TournamentRow

PASSWORD = "a long enough secret"
PHONE = {"width": 360, "height": 740}  # the narrowest phone the site is laid out for



def signed_up(new_page, server: Server, name: str, size: dict[str, int] = LAPTOP, **options):
    """A page of a fresh browser (``size``, ``options`` such as its locale) on the lobby, signed up as ``name``,
    its tournaments panel opened from the keyboard."""
    page = new_page(size, server.url + "/", **options)
    page.get_by_test_id("account-name").fill(name)
    page.get_by_test_id("account-password").fill(PASSWORD)
    page.get_by_test_id("sign-up").click()
    page.get_by_test_id("sign-out").wait_for()
    page.get_by_test_id("tournaments-open").focus()
    page.keyboard.press("Enter")
    page.locator("[data-testid=tournament-list], [data-testid=no-tournaments]").first.wait_for()
    return page


def shown_again(page) -> None:
    """The page comes back into view (the window's focus): it asks for the tournament again."""
    page.evaluate("dispatchEvent(new Event('focus'))")


def test_a_tournament_made_in_the_lobby_pairs_its_two_entrants_at_a_table_each_can_reach(new_page, server):
    morgause = signed_up(new_page, server, "Morgause")
    morgause.get_by_test_id("create-tournament-open").click()
    form = morgause.get_by_role("form", name="Create a tournament")
    form.get_by_label("Name", exact=True).fill("Winter Swiss")
    form.get_by_label("Edition", exact=True).select_option("second")
    form.get_by_label("Rounds", exact=True).fill("2")
    form.get_by_label("shared win", exact=True).fill("3")  # more than a win: the API refuses, the form says why
    form.get_by_role("button", name="Create tournament").click()
    refusal = form.get_by_role("alert")
    refusal.wait_for()
    assert "a win is worth at least a shared place" in refusal.inner_text()
    form.get_by_label("shared win", exact=True).fill("1")
    form.get_by_role("button", name="Create tournament").click()
    morgause.wait_for_url(f"{server.url}/tournaments/*")
    tournament = int(morgause.url.rsplit("/", 1)[1])
    morgause.get_by_role("heading", name="Winter Swiss").wait_for()
    settings = morgause.get_by_test_id("tournament-settings").inner_text()
    assert "second edition, 2 players per table" in settings and "1 day per move" in settings
    assert "open for entries" in settings and "2 for a win, 1 for a shared win, 0 for a loss" in settings
    morgause.get_by_role("button", name="Enter Winter Swiss").click()
    morgause.get_by_role("button", name="Withdraw from Winter Swiss").wait_for()
    assert morgause.evaluate("document.activeElement.dataset.testid") == "withdraw"  # the focus stays on the button

    gaheris = signed_up(new_page, server, "Gaheris", PHONE, locale="fr-FR")  # Gaheris reads French, on a phone
    listed = gaheris.locator(f"[data-testid=tournament][data-id='{tournament}']")
    assert "Winter Swiss" in listed.inner_text() and "1/64 inscrits" in listed.inner_text()
    assert gaheris.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]  # the lobby's panel fits too
    listed.get_by_test_id("enter").click()
    listed.get_by_test_id("entered").wait_for()
    listed.get_by_test_id("tournament-link").click()
    gaheris.wait_for_url(f"{server.url}/tournaments/{tournament}")
    gaheris.get_by_test_id("entrant").nth(1).wait_for()
    assert sorted(gaheris.get_by_test_id("entrant").all_inner_texts()) == ["Gaheris", "Morgause"]
    assert gaheris.evaluate("document.documentElement.lang") == "fr" and untranslated(gaheris, "fr") == []

    # the start moved into the past: the server's loop (every 5 s) starts it, pairs round 1 and makes its game
    engine = create_engine(server.database_url)
    with engine.begin() as connection:
        connection.execute(update(TournamentRow).where(TournamentRow.id == tournament)
                           .values(starts_at=datetime.now(UTC) - timedelta(seconds=1)))
    engine.dispose()
    with httpx.Client(base_url=server.url) as http:
        wait_for(lambda: any(table["game"] for round_ in http.get(f"/api/tournaments/{tournament}").json()["rounds"]
                             for table in round_["tables"]), timeout=20, what="round 1's game")
        assert [http.get(path).status_code for path in ("/tournaments/abc", "/tournaments/1" + "0" * 30)] == [404, 404]

    shown_again(gaheris)
    table = gaheris.get_by_test_id("table")
    table.wait_for()
    assert sorted(table.get_by_test_id("table-seat").all_inner_texts()) == ["Gaheris", "Morgause"]
    assert gaheris.get_by_test_id("table-game").inner_text() == "Jouer"  # his own game: to play, not to watch
    assert sorted(gaheris.get_by_test_id("standing").locator("th").all_inner_texts()) == ["Gaheris", "Morgause"]
    assert gaheris.get_by_role("table", name="Classement : les parties comptées jusqu'ici").is_visible()
    assert gaheris.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]  # nothing wider than the phone
    assert untranslated(gaheris, "fr") == []
    assert serious_accessibility_violations(gaheris) == []
    OUTPUT.joinpath("screenshots").mkdir(parents=True, exist_ok=True)
    gaheris.screenshot(path=str(OUTPUT / "screenshots" / "tournament-phone.png"))

    shown_again(morgause)
    morgause.get_by_test_id("table").wait_for()
    assert morgause.get_by_test_id("tournament-status").inner_text() == "round 1 of 2"
    assert serious_accessibility_violations(morgause) == []
    morgause.screenshot(path=str(OUTPUT / "screenshots" / "tournament-laptop.png"))
    morgause.get_by_role("link", name="Play: table 1").click()
    morgause.wait_for_url(f"{server.url}/game/**")
    morgause.get_by_test_id("board-view").wait_for()
    morgause.get_by_test_id("hand-card").first.wait_for()  # her seat's hand: the account holds the seat
