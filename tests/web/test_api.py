"""The HTTP API: creating, joining, building and playing moves, errors, hidden hands, records."""

from __future__ import annotations

import json
import threading
from random import Random

from webtools import auth, bot, create, human, on_both_databases, wait_for

from kingisdead import GameState, parse_move
from kingisdead import playout
from kingisdead.building import Choice
from kingisdead.moves import format_move
from kingisdead.record import GameRecord
from kingisdead.web.errors import GameError
from kingisdead.web.service import GameService


def state_of(client, game_id: str) -> GameState:
    """The engine's state of a server game (its public record has no seed while it runs)."""
    return client.app.state.service.get(game_id).snapshot.state


@on_both_databases
def test_create_gives_the_creator_a_token_and_the_others_invites(client):
    game = create(client, [human("Ada"), bot("random"), human()], seed=5, claim=False)
    seats = game["seats"]
    assert [s["kind"] for s in seats] == ["human", "bot", "human"]
    assert seats[1]["token"] is None and seats[1]["invite"] is None and seats[1]["invite_token"] is None
    assert seats[0]["token"] and seats[0]["invite"] is None and seats[0]["claimed"]
    assert seats[2]["token"] is None and seats[2]["invite_token"].startswith("invite-") and not seats[2]["claimed"]
    # built from the configured public URL, not from the request's Host header
    assert seats[2]["invite"] == f"http://localhost:8000/game/{game['id']}#token={seats[2]['invite_token']}"
    assert seats[0]["name"] == "Ada" and seats[2]["name"] == "Player 3"
    assert game["game"]["table"]["hand"] is None
    setup = GameState.new(3, "standard", 5)
    assert game["game"]["table"]["followers"] == [setup.board[r * 4:r * 4 + 4] for r in range(8)]


def test_each_seat_sees_only_its_own_hand(client):
    game = create(client, [human(), human(), human(), human()], seed=9)
    tokens = [s["token"] for s in game["seats"]]
    headers = auth(tokens[0])
    client.post(f"/api/games/{game['id']}/moves", json={"move": "Scots Din Din +Cal:S", "move_number": 0},
                headers=headers)
    state = state_of(client, game["id"])
    for seat, token in enumerate(tokens):
        view = client.get(f"/api/games/{game['id']}", headers=auth(token)).json()
        assert view["you"] == seat
        table = view["table"]
        assert "hands" not in table
        assert table["hand"] == state.hands[seat * 7:seat * 7 + 7]
        assert table["cards_left"] == [state.cards_left(p) for p in range(4)]
        assert table["tops"] == state.tops
    spectator = client.get(f"/api/games/{game['id']}").json()
    assert spectator["you"] is None and spectator["table"]["hand"] is None and "hands" not in spectator["table"]


def test_only_the_seat_to_move_gets_the_choices_of_its_move(client):
    game = create(client, [human(), human()], seed=9)
    tokens = [s["token"] for s in game["seats"]]

    def choices(token: str | None) -> dict | None:
        return client.get(f"/api/games/{game['id']}", headers=auth(token) if token else {}).json()["choices"]

    state = state_of(client, game["id"])
    mine = choices(tokens[0])
    assert [c["card"] for c in mine["cards"]] == [c for c in range(7) if state.hands[c]]
    assert choices(tokens[1]) is None and choices(None) is None  # they would tell about seat 0's hand
    client.post(f"/api/games/{game['id']}/moves", json={"move": "pass", "move_number": 0}, headers=auth(tokens[0]))
    assert choices(tokens[0]) is None and choices(tokens[1])["cards"]


def test_a_move_built_from_the_offered_options_is_accepted(client):
    game = create(client, [human(), bot()], seed=3)
    game_id, headers = game["id"], auth(game["seats"][0]["token"])
    steps: list[dict] = []
    answer = client.post(f"/api/games/{game_id}/options", json={"steps": steps}, headers=headers).json()
    assert {"kind": "pass", "value": -1, "label": "pass"} in answer["options"]
    rng = Random(0)
    while not answer["complete"]:
        offered = [o for o in answer["options"] if o["kind"] != "pass"]
        pick = rng.choice(offered)
        steps.append({"kind": pick["kind"], "value": pick["value"]})
        answer = client.post(f"/api/games/{game_id}/options", json={"steps": steps}, headers=headers).json()
        assert answer["prompt"]
    builder = GameState.new(2, "standard", 3).builder()
    for step in steps:
        builder.choose(Choice(step["kind"], step["value"]))
    assert answer["move"] == format_move(builder.move())
    played = client.post(f"/api/games/{game_id}/moves", json={"move": answer["move"], "move_number": 0},
                         headers=headers)
    assert played.status_code == 200
    assert played.json()["log"][0]["notation"] == answer["move"]


def test_an_option_that_is_not_offered_is_refused(client):
    game = create(client, [human(), bot()], seed=3)
    headers = auth(game["seats"][0]["token"])
    response = client.post(f"/api/games/{game['id']}/options",
                           json={"steps": [{"kind": "card", "value": 0}, {"kind": "faction", "value": 2}]},
                           headers=headers)
    assert response.status_code == 422
    assert "step 2" in response.json()["detail"]


def test_errors_are_clear_and_change_nothing(client):
    game = create(client, [human(), human()], seed=4)
    game_id = game["id"]
    first, second = (auth(s["token"]) for s in game["seats"])
    url = f"/api/games/{game_id}/moves"

    def check(response, status: int, code: str) -> None:
        assert response.status_code == status, response.text
        assert response.json()["error"] == code
        assert response.json()["detail"]

    check(client.post(url, content=b"{not json", headers={**first, "Content-Type": "application/json"}),
          422, "invalid_request")
    assert "JSON" in client.post(url, content=b"{not json",
                                 headers={**first, "Content-Type": "application/json"}).json()["detail"]
    check(client.post(url, json={"mvoe": "pass"}, headers=first), 422, "invalid_request")
    check(client.post("/api/games/nope/moves", json={"move": "pass"}, headers=first), 404, "unknown_game")
    check(client.post(url, json={"move": "pass"}), 401, "no_token")
    check(client.post(url, json={"move": "pass"}, headers=auth("forged")), 403, "bad_token")
    check(client.post(url, json={"move": "Crown Cal<>Cal *Cal"}, headers=first), 422, "illegal_move")
    check(client.post(url, json={"move": "Dance Lon"}, headers=first), 422, "illegal_move")
    check(client.post(url, json={"move": "pass", "move_number": 0}, headers=second), 409, "not_your_turn")
    check(client.post(url, json={"move": "pass", "move_number": 3}, headers=first), 409, "stale")
    view = client.get(f"/api/games/{game_id}").json()
    assert view["move_number"] == 0 and view["log"] == []
    assert client.post(url, json={"move": "pass", "move_number": 0}, headers=first).status_code == 200
    check(client.post(url, json={"move": "pass", "move_number": 0}, headers=second), 409, "stale")
    assert client.get(f"/api/games/{game_id}").json()["move_number"] == 1


def test_join_takes_free_seats_until_none_is_left(client):
    game = create(client, [human(), {**human(), "public": True}, bot()], seed=2, claim=False)
    open_games = client.get("/api/games", params={"status": "open"}).json()["games"]
    assert [(g["id"], g["open_seats"]) for g in open_games] == [(game["id"], [1])]
    joined = client.post(f"/api/games/{game['id']}/join")
    assert joined.status_code == 200 and joined.json()["seat"] == 1
    view = client.get(f"/api/games/{game['id']}", headers=auth(joined.json()["token"])).json()
    assert view["you"] == 1
    # the invite token of a seat taken from the lobby no longer works
    used = client.post(f"/api/games/{game['id']}/claim", headers=auth(game["seats"][1]["invite_token"]))
    assert used.status_code == 403 and used.json()["error"] == "invite_used"
    refused = client.post(f"/api/games/{game['id']}/join")
    assert refused.status_code == 409 and refused.json()["error"] == "no_free_seat"
    assert client.get("/api/games", params={"status": "open"}).json()["games"] == []


def test_an_open_seat_leaves_the_lobby_once_its_invite_is_claimed(client):
    game = create(client, [human(), {**human(), "public": True}], seed=2, claim=False)
    assert client.get("/api/games", params={"status": "open"}).json()["games"][0]["open_seats"] == [1]
    client.post(f"/api/games/{game['id']}/claim", headers=auth(game["seats"][1]["invite_token"]))
    assert client.get("/api/games", params={"status": "open"}).json()["games"] == []


@on_both_databases
def test_a_game_against_a_bot_plays_to_the_end_and_its_record_replays(client):
    game = create(client, [human(), bot("random")], seed=11)
    game_id, headers = game["id"], auth(game["seats"][0]["token"])
    rng = Random(11)
    for _ in range(200):
        view = wait_for(lambda: (v := client.get(f"/api/games/{game_id}").json())["table"]["to_move"] != 1 and v,
                        what="the bot's move")
        if view["status"] == "finished":
            break
        snap = client.app.state.service.get(game_id).snapshot
        if snap.state.is_over() or snap.state.player != 0:
            continue  # the server moved meanwhile: a pass for seat 0's empty hand, then the bot's reply
        move = format_move(playout.sample_move(snap.state, rng))
        response = client.post(f"/api/games/{game_id}/moves", json={"move": move, "move_number": len(snap.moves)},
                               headers=headers)
        assert response.status_code == 200, response.text
    view = client.get(f"/api/games/{game_id}").json()
    assert view["status"] == "finished"
    record = GameRecord.loads(client.get(f"/api/games/{game_id}/record").text)
    final = record.replay()
    assert record.result == final.result.to_dict() == view["table"]["result"]
    assert len(record.moves) == view["move_number"]
    assert view["table"]["hands"] == [final.hands[p * 7:p * 7 + 7] for p in range(2)]  # shown once it is over
    first = client.get(f"/api/games/{game_id}/replay/0").json()
    assert first["move"] is None and first["table"]["followers"] == game["game"]["table"]["followers"]
    last = client.get(f"/api/games/{game_id}/replay/{len(record.moves)}").json()
    assert last["table"]["result"] == record.result and last["move"]["notation"] == record.moves[-1]
    assert client.get(f"/api/games/{game_id}/replay/{len(record.moves) + 1}").status_code == 404
    finished = client.get("/api/games", params={"status": "finished"}).json()["games"]
    assert [g["id"] for g in finished] == [game_id]
    late = client.post(f"/api/games/{game_id}/moves", json={"move": "pass"}, headers=headers)
    assert late.status_code == 409 and late.json()["error"] == "over"


def test_bots_play_a_game_on_their_own_and_it_can_be_analysed(client):
    game = create(client, [bot("random"), bot("random"), bot("random")], seed=21)
    early = client.get(f"/api/games/{game['id']}/analysis")
    view = wait_for(lambda: (v := client.get(f"/api/games/{game['id']}").json())["status"] == "finished" and v,
                    what="the bots to finish")
    record = GameRecord.loads(client.get(f"/api/games/{game['id']}/record").text)
    assert record.replay().result.to_dict() == view["table"]["result"]
    if early.status_code != 200:  # asked before the bots finished: refused, not computed on a running game
        assert early.status_code == 409 and early.json()["error"] == "not_over"
    analysis = client.get(f"/api/games/{game['id']}/analysis").json()
    assert [m["played"] for m in analysis["moves"]] == record.moves
    for note in analysis["moves"]:
        assert 0 <= note["loss"] <= 1
        if note["played"] == note["best"]:
            assert note["loss"] == 0


def test_analysis_waits_for_the_end_of_the_game(client):
    game = create(client, [human(), human()], seed=8)
    response = client.get(f"/api/games/{game['id']}/analysis")
    assert response.status_code == 409 and response.json()["error"] == "not_over"


def test_memory_mode_offers_no_hints_nor_an_analysis_while_it_runs(client):
    game = create(client, [human(), bot()], seed=8, hints=True, memory=True)
    token = game["seats"][0]["token"]
    view = client.get(f"/api/games/{game['id']}", headers=auth(token)).json()
    assert view["memory"] is True and view["hints"] is False  # the table shows no Hint button
    refused = client.post(f"/api/games/{game['id']}/hint", headers=auth(token))
    assert refused.status_code == 403 and refused.json()["error"] == "hints_off"
    assert "memory" in refused.json()["detail"]
    analysis = client.get(f"/api/games/{game['id']}/analysis")
    assert analysis.status_code == 409 and analysis.json()["error"] == "not_over"


def test_hints_follow_the_game_setting(client):
    off = create(client, [human(), bot()], seed=8)
    refused = client.post(f"/api/games/{off['id']}/hint", headers=auth(off["seats"][0]["token"]))
    assert refused.status_code == 403 and refused.json()["error"] == "hints_off"
    on = create(client, [human(), bot()], seed=8, hints=True)
    hint = client.post(f"/api/games/{on['id']}/hint", headers=auth(on["seats"][0]["token"])).json()
    state = GameState.new(2, "standard", 8)
    assert 1 <= len(hint["moves"]) <= 3
    for suggestion in hint["moves"]:
        assert state.is_legal(parse_move(suggestion["move"]))
        assert 0 <= suggestion["win_chance"] <= 1 and suggestion["description"]


def test_meta_offers_every_registered_bot(client):
    from kingisdead.bots import BOTS

    meta = client.get("/api/meta").json()
    assert meta["bots"] == list(BOTS)
    assert len(meta["regions"]) == 8 and len(meta["borders"]) == 13
    assert meta["reminders"] == {"mail": False, "push": False}  # no SMTP server, no VAPID keys: none to promise


def test_bad_game_settings_are_refused(client):
    for body in ({"players": 5, "seats": []},
                 {"players": 2, "seats": [{"kind": "human"}]},
                 {"players": 2, "seats": [{"kind": "human"}, {"kind": "bot", "bot": "nobody"}]},
                 {"players": 2, "variant": "chess", "seats": [{"kind": "human"}, {"kind": "human"}]},
                 {"players": 2, "seed": -1, "seats": [{"kind": "human"}, {"kind": "human"}]}):
        response = client.post("/api/games", json=body)
        assert response.status_code == 422, body
        assert response.json()["error"] == "invalid_request"
    assert client.get("/api/games").json()["games"] == []


@on_both_databases
def test_concurrent_moves_for_one_game_are_serialised(db_url):
    service = GameService(db_url)
    game, _tokens = service.create(2, "standard", [{"kind": "human"}, {"kind": "human"}], seed=1)
    outcomes: list[str] = []
    barrier = threading.Barrier(8)

    def attempt() -> None:
        barrier.wait()
        try:
            service.play(game.id, 0, "pass", 0)
            outcomes.append("ok")
        except GameError as exc:
            outcomes.append(exc.code)

    threads = [threading.Thread(target=attempt) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["ok"] + ["stale"] * 7
    assert GameService(db_url).get(game.id).snapshot.moves == ("pass",)


@on_both_databases
def test_two_servers_on_one_database_cannot_both_store_a_move(db_url):
    one, two = GameService(db_url), GameService(db_url)
    game, _tokens = one.create(2, "standard", [{"kind": "human"}, {"kind": "human"}], seed=1)
    two.get(game.id)  # both have the game cached at move 0
    one.play(game.id, 0, "pass", 0)
    try:
        two.play(game.id, 0, "Scots Din Din +Cal:S", 0)
    except GameError as exc:
        assert exc.code == "stale"
    else:
        raise AssertionError("the second writer stored a move at a number already taken")
    assert two.get(game.id).snapshot.moves == ("pass",)  # reloaded from the database


def test_the_record_download_is_a_json_attachment(client):
    game = create(client, [human(), human()], seed=6)
    response = client.get(f"/api/games/{game['id']}/record")
    assert response.headers["content-disposition"].startswith("attachment")
    data = json.loads(response.text)
    assert data["format"] == "kingisdead-record" and data["moves"] == []
    assert data["seed"] is None  # the seed decides every hand: shown once the game is over
