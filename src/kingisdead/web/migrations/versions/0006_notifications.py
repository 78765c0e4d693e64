"""Notifications: e-mail addresses and choices, Web Push subscriptions, and the outbox of messages.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | Sequence[str] | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_WHEN = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "notification_settings",
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("email", sa.String(254), nullable=True),
        sa.Column("pending_email", sa.String(254), nullable=True, index=True),
        sa.Column("confirm_hash", sa.String(64), nullable=True, index=True),
        sa.Column("confirm_sent_at", _WHEN, nullable=True),
        sa.Column("confirmed_at", _WHEN, nullable=True),
        sa.Column("unsubscribe_key", sa.String(64), nullable=False, unique=True),
        sa.Column("digest", sa.Boolean, nullable=False),
        sa.Column("clock", sa.Boolean, nullable=False),
        sa.Column("ended", sa.Boolean, nullable=False),
        sa.Column("language", sa.String(8), nullable=True),
    )
    op.create_table(
        "push_subscriptions",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), nullable=False, index=True),
        sa.Column("endpoint", sa.String(1024), nullable=False, unique=True),
        sa.Column("p256dh", sa.String(128), nullable=False),
        sa.Column("auth", sa.String(64), nullable=False),
        sa.Column("language", sa.String(8), nullable=True),
        sa.Column("created_at", _WHEN, nullable=False),
    )
    op.create_table(
        "outbox",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("key", sa.String(200), nullable=False, unique=True),
        sa.Column("channel", sa.String(8), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), nullable=False, index=True),
        sa.Column("content", sa.JSON, nullable=False),
        sa.Column("status", sa.String(8), nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("next_attempt_at", _WHEN, nullable=False),
        sa.Column("claimed_until", _WHEN, nullable=True),
        sa.Column("claimed_by", sa.String(64), nullable=True),
        sa.Column("error", sa.String(500), nullable=True),
        sa.Column("created_at", _WHEN, nullable=False),
        sa.Column("sent_at", _WHEN, nullable=True),
    )
    op.create_index("ix_outbox_status_next", "outbox", ["status", "next_attempt_at"])


def downgrade() -> None:
    op.drop_index("ix_outbox_status_next", "outbox")
    op.drop_table("outbox")
    op.drop_table("push_subscriptions")
    op.drop_table("notification_settings")
