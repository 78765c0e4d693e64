"""The advanced game online (second edition, 3 secret Cunning cards a seat): its secrets are kept.

A whole game is played through the API, two seats driven by the test and two bots; every byte each of those
seats and a watcher receive over HTTP and over the WebSocket is searched for the names of the Cunning cards
they may not know (another seat's, the box's) until the game ends; then the finished game shows all. The
other paths that could reach past a seat's view (the record and a replay of a running game, hints, the
analysis, errors naming a card not held, hot-seat tokens) each have a test, as does the creation's validation.
"""

from __future__ import annotations

import json
import re
from random import Random
from typing import Any

import pytest
from webtools import auth, bot, create, human, wait_for

from kingisdead import engine
from kingisdead.board import CUNNING
from kingisdead.edition import ADVANCED_OPTIONS, CUNNING_CARDS
from kingisdead.moves import Move
from kingisdead.state import GameState

ADVANCED = {"edition": "second", "mode": "advanced"}
NAMES = {int(card): name for card, name in zip(CUNNING, CUNNING_CARDS, strict=True)}


def names_of(mask: int) -> set[str]:
    """The Cunning card names of a bit mask (bit ``i``: card ``7 + i``)."""
    return {name for i, name in enumerate(CUNNING_CARDS) if mask >> i & 1}


def hidden_from(state: GameState, seat: int | None) -> set[str]:
    """The Cunning cards ``seat`` (None: a watcher) may not know of: those not played, but for its own."""
    played = 0
    for mask in state.cunning_played:
        played |= mask
    own = state.cunning[seat] if seat is not None else 0
    return set(CUNNING_CARDS) - names_of(played) - names_of(own)


def shows_the_end(data: bytes) -> bool:
    """Whether ``data`` is a view (or a socket's state) of the game over, where every hand is shown."""
    try:
        found = json.loads(data)
    except ValueError:
        return False
    game = found.get("game", found) if isinstance(found, dict) else None
    return isinstance(game, dict) and game.get("status") == "finished"


def leaked(data: bytes, hidden: set[str]) -> list[str]:
    """The hidden names found in ``data`` (as whole words)."""
    return sorted(name for name in hidden if re.search(rb"\b" + name.encode() + rb"\b", data))


class Party:
    """One party at the table (a seat, or a watcher: ``seat`` None) and every byte it received."""

    def __init__(self, client: Any, game_id: str, seat: int | None, token: str | None) -> None:
        self.client, self.game_id, self.seat, self.token = client, game_id, seat, token
        self.received: list[tuple[str, bytes, set[str]]] = []  # (what, bytes, names hidden when received)
        self.socket: Any = None
        self.latest = -1  # the last move number the socket showed

    @property
    def headers(self) -> dict[str, str]:
        return auth(self.token) if self.token else {}

    def keep(self, what: str, data: bytes) -> None:
        """Keep what was received with the names hidden from this party then (none in a view of the game over)."""
        hidden = hidden_from(self.client.app.state.service.get(self.game_id).snapshot.state, self.seat)
        self.received.append((what, data, set() if shows_the_end(data) else hidden))

    def get(self, path: str) -> Any:
        response = self.client.get(path, headers=self.headers)
        self.keep(f"GET {path}", response.content)
        return response

    def post(self, path: str, body: dict[str, Any] | None = None) -> Any:
        response = self.client.post(path, json=body, headers=self.headers)
        self.keep(f"POST {path}", response.content)
        return response

    def view(self) -> dict[str, Any]:
        response = self.get(f"/api/games/{self.game_id}")
        assert response.status_code == 200, response.text
        return response.json()

    def receive(self) -> dict[str, Any]:
        text = self.socket.receive_text()
        self.keep("socket", text.encode())
        return json.loads(text)

    def receive_error(self) -> dict[str, Any]:
        """The next error message on the socket (the states before it are kept; the error, which names the
        card the seat itself sent, is checked by its caller)."""
        while True:
            text = self.socket.receive_text()
            message = json.loads(text)
            if message["type"] == "error":
                return message
            self.keep("socket", text.encode())
            if message["type"] == "state":
                self.latest = max(self.latest, message["game"]["move_number"])

    def catch_up(self, number: int) -> dict[str, Any] | None:
        """Read the socket up to a state of move ``number`` or later (the last state read, if any)."""
        last = None
        while self.latest < number:
            message = self.receive()
            if message["type"] == "state":
                last = message["game"]
                self.latest = last["move_number"]
        return last

    def leaks(self) -> list[tuple[str, list[str]]]:
        return [(what, found) for what, data, hidden in self.received if (found := leaked(data, hidden))]


def state_of(client: Any, game_id: str) -> GameState:
    """The server's full state (the test's privilege: it is never sent)."""
    return client.app.state.service.get(game_id).snapshot.state


def a_move(state: GameState, rng: Random) -> Move:
    """A legal move of the player to move, a Cunning card's more often than not where one can be played."""
    moves = engine.legal_moves(state)
    cunning = [m for m in moves if m.card is not None and m.card >= 7]
    return rng.choice(cunning if cunning and rng.random() < 0.6 else moves)


def open_socket(party: Party) -> None:
    party.socket = party.client.websocket_connect(f"/api/games/{party.game_id}/ws").__enter__()
    first = party.receive()
    assert first["type"] == "state" and first["game"]["you"] is None
    party.latest = first["game"]["move_number"]
    if party.token:
        party.socket.send_json({"type": "auth", "token": party.token})
        mine = party.receive()["game"]
        assert mine["you"] == party.seat
        party.latest = mine["move_number"]


def check_view(view: dict[str, Any], state: GameState, seat: int | None) -> None:
    """A running game's view as ``seat`` may see it: its own Cunning cards only, other hands as counts."""
    table = view["table"]
    assert view["mode"] == "advanced" and table["mode"] == "advanced"
    assert "hands" not in table and "cunning_hands" not in table
    assert table["cunning"] == (None if seat is None else sorted(c for c in NAMES if state.cunning[seat] >> (c - 7) & 1))
    assert table["cards_left"] == [state.cards_left(p) for p in range(state.players)]
    assert view["hints"] is False
    if table["struggle"] is not None:
        assert table["struggle"]["if_over"] is None  # the result would count the secret Plot
    if seat is None or seat != table["to_move"]:
        assert view["choices"] is None


def play_checking_views(client: Any, seed: int) -> tuple[str, list[Party], set[str]]:
    """A 4-player advanced game (Ann and Bob driven by the test, two bots) played to its end, every view checked
    on the way, with :func:`secret_paths` at the first move fit for it; returns the game's id, the parties (Ann,
    Bob, a watcher) and what was checked."""
    rng = Random(5)
    game = create(client, [human("Ann"), human("Bob"), bot("random"), bot("beginner")], seed=seed, **ADVANCED,
                  hints=True, options={"spy_spy": "allowed", "plot_coronation": "any_faction"})
    game_id = game["id"]
    assert game["game"]["mode"] == "advanced" and game["game"]["hints"] is False
    assert game["game"]["options"] == {"spy_spy": "allowed", "plot_coronation": "any_faction"}
    tokens = {s["seat"]: s["token"] for s in game["seats"] if s["kind"] == "human"}
    parties = [Party(client, game_id, 0, tokens[0]), Party(client, game_id, 1, tokens[1]),
               Party(client, game_id, None, None)]
    for party in parties:
        open_socket(party)
    checked: set[str] = set()
    try:
        while not (state := state_of(client, game_id)).is_over():
            number = len(client.app.state.service.get(game_id).snapshot.moves)
            for party in parties:
                view = party.view()
                if view["move_number"] == number == len(client.app.state.service.get(game_id).snapshot.moves):
                    check_view(view, state, party.seat)  # (unless a bot moved meanwhile)
                party.catch_up(number)
            state = state_of(client, game_id)
            p = state.player
            if state.is_over() or p not in tokens or state.cards_left(p) == 0:
                wait_for(lambda: len(client.app.state.service.get(game_id).snapshot.moves) > number
                         or state_of(client, game_id).is_over(), what="the server's move")
                continue
            mover, watcher = parties[p], parties[2]
            # the paths are checked once, at the first move of the test's where a Cunning card another seat holds
            # and one already played can both be named (the bots' moves race the test's, so which move that is
            # varies from run to run; waiting for a struggle as well let every card go in a loaded run)
            if "paths" not in checked and any(state.cunning_played) and len(unheld_cards(state, mover.seat)) >= 2:
                checked.add("paths")
                secret_paths(client, game_id, mover, watcher, state)
            move = a_move(state, rng)
            played = mover.post(f"/api/games/{game_id}/moves", {"move": state.notation(move), "move_number": number})
            assert played.status_code in (200, 409), played.text  # 409: a bot or the server moved first
        final = len(client.app.state.service.get(game_id).snapshot.moves)
        for party in parties:
            last = party.catch_up(final)
            assert last is not None or party.latest >= final
    finally:
        for party in parties:
            party.socket.__exit__(None, None, None)
    return game_id, parties, checked


def test_a_whole_advanced_game_keeps_every_secret_until_it_ends(client):
    # the bots' moves race the test's, so whether a move fit for the paths' check comes varies from run to run:
    # another deal is played until one does (nearly always the first)
    for seed in (31, 32, 33):
        game_id, parties, checked = play_checking_views(client, seed)
        if "paths" in checked:
            break
    assert "paths" in checked
    assert sum(len(party.received) for party in parties) > 100
    for party in parties:
        assert party.leaks() == [], party.seat
        assert any(what == "socket" for what, _data, _hidden in party.received)
    # every Cunning card held by a seat driven by the test was seen by its own seat
    state = state_of(client, game_id)
    assert any(m for m in state.cunning_played), "no Cunning card was played"
    finished(client, game_id, state, parties, seed)


def unheld_cards(state: GameState, seat: int) -> list[str]:
    """Cunning cards ``seat`` does not hold: one held by each other seat (Plot aside), and one played."""
    unheld = [sorted(names_of(state.cunning[p]) - {"Plot"})[0] for p in range(state.players)
              if p != seat and names_of(state.cunning[p]) - {"Plot"}]
    return unheld + sorted(names_of(sum(state.cunning_played)) - names_of(state.cunning[seat]))[:1]


def secret_paths(client: Any, game_id: str, mover: Party, watcher: Party, state: GameState) -> None:
    """The other ways into a running game, each kept to what its asker may see (its bytes are kept too)."""
    number = len(client.app.state.service.get(game_id).snapshot.moves)
    record = watcher.get(f"/api/games/{game_id}/record")
    assert record.status_code == 200 and record.json()["seed"] is None and record.json()["mode"] == "advanced"
    frame = watcher.get(f"/api/games/{game_id}/replay/{number}")
    assert frame.status_code == 200 and "hands" not in frame.json()["table"]
    assert "cunning_hands" not in frame.json()["table"] and frame.json()["table"]["cunning"] is None
    hint = mover.post(f"/api/games/{game_id}/hint")
    assert hint.status_code == 403 and hint.json()["error"] == "hints_off"
    analysis = watcher.get(f"/api/games/{game_id}/analysis")
    assert analysis.status_code == 409 and analysis.json()["error"] == "not_over"
    # the seat to move builds a move step by step: its choices are its own cards
    options = mover.post(f"/api/games/{game_id}/options", {"steps": []})
    assert options.status_code == 200
    offered = {c["value"] for c in options.json()["options"] if c["kind"] == "card"}
    own = {c for c in NAMES if state.cunning[mover.seat] >> (c - 7) & 1 and NAMES[c] != "Plot"}
    assert {c for c in offered if c >= 7} == own
    assert {c["card"] for c in mover.view()["choices"]["cunning"]} <= own
    # a Cunning card the mover does not hold: refused alike whichever seat holds it, or if it was played
    unheld = unheld_cards(state, mover.seat)
    shapes = []
    for name in unheld:
        card = next(c for c, n in NAMES.items() if n == name)
        refused = client.post(f"/api/games/{game_id}/moves", json={"move": name, "move_number": number},
                              headers=mover.headers)
        assert refused.status_code == 422, refused.text
        step = client.post(f"/api/games/{game_id}/options", json={"steps": [{"kind": "card", "value": card}]},
                           headers=mover.headers)
        assert step.status_code == 422, step.text
        mover.socket.send_json({"type": "move", "move": name, "move_number": number})
        answer = mover.receive_error()
        texts = [refused.json()["detail"], step.json()["detail"], answer["detail"]]
        for text in texts:
            assert not any(f"player {p + 1}" in text.lower() for p in range(state.players) if p != mover.seat)
            assert "box" not in text
        shapes.append([text.replace(name, "<card>") for text in texts])
    assert all(shape == shapes[0] for shape in shapes), shapes  # the same words whoever holds the card
    plot = client.post(f"/api/games/{game_id}/moves", json={"move": "Plot", "move_number": number},
                       headers=mover.headers)
    assert plot.status_code == 422 and "never played" in plot.json()["detail"]


def finished(client: Any, game_id: str, state: GameState, parties: list[Party], seed: int) -> None:
    """The game over (dealt from ``seed``): every hand and Plot revealed, the record and the replay show all."""
    holder = next(p for p in range(state.players) if state.cunning[p] >> 11 & 1)  # 4 players: all 12 are dealt
    for party in parties:
        view = party.view()
        table = view["table"]
        assert view["status"] == "finished"
        assert table["cunning_hands"] == [sorted(c for c in NAMES if mask >> (c - 7) & 1) for mask in state.cunning]
        assert 18 in table["cunning_hands"][holder]
        plot_steps = [s for s in table["explanation"]["steps"] if s["kind"] == "plot"]
        assert plot_steps and plot_steps[0]["values"] == {str(holder): 1}
        assert "reveals Plot" in plot_steps[0]["text"] and f"Player {holder + 1}" in plot_steps[0]["text"]
    record = client.get(f"/api/games/{game_id}/record").json()
    assert record["seed"] == seed and record["mode"] == "advanced" and record["result"] is not None
    total = len(record["moves"])
    frame = client.get(f"/api/games/{game_id}/replay/{total // 2}").json()
    assert "cunning_hands" in frame["table"] and "hands" in frame["table"]
    analysis = client.get(f"/api/games/{game_id}/analysis")
    assert analysis.status_code == 409 and analysis.json()["error"] == "advanced"
    again = client.post(f"/api/games/{game_id}/rematch", json={"rotate": False}, headers=parties[0].headers)
    assert again.status_code == 200, again.text
    rematch = again.json()["game"]
    assert rematch["mode"] == "advanced" and rematch["options"] == {"spy_spy": "allowed", "plot_coronation": "any_faction"}
    assert state_of(client, again.json()["id"]).edition == state.edition


def test_each_cunning_card_held_is_a_step_of_a_move_on_the_route_and_the_socket(client):
    """Cunning cards are numbered 7 to 18: the options route and the socket's options message take each one the
    seat to move holds as a move's first step (the steps' schema once stopped at 7 and refused the others)."""
    for seed in range(1, 60):  # a deal whose first player holds a Cunning card numbered above 7, offered now
        game = create(client, [human(), human()], seed=seed, **ADVANCED)
        state = state_of(client, game["id"])
        headers = auth(game["seats"][state.player]["token"])
        offered = client.post(f"/api/games/{game['id']}/options", json={"steps": []}, headers=headers).json()
        cards = [c["value"] for c in offered["options"] if c["kind"] == "card" and c["value"] in NAMES]
        if any(card > 7 for card in cards):
            break
    else:
        raise AssertionError("no deal of seeds 1 to 59 gives the first player a Cunning card above 7")
    for card in cards:
        taken = client.post(f"/api/games/{game['id']}/options", json={"steps": [{"kind": "card", "value": card}]},
                            headers=headers)
        assert taken.status_code == 200 and taken.json()["steps"][0]["value"] == card, taken.text
    with client.websocket_connect(f"/api/games/{game['id']}/ws") as socket:
        assert socket.receive_json()["type"] == "state"
        socket.send_json({"type": "auth", "token": game["seats"][state.player]["token"]})
        assert socket.receive_json()["type"] == "state"
        socket.send_json({"type": "options", "steps": [{"kind": "card", "value": max(cards)}]})
        answer = socket.receive_json()
        assert answer["type"] == "options" and answer["steps"][0]["value"] == max(cards), answer


def test_hot_seat_tokens_each_see_their_own_cards_only(client):
    game = create(client, [human(), human(), bot("random")], seed=4, hotseat=True, **ADVANCED)
    game_id = game["id"]
    state = state_of(client, game_id)
    seen = []
    for seat in (0, 1):
        response = client.get(f"/api/games/{game_id}", headers=auth(game["seats"][seat]["token"]))
        view = response.json()
        check_view(view, state, seat)
        assert leaked(response.content, hidden_from(state, seat)) == []
        seen.append(set(view["table"]["cunning"]))
    assert seen[0] and seen[1] and not seen[0] & seen[1]
    spectator = client.get(f"/api/games/{game_id}")
    check_view(spectator.json(), state, None)
    assert leaked(spectator.content, hidden_from(state, None)) == []


def test_an_advanced_game_survives_a_restart(client):
    game = create(client, [human(), bot("random"), bot("random")], seed=9, **ADVANCED,
                  options={"aid_tie": "none"})
    game_id, token = game["id"], game["seats"][0]["token"]
    state = state_of(client, game_id)
    move = a_move(state, Random(1))
    assert client.post(f"/api/games/{game_id}/moves", json={"move": state.notation(move), "move_number": 0},
                       headers=auth(token)).status_code == 200
    wait_for(lambda: state_of(client, game_id).player == 0 or state_of(client, game_id).is_over(),
             what="the bots' moves")
    before = state_of(client, game_id)
    service = client.app.state.service
    service.forget(game_id)
    after = service.get(game_id)
    assert after.mode == "advanced" and after.options == {"aid_tie": "none"}
    assert after.snapshot.state == before and after.snapshot.state.edition.advanced
    listed = next(g for g in client.get("/api/games").json()["games"] if g["id"] == game_id)
    assert listed["mode"] == "advanced"


def test_the_advanced_bots_play_their_seats_own_view(client):
    """The lobby's levels play the determinised search there; a bot move reaches only what the view allows."""
    from kingisdead.web.games import ADVANCED_LEVELS, bot_played

    assert all(spec.startswith("determinised") for spec in ADVANCED_LEVELS.values())
    assert bot_played("strong", "advanced") == "determinised:1s" and bot_played("strong", "standard") == "strong"
    meta = client.get("/api/meta?edition=second").json()
    assert meta["modes"] == ["standard", "advanced"] and meta["cunning_cards"] == list(CUNNING_CARDS)
    assert client.get("/api/meta").json()["cunning_cards"] == []
    assert set(meta["advanced_bots"]) == {"random", "uniform", "determinised", *ADVANCED_LEVELS}
    assert meta["advanced_options"] == {name: list(values) for name, values in ADVANCED_OPTIONS.items()}


def refused(client: Any, **body: Any) -> dict[str, Any]:
    seats = body.pop("seats", [human(), bot("random")])
    response = client.post("/api/games", json={"players": len(seats), "seats": seats, **body})
    assert response.status_code == 422, response.text
    return response.json()


@pytest.mark.parametrize("body", [
    {"mode": "advanced"},  # the first edition, by default
    {"edition": "first", "mode": "advanced"},
    {**ADVANCED, "options": {"spy_spy": "sometimes"}},
    {**ADVANCED, "options": {"spy_everything": "allowed"}},
    {"edition": "second", "options": {"spy_spy": "allowed"}},  # an advanced option in the standard game
    {**ADVANCED, "options": {"last_card": "must_win"}, "seats": [human(), bot(), bot()]},
    {**ADVANCED, "seats": [human(), bot("greedy")]},
    {**ADVANCED, "seats": [human(), bot("mcts")]},
    {**ADVANCED, "seats": [human(), bot("Master")]},
    {**ADVANCED, "stand_in": "paced-greedy"},
    {**ADVANCED, "mode": "expert"},
])
def test_the_creation_refuses_what_the_advanced_game_cannot_be(client, body):
    assert refused(client, **body)["error"] in ("invalid_request", "validation_error")
    assert client.get("/api/games").json()["games"] == []  # nothing was made


def test_an_unfit_bot_is_refused_by_name_and_a_rated_advanced_game_too(client):
    message = refused(client, **ADVANCED, seats=[human(), bot("greedy")])["detail"]
    assert "greedy" in message and "advanced game" in message and "determinised" in message
    assert refused(client, **ADVANCED, rated=True)["error"] in ("not_rateable", "validation_error")
    assert client.get("/api/games").json()["games"] == []


def test_the_schema_documents_the_mode(client):
    schema = client.get("/openapi.json").json()["components"]["schemas"]["CreateGame"]
    assert schema["properties"]["mode"]["enum"] == ["standard", "advanced"]
    assert "Cunning" in schema["properties"]["mode"]["description"]
    rules = json.dumps(schema["allOf"])
    assert '"mode": {"const": "advanced"}' in rules and "spy_spy" in rules
