"""Challenges: a signed-in person invites one to three others, by name, to a game with its settings.

The challenger holds seat 0; each seat after it is a named person or a bot (a 3- or 4-player game may mix them).
Each challenged person sees it in the lobby and accepts or declines it; the challenger may withdraw it while it is
open. The game is made when every challenged person has accepted; one decline ends it for all. Who declined is
told to the challenger only: the others see that it was declined, and who had accepted (with one other person,
that says who). A person who accepted may still decline while the others have not all answered. An open challenge
expires :data:`EXPIRY` after it was made.

Accepting records the person's answer (:class:`~.db.ChallengeSeatRow`), then tries one conditional UPDATE on the
challenge (open, with every seat accepted, to accepted): of the last accepts sent at once, in any process, exactly
one moves it, and that one makes the game, through the same :meth:`~.service.GameService.create` as the lobby's
POST /api/games, so every rule of game creation applies (a rated game at the defaults, the advanced game
unrated...), each person's seat held by their account. The same UPDATE decides between an accept, a decline and a
withdrawal sent at once. An accept is claimed before its game is made, and the claim chooses the game's id
(``new_game_id``, kept by any later claim): a process killed before the game was made leaves an accepted
challenge with no game, which counts as open again after :data:`STALE_ACCEPT` (every seat accepted: any of them
accepting again makes the game); one killed after it leaves the game made under that id, so the challenge is not
open again and its game is that one (a second game with the same id could not be stored).

A block between any two of the people involved refuses a challenge with the same answer as a challenged person's
full list of incoming challenges (403 ``challenge_refused``), so a block is never given away. A block made later
ends the open challenges that name both accounts: they expire at once (:func:`expire_between`), and accepting
one is refused with that same answer. New challenges are
rate-limited per account (``RateLimits.challenge``); an account has at most :data:`OPEN_LIMIT` open challenges of
its own and takes at most :data:`INCOMING_LIMIT` open ones. The e-mail and push messages telling each challenged
person are queued in the outbox in the transaction that stores the challenge (:meth:`.notify.Notifier.challenge`).
docs/web.md, "Challenges", describes the routes.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import and_, func, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from . import outbox
from .db import ChallengeRow, ChallengeSeatRow, GameRow, UserRow
from .errors import GameError
from .friends import _lock_account, _person, blocked_within
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
"""How long a challenge that ended stays listed (with its game, if accepted): the challenger's, and those a
challenged person accepted."""
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
    """SQL: the challenge is open (expired or not), or its accept is stale (:data:`STALE_ACCEPT`: no game was made
    under its ``new_game_id``)."""
    made = select(GameRow.id).where(GameRow.id == ChallengeRow.new_game_id).exists()
    return or_(ChallengeRow.status == "open", and_(ChallengeRow.status == "accepted", ChallengeRow.game_id.is_(None),
                                                   ChallengeRow.answered_at <= now - STALE_ACCEPT, ~made))


def _is_open(row: ChallengeRow, now: datetime, made: set[str]) -> bool:
    """:func:`_open` of a row read; ``made``: :func:`_made` of it."""
    return row.status == "open" or (row.status == "accepted" and row.game_id is None and row.answered_at is not None
                                    and _aware(row.answered_at) <= now - STALE_ACCEPT and row.new_game_id not in made)


def _made(session: Session, rows: list[ChallengeRow]) -> set[str]:
    """The ``new_game_id`` of those accepted ``rows`` with no game recorded whose game was made all the same (its
    accept's process killed before recording it, or recording it now): no query when there are none."""
    pending = [row.new_game_id for row in rows if row.status == "accepted" and row.game_id is None and row.new_game_id]
    return set(session.scalars(select(GameRow.id).where(GameRow.id.in_(pending)))) if pending else set()


def _game(row: ChallengeRow, made: set[str]) -> str | None:
    """The id of the challenge's game, or None if none was made."""
    return row.game_id or (row.new_game_id if row.new_game_id in made else None)


def _rowcount(result: Any) -> int:
    return int(getattr(result, "rowcount", 0) or 0)


def _open_count(session: Session, user_id: int, now: datetime) -> int:
    """How many open challenges the account has made."""
    return int(session.scalar(select(func.count()).select_from(ChallengeRow).where(
        ChallengeRow.challenger_id == user_id, _open(now), ChallengeRow.expires_at > now)) or 0)


def _incoming_counts(session: Session, people: list[int], now: datetime) -> dict[int, int]:
    """How many open challenges each of ``people`` (user ids) is sent (one query)."""
    return {user: int(count) for user, count in session.execute(
        select(ChallengeSeatRow.user_id, func.count()).join(ChallengeRow, ChallengeRow.id == ChallengeSeatRow.challenge_id)
        .where(ChallengeSeatRow.user_id.in_(people), _open(now), ChallengeRow.expires_at > now)
        .group_by(ChallengeSeatRow.user_id))}


def create(service: GameService, notifier: Notifier, user_id: int, seats: list[dict[str, str]],
           settings: dict[str, Any], count: Callable[[], Any]) -> int:
    """Challenge the people named in ``seats`` to a game with ``settings`` (the fields of POST /api/games that a
    challenge keeps, checked for shape by the route, ``bots`` left out); returns the challenge's id.

    ``seats``: the seats after the challenger's (seat 0), in order, each ``{"name": ...}`` (a person, ignoring
    case) or ``{"bot": level}``: ``players - 1`` of them, at least one a person, no one twice. ``count()`` is
    called once before it is stored (the per-account rate limit: it raises 429). Errors: 422 ``invalid_name``,
    422 ``invalid_request`` (not ``players - 1`` seats, no person, one twice, or no such first player), 404
    ``unknown_player``, 422 ``challenge_self``, 403 ``challenge_refused`` (a block between any two of the people,
    or a challenged person's incoming challenges are full: the answer does not say which), 409
    ``already_challenged`` (an open challenge of yours names one of them), 409 ``too_many_challenges`` (at
    :data:`OPEN_LIMIT`).
    """
    players = settings.get("players", 2)
    if len(seats) != players - 1:
        raise GameError(422, "invalid_request", _("give one seat after yours per other player: {n} for {players} "
                                                  "players", n=players - 1, players=players))
    if not 0 <= settings.get("first_player", 0) < players:
        raise GameError(422, "invalid_request", _("first_player must be a seat from 0 to {last}", last=players - 1))
    named = [(seat, spec["name"]) for seat, spec in enumerate(seats, 1) if "name" in spec]
    if not named:
        raise GameError(422, "invalid_request", _("a challenge names at least one person"))
    with service.sessions() as session:
        people = {seat: _person(session, name) for seat, name in named}
    ids = [person.id for person in people.values()]
    if user_id in ids:
        raise GameError(422, "challenge_self", _("you cannot challenge yourself"))
    for number, person in enumerate(people.values()):
        if person.id in ids[:number]:
            raise GameError(422, "invalid_request", _("{name} is named for two seats", name=person.name))
    count()
    now = _now()
    stored = {**settings, "bots": [spec["bot"] for spec in seats if "name" not in spec]}
    with service.sessions.begin() as session:
        _lock_account(session, user_id)
        me = session.get(UserRow, user_id)
        if me is None:
            raise GameError(401, "sign_in_required", _("sign in first"))
        full = _incoming_counts(session, ids, now)
        if blocked_within(session, {user_id, *ids}) or any(full.get(person, 0) >= INCOMING_LIMIT for person in ids):
            names = [person.name for person in people.values()]
            raise GameError(403, "challenge_refused", _("{name} cannot take your challenge", name=names[0])
                            if len(names) == 1 else _("{names} cannot all take your challenge", names=", ".join(names)))
        taken = session.scalar(select(ChallengeSeatRow.user_id).join(ChallengeRow, ChallengeRow.id == ChallengeSeatRow.challenge_id)
                               .where(ChallengeRow.challenger_id == user_id, ChallengeSeatRow.user_id.in_(ids),
                                      _open(now), ChallengeRow.expires_at > now).limit(1))
        if taken is not None:
            raise GameError(409, "already_challenged", _("your challenge to {name} is open already: withdraw it "
                                                         "first", name=next(p.name for p in people.values() if p.id == taken)))
        if _open_count(session, user_id, now) >= OPEN_LIMIT:
            raise GameError(409, "too_many_challenges", _("you have {limit} open challenges, the most there can be: "
                                                          "withdraw one first", limit=OPEN_LIMIT))
        row = ChallengeRow(challenger_id=user_id, challenged_id=people[min(people)].id, settings=stored, status="open",
                           created_at=now, expires_at=now + EXPIRY)
        session.add(row)
        session.flush()
        session.add_all([ChallengeSeatRow(challenge_id=row.id, seat=seat, user_id=person.id, answer="open")
                         for seat, person in people.items()])
        for person in people.values():
            outbox.queue(session.connection(), notifier.challenge(session, row.id, me.name, person.id, now + EXPIRY),
                         now)
        return row.id


def _expired(row: ChallengeRow, now: datetime, made: set[str]) -> None:
    """410 ``challenge_expired`` for an open challenge past its time."""
    if _is_open(row, now, made) and _aware(row.expires_at) <= now:
        raise GameError(410, "challenge_expired", _("this challenge expired: it was open for {days} days",
                                                    days=EXPIRY.days))


def _answered() -> GameError:
    return GameError(409, "challenge_answered", _("this challenge was answered or withdrawn already"))


def expire_between(session: Session, a: int, b: int) -> None:
    """A block between accounts ``a`` and ``b`` (user ids) was made in ``session``'s transaction: the open
    challenges that name both of them (as the challenger or a person challenged) expire now."""
    now = _now()

    def naming(user: int) -> Any:
        return or_(ChallengeRow.challenger_id == user, ChallengeRow.id.in_(
            select(ChallengeSeatRow.challenge_id).where(ChallengeSeatRow.user_id == user)))

    session.execute(update(ChallengeRow).where(naming(a), naming(b), _open(now), ChallengeRow.expires_at > now)
                    .values(expires_at=now).execution_options(synchronize_session=False))


def _sent_to(session: Session, challenge_id: int, user_id: int) -> tuple[ChallengeRow, ChallengeSeatRow]:
    """The challenge and the account's seat in it; 404 ``unknown_challenge`` if it names no such person."""
    found = session.execute(select(ChallengeRow, ChallengeSeatRow)
                            .join(ChallengeSeatRow, ChallengeSeatRow.challenge_id == ChallengeRow.id)
                            .where(ChallengeRow.id == challenge_id, ChallengeSeatRow.user_id == user_id)).first()
    if found is None:
        raise GameError(404, "unknown_challenge", _("you have no such challenge"))
    return found[0], found[1]


def accept(service: GameService, challenge_id: int, user_id: int) -> tuple[str | None, int]:
    """A challenged person accepts: ``(game, seat)``, their seat, and the id of the game if theirs was the last
    accept (None while others have still to answer). Accepting again while waiting changes nothing.

    The game is made with the challenge's settings, each person's seat held by their account, bots at the
    others. Errors: 404 ``unknown_challenge`` (it names no such person), 403 ``challenge_refused`` (a block
    between any two of its people, the challenger included: the answer given when a challenge is made), 410
    ``challenge_expired``, 409 ``challenge_answered`` (declined, withdrawn, or accepted by all already), and those
    of game creation (the challenge then stays open, the accept undone, to be accepted again, declined or
    withdrawn).
    """
    now = _now()
    with service.sessions.begin() as session:
        row, mine = _sent_to(session, challenge_id, user_id)
        made = _made(session, [row])
        if _is_open(row, now, made):
            people = set(session.scalars(select(ChallengeSeatRow.user_id).where(
                ChallengeSeatRow.challenge_id == challenge_id)))
            if blocked_within(session, {row.challenger_id, *people}):
                raise GameError(403, "challenge_refused", _("this challenge can no longer be taken"))
        _expired(row, now, made)
        if not _is_open(row, now, made) or mine.answer == "declined":
            raise _answered()
        seat = mine.seat
        session.execute(update(ChallengeSeatRow).where(
            ChallengeSeatRow.challenge_id == challenge_id, ChallengeSeatRow.seat == seat,
            ChallengeSeatRow.answer == "open").values(answer="accepted", answered_at=now))
        session.expunge(row)
    game_id = _claim(service, challenge_id, now)
    if game_id is None:
        return None, seat  # others have still to accept, or another last accept makes the game
    try:
        _make_game(service, row, game_id)
    except GameError:
        with service.sessions.begin() as session:  # nothing was made: the challenge is open again
            session.execute(update(ChallengeRow).where(ChallengeRow.id == challenge_id)
                            .values(status="open", answered_at=None))
            session.execute(update(ChallengeSeatRow).where(ChallengeSeatRow.challenge_id == challenge_id,
                                                           ChallengeSeatRow.seat == seat)
                            .values(answer="open", answered_at=None))
        raise
    with service.sessions.begin() as session:
        session.execute(update(ChallengeRow).where(ChallengeRow.id == challenge_id).values(game_id=game_id))
    return game_id, seat


def _claim(service: GameService, challenge_id: int, now: datetime) -> str | None:
    """The id of the game to make if this accept makes it, else None: one conditional UPDATE moves the challenge
    from open to accepted if every seat has accepted, choosing the game's id (``new_game_id``) unless a claim
    before it, killed, chose it already. It runs after the accept's own answer was committed, so that of two last
    accepts at once the later one's UPDATE sees both answers (and the row's lock lets only one of them move it).
    409 ``challenge_answered`` if it was declined or withdrawn meanwhile, or an account deleted."""
    with service.sessions.begin() as session:
        waiting = select(ChallengeSeatRow.seat).where(ChallengeSeatRow.challenge_id == challenge_id,
                                                      ChallengeSeatRow.answer != "accepted")
        claimed = session.execute(update(ChallengeRow).where(
            ChallengeRow.id == challenge_id, _open(now), ChallengeRow.expires_at > now, ~waiting.exists())
            .values(status="accepted", answered_at=now,
                    new_game_id=func.coalesce(ChallengeRow.new_game_id, secrets.token_urlsafe(8)))
            .execution_options(synchronize_session=False))
        if _rowcount(claimed):
            return session.scalar(select(ChallengeRow.new_game_id).where(ChallengeRow.id == challenge_id))
        if session.scalar(select(ChallengeRow.status).where(ChallengeRow.id == challenge_id)) not in ("open",
                                                                                                     "accepted"):
            raise _answered()
        return None


def _make_game(service: GameService, row: ChallengeRow, game_id: str) -> None:
    """Make the game of a challenge every person accepted, with id ``game_id``: the challenger at seat 0, each
    person at their seat, held by their account from the start (one transaction: a game is never made with its
    seats not yet held), bots at the others. A game of that id made already (by an accept whose process was killed
    before recording it, or by another claim after that) is the one: nothing is made then."""
    with service.sessions() as session:
        challenger = session.get(UserRow, row.challenger_id)
        people = {seat: (user, name) for seat, user, name in session.execute(
            select(ChallengeSeatRow.seat, UserRow.id, UserRow.name).join(UserRow, UserRow.id == ChallengeSeatRow.user_id)
            .where(ChallengeSeatRow.challenge_id == row.id))}
    if challenger is None:
        raise _answered()
    settings = dict(row.settings)
    players = settings.get("players", 2)
    bots = iter(settings.get("bots", []))
    seats = [{"kind": "human"}, *({"kind": "human", "user_id": people[seat][0], "name": people[seat][1]}
                                  if seat in people else {"kind": "bot", "bot": next(bots)}
                                  for seat in range(1, players))]
    try:
        service.create(
            players, settings.get("variant", "standard"), seats,
            first_player=settings.get("first_player", 0), hints=settings.get("hints", False),
            memory=settings.get("memory", False), time_limit=settings.get("time_limit"),
            stand_in=settings["stand_in"], rated=settings.get("rated", False), user_id=row.challenger_id,
            user_name=challenger.name, edition=settings.get("edition", "first"),
            options=settings.get("options") or {}, mode=settings.get("mode", "standard"), game_id=game_id)
    except IntegrityError:
        with service.sessions() as session:
            if session.get(GameRow, game_id) is None:  # another constraint: not the game made already
                raise


def decline(service: GameService, challenge_id: int, user_id: int) -> None:
    """A challenged person declines (whether or not they accepted before): the challenge ends for all. Errors:
    404 ``unknown_challenge``, 410 ``challenge_expired``, 409 ``challenge_answered``."""
    now = _now()
    with service.sessions.begin() as session:
        row, mine = _sent_to(session, challenge_id, user_id)
        _expired(row, now, _made(session, [row]))
        moved = session.execute(update(ChallengeRow).where(ChallengeRow.id == challenge_id, _open(now))
                                .values(status="declined", answered_at=now).execution_options(synchronize_session=False))
        if not _rowcount(moved):
            raise _answered()
        session.execute(update(ChallengeSeatRow).where(ChallengeSeatRow.challenge_id == challenge_id,
                                                       ChallengeSeatRow.seat == mine.seat)
                        .values(answer="declined", answered_at=now))


def withdraw(service: GameService, challenge_id: int, user_id: int) -> None:
    """The challenger withdraws an open challenge. Errors: 404 ``unknown_challenge`` (not theirs), 410
    ``challenge_expired``, 409 ``challenge_answered``."""
    now = _now()
    with service.sessions.begin() as session:
        row = session.scalar(select(ChallengeRow).where(ChallengeRow.id == challenge_id,
                                                        ChallengeRow.challenger_id == user_id))
        if row is None:
            raise GameError(404, "unknown_challenge", _("you have no such challenge"))
        _expired(row, now, _made(session, [row]))
        moved = session.execute(update(ChallengeRow).where(ChallengeRow.id == challenge_id, _open(now))
                                .values(status="withdrawn", answered_at=now).execution_options(synchronize_session=False))
        if not _rowcount(moved):
            raise _answered()


def challenges_view(service: GameService, user_id: int) -> dict[str, Any]:
    """The account's challenges: ``incoming``, the open ones sent to it that it has not declined (oldest first);
    ``ended``, those it accepted that ended in the last :data:`SHOWN_ANSWERED` (the game made, or declined by
    another, withdrawn or expired; newest first); ``outgoing``, its own open ones and those that ended in the
    last :data:`SHOWN_ANSWERED` (newest first).

    Each ``{"id", "from", "to", "seats", "seat", "settings", "status", "created_at", "expires_at", "game"}``:
    ``to`` the first person challenged; ``seats`` every seat after the challenger's, ``{"seat", "name", "bot",
    "answer"}`` (a person: ``name`` and ``answer`` open, accepted or declined, told to the challenger only, None
    to the others; a bot: its level ``bot``); ``seat`` the account's own (0: the challenger); ``status`` open,
    accepted, declined, withdrawn or expired; ``game`` the id of the game an accepted one made, else None.
    """
    now = _now()
    with service.sessions() as session:
        sent_to_me = select(ChallengeSeatRow.challenge_id).where(ChallengeSeatRow.user_id == user_id)
        rows = session.scalars(select(ChallengeRow).where(
            or_(ChallengeRow.challenger_id == user_id, ChallengeRow.id.in_(sent_to_me)),
            or_(_open(now), ChallengeRow.answered_at >= now - SHOWN_ANSWERED),
            ChallengeRow.expires_at > now - SHOWN_ANSWERED).order_by(ChallengeRow.id)).all()
        seat_rows = session.scalars(select(ChallengeSeatRow).where(
            ChallengeSeatRow.challenge_id.in_([row.id for row in rows]))).all() if rows else []
        ids = {row.challenger_id for row in rows} | {seat.user_id for seat in seat_rows}
        names: dict[int, str] = {user: name for user, name in session.execute(
            select(UserRow.id, UserRow.name).where(UserRow.id.in_(ids)))} if ids else {}
        made = _made(session, list(rows))
    people: dict[int, dict[int, ChallengeSeatRow]] = {}
    for seat_row in seat_rows:
        people.setdefault(seat_row.challenge_id, {})[seat_row.seat] = seat_row
    incoming, ended, outgoing = [], [], []
    for row in rows:
        is_open = _is_open(row, now, made)
        expired = is_open and _aware(row.expires_at) <= now
        held = people.get(row.id, {})
        yours = row.challenger_id == user_id
        mine = next((seat for seat in held.values() if seat.user_id == user_id), None)
        bots = iter(row.settings.get("bots", []))
        seats = []
        for number in range(1, row.settings.get("players", 2)):
            person = held.get(number)
            if person is None:
                seats.append({"seat": number, "name": None, "bot": next(bots, None), "answer": None})
            else:
                told = yours or person is mine or person.answer != "declined"
                seats.append({"seat": number, "name": names.get(person.user_id, "?"), "bot": None,
                              "answer": person.answer if told else None})
        entry = {"id": row.id, "from": names.get(row.challenger_id, "?"), "to": names.get(row.challenged_id, "?"),
                 "seats": seats, "seat": 0 if yours or mine is None else mine.seat, "settings": row.settings,
                 "status": "expired" if expired else "open" if is_open else row.status,
                 "created_at": _aware(row.created_at), "expires_at": _aware(row.expires_at),
                 "game": _game(row, made)}
        if yours:
            outgoing.append(entry)
        elif mine is not None and is_open and not expired and mine.answer != "declined":
            incoming.append(entry)
        elif mine is not None and mine.answer == "accepted":
            ended.append(entry)
    outgoing.reverse()
    ended.reverse()
    return {"incoming": incoming, "ended": ended, "outgoing": outgoing, "expiry_days": EXPIRY.days,
            "open_limit": OPEN_LIMIT}
