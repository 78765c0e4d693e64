"""Games of either edition: chosen at creation, stored with the game, shown in its names; ratings per edition."""

from __future__ import annotations

import json
import time
from pathlib import Path

import httpx
import pytest
import sqlalchemy as sa
import test_browser
from test_ratings import account, seat_accounts, service  # noqa: F401 (fixture)
from webtools import auth, bot, create, human

from kingisdead import GameState
from kingisdead import playout
from kingisdead.bots import make_bot
from kingisdead.edition import SECOND
from kingisdead.moves import format_move
from kingisdead.web.db import GameRow, RatingRow, make_engine
from kingisdead.web.ratings import leaderboard
from kingisdead.web.views import table_view

# the browser tests' fixtures (a real server, Debian's chromium; those tests skip without chromium)
browser_new_page = test_browser.new_page


def test_a_game_is_created_in_the_edition_asked_for_and_shown_in_its_names(client):
    game = create(client, [human("Ada"), bot("random")], seed=5, edition="second")
    view = game["game"]
    assert view["edition"] == "second" and view["table"]["edition"] == "second"
    setup = GameState.new(2, "standard", 5, edition="second")
    assert view["table"]["followers"] == [setup.board[r * 4:r * 4 + 4] for r in range(8)]
    token = game["seats"][0]["token"]
    mine = client.get(f"/api/games/{game['id']}", headers=auth(token)).json()
    codes = mine["choices"]["codes"]
    assert codes["cards"] == list(SECOND.card_words) and codes["regions"][:2] == ["Mor", "Str"]
    assert codes["factions"][:3] == ["S", "W", "E"]
    assert "negotiation disc" in mine["choices"]["texts"]["crown"]
    # a move in the second edition's notation is played, and the log speaks its names
    move = next(m for m in setup.legal_moves() if m.card is not None and m.card >= 4)
    text = format_move(move, SECOND)
    assert text.split()[0] in ("Scottish", "Welsh", "English")
    played = client.post(f"/api/games/{game['id']}/moves", json={"move": text, "move_number": 0}, headers=auth(token))
    assert played.status_code == 200, played.text
    entry = played.json()["log"][0]
    assert entry["notation"] == text and entry["text"].split(":")[0] in ("Scottish Support", "Welsh Support",
                                                                         "English Support")
    first_edition_word = {"Scottish": "Scots", "Welsh": "Welsh", "English": "Romano-British"}[text.split()[0]]
    refused = client.post(f"/api/games/{game['id']}/moves", headers=auth(token),
                          json={"move": text.replace(text.split()[0], first_edition_word, 1), "move_number": 1})
    assert refused.status_code in (409, 422)  # the first edition's words are not this game's notation
    steps = client.post(f"/api/games/{game['id']}/options", headers=auth(token), json={"steps": []})
    assert steps.status_code in (200, 409)
    # the record and the lobby carry the edition
    record = json.loads(client.get(f"/api/games/{game['id']}/record").text)
    assert record["edition"] == "second" and record["moves"][0] == text
    listed = {g["id"]: g for g in client.get("/api/games").json()["games"]}
    assert listed[game["id"]]["edition"] == "second"


def test_the_edition_defaults_to_the_first(client):
    game = create(client, [human(), bot("random")], seed=5)
    assert game["game"]["edition"] == "first" and game["game"]["table"]["edition"] == "first"
    meta = client.get("/api/meta").json()
    assert meta["edition"] == "first" and meta["editions"] == ["first", "second"]
    assert meta["regions"][0]["name"] == "Caledonia"


def test_the_meta_gives_the_edition_asked_for(client):
    meta = client.get("/api/meta", params={"edition": "second"}).json()
    assert meta["edition"] == "second" and [r["name"] for r in meta["regions"]] == list(SECOND.regions)
    assert meta["cards"][0] == "Negotiate" and meta["controls"][4] == "Instability"
    assert meta["invaders"]["track"] == "France"
    french = client.get("/api/meta", params={"edition": "second"}, headers={"Accept-Language": "fr"}).json()
    assert french["controls"][4] == "Instabilité" and french["factions"][0] == "Scottish"
    assert client.get("/api/meta", params={"edition": "third"}).status_code == 422


@pytest.mark.parametrize("settings", [{"edition": "third"}, {"edition": 2}, {"edition": None},
                                      {"edition": "second", "variant": "mordred"}])
def test_a_bad_edition_is_refused_and_creates_nothing(client, settings):
    before = client.get("/api/games").json()["games"]
    response = client.post("/api/games", json={"players": 2, "seats": [human(), bot("random")], **settings})
    assert response.status_code == 422, response.text
    body = response.json()
    assert body["error"] == "invalid_request"
    assert "edition" in body["detail"] or "Mordred" in body["detail"]
    assert client.get("/api/games").json()["games"] == before


@pytest.mark.parametrize("settings", [{"seats": [human(), bot("master")]},
                                      {"seats": [human(), bot("random")], "stand_in": "mcts-net"}])
def test_network_bots_are_refused_for_the_second_edition(client, settings):
    """The learned network knows only the first edition: its bots are not offered, and refused, for the second."""
    meta = client.get("/api/meta").json()
    assert "master" in meta["network_bots"] and meta["trained_editions"] == ["first"]
    before = client.get("/api/games").json()["games"]
    response = client.post("/api/games", json={"players": 2, "edition": "second", **settings})
    assert response.status_code == 422, response.text
    assert "first edition" in response.json()["detail"]
    assert client.get("/api/games").json()["games"] == before


def test_the_second_editions_options_are_played_stored_and_shown(client):
    """A game made with rule options plays under them (its view's choices and its record), keeps only those that
    differ from the defaults."""
    response = client.post("/api/games", json={"players": 3, "edition": "second", "seed": 4, "seats": [
        human(), bot("random"), bot("random")], "options": {"last_card": "must_win", "reversal": "effect"}})
    assert response.status_code == 201, response.text
    game = response.json()["game"]
    assert game["options"] == {"last_card": "must_win"}  # "effect" is the default: not kept
    record = client.get(f"/api/games/{game['id']}/record").json()
    assert record["options"] == {"last_card": "must_win"}
    plain = client.post("/api/games", json={"players": 3, "edition": "second", "seats": [
        human(), bot("random"), bot("random")]}).json()["game"]
    assert plain["options"] == {}
    played = client.app.state.service.get(game["id"]).snapshot.state.edition  # the rules the engine plays by
    assert played.last_card == "must_win" and played.reversal == "effect"


@pytest.mark.parametrize(("settings", "words"), [
    ({"edition": "second", "options": {"reversal": "bogus"}}, "reversal"),
    ({"edition": "second", "options": {"court_redraw": "true"}}, "court_redraw"),
    ({"edition": "second", "options": {"colour": "red"}}, "unknown option"),
    ({"edition": "first", "options": {"reversal": "exact"}}, "first edition has no options"),
    ({"edition": "second", "options": ["reversal"]}, "options"),
])
def test_bad_options_are_refused_and_create_nothing(client, settings, words):
    before = client.get("/api/games").json()["games"]
    response = client.post("/api/games", json={"players": 2, "seats": [human(), bot("random")], **settings})
    assert response.status_code == 422, response.text
    assert words in response.text
    assert client.get("/api/games").json()["games"] == before


def test_the_edition_is_stored_and_survives_a_restart(tmp_path: Path):
    from kingisdead.web.service import GameService

    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    first = GameService(url)
    try:
        game, _ = first.create(3, "standard", [{"kind": "human"}, {"kind": "bot", "bot": "random"},
                                                {"kind": "bot", "bot": "random"}], seed=11, edition="second")
        chooser = make_bot("random", 3)
        for _ in range(6):
            state = first.get(game.id).snapshot.state
            first.play(game.id, state.player, format_move(chooser.choose(state), state.edition), None)
        moves = first.get(game.id).snapshot.moves
        key = first.get(game.id).snapshot.state.key()
    finally:
        first.close()
    with make_engine(url).connect() as connection:
        assert connection.execute(sa.select(GameRow.edition).where(GameRow.id == game.id)).scalar_one() == "second"
    again = GameService(url)
    try:
        loaded = again.get(game.id)
        assert loaded.edition == "second" and loaded.snapshot.moves == moves
        assert loaded.snapshot.state.key() == key and loaded.snapshot.state.edition.name == "second"
        frame = again.replay_frame(loaded, 3)
        assert frame["table"]["edition"] == "second"
    finally:
        again.close()


def test_ratings_are_kept_per_edition(service):  # noqa: F811 (the fixture)
    alice, bob = account(service, "Alice"), account(service, "Bob")
    games = {}
    for edition in ("first", "second", "second"):
        game, _ = service.create(2, "standard", [{"kind": "human"}, {"kind": "human"}], seed=5, rated=True,
                                 user_id=alice, edition=edition)
        seat_accounts(service, game.id, {1: bob})
        games.setdefault(edition, []).append(game.id)
        state = service.get(game.id).snapshot.state
        chooser = make_bot("random", 1)
        while not state.is_over():
            service.play(game.id, state.player, format_move(chooser.choose(state), state.edition), None)
            state = service.get(game.id).snapshot.state
    with service.sessions() as session:
        rows = {(r.user_id, r.edition, r.players): r.games for r in session.scalars(sa.select(RatingRow))}
    assert rows == {(alice, "first", 2): 1, (bob, "first", 2): 1, (alice, "second", 2): 2, (bob, "second", 2): 2}
    second = service.view(service.get(games["second"][1]), None)["ratings"]
    assert [r["games"] for r in second] == [2, 2]  # counted in the second edition only
    boards = {edition: leaderboard(service.sessions, 2, edition=edition) for edition in ("first", "second")}
    people = {edition: {e["name"]: e["games"] for e in board["ratings"] if not e["bot"]} for edition, board in boards.items()}
    assert people == {"first": {"Alice": 1, "Bob": 1}, "second": {"Alice": 2, "Bob": 2}}
    assert boards["second"]["edition"] == "second"


def test_the_leaderboard_route_takes_an_edition(client):
    assert client.get("/api/leaderboard", params={"players": 2, "edition": "second"}).json()["edition"] == "second"
    assert client.get("/api/leaderboard", params={"players": 2, "edition": "fourth"}).status_code == 422


def test_the_explanations_speak_the_second_editions_names():
    from random import Random

    from kingisdead.web.explain import card_effect, explain_result, struggle_now
    from kingisdead.web.views import describe_struggle, move_changes

    state = GameState.new(2, "standard", 3, edition="second")
    negotiate = card_effect(state, 0)["text"]
    assert negotiate.startswith("Negotiate: swap two of the region cards") and "negotiation disc" in negotiate
    support = card_effect(state, 4)["text"]
    assert support.startswith("Scottish Support: place two Scottish followers") and "Scots" not in support
    assert describe_struggle(3, [2, 2, 0, 0], 4, SECOND) == "Lancaster: Scottish 2, Welsh 2 — tie, Lancaster becomes unstable"
    endings: dict[str, str] = {}
    for seed in range(40):
        state, rng = GameState.new(2, "standard", seed, edition="second"), Random(seed)
        while not state.is_over():
            before = state.copy()
            found = struggle_now(state)
            if found and found["leader"] == 4:
                assert "becomes unstable" in found["all_pass"] and "Saxon" not in found["all_pass"]
            move = playout.play_random(state, rng)
            for struggle in move_changes(before, state, move)["struggles"]:
                assert "Saxon" not in struggle["text"] and struggle["text"].split(":")[0] in SECOND.regions
        endings.setdefault(state.result.ending, explain_result(state)["headline"])
        if len(endings) == 2:
            break
    assert endings["invasion"].startswith("The French invade: 3 regions became unstable.")
    assert "Coronation" in endings["coronation"] and any(f in endings["coronation"] for f in ("Scottish", "English", "Welsh"))


def test_the_lobby_speaks_the_chosen_editions_names_and_says_why_a_level_is_missing(server, new_page):
    page = new_page()
    page.goto(server.url + "/")
    page.wait_for_selector("[data-testid=level-option]", state="attached")
    levels = lambda: page.locator("[data-testid=seat-1] [data-testid=level-option]").evaluate_all(  # noqa: E731
        "options => options.map(o => o.value)")
    assert "bot:master" in levels() and page.locator("[data-testid=levels-note]").is_hidden()
    page.click("[data-testid=edition-second]")
    headline = page.locator(".hero").inner_text()
    assert "Scottish" in headline and "English" in headline and "French" in headline
    assert not any(name in headline for name in ("Scots", "Romano-British", "Saxons")), headline
    assert page.locator("[data-testid=hero-second] span[lang=en]").count() == 3  # the edition's names stay English
    assert "bot:master" not in levels()
    note = page.locator("[data-testid=levels-note]")
    assert note.is_visible() and note.inner_text().startswith("Not offered with this edition: the master bot")
    test_browser.shoot(page, "lobby-second-edition")
    page.click("[data-testid=edition-first]")
    assert "Romano-British" in page.locator(".hero").inner_text() and "Scottish" not in page.locator(".hero").inner_text()
    assert "bot:master" in levels() and note.is_hidden()


def test_the_lobby_offers_the_second_editions_rule_options(server, new_page):
    page = new_page()
    page.goto(server.url + "/")
    page.wait_for_selector("[data-testid=create]")
    assert page.locator("[data-testid=rule-options]").is_hidden()  # the first edition has none
    page.click("[data-testid=edition-second]")
    assert page.locator("[data-testid=rule-options]").is_visible()
    assert page.locator("[data-testid=rule-options] select:not([data-advanced])").count() == 5
    assert page.locator("[data-testid=advanced-options]").is_hidden()  # the advanced game's own: when it is chosen
    state = page.get_by_test_id("rule-options-state")
    assert state.inner_text() == "the rules' defaults"
    page.click("[data-testid=rule-options] summary")  # folded until opened: the Create button stays in view
    page.select_option("[data-testid=option-reversal]", "exact")
    page.select_option("[data-testid=option-court_redraw]", "true")
    assert state.inner_text() == "2 options changed from the defaults"
    page.click("[data-testid=create]")
    page.wait_for_url("**/game/**")
    game_id = page.url.split("/game/")[1].split("#")[0]
    view = httpx.get(f"{server.url}/api/games/{game_id}").json()
    assert view["edition"] == "second" and view["options"] == {"reversal": "exact", "court_redraw": True}
    page.wait_for_function("() => document.getElementById('game-meta')?.textContent.includes('rule options')")
    assert "reversal: exact" in page.inner_text("#game-meta")
    page.goto(server.url + "/")
    page.wait_for_selector("[data-testid=create]")
    page.click("[data-testid=edition-second]")
    page.click("[data-testid=edition-first]")  # options chosen, then the first edition: none are sent
    assert page.locator("[data-testid=rule-options]").is_hidden()


def test_a_person_plays_the_second_edition_from_the_lobby_to_the_end(server, new_page):
    """The lobby's edition choice makes a second-edition game; its table draws the second edition's board, hand
    and log; four turns are played by clicks (test_browser's helpers, which play a first-edition game to its end
    by clicks), the rest by the same seat's passes through the API, and the table shows the end in the second
    edition's words."""
    from test_browser import play_turn, shoot, wait_for_turn

    page = new_page()
    page.goto(server.url + "/")
    page.wait_for_selector("[data-testid=leaderboard-row]")
    page.click("[data-testid=board-edition-second]")  # the second edition's own ratings: its bots at their start
    page.wait_for_selector("[data-testid=leaderboard][data-edition=second] [data-testid=leaderboard-row][data-bot=yes]")
    page.click("[data-testid=edition-second]")
    assert page.locator("[data-testid=variant-mordred]").is_disabled()
    assert "instability" in page.text_content("[data-testid=variant-help]")
    assert "France" in page.text_content("[data-testid=edition-help]")
    page.check("[data-testid=advanced-bots]")
    page.select_option("[data-testid=seat-1]", "bot:random")
    page.fill("[data-testid=seed]", "193")
    page.click("[data-testid=create]")
    page.wait_for_url("**/game/*")
    turn, turns = wait_for_turn(page), 0
    assert page.get_attribute("body", "data-edition") == "second"
    assert page.get_attribute("[data-testid=rules-link]", "href") == "/rules#second-edition"
    names = page.locator("#map g.ribbon text.region-name").all_text_contents()
    assert names == list(SECOND.regions)
    assert page.locator("#map [data-testid=invader-track] text.board-title").text_content() == "France"
    hand = page.locator("[data-testid=hand-card] .title").all_text_contents()
    assert "Negotiate" in hand and "Scottish Support" in hand and "Crown" not in hand
    shoot(page, "table-second-edition-start")
    while turn == "you" and turns < 4:
        before = play_turn(page, with_card=turns % 2 == 0)
        turns += 1
        turn = wait_for_turn(page, before)
    shoot(page, "table-second-edition-mid")
    game_id = page.url.rsplit("/", 1)[1]
    token = json.loads(page.evaluate(f"() => localStorage.getItem('kid:tokens:{game_id}')"))[0]
    with httpx.Client(base_url=server.url, headers=auth(token), timeout=30) as http:
        while (view := http.get(f"/api/games/{game_id}").json())["status"] != "finished":
            if view["table"]["to_move"] == view["you"]:
                answer = http.post(f"/api/games/{game_id}/moves", json={"move": "pass", "move_number": view["move_number"]})
                assert answer.status_code == 200, answer.text
            else:
                time.sleep(0.05)
    page.wait_for_function("() => document.body?.dataset.turn === 'over'")
    title = page.locator("[data-testid=result-title]").inner_text()
    assert "Saxon" not in title and "Saxon" not in page.locator("[data-testid=result]").inner_text()
    shoot(page, "table-second-edition-end")


def test_moves_in_words_in_the_second_edition():
    from kingisdead.moves import parse_move
    from kingisdead.web.views import describe_move

    said = describe_move(parse_move("Manoeuvre Lan:E<>War:S +War:E", SECOND), SECOND)
    assert said == ("Manoeuvre: exchanges one English follower in Lancaster with one Scottish follower in Warwick; "
                    "calls one English follower from Warwick to court")
    assert describe_move(parse_move("Negotiate Ess<>Dev *Dev +Ess:E", SECOND), SECOND).startswith(
        "Negotiate: swaps Essex and Devon, puts the negotiation disc on Devon")
    assert describe_move(parse_move("English War War +Lan:W", SECOND), SECOND).startswith(
        "English Support: places 2 followers in Warwick")


def test_a_move_built_step_by_step_is_labelled_in_the_games_edition(client):
    game = create(client, [human(), bot("random")], seed=5, edition="second")
    token = game["seats"][0]["token"]
    built = client.post(f"/api/games/{game['id']}/options", headers=auth(token),
                        json={"steps": [{"kind": "card", "value": 4}]}).json()
    assert built["steps"][0]["label"] == "Scottish Support"
    assert {o["label"] for o in built["options"]} <= set(SECOND.regions)
    assert built["prompt"] == "Choose a region for the first Scottish follower"


def test_the_table_page_names_its_games_edition(client):
    second = create(client, [human(), bot("random")], seed=5, edition="second")
    first = create(client, [human(), bot("random")], seed=5)
    assert 'data-edition="second"' in client.get(f"/game/{second['id']}").text
    assert 'data-edition="first"' in client.get(f"/game/{first['id']}").text


def test_the_rules_page_tells_the_second_editions_differences(client):
    english = client.get("/rules").text
    assert 'id="second-edition"' in english and "Three instability discs start in France" in english
    french = client.get("/rules", headers={"Accept-Language": "fr"}).text
    assert "La deuxième édition" in french and "Trois disques d'instabilité partent de France" in french


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_view_of_random_second_edition_games_is_in_its_names(players):
    """Views, choices, moves in words and the result's explanation of seeded random games, 2 to 4 players."""
    from random import Random

    from kingisdead.web.choices import choices_view
    from kingisdead.web.i18n import localize
    from kingisdead.web.views import describe_move

    first_edition_words = ("Saxon", "Scots", "Romano", "Crown", "Garrison", "Ambassador", "Settlements", "Caledonia",
                           "Londinium")
    for seed in range(6):
        state, rng = GameState.new(players, "standard", seed, edition="second"), Random(seed)
        while True:
            view = localize([table_view(state, seat) for seat in (None, state.player)], "en")
            if not state.is_over():
                view.append(localize(choices_view(state)["texts"], "en"))
            text = json.dumps(view)
            assert not any(word in text for word in first_edition_words), [w for w in first_edition_words if w in text]
            if state.is_over():
                break
            move = playout.play_random(state, rng)
            assert "Saxon" not in describe_move(move, SECOND)
        assert table_view(state, None)["explanation"]["steps"]
