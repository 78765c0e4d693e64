"""Player accounts: sign-up and sign-in with a password, sessions in a cookie, "my games" and statistics.

Passwords are hashed with Argon2id (argon2-cffi). A signed-in browser holds a
random secret in the :data:`SESSION_COOKIE` cookie (HttpOnly, Secure,
SameSite=Lax); the database keeps only its SHA-256 in ``user_sessions``, with an
expiry: :data:`SESSION_IDLE_DAYS` after its last use, never more than
:data:`SESSION_MAX_DAYS` after sign-in. A password change ends the account's other
sessions; "sign out everywhere" and deleting the account end them all. A request that changes something and is authenticated by the cookie
must be sent as JSON (``Content-Type: application/json``): a page on another
site can send neither the cookie (SameSite) nor that content type (CORS) with a
plain form, so such requests cannot be forged cross-site.

The HTTP side is in :mod:`.routes.accounts` (the endpoints) and :mod:`.routes.deps` (the signed-in account
as a FastAPI dependency, and a WebSocket's account from its upgrade request).
"""

from __future__ import annotations

import functools
import hashlib
import secrets
import unicodedata
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any, cast

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import CursorResult, delete, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from .db import (
    BlockRow,
    ChallengeRow,
    ChallengeSeatRow,
    ChatLineRow,
    ChatMuteRow,
    ChatSettingsRow,
    FollowRow,
    GameRow,
    NotificationSettingsRow,
    OutboxRow,
    PushSubscriptionRow,
    RatingRow,
    SeatRow,
    TournamentEntryRow,
    TournamentRow,
    UserRow,
    UserSessionRow,
)
from .errors import GameError
from .games import GameStore
from .service import GameService
from .i18n import _
from .ratings import forfeited_seats, provisional, shown

SESSION_COOKIE = "kid_session"
SESSION_IDLE_DAYS = 7
"""A session unused this many days ends; each use renews it (at most :data:`SESSION_MAX_DAYS` from sign-in)."""
SESSION_MAX_DAYS = 30
"""A session ends this many days after sign-in however much it is used; signing out ends it at once."""
RENEW_AFTER = timedelta(hours=1)
"""A session's expiry is written again once it would move by more than this: not on every request."""
DELETED_PREFIX = "deleted:"
"""The start of a deleted account's ``name_key`` (a person's name cannot hold a colon)."""
LANGUAGES = ("en", "fr", "de")
NAME_LENGTH = (3, 40)
PASSWORD_LENGTH = (8, 128)

_hasher = PasswordHasher()


@functools.cache
def _unknown_hash() -> str:
    """A hash that is checked when the name is unknown, so that a wrong name takes as long as a wrong password."""
    return _hasher.hash(secrets.token_urlsafe(16))


def hash_secret(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def account_name(text: str) -> tuple[str, str]:
    """A name as shown and its key (unique ignoring case): NFKC-normalised, trimmed, inner spaces
    collapsed. Raises GameError 422 ``invalid_name`` for fewer than 3 or more than 40 characters (as sent or
    normalised),
    control characters (a line break or tab too, even where trimming or collapsing would remove it) or a colon,
    no letter or digit, or a name ending in " bot" (kept for the bot
    levels, whose accounts' keys hold a colon)."""
    name = " ".join(unicodedata.normalize("NFKC", text).split())
    key = name.casefold()
    low, high = NAME_LENGTH
    if not low <= len(name) <= high or len(key) > high or not low <= len(text) <= high:  # as sent, too
        raise GameError(422, "invalid_name", _("a name has {low} to {high} characters", low=low, high=high))
    if any(unicodedata.category(c).startswith("C") for c in text + name) or not any(c.isalnum() for c in name):
        raise GameError(422, "invalid_name", _("a name is made of printable characters, with a letter or digit"))
    if ":" in name:
        raise GameError(422, "invalid_name", _("a name cannot hold a colon"))
    if key == "bot" or key.endswith(" bot"):
        raise GameError(422, "invalid_name", _("names ending in 'bot' are kept for the bots"))
    return name, key


NAME_PATTERN = (r"^(?=\s*\S\s*\S\s*\S|\s*\S\s+\S)(?=.*[^\W_])(?!(?i:.*\sbot\s*$))(?!\s*(?i:bot)\s*$)"
                r"[^:\x00-\x1f\x7f-\x9f\u2028\u2029]{3,40}$")
"""The names :func:`account_name` accepts, as the API schema's regular expression: 3 to 40 characters (3 once
trimmed and its runs of spaces made one), a letter or digit, no colon, no control character or line separator,
not ending in "bot" after a space. Unicode's other invisible characters (format, private-use, unassigned) and
what normalising changes (a character NFKC spells in many) are refused by :func:`account_name` alone: a class
of every such character weighs 12 KB and slows every reader of the schema."""


def _check_password(password: str) -> None:
    low, high = PASSWORD_LENGTH
    if not low <= len(password) <= high:
        raise GameError(422, "invalid_password", _("a password has {low} to {high} characters", low=low, high=high))


def _aware(moment: datetime) -> datetime:
    """SQLite hands back naive datetimes: they were stored in UTC."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _now() -> datetime:
    """The time sessions are measured by (a test sets it)."""
    return datetime.now(UTC)


def _expiry(created_at: datetime, now: datetime) -> datetime:
    """When a session used at ``now`` ends if it is not used again."""
    return min(now + timedelta(days=SESSION_IDLE_DAYS), _aware(created_at) + timedelta(days=SESSION_MAX_DAYS))


def user_for_secret(service: GameService, secret: str) -> UserRow | None:
    """The account of a session secret; None if no session has it or it has expired (then it is deleted).
    A use renews the session (:func:`_expiry`), written at most once per :data:`RENEW_AFTER`."""
    if not secret or len(secret) > 200:
        return None
    key = hash_secret(secret)
    now = _now()
    with service.sessions() as session:
        row = session.get(UserSessionRow, key)
        if row is None:
            return None
        if _aware(row.expires_at) <= now:
            session.execute(delete(UserSessionRow).where(UserSessionRow.id == key))
            session.commit()
            return None
        renewed = _expiry(row.created_at, now)
        if renewed - _aware(row.expires_at) > RENEW_AFTER:
            row.expires_at = renewed
            session.commit()
        return session.get(UserRow, row.user_id)


# -- storage --------------------------------------------------------------------------------


def create_account(service: GameService, name: str, password: str) -> UserRow:
    """A new person's account; GameError 422 for a bad name or password, 409 ``name_taken``."""
    display, key = account_name(name)
    _check_password(password)
    with service.sessions() as session:
        if session.scalar(select(UserRow.id).where(UserRow.name_key == key)) is not None:
            raise GameError(409, "name_taken", _("that name is taken"))
    user = UserRow(name=display, name_key=key, kind="person", password_hash=_hasher.hash(password))
    try:
        with service.sessions.begin() as session:
            session.add(user)
    except IntegrityError:  # taken between the check and the insert
        raise GameError(409, "name_taken", _("that name is taken")) from None
    return user


def check_password(service: GameService, name: str, password: str) -> UserRow | None:
    """The account if the name and password match, else None (the same work either way)."""
    try:
        _shown, key = account_name(name)
    except GameError:
        key = None
    with service.sessions() as session:
        user = None if key is None else session.scalar(
            select(UserRow).where(UserRow.name_key == key, UserRow.kind == "person"))
    stored = user.password_hash if user is not None and user.password_hash else _unknown_hash()
    try:
        _hasher.verify(stored, password)
    except (VerificationError, InvalidHashError):
        return None
    if user is None:
        return None
    if _hasher.check_needs_rehash(stored):
        with service.sessions.begin() as session:
            row = session.get(UserRow, user.id)
            if row is not None:
                row.password_hash = _hasher.hash(password)
    return user


def start_session(service: GameService, user_id: int, replaces: str | None = None) -> str:
    """A new session for the account: its secret (for the cookie). ``replaces``: the browser's old
    secret, whose session ends. The account's expired sessions are cleared at the same time."""
    secret = secrets.token_urlsafe(32)
    now = _now()
    with service.sessions.begin() as session:
        if replaces:
            session.execute(delete(UserSessionRow).where(UserSessionRow.id == hash_secret(replaces)))
        session.execute(delete(UserSessionRow).where(UserSessionRow.user_id == user_id,
                                                     UserSessionRow.expires_at <= now))
        session.add(UserSessionRow(id=hash_secret(secret), user_id=user_id, created_at=now,
                                   expires_at=_expiry(now, now)))
    return secret


def end_session(service: GameService, secret: str) -> None:
    with service.sessions.begin() as session:
        session.execute(delete(UserSessionRow).where(UserSessionRow.id == hash_secret(secret)))


def end_sessions(service: GameService, user_id: int, keep: str | None = None) -> int:
    """End every session of the account but the one of secret ``keep``: how many ended."""
    with service.sessions.begin() as session:
        query = delete(UserSessionRow).where(UserSessionRow.user_id == user_id)
        if keep:
            query = query.where(UserSessionRow.id != hash_secret(keep))
        return int(cast("CursorResult[Any]", session.execute(query)).rowcount)  # a DELETE's result counts its rows


def _checked(service: GameService, user: UserRow, password: str) -> None:
    """GameError 401 ``wrong_credentials`` unless ``password`` is the account's."""
    if check_password(service, user.name, password) is None:
        raise GameError(401, "wrong_credentials", _("wrong password"))


def change_password(service: GameService, user: UserRow, current: str, new: str, keep: str | None) -> int:
    """Set a new password once the current one is given; the account's other sessions end (a session stolen
    before the change ends with it): how many. 401 ``wrong_credentials``, 422 ``invalid_password``."""
    _check_password(new)
    _checked(service, user, current)
    with service.sessions.begin() as session:
        row = session.get(UserRow, user.id)
        if row is None:
            raise GameError(401, "sign_in_required", _("sign in first"))
        row.password_hash = _hasher.hash(new)
    return end_sessions(service, user.id, keep)


def delete_account(service: GameService, user: UserRow, password: str
                   ) -> tuple[str, list[str], list[tuple[str, int]]]:
    """Delete a person's account once its password is given: 401 ``wrong_credentials`` otherwise.

    What goes: the name (the account and its seats are renamed ``anonymous-<hex>``, and the name is free
    again), the password, the language, every session, the e-mail settings and address, the push
    subscriptions, the outbox's messages (those waiting are dropped, and every one loses its text and
    address), its follows, blocks and challenges both ways (web/friends.py, web/challenges.py), its entries in tournaments (withdrawn from those under way), its chat settings and muted games, and the
    ratings (the account leaves the leaderboard). What stays: the games and their moves, and its chat lines
    (web/chat.py), under the anonymous name, the rating changes of
    finished games (other players' ratings were computed with them), and the outbox rows' hashed addresses
    and times, which the per-address limits count (a deleted account must not free an address for more
    confirmation links). Returns the anonymous name, the ids of
    the games it held seats in (their cached copies show the old name: the caller drops them) and the
    (game id, seat) of the running games' seats the account held and had not left: the caller makes them
    leave (the stand-in plays them) and tells the games' watchers.
    """
    _checked(service, user, password)
    anonymous = f"anonymous-{secrets.token_hex(4)}"
    with service.sessions.begin() as session:
        row = session.get(UserRow, user.id)
        if row is None or row.kind != "person":
            raise GameError(401, "sign_in_required", _("sign in first"))
        row.name, row.name_key, row.kind = anonymous, f"{DELETED_PREFIX}{user.id}", "deleted"
        row.password_hash = row.language = None
        held = list(session.scalars(select(SeatRow.game_id).where(SeatRow.user_id == user.id).distinct()))
        session.execute(update(SeatRow).where(SeatRow.user_id == user.id).values(name=anonymous))
        session.execute(update(ChatLineRow).where(ChatLineRow.user_id == user.id).values(name=anonymous))
        for table in (UserSessionRow, NotificationSettingsRow, PushSubscriptionRow, RatingRow, ChatSettingsRow,
                      ChatMuteRow):
            session.execute(delete(table).where(table.user_id == user.id))
        session.execute(delete(FollowRow).where(or_(FollowRow.follower_id == user.id,
                                                    FollowRow.followed_id == user.id)))
        session.execute(delete(BlockRow).where(or_(BlockRow.blocker_id == user.id, BlockRow.blocked_id == user.id)))
        challenges = list(session.scalars(select(ChallengeRow.id).where(or_(
            ChallengeRow.challenger_id == user.id, ChallengeRow.id.in_(
                select(ChallengeSeatRow.challenge_id).where(ChallengeSeatRow.user_id == user.id))))))
        session.execute(delete(ChallengeSeatRow).where(ChallengeSeatRow.challenge_id.in_(challenges)))
        session.execute(delete(ChallengeRow).where(ChallengeRow.id.in_(challenges)))
        # its entries: removed from tournaments not started, withdrawn from running ones (their results stand)
        session.execute(delete(TournamentEntryRow).where(
            TournamentEntryRow.user_id == user.id,
            TournamentEntryRow.tournament_id.in_(select(TournamentRow.id).where(TournamentRow.status == "open"))))
        session.execute(update(TournamentEntryRow).where(TournamentEntryRow.user_id == user.id,
                                                         TournamentEntryRow.withdrawn_at.is_(None))
                        .values(withdrawn_at=datetime.now(UTC)))
        session.execute(update(OutboxRow).where(OutboxRow.user_id == user.id, OutboxRow.status == "pending")
                        .values(status="dropped", error="the account was deleted"))
        session.execute(update(OutboxRow).where(OutboxRow.user_id == user.id).values(content={}))
        running = session.execute(select(SeatRow.game_id, SeatRow.seat).join(GameRow, GameRow.id == SeatRow.game_id)
                                  .where(SeatRow.user_id == user.id, SeatRow.left.is_(False),
                                         GameRow.status == "running")).all()
    return anonymous, held, [(game_id, seat) for game_id, seat in running]


def set_language(service: GameService, user_id: int, language: str | None) -> UserRow:
    with service.sessions.begin() as session:
        row = session.get(UserRow, user_id)
        if row is None:
            raise GameError(401, "sign_in_required", _("sign in first"))
        row.language = language
    return row


def _won(result: dict[str, Any] | None, seats: list[int], left: set[int]) -> bool | None:
    """Whether a seat of the account won; a seat it gave up (``left``: see :func:`.ratings.forfeited`) wins
    nothing for it, whatever the stand-in did."""
    if not result:
        return None
    return any(seat in result.get("winners", []) and seat not in left for seat in seats)


def _held(session: Session, user_id: int
          ) -> tuple[dict[str, list[int]], dict[str, set[int]], Sequence[GameRow]]:
    """The seats the account holds per game id, those of them it gave up (left, or played more by the
    stand-in than by the account), and those games, most recently changed first."""
    seats: dict[str, list[int]] = {}
    for held in session.scalars(select(SeatRow).where(SeatRow.user_id == user_id)):
        seats.setdefault(held.game_id, []).append(held.seat)
    if not seats:
        return seats, {}, []
    games = session.scalars(select(GameRow).where(GameRow.id.in_(list(seats)))
                            .order_by(GameRow.updated_at.desc())).all()
    finished = [row.id for row in games if row.status == "finished"]
    return seats, forfeited_seats(session, finished) if finished else {}, games


def _time_left(entry: dict[str, Any]) -> tuple[bool, datetime]:
    """Sort key of running games: the soonest deadline first, those without one last (the sort is stable, so
    games without a deadline, or with the same one, stay most recently changed first)."""
    deadline = entry["deadline"]
    return deadline is None, datetime.min.replace(tzinfo=UTC) if deadline is None else datetime.fromisoformat(deadline)


def my_games(service: GameService, user_id: int, finished: int = 20) -> list[dict[str, Any]]:
    """The account's games: running ones where one of its seats is to move first, then its other
    running games (both by time left: the soonest ``deadline`` first, then those without a clock running,
    most recently changed first), then its ``finished`` most recent finished games. Each entry is
    :meth:`.games.GameStore._summary` plus ``your_seats``, ``your_turn``, ``won``, ``result`` and ``deadline``
    (ISO 8601 UTC of the current turn's deadline, or None)."""
    with service.sessions() as session:
        seats, left, rows = _held(session, user_id)
        entries = []
        for row in rows:
            mine = sorted(seats[row.id])
            entry = GameStore._summary(row)
            live = row.status == "running"
            entry.update(your_seats=mine, your_turn=live and row.to_move in mine,
                         won=_won(row.result, mine, left.get(row.id, set())), result=row.result,
                         deadline=_aware(row.deadline).astimezone(UTC).isoformat()
                         if live and row.deadline is not None else None)
            entries.append(entry)
    turn = sorted((e for e in entries if e["your_turn"]), key=_time_left)
    running = sorted((e for e in entries if e["status"] == "running" and not e["your_turn"]), key=_time_left)
    done = [e for e in entries if e["status"] == "finished"][:finished]
    return turn + running + done


def statistics(service: GameService, user_id: int) -> dict[str, Any]:
    """Games played (finished) and won per player count, running games, and the account's ratings
    (``rating``: the shown rating, mu - 3 sigma, as on the leaderboard; ``provisional``: fewer than
    ratings.PROVISIONAL_GAMES rated games, shown as provisional).

    A game where the account holds more than one seat (hot-seat) counts in neither; a game it left
    counts as played, not won, whatever the stand-in did.
    """
    with service.sessions() as session:
        seats, left, rows = _held(session, user_id)
        ratings = session.scalars(select(RatingRow).where(RatingRow.user_id == user_id)
                                  .order_by(RatingRow.players)).all()
    played = {str(n): {"played": 0, "won": 0} for n in (2, 3, 4)}
    running = 0
    for row in rows:
        mine = seats[row.id]
        if len(mine) != 1:
            continue
        if row.status == "running":
            running += 1
        elif row.status == "finished":
            played[str(row.players)]["played"] += 1
            played[str(row.players)]["won"] += int(bool(_won(row.result, mine, left.get(row.id, set()))))
    return {"by_players": played, "running": running,
            "ratings": [{"players": r.players, "rating": shown(r.mu, r.sigma), "mu": r.mu, "sigma": r.sigma,
                         "games": r.games, "provisional": provisional("person", r.games),
                         "updated_at": _aware(r.updated_at).isoformat()} for r in ratings]}


def account_view(user: UserRow) -> dict[str, Any]:
    return {"id": user.id, "name": user.name, "language": user.language,
            "created_at": _aware(user.created_at).isoformat()}
