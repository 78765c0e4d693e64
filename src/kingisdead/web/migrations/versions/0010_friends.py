"""Friends: follows between accounts, each account's block list, and who is online.

``follows`` holds one row per account followed (a friend and a follow are the same thing); ``blocks`` one
row per account blocked. Users gain ``allow_follow`` (whether others may start following them; true for
every account stored before) and ``seen_at`` (their last authenticated request, at most one write a minute).

Revision ID: 0010_friends
Revises: 0009_advanced_mode
Create Date: 2026-12-03
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010_friends"
down_revision: str | Sequence[str] | None = "0009_advanced_mode"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_WHEN = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.add_column("users", sa.Column("allow_follow", sa.Boolean, nullable=False, server_default=sa.true()))
    op.add_column("users", sa.Column("seen_at", _WHEN, nullable=True))
    op.create_table(
        "follows",
        sa.Column("follower_id", sa.Integer, sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("followed_id", sa.Integer, sa.ForeignKey("users.id"), primary_key=True, index=True),
        sa.Column("created_at", _WHEN, nullable=False),
    )
    op.create_table(
        "blocks",
        sa.Column("blocker_id", sa.Integer, sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("blocked_id", sa.Integer, sa.ForeignKey("users.id"), primary_key=True, index=True),
        sa.Column("created_at", _WHEN, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("blocks")
    op.drop_table("follows")
    with op.batch_alter_table("users") as batch:
        batch.drop_column("seen_at")
        batch.drop_column("allow_follow")
