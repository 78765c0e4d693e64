"""The lobby's listing is served from memory between changes (web/lobby.py), and a change the lobby
shows (a new game, a seat taken, a game over) is listed at once."""

from __future__ import annotations

from contextlib import contextmanager

import pytest
from sqlalchemy import event
from webtools import auth, bot, create, human


@contextmanager
def counting_queries(client):
    """A list that fills with every SQL statement the app runs inside the block."""
    engine = client.app.state.service.engine
    seen: list[str] = []

    def count(_conn, _cursor, statement, *_args):
        seen.append(statement)

    event.listen(engine, "before_cursor_execute", count)
    try:
        yield seen
    finally:
        event.remove(engine, "before_cursor_execute", count)


def listed(client, status: str | None = None) -> list[str]:
    params = {"status": status} if status else {}
    response = client.get("/api/games", params=params)
    assert response.status_code == 200
    return [game["id"] for game in response.json()["games"]]


@pytest.mark.parametrize("db_url", ["sqlite", "postgresql"], indirect=True)
def test_the_listing_is_built_once_for_many_lobbies_and_rebuilt_on_a_change(client):
    games = [create(client, [human(), {**human(), "public": True}], seed=n, claim=False)["id"] for n in range(5)]
    assert set(listed(client)) == set(games) and set(listed(client, "open")) == set(games)
    with counting_queries(client) as queries:
        for _ in range(20):
            assert set(listed(client)) == set(games)
    assert queries == []  # twenty lobbies, no query

    joined = client.post(f"/api/games/{games[0]}/join")  # a seat taken: no longer open, at once
    assert joined.status_code == 200, joined.text
    assert games[0] not in listed(client, "open")
    newer = create(client, [human(), bot("random")], seed=9)  # a new game: listed at once
    assert listed(client)[0] == newer["id"]


def test_a_move_does_not_drop_the_listing(client):
    game = create(client, [human(), human()], seed=4)
    assert listed(client) == [game["id"]]
    moved = client.post(f"/api/games/{game['id']}/moves", json={"move": "pass", "move_number": 0},
                        headers=auth(game["seats"][0]["token"]))
    assert moved.status_code == 200, moved.text
    with counting_queries(client) as queries:
        listed(client)
    assert not any("FROM games" in q for q in queries)  # a move only advances the listed move number


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
