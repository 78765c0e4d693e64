"""The end screen explains the result (Playwright on Debian's chromium, against a real server).

Each game is a seeded game of random moves, found to end the way the test needs
(a tie on regions, an invasion, a 4-player coronation), played through the API.
"""

from __future__ import annotations

from collections.abc import Iterator
from random import Random

import httpx
import pytest
from webtools import OUTPUT, Server, auth, create, human

from kingisdead import GameState
from kingisdead import playout




@pytest.fixture(scope="module")
def page(browser) -> Iterator[object]:
    context = browser.new_context(viewport={"width": 1440, "height": 900}, reduced_motion="reduce")
    context.set_default_timeout(30_000)
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda exc: errors.append(str(exc)))
    yield opened
    assert not errors, errors
    context.close()


def finished_game(server: Server, players: int, seed: int) -> tuple[dict, GameState]:
    """A game of people at ``seed`` played to its end with the moves of ``Random(seed)``."""
    state = GameState.new(players, "standard", seed)
    rng = Random(seed)
    with httpx.Client(base_url=server.url) as http:
        game = create(http, [human() for _ in range(players)], seed=seed)
        number = 0
        while not state.is_over():
            seat = state.player
            move = playout.play_random(state, rng)
            response = http.post(f"/api/games/{game['id']}/moves", headers=auth(game["seats"][seat]["token"]),
                                 json={"move": str(move), "move_number": number})
            assert response.status_code == 200, response.text
            number += 1
    return game, state


def open_end_screen(page, server: Server, game: dict, name: str):
    page.goto(f"{server.url}/game/{game['id']}#token={game['seats'][0]['token']}")
    page.wait_for_selector("[data-testid=result-explanation]")
    OUTPUT.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(OUTPUT / f"end-{name}.png"), full_page=True)
    return page.locator("[data-testid=result]")


def test_a_tie_on_regions_names_the_tie_break(server, page):
    game, state = finished_game(server, 2, seed=2)
    assert state.result.ending == "coronation"
    box = open_end_screen(page, server, game, "region-tie")
    text = box.inner_text()
    assert "both hold 2 regions" in text and "won a struggle more recently" in text
    assert "region(s)" not in text and "The player" not in text
    assert text.count("Coronation:") == 1 and text.count("regions are resolved") == 1  # the headline, once
    ranking = box.locator("[data-testid=faction-ranking] tr")
    assert ranking.count() == 4  # a header and three factions
    assert box.locator("[data-testid=result-courts] tr").count() == 3
    courts = box.locator("[data-testid=result-courts]").inner_text()
    assert "Last card played" in courts and f"card {state.last_play[0]} of the game" in courts
    assert "play " not in courts
    assert box.locator("[data-testid=result-step]").count() >= 1


def test_an_invasion_explains_the_complete_sets(server, page):
    game, state = finished_game(server, 2, seed=11)
    assert state.result.ending == "invasion"
    box = open_end_screen(page, server, game, "invasion")
    assert "The Saxons invade" in box.inner_text()
    assert box.locator("[data-testid=result-step][data-kind=sets]").count() == 1
    assert box.locator("[data-testid=faction-ranking]").count() == 0


def test_a_four_player_game_shows_the_team_result(server, page):
    game, state = finished_game(server, 4, seed=1)
    a, b = state.result.winners
    box = open_end_screen(page, server, game, "four-players")
    assert box.locator("[data-testid=team-result]").inner_text() == f"The team of players {a + 1} and {b + 1} wins together."
    assert box.locator("[data-testid=result-courts] tr").count() == 5


def test_an_unknown_game_id_is_a_not_found_page(server, page):
    assert httpx.get(f"{server.url}/game/no-such-game").status_code == 404
    page.goto(f"{server.url}/game/no-such-game")
    assert "game not found" in page.inner_text("[data-testid=not-found]")
    page.click("[data-testid=back-to-lobby]")
    page.wait_for_url(server.url + "/")


def test_the_analysis_summary_links_each_mistake_to_its_position_in_the_replay(server, page):
    game, _ = finished_game(server, 2, seed=2)
    open_end_screen(page, server, game, "before-analysis")
    page.click("[data-testid=analyse]")
    summary = page.wait_for_selector("[data-testid=analysis-summary]", timeout=120_000)
    assert page.locator("[data-testid=analysis-player]").count() == 2
    assert "moves reviewed" in summary.inner_text()
    assert "?? a blunder" in page.inner_text("[data-testid=analysis-legend]")
    page.screenshot(path=str(OUTPUT / "end-analysis.png"), full_page=True)
    links = page.locator("[data-testid=mistake-link]")
    assert links.count() >= 1  # random moves always give some win chance away
    number = int(links.first.get_attribute("data-move"))
    line = links.first.locator("xpath=..").inner_text()
    assert line.startswith(links.first.inner_text() + ": played "), line
    # in French the colon has a space before it, as French writes it
    french = page.context.browser.new_context(locale="fr-FR", viewport={"width": 1440, "height": 900})
    other = french.new_page()
    other.goto(f"{server.url}/game/{game['id']}#token={game['seats'][0]['token']}")
    other.click("[data-testid=analyse]")
    mistake = other.locator("[data-testid=mistake-link]").first
    mistake.wait_for(timeout=120_000)
    assert mistake.locator("xpath=..").inner_text().startswith(mistake.inner_text() + " : ")
    french.close()
    links.first.click()
    page.wait_for_selector("[data-testid=replay-position]")
    assert page.inner_text("[data-testid=replay-position]").startswith(f"Move {number - 1} / ")


def test_hints_can_be_switched_off_and_on_and_the_choice_is_remembered(server, page):
    with httpx.Client(base_url=server.url) as http:
        game = create(http, [human(), human()], seed=3, hints=True)
    page.goto(f"{server.url}/game/{game['id']}#token={game['seats'][0]['token']}")
    page.wait_for_selector("[data-testid=hint]")
    page.uncheck("[data-testid=hints-toggle]")
    assert page.locator("[data-testid=hint]").count() == 0
    page.reload()
    page.wait_for_selector("[data-testid=hints-toggle]")
    assert not page.is_checked("[data-testid=hints-toggle]")
    assert page.locator("[data-testid=hint]").count() == 0
    page.check("[data-testid=hints-toggle]")
    page.click("[data-testid=hint]")
    page.wait_for_selector("[data-testid=hint-box]", timeout=60_000)
