"""Several server processes on one database: every process is correct (never wrongly "stale") and live
(its watchers see the other processes' moves)."""

from __future__ import annotations

import json
from random import Random
from typing import Any

import httpx
from webtools import auth, bot, create, human, on_both_databases, wait_for

from kingisdead import playout
from kingisdead.moves import format_move
from kingisdead.state import GameState
from kingisdead.web.service import GameService


@on_both_databases
def test_a_process_that_is_behind_reloads_instead_of_answering_stale(db_url: str) -> None:
    one, two = GameService(db_url), GameService(db_url)
    try:
        game, _tokens = one.create(2, "standard", [human(), human()], seed=4, hotseat=True)
        two.get(game.id)  # cached at move 0
        local = GameState.new(2, "standard", 4)
        rng = Random(2)
        for number in range(6):  # the processes take turns: each is one move behind when its turn comes
            service = (one, two)[number % 2]
            seat = local.player
            service.play(game.id, seat, format_move(playout.play_random(local, rng)), number)
        assert len(one.get(game.id).snapshot.moves) == 5  # two played the last move
        assert one.catch_up(game.id) is True
        assert two.catch_up(game.id) is False  # up to date already: nothing reloaded
        assert one.get(game.id).snapshot.state.key() == two.get(game.id).snapshot.state.key() == local.key()
    finally:
        one.close()
        two.close()


def next_state(socket: Any, number: int) -> dict[str, Any]:
    """The first state message at move ``number`` or later (earlier ones may still be on their way)."""
    while True:
        message = json.loads(socket.recv(timeout=30))
        if message["type"] == "state" and message["game"]["move_number"] >= number:
            return message["game"]


def test_two_processes_on_one_postgresql_database(server_factory: Any, postgres_url: str) -> None:
    from websockets.sync.client import connect

    a, b = server_factory(database=postgres_url), server_factory(database=postgres_url)
    with httpx.Client(base_url=a.url, timeout=30) as on_a, httpx.Client(base_url=b.url, timeout=30) as on_b:
        # A game made on A, played on both in turn; a spectator on B sees every move, A's included.
        game = create(on_a, [human(), human()], seed=5)
        tokens = [seat["token"] for seat in game["seats"]]
        local = GameState.new(2, "standard", 5)
        rng = Random(3)
        with connect(f"ws://127.0.0.1:{b.port}/api/games/{game['id']}/ws") as spectator:
            assert next_state(spectator, 0)["move_number"] == 0
            for number in range(8):
                client = (on_a, on_b)[number % 2]
                seat = local.player
                move = format_move(playout.play_random(local, rng))
                response = client.post(f"/api/games/{game['id']}/moves", headers=auth(tokens[seat]),
                                       json={"move": move, "move_number": number})
                assert response.status_code == 200, response.text
                seen = next_state(spectator, number + 1)
                assert seen["move_number"] == number + 1
                assert seen["log"][-1]["notation"] == move

        # Against a bot: a person plays on B, the bot answers, and A shows the bot's reply.
        against = create(on_a, [human(), bot("random")], seed=6)
        view = on_b.get(f"/api/games/{against['id']}", headers=auth(against["seats"][0]["token"])).json()
        local = GameState.new(2, "standard", 6)
        move = format_move(playout.play_random(local, Random(4)))
        response = on_b.post(f"/api/games/{against['id']}/moves", headers=auth(against["seats"][0]["token"]),
                             json={"move": move, "move_number": view["move_number"]})
        assert response.status_code == 200, response.text
        wait_for(lambda: on_a.get(f"/api/games/{against['id']}").json()["move_number"] >= 2 or
                 on_a.get(f"/api/games/{against['id']}").json()["status"] == "finished", what="the bot's reply on A")
