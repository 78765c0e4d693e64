"""Move time limits, stand-in bots, leaving a game and take-backs against bots.

A game may have a move time limit (:data:`~kingisdead.web.live_game.TIME_LIMITS`).
When a person's turn starts, ``games.deadline`` is stored (``GameService._store``
sets it with each move); the server, not the browser, enforces it: the task
:func:`enforce_deadlines` looks in the database every :data:`CHECK_EVERY`
seconds for deadlines that have passed, so a restart loses no clock. The seat
of a person who ran out of time becomes ``away`` and the game's stand-in bot
(``games.stand_in``) plays it until they take it back (:func:`return_seat`); a
person who leaves (:func:`leave`) is ``left`` for good and the stand-in
finishes the game. Several processes on one database may find the same expiry:
one conditional UPDATE (on the deadline, the move count and the seat to move)
decides which of them handles it.

Take-backs (:func:`take_back`) undo a person's last move and the bots' replies
after it, in unrated games against bots only, as long as no struggle has been
resolved by that move or since (see :func:`~kingisdead.web.live_game.takeback_refusal`).

Every change here is one transaction, announced to other processes through
:mod:`~kingisdead.web.pubsub`, and made to the game in memory while holding
its lock, so it never interleaves with a move being stored in this process.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from datetime import UTC, datetime, timedelta

from sqlalchemy import delete, select, update

from ..moves import parse_move
from . import pubsub
from .db import GameRow, MoveRow, SeatRow
from .errors import GameError
from .live_game import LiveGame, Snapshot, last_move_of, takeback_refusal
from .service import GameService
from .i18n import _
from .live import BotRunner, Hub
from .outage import repeat

CHECK_EVERY = 1.0
"""Seconds between two looks for deadlines that have passed (the shortest limit is 120 s)."""
EXPIRIES_AT_ONCE = 200
"""Expired deadlines handled per look at most (the oldest first; the rest at the next look)."""

log = logging.getLogger("kingisdead.web")


@contextmanager
def _holding(service: GameService, game_id: str) -> Iterator[LiveGame]:
    """The game in memory (loaded if need be), its lock held; the current copy even if it was reloaded
    while we waited for the lock. 404 ``unknown_game`` if there is no such game."""
    game = service.get(game_id)
    game.lock.acquire()
    while service.cached(game_id) is not game:
        game.lock.release()
        game = service.get(game_id)
        game.lock.acquire()
    try:
        yield game
    finally:
        game.lock.release()


# -- deadlines -------------------------------------------------------------------------------

def expire_due(service: GameService, now: datetime | None = None) -> list[str]:
    """Handle every deadline that has passed by ``now`` (default: the present, UTC): the seat to move becomes
    ``away`` and its deadline is cleared. Returns the ids of the games this call handled (a game another
    process handled first is not among them); kick their bots and tell their watchers next."""
    now = now or datetime.now(UTC)
    with service.sessions() as session:
        due = session.execute(
            select(GameRow.id, GameRow.to_move, GameRow.move_count)
            .where(GameRow.status == "running", GameRow.deadline.is_not(None), GameRow.deadline <= now)
            .order_by(GameRow.deadline).limit(EXPIRIES_AT_ONCE)).all()
    return [game_id for game_id, seat, count in due if seat is not None and expire(service, game_id, seat, count, now)]


def expire(service: GameService, game_id: str, seat: int, count: int, now: datetime) -> bool:
    """Mark ``seat`` away in the game if it is still to move at move ``count`` with its deadline passed by
    ``now``; True if this call did it (one conditional UPDATE: of racing processes exactly one wins)."""
    with _holding(service, game_id) as game:
        with service.engine.begin() as connection:
            won = connection.execute(
                update(GameRow)
                .where(GameRow.id == game_id, GameRow.status == "running", GameRow.move_count == count,
                       GameRow.to_move == seat, GameRow.deadline <= now)
                .values(deadline=None)).rowcount
            if won != 1:
                return False
            connection.execute(update(SeatRow).where(SeatRow.game_id == game_id, SeatRow.seat == seat)
                               .values(away=True))
            pubsub.publish(connection, game_id, count)
        if len(game.snapshot.moves) == count:
            game.seats[seat] = replace(game.seats[seat], away=True)
            game.deadline = None
        else:
            service.forget(game_id)  # our copy was behind the database: reload it on its next use
    log.info("game %s: seat %d ran out of time; the stand-in plays it", game_id, seat)
    return True


async def enforce(service: GameService, hub: Hub, runner: BotRunner, now: datetime | None = None) -> list[str]:
    """:func:`expire_due`, then start the stand-ins and tell each game's watchers; the games handled."""
    expired = await asyncio.to_thread(expire_due, service, now)
    for game_id in expired:
        runner.kick(game_id)
        await hub.broadcast(game_id)
    return expired


async def enforce_deadlines(service: GameService, hub: Hub, runner: BotRunner, every: float = CHECK_EVERY) -> None:
    """Every ``every`` seconds, :func:`enforce` the deadlines that have passed. Runs until cancelled. While the
    database cannot be reached it tries again, waiting longer each time (:class:`~.outage.Outage`: one log
    line when the outage starts, one when it ends); any other failure is logged and tried at the next look."""
    await repeat(every, lambda: enforce(service, hub, runner), "move clocks")


# -- away, back, gone --------------------------------------------------------------------------

def return_seat(service: GameService, game_id: str, seat: int) -> LiveGame:
    """A person away takes their seat back from the stand-in. If it is their turn and the stand-in's move is
    not stored yet, they play it themselves, with a new deadline. 409 ``left`` (a seat given up stays
    given up), ``not_away``, ``over``."""
    with _holding(service, game_id) as game:
        state = game.snapshot.state
        if game.seats[seat].left:
            raise GameError(409, "left", _("you left this game: a seat given up cannot be taken back"))
        if state.is_over():
            raise GameError(409, "over", _("the game is over"))
        if not game.seats[seat].away:
            raise GameError(409, "not_away", _("your seat is not away: you are playing it"))
        now = datetime.now(UTC)
        turn = state.player == seat
        back = replace(game.seats[seat], away=False)
        deadline = game.deadline
        with service.engine.begin() as connection:
            done = connection.execute(
                update(SeatRow).where(SeatRow.game_id == game_id, SeatRow.seat == seat, SeatRow.away.is_(True),
                                      SeatRow.left.is_(False)).values(away=False)).rowcount
            if done != 1:
                service.forget(game_id)
                raise GameError(409, "stale", _("stale: the seat changed meanwhile; reload"))
            if turn:
                deadline = None if game.time_limit is None else now + timedelta(seconds=game.time_limit)
                connection.execute(update(GameRow).where(GameRow.id == game_id,
                                                         GameRow.move_count == len(game.snapshot.moves))
                                   .values(deadline=deadline))
            pubsub.publish(connection, game_id, len(game.snapshot.moves))
        game.seats[seat] = back
        game.deadline = deadline
        return game


def leave(service: GameService, game_id: str, seat: int) -> LiveGame:
    """A person gives up their seat for good: the stand-in bot plays it to the end of the game.
    409 ``over``, ``left`` (already)."""
    with _holding(service, game_id) as game:
        state = game.snapshot.state
        if state.is_over():
            raise GameError(409, "over", _("the game is over"))
        if game.seats[seat].left:
            raise GameError(409, "left", _("you have left this game already"))
        turn = state.player == seat
        with service.engine.begin() as connection:
            done = connection.execute(
                update(SeatRow).where(SeatRow.game_id == game_id, SeatRow.seat == seat, SeatRow.left.is_(False))
                .values(left=True, away=False)).rowcount
            if done != 1:
                service.forget(game_id)
                raise GameError(409, "stale", _("stale: the seat changed meanwhile; reload"))
            if turn:
                connection.execute(update(GameRow).where(GameRow.id == game_id).values(deadline=None))
            pubsub.publish(connection, game_id, len(game.snapshot.moves))
        game.seats[seat] = replace(game.seats[seat], left=True, away=False)
        if turn:
            game.deadline = None
        log.info("game %s: seat %d left; the stand-in finishes the game", game_id, seat)
        return game


# -- take-backs --------------------------------------------------------------------------------

def take_back(service: GameService, game_id: str, seat: int) -> LiveGame:
    """Undo ``seat``'s last move and every bot move after it, in one transaction; the seat is to move again
    (with a new deadline if the game has a limit). A bot reply being chosen meanwhile is dropped when it
    arrives (its position is gone). Refusals: see :func:`~kingisdead.web.live_game.takeback_refusal`; 409
    ``stale`` if another process changed the game first."""
    with _holding(service, game_id) as game:
        refusal = takeback_refusal(game, seat)
        if refusal is not None:
            raise refusal
        snap = game.snapshot
        number = last_move_of(snap.log, seat)
        assert number is not None  # takeback_refusal said so
        kept = number - 1
        rewound = Snapshot(game.start())
        for text in snap.moves[:kept]:
            rewound = rewound.after(parse_move(text, rewound.state.edition))
        now = datetime.now(UTC)
        deadline = game.next_deadline(rewound.state, now)
        try:
            with service.engine.begin() as connection:
                changed = connection.execute(
                    update(GameRow)
                    .where(GameRow.id == game_id, GameRow.status == "running", GameRow.move_count == len(snap.moves))
                    .values(move_count=kept, to_move=rewound.state.player, deadline=deadline, updated_at=now)).rowcount
                if changed != 1:
                    raise GameError(409, "stale", _("stale: the game changed meanwhile; reload and try again"))
                connection.execute(delete(MoveRow).where(MoveRow.game_id == game_id, MoveRow.number > kept))
                pubsub.publish(connection, game_id, kept)
        except GameError:
            service.forget(game_id)
            raise
        game.snapshot = rewound
        game.deadline = deadline
        log.info("game %s: seat %d took back moves %d to %d", game_id, seat, number, len(snap.moves))
        return game
