"""``create_app("sqlite://")``: an in-memory database, one connection that every thread takes in turn."""

from __future__ import annotations

import threading
import warnings

from webtools import auth, bot, create, human, wait_for

from kingisdead.web import create_app
from kingisdead.web.errors import GameError
from kingisdead.web.service import GameService


def test_a_server_on_an_in_memory_database_creates_and_plays_games():
    with warnings.catch_warnings():  # Starlette asks for httpx2, which FastAPI's pinned stack does not need yet
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient

    with TestClient(create_app("sqlite://")) as client:
        game = create(client, [human("Ada"), bot("random")], seed=9)
        game_id, token = game["id"], game["seats"][0]["token"]
        played = client.post(f"/api/games/{game_id}/moves", json={"move": "pass", "move_number": 0},
                             headers=auth(token))
        assert played.status_code == 200, played.text
        # the bot answers from a worker thread: its move is stored in the same database
        wait_for(lambda: client.get(f"/api/games/{game_id}").json()["move_number"] >= 2, what="the bot's reply")
        client.app.state.service.forget(game_id)  # read back from the database, not from memory
        view = client.get(f"/api/games/{game_id}", headers=auth(token)).json()
        assert view["log"][0]["notation"] == "pass" and view["seats"][0]["name"] == "Ada"
        assert [g["id"] for g in client.get("/api/games").json()["games"]] == [game_id]


def test_threads_sharing_an_in_memory_database_take_turns():
    service = GameService("sqlite://")
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
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["ok"] + ["stale"] * 7
    service.forget(game.id)
    assert service.get(game.id).snapshot.moves == ("pass",)
    service.close()
