"""Chat: each game's lines (the seats' chat and the watchers' apart), reports of lines, muted games, and each
account's chat settings (off for all its games; an operator's time-out).

Revision ID: 0011_chat
Revises: 0010_friends
Create Date: 2026-12-03
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011_chat"
down_revision: str | Sequence[str] | None = "0010_friends"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_WHEN = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "chat_lines",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("room", sa.String(8), nullable=False),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), nullable=False),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("move_number", sa.Integer, nullable=False),
        sa.Column("text", sa.String(300), nullable=False),
        sa.Column("created_at", _WHEN, nullable=False),
    )
    op.create_index("ix_chat_lines_game_room_id", "chat_lines", ["game_id", "room", "id"])
    op.create_index("ix_chat_lines_user_created", "chat_lines", ["user_id", "created_at"])
    op.create_table(
        "chat_reports",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("line_id", sa.Integer, sa.ForeignKey("chat_lines.id"), nullable=False),
        sa.Column("reporter_id", sa.Integer, sa.ForeignKey("users.id"), nullable=False),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), nullable=False, index=True),
        sa.Column("move_number", sa.Integer, nullable=False),
        sa.Column("reason", sa.String(200), nullable=True),
        sa.Column("created_at", _WHEN, nullable=False),
        sa.UniqueConstraint("line_id", "reporter_id", name="uq_chat_reports_line_reporter"),
    )
    op.create_table(
        "chat_mutes",
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
    )
    op.create_table(
        "chat_settings",
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("off", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("timeout_until", _WHEN, nullable=True),
    )


def downgrade() -> None:
    op.drop_table("chat_settings")
    op.drop_table("chat_mutes")
    op.drop_table("chat_reports")
    op.drop_index("ix_chat_lines_user_created", "chat_lines")
    op.drop_index("ix_chat_lines_game_room_id", "chat_lines")
    op.drop_table("chat_lines")
