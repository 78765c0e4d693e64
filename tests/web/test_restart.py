"""A real server process on loopback: restarts lose nothing, bots resume, racing moves are serialised."""

from __future__ import annotations

import threading

import httpx
from webtools import auth, bot, create, human, wait_for

from kingisdead.record import GameRecord


def record_of(http: httpx.Client, game_id: str) -> GameRecord:
    """The game's record; a running game's has no seed (it is public once the game is over), so 0 stands in."""
    data = http.get(f"/api/games/{game_id}/record").json()
    return GameRecord.from_dict({**data, "seed": 0 if data["seed"] is None else data["seed"]})


def test_a_killed_server_restarts_with_every_game_and_resumes_the_bots(server_factory, tmp_path):
    database = tmp_path / "restart.sqlite3"
    server = server_factory(bot_delay=0.15, database=database)
    with httpx.Client(base_url=server.url, timeout=30) as http:
        duel = create(http, [human(), bot("random")], seed=31)
        token = duel["seats"][0]["token"]
        for number in (0, 2):  # two human moves, each answered by the bot
            wait_for(lambda n=number: http.get(f"/api/games/{duel['id']}").json()["move_number"] == n, what="bot")
            assert http.post(f"/api/games/{duel['id']}/moves", json={"move": "pass", "move_number": number},
                             headers=auth(token)).status_code == 200
        wait_for(lambda: http.get(f"/api/games/{duel['id']}").json()["move_number"] == 4, what="the bot's reply")
        before = http.get(f"/api/games/{duel['id']}", headers=auth(token)).json()
        bots = create(http, [bot("random"), bot("random")], seed=32)
        wait_for(lambda: http.get(f"/api/games/{bots['id']}").json()["move_number"] >= 3, what="bots under way")
        started = record_of(http, bots["id"])
    server.kill()  # mid-game, with a bot turn pending

    server = server_factory(bot_delay=0.0, database=database)
    with httpx.Client(base_url=server.url, timeout=30) as http:
        after = http.get(f"/api/games/{duel['id']}", headers=auth(token)).json()
        assert after == before  # the same table, log and hand, and still this seat's token
        finished = wait_for(lambda: (v := http.get(f"/api/games/{bots['id']}").json())["status"] == "finished" and v,
                            what="the bots to finish after the restart")
        record = record_of(http, bots["id"])
        assert record.moves[:len(started.moves)] == started.moves
        assert record.replay().result.to_dict() == finished["table"]["result"] == record.result
        response = http.post(f"/api/games/{duel['id']}/moves", json={"move": "pass", "move_number": 4},
                             headers=auth(token))
        assert response.status_code == 200


def test_racing_moves_through_the_server_store_exactly_one(server_factory):
    server = server_factory()
    with httpx.Client(base_url=server.url, timeout=30) as http:
        game = create(http, [human(), human()], seed=33)
    statuses: list[int] = []
    barrier = threading.Barrier(6)

    def attempt(move: str) -> None:
        with httpx.Client(base_url=server.url, timeout=30) as http:
            barrier.wait()
            response = http.post(f"/api/games/{game['id']}/moves", json={"move": move, "move_number": 0},
                                 headers=auth(game["seats"][0]["token"]))
            statuses.append(response.status_code)

    moves = ["pass", "Scots Din Din +Cal:S", "pass", "Welsh Dev Dev +Cae:W", "pass", "pass"]
    threads = [threading.Thread(target=attempt, args=(m,)) for m in moves]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(statuses) == [200] + [409] * 5
    with httpx.Client(base_url=server.url, timeout=30) as http:
        assert len(record_of(http, game["id"]).moves) == 1
