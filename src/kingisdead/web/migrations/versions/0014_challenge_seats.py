"""Challenges of several people: a row per challenged person's seat with their answer (a 3- or 4-player game
made once all of them accept); and ``challenges.new_game_id``, the id the game of a challenge is made with, chosen
when its last accept claims it, so that a second try after a process was killed finds the game made.

Each challenge stored before gets the row of its one challenged person, at seat 1, answering as the challenge
was answered.

Revision ID: 0014_challenge_seats
Revises: 0013_tournaments
Create Date: 2026-12-03
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0014_challenge_seats"
down_revision: str | Sequence[str] | None = "0013_tournaments"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "challenge_seats",
        sa.Column("challenge_id", sa.Integer, sa.ForeignKey("challenges.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), nullable=False, index=True),
        sa.Column("answer", sa.String(12), nullable=False),
        sa.Column("answered_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.execute("INSERT INTO challenge_seats (challenge_id, seat, user_id, answer, answered_at) "
               "SELECT id, 1, challenged_id, "
               "CASE WHEN status IN ('accepted', 'declined') THEN status ELSE 'open' END, "
               "CASE WHEN status IN ('accepted', 'declined') THEN answered_at END FROM challenges")
    with op.batch_alter_table("challenges") as batch:
        batch.add_column(sa.Column("new_game_id", sa.String(32), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("challenges") as batch:
        batch.drop_column("new_game_id")
    # 0013 stores one challenged person, at seat 1: a challenge of several people (or one elsewhere) goes
    op.execute("DELETE FROM challenge_seats WHERE challenge_id IN "
               "(SELECT challenge_id FROM challenge_seats WHERE seat <> 1)")
    op.execute("DELETE FROM challenges WHERE id NOT IN (SELECT challenge_id FROM challenge_seats)")
    op.drop_table("challenge_seats")
