"""Accounts, sessions and ratings; rated games, move time limits, stand-in bots and rematches.

New tables: ``users`` (people and bot levels), ``user_sessions`` (signed-in
browsers), ``ratings`` (one per account and player count) and ``rating_changes``
(one per rated game and account, so a game's ratings are applied once). Games
gain ``rated``, ``ratings_applied``, ``time_limit`` (seconds per move),
``deadline`` (when the seat to move runs out of time), ``stand_in`` (the bot level
that plays for a player who timed out or left) and the rematch links; seats gain
the account holding them and the ``away``/``left`` flags. Existing games keep
every move: they become unrated games without a time limit.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | Sequence[str] | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_NOW = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "users",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("name_key", sa.String(40), nullable=False, unique=True),
        sa.Column("kind", sa.String(8), nullable=False, server_default="person"),
        sa.Column("password_hash", sa.String(255), nullable=True),
        sa.Column("language", sa.String(8), nullable=True),
        sa.Column("created_at", _NOW, nullable=False),
    )
    op.create_table(
        "user_sessions",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), nullable=False, index=True),
        sa.Column("created_at", _NOW, nullable=False),
        sa.Column("expires_at", _NOW, nullable=False),
    )
    op.create_table(
        "ratings",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), nullable=False, index=True),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated_at", _NOW, nullable=False),
        sa.UniqueConstraint("user_id", "players"),
    )
    op.create_table(
        "rating_changes",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), nullable=False, index=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), nullable=False, index=True),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("mu_before", sa.Float, nullable=False),
        sa.Column("sigma_before", sa.Float, nullable=False),
        sa.Column("mu_after", sa.Float, nullable=False),
        sa.Column("sigma_after", sa.Float, nullable=False),
        sa.Column("created_at", _NOW, nullable=False),
        sa.UniqueConstraint("game_id", "user_id"),
    )
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column("ratings_applied", sa.Boolean, nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column("time_limit", sa.Integer, nullable=True))
        batch.add_column(sa.Column("deadline", _NOW, nullable=True))
        batch.add_column(sa.Column("stand_in", sa.String(32), nullable=False, server_default="intermediate"))
        batch.add_column(sa.Column("rematch_of", sa.String(32), nullable=True))
        batch.add_column(sa.Column("rematch", sa.String(32), nullable=True))
        batch.create_index("ix_games_deadline", ["deadline"])
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("user_id", sa.Integer, nullable=True))
        batch.add_column(sa.Column("away", sa.Boolean, nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column("left", sa.Boolean, nullable=False, server_default=sa.false()))
        batch.create_index("ix_seats_user_id", ["user_id"])
        batch.create_foreign_key("fk_seats_user_id_users", "users", ["user_id"], ["id"])


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_constraint("fk_seats_user_id_users", type_="foreignkey")
        batch.drop_index("ix_seats_user_id")
        for column in ("left", "away", "user_id"):
            batch.drop_column(column)
    with op.batch_alter_table("games") as batch:
        batch.drop_index("ix_games_deadline")
        for column in ("rematch", "rematch_of", "stand_in", "deadline", "time_limit", "ratings_applied", "rated"):
            batch.drop_column(column)
    for table in ("rating_changes", "ratings", "user_sessions", "users"):
        op.drop_table(table)
