"""Challenges: a signed-in person invites another account, by name, to a game with its settings.

The challenged person sees it in the lobby and accepts or declines it; the challenger may withdraw it while it
is open. An open challenge expires :data:`EXPIRY` after it was made. Accepting makes the game through the same
:meth:`~.service.GameService.create` as the lobby's POST /api/games, so every rule of game creation applies
(a rated game at the defaults, the advanced game unrated...): the challenger holds seat 0, the challenged seat
1, both by account, and bots any others (a 3- or 4-player game). One conditional UPDATE (open to answered)
decides between an accept, a decline and a withdrawal sent at once, in any process. An accept is claimed before
its game is made: one whose process was killed in between leaves an accepted challenge with no game, which
counts as open again after :data:`STALE_ACCEPT`.

A block either way refuses a challenge with the same answer as the challenged person's full list of incoming
challenges (403 ``challenge_refused``), so a block is never given away. New challenges are rate-limited per
account (``RateLimits.challenge``); an account has at most :data:`OPEN_LIMIT` open challenges of its own and
takes at most :data:`INCOMING_LIMIT` open ones. The e-mail and push messages telling the challenged person
are queued in the outbox in the transaction that stores the challenge (:meth:`.notify.Notifier.challenge`).
docs/web.md, "Challenges", describes the routes.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import and_, func, or_, select, update
from sqlalchemy.orm import Session

from . import outbox
from .db import ChallengeRow, UserRow
from .errors import GameError
from .friends import _lock_account, _person, blocked_between
from .i18n import _
from .notify import Notifier
from .service import GameService

EXPIRY = timedelta(days=3)
"""How long a challenge stays open."""
OPEN_LIMIT = 20
"""The most open challenges one account has made."""
INCOMING_LIMIT = 50
"""The most open challenges one account is sent."""
SHOWN_ANSWERED = timedelta(days=1)
"""How long the challenger's list keeps a challenge that was answered (with its game, if accepted)."""
STALE_ACCEPT = timedelta(minutes=2)
"""An accept that made no game within this (its process was killed between the claim and the game) is undone:
the challenge counts as open again."""


def _now() -> datetime:
    """The time challenges expire by (a test sets it)."""
    return datetime.now(UTC)


def _aware(moment: datetime) -> datetime:
    """SQLite hands back naive datetimes: they were stored in UTC."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _open(now: datetime) -> Any:
    """SQL: the challenge is open (expired or not), or its accept is stale (:data:`STALE_ACCEPT`)."""
    return or_(ChallengeRow.status == "open", and_(ChallengeRow.status == "accepted", ChallengeRow.game_id.is_(None),
                                                   ChallengeRow.answered_at <= now - STALE_ACCEPT))


def _is_open(row: ChallengeRow, now: datetime) -> bool:
    """:func:`_open` of a row read."""
    return row.status == "open" or (row.status == "accepted" and row.game_id is None and row.answered_at is not None
                                    and _aware(row.answered_at) <= now - STALE_ACCEPT)


def _open_count(session: Session, column: Any, user_id: int, now: datetime) -> int:
    return int(session.scalar(select(func.count()).select_from(ChallengeRow).where(
        column == user_id, _open(now), ChallengeRow.expires_at > now)) or 0)


def create(service: GameService, notifier: Notifier, user_id: int, name: str, settings: dict[str, Any],
           count: Callable[[], Any]) -> int:
    """Challenge the person named ``name`` to a game with ``settings`` (the fields of POST /api/games that a
    challenge keeps, with ``players`` and the ``bots`` of seats 2 and 3, checked for shape by the route); returns
    the challenge's id.

    ``count()`` is called once before it is stored (the per-account rate limit: it raises 429). Errors: 422
    ``invalid_name``, 422 ``invalid_request`` (not ``players - 2`` bots, or no such first player), 404 ``unknown_player``, 422
    ``challenge_self``, 403 ``challenge_refused`` (a block either
    way, or their incoming challenges are full: the answer does not say which), 409 ``already_challenged`` (an
    open challenge of yours to them), 409 ``too_many_challenges`` (at :data:`OPEN_LIMIT`).
    """
    players, bots = settings.get("players", 2), settings.get("bots", [])
    if len(bots) != players - 2:
        raise GameError(422, "invalid_request", _("give one bot per seat after the second: {n} for {players} "
                                                  "players", n=players - 2, players=players))
    if not 0 <= settings.get("first_player", 0) < players:
        raise GameError(422, "invalid_request", _("first_player must be a seat from 0 to {last}", last=players - 1))
    with service.sessions() as session:
        target = _person(session, name)
        if target.id == user_id:
            raise GameError(422, "challenge_self", _("you cannot challenge yourself"))
    count()
    now = _now()
    with service.sessions.begin() as session:
        _lock_account(session, user_id)
        me = session.get(UserRow, user_id)
        if me is None:
            raise GameError(401, "sign_in_required", _("sign in first"))
        if blocked_between(session, user_id, target.id) or \
                _open_count(session, ChallengeRow.challenged_id, target.id, now) >= INCOMING_LIMIT:
            raise GameError(403, "challenge_refused", _("{name} cannot take your challenge", name=target.name))
        if session.scalar(select(ChallengeRow.id).where(
                ChallengeRow.challenger_id == user_id, ChallengeRow.challenged_id == target.id,
                _open(now), ChallengeRow.expires_at > now)) is not None:
            raise GameError(409, "already_challenged", _("your challenge to {name} is open already: withdraw it "
                                                         "first", name=target.name))
        if _open_count(session, ChallengeRow.challenger_id, user_id, now) >= OPEN_LIMIT:
            raise GameError(409, "too_many_challenges", _("you have {limit} open challenges, the most there can be: "
                                                          "withdraw one first", limit=OPEN_LIMIT))
        row = ChallengeRow(challenger_id=user_id, challenged_id=target.id, settings=settings, status="open",
                           created_at=now, expires_at=now + EXPIRY)
        session.add(row)
        session.flush()
        outbox.queue(session.connection(), notifier.challenge(session, row.id, me.name, target.id, now + EXPIRY), now)
        return row.id


def _answer(service: GameService, challenge_id: int, user_id: int, status: str) -> ChallengeRow:
    """Move challenge ``challenge_id`` from open to ``status``: the challenged person's (accepted, declined) or
    the challenger's (withdrawn). 404 ``unknown_challenge`` for one that is not theirs to answer, 410
    ``challenge_expired``, 409 ``challenge_answered``."""
    now = _now()
    mine = ChallengeRow.challenger_id if status == "withdrawn" else ChallengeRow.challenged_id
    with service.sessions.begin() as session:
        row = session.scalar(select(ChallengeRow).where(ChallengeRow.id == challenge_id, mine == user_id))
        if row is None:
            raise GameError(404, "unknown_challenge", _("you have no such challenge"))
        if _is_open(row, now) and _aware(row.expires_at) <= now:
            raise GameError(410, "challenge_expired", _("this challenge expired: it was open for {days} days",
                                                        days=EXPIRY.days))
        moved = session.execute(update(ChallengeRow).where(ChallengeRow.id == challenge_id, _open(now))
                                .values(status=status, answered_at=now).execution_options(synchronize_session=False))
        if not getattr(moved, "rowcount", 0):
            raise GameError(409, "challenge_answered", _("this challenge was answered or withdrawn already"))
        session.expunge(row)
        return row


def accept(service: GameService, challenge_id: int, user_id: int) -> str:
    """The challenged person accepts: the game is made with the challenge's settings, the challenger at seat 0
    and the challenged at seat 1, both held by their accounts, bots at the others; returns its id. Errors of :func:`_answer`, and
    those of game creation (the challenge then stays open, to be declined or withdrawn)."""
    row = _answer(service, challenge_id, user_id, "accepted")
    try:
        with service.sessions() as session:
            challenger, challenged = session.get(UserRow, row.challenger_id), session.get(UserRow, user_id)
            if challenger is None or challenged is None:
                raise GameError(409, "challenge_answered", _("this challenge was answered or withdrawn already"))
            names = challenger.name, challenged.name
        settings = dict(row.settings)
        bots = [{"kind": "bot", "bot": level} for level in settings.get("bots", [])]
        game, tokens = service.create(
            settings.get("players", 2), settings.get("variant", "standard"),
            [{"kind": "human"}, {"kind": "human"}, *bots],
            first_player=settings.get("first_player", 0), hints=settings.get("hints", False),
            memory=settings.get("memory", False), time_limit=settings.get("time_limit"),
            stand_in=settings["stand_in"], rated=settings.get("rated", False), user_id=row.challenger_id,
            user_name=names[0], edition=settings.get("edition", "first"), options=settings.get("options") or {},
            mode=settings.get("mode", "standard"))
        service.claim_invite(game.id, tokens[1], user_id, names[1])
    except GameError:
        with service.sessions.begin() as session:  # nothing was made: the challenge is open again
            session.execute(update(ChallengeRow).where(ChallengeRow.id == challenge_id)
                            .values(status="open", answered_at=None))
        raise
    with service.sessions.begin() as session:
        session.execute(update(ChallengeRow).where(ChallengeRow.id == challenge_id).values(game_id=game.id))
    return game.id


def decline(service: GameService, challenge_id: int, user_id: int) -> None:
    """The challenged person declines; errors of :func:`_answer`."""
    _answer(service, challenge_id, user_id, "declined")


def withdraw(service: GameService, challenge_id: int, user_id: int) -> None:
    """The challenger withdraws an open challenge; errors of :func:`_answer`."""
    _answer(service, challenge_id, user_id, "withdrawn")


def challenges_view(service: GameService, user_id: int) -> dict[str, Any]:
    """The account's challenges: ``incoming``, the open ones sent to it (oldest first), and ``outgoing``, its own
    open ones and those answered in the last :data:`SHOWN_ANSWERED` (newest first). Each
    ``{"id", "from", "to", "settings", "status", "created_at", "expires_at", "game"}``: ``status`` open,
    accepted, declined, withdrawn or expired; ``game`` the id of the game an accepted one made, else None."""
    now = _now()
    with service.sessions() as session:
        rows = session.scalars(select(ChallengeRow).where(
            or_(ChallengeRow.challenged_id == user_id, ChallengeRow.challenger_id == user_id),
            or_(_open(now), ChallengeRow.answered_at >= now - SHOWN_ANSWERED),
            ChallengeRow.expires_at > now - SHOWN_ANSWERED).order_by(ChallengeRow.id)).all()
        ids = {row.challenger_id for row in rows} | {row.challenged_id for row in rows}
        names: dict[int, str] = {user: name for user, name in session.execute(
            select(UserRow.id, UserRow.name).where(UserRow.id.in_(ids)))}
    incoming, outgoing = [], []
    for row in rows:
        is_open = _is_open(row, now)
        expired = is_open and _aware(row.expires_at) <= now
        entry = {"id": row.id, "from": names.get(row.challenger_id, "?"), "to": names.get(row.challenged_id, "?"),
                 "settings": row.settings, "status": "expired" if expired else "open" if is_open else row.status,
                 "created_at": _aware(row.created_at), "expires_at": _aware(row.expires_at), "game": row.game_id}
        if row.challenger_id == user_id:
            outgoing.append(entry)
        elif is_open and not expired:
            incoming.append(entry)
    outgoing.reverse()
    return {"incoming": incoming, "outgoing": outgoing, "expiry_days": EXPIRY.days, "open_limit": OPEN_LIMIT}
