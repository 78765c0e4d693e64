"""Two signed-in people play a rated game in Debian's chromium (two browser contexts) and both see their
new ratings at the end; the lobby lists every bot level's rating and the leaderboard."""

from __future__ import annotations

from random import Random

from typing import Any

import httpx
from webtools import OUTPUT, auth

from kingisdead import GameState
from kingisdead.bots import make_bot
from kingisdead.moves import PASS, format_move



def short_game() -> tuple[int, list[str]]:
    """A seed and the random moves, the first a card play, that bring its 2-player game to the last struggle, where
    two passes (one by each player, each still holding a card: an empty hand's pass is the server's) end the
    game."""
    for seed in range(1, 200):
        state = GameState.new(2, "standard", seed)
        chooser, rng = make_bot("random", seed), Random(seed)
        moves: list[str] = []
        while not state.is_over() and state.resolved < 7:
            move = PASS if moves and rng.random() < 0.4 else chooser.choose(state)  # passes keep cards for the end
            state.apply(move)
            moves.append(format_move(move))
        if state.is_over() or not (state.cards_left(0) and state.cards_left(1)) or moves[0] == "pass":
            continue
        ending = state.copy()
        ending.apply("pass")
        ending.apply("pass")
        if ending.is_over():
            return seed, moves
    raise AssertionError("no seed found")


def in_page(page: Any, method: str, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
    """A JSON request from the page itself, so that the browser's own session cookie goes with it."""
    answer: dict[str, Any] = page.evaluate(
        """async ([method, path, body]) => {
            const response = await fetch(path, {method, headers: {"Content-Type": "application/json"},
                                                body: body === null ? undefined : JSON.stringify(body)});
            return {status: response.status, data: await response.json()};
        }""", [method, path, body])
    assert answer["status"] in (200, 201), answer
    return answer["data"]


def test_two_signed_in_players_finish_a_rated_game_and_see_their_new_ratings(server, browser):
    seed, moves = short_game()
    contexts, pages = [], []
    for _ in range(2):
        context = browser.new_context(viewport={"width": 1366, "height": 900}, reduced_motion="reduce")
        context.set_default_timeout(30_000)
        contexts.append(context)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc, errors=errors: errors.append(str(exc)))
        page.goto(server.url + "/")
        pages.append((page, errors))
    (ann, ann_errors), (ben, ben_errors) = pages
    try:
        in_page(ann, "POST", "/api/account/sign-up", {"name": "Ann", "password": "a long password"})
        in_page(ben, "POST", "/api/account/sign-up", {"name": "Ben", "password": "a long password"})
        game = in_page(ann, "POST", "/api/games", {"players": 2, "seats": [{"kind": "human"}, {"kind": "human"}],
                                                   "seed": seed, "rated": True})
        game_id = game["id"]
        ann_token = game["seats"][0]["token"]
        claimed = ben.evaluate(
            """async ([path, invite]) => {
                const response = await fetch(path, {method: "POST", headers: {
                    "Content-Type": "application/json", "Authorization": `Bearer ${invite}`}});
                return await response.json();
            }""", [f"/api/games/{game_id}/claim", game["seats"][1]["invite_token"]])
        ben_token = claimed["token"]
        tokens = [ann_token, ben_token]
        with httpx.Client(base_url=server.url, timeout=30) as http:  # most moves, quickly
            state = GameState.new(2, "standard", seed)
            for number, move in enumerate(moves):
                response = http.post(f"/api/games/{game_id}/moves", json={"move": move, "move_number": number},
                                     headers=auth(tokens[state.player]))
                assert response.status_code == 200, response.text
                state.apply(move)
            to_move = http.get(f"/api/games/{game_id}").json()["table"]["to_move"]

        # the last two moves through the table's UI, each from its player's own browser
        for page, token in ((ann, ann_token), (ben, ben_token)):
            page.goto(f"{server.url}/game/{game_id}#token={token}")
        for page in (ann, ben):  # the table says the game is rated
            page.wait_for_selector("[data-testid=rated-tag]")
            assert "rated" in page.inner_text("#game-meta")
        order = [ann, ben] if to_move == 0 else [ben, ann]
        for page in order:
            page.wait_for_function("() => document.body?.dataset.turn === 'you'", polling=50)
            page.click("[data-testid=pass]")
            page.click("[data-testid=confirm]")
        for page in (ann, ben):
            page.wait_for_selector("[data-testid=ratings]")

        with httpx.Client(base_url=server.url, timeout=30) as http:
            view = http.get(f"/api/games/{game_id}").json()
            board = http.get("/api/leaderboard", params={"players": 2}).json()
        assert view["status"] == "finished" and len(view["ratings"]) == 2
        winners = view["table"]["result"]["winners"]
        for page in (ann, ben):
            for change in view["ratings"]:  # newcomers both: provisional, not a number (the loser's is below 0)
                seat = change["seat"]
                assert change["provisional_after"] and change["games"] == 1
                row = page.locator(f"[data-testid=rating-{seat}]")
                assert "provisional" in row.inner_text() and f"{change['after']:.1f}" not in row.inner_text()
                assert page.locator(f"[data-testid=rating-change-{seat}]").inner_text() == "–"
            assert page.locator("[data-testid=play-again]").is_visible()
        assert min(change["after"] for change in view["ratings"]) < 0 and winners
        OUTPUT.mkdir(parents=True, exist_ok=True)
        ann.screenshot(path=str(OUTPUT / "rated-end-screen.png"), full_page=True)

        # Play again: Ann makes the rematch (asked whether it is rated too: yes), Ben's end screen offers to
        # join it, both sit at the new table
        ann.click("[data-testid=play-again]")
        ann.wait_for_selector("[data-testid=rematch-ask]")
        ann.screenshot(path=str(OUTPUT / "rated-rematch-ask.png"), full_page=True)
        # the end screen redrawn meanwhile (here by the analysis; a view arriving does the same): the question stays
        ann.click("[data-testid=analyse]")
        ann.wait_for_selector("[data-testid=analysis-legend]")
        assert ann.locator("[data-testid=rematch-ask]").count() == 1
        ann.click("[data-testid=rematch-rated]")
        ann.wait_for_url(lambda url: "/game/" in url and game_id not in url)
        new_id = ann.url.rsplit("/", 1)[1].split("#")[0]
        assert new_id != game_id
        ben.click("[data-testid=join-rematch]")
        ben.wait_for_url(f"{server.url}/game/{new_id}")
        for page, turn in ((ann, "you"), (ben, "wait")):  # seats kept: Ann's seat 1 starts
            page.wait_for_function("turn => document.body?.dataset.turn === turn", arg=turn, polling=50)
        with httpx.Client(base_url=server.url, timeout=30) as http:
            rematch = http.get(f"/api/games/{new_id}").json()
        assert rematch["rated"] is True and rematch["rematch_of"] == game_id
        assert [s["claimed"] for s in rematch["seats"]] == [True, True]

        # the lobby: the leaderboard lists both players at their new ratings, and every bot level
        ann.goto(server.url + "/")
        ann.wait_for_selector("[data-testid=leaderboard-row]")
        rows = ann.locator("[data-testid=leaderboard-row]").all_inner_texts()
        by_name = {e["name"]: e for e in board["ratings"]}
        for name in ("Ann", "Ben"):
            assert by_name[name]["provisional"]
            assert any(name in row and "provisional" in row for row in rows)
        assert ann.locator("[data-testid=leaderboard-row][data-bot=yes]").count() == 5  # beginner ... master
        strong = ann.locator("[data-testid=seat-1] option[value='bot:strong']")
        ann.wait_for_function("() => document.querySelector(\"[data-testid=seat-1] option[value='bot:strong']\")"
                              "?.textContent.includes('rating')", polling=50)
        assert f"{board['bots']['strong']:.1f}" in strong.inner_text()
        ann.screenshot(path=str(OUTPUT / "rated-lobby.png"), full_page=True)
        assert not ann_errors and not ben_errors, ann_errors + ben_errors
    finally:
        for context in contexts:
            context.close()
