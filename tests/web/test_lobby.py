"""The lobby offers the engine's bot levels with one line each; raw engine bots only under "advanced"."""

from __future__ import annotations


import httpx

from kingisdead.bots.levels import LEVELS




def test_meta_describes_each_level(server):
    levels = httpx.get(server.url + "/api/meta").json()["levels"]
    assert [entry["name"] for entry in levels] == list(LEVELS)
    assert levels[0]["thinks"] == "moves at once"
    assert levels[2]["thinks"] == "thinks about 1 s a move"


def test_lobby_offers_levels_and_raw_bots_only_under_advanced(server, browser):
    page = browser.new_page()
    page.goto(server.url + "/")
    seat = page.locator("[data-testid=seat-1]")
    seat.locator("option").first.wait_for(state="attached")
    labels = seat.locator("option").all_inner_texts()
    assert labels[0] == "Person"
    assert [label.split(" (")[0] for label in labels[1:]] == [f"Bot: {name}" for name in LEVELS]
    assert "1 s a move" in labels[3] and "moves at once" in labels[1]
    assert seat.input_value() == "bot:intermediate"
    assert not any(raw in " ".join(labels) for raw in ("uniform", "careless", "mcts"))
    page.check("[data-testid=advanced-bots]")
    raw = seat.locator("[data-testid=raw-bot-option]").all_inner_texts()
    assert "Engine bot: uniform" in raw and "Engine bot: mcts" in raw
    page.select_option("[data-testid=seat-1]", "bot:mcts")
    page.uncheck("[data-testid=advanced-bots]")
    assert seat.locator("[data-testid=raw-bot-option]").count() == 0
    assert seat.input_value() == "bot:intermediate"  # a raw choice falls back to the default level
    page.close()


def test_names_typed_for_seats_survive_a_redraw_of_the_seats(server, browser):
    page = browser.new_page()
    page.goto(server.url + "/")
    page.locator("[data-testid=seat-1] option").first.wait_for(state="attached")
    page.fill("[data-testid=name-0]", "Guinevere")
    page.check("[data-testid=advanced-bots]")  # redraws the seats, as the bots' ratings arriving does
    assert page.input_value("[data-testid=name-0]") == "Guinevere"
    page.close()


def test_a_redraw_of_the_seats_while_a_name_is_typed_keeps_the_caret(server, browser):
    page = browser.new_page()
    page.goto(server.url + "/")
    page.locator("[data-testid=seat-1] option").first.wait_for(state="attached")
    page.click("[data-testid=name-0]")
    page.keyboard.type("Guin")
    page.evaluate("document.getElementById('advanced-bots').click()")  # a redraw that takes no focus
    page.keyboard.type("evere")
    assert page.input_value("[data-testid=name-0]") == "Guinevere"
    page.close()
