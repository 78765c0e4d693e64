"""In Debian's headless chromium: the time limit in the lobby, the clock, "your turn" in the title and on the
favicon, and the take-back and leave buttons at the table."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import httpx
import pytest
from webtools import auth, bot, create, human, wait_for

from kingisdead import GameState
from kingisdead.moves import format_move



@pytest.fixture
def new_page(browser):
    contexts = []

    def make():
        context = browser.new_context(viewport={"width": 1366, "height": 800}, reduced_motion="reduce")
        context.set_default_timeout(30_000)
        contexts.append(context)
        page = context.new_page()
        page.errors = []
        page.on("pageerror", lambda exc: page.errors.append(str(exc)))
        return page

    yield make
    for context in contexts:
        errors = context.pages[0].errors if context.pages else []
        context.close()
        assert not errors, errors


def favicon(page) -> str:
    return page.get_attribute("link[rel=icon]", "href") or ""


def wait_move(page, number: int) -> None:
    page.wait_for_function("n => Number(document.body?.dataset.move) === n", arg=number, polling=50)


def test_the_lobby_creates_a_timed_game_with_a_running_clock(server, new_page):
    page = new_page()
    page.goto(server.url + "/")
    page.select_option("[data-testid=time-limit]", "600")
    page.select_option("[data-testid=stand-in]", "beginner")
    page.click("[data-testid=create]")
    page.wait_for_url(re.compile(r"/game/"))
    game_id = page.url.rstrip("/").split("/")[-1].split("#")[0]
    game = httpx.get(f"{server.url}/api/games/{game_id}").json()
    assert (game["time_limit"], game["stand_in"]) == (600, "beginner")
    clock = page.locator("[data-testid=clock]")
    clock.wait_for()
    assert re.fullmatch(r"(10:00|9:[0-5]\d) left", clock.inner_text()), clock.inner_text()
    first = clock.inner_text()
    page.wait_for_function("was => (document.querySelector('[data-testid=clock]')?.textContent ?? was) !== was", arg=first)
    page.goto(server.url + "/")  # the lobby lists the game with its pace
    assert page.locator("[data-testid=game-limit]").first.inner_text() == "10 min per move"


def test_your_turn_shows_in_the_title_and_on_the_favicon(server, new_page):
    with httpx.Client(base_url=server.url, timeout=30) as http:
        game = create(http, [human("Ada"), human("Bea")], seed=41, time_limit=120)
        page = new_page()
        page.goto(f"{server.url}/game/{game['id']}#token={game['seats'][0]['token']}")
        page.wait_for_function("() => document.title.startsWith('●')")
        plain = page.title().split(" · ", 1)[1]
        page.wait_for_function("() => document.querySelector('link[rel=icon]')?.href.startsWith('data:image/png')")
        assert page.get_attribute("link[rel=icon]", "type") == "image/png"
        assert re.fullmatch(r"(2:00|1:[0-5]\d) left", page.inner_text("[data-testid=clock]"))
        assert http.post(f"/api/games/{game['id']}/moves", json={"move": "pass", "move_number": 0},
                         headers=auth(game["seats"][0]["token"])).status_code == 200
        wait_move(page, 1)
        page.wait_for_function("plain => document.title === plain", arg=plain)
        page.wait_for_function("() => document.querySelector('link[rel=icon]')?.getAttribute('href') === "
                               "'/static/favicon.svg'")
        assert page.locator("[data-testid=clock]").count() == 1  # Bea's clock runs now
        assert http.post(f"/api/games/{game['id']}/moves", json={"move": "pass", "move_number": 1},
                         headers=auth(game["seats"][1]["token"])).status_code == 200
        wait_move(page, 2)
        page.wait_for_function("() => document.title.startsWith('●')")


def test_take_back_and_leave_at_the_table(server, new_page):
    seed = 43
    with httpx.Client(base_url=server.url, timeout=30) as http:
        game = create(http, [human(), bot("greedy")], seed=seed, stand_in="greedy")
        token = game["seats"][0]["token"]
        page = new_page()
        page.goto(f"{server.url}/game/{game['id']}#token={token}")
        page.wait_for_selector("[data-testid=leave]")
        assert page.locator("[data-testid=takeback]").count() == 0  # nothing to take back yet
        card = next(format_move(m) for m in GameState.new(2, "standard", seed).legal_moves() if format_move(m) != "pass")
        assert http.post(f"/api/games/{game['id']}/moves", json={"move": card, "move_number": 0},
                         headers=auth(token)).status_code == 200
        wait_move(page, 2)  # the bot's reply
        page.click("[data-testid=takeback]")
        wait_move(page, 0)
        assert http.get(f"/api/games/{game['id']}").json()["move_number"] == 0
        assert page.locator("[data-testid=log] li[data-number]").count() == 0
        page.on("dialog", lambda dialog: dialog.accept())
        page.click("[data-testid=leave]")
        page.wait_for_selector("[data-testid=left-tag]")
        # the server first (the stand-in finishing the game), then the page: a failure says which of them stopped
        wait_for(lambda: http.get(f"/api/games/{game['id']}").json()["status"] == "finished", timeout=60,
                 what="the stand-in to finish the game on the server")
        page.wait_for_function("() => document.body?.dataset.turn === 'over'", timeout=30_000)
        assert http.get(f"/api/games/{game['id']}").json()["seats"][0]["left"] is True


def test_out_of_time_the_stand_in_plays_until_the_seat_is_taken_back(server, new_page):
    """The server's own background check finds a deadline set in the past and hands the turn to the stand-in."""
    from sqlalchemy import create_engine, update

    from kingisdead.web.db import GameRow

    with httpx.Client(base_url=server.url, timeout=30) as http:
        game = create(http, [human("Ada"), human("Bea")], seed=47, time_limit=120, stand_in="random")
        page = new_page()
        page.goto(f"{server.url}/game/{game['id']}#token={game['seats'][0]['token']}")
        page.wait_for_function("() => document.title.startsWith('●')")
        engine = create_engine(server.database_url)
        with engine.begin() as connection:
            connection.execute(update(GameRow).where(GameRow.id == game["id"])
                               .values(deadline=datetime.now(UTC) - timedelta(seconds=1)))
        engine.dispose()
        page.wait_for_selector("[data-testid=away-tag]")
        wait_move(page, 1)  # the stand-in played Ada's turn
        assert not page.title().startswith("●")
        page.click("[data-testid=return]")
        page.wait_for_selector("[data-testid=away-tag]", state="detached")
        assert http.post(f"/api/games/{game['id']}/moves", json={"move": "pass", "move_number": 1},
                         headers=auth(game["seats"][1]["token"])).status_code == 200
        wait_move(page, 2)
        page.wait_for_function("() => document.title.startsWith('●')")
        page.wait_for_selector("[data-testid=pass]")  # Ada builds her own move again


FAKE_NOTIFICATIONS = """
window.__notes = [];
window.Notification = class {
  constructor(title, options) { window.__notes.push({ title, body: options && options.body }); }
  static requestPermission() { window.Notification.permission = "granted"; return Promise.resolve("granted"); }
};
window.Notification.permission = "default";
Object.defineProperty(document, "hidden", { get: () => window.__hidden === true });
"""


def test_a_notification_when_it_becomes_your_turn_while_the_page_is_hidden(server, new_page):
    """The browser's Notification API is replaced by a recorder, and the page made "hidden" on demand."""
    with httpx.Client(base_url=server.url, timeout=30) as http:
        game = create(http, [human("Ada"), human("Bea")], seed=53)
        tokens = [seat["token"] for seat in game["seats"]]
        page = new_page()
        page.add_init_script(FAKE_NOTIFICATIONS)
        page.goto(f"{server.url}/game/{game['id']}#token={tokens[0]}")
        page.click("[data-testid=notify]")  # asks for the permission; once granted the button goes
        page.wait_for_selector("[data-testid=notify]", state="detached")
        for number in (0, 1):  # Ada passes in view; then, with the page in the background, Bea passes
            if number == 1:
                page.evaluate("() => { window.__hidden = true; }")
            assert http.post(f"/api/games/{game['id']}/moves", json={"move": "pass", "move_number": number},
                             headers=auth(tokens[number])).status_code == 200
            wait_move(page, number + 1)
        page.wait_for_function("() => window.__notes.length > 0")
        notes = page.evaluate("() => window.__notes")
        assert len(notes) == 1 and notes[0]["title"] == "Your turn"


def test_a_browser_that_refuses_notifications_is_said_to_have_refused(server, new_page):
    """The browser answers "denied" to the permission asked by "Notify me on my turn": the button goes (asking
    again would change nothing), and the page says why rather than letting it vanish without a word."""
    with httpx.Client(base_url=server.url, timeout=30) as http:
        game = create(http, [human("Ada"), human("Bea")], seed=53)
    page = new_page()
    page.add_init_script(FAKE_NOTIFICATIONS.replace('"granted"', '"denied"'))
    page.goto(f"{server.url}/game/{game['id']}#token={game['seats'][0]['token']}")
    page.click("[data-testid=notify]")
    page.wait_for_selector("[data-testid=notify]", state="detached")
    toast = page.locator("#toast")
    toast.wait_for()
    assert "refuses this site's notifications: allow them in its settings" in toast.inner_text()
