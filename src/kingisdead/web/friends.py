"""Friends: follows between accounts, the block list, and who is online.

A friend and a follow are the same thing (one-way, as on lichess): following someone puts them on your
friends list, with whether they are online and the running games you share. A block removes the follows
both ways and refuses new ones either way; the chat keeps blocked people apart through
:func:`blocked_between`. docs/web.md, "Friends and chat", describes the rules.
"""

from __future__ import annotations

from sqlalchemy import exists, or_, and_, select
from sqlalchemy.orm import Session

from kingisdead.web.db import BlockRow


def blocked_between(session: Session, a: int, b: int) -> bool:
    """Whether account ``a`` blocked account ``b`` or ``b`` blocked ``a`` (user ids; one query)."""
    either = or_(and_(BlockRow.blocker_id == a, BlockRow.blocked_id == b),
                 and_(BlockRow.blocker_id == b, BlockRow.blocked_id == a))
    return bool(session.scalar(select(exists().where(either))))
