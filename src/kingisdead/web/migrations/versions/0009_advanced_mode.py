"""The game's mode: the second edition's advanced game (secret Cunning cards) is served online.

Games gain ``mode``, ``"standard"`` for every game stored before (the only mode served until now); an
advanced game's own options stay in ``options`` with the edition's.

Revision ID: 0009_advanced_mode
Revises: 0008_edition_options
Create Date: 2026-12-03
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009_advanced_mode"
down_revision: str | Sequence[str] | None = "0008_edition_options"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("games", sa.Column("mode", sa.String(16), nullable=False, server_default="standard"))


def downgrade() -> None:
    op.drop_column("games", "mode")
