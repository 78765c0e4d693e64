"""Rematch: "play again" with the same people, bots and settings, seats kept or rotated by one place.

The first seat to ask makes the new game; everyone who asks later (or at the same
moment, in another process) gets that same game: one conditional ``UPDATE games
SET rematch`` on the finished game decides, in the transaction that inserts the
new one. The new game copies the players, variant, hints, hot-seat, memory mode,
rating (unless the first to ask plays it unrated), time limit and stand-in level, with a new seed; with ``rotate`` the
person or bot of seat ``s`` sits at seat ``s + 1`` (the last one at seat 0).

Each person gets their own new seat. A seat held by an account is held by it in
the new game (found by ``user_id``). A guest proves their old seat with its token
and receives the new seat's token: that token is derived from the old one and the
new game's id (an HMAC), so asking again from any browser holding the old token
gives the same token, and no one without it can take the seat. Until its guest
asks, a new seat's ``token_hash`` holds a marker derived from the old seat's hash,
which no token can match (token hashes are 64 hex digits; markers start "r:").
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from datetime import UTC, datetime, timedelta

from sqlalchemy import select, update

from . import pubsub
from .db import GameRow, SeatRow
from .errors import GameError
from .live_game import hash_token
from .service import GameService
from .i18n import _
from .ratings import capped_stand_in


def marker(token_hash: str) -> str:
    """What a rematch seat's ``token_hash`` holds until the guest of the old seat (``token_hash``) asks."""
    return "r:" + hashlib.sha256(("rematch of " + token_hash).encode()).hexdigest()[:62]


def derived_token(old_token: str, game_id: str) -> str:
    """The seat token in rematch ``game_id`` of the guest whose old seat token is ``old_token``."""
    digest = hmac.new(old_token.encode(), f"rematch {game_id}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:24]).decode().rstrip("=")


def _moved(seat: int, players: int, rotate: bool) -> int:
    return (seat + 1) % players if rotate else seat


def make_rematch(service: GameService, game_id: str, rotate: bool, rated: bool | None = None) -> tuple[str, bool]:
    """The finished game's rematch: (its id, True if this call made it, seats rotated if ``rotate``;
    ``rated`` False plays a rated game's rematch unrated, None or True keeps the game's own setting: an
    unrated game's seats were never checked for rating, so its rematch never becomes rated).

    GameError 404 for an unknown game, 409 ``not_over`` while it runs. Safe when
    requests or processes race: all of them get the one new game.
    """
    game = service.get(game_id)
    if not game.snapshot.state.is_over():
        raise GameError(409, "not_over", _("a rematch can be asked for once the game is over"))
    if game.rematch is not None:
        return game.rematch, False
    new_id = secrets.token_urlsafe(8)
    with service.sessions.begin() as session:
        # The claim comes first: a write, so that SQLite serialises racing requests before they read.
        claimed = session.execute(update(GameRow).where(GameRow.id == game_id, GameRow.rematch.is_(None))
                                  .values(rematch=new_id).execution_options(synchronize_session=False))
        if not getattr(claimed, "rowcount", 0):
            existing = session.scalar(select(GameRow.rematch).where(GameRow.id == game_id))
            assert existing is not None
            game.rematch = existing
            return existing, False
        old = session.get(GameRow, game_id)
        assert old is not None
        seats = []
        for seat in old.seats:
            to = _moved(seat.seat, old.players, rotate)
            name = f"Player {to + 1}" if seat.kind == "human" and seat.name == f"Player {seat.seat + 1}" else seat.name
            if seat.kind == "bot":
                seats.append(SeatRow(seat=to, kind="bot", bot=seat.bot, name=name, token_hash=None, claimed=True,
                                     user_id=seat.user_id))
            else:
                seats.append(SeatRow(seat=to, kind="human", bot=None, name=name, public=False,
                                     token_hash=None if seat.token_hash is None else marker(seat.token_hash),
                                     claimed=seat.user_id is not None, user_id=seat.user_id))
        seats.sort(key=lambda s: s.seat)
        now = datetime.now(UTC)
        row = GameRow(id=new_id, created_at=now, updated_at=now, players=old.players, variant=old.variant,
                      edition=old.edition, options=old.options, mode=old.mode,
                      seed=secrets.randbits(32), bot_seed=secrets.randbits(63), first_player=old.first_player,
                      to_move=old.first_player, hints=old.hints, hotseat=old.hotseat, memory=old.memory,
                      status="running", move_count=0, result=None, rated=old.rated and rated is not False, time_limit=old.time_limit,
                      stand_in=capped_stand_in(old.stand_in) if old.rated else old.stand_in, rematch_of=game_id)
        if old.time_limit is not None and seats[old.first_player].kind == "human":
            row.deadline = now + timedelta(seconds=old.time_limit)  # as GameService.create starts the clock
        row.seats = seats
        session.add(row)
        session.flush()
        pubsub.publish(session.connection(), game_id, old.move_count)  # other processes: the view changed
    game.rematch = new_id
    return new_id, True


def rematch_seat(service: GameService, game_id: str, seat: int, token: str | None,
                 user_id: int | None) -> tuple[int, str | None]:
    """The seat in the rematch of ``game_id`` of the person at ``seat`` (proven by ``token`` or by the
    account ``user_id``): (new seat, new seat token or None when asked by account alone).

    The same answer every time it is asked. GameError 409 ``no_rematch`` if the game
    has none yet, 404 ``no_rematch_seat`` if this person has no seat in it.
    """
    game = service.get(game_id)
    if game.rematch is None:
        raise GameError(409, "no_rematch", _("this game has no rematch yet"))
    new_id = game.rematch
    with service.sessions() as session:
        old = session.scalar(select(SeatRow).where(SeatRow.game_id == game_id, SeatRow.seat == seat))
        if old is None or old.kind != "human":
            raise GameError(404, "no_rematch_seat", _("only the people of a game have seats in its rematch"))
        holder = old.user_id
    new_token = None
    found: int | None = None
    if token:
        new_token = derived_token(token, new_id)
        digest = hash_token(new_token)
        with service.engine.begin() as connection:
            taken = connection.execute(
                update(SeatRow).where(SeatRow.game_id == new_id, SeatRow.kind == "human",
                                      SeatRow.token_hash.in_([marker(hash_token(token)), digest]))
                .values(token_hash=digest, claimed=True).returning(SeatRow.seat)).scalars().all()
            if taken:
                found = taken[0]
                pubsub.publish(connection, new_id, 0)
    if found is None and (holder is not None or user_id is not None):
        with service.sessions() as session:
            found = session.scalar(select(SeatRow.seat).where(SeatRow.game_id == new_id,
                                                               SeatRow.user_id == (holder or user_id)))
        new_token = None
    if found is None:
        raise GameError(404, "no_rematch_seat", _("your seat in the rematch was not found"))
    service.forget(new_id)  # its seats changed: reload them on next use
    return found, new_token
