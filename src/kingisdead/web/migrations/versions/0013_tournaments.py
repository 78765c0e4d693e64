"""Tournaments: turn-based Swiss tournaments, their entrants, rounds, tables and results.

Revision ID: 0013_tournaments
Revises: 0012_challenges
Create Date: 2026-12-03
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0013_tournaments"
down_revision: str | Sequence[str] | None = "0012_challenges"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_WHEN = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("creator_id", sa.Integer, sa.ForeignKey("users.id"), nullable=False),
        sa.Column("name", sa.String(60), nullable=False),
        sa.Column("edition", sa.String(16), nullable=False),
        sa.Column("variant", sa.String(16), nullable=False),
        sa.Column("mode", sa.String(16), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("time_limit", sa.Integer, nullable=False),
        sa.Column("rounds", sa.Integer, nullable=False),
        sa.Column("points", sa.JSON, nullable=False),
        sa.Column("starts_at", _WHEN, nullable=False),
        sa.Column("entry_limit", sa.Integer, nullable=False),
        sa.Column("rating_floor", sa.Float, nullable=True),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("round_days", sa.Integer, nullable=False),
        sa.Column("stand_in", sa.String(32), nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("created_at", _WHEN, nullable=False),
        sa.Column("finished_at", _WHEN, nullable=True),
    )
    op.create_index("ix_tournaments_status_starts_at", "tournaments", ["status", "starts_at"])
    op.create_table(
        "tournament_entries",
        sa.Column("tournament_id", sa.Integer, sa.ForeignKey("tournaments.id"), primary_key=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), primary_key=True, index=True),
        sa.Column("entered_at", _WHEN, nullable=False),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("withdrawn_at", _WHEN, nullable=True),
    )
    op.create_table(
        "tournament_rounds",
        sa.Column("tournament_id", sa.Integer, sa.ForeignKey("tournaments.id"), primary_key=True),
        sa.Column("round", sa.Integer, primary_key=True),
        sa.Column("paired_at", _WHEN, nullable=False),
        sa.Column("deadline", _WHEN, nullable=False),
        sa.Column("finished_at", _WHEN, nullable=True),
    )
    op.create_table(
        "tournament_tables",
        sa.Column("tournament_id", sa.Integer, sa.ForeignKey("tournaments.id"), primary_key=True),
        sa.Column("round", sa.Integer, primary_key=True),
        sa.Column("table", sa.Integer, primary_key=True),
        sa.Column("game_id", sa.String(32), nullable=False, unique=True),
        sa.Column("seats", sa.JSON, nullable=False),
        sa.Column("first_player", sa.Integer, nullable=False),
        sa.Column("adjudicated", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("counted_at", _WHEN, nullable=True),
    )
    op.create_table(
        "tournament_results",
        sa.Column("tournament_id", sa.Integer, sa.ForeignKey("tournaments.id"), primary_key=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("round", sa.Integer, primary_key=True),
        sa.Column("points", sa.Integer, nullable=False),
        sa.Column("bye", sa.Boolean, nullable=False, server_default=sa.false()),
    )


def downgrade() -> None:
    op.drop_table("tournament_results")
    op.drop_table("tournament_tables")
    op.drop_table("tournament_rounds")
    op.drop_table("tournament_entries")
    op.drop_index("ix_tournaments_status_starts_at", "tournaments")
    op.drop_table("tournaments")
