"""Take-backs against bots: the exact position restored, and every refusal (resolution, rated, people, tokens)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import httpx
import pytest
from sqlalchemy import func, select, update
from webtools import auth, bot, create, human, wait_for

from kingisdead import GameState
from kingisdead.moves import format_move
from kingisdead.web import clocks
from kingisdead.web.db import GameRow, MoveRow
from kingisdead.web.errors import GameError
from kingisdead.web.service import GameService


def view(client, game_id: str, token: str | None = None) -> dict:
    response = client.get(f"/api/games/{game_id}", headers=auth(token) if token else None)
    assert response.status_code == 200, response.text
    return response.json()


def first_card_move(state: GameState) -> str:
    """A move that plays a card (a pass could end the struggle with the bot's pass)."""
    return next(format_move(m) for m in state.legal_moves() if format_move(m) != "pass")


def stored_moves(service: GameService, game_id: str) -> int:
    with service.sessions() as session:
        return session.scalar(select(func.count()).select_from(MoveRow).where(MoveRow.game_id == game_id))


def refusal(service: GameService, game_id: str, seat: int) -> tuple[int, str]:
    with pytest.raises(GameError) as refused:
        clocks.take_back(service, game_id, seat)
    return refused.value.status, refused.value.code


def test_a_takeback_restores_the_exact_position_and_tells_the_watchers(client):
    game = create(client, [human(), bot("greedy")], seed=11)
    game_id, token = game["id"], game["seats"][0]["token"]
    service = client.app.state.service
    positions = [view(client, game_id, token)]  # the seat's view before each of its moves
    for number in (0, 2):
        move = first_card_move(service.get(game_id).snapshot.state)
        assert client.post(f"/api/games/{game_id}/moves", json={"move": move, "move_number": number},
                           headers=auth(token)).status_code == 200
        positions.append(wait_for(lambda n=number: (v := view(client, game_id, token))["move_number"] == n + 2 and v,
                                  what="the bot's reply"))
    assert not any(entry["resolved"] for entry in positions[-1]["log"])
    assert positions[-1]["takeback"] is True
    with client.websocket_connect(f"/api/games/{game_id}/ws") as watcher:
        assert watcher.receive_json()["game"]["move_number"] == 4
        undone = client.post(f"/api/games/{game_id}/takeback", headers=auth(token))
        assert undone.status_code == 200
        assert undone.json() == positions[1]  # table, hand, log and all: as before the second move
        assert watcher.receive_json()["game"]["move_number"] == 2
    assert stored_moves(service, game_id) == 2
    service.forget(game_id)  # what the database holds replays to the same position
    assert view(client, game_id, token) == positions[1]
    again = client.post(f"/api/games/{game_id}/takeback", headers=auth(token))
    assert again.status_code == 200 and again.json() == positions[0]
    assert again.json()["takeback"] is False
    nothing = client.post(f"/api/games/{game_id}/takeback", headers=auth(token))
    assert nothing.status_code == 409 and nothing.json()["error"] == "nothing_to_take_back"
    # play goes on from the rewound position
    move = first_card_move(service.get(game_id).snapshot.state)
    assert client.post(f"/api/games/{game_id}/moves", json={"move": move, "move_number": 0},
                       headers=auth(token)).status_code == 200
    wait_for(lambda: view(client, game_id)["move_number"] == 2, what="the bot's reply after the take-back")


def test_no_takeback_once_a_struggle_is_resolved(tmp_path):
    """The bots' moves are played by hand here (no runner), to reach a resolution on purpose."""
    service = GameService(f"sqlite:///{tmp_path / 'resolved.sqlite3'}")
    game, _ = service.create(2, "standard", [human(), bot("greedy")], seed=2)
    service.play(game.id, 0, "pass", 0)
    service.play(game.id, 1, "pass", 1)  # the bot's pass ends the first struggle
    assert service.get(game.id).snapshot.state.resolved == 1
    assert refusal(service, game.id, 0) == (409, "struggle_resolved")
    # a new move after the resolution can be taken back, back to the resolution and no further
    service.play(game.id, 0, first_card_move(service.get(game.id).snapshot.state), 2)
    service.play(game.id, 1, first_card_move(service.get(game.id).snapshot.state), 3)
    clocks.take_back(service, game.id, 0)
    assert len(service.get(game.id).snapshot.moves) == 2 and stored_moves(service, game.id) == 2
    assert refusal(service, game.id, 0) == (409, "struggle_resolved")
    # the asker's own move that resolves a struggle cannot be taken back either
    own, _ = service.create(2, "standard", [human(), bot("greedy")], seed=2, first_player=1)
    service.play(own.id, 1, "pass", 0)
    service.play(own.id, 0, "pass", 1)
    assert refusal(service, own.id, 0) == (409, "struggle_resolved")
    assert len(service.get(own.id).snapshot.moves) == 2
    service.close()


def test_no_takeback_in_rated_games_with_people_or_when_over(tmp_path):
    service = GameService(f"sqlite:///{tmp_path / 'refused.sqlite3'}")
    rated, _ = service.create(2, "standard", [human(), bot("greedy")], seed=3)
    service.play(rated.id, 0, first_card_move(service.get(rated.id).snapshot.state), 0)
    with service.engine.begin() as connection:
        connection.execute(update(GameRow).where(GameRow.id == rated.id).values(rated=True))
    service.forget(rated.id)
    assert refusal(service, rated.id, 0) == (403, "rated")
    for seats in ([human(), human()], [human(), bot("greedy"), human()]):
        people, _ = service.create(len(seats), "standard", seats, seed=3)
        service.play(people.id, 0, first_card_move(service.get(people.id).snapshot.state), 0)
        assert refusal(service, people.id, 0) == (403, "not_against_bots")
        assert len(service.get(people.id).snapshot.moves) == 1
    away, _ = service.create(2, "standard", [human(), bot("greedy")], seed=3)
    service.play(away.id, 0, first_card_move(service.get(away.id).snapshot.state), 0)
    clocks.leave(service, away.id, 0)
    assert refusal(service, away.id, 0) == (409, "over" if service.get(away.id).snapshot.state.is_over() else "left")
    service.close()


def test_a_bot_reply_chosen_before_a_takeback_is_dropped(tmp_path):
    service = GameService(f"sqlite:///{tmp_path / 'inflight.sqlite3'}")
    game, _ = service.create(2, "standard", [human(), bot("greedy")], seed=4)
    first = first_card_move(service.get(game.id).snapshot.state)
    service.play(game.id, 0, first, 0)
    turn = service.bot_turn(game.id)
    assert turn is not None
    job, seat, position = turn
    reply = first_card_move(position)
    clocks.take_back(service, game.id, 0)
    with pytest.raises(GameError) as dropped:
        service.play(game.id, seat, reply, job.move_number, position)
    assert dropped.value.code == "stale"
    # another first move: the bot is to move at the same move number, in another position
    other = next(format_move(m) for m in service.get(game.id).snapshot.state.legal_moves()
                 if format_move(m) not in ("pass", first))
    service.play(game.id, 0, other, 0)
    with pytest.raises(GameError) as dropped:
        service.play(game.id, seat, reply, job.move_number, position)
    assert dropped.value.code == "stale"
    assert service.get(game.id).snapshot.moves == (other,)
    service.close()


def test_another_process_sees_the_rewound_game(tmp_path):
    url = f"sqlite:///{tmp_path / 'two.sqlite3'}"
    here, there = GameService(url), GameService(url)
    game, _ = here.create(2, "standard", [human(), bot("greedy")], seed=5)
    here.play(game.id, 0, first_card_move(here.get(game.id).snapshot.state), 0)
    here.play(game.id, 1, first_card_move(here.get(game.id).snapshot.state), 1)
    assert len(there.get(game.id).snapshot.moves) == 2
    clocks.take_back(here, game.id, 0)
    assert there.catch_up(game.id)  # as on a notice, or before answering "stale"
    assert there.get(game.id).snapshot.state == here.get(game.id).snapshot.state == GameState.new(2, "standard", 5)
    here.close()
    there.close()


def test_takeback_needs_a_seat_of_the_game(client):
    game = create(client, [human(), bot("greedy")], seed=6)
    other = create(client, [human(), bot("greedy")], seed=6)
    assert client.post(f"/api/games/{game['id']}/takeback").json()["error"] == "no_token"
    foreign = client.post(f"/api/games/{game['id']}/takeback", headers=auth(other["seats"][0]["token"]))
    assert foreign.status_code == 403 and foreign.json()["error"] == "bad_token"
    unmoved = client.post(f"/api/games/{game['id']}/takeback", headers=auth(game["seats"][0]["token"]))
    assert unmoved.status_code == 409 and unmoved.json()["error"] == "nothing_to_take_back"


def test_two_processes_on_postgresql_see_take_backs_leaving_and_expiries(server_factory, postgres_url):
    """Two real servers on one PostgreSQL database: changes made through A reach B's watchers by the database's
    notices, and a deadline passed is handled by exactly one of them."""
    import json

    from sqlalchemy import create_engine
    from websockets.sync.client import connect

    from kingisdead.web.db import normalise_url

    def until(socket, predicate) -> dict:
        while True:
            message = json.loads(socket.recv(timeout=30))
            if message["type"] == "state" and predicate(message["game"]):
                return message["game"]

    # the bots wait 0.5 s a move: else the stand-in and the bot may play the game to its end before the seat
    # is taken back, and leaving then finds it over (409)
    a, b = server_factory(0.5, database=postgres_url), server_factory(0.5, database=postgres_url)
    with httpx.Client(base_url=a.url, timeout=30) as on_a, httpx.Client(base_url=b.url, timeout=30) as on_b:
        game = create(on_a, [human(), bot("greedy")], seed=12, time_limit=600, stand_in="random")
        token = game["seats"][0]["token"]
        card = first_card_move(GameState.new(2, "standard", 12))
        with connect(f"ws://127.0.0.1:{b.port}/api/games/{game['id']}/ws") as watcher:
            until(watcher, lambda g: g["move_number"] == 0)
            assert on_a.post(f"/api/games/{game['id']}/moves", json={"move": card, "move_number": 0},
                             headers=auth(token)).status_code == 200
            until(watcher, lambda g: g["move_number"] == 2)
            assert on_a.post(f"/api/games/{game['id']}/takeback", headers=auth(token)).status_code == 200
            rewound = until(watcher, lambda g: g["move_number"] < 2)
            assert rewound["move_number"] == 0 and rewound["log"] == [] and rewound["deadline"] is not None
            assert on_b.get(f"/api/games/{game['id']}").json()["move_number"] == 0  # B's watcher saw B's copy
            # the deadline passes: one of the two processes hands the turn to the stand-in, B's watcher sees it
            engine = create_engine(normalise_url(postgres_url))
            with engine.begin() as connection:
                connection.execute(update(GameRow).where(GameRow.id == game["id"])
                                   .values(deadline=datetime.now(UTC) - timedelta(seconds=1)))
            engine.dispose()
            until(watcher, lambda g: g["seats"][0]["away"])
            until(watcher, lambda g: g["move_number"] >= 1)
            assert on_b.post(f"/api/games/{game['id']}/return", headers=auth(token)).status_code == 200
            until(watcher, lambda g: not g["seats"][0]["away"])
            wait_for(lambda: on_a.get(f"/api/games/{game['id']}").json()["seats"][0]["away"] is False,
                     what="A to reload the seat on B's notice")
            left = on_b.post(f"/api/games/{game['id']}/leave", headers=auth(token))
            assert left.status_code == 200, left.text
            at_leaving = until(watcher, lambda g: g["seats"][0]["left"])["move_number"]
            # the stand-in plays the seat left from then on (a whole game at 0.5 s a move would take 25 s more)
            until(watcher, lambda g: any(entry["seat"] == 0 for entry in g["log"][at_leaving:]))
    for server in (a, b):  # before the fixture drops their database (they would log its absence until stopped)
        server.stop()
