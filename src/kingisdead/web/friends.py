"""Friends: follows between accounts, the block list, and who is online.

A friend and a follow are the same thing (one-way, as on lichess): following someone puts them on your
friends list, with whether they are online and the running games you share, whoever's turn it is. An account
follows at most :data:`FOLLOW_LIMIT` others; one whose ``allow_follow`` setting is off takes no new followers
(those it has stay). A block removes the follows both ways and refuses new ones either way; the chat keeps
blocked people apart through :func:`blocked_between`. Someone refused by a block is told the same as by the
setting, so a block is never given away. A block list is only ever shown to its owner.

"Online" is :attr:`~.db.UserRow.seen_at`, the time of the account's last authenticated request or game-socket
message, written at most once per :data:`SEEN_EVERY` (:func:`note_seen`): it is in the database, so every
server process sees it. docs/web.md, "Friends and chat", describes the routes.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import and_, delete, exists, func, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, aliased

from .accounts import account_name
from .db import BlockRow, FollowRow, GameRow, SeatRow, UserRow
from .errors import GameError
from .i18n import _
from .service import GameService

FOLLOW_LIMIT = 300
"""The most accounts one account follows."""
BLOCK_LIMIT = 1000
"""The most accounts on one block list."""
ONLINE = timedelta(minutes=5)
"""An account seen this recently is online."""
SEEN_EVERY = timedelta(minutes=1)
"""``seen_at`` is written at most this often per account: one write a minute for a busy player."""


def _now() -> datetime:
    """The time "online" is measured by (a test sets it)."""
    return datetime.now(UTC)


def _aware(moment: datetime) -> datetime:
    """SQLite hands back naive datetimes: they were stored in UTC."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def blocked_between(session: Session, a: int, b: int) -> bool:
    """Whether account ``a`` blocked account ``b`` or ``b`` blocked ``a`` (user ids; one query)."""
    either = or_(and_(BlockRow.blocker_id == a, BlockRow.blocked_id == b),
                 and_(BlockRow.blocker_id == b, BlockRow.blocked_id == a))
    return bool(session.scalar(select(exists().where(either))))


def blocked_among(session: Session, a: int, others: set[int]) -> set[int]:
    """Those of ``others`` (user ids) that ``a`` blocked or that blocked ``a`` (one query, however many)."""
    if not others:
        return set()
    rows = session.execute(select(BlockRow.blocker_id, BlockRow.blocked_id).where(or_(
        and_(BlockRow.blocker_id == a, BlockRow.blocked_id.in_(others)),
        and_(BlockRow.blocked_id == a, BlockRow.blocker_id.in_(others))))).all()
    return {blocked if blocker == a else blocker for blocker, blocked in rows}


def blocked_within(session: Session, people: set[int]) -> bool:
    """Whether any of ``people`` (user ids) blocked another of them (one query, however many)."""
    return len(people) > 1 and bool(session.scalar(select(exists().where(
        BlockRow.blocker_id.in_(people), BlockRow.blocked_id.in_(people)))))


def seen_is_stale(seen_at: datetime | None, now: datetime | None = None) -> bool:
    """Whether a ``seen_at`` as read is old enough to be written again (:data:`SEEN_EVERY`)."""
    return seen_at is None or (now or _now()) - _aware(seen_at) >= SEEN_EVERY


def note_seen(service: GameService, user_id: int) -> datetime:
    """Record that the account is here now, unless that was done within :data:`SEEN_EVERY` (one conditional
    UPDATE, so processes racing each other write once). Returns the time noted, for the caller's own
    throttling."""
    now = _now()
    with service.sessions.begin() as session:
        session.execute(update(UserRow).where(UserRow.id == user_id, or_(
            UserRow.seen_at.is_(None), UserRow.seen_at <= now - SEEN_EVERY)).values(seen_at=now))
    return now


def _person(session: Session, name: str) -> UserRow:
    """The person's account of that name (ignoring case, as at sign-in); 422 ``invalid_name`` for a name no
    account can have, 404 ``unknown_player`` for one no person has (bots and deleted accounts included)."""
    _shown, key = account_name(name)
    row = session.scalar(select(UserRow).where(UserRow.name_key == key, UserRow.kind == "person"))
    if row is None:
        raise GameError(404, "unknown_player", _("no player is named {name}", name=name.strip()))
    return row


def _lock_account(session: Session, user_id: int) -> None:
    """On PostgreSQL, hold the account's row until the transaction ends, so that two follows (or blocks) sent at
    once are counted one after the other (SQLite's insert takes the database's write lock for the same end)."""
    if session.get_bind().dialect.name == "postgresql":
        session.execute(select(UserRow.id).where(UserRow.id == user_id).with_for_update())


def follow(service: GameService, user_id: int, name: str, count: Callable[[], Any]) -> bool:
    """Follow the person named ``name``: True if new, False if already followed (nothing changes).

    ``count()`` is called once before a new follow is stored (the per-account rate limit: it raises 429).
    Errors: 422 ``invalid_name``, 404 ``unknown_player``, 422 ``follow_self``, 409 ``you_blocked`` (unblock them
    first), 403 ``follow_refused`` (their setting is off, or they blocked you: the answer does not say which),
    409 ``too_many_follows`` (at :data:`FOLLOW_LIMIT`).
    """
    with service.sessions() as session:
        target = _person(session, name)
        if target.id == user_id:
            raise GameError(422, "follow_self", _("you cannot follow yourself"))
        if session.get(FollowRow, (user_id, target.id)) is not None:
            return False
        if session.get(BlockRow, (user_id, target.id)) is not None:
            raise GameError(409, "you_blocked", _("you blocked {name}: unblock them first", name=target.name))
        if not target.allow_follow or session.get(BlockRow, (target.id, user_id)) is not None:
            raise GameError(403, "follow_refused", _("{name} takes no new followers", name=target.name))
    count()
    try:
        with service.sessions.begin() as session:
            _lock_account(session, user_id)
            session.add(FollowRow(follower_id=user_id, followed_id=target.id, created_at=_now()))
            session.flush()  # on SQLite the insert takes the write lock: the count below sees every other follow
            follows = session.scalar(select(func.count()).select_from(FollowRow)
                                     .where(FollowRow.follower_id == user_id))
            if follows is not None and follows > FOLLOW_LIMIT:  # the exception rolls the insert back
                raise GameError(409, "too_many_follows", _("you follow {limit} players already, the most there can "
                                                           "be: unfollow someone first", limit=FOLLOW_LIMIT))
            if blocked_between(session, user_id, target.id):  # blocked meanwhile
                raise GameError(403, "follow_refused", _("{name} takes no new followers", name=target.name))
    except IntegrityError:  # the same follow sent twice at once
        return False
    return True


def unfollow(service: GameService, user_id: int, name: str) -> None:
    """Stop following ``name`` (nothing happens if you did not); 422 ``invalid_name``, 404 ``unknown_player``."""
    with service.sessions.begin() as session:
        target = _person(session, name)
        session.execute(delete(FollowRow).where(FollowRow.follower_id == user_id, FollowRow.followed_id == target.id))


def block(service: GameService, user_id: int, name: str, count: Callable[[], Any]) -> bool:
    """Put ``name`` on your block list: the follows between you go, both ways, and the open challenges naming you
    both expire (:func:`.challenges.expire_between`). True if new, False if already
    blocked. ``count()`` as for :func:`follow`. Errors: 422 ``invalid_name``, 404 ``unknown_player``,
    422 ``block_self``, 409 ``too_many_blocks`` (at :data:`BLOCK_LIMIT`)."""
    with service.sessions() as session:
        target = _person(session, name)
        if target.id == user_id:
            raise GameError(422, "block_self", _("you cannot block yourself"))
        if session.get(BlockRow, (user_id, target.id)) is not None:
            return False
    count()
    try:
        with service.sessions.begin() as session:
            _lock_account(session, user_id)
            session.add(BlockRow(blocker_id=user_id, blocked_id=target.id, created_at=_now()))
            session.flush()
            blocks = session.scalar(select(func.count()).select_from(BlockRow).where(BlockRow.blocker_id == user_id))
            if blocks is not None and blocks > BLOCK_LIMIT:
                raise GameError(409, "too_many_blocks", _("you blocked {limit} players already, the most there can "
                                                          "be: unblock someone first", limit=BLOCK_LIMIT))
            session.execute(delete(FollowRow).where(or_(
                and_(FollowRow.follower_id == user_id, FollowRow.followed_id == target.id),
                and_(FollowRow.follower_id == target.id, FollowRow.followed_id == user_id))))
            from .challenges import expire_between  # here: challenges imports this module

            expire_between(session, user_id, target.id)
    except IntegrityError:  # the same block sent twice at once
        return False
    return True


def unblock(service: GameService, user_id: int, name: str) -> None:
    """Take ``name`` off your block list (nothing happens if they were not on it); the follows the block removed
    do not come back. 422 ``invalid_name``, 404 ``unknown_player``."""
    with service.sessions.begin() as session:
        target = _person(session, name)
        session.execute(delete(BlockRow).where(BlockRow.blocker_id == user_id, BlockRow.blocked_id == target.id))


def set_allow_follow(service: GameService, user_id: int, allow: bool) -> None:
    """The "let others follow me" setting: off, new follows of you are refused; those you have stay."""
    with service.sessions.begin() as session:
        session.execute(update(UserRow).where(UserRow.id == user_id).values(allow_follow=allow))


def _shared_games(session: Session, user_id: int, friends: list[int]) -> dict[int | None, list[dict[str, Any]]]:
    """The running games where the account and each friend both hold a seat they have not left, by friend id:
    ``{"id", "players", "move_number", "turn"}`` with ``turn`` "yours", "theirs" or "other" (a third player's),
    the longest-waiting first."""
    if not friends:
        return {}
    mine, theirs = aliased(SeatRow), aliased(SeatRow)
    rows = session.execute(
        select(GameRow.id, GameRow.players, GameRow.move_count, GameRow.to_move, mine.seat, theirs.seat,
               theirs.user_id)
        .join(mine, and_(mine.game_id == GameRow.id, mine.user_id == user_id, mine.left.is_(False)))
        .join(theirs, and_(theirs.game_id == GameRow.id, theirs.user_id.in_(friends), theirs.left.is_(False)))
        .where(GameRow.status == "running")
        .order_by(GameRow.updated_at, GameRow.id)).all()
    held: dict[tuple[int | None, str], tuple[dict[str, Any], int | None, set[int], set[int]]] = {}
    for game_id, players, moves, to_move, my_seat, their_seat, friend in rows:
        _entry, _to_move, my_seats, their_seats = held.setdefault(
            (friend, game_id), ({"id": game_id, "players": players, "move_number": moves}, to_move, set(), set()))
        my_seats.add(my_seat)
        their_seats.add(their_seat)
    shared: dict[int | None, list[dict[str, Any]]] = {}
    for (friend, _game), (entry, to_move, my_seats, their_seats) in held.items():
        turn = "yours" if to_move in my_seats else "theirs" if to_move in their_seats else "other"
        shared.setdefault(friend, []).append({**entry, "turn": turn})
    return shared


def friends_view(service: GameService, user_id: int) -> dict[str, Any]:
    """The account's friends, block list and setting, for it alone.

    ``friends``: each account followed, ``{"name", "online", "follows_you", "games"}`` (online ones first, then by
    name; ``games`` as :func:`_shared_games`); ``blocked``: ``[{"name"}]`` by name; ``allow_follow``;
    ``follow_limit``: :data:`FOLLOW_LIMIT`; ``online_minutes``: how recently "online" means.
    """
    now = _now()
    with service.sessions() as session:
        me = session.get(UserRow, user_id)
        if me is None:
            raise GameError(401, "sign_in_required", _("sign in first"))
        followed = session.execute(
            select(UserRow.id, UserRow.name, UserRow.name_key, UserRow.seen_at)
            .join(FollowRow, FollowRow.followed_id == UserRow.id).where(FollowRow.follower_id == user_id)).all()
        back = set(session.scalars(select(FollowRow.follower_id).where(FollowRow.followed_id == user_id)))
        games = _shared_games(session, user_id, [row.id for row in followed])
        blocked = session.scalars(select(UserRow.name).join(BlockRow, BlockRow.blocked_id == UserRow.id)
                                  .where(BlockRow.blocker_id == user_id).order_by(UserRow.name_key)).all()
        allow = me.allow_follow
    friends = [{"name": row.name, "online": row.seen_at is not None and now - _aware(row.seen_at) <= ONLINE,
                "follows_you": row.id in back, "games": games.get(row.id, []), "_key": row.name_key}
               for row in followed]
    friends.sort(key=lambda f: (not f["online"], f["_key"]))
    for friend in friends:
        del friend["_key"]
    return {"friends": friends, "blocked": [{"name": name} for name in blocked], "allow_follow": allow,
            "follow_limit": FOLLOW_LIMIT, "online_minutes": int(ONLINE.total_seconds() // 60)}
