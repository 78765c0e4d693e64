"""Baseline: the schema of the first web release (games, seats, moves).

Databases made before migrations existed (by ``create_all``) already hold these
tables: each table is created only where it is missing, so such a database is
simply marked as being at this revision.

Revision ID: 0001
Revises:
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | Sequence[str] | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    existing = set(sa.inspect(op.get_bind()).get_table_names())
    if "games" not in existing:
        op.create_table(
            "games",
            sa.Column("id", sa.String(32), primary_key=True),
            sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
            sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
            sa.Column("players", sa.Integer, nullable=False),
            sa.Column("variant", sa.String(16), nullable=False),
            sa.Column("seed", sa.BigInteger, nullable=False),
            sa.Column("first_player", sa.Integer, nullable=False),
            sa.Column("hints", sa.Boolean, nullable=False),
            sa.Column("hotseat", sa.Boolean, nullable=False),
            sa.Column("status", sa.String(16), nullable=False),
            sa.Column("move_count", sa.Integer, nullable=False),
            sa.Column("result", sa.JSON, nullable=True),
        )
        op.create_index("ix_games_status", "games", ["status"])
    if "seats" not in existing:
        op.create_table(
            "seats",
            sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
            sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), nullable=False),
            sa.Column("seat", sa.Integer, nullable=False),
            sa.Column("kind", sa.String(8), nullable=False),
            sa.Column("bot", sa.String(32), nullable=True),
            sa.Column("name", sa.String(40), nullable=False),
            sa.Column("token_hash", sa.String(64), nullable=True),
            sa.Column("claimed", sa.Boolean, nullable=False),
            sa.UniqueConstraint("game_id", "seat"),
        )
        op.create_index("ix_seats_game_id", "seats", ["game_id"])
        op.create_index("ix_seats_token_hash", "seats", ["token_hash"])
    if "moves" not in existing:
        op.create_table(
            "moves",
            sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
            sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), nullable=False),
            sa.Column("number", sa.Integer, nullable=False),
            sa.Column("seat", sa.Integer, nullable=False),
            sa.Column("notation", sa.String(80), nullable=False),
            sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
            sa.UniqueConstraint("game_id", "number"),
        )
        op.create_index("ix_moves_game_id", "moves", ["game_id"])


def downgrade() -> None:
    op.drop_table("moves")
    op.drop_table("seats")
    op.drop_table("games")
