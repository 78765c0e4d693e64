"""The WebSocket: live views per seat and for spectators, moves and errors over the socket."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from starlette.websockets import WebSocketDisconnect
from webtools import auth, bot, create, human, on_both_databases


def next_state(socket) -> dict:
    message = socket.receive_json()
    assert message["type"] == "state", message
    return message["game"]


@contextmanager
def seat_socket(client, game_id: str, token: str) -> Iterator:
    """A socket authenticated as a seat: the spectator's state comes first, then the seat's own after `auth`."""
    with client.websocket_connect(f"/api/games/{game_id}/ws") as socket:
        assert next_state(socket)["you"] is None
        socket.send_json({"type": "auth", "token": token})
        yield socket


@on_both_databases
def test_every_watcher_sees_a_move_with_only_its_own_hand(client):
    game = create(client, [human(), human()], seed=12)
    game_id = game["id"]
    tokens = [s["token"] for s in game["seats"]]
    with seat_socket(client, game_id, tokens[0]) as first, seat_socket(client, game_id, tokens[1]) as second, \
            client.websocket_connect(f"/api/games/{game_id}/ws") as spectator:
        views = [next_state(first), next_state(second), next_state(spectator)]
        assert [v["you"] for v in views] == [0, 1, None]
        assert views[2]["table"]["hand"] is None
        response = client.post(f"/api/games/{game_id}/moves", json={"move": "Scots Din Din +Cal:S", "move_number": 0},
                               headers=auth(tokens[0]))
        assert response.status_code == 200
        after = [next_state(first), next_state(second), next_state(spectator)]
    state = client.app.state.service.get(game_id).snapshot.state
    for seat, view in enumerate(after[:2]):
        assert view["move_number"] == 1 and view["log"][0]["notation"] == "Scots Din Din +Cal:S"
        assert view["table"]["hand"] == state.hands[seat * 7:seat * 7 + 7]
        assert "hands" not in view["table"]
    assert after[2]["table"]["hand"] is None and "hands" not in after[2]["table"]
    assert after[2]["table"]["cards_left"] == [7, 8]


def test_moves_and_options_over_the_socket(client):
    game = create(client, [human(), bot("random")], seed=13)
    game_id, token = game["id"], game["seats"][0]["token"]
    with seat_socket(client, game_id, token) as socket:
        assert next_state(socket)["move_number"] == 0
        socket.send_json({"type": "options", "steps": [{"kind": "pass"}]})
        options = socket.receive_json()
        assert options["type"] == "options" and options["complete"] and options["move"] == "pass"
        socket.send_json({"type": "move", "move": "pass", "move_number": 0})
        assert next_state(socket)["move_number"] == 1  # our pass
        assert next_state(socket)["move_number"] == 2  # the bot's answer, pushed without asking
        socket.send_json({"type": "ping"})
        assert socket.receive_json() == {"type": "pong"}


def test_errors_over_the_socket_change_nothing(client):
    game = create(client, [human(), human()], seed=14)
    game_id, tokens = game["id"], [s["token"] for s in game["seats"]]
    with seat_socket(client, game_id, tokens[1]) as socket:
        next_state(socket)
        for message, code in ((b"{oops", "invalid_request"),
                              ({"type": "dance"}, "invalid_request"),
                              ({"type": "move", "move": "pass", "move_number": 0}, "not_your_turn"),
                              ({"type": "move", "move": 7}, "invalid_request"),
                              ({"type": "options", "steps": [{"value": 1}]}, "invalid_request")):
            if isinstance(message, bytes):
                socket.send_text(message.decode())
            else:
                socket.send_json(message)
            reply = socket.receive_json()
            assert reply["type"] == "error" and reply["error"] == code, reply
    with client.websocket_connect(f"/api/games/{game_id}/ws") as spectator:
        next_state(spectator)
        spectator.send_json({"type": "move", "move": "pass", "move_number": 0})
        assert spectator.receive_json()["error"] == "no_token"
    with client.websocket_connect(f"/api/games/{game_id}/ws?token={tokens[0]}") as old_style:
        next_state(old_style)  # a token in the URL is ignored: it would end up in access logs
        old_style.send_json({"type": "move", "move": "pass", "move_number": 0})
        assert old_style.receive_json()["error"] == "no_token"
    assert client.get(f"/api/games/{game_id}").json()["move_number"] == 0


def test_a_wrong_token_is_refused_and_the_socket_stays_a_spectator(client):
    game = create(client, [human(), human()], seed=15)
    with seat_socket(client, game["id"], "forged") as socket:
        assert socket.receive_json()["error"] == "bad_token"
        socket.send_json({"type": "move", "move": "pass", "move_number": 0})
        assert socket.receive_json()["error"] == "no_token"
        socket.send_json({"type": "auth", "token": game["seats"][0]["token"]})
        assert next_state(socket)["you"] == 0
        socket.send_json({"type": "auth", "token": game["seats"][1]["token"]})
        assert socket.receive_json()["error"] == "authenticated"  # one seat per socket


def test_an_unknown_game_closes_the_socket(client):
    with client.websocket_connect("/api/games/missing/ws") as socket:
        assert socket.receive_json()["error"] == "unknown_game"
        with pytest.raises(WebSocketDisconnect) as closed:
            socket.receive_json()
        assert closed.value.code == 4404
