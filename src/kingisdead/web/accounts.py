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

Other modules use :func:`current_user` and :func:`signed_in_user` as FastAPI
dependencies, and :func:`user_of_socket` for a WebSocket's upgrade request.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import secrets
import unicodedata
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Annotated, Any, Literal
from urllib.parse import urlsplit

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from fastapi import APIRouter, Depends, Query, Request, Response
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import delete, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session
from starlette.requests import HTTPConnection

from .db import (
    GameRow,
    NotificationSettingsRow,
    OutboxRow,
    PushSubscriptionRow,
    RatingRow,
    SeatRow,
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
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})

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


def _service(connection: HTTPConnection) -> GameService:
    service: GameService = connection.app.state.service
    return service


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


def current_user(request: Request) -> UserRow | None:
    """FastAPI dependency: the signed-in account of the request's session cookie, or None.

    Raises GameError 403 ``not_json`` for a request that carries the cookie and
    changes something (not GET/HEAD/OPTIONS) without ``Content-Type:
    application/json``: that is how a forged cross-site form would look.
    """
    if hasattr(request.state, "user"):
        cached: UserRow | None = request.state.user
        return cached
    secret = request.cookies.get(SESSION_COOKIE)
    user = None
    if secret:
        _refuse_forged(request)
        user = user_for_secret(_service(request), secret)
    request.state.user = user
    return user


def _refuse_forged(request: Request) -> None:
    """GameError 403 ``not_json`` for a request that changes something without saying it is JSON."""
    if request.method not in SAFE_METHODS and not _is_json(request.headers.get("content-type", "")):
        raise GameError(403, "not_json", _("a signed-in request that changes something must be sent with "
                                           "Content-Type: application/json"))


def signed_in_user(user: Annotated[UserRow | None, Depends(current_user)]) -> UserRow:
    """FastAPI dependency: the signed-in account; GameError 401 ``sign_in_required`` if none."""
    if user is None:
        raise GameError(401, "sign_in_required", _("sign in first"))
    return user


def user_of_socket(connection: HTTPConnection, public_url: str) -> UserRow | None:
    """The account of a WebSocket's session cookie, or None. The cookie counts only when the page that
    opened the socket is this server's (its Origin is the public URL's or the Host asked for): WebSockets
    ignore the same-origin policy, and SameSite does not stop a page of another origin on the same site
    (a sibling subdomain), which could otherwise open a socket that acts for the player."""
    secret = connection.cookies.get(SESSION_COOKIE)
    if not secret:
        return None
    origin = connection.headers.get("origin")
    if origin is not None:
        host = urlsplit(origin).netloc.lower()
        if host not in {urlsplit(public_url).netloc.lower(), connection.headers.get("host", "").lower()}:
            return None
    return user_for_secret(_service(connection), secret)


def _is_json(content_type: str) -> bool:
    kind = content_type.split(";", 1)[0].strip().lower()
    return kind == "application/json" or (kind.startswith("application/") and kind.endswith("+json"))


def _client(request: Request) -> str:
    return request.client.host if request.client else "unknown"


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
        return int(session.execute(query).rowcount)


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
    address), and the ratings (the account leaves the leaderboard). What stays: the games and their moves,
    under the anonymous name, the rating changes of finished games (other players' ratings were computed
    with them), and the outbox rows' hashed addresses and times, which the per-address limits count (a
    deleted account must not free an address for more confirmation links). Returns the anonymous name, the ids of
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
        for table in (UserSessionRow, NotificationSettingsRow, PushSubscriptionRow, RatingRow):
            session.execute(delete(table).where(table.user_id == user.id))
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


# -- the API --------------------------------------------------------------------------------


class SignIn(BaseModel):
    model_config = ConfigDict(strict=True)  # no coercion: 0 is not false, "1" not 1

    name: str = Field(max_length=200, description="3 to 40 characters; unique ignoring case")
    password: str = Field(max_length=1000, description="8 to 128 characters")


class SignUp(BaseModel):
    """The lengths are checked by :func:`account_name` and :func:`_check_password` (422 ``invalid_name``,
    ``invalid_password``); the schema states them."""

    model_config = ConfigDict(strict=True)  # no coercion: 0 is not false, "1" not 1

    name: str = Field(max_length=200, json_schema_extra={"minLength": NAME_LENGTH[0], "maxLength": NAME_LENGTH[1],
                                                         "pattern": NAME_PATTERN},
                      description="3 to 40 characters, with a letter or digit, no control character and no colon, "
                                  "not ending in ' bot'; unique ignoring case")
    password: str = Field(max_length=1000, json_schema_extra={"minLength": PASSWORD_LENGTH[0],
                                                              "maxLength": PASSWORD_LENGTH[1]},
                          description="8 to 128 characters")


class AccountChange(BaseModel):
    model_config = ConfigDict(strict=True)  # no coercion: 0 is not false, "1" not 1

    language: Literal["en", "fr", "de"] | None = Field(
        description="the preferred interface language, or null to follow the browser's")


class PasswordChange(BaseModel):
    model_config = ConfigDict(strict=True)  # no coercion: 0 is not false, "1" not 1

    current: str = Field(max_length=1000, description="the password now")
    new: str = Field(max_length=1000, json_schema_extra={"minLength": PASSWORD_LENGTH[0],
                                                         "maxLength": PASSWORD_LENGTH[1]},
                     description="8 to 128 characters")


class PasswordCheck(BaseModel):
    model_config = ConfigDict(strict=True)  # no coercion: 0 is not false, "1" not 1

    password: str = Field(max_length=1000, description="the account's password, to confirm")


class SessionsEnded(BaseModel):
    sessions_ended: int = Field(description="how many signed-in browsers were signed out")


class Deleted(BaseModel):
    name: str = Field(description="the anonymous name the account's games show from now on")
    games_left: int = Field(description="running games whose seats the stand-in bot now plays")


SignedIn = Annotated[UserRow, Depends(signed_in_user)]
"""A route parameter of this type is the signed-in account (401 ``sign_in_required`` if none)."""
Account = Annotated[UserRow | None, Depends(current_user)]
"""A route parameter of this type is the signed-in account, or None for a guest."""


def _secure(request: Request) -> bool:
    """Whether the session cookie is marked Secure: always, but in plain-http LAN mode (``app.state.lan``)."""
    return not getattr(request.app.state, "lan", False)


def _set_cookie(response: Response, secret: str, request: Request) -> None:
    response.set_cookie(SESSION_COOKIE, secret, max_age=SESSION_MAX_DAYS * 86400, path="/", secure=_secure(request),
                        httponly=True, samesite="lax")


def _sign_out(response: Response, request: Request) -> None:
    response.delete_cookie(SESSION_COOKIE, path="/", secure=_secure(request), httponly=True, samesite="lax")


async def _with_password(request: Request, check: Any, *args: Any) -> Any:
    """``check(*args)`` in a worker thread, counted as a password attempt of the address (429 once at its
    limit, as for sign-in); only a wrong password (GameError ``wrong_credentials``) stays counted."""
    limiter = request.app.state.limiter
    hit = await asyncio.to_thread(limiter.hit, "sign_in", _client(request))
    try:
        result = await asyncio.to_thread(check, *args)
    except GameError as exc:
        if exc.code != "wrong_credentials":  # a new password too short: no guess was made
            await asyncio.to_thread(limiter.refund, hit)
        raise
    await asyncio.to_thread(limiter.refund, hit)
    return result


def router(errors: Any) -> APIRouter:
    """The account endpoints under /api/account; ``errors``: the app's OpenAPI error entries maker."""
    api = APIRouter(prefix="/api/account", tags=["account"])
    said = {401: "not signed in, or (sign-in) a wrong name or password",
            403: "a signed-in request that changes something was not sent as JSON",
            409: "the name is taken"}

    def errors_of(*statuses: int) -> dict[int | str, dict[str, Any]]:
        entries = errors(*statuses)
        for status, description in said.items():
            if status in entries:
                entries[status] = {**entries[status], "description": description}
        return entries

    @api.post("/sign-up", status_code=201, summary="Create an account and sign in", responses=errors_of(403, 409, 429))
    async def sign_up(body: SignUp, request: Request, response: Response) -> dict[str, Any]:
        """Sets the session cookie. 422 ``invalid_name`` / ``invalid_password``, 409 ``name_taken``."""
        await asyncio.to_thread(request.app.state.limiter.hit, "sign_up", _client(request))
        service = _service(request)
        user = await asyncio.to_thread(create_account, service, body.name, body.password)
        secret = await asyncio.to_thread(start_session, service, user.id, request.cookies.get(SESSION_COOKIE))
        _set_cookie(response, secret, request)
        return account_view(user)

    @api.post("/sign-in", summary="Sign in with a name and password", responses=errors_of(401, 429))
    async def sign_in(body: SignIn, request: Request, response: Response) -> dict[str, Any]:
        """Sets the session cookie. 401 ``wrong_credentials`` whether the name or the password is wrong;
        wrong attempts count towards the address's limit (429 once at it, the password unchecked)."""
        limiter = request.app.state.limiter
        # counted before the password is checked, so that attempts sent at once cannot pass the limit
        hit = await asyncio.to_thread(limiter.hit, "sign_in", _client(request))
        service = _service(request)
        user = await asyncio.to_thread(check_password, service, body.name, body.password)
        if user is None:
            raise GameError(401, "wrong_credentials", _("wrong name or password"))
        await asyncio.to_thread(limiter.refund, hit)  # only wrong passwords count
        secret = await asyncio.to_thread(start_session, service, user.id, request.cookies.get(SESSION_COOKIE))
        _set_cookie(response, secret, request)
        return account_view(user)

    @api.post("/sign-out", status_code=204, summary="Sign out: this browser's session ends",
              response_class=Response, responses=errors_of(403))
    async def sign_out(request: Request) -> Response:
        """Deletes the session and the cookie; signing out when not signed in does nothing."""
        secret = request.cookies.get(SESSION_COOKIE)
        if secret:
            _refuse_forged(request)
            await asyncio.to_thread(end_session, _service(request), secret)
        response = Response(status_code=204)
        _sign_out(response, request)
        return response

    @api.post("/sign-out-everywhere", summary="Sign out on every browser, this one included",
              responses=errors_of(401, 403))
    async def sign_out_everywhere(user: SignedIn, request: Request, response: Response) -> SessionsEnded:
        """Ends every session of the account (a browser lost or left signed in elsewhere) and deletes this
        browser's cookie. 401 ``sign_in_required``."""
        ended = await asyncio.to_thread(end_sessions, _service(request), user.id)
        _sign_out(response, request)
        return SessionsEnded(sessions_ended=ended)

    @api.post("/password", summary="Change your password: your other browsers are signed out",
              responses=errors_of(401, 403, 429))
    async def password(body: PasswordChange, user: SignedIn, request: Request) -> SessionsEnded:
        """Needs the current password (401 ``wrong_credentials``, counted as a wrong sign-in: 429 once at the
        address's limit); 422 ``invalid_password`` for a new one of the wrong length. This browser stays
        signed in; every other session ends."""
        ended = await _with_password(request, change_password, _service(request), user, body.current, body.new,
                                     request.cookies.get(SESSION_COOKIE))
        return SessionsEnded(sessions_ended=ended)

    @api.delete("", summary="Delete your account: your games stay, under an anonymous name",
                responses=errors_of(401, 403, 429))
    async def delete_it(body: PasswordCheck, user: SignedIn, request: Request, response: Response) -> Deleted:
        """Needs the password (401 ``wrong_credentials``, counted as a wrong sign-in). The account's name
        becomes anonymous in it and in its games, which stay; its sessions, e-mail settings, push
        subscriptions, queued messages and ratings (it leaves the leaderboard) are deleted; the seats it held
        in running games are left (the stand-in bot finishes them). Signs this browser out."""
        from .clocks import leave  # clocks' routes depend on this module

        state = request.app.state
        name, held, running = await _with_password(request, delete_account, _service(request), user,
                                                   body.password)
        for game_id in held:
            state.service.forget(game_id)  # its seats' names changed
        for game_id, seat in running:
            try:
                await asyncio.to_thread(leave, state.service, game_id, seat)
            except GameError:  # over or left meanwhile
                continue
            state.runner.kick(game_id)
            await state.hub.broadcast(game_id)
        _sign_out(response, request)
        return Deleted(name=name, games_left=len(running))

    @api.get("", summary="Your account and statistics", responses=errors_of(401))
    async def account(user: SignedIn, request: Request) -> dict[str, Any]:
        """Your name and language, games played and won per player count (``by_players``), and your
        ratings per player count (4: 2-vs-2 teams). Only ever the signed-in player's own."""
        return {**account_view(user), **await asyncio.to_thread(statistics, _service(request), user.id)}

    @api.patch("", summary="Change your preferred language", responses=errors_of(401, 403))
    async def change(body: AccountChange, user: SignedIn, request: Request) -> dict[str, Any]:
        return account_view(await asyncio.to_thread(set_language, _service(request), user.id, body.language))

    @api.get("/games", summary="Your games: your turn first, by time left, then running, then finished",
             responses=errors_of(401))
    async def games(user: SignedIn, request: Request,
                    finished: Annotated[int, Query(ge=0, le=100, description="finished games listed")] = 20
                    ) -> dict[str, Any]:
        """Each game as in GET /api/games, plus ``your_seats``, ``your_turn``, ``deadline`` (ISO 8601 UTC: when
        the seat to move runs out of time; null without a clock running) and ``won`` and ``result`` (the ending,
        winners, ruler and reason; both null while the game runs). Running games where you are to move come
        first, then your other running games, each by time left (the soonest deadline first, then those without
        one, most recently changed first); then finished ones, most recent first."""
        return {"games": await asyncio.to_thread(my_games, _service(request), user.id, finished)}

    return api
