"""Editions: each game is stored with its edition, and ratings are kept per edition and player count.

Games gain ``edition`` ("first" or "second"; every game stored before is a first-edition
game). Ratings gain ``edition`` and are unique per account, edition and player count (every
rating before is a first-edition rating); rating changes gain ``edition`` too, so that a
player's rated games are counted per edition. The ratings table is rebuilt (made anew, its
rows copied) because its old unique constraint has no name to drop it by on SQLite.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | Sequence[str] | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_NOW = sa.DateTime(timezone=True)
_COLUMNS = ("id", "user_id", "players", "mu", "sigma", "games", "updated_at")


def _ratings(name: str, edition: bool) -> None:
    """Create the ratings table as ``name``: unique per account and player count, and per edition if ``edition``."""
    columns: list[sa.Column[object]] = [
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated_at", _NOW, nullable=False),
    ]
    unique: sa.UniqueConstraint
    if edition:
        columns.append(sa.Column("edition", sa.String(16), nullable=False, server_default="first"))
        unique = sa.UniqueConstraint("user_id", "edition", "players", name="uq_ratings_user_edition_players")
    else:
        unique = sa.UniqueConstraint("user_id", "players")
    op.create_table(name, *columns, unique)


def _rebuild_ratings(edition: bool) -> None:
    """The ratings table made anew (with or without ``edition``), its rows copied; with ``edition`` gone only
    the first edition's ratings are kept."""
    _ratings("ratings_rebuilt", edition)
    listed = ", ".join(_COLUMNS)
    op.execute(f"INSERT INTO ratings_rebuilt ({listed}) SELECT {listed} FROM ratings"
               + ("" if edition else " WHERE edition = 'first'"))
    op.drop_index("ix_ratings_user_id", table_name="ratings")
    op.drop_table("ratings")
    op.rename_table("ratings_rebuilt", "ratings")
    op.create_index("ix_ratings_user_id", "ratings", ["user_id"])
    if op.get_bind().dialect.name == "postgresql":  # the copied ids were given: the new ones start past them
        op.execute("SELECT setval(pg_get_serial_sequence('ratings', 'id'), COALESCE(MAX(id), 0) + 1, false) FROM ratings")


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("edition", sa.String(16), nullable=False, server_default="first"))
    with op.batch_alter_table("rating_changes") as batch:
        batch.add_column(sa.Column("edition", sa.String(16), nullable=False, server_default="first"))
    _rebuild_ratings(edition=True)


def downgrade() -> None:
    _rebuild_ratings(edition=False)
    with op.batch_alter_table("rating_changes") as batch:
        batch.drop_column("edition")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("edition")
