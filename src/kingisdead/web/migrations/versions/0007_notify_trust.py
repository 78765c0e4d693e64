"""Notifications people can trust: the outbox names each message's recipient (a hash of the address).

The per-address limit on confirmation links counts the outbox's rows for one address, whichever
account asked and whether the address was removed since (issue 33).

Revision ID: 0007_notify_trust
Revises: 0006
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007_notify_trust"
down_revision: str | Sequence[str] | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("outbox", sa.Column("recipient", sa.String(64), nullable=True))
    op.create_index("ix_outbox_recipient", "outbox", ["recipient"])


def downgrade() -> None:
    op.drop_index("ix_outbox_recipient", "outbox")
    with op.batch_alter_table("outbox") as batch:
        batch.drop_column("recipient")
