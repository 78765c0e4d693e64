"""Turn-based Swiss tournaments: created by anyone signed in, entered until they start, then played round by round.

A tournament's games all have a slow clock (a day or three per move) and its stand-in bot. At ``starts_at`` the
background job (:func:`run_tournaments`, in every server process) starts it, or cancels it with fewer entrants
than a game's players. Each round is paired by :func:`kingisdead.web.pairing.pair_round` (Swiss by points, then
rating; the seats and first players drawn by ``random.Random(f"{seed}:{round}")``), its games are made, each
finished game's result is counted, and when the round's games have all been counted the next round is paired; a
game still running at the round's deadline (``round_days`` after its pairing) is adjudicated: the game's stand-in
bot plays out every seat's remaining moves at once (the move clock's own mechanism, for all seats). After the last
round the tournament is finished. Points: ``win`` for a seat among the winners when a game has one winner (or one
winning team of 4 players), ``shared`` for the winners when several players or teams stay tied, ``loss``
otherwise; a bye is worth ``win``.

Nothing is lost if a process is killed at any moment, and several processes on one PostgreSQL database do each
thing once:

- a round is paired once: its ``tournament_rounds`` row (primary key tournament and round) is inserted in the
  pairing's transaction with its tables and byes; a second pairer's insert fails and it rolls back;
- each table's game id is chosen at pairing and stored; the game is made with that id by whichever pass finds
  it missing (a second make of the same id fails on the key and counts as made), so a kill between the pairing
  and the games leaves tables whose games the next pass makes;
- a result is counted once: ``UPDATE tournament_tables SET counted_at ... WHERE counted_at IS NULL`` in the
  transaction that inserts the points; starting, finishing and adjudicating are conditional UPDATEs too;
- announcements (a round started, the tournament ended or was cancelled) are queued in the outbox in the
  transaction that decides them, under keys naming them (:meth:`.notify.Notifier.tournament`).

docs/web.md, "Tournaments", describes the rules and the routes.
"""

from __future__ import annotations

import asyncio
import logging
import os
import random
import secrets
from collections.abc import Callable, Iterable
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from sqlalchemy import func, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from ..bots import NETWORK_BOTS
from ..bots.master import TRAINED_EDITIONS
from . import outbox, pubsub
from .clocks import _holding
from .db import (
    GameRow,
    RatingRow,
    SeatRow,
    TournamentEntryRow,
    TournamentResultRow,
    TournamentRoundRow,
    TournamentRow,
    TournamentTableRow,
    UserRow,
)
from .errors import GameError
from .games import advanced_bot_names
from .i18n import Text, _
from .live_game import as_utc
from .notify import CONTROL, Notifier
from .outage import repeat
from .pairing import Entrant, pair_round, standings
from .ratings import rated_stand_ins, shown
from .service import GameService

if TYPE_CHECKING:
    from .live import BotRunner, Hub

log = logging.getLogger("kingisdead.web")

AHEAD = timedelta(days=90)
"""A tournament starts within this of its creation."""
SHOWN_FINISHED = timedelta(days=30)
"""How long a finished (or cancelled) tournament stays in the list."""
LISTED = 200
"""Tournaments listed at most."""
CHECK_EVERY = 5.0
"""Seconds between two passes of :func:`run_tournaments`, unless ``KINGISDEAD_TOURNAMENT_EVERY`` says otherwise
(:func:`check_every`)."""
POINTS = {"win": 2, "shared": 1, "loss": 0}
"""The default points of a game's places."""


def check_every() -> float:
    """Seconds between two passes of the job: ``KINGISDEAD_TOURNAMENT_EVERY`` (a positive number), else
    :data:`CHECK_EVERY`. ValueError for another value."""
    text = os.environ.get("KINGISDEAD_TOURNAMENT_EVERY")
    if not text:
        return CHECK_EVERY
    try:
        every = float(text)
    except ValueError:
        every = float("nan")
    if not every > 0:  # NaN too
        raise ValueError(f"KINGISDEAD_TOURNAMENT_EVERY must be a positive number of seconds, not {text!r}")
    return every


def _now() -> datetime:
    """The time tournaments start and rounds end by (a test sets it)."""
    return datetime.now(UTC)


def _aware(moment: datetime) -> datetime:
    return as_utc(moment) or moment


# -- creating, entering, leaving -----------------------------------------------------------------

def check_games(settings: dict[str, Any]) -> None:
    """Refuse settings whose games could not be made (the rules of game creation, :meth:`.games.GameStore.create`):
    422 ``invalid_request`` (the Mordred variant outside the first edition, the advanced game outside the second,
    a stand-in that cannot play the edition or the mode) or ``not_rateable`` (a rated advanced game, a rated
    game's stand-in stronger than allowed)."""
    edition, mode, stand_in = settings["edition"], settings["mode"], settings["stand_in"]
    if settings["variant"] == "mordred" and edition != "first":
        raise GameError(422, "invalid_request", _("the Mordred variant is the first edition's only: "
                                                  "choose the standard game"))
    if mode == "advanced" and edition != "second":
        raise GameError(422, "invalid_request", _("the advanced game (secret Cunning cards) is the second "
                                                  "edition's only"))
    if stand_in in NETWORK_BOTS and edition not in TRAINED_EDITIONS:
        raise GameError(422, "invalid_request", _("{bots} play only the first edition: no network has been "
                                                  "trained for the second yet (choose strong or max)", bots=stand_in))
    if mode == "advanced" and stand_in not in advanced_bot_names():
        raise GameError(422, "invalid_request", _("{bots} cannot play the advanced game: they would read "
                                                  "the secret hands (levels for it: {levels})",
                                                  bots=stand_in, levels=", ".join(advanced_bot_names())))
    if settings["rated"] and mode == "advanced":
        raise GameError(422, "not_rateable", _("the advanced game is not rated yet"))
    if settings["rated"] and stand_in not in rated_stand_ins():
        raise GameError(422, "not_rateable", _("the stand-in bot of a rated game plays at one of the levels "
                                               "{levels}", levels=", ".join(rated_stand_ins())))


def create(service: GameService, user_id: int, settings: dict[str, Any], count: Callable[[], Any]) -> int:
    """A new tournament with ``settings`` (POST /api/tournaments's fields, checked for shape by the route), made by
    account ``user_id``; returns its id. ``count()`` is called once before it is stored (the per-account rate
    limit: it raises 429). Errors: 422 ``invalid_request`` (a start in the past or more than :data:`AHEAD` away,
    points not ``win >= shared >= loss``, a name of blanks, and :func:`check_games`'s), 422 ``not_rateable``."""
    now = _now()
    starts_at = settings["starts_at"]
    starts_at = starts_at.astimezone(UTC) if starts_at.tzinfo is not None else starts_at.replace(tzinfo=UTC)
    if not now < starts_at <= now + AHEAD:
        raise GameError(422, "invalid_request", _("starts_at must be in the future, at most {days} days away",
                                                  days=AHEAD.days))
    points = settings["points"]
    if not points["win"] >= points["shared"] >= points["loss"]:
        raise GameError(422, "invalid_request", _("points: a win is worth at least a shared place, and a shared "
                                                  "place at least a loss"))
    name = " ".join(CONTROL.sub(" ", settings["name"]).split())  # one line: it is quoted in e-mails
    if len(name) < 3:
        raise GameError(422, "invalid_request", _("a tournament's name has 3 to 60 characters"))
    check_games(settings)
    count()
    with service.sessions.begin() as session:
        if session.get(UserRow, user_id) is None:
            raise GameError(401, "sign_in_required", _("sign in first"))
        row = TournamentRow(
            creator_id=user_id, name=name, edition=settings["edition"], variant=settings["variant"],
            mode=settings["mode"], players=settings["players"], time_limit=settings["time_limit"],
            rounds=settings["rounds"], points=dict(points), starts_at=starts_at, entry_limit=settings["entry_limit"],
            rating_floor=settings["rating_floor"], rated=settings["rated"], round_days=settings["round_days"],
            stand_in=settings["stand_in"], seed=secrets.randbits(62), status="open", round=0, created_at=now)
        session.add(row)
        session.flush()
        return int(row.id)


def _tournament(session: Session, tournament_id: int, lock: bool = False) -> TournamentRow:
    """The tournament (its row locked until the transaction ends on PostgreSQL if ``lock``); 404
    ``unknown_tournament``."""
    query = select(TournamentRow).where(TournamentRow.id == tournament_id)
    if lock and session.get_bind().dialect.name == "postgresql":
        query = query.with_for_update()
    row = session.scalar(query)
    if row is None:
        raise GameError(404, "unknown_tournament", _("there is no such tournament"))
    return row


def _ratings(session: Session, user_ids: Iterable[int], edition: str, players: int) -> dict[int, float]:
    """Each account's shown rating for ``edition`` and ``players`` (0 when it has none)."""
    ids = list(user_ids)
    found = {user_id: 0.0 for user_id in ids}
    for start in range(0, len(ids), 500):
        for user_id, mu, sigma in session.execute(
                select(RatingRow.user_id, RatingRow.mu, RatingRow.sigma)
                .where(RatingRow.user_id.in_(ids[start:start + 500]), RatingRow.edition == edition,
                       RatingRow.players == players)):
            found[user_id] = shown(mu, sigma)
    return found


def _not_open(row: TournamentRow, now: datetime) -> bool:
    return row.status != "open" or _aware(row.starts_at) <= now


def enter(service: GameService, tournament_id: int, user_id: int) -> None:
    """Enter the tournament (nothing changes if entered already). 404 ``unknown_tournament``, 409
    ``tournament_started`` (it started, ended or was cancelled), 403 ``rating_too_low`` (below its rating floor),
    409 ``tournament_full`` (at its entry limit)."""
    now = _now()
    with service.sessions.begin() as session:
        row = _tournament(session, tournament_id, lock=True)
        if _not_open(row, now):
            raise GameError(409, "tournament_started", _("this tournament has started: entries are closed"))
        if session.get(TournamentEntryRow, (tournament_id, user_id)) is not None:
            return
        rating = _ratings(session, [user_id], row.edition, row.players)[user_id]
        if row.rating_floor is not None and rating < row.rating_floor:
            raise GameError(403, "rating_too_low", _("this tournament is for ratings of {floor} and above; yours "
                                                     "is {rating}", floor=row.rating_floor, rating=rating))
        session.add(TournamentEntryRow(tournament_id=tournament_id, user_id=user_id, entered_at=now, rating=rating))
        session.flush()  # the insert holds SQLite's write lock: the count below sees every other entry
        entries = session.scalar(select(func.count()).select_from(TournamentEntryRow)
                                 .where(TournamentEntryRow.tournament_id == tournament_id))
        if (entries or 0) > row.entry_limit:
            raise GameError(409, "tournament_full", _("this tournament is full ({limit} entrants)",
                                                      limit=row.entry_limit))


def withdraw(service: GameService, tournament_id: int, user_id: int) -> None:
    """Leave the tournament: before its start the entry is removed; after it the entrant is paired in no later
    round (their games under way go on, the stand-in playing for them when their clock runs out). 404
    ``unknown_tournament``, 404 ``not_entered``, 409 ``tournament_over`` (finished or cancelled)."""
    now = _now()
    with service.sessions.begin() as session:
        row = _tournament(session, tournament_id, lock=True)
        entry = session.get(TournamentEntryRow, (tournament_id, user_id))
        if entry is None or entry.withdrawn_at is not None:
            raise GameError(404, "not_entered", _("you are not entered in this tournament"))
        if row.status in ("finished", "cancelled"):
            raise GameError(409, "tournament_over", _("this tournament is over"))
        if row.status == "open":
            session.delete(entry)
        else:
            entry.withdrawn_at = now


def cancel(service: GameService, notifier: Notifier, tournament_id: int, user_id: int) -> None:
    """The creator cancels the tournament before its start; its entrants are told. 404 ``unknown_tournament``,
    403 ``not_creator``, 409 ``tournament_started``."""
    now = _now()
    with service.sessions.begin() as session:
        row = _tournament(session, tournament_id, lock=True)
        if row.creator_id != user_id:
            raise GameError(403, "not_creator", _("only the tournament's creator can cancel it"))
        if _not_open(row, now):
            raise GameError(409, "tournament_started", _("this tournament has started: entries are closed"))
        _cancel(session, notifier, row, now, _("Its creator cancelled it."))


def _cancel(session: Session, notifier: Notifier, row: TournamentRow, now: datetime, why: Text) -> bool:
    """Cancel an open tournament and tell its entrants, once (a conditional UPDATE); True if this call did."""
    done = session.execute(update(TournamentRow).where(TournamentRow.id == row.id, TournamentRow.status == "open")
                           .values(status="cancelled", finished_at=now).execution_options(synchronize_session=False))
    if not getattr(done, "rowcount", 0):
        return False
    entrants = list(session.scalars(select(TournamentEntryRow.user_id)
                                    .where(TournamentEntryRow.tournament_id == row.id)))
    said = [_("The tournament {name} was cancelled.", name=row.name), why]
    outbox.queue(session.connection(), notifier.tournament(
        session, row.id, "cancelled", {user: said for user in entrants},
        _("Tournament {name} cancelled", name=row.name)), now)
    return True


# -- the job: starting, pairing, making games, counting, adjudicating, finishing ----------------------

def start_due(service: GameService, notifier: Notifier, now: datetime) -> list[int]:
    """Start every open tournament whose time has come (refreshing its entrants' ratings), or cancel it if it has
    fewer entrants than a game's players; the ids of those this call started."""
    with service.sessions() as session:
        due = list(session.scalars(select(TournamentRow.id).where(TournamentRow.status == "open",
                                                                  TournamentRow.starts_at <= now)))
    started = []
    for tournament_id in due:
        with service.sessions.begin() as session:
            row = _tournament(session, tournament_id, lock=True)
            entries = list(session.scalars(select(TournamentEntryRow)
                                           .where(TournamentEntryRow.tournament_id == tournament_id)))
            if len(entries) < row.players:
                if _cancel(session, notifier, row, now, _("Fewer than {n} players entered.", n=row.players)):
                    log.info("tournament %d cancelled: %d entrants", tournament_id, len(entries))
                continue
            done = session.execute(update(TournamentRow)
                                   .where(TournamentRow.id == tournament_id, TournamentRow.status == "open")
                                   .values(status="running").execution_options(synchronize_session=False))
            if not getattr(done, "rowcount", 0):
                continue
            ratings = _ratings(session, [e.user_id for e in entries], row.edition, row.players)
            for entry in entries:
                entry.rating = ratings[entry.user_id]
            started.append(tournament_id)
    return started


def _history(session: Session, tournament_id: int, counted_only: bool
             ) -> tuple[dict[int, int], dict[int, list[int]], dict[int, int], list[tuple[int, int, int | None]]]:
    """(points, opponents, byes, result rows (user, points, round)) of a tournament's entrants so far; the opponents
    of every table paired, one per game (an opponent met twice is listed twice), those of games not counted yet
    too when ``counted_only`` is false."""
    points: dict[int, int] = {}
    byes: dict[int, int] = {}
    rows: list[tuple[int, int, int | None]] = []
    for user_id, scored, number, bye in session.execute(
            select(TournamentResultRow.user_id, TournamentResultRow.points, TournamentResultRow.round,
                   TournamentResultRow.bye).where(TournamentResultRow.tournament_id == tournament_id)):
        points[user_id] = points.get(user_id, 0) + scored
        byes[user_id] = byes.get(user_id, 0) + int(bool(bye))
        rows.append((user_id, scored, number))
    opponents: dict[int, list[int]] = {}
    query = select(TournamentTableRow.seats).where(TournamentTableRow.tournament_id == tournament_id)
    if counted_only:
        query = query.where(TournamentTableRow.counted_at.is_not(None))
    for (seats,) in session.execute(query):
        for user_id in seats:
            opponents.setdefault(user_id, []).extend(other for other in seats if other != user_id)
    return points, opponents, byes, rows


class _PairedAlready(Exception):
    """The tournament moved past the round being paired (another process paired it)."""


def pair(service: GameService, notifier: Notifier, tournament_id: int, number: int, now: datetime) -> bool:
    """Pair round ``number`` of a running tournament whose last paired round is ``number - 1``: its tables (game
    ids chosen here), byes (worth a win) and round row in one transaction, with the entrants' announcements; True
    if this call paired it, False if it was paired already (by another process: the insert of its round row
    failed) or the tournament moved on. The games are made afterwards (:func:`make_games`). With fewer active
    entrants than a game's players the tournament is finished instead (False)."""
    try:
        with service.sessions.begin() as session:
            row = _tournament(session, tournament_id)
            if row.status != "running" or row.round != number - 1:
                return False
            entries = {e.user_id: e for e in session.scalars(
                select(TournamentEntryRow).where(TournamentEntryRow.tournament_id == tournament_id))}
            active = [user_id for user_id, e in entries.items() if e.withdrawn_at is None]
            if len(active) < row.players:  # withdrawals left too few to fill a table
                _finish(session, notifier, row, now)
                return False
            points, opponents, byes, _rows = _history(session, tournament_id, counted_only=False)
            entrants = [Entrant(id=user_id, rating=entries[user_id].rating, points=points.get(user_id, 0),
                                opponents=frozenset(opponents.get(user_id, ())), byes=byes.get(user_id, 0))
                        for user_id in sorted(active)]
            pairing = pair_round(entrants, row.players, random.Random(f"{row.seed}:{number}"))
            session.add(TournamentRoundRow(tournament_id=tournament_id, round=number, paired_at=now,
                                           deadline=now + timedelta(days=row.round_days)))
            session.flush()  # a second pairer of this round fails here, before anything else is written
            games: dict[int, str] = {}
            for table, (seats, first) in enumerate(zip(pairing.tables, pairing.first_players), start=1):
                game_id = secrets.token_urlsafe(8)
                games.update((user_id, game_id) for user_id in seats)
                session.add(TournamentTableRow(tournament_id=tournament_id, round=number, table=table,
                                               game_id=game_id, seats=list(seats), first_player=first))
            for user_id in pairing.byes:
                session.add(TournamentResultRow(tournament_id=tournament_id, user_id=user_id, round=number,
                                                points=row.points["win"], bye=True))
            moved = session.execute(update(TournamentRow)
                                    .where(TournamentRow.id == tournament_id, TournamentRow.round == number - 1)
                                    .values(round=number).execution_options(synchronize_session=False))
            if not getattr(moved, "rowcount", 0):
                raise _PairedAlready  # rolls the round back
            told: dict[int, list[Any]] = {}
            for user_id in active:
                said: list[Any] = [_("Round {round} of {rounds} of the tournament {name} has started.",
                                     round=number, rounds=row.rounds, name=row.name)]
                if user_id in games:
                    said.append(_("Your game: {url}", url=notifier.link(f"/game/{games[user_id]}")))
                else:
                    said.append(_("You have a bye this round: it counts as a win."))
                told[user_id] = said
            outbox.queue(session.connection(), notifier.tournament(
                session, tournament_id, f"round{number}", told,
                _("Round {round} of {name} has started", round=number, name=row.name)), now)
    except (IntegrityError, _PairedAlready):
        return False  # another process paired this round first
    log.info("tournament %d: round %d paired (%d tables)", tournament_id, number, len(pairing.tables))
    return True


def make_games(service: GameService, tournament_id: int | None = None) -> list[str]:
    """Make the games of paired tables that have none yet (all tournaments', or one's), each with the id chosen
    at pairing; the ids this call made. A game made meanwhile by another process counts as made."""
    with service.sessions() as session:
        query = (select(TournamentTableRow, TournamentRow)
                 .join(TournamentRow, TournamentRow.id == TournamentTableRow.tournament_id)
                 .outerjoin(GameRow, GameRow.id == TournamentTableRow.game_id)
                 .where(GameRow.id.is_(None), TournamentTableRow.counted_at.is_(None)))
        if tournament_id is not None:
            query = query.where(TournamentTableRow.tournament_id == tournament_id)
        query = query.order_by(TournamentTableRow.tournament_id, TournamentTableRow.round, TournamentTableRow.table)
        missing = [(table, row) for table, row in session.execute(query)]
        if not missing:
            return []
        names = {user_id: name for user_id, name in session.execute(
            select(UserRow.id, UserRow.name).where(UserRow.id.in_({u for t, _r in missing for u in t.seats})))}
        session.expunge_all()
    made = []
    for table, row in missing:
        seats = [{"kind": "human", "user_id": user_id, "name": names.get(user_id, "?")} for user_id in table.seats]
        try:
            service.create(row.players, row.variant, seats, first_player=table.first_player,
                           time_limit=row.time_limit, stand_in=row.stand_in, rated=row.rated, edition=row.edition,
                           mode=row.mode, game_id=table.game_id)
        except IntegrityError:
            continue  # made by another process just now
        except GameError:  # the rules of game creation changed since the settings were checked: the others go on
            log.exception("tournament %d: the game of round %d's table %d cannot be made", row.id, table.round,
                          table.table)
            continue
        made.append(table.game_id)
    return made


def table_points(players: int, winners: Iterable[int], points: dict[str, int]) -> list[int]:
    """Each seat's points from a game's ``winners``: ``win`` for a seat among them when there is one winner, or
    one winning team of 4 players (seats 0 and 2, 1 and 3); ``shared`` for each of them when several players or
    teams won together; ``loss`` for the others."""
    won = set(winners)
    sides = {seat % 2 for seat in won} if players == 4 else won
    among = points["win"] if len(sides) == 1 else points["shared"]
    return [among if seat in won else points["loss"] for seat in range(players)]


def count_results(service: GameService, now: datetime, tournament_id: int | None = None) -> int:
    """Count the result of every finished tournament game not counted yet (all tournaments', or one's), each once:
    one transaction marks its table counted (a conditional UPDATE) and stores its seats' points. How many this
    call counted."""
    with service.sessions() as session:
        query = (select(TournamentTableRow.tournament_id, TournamentTableRow.round, TournamentTableRow.table,
                        TournamentTableRow.seats, GameRow.players, GameRow.result, TournamentRow.points)
                 .join(GameRow, GameRow.id == TournamentTableRow.game_id)
                 .join(TournamentRow, TournamentRow.id == TournamentTableRow.tournament_id)
                 .where(TournamentTableRow.counted_at.is_(None), GameRow.status == "finished"))
        if tournament_id is not None:
            query = query.where(TournamentTableRow.tournament_id == tournament_id)
        finished = session.execute(query).all()
    counted = 0
    for tid, number, table, seats, players, result, points in finished:
        with service.sessions.begin() as session:
            claimed = session.execute(
                update(TournamentTableRow)
                .where(TournamentTableRow.tournament_id == tid, TournamentTableRow.round == number,
                       TournamentTableRow.table == table, TournamentTableRow.counted_at.is_(None))
                .values(counted_at=now).execution_options(synchronize_session=False))
            if not getattr(claimed, "rowcount", 0):
                continue  # counted by another process
            for user_id, scored in zip(seats, table_points(players, (result or {}).get("winners", []), points)):
                session.add(TournamentResultRow(tournament_id=tid, user_id=user_id, round=number, points=scored))
        counted += 1
    return counted


def adjudicate_due(service: GameService, now: datetime) -> list[str]:
    """Adjudicate the games still running at their round's deadline: each is marked adjudicated once (a
    conditional UPDATE) and every person's seat becomes ``away``, so that the game's stand-in bot plays out every
    remaining move at once. The ids this call adjudicated: kick their bots next."""
    with service.sessions() as session:
        due = list(session.execute(
            select(TournamentTableRow.tournament_id, TournamentTableRow.round, TournamentTableRow.table,
                   TournamentTableRow.game_id)
            .join(TournamentRoundRow, (TournamentRoundRow.tournament_id == TournamentTableRow.tournament_id)
                  & (TournamentRoundRow.round == TournamentTableRow.round))
            .join(GameRow, GameRow.id == TournamentTableRow.game_id)
            .where(TournamentRoundRow.deadline <= now, TournamentTableRow.adjudicated.is_(False),
                   GameRow.status == "running")))
    adjudicated = []
    for tid, number, table, game_id in due:
        with _holding(service, game_id) as game:
            with service.engine.begin() as connection:
                won = connection.execute(
                    update(TournamentTableRow)
                    .where(TournamentTableRow.tournament_id == tid, TournamentTableRow.round == number,
                           TournamentTableRow.table == table, TournamentTableRow.adjudicated.is_(False))
                    .values(adjudicated=True)).rowcount
                if won != 1:
                    continue
                connection.execute(update(SeatRow).where(SeatRow.game_id == game_id, SeatRow.kind == "human",
                                                         SeatRow.left.is_(False)).values(away=True))
                connection.execute(update(GameRow).where(GameRow.id == game_id).values(deadline=None))
                pubsub.publish(connection, game_id, len(game.snapshot.moves))
            game.seats = [replace(seat, away=True) if seat.kind == "human" and not seat.left else seat
                          for seat in game.seats]
            game.deadline = None
        log.info("tournament %d: game %s adjudicated at round %d's deadline", tid, game_id, number)
        adjudicated.append(game_id)
    return adjudicated


def close_rounds(service: GameService, now: datetime) -> int:
    """Mark finished the rounds whose tables have all been counted (a write only when there is one); how many."""
    open_tables = (select(TournamentTableRow.table)
                   .where(TournamentTableRow.tournament_id == TournamentRoundRow.tournament_id,
                          TournamentTableRow.round == TournamentRoundRow.round,
                          TournamentTableRow.counted_at.is_(None)))
    with service.sessions() as session:
        done = session.execute(select(TournamentRoundRow.tournament_id, TournamentRoundRow.round)
                               .where(TournamentRoundRow.finished_at.is_(None), ~open_tables.exists())).all()
    for tournament_id, number in done:
        with service.sessions.begin() as session:
            session.execute(update(TournamentRoundRow)
                            .where(TournamentRoundRow.tournament_id == tournament_id,
                                   TournamentRoundRow.round == number, TournamentRoundRow.finished_at.is_(None))
                            .values(finished_at=now).execution_options(synchronize_session=False))
    return len(done)


def advance_rounds(service: GameService, notifier: Notifier, now: datetime) -> list[int]:
    """Pair the next round of each running tournament whose last round is over (or that has just started), or
    finish one whose last round is over; the ids of the tournaments paired."""
    with service.sessions() as session:
        ready = session.execute(
            select(TournamentRow.id, TournamentRow.round, TournamentRow.rounds)
            .outerjoin(TournamentRoundRow, (TournamentRoundRow.tournament_id == TournamentRow.id)
                       & (TournamentRoundRow.round == TournamentRow.round))
            .where(TournamentRow.status == "running",
                   or_(TournamentRow.round == 0, TournamentRoundRow.finished_at.is_not(None)))).all()
    paired = []
    for tournament_id, number, rounds in ready:
        if number >= rounds:
            with service.sessions.begin() as session:
                _finish(session, notifier, _tournament(session, tournament_id), now)
        elif pair(service, notifier, tournament_id, number + 1, now):
            paired.append(tournament_id)
    return paired


def _finish(session: Session, notifier: Notifier, row: TournamentRow, now: datetime) -> bool:
    """Finish a running tournament and tell each entrant their place, once; True if this call did."""
    done = session.execute(update(TournamentRow).where(TournamentRow.id == row.id, TournamentRow.status == "running")
                           .values(status="finished", finished_at=now).execution_options(synchronize_session=False))
    if not getattr(done, "rowcount", 0):
        return False
    table = _standings(session, row)
    told = {s["user_id"]: [_("The tournament {name} has ended.", name=row.name),
                           _("You placed {rank} of {count} with {points} points.", rank=s["rank"], count=len(table),
                             points=s["points"]),
                           _("The standings: {url}", url=notifier.link(f"/tournaments/{row.id}"))] for s in table}
    outbox.queue(session.connection(), notifier.tournament(session, row.id, "ended", told,
                                                           _("Tournament {name} has ended", name=row.name)), now)
    log.info("tournament %d finished", row.id)
    return True


def advance(service: GameService, notifier: Notifier, now: datetime | None = None) -> list[str]:
    """One pass of the job at ``now`` (default: the present): start what is due, count finished games, close the
    rounds counted, pair the next rounds (or finish), make missing games, adjudicate at round deadlines. Returns the
    ids of the games adjudicated (their bots must be kicked) and made."""
    now = now or _now()
    start_due(service, notifier, now)
    count_results(service, now)
    close_rounds(service, now)
    advance_rounds(service, notifier, now)
    made = make_games(service)
    return adjudicate_due(service, now) + made


async def tick(service: GameService, notifier: Notifier, hub: Hub, runner: BotRunner,
               now: datetime | None = None) -> list[str]:
    """:func:`advance` at ``now``, then kick the bots of the games it adjudicated or made and tell their watchers;
    those games' ids."""
    games = await asyncio.to_thread(advance, service, notifier, now)
    for game_id in games:
        runner.kick(game_id)
        await hub.broadcast(game_id)
    return games


async def run_tournaments(service: GameService, notifier: Notifier, hub: Hub, runner: BotRunner,
                          every: float | None = None) -> None:
    """Every ``every`` seconds (default :data:`CHECK_EVERY`), :func:`tick`. Runs until cancelled; the database out
    of reach is waited out (:class:`~.outage.Outage`), another failure logged and tried again at the next pass."""
    await repeat(CHECK_EVERY if every is None else every, lambda: tick(service, notifier, hub, runner), "tournaments")


# -- views -----------------------------------------------------------------------------------------

def _standings(session: Session, row: TournamentRow) -> list[dict[str, Any]]:
    """The standings (:func:`.pairing.standings`) with each entrant's byes and account id."""
    entries = {e.user_id: e for e in session.scalars(
        select(TournamentEntryRow).where(TournamentEntryRow.tournament_id == row.id))}
    names = {user_id: name for user_id, name in session.execute(
        select(UserRow.id, UserRow.name).where(UserRow.id.in_(list(entries))))} if entries else {}
    _points, opponents, byes, results = _history(session, row.id, counted_only=True)
    table = standings(results, {user_id: e.rating for user_id, e in entries.items()},
                      {user_id: names.get(user_id, "?") for user_id in entries}, opponents)
    return [{"user_id": s.id, "rank": s.rank, "name": s.name, "points": s.points, "buchholz": s.buchholz,
             "rating": s.rating, "byes": byes.get(s.id, 0)} for s in table]


def _summary(row: TournamentRow, entrants: int, entered: bool, creator: str) -> dict[str, Any]:
    return {"id": row.id, "name": row.name, "creator": creator, "edition": row.edition, "variant": row.variant,
            "mode": row.mode, "players": row.players, "time_limit": row.time_limit, "rounds": row.rounds,
            "points": row.points, "starts_at": _aware(row.starts_at), "entry_limit": row.entry_limit,
            "rating_floor": row.rating_floor, "rated": row.rated, "round_days": row.round_days,
            "stand_in": row.stand_in, "status": row.status, "round": row.round, "entrants": entrants,
            "entered": entered}


def tournaments_view(service: GameService, user_id: int | None) -> dict[str, Any]:
    """``{"tournaments": [summary...]}``: open and running ones (soonest start first), then those finished or
    cancelled in the last :data:`SHOWN_FINISHED` (latest first); at most :data:`LISTED`."""
    now = _now()
    with service.sessions() as session:
        active = TournamentEntryRow.withdrawn_at.is_(None)
        counts = (select(TournamentEntryRow.tournament_id, func.count().label("n")).where(active)
                  .group_by(TournamentEntryRow.tournament_id).subquery())
        query = (select(TournamentRow, UserRow.name, func.coalesce(counts.c.n, 0))
                 .join(UserRow, UserRow.id == TournamentRow.creator_id)
                 .outerjoin(counts, counts.c.tournament_id == TournamentRow.id))
        running = session.execute(query.where(TournamentRow.status.in_(("open", "running")))
                                  .order_by(TournamentRow.starts_at, TournamentRow.id).limit(LISTED)).all()
        ended = session.execute(query.where(TournamentRow.status.in_(("finished", "cancelled")),
                                            TournamentRow.finished_at >= now - SHOWN_FINISHED)
                                .order_by(TournamentRow.finished_at.desc()).limit(LISTED - len(running))).all() \
            if len(running) < LISTED else []
        rows = [*running, *ended]
        mine = set(session.scalars(select(TournamentEntryRow.tournament_id).where(
            TournamentEntryRow.user_id == user_id, active,
            TournamentEntryRow.tournament_id.in_([r.id for r, _n, _c in rows])))) if user_id is not None else set()
        return {"tournaments": [_summary(row, int(n), row.id in mine, creator) for row, creator, n in rows]}


def tournament_view(service: GameService, tournament_id: int, user_id: int | None) -> dict[str, Any]:
    """One tournament: its summary, ``entrants`` (name, rating, withdrawn; by rating), ``rounds`` (each with
    its tables' games, seats and points, and its byes) and ``standings``. 404 ``unknown_tournament``."""
    with service.sessions() as session:
        row = _tournament(session, tournament_id)
        creator = session.get(UserRow, row.creator_id)
        entries = session.execute(select(TournamentEntryRow, UserRow.name)
                                  .join(UserRow, UserRow.id == TournamentEntryRow.user_id)
                                  .where(TournamentEntryRow.tournament_id == tournament_id)).all()
        names = {entry.user_id: name for entry, name in entries}
        entered = any(entry.user_id == user_id and entry.withdrawn_at is None for entry, _name in entries)
        results = {(r.user_id, r.round): r for r in session.scalars(
            select(TournamentResultRow).where(TournamentResultRow.tournament_id == tournament_id))}
        tables = list(session.scalars(select(TournamentTableRow)
                                      .where(TournamentTableRow.tournament_id == tournament_id)
                                      .order_by(TournamentTableRow.round, TournamentTableRow.table)))
        made = set(session.scalars(select(GameRow.id).where(GameRow.id.in_([t.game_id for t in tables])))) \
            if tables else set()
        rounds = []
        for number_row in session.scalars(select(TournamentRoundRow)
                                          .where(TournamentRoundRow.tournament_id == tournament_id)
                                          .order_by(TournamentRoundRow.round)):
            number = number_row.round
            shown_tables = []
            for t in tables:
                if t.round != number:
                    continue
                status = "running" if t.counted_at is None else "adjudicated" if t.adjudicated else "finished"
                seats = [{"seat": seat, "name": names.get(user, "?"),
                          "points": results[user, number].points if (user, number) in results else None}
                         for seat, user in enumerate(t.seats)]
                shown_tables.append({"table": t.table, "game": t.game_id if t.game_id in made else None,
                                     "seats": seats, "status": status})
            byes = sorted((names.get(user, "?") for (user, at), r in results.items() if at == number and r.bye),
                          key=str.casefold)
            rounds.append({"round": number, "paired_at": _aware(number_row.paired_at),
                           "deadline": _aware(number_row.deadline),
                           "finished_at": as_utc(number_row.finished_at), "tables": shown_tables, "byes": byes})
        active = sum(1 for entry, _name in entries if entry.withdrawn_at is None)
        summary = _summary(row, active, entered, creator.name if creator else "?")
        listed = sorted(entries, key=lambda e: (-e[0].rating, e[1].casefold()))
        return {**summary, "round_count": row.rounds, "entrant_count": active,
                "entrants": [{"name": name, "rating": entry.rating, "withdrawn": entry.withdrawn_at is not None}
                             for entry, name in listed],
                "rounds": rounds,
                "standings": [{k: v for k, v in s.items() if k != "user_id"} for s in _standings(session, row)]}

