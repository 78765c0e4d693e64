"""Migrations: a database made before them (or by an older release) upgrades without losing a game."""

from __future__ import annotations

import multiprocessing
from datetime import UTC, datetime
from pathlib import Path
from random import Random

import pytest
import sqlalchemy as sa

from kingisdead import playout
from kingisdead.moves import format_move
from kingisdead.state import GameState
from kingisdead.web.db import MIGRATIONS, make_engine, upgrade
from kingisdead.web.service import GameService

# The tables exactly as the first web release made them with create_all (before migrations existed).
OLD = sa.MetaData()
sa.Table("games", OLD,
         sa.Column("id", sa.String(32), primary_key=True),
         sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
         sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
         sa.Column("players", sa.Integer, nullable=False),
         sa.Column("variant", sa.String(16), nullable=False),
         sa.Column("seed", sa.BigInteger, nullable=False),
         sa.Column("first_player", sa.Integer, nullable=False),
         sa.Column("hints", sa.Boolean, nullable=False),
         sa.Column("hotseat", sa.Boolean, nullable=False),
         sa.Column("status", sa.String(16), nullable=False, index=True),
         sa.Column("move_count", sa.Integer, nullable=False),
         sa.Column("result", sa.JSON, nullable=True))
sa.Table("seats", OLD,
         sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
         sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), nullable=False, index=True),
         sa.Column("seat", sa.Integer, nullable=False),
         sa.Column("kind", sa.String(8), nullable=False),
         sa.Column("bot", sa.String(32), nullable=True),
         sa.Column("name", sa.String(40), nullable=False),
         sa.Column("token_hash", sa.String(64), nullable=True, index=True),
         sa.Column("claimed", sa.Boolean, nullable=False),
         sa.UniqueConstraint("game_id", "seat"))
sa.Table("moves", OLD,
         sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
         sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), nullable=False, index=True),
         sa.Column("number", sa.Integer, nullable=False),
         sa.Column("seat", sa.Integer, nullable=False),
         sa.Column("notation", sa.String(80), nullable=False),
         sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
         sa.UniqueConstraint("game_id", "number"))


def _head() -> str:
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    head = ScriptDirectory.from_config(config).get_current_head()
    assert head is not None
    return head


HEAD = _head()


def old_database(url: str, games: int = 12) -> dict[str, tuple[GameState, int]]:
    """Fill an old-schema database with games (some finished); (final state, moves) by game id."""
    engine = sa.create_engine(url)
    OLD.create_all(engine)
    rng = Random(7)
    states: dict[str, tuple[GameState, int]] = {}
    now = datetime.now(UTC)
    with engine.begin() as connection:
        for number in range(games):
            players = 2 + number % 3
            game_id = f"old{number}"
            state = GameState.new(players, "standard", 100 + number, number % players)
            moves = []
            for _ in range((1000, 0, 3, 10)[number % 4]):  # 1000: played to the end
                if state.is_over():
                    break
                seat = state.player
                moves.append((seat, format_move(playout.play_random(state, rng))))
            result = state.result
            connection.execute(OLD.tables["games"].insert().values(
                id=game_id, created_at=now, updated_at=now, players=players, variant="standard",
                seed=100 + number, first_player=number % players, hints=False, hotseat=False,
                status="finished" if result else "running", move_count=len(moves),
                result=result.to_dict() if result else None))
            for seat in range(players):
                connection.execute(OLD.tables["seats"].insert().values(
                    game_id=game_id, seat=seat, kind="human" if seat == 0 else "bot",
                    bot=None if seat == 0 else "random", name=f"P{seat}", token_hash=f"{number:02d}{seat}" * 8,
                    claimed=True))
            for index, (seat, text) in enumerate(moves, start=1):
                connection.execute(OLD.tables["moves"].insert().values(
                    game_id=game_id, number=index, seat=seat, notation=text, created_at=now))
            states[game_id] = state, len(moves)
    engine.dispose()
    assert any(s.is_over() for s, _ in states.values()) and any(not s.is_over() for s, _ in states.values())
    return states


def check_upgraded(url: str, states: dict[str, tuple[GameState, int]]) -> None:
    service = GameService(url)
    try:
        for game_id, (state, moves) in states.items():
            game = service.get(game_id)
            assert game.snapshot.state.key() == state.key()
            assert len(game.snapshot.moves) == moves
        with service.engine.connect() as connection:
            rows = connection.execute(sa.text("SELECT id, to_move, bot_seed, memory, edition FROM games")).all()
            seats = connection.execute(sa.text("SELECT public FROM seats")).scalars().all()
            version = connection.execute(sa.text("SELECT version_num FROM alembic_version")).scalar_one()
        assert {row.id for row in rows} == set(states)
        for row in rows:
            state = states[row.id][0]
            assert row.to_move == (None if state.is_over() else state.player)
            assert row.bot_seed is not None and 0 <= row.bot_seed < 2**63
            assert not row.memory
            assert row.edition == "first"  # every game stored before editions is a first-edition game
        assert len({row.bot_seed for row in rows}) == len(rows)  # a secret of its own per game
        assert seats and not any(seats)
        assert version == HEAD
    finally:
        service.close()


def test_old_sqlite_database_upgrades_without_losing_a_game(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'old.sqlite3'}"
    states = old_database(url)
    check_upgraded(url, states)
    check_upgraded(url, states)  # a second start finds it up to date and changes nothing


def test_database_of_the_previous_release_upgrades(tmp_path: Path) -> None:
    """A database as release 0002 left it (before accounts, ratings and clocks) keeps every game."""
    url = f"sqlite:///{tmp_path / 'previous.sqlite3'}"
    states = old_database(url)
    engine = sa.create_engine(url)
    upgrade(engine, "0002")
    engine.dispose()
    check_upgraded(url, states)
    engine = sa.create_engine(url)
    with engine.connect() as connection:
        games = connection.execute(sa.text("SELECT rated, ratings_applied, time_limit, deadline, stand_in, rematch "
                                           "FROM games")).all()
        seats = connection.execute(sa.text('SELECT user_id, away, "left" FROM seats')).all()
    engine.dispose()
    assert len(games) == len(states)
    assert all(tuple(row) == (False, False, None, None, "intermediate", None) for row in games)
    assert seats and all(tuple(row) == (None, False, False) for row in seats)


def test_new_games_keep_to_move_up_to_date(tmp_path: Path) -> None:
    service = GameService(f"sqlite:///{tmp_path / 'new.sqlite3'}")
    try:
        game, tokens = service.create(2, "standard", [{"kind": "human"}, {"kind": "human"}], seed=3,
                                      first_player=1, hotseat=True)

        def stored() -> tuple[int | None, int]:
            with service.engine.connect() as connection:
                row = connection.execute(sa.text("SELECT to_move, bot_seed FROM games WHERE id = :id"),
                                         {"id": game.id}).one()
            return row.to_move, row.bot_seed

        assert stored()[0] == 1
        rng = Random(1)
        while not game.snapshot.state.is_over():
            state = game.snapshot.state.copy()
            seat = state.player
            service.play(game.id, seat, format_move(playout.play_random(state, rng)))
            assert stored()[0] == (None if game.snapshot.state.is_over() else game.snapshot.state.player)
        assert stored()[1] == game.bot_seed
    finally:
        service.close()


def _start(url: str) -> None:
    make_engine(url).dispose()


def test_processes_starting_at_once_upgrade_once(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'race.sqlite3'}"
    states = old_database(url, games=4)
    context = multiprocessing.get_context("spawn")
    workers = [context.Process(target=_start, args=(url,)) for _ in range(3)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(120)
    assert [w.exitcode for w in workers] == [0, 0, 0]
    check_upgraded(url, states)


@pytest.mark.parametrize("url", ["sqlite://"])
def test_in_memory_database_gets_the_schema(url: str) -> None:
    engine = make_engine(url)
    assert {"games", "seats", "moves", "alembic_version"} <= set(sa.inspect(engine).get_table_names())


def test_the_models_match_the_migrations(tmp_path: Path) -> None:
    """A model changed without a migration fails here: add a revision (docs/web.md, "Migrations")."""
    from alembic import command
    from alembic.config import Config

    engine = make_engine(f"sqlite:///{tmp_path / 'check.sqlite3'}")
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.connect() as connection:
        config.attributes["connection"] = connection
        command.check(config)  # raises AutogenerateDiffsDetected listing the differences


@pytest.mark.parametrize("database", ["sqlite", "postgresql"])
def test_games_and_ratings_of_the_release_before_editions_are_first_edition(database, request, tmp_path: Path) -> None:
    """A database as release 0004 left it: its games and ratings become the first edition's, and an account may
    then hold a second-edition rating beside its first-edition one at the same player count."""
    url = request.getfixturevalue("postgres_url") if database == "postgresql" else f"sqlite:///{tmp_path / 'r.sqlite3'}"
    engine = sa.create_engine(url.replace("postgresql://", "postgresql+psycopg://"))
    upgrade(engine, "0004")
    now = datetime.now(UTC)
    with engine.begin() as connection:
        connection.execute(sa.text("INSERT INTO users (id, name, name_key, kind, created_at) "
                                   "VALUES (1, 'Ada', 'ada', 'person', :now)"), {"now": now})
        connection.execute(sa.text("INSERT INTO ratings (id, user_id, players, mu, sigma, games, updated_at) "
                                   "VALUES (7, 1, 2, 27.5, 7.0, 3, :now)"), {"now": now})
    upgrade(engine)
    with engine.begin() as connection:
        assert connection.execute(sa.text("SELECT id, edition, mu, games FROM ratings")).all() == [(7, "first", 27.5, 3)]
        connection.execute(sa.text("INSERT INTO ratings (user_id, players, edition, mu, sigma, games, updated_at) "
                                   "VALUES (1, 2, 'second', 25.0, 8.0, 1, :now)"), {"now": now})
        with pytest.raises(sa.exc.IntegrityError), connection.begin_nested():  # one rating per edition and count
            connection.execute(sa.text("INSERT INTO ratings (user_id, players, edition, mu, sigma, games, updated_at) "
                                       "VALUES (1, 2, 'second', 25.0, 8.0, 1, :now)"), {"now": now})
        ids = connection.execute(sa.text("SELECT id FROM ratings ORDER BY id")).scalars().all()
    engine.dispose()
    assert ids[0] == 7 and ids[1] > 7  # new ids start past the copied ones


@pytest.mark.parametrize("database", ["sqlite", "postgresql"])
def test_second_edition_games_stored_before_its_new_defaults_keep_the_rules_they_were_played_under(
        database, request, tmp_path: Path) -> None:
    """The second edition's defaults changed (tie_faction "second", last_card "free"): a game stored before
    (here: made at head, then its database taken back to 0007 and upgraded again) keeps tie_faction "strict"
    and last_card "must_win", while the first edition's games and new games keep the defaults."""
    from alembic import command
    from alembic.config import Config

    url = request.getfixturevalue("postgres_url") if database == "postgresql" else f"sqlite:///{tmp_path / 'o.sqlite3'}"
    service = GameService(url)
    humans = [{"kind": "human"}] * 3
    second, _ = service.create(3, "standard", humans, seed=4, edition="second")
    first, _ = service.create(3, "standard", humans, seed=4)
    rng = Random(4)
    for _move in range(6):
        state = second.snapshot.state.copy()
        service.play(second.id, state.player, format_move(playout.play_random(state, rng), state.edition))
    moves = list(second.snapshot.moves)
    service.close()
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    engine = sa.create_engine(url.replace("postgresql://", "postgresql+psycopg://"))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, "0007_notify_trust")
    engine.dispose()
    service = GameService(url)  # upgrades to head
    try:
        old, kept = service.get(second.id), service.get(first.id)
        assert old.snapshot.state.edition.options() == {"tie_faction": "strict", "last_card": "must_win"}
        assert list(old.snapshot.moves) == moves and old.start().edition == old.snapshot.state.edition
        assert kept.snapshot.state.edition.options() == {}
        new, _ = service.create(3, "standard", humans, seed=4, edition="second")
        assert new.snapshot.state.edition.options() == {} and new.snapshot.state.edition.last_card == "free"
    finally:
        service.close()
