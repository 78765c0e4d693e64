"""Rate-limit counts in the database, shared by every server process of one site; moves by the stand-in.

New table ``rate_hits``: one row per counted request (kind, client address, time
in seconds since the epoch); a limit's moving window counts the rows within it.
Moves gain ``stand_in``: a person's move that the stand-in bot played (false for
every move stored before: who played them is not known).

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | Sequence[str] | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "rate_hits",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("client", sa.String(64), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_rate_hits_kind_client_at", "rate_hits", ["kind", "client", "at"])
    op.create_index("ix_rate_hits_at", "rate_hits", ["at"])
    with op.batch_alter_table("moves") as batch:
        batch.add_column(sa.Column("stand_in", sa.Boolean, nullable=False, server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("moves") as batch:
        batch.drop_column("stand_in")
    op.drop_table("rate_hits")
