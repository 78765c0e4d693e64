"""axe-core (axe-playwright-python) in Debian's chromium: no serious or critical accessibility violation on
the lobby, a running table (a person's turn) and the end screen, on a laptop and on a phone."""

from __future__ import annotations


import httpx
import pytest
from test_rated_browser import in_page, short_game
from webtools import LAPTOP, PHONE, Server, auth, bot, create, human, serious_accessibility_violations

from kingisdead import GameState
from kingisdead.moves import parse_move




def finished_game(server: Server) -> tuple[dict, list[str]]:
    """A 2-player game of two people played to its end through the API: the game and both seat tokens."""
    seed, moves = short_game()
    with httpx.Client(base_url=server.url) as client:
        game = create(client, [human("Ann"), human("Ben")], seed=seed)
        tokens = [seat["token"] for seat in game["seats"]]
        state = GameState.new(2, "standard", seed)
        for number, move in enumerate([*moves, "pass", "pass"]):
            # the seat to move from the moves, not from the server, which may have passed already for an empty hand
            answer = client.post(f"/api/games/{game['id']}/moves", json={"move": move, "move_number": number},
                                 headers=auth(tokens[state.player]))
            assert answer.status_code == 200, answer.text
            state.apply(parse_move(move))
        assert client.get(f"/api/games/{game['id']}").json()["status"] == "finished"
    return game, tokens


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_the_lobby_has_no_serious_violation(server, new_page, viewport):
    page = new_page(viewport, server.url + "/", bypass_csp=True)
    page.wait_for_selector("[data-testid=level-option]", state="attached")
    page.wait_for_selector("[data-testid=leaderboard-row]")
    assert serious_accessibility_violations(page) == []


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_a_running_table_has_no_serious_violation(server, new_page, viewport):
    with httpx.Client(base_url=server.url) as client:
        game = create(client, [human("Ann"), bot("random")], seed=3)
    token = game["seats"][0]["token"]
    page = new_page(viewport, f"{server.url}/game/{game['id']}#token={token}", bypass_csp=True)
    page.wait_for_selector("[data-testid=hand-card].playable")
    assert serious_accessibility_violations(page) == []


def test_a_table_asking_for_a_region_on_the_board_has_no_serious_violation(server, new_page):
    """The regions and region cards asked for are buttons on the board, named for screen readers."""
    with httpx.Client(base_url=server.url) as client:
        game = create(client, [human("Ann"), bot("random")], seed=3)
    token = game["seats"][0]["token"]
    page = new_page(LAPTOP, f"{server.url}/game/{game['id']}#token={token}", bypass_csp=True)
    page.locator("[data-testid=hand-card].playable").first.click()
    page.wait_for_selector("#map [data-testid=region-card].selectable[role=button]")
    assert page.locator("#map path.region.selectable[role=button]").count() >= 1
    assert serious_accessibility_violations(page) == []


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_the_end_screen_has_no_serious_violation(server, new_page, viewport):
    game, tokens = finished_game(server)
    page = new_page(viewport, f"{server.url}/game/{game['id']}#token={tokens[0]}", bypass_csp=True)
    page.wait_for_selector("[data-testid=result-explanation]")
    assert serious_accessibility_violations(page) == []


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_the_invite_links_in_the_lobby_and_at_the_table_have_no_serious_violation(server, new_page, viewport):
    page = new_page(viewport, server.url + "/", bypass_csp=True)
    page.wait_for_selector("[data-testid=level-option]", state="attached")
    page.select_option("[data-testid=seat-1]", "human")
    page.click("[data-testid=create]")
    page.wait_for_selector("[data-testid=invite-1]")
    assert serious_accessibility_violations(page) == []
    page.click("[data-testid=open-game]")
    page.wait_for_selector("[data-testid=table-invite-1]")
    assert serious_accessibility_violations(page) == []


def test_a_rated_end_screen_with_provisional_ratings_and_the_rematch_question_has_no_serious_violation(
        server, new_page):
    seed, moves = short_game()
    ann, ben = new_page(LAPTOP, server.url + "/", bypass_csp=True), new_page(LAPTOP, server.url + "/", bypass_csp=True)
    in_page(ann, "POST", "/api/account/sign-up", {"name": "Ann2", "password": "a long password"})
    in_page(ben, "POST", "/api/account/sign-up", {"name": "Ben2", "password": "a long password"})
    game = in_page(ann, "POST", "/api/games", {"players": 2, "seats": [{"kind": "human"}, {"kind": "human"}],
                                               "seed": seed, "rated": True})
    claimed = ben.evaluate(  # with Ben's session cookie (Secure: only the browser sends it)
        """async ([path, invite]) => (await fetch(path, {method: "POST", headers: {
            "Content-Type": "application/json", "Authorization": `Bearer ${invite}`}})).json()""",
        [f"/api/games/{game['id']}/claim", game["seats"][1]["invite_token"]])
    tokens = [game["seats"][0]["token"], claimed["token"]]
    with httpx.Client(base_url=server.url) as client:
        state = GameState.new(2, "standard", seed)
        for number, move in enumerate([*moves, "pass", "pass"]):
            # the seat to move from the moves, not from the server, which may have passed already for an empty hand
            answer = client.post(f"/api/games/{game['id']}/moves", json={"move": move, "move_number": number},
                                 headers=auth(tokens[state.player]))
            assert answer.status_code == 200, answer.text
            state.apply(parse_move(move))
    ann.goto(f"{server.url}/game/{game['id']}#token={tokens[0]}")
    ann.wait_for_selector("[data-testid=ratings]")
    ann.click("[data-testid=play-again]")
    ann.wait_for_selector("[data-testid=rematch-ask]")
    assert serious_accessibility_violations(ann) == []
