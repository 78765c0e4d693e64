"""Alembic's environment: run on the connection the server hands over, or on $DATABASE_URL (command line)."""

from __future__ import annotations

import os

from alembic import context
from sqlalchemy import Connection, create_engine
from sqlalchemy.pool import NullPool

from kingisdead.web.db import DEFAULT_URL, Base, normalise_url

config = context.config


def run() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:  # kingisdead.web.db.upgrade: already locked and in a transaction
        _migrate(connection)
        return
    engine = create_engine(normalise_url(os.environ.get("DATABASE_URL") or DEFAULT_URL), poolclass=NullPool,
                           hide_parameters=True)
    with engine.begin() as connection:
        _migrate(connection)
    engine.dispose()


def _migrate(connection: Connection) -> None:
    # render_as_batch: SQLite cannot ALTER most things, so Alembic rebuilds its tables instead.
    context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=True,
                      compare_type=True)
    with context.begin_transaction():
        context.run_migrations()


run()
