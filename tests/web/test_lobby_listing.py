"""The lobby's listing is served from memory between changes (web/lobby.py), and a change the lobby
shows (a new game, a seat taken, a game over) is listed at once."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from webtools import auth, bot, create, human, on_both_databases

from kingisdead.web.lobby import LOBBY_TTL


@pytest.fixture
def builds(client) -> Iterator[list[str | None]]:
    """A list that gets the status asked for each time the app builds the lobby's listing from the database.

    The listing's time to live is raised meanwhile: a loaded machine can take longer than LOBBY_TTL for twenty
    lobbies, and what is tested here is that a change, not the clock, drops the listing. (Counting SQL statements
    counted the background jobs' too: the move deadlines' query ran during the twenty lobbies once.)"""
    store = client.app.state.service.store
    seen: list[str | None] = []
    build = store._list_games

    def counted(status: str | None, limit: int) -> list[dict[str, Any]]:
        seen.append(status)
        return build(status, limit)

    store._list_games, store.lobby.ttl = counted, 3600.0
    try:
        yield seen
    finally:
        del store._list_games
        store.lobby.ttl = LOBBY_TTL


def listed(client, status: str | None = None) -> list[str]:
    params = {"status": status} if status else {}
    response = client.get("/api/games", params=params)
    assert response.status_code == 200
    return [game["id"] for game in response.json()["games"]]


@on_both_databases
def test_the_listing_is_built_once_for_many_lobbies_and_rebuilt_on_a_change(client, builds):
    games = [create(client, [human(), {**human(), "public": True}], seed=n, claim=False)["id"] for n in range(5)]
    assert set(listed(client)) == set(games) and set(listed(client, "open")) == set(games)
    assert builds == [None, "open"]
    for _ in range(20):
        assert set(listed(client)) == set(games)
    assert builds == [None, "open"]  # twenty lobbies, built once

    joined = client.post(f"/api/games/{games[0]}/join")  # a seat taken: no longer open, at once
    assert joined.status_code == 200, joined.text
    assert games[0] not in listed(client, "open")
    newer = create(client, [human(), bot("random")], seed=9)  # a new game: listed at once
    assert listed(client)[0] == newer["id"]
    assert builds == [None, "open", "open", None]


def test_a_move_does_not_drop_the_listing(client, builds):
    game = create(client, [human(), human()], seed=4)
    assert listed(client) == [game["id"]]
    assert builds == [None]
    moved = client.post(f"/api/games/{game['id']}/moves", json={"move": "pass", "move_number": 0},
                        headers=auth(game["seats"][0]["token"]))
    assert moved.status_code == 200, moved.text
    assert listed(client) == [game["id"]]
    assert builds == [None]  # a move only advances the listed move number


@pytest.mark.parametrize("dialect", ["sqlite", "postgresql"])
def test_a_game_over_drops_the_listing_and_a_move_does_not(dialect):
    from sqlalchemy import update
    from sqlalchemy.dialects import postgresql, sqlite

    from kingisdead.web.db import GameRow
    from kingisdead.web.lobby import _CHANGES_LOBBY

    compiler = {"sqlite": sqlite.dialect(), "postgresql": postgresql.dialect()}[dialect]

    def sql(statement) -> str:
        return str(statement.compile(dialect=compiler))

    where = GameRow.id == "g1"
    finished = update(GameRow).where(where).values(move_count=30, to_move=None, status="finished", result={})
    moved = update(GameRow).where(where, GameRow.status == "running").values(move_count=3, to_move=1)
    assert _CHANGES_LOBBY.match(sql(finished))
    assert not _CHANGES_LOBBY.match(sql(moved))  # "status" only in its WHERE clause


def test_a_connection_lost_in_a_transaction_closes_without_an_error_and_keeps_the_listing():
    """A database stopped mid-query invalidates the connection; closing it rolls back, and the listing's rollback
    listener must not read the lost connection's info (that raised PendingRollbackError, which the move clocks
    logged as a failure with its traceback instead of waiting the outage out)."""
    from sqlalchemy import create_engine, text

    from kingisdead.web.lobby import LobbyCache

    engine = create_engine("sqlite://")
    cache = LobbyCache(engine)
    built = []
    cache.get("open", lambda: built.append(1) or [])
    connection = engine.connect()
    connection.begin()
    connection.execute(text("CREATE TABLE games (status TEXT)"))
    connection.execute(text("UPDATE games SET status = 'finished'"))  # a lobby change, never committed
    connection.invalidate()
    connection.close()
    cache.get("open", lambda: built.append(1) or [])
    assert built == [1]
