"""Every click instant: the table builds a move from the choices sent with the seat's view, in Debian's
headless chromium. No request and no socket message leaves the page before Confirm; a pass is one click
with a short Undo; with no card left the server passes for the player. The browser's choices (static/choices.js)
answer what the server's options route answers, in the page's language.
"""

from __future__ import annotations

from datetime import datetime
from random import Random

import httpx
import pytest
from webtools import Server, auth, create, human, wait_for

from kingisdead import rules
from kingisdead.building import move_steps
from kingisdead.moves import format_move, parse_move
from kingisdead.state import GameState

SEED = 11
PREVIEWED = ("followers", "stock", "order", "crowns", "courts", "hand", "tops", "cards_left", "contested", "passes")
"""What the table shows of a preview: the browser's must equal the server's."""



class Traffic:
    """What a page sends: API requests (method and path) and WebSocket messages."""

    def __init__(self, page) -> None:
        self.requests: list[tuple[str, str]] = []
        self.frames: list[str] = []
        page.on("request", lambda request: self.requests.append((request.method, request.url.split("/", 3)[3])))
        page.on("websocket", lambda socket: socket.on("framesent", lambda frame: self.frames.append(frame)))

    def api(self) -> list[tuple[str, str]]:
        return [(method, path) for method, path in self.requests if path.startswith("api/")]

    def clear(self) -> None:
        self.requests.clear()
        self.frames.clear()


def state_of(client: httpx.Client, game: dict) -> GameState:
    view = client.get(f"/api/games/{game['id']}").json()
    state = GameState.new(view["players"], view["variant"], SEED, 0)
    for entry in view["log"]:
        rules.play(state, parse_move(entry["notation"]))
    return state


def play_as(client: httpx.Client, game: dict, seat: int, move: str) -> None:
    number = len(client.get(f"/api/games/{game['id']}").json()["log"])
    answer = client.post(f"/api/games/{game['id']}/moves", json={"move": move, "move_number": number},
                         headers=auth(game["seats"][seat]["token"]))
    assert answer.status_code == 200, answer.text


def seat_page(new_page, server: Server, game: dict, seat: int = 0, before=None):
    """The game's page for ``seat``, once it shows the seat's turn; ``before(page)`` runs before it loads."""
    page = new_page(url="about:blank")
    if before:
        before(page)
    traffic = Traffic(page)
    page.goto(f"{server.url}/game/{game['id']}#token={game['seats'][seat]['token']}")
    page.wait_for_function("() => document.body?.dataset.turn === 'you'")
    page.wait_for_selector("[data-testid=pass]")
    # The turn may show from the first HTTP view before the socket is open and has sent its token: wait for
    # that, so that the traffic counted afterwards is the move's alone.
    page.wait_for_selector("#conn.on", state="attached")
    for _attempt in range(100):
        if any('"auth"' in frame for frame in traffic.frames):
            break
        page.wait_for_timeout(50)
    return page, traffic


def test_a_move_is_built_without_a_request_until_confirm(server, new_page):
    with httpx.Client(base_url=server.url) as client:
        game = create(client, [human("Arthur"), human("Morgan")], seed=SEED)
        page, traffic = seat_page(new_page, server, game)
        traffic.clear()
        # The Garrison has the longest moves: a region, two followers, a region, a follower, then the court call.
        page.click("[data-testid=hand-card][data-card='1']")
        page.wait_for_selector("[data-testid=choice]")
        clicks, backed = 1, False
        while not page.locator("[data-testid=confirm]").count():
            if clicks == 3 and not backed:  # Back and choose again: still nothing asked of the server
                page.click("[data-testid=back]")
                backed = True
            page.locator("[data-testid=choice]").first.click()
            clicks += 1
        assert clicks >= 5 and backed
        assert traffic.api() == [] and traffic.frames == [], (traffic.api(), traffic.frames)
        notation = page.inner_text("[data-testid=preview] .mono")
        assert notation.startswith("Garrison ")
        page.click("[data-testid=confirm]")
        page.wait_for_function("() => +document.body?.dataset.move === 1")
        assert [r for r in traffic.api() if r[0] != "GET"] == [("POST", f"api/games/{game['id']}/moves")]
        assert client.get(f"/api/games/{game['id']}").json()["log"][0]["notation"] == notation


def test_a_pass_is_one_click_with_a_short_undo(server, new_page):
    with httpx.Client(base_url=server.url) as client:
        game = create(client, [human("Arthur"), human("Morgan")], seed=SEED)
        # The page's timers run on a clock the test moves: the Undo's time is the test's to spend.
        page, traffic = seat_page(new_page, server, game, before=lambda page: page.clock.install())
        page.clock.pause_at(datetime.fromtimestamp(page.evaluate("Date.now()") / 1000 + 1))
        traffic.clear()
        page.click("[data-testid=pass]")
        page.wait_for_selector("[data-testid=undo-pass]")
        assert "Undo" in page.inner_text("[data-testid=prompt]")
        page.click("[data-testid=undo-pass]")
        page.wait_for_selector("[data-testid=hand-card].playable")
        assert not page.locator("[data-testid=undo-pass]").count()
        page.clock.run_for(5000)  # long past the Undo's time: the pass taken back is never sent
        assert traffic.api() == [] and traffic.frames == []
        page.click("[data-testid=pass]")  # one click, and the pass goes once the Undo's time is over
        prompt = page.locator("[data-testid=prompt]")  # the seconds left are counted down
        assert prompt.inner_text() == "You pass in 2 seconds: Undo takes it back."
        page.clock.run_for(1000)
        page.wait_for_function("() => document.querySelector('[data-testid=prompt]')?.textContent.includes('1 second:')")
        assert prompt.inner_text() == "You pass in 1 second: Undo takes it back."
        assert traffic.api() == []  # not sent yet
        page.clock.run_for(1500)
        page.wait_for_function("() => +document.body?.dataset.move === 1")
        moves = [r for r in traffic.api() if r[0] == "POST"]
        assert moves == [("POST", f"api/games/{game['id']}/moves")]
        assert client.get(f"/api/games/{game['id']}").json()["log"][0]["notation"] == "pass"


def test_with_no_card_left_the_server_passes_for_you(server, new_page):
    """A person with an empty hand is not asked to pass turn after turn: the server passes for them, and the
    table says so where the hand was."""
    with httpx.Client(base_url=server.url) as client:
        game = create(client, [human("Arthur"), human("Morgan")], seed=SEED)
        state = state_of(client, game)
        while sum(state.hands[:7]):  # Arthur plays every card, Morgan passes
            move = "pass" if state.player else format_move(next(m for m in state.legal_moves() if m.card is not None))
            play_as(client, game, state.player, move)
            rules.play(state, parse_move(move))
        page = new_page(url=f"{server.url}/game/{game['id']}#token={game['seats'][0]['token']}")
        page.wait_for_selector("[data-testid=no-cards]")
        assert page.inner_text("[data-testid=no-cards]") == "No cards left: your turns pass by themselves."
        assert not page.locator("[data-testid=hand-card]").count()
        number = len(client.get(f"/api/games/{game['id']}").json()["log"])
        play_as(client, game, 1, "pass")  # Morgan passes: Arthur's turn, which the server passes at once
        wait_for(lambda: len(client.get(f"/api/games/{game['id']}").json()["log"]) >= number + 2
                 or client.get(f"/api/games/{game['id']}").json()["status"] == "finished", what="Arthur's pass")
        last = client.get(f"/api/games/{game['id']}").json()["log"][number + 1:]
        assert not last or (last[0]["seat"] == 0 and last[0]["notation"] == "pass")
        page.wait_for_function("n => +document.body?.dataset.move >= n", arg=number + 1 + len(last))


def steps_to_check(state: GameState, rng: Random, moves: int = 12) -> list[list[dict]]:
    """Every prefix of the steps of a few legal moves of each card, the pass and no step at all."""
    by_card: dict[int | None, list] = {}
    for move in state.legal_moves():
        by_card.setdefault(move.card, []).append(move)
    chosen = [m for ms in by_card.values() for m in rng.sample(ms, min(moves, len(ms)))]
    sequences = {(): None}
    for move in chosen:
        steps = [(c.kind, c.value) for c in move_steps(move)]
        for n in range(1, len(steps) + 1):
            sequences[tuple(steps[:n])] = None
    return [[{"kind": k, "value": v} for k, v in seq] for seq in sequences]


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_browser_choices_answer_what_the_options_route_answers(server, new_page, lang):
    with httpx.Client(base_url=server.url, cookies={"lang": lang}) as client:
        game = create(client, [human("Arthur"), human("Morgan")], seed=SEED)
        state = state_of(client, game)
        rng = Random(5)
        for _ in range(3):  # a few cards in: courts filled, the stock smaller, maybe a partial action
            move = format_move(rng.choice([m for m in state.legal_moves() if m.card is not None]))
            play_as(client, game, state.player, move)
            rules.play(state, parse_move(move))
        seat = state.player
        token = game["seats"][seat]["token"]
        sequences = steps_to_check(state, rng)
        expected = []
        for steps in sequences:
            answer = client.post(f"/api/games/{game['id']}/options", json={"steps": steps}, headers=auth(token))
            assert answer.status_code == 200, answer.text
            expected.append(answer.json())
        page = new_page(url="about:blank")
        page.context.add_cookies([{"name": "lang", "value": lang, "url": server.url}])
        page.goto(f"{server.url}/game/{game['id']}#token={token}")
        page.wait_for_selector("[data-testid=pass]")
        got = page.evaluate("""async ([id, token, sequences]) => {
            const { Choices } = await import("/static/choices.js");
            const get = async (path) => (await fetch(path, { headers: { Authorization: `Bearer ${token}` } })).json();
            const [facts, view] = [await get("/api/meta"), await get(`/api/games/${id}`)];
            const choices = new Choices(view.choices, facts);
            return sequences.map((steps) => choices.options(steps, view.table, view.you));
        }""", [game["id"], token, sequences])
    for steps, mine, theirs in zip(sequences, got, expected, strict=True):
        for key in ("steps", "options", "complete", "move", "description", "prompt", "notes"):
            assert mine[key] == theirs[key], (steps, key, mine[key], theirs[key])
        assert (mine["preview"] is None) == (theirs["preview"] is None), steps
        if theirs["preview"]:
            for key in PREVIEWED:
                assert mine["preview"][key] == theirs["preview"][key], (steps, key)
    if lang == "fr":
        assert got[0]["prompt"] == "Jouez une carte de votre main, ou passez"
