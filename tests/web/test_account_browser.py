"""Accounts in Debian's headless chromium: sign up, "my games", playing from another browser by the
session cookie alone, sign out and sign in again."""

from __future__ import annotations


import httpx
import pytest
from test_end_screen import finished_game
from webtools import Server, bot, human

from kingisdead.web.accounts import SESSION_COOKIE

PASSWORD = "a long enough secret"



@pytest.fixture
def new_page(browser):
    contexts = []

    def make():
        context = browser.new_context(viewport={"width": 1200, "height": 900}, reduced_motion="reduce")
        context.set_default_timeout(30_000)
        contexts.append(context)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.errors = errors
        return page

    yield make
    for context in contexts:
        errors = [e for p in context.pages for e in p.errors]
        context.close()
        assert not errors, errors


def session_of(page) -> str:
    [cookie] = [c for c in page.context.cookies() if c["name"] == SESSION_COOKIE]
    assert cookie["httpOnly"] and cookie["secure"] and cookie["sameSite"] == "Lax"
    return cookie["value"]


def fill_and_send(page, name: str, button: str) -> None:
    page.get_by_test_id("account-name").fill(name)
    page.get_by_test_id("account-password").fill(PASSWORD)
    page.get_by_test_id(button).click()


def test_sign_up_see_my_games_play_from_another_browser_sign_out_and_in(server, new_page):
    page = new_page()
    page.goto(server.url + "/")
    fill_and_send(page, "Elaine", "sign-up")
    page.wait_for_function("() => document.body?.dataset.account === 'Elaine'")
    assert "Elaine" in page.get_by_test_id("account").inner_text()
    assert page.evaluate("() => document.cookie") == ""  # the session is HttpOnly: no script can read it
    cookie = {"Cookie": f"{SESSION_COOKIE}={session_of(page)}"}

    # two games held by the account: one where it is Elaine's turn, one where it is not (yet)
    with httpx.Client(base_url=server.url, headers=cookie) as http:
        mine = http.post("/api/games", json={"players": 2, "seats": [human(), bot("random")], "seed": 3})
        waiting = http.post("/api/games", json={"players": 2, "seats": [human(), human()], "seed": 4,
                                                "first_player": 1})
        assert mine.status_code == waiting.status_code == 201
    mine_id, waiting_id = mine.json()["id"], waiting.json()["id"]
    page.reload()
    page.wait_for_selector(f"[data-testid=my-game][data-game='{waiting_id}']")
    games = page.get_by_test_id("my-game")
    assert [games.nth(i).get_attribute("data-game") for i in range(games.count())] == [mine_id, waiting_id]
    assert games.nth(0).get_by_test_id("your-turn").is_visible()
    assert games.nth(1).get_by_test_id("your-turn").count() == 0
    assert page.get_by_test_id("stats-2").is_visible()

    # another browser signs in and plays Elaine's seat: no seat token there, only the session cookie
    other = new_page()
    other.goto(server.url + "/")
    fill_and_send(other, "elaine", "sign-in")
    other.wait_for_function("() => document.body?.dataset.account === 'Elaine'")
    other.locator(f"[data-testid=my-game][data-game='{mine_id}'] a").click()
    other.wait_for_function("() => document.body?.dataset.turn === 'you'")
    assert other.evaluate("id => localStorage.getItem(`kid:tokens:${id}`)", mine_id) in (None, "[]")

    # sign out, then the form is back; a wrong password is refused in words; signing in again works
    page.get_by_test_id("sign-out").click()
    page.wait_for_function("() => document.body?.dataset.account === ''")
    assert not [c for c in page.context.cookies() if c["name"] == SESSION_COOKIE]
    page.get_by_test_id("account-name").fill("Elaine")
    page.get_by_test_id("account-password").fill("not the password")
    page.get_by_test_id("sign-in").click()
    page.get_by_test_id("account-error").wait_for(state="visible")
    fill_and_send(page, "Elaine", "sign-in")
    page.wait_for_function("() => document.body?.dataset.account === 'Elaine'")
    page.wait_for_selector(f"[data-testid=my-game][data-game='{mine_id}']")


def start_from_the_lobby(page, server: Server) -> str:
    """Create a game with the lobby's form as it stands (a person and a bot): its id, once its table is open."""
    page.goto(server.url + "/")
    page.wait_for_selector("[data-testid=seat-1]")
    page.get_by_test_id("create").click()
    page.wait_for_url("**/game/**")
    page.wait_for_function("() => document.body?.dataset.turn === 'you'")
    return page.url.split("/game/")[1].split("#")[0]


def listed(page, testid: str) -> list[str]:
    """The games of the account panel's list ``testid`` (my-games: running; my-finished), by id."""
    return page.locator(f"[data-testid={testid}] [data-testid=my-game]").evaluate_all(
        "items => items.map((item) => item.dataset.game)")


def test_a_guests_games_become_the_accounts_at_sign_up_and_sign_in_and_follow_it(server, new_page):
    """Issue 30, point 8: "Finished games: none yet" beside four played as a guest. The games a guest played in this
    browser (one started from the lobby, one finished, opened from its link) are listed under the account once they
    sign up, and in a fresh browser once they sign in; there, a game started as a guest before signing in joins too."""
    page = new_page()
    running = start_from_the_lobby(page, server)
    ended, _state = finished_game(server, 2, seed=5)
    page.goto(f"{server.url}/game/{ended['id']}#token={ended['seats'][0]['token']}")  # kept by this browser
    page.wait_for_function(f"() => localStorage.getItem('kid:tokens:{ended['id']}') !== null")
    page.goto(server.url + "/")
    fill_and_send(page, "Isolde", "sign-up")
    page.wait_for_function("() => document.body?.dataset.account === 'Isolde'")
    page.wait_for_selector(f"[data-testid=my-finished] [data-game='{ended['id']}']")
    assert listed(page, "my-games") == [running] and listed(page, "my-finished") == [ended["id"]]
    assert page.get_by_test_id("guest-games-brought").inner_text() == \
        "2 games played in this browser as a guest are now your account's."
    assert page.get_by_test_id("stats-2").locator("td").nth(1).inner_text() == "1"  # played: the finished one

    # a fresh browser: a guest game there first, then sign in; all three are the account's
    other = new_page()
    third = start_from_the_lobby(other, server)
    other.goto(server.url + "/")
    fill_and_send(other, "isolde", "sign-in")
    other.wait_for_function("() => document.body?.dataset.account === 'Isolde'")
    other.wait_for_selector(f"[data-testid=my-games] [data-game='{running}']")
    other.wait_for_selector(f"[data-testid=my-finished] [data-game='{ended['id']}']")
    assert sorted(listed(other, "my-games")) == sorted([running, third])
    assert other.get_by_test_id("guest-games-brought").inner_text() == \
        "1 game played in this browser as a guest is now your account's."
    # the first browser, reloaded, lists the third too: the account's games follow it
    page.reload()
    page.wait_for_selector(f"[data-testid=my-games] [data-game='{third}']")
    assert page.get_by_test_id("guest-games-brought").count() == 0  # said once, after signing in


def test_a_guests_lobby_does_not_ask_who_is_signed_in(server, new_page):
    page = new_page()
    asked: list[str] = []
    console_errors: list[str] = []
    page.on("request", lambda request: asked.append(request.url) if "/api/account" in request.url else None)
    page.on("console", lambda message: console_errors.append(message.text) if message.type == "error" else None)
    page.goto(server.url + "/")
    page.get_by_test_id("sign-in").wait_for()
    assert page.evaluate("() => document.body.dataset.account") == ""
    assert asked == [] and console_errors == []
    # a stale cookie (the session ended) is asked about once, then the page knows it is a guest
    page.context.add_cookies([{"name": SESSION_COOKIE, "value": "ended", "url": server.url}])
    page.reload()
    page.get_by_test_id("sign-in").wait_for()
    assert len(asked) == 1 and page.evaluate("() => document.body.dataset.session") == ""


def test_signing_out_forgets_the_seat_tokens_of_the_accounts_games(server, new_page):
    page = new_page()
    page.goto(server.url + "/")
    fill_and_send(page, "Enid", "sign-up")
    page.wait_for_function("() => document.body?.dataset.account === 'Enid'")
    game = page.evaluate("""async () => (await fetch('/api/games', {method: 'POST',
        headers: {'Content-Type': 'application/json'},
        body: JSON.stringify({players: 2, seed: 3, seats: [{kind: 'human'}, {kind: 'bot', bot: 'random'}]})})).json()""")
    page.goto(f"{server.url}/game/{game['id']}#token={game['seats'][0]['token']}")  # as an invite link opens it
    page.wait_for_function("() => document.body?.dataset.turn === 'you'")
    assert page.locator("[data-testid=hand-card]").count() > 0
    assert page.evaluate(f"() => localStorage.getItem('kid:tokens:{game['id']}')") is not None
    page.goto(server.url + "/")
    page.get_by_test_id("sign-out").click()
    page.get_by_test_id("account-name").wait_for()
    assert page.evaluate(f"() => localStorage.getItem('kid:tokens:{game['id']}')") is None
    # the next person on this device opens the game: a spectator's table, no hand, no move
    page.goto(f"{server.url}/game/{game['id']}")
    page.wait_for_function("() => ['wait', 'you'].includes(document.body?.dataset.turn)")
    assert page.evaluate("() => document.body.dataset.turn") == "wait"
    assert page.locator("[data-testid=hand-card]").count() == 0
    assert page.locator("[data-testid=hand]").count() == 0


def test_the_account_panel_changes_the_password_signs_out_everywhere_and_deletes(server, new_page):
    page = new_page()
    page.goto(server.url + "/")
    fill_and_send(page, "Lynette", "sign-up")
    page.wait_for_function("() => document.body?.dataset.account === 'Lynette'")
    page.get_by_test_id("account-settings").locator("summary").click()
    page.get_by_test_id("password-current").fill("not the password")
    page.get_by_test_id("password-new").fill("another long secret")
    page.get_by_test_id("password-change").click()
    page.get_by_test_id("password-result").get_by_text("wrong password").wait_for()
    page.get_by_test_id("password-current").fill(PASSWORD)
    page.get_by_test_id("password-new").fill("another long secret")
    page.get_by_test_id("password-change").click()
    page.get_by_test_id("password-result").get_by_text("other browsers signed out: 0").wait_for()
    page.get_by_test_id("sign-out-everywhere").click()
    page.get_by_test_id("account-name").wait_for()
    assert httpx.post(server.url + "/api/account/sign-in", json={"name": "Lynette", "password": PASSWORD}
                      ).status_code == 401  # the new password is the one now
    page.get_by_test_id("account-name").fill("Lynette")
    page.get_by_test_id("account-password").fill("another long secret")
    page.get_by_test_id("sign-in").click()
    page.wait_for_function("() => document.body?.dataset.account === 'Lynette'")
    page.get_by_test_id("account-settings").locator("summary").click()
    page.get_by_test_id("delete-password").fill("another long secret")
    page.get_by_test_id("delete-account").click()
    page.get_by_test_id("account-name").wait_for()
    assert httpx.post(server.url + "/api/account/sign-in", json={"name": "Lynette", "password": "another long secret"}
                      ).status_code == 401
