"""Edition options per game: a game keeps the rules it was played under when an edition's default changes.

Games gain ``options`` (the edition's options as JSON, ``{}`` for its defaults). The second
edition's defaults changed (issue 29): a coronation tie now compares the second faction only
(``tie_faction="second"``), and the 3-player last card is free (``last_card="free"``). Every
second-edition game stored before was played under ``tie_faction="strict"`` and
``last_card="must_win"``, so it keeps them: its moves replay and its result stays as it was.

Revision ID: 0008_edition_options
Revises: 0007_notify_trust
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008_edition_options"
down_revision: str | Sequence[str] | None = "0007_notify_trust"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

PLAYED_UNDER = '{"tie_faction": "strict", "last_card": "must_win"}'
"""The second edition's rules before issue 29: its default options then."""


def upgrade() -> None:
    op.add_column("games", sa.Column("options", sa.JSON, nullable=False, server_default=sa.text("'{}'")))
    games = sa.table("games", sa.column("edition", sa.String), sa.column("options", sa.JSON))
    op.execute(games.update().where(games.c.edition == "second").values(options=sa.text(f"'{PLAYED_UNDER}'")))


def downgrade() -> None:
    op.drop_column("games", "options")
