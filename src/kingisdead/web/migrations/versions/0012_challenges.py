"""Challenges: one account inviting another to a game with its settings, open until answered, withdrawn or
expired.

Revision ID: 0012_challenges
Revises: 0011_chat
Create Date: 2026-12-03
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0012_challenges"
down_revision: str | Sequence[str] | None = "0011_chat"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_WHEN = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "challenges",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("challenger_id", sa.Integer, sa.ForeignKey("users.id"), nullable=False),
        sa.Column("challenged_id", sa.Integer, sa.ForeignKey("users.id"), nullable=False),
        sa.Column("settings", sa.JSON, nullable=False),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("created_at", _WHEN, nullable=False),
        sa.Column("expires_at", _WHEN, nullable=False),
        sa.Column("answered_at", _WHEN, nullable=True),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), nullable=True),
    )
    op.create_index("ix_challenges_challenger_status", "challenges", ["challenger_id", "status"])
    op.create_index("ix_challenges_challenged_status", "challenges", ["challenged_id", "status"])


def downgrade() -> None:
    op.drop_index("ix_challenges_challenged_status", "challenges")
    op.drop_index("ix_challenges_challenger_status", "challenges")
    op.drop_table("challenges")
