"""Games: the seat to move, the bots' secret seed, memory mode; seats: open to anyone in the lobby.

``games.to_move`` is filled by replaying each game's moves with the engine,
``games.bot_seed`` with a fresh random secret per game. Columns that a
development build had already added (by ``create_all``) are kept as they are.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | Sequence[str] | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

log = logging.getLogger(__name__)

games = sa.table("games", sa.column("id", sa.String), sa.column("players", sa.Integer),
                 sa.column("variant", sa.String), sa.column("seed", sa.BigInteger),
                 sa.column("first_player", sa.Integer), sa.column("to_move", sa.Integer),
                 sa.column("bot_seed", sa.BigInteger))
moves = sa.table("moves", sa.column("game_id", sa.String), sa.column("number", sa.Integer),
                 sa.column("notation", sa.String))


def upgrade() -> None:
    bind = op.get_bind()
    inspector = sa.inspect(bind)
    have = {c["name"] for c in inspector.get_columns("games")}
    with op.batch_alter_table("games") as batch:
        if "to_move" not in have:
            batch.add_column(sa.Column("to_move", sa.Integer, nullable=True))
        if "bot_seed" not in have:
            batch.add_column(sa.Column("bot_seed", sa.BigInteger, nullable=True))
        if "memory" not in have:
            batch.add_column(sa.Column("memory", sa.Boolean, nullable=False, server_default=sa.false()))
    if "public" not in {c["name"] for c in inspector.get_columns("seats")}:
        with op.batch_alter_table("seats") as batch:
            batch.add_column(sa.Column("public", sa.Boolean, nullable=False, server_default=sa.false()))

    for game in bind.execute(sa.select(games)).mappings().all():
        notations: list[str] = list(bind.execute(sa.select(moves.c.notation).where(moves.c.game_id == game["id"])
                                                 .order_by(moves.c.number)).scalars())
        changes = {"to_move": _to_move(game, notations)}
        if game["bot_seed"] is None:
            changes["bot_seed"] = secrets.randbits(63)
        bind.execute(sa.update(games).where(games.c.id == game["id"]).values(**changes))

    with op.batch_alter_table("games") as batch:
        batch.alter_column("bot_seed", existing_type=sa.BigInteger, nullable=False)


def _to_move(game: sa.RowMapping, notations: list[str]) -> int | None:
    """The seat to move after replaying the game's moves; None once it is over (or if a move fails)."""
    from kingisdead.moves import IllegalMoveError, NotationError, parse_move
    from kingisdead.state import GameState

    state = GameState.new(game["players"], game["variant"], game["seed"], game["first_player"])
    for number, text in enumerate(notations, start=1):
        try:
            move = parse_move(text)
            state.apply(move)
        except (IllegalMoveError, NotationError) as exc:
            log.warning("game %s: stored move %d (%r) fails to replay (%s); to_move left empty",
                        game["id"], number, text, exc)
            return None
    return None if state.is_over() else state.player


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("public")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("memory")
        batch.drop_column("bot_seed")
        batch.drop_column("to_move")
