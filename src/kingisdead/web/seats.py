"""Seats: seat tokens, invites, joining from the lobby, and the seats that accounts hold.

A person's seat is claimed once, by a conditional UPDATE, so two requests
never take one seat; tokens are stored as their SHA-256 only. A guest's seat
becomes an account's (:meth:`SeatService.adopt`) the same way, once.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any, Literal

from sqlalchemy import select, update

from . import pubsub
from .db import GameRow, SeatRow
from .errors import GameError
from .games import GameStore
from .i18n import _
from .live_game import INVITE_PREFIX, LiveGame, hash_token
from .ratings import check_rated_seat


Adopted = Literal["claimed", "yours", "other_account", "seated", "rated", "bad_token", "unknown_game"]
"""What became of one seat token sent to :meth:`SeatService.adopt`: the seat is now the account's (``claimed``),
was already (``yours``), or stays as it was: another account holds it, the account holds another seat of that
game (a hot-seat game's other seats), the game is rated (its seats were given to accounts when taken), the
token is no seat's of that game (or an invite not exchanged yet), or there is no such game."""


class SeatService:
    """Who sits where: finds the seat of a token, exchanges invites, seats people from the lobby; works on the
    games of ``store`` (shared with :class:`~.moves.MoveService` in :class:`~.service.GameService`)."""

    def __init__(self, store: GameStore) -> None:
        self.store = store

    @staticmethod
    def find_seat(game: LiveGame, token: str | None) -> int:
        """The seat a seat token belongs to (no database access).

        401 ``no_token`` without a token; 403 ``invite_unclaimed`` for an invite
        not yet exchanged, ``invite_used`` for one already used, ``bad_token``
        for any other token.
        """
        if not token:
            raise GameError(401, "no_token", _("this needs your seat's token (Authorization: Bearer <token>)"))
        digest = hash_token(token)
        for seat, known in enumerate(game.token_hashes):
            if known is not None and secrets.compare_digest(known, digest):
                if not game.seats[seat].claimed:
                    raise GameError(403, "invite_unclaimed", _("this is an invite: claim the seat first (POST {path})",
                                                               path=f"/api/games/{game.id}/claim"))
                return seat
        if token.startswith(INVITE_PREFIX):
            raise GameError(403, "invite_used", _("this invite was already used: its seat is taken"))
        raise GameError(403, "bad_token", _("this token belongs to no seat of this game"))

    def _take(self, game: LiveGame, seat: int, condition: Any, user_id: int | None = None,
              user_name: str | None = None) -> str | None:
        """Claim an unclaimed seat in one conditional UPDATE; the new seat token, or None if it was taken first.
        A signed-in player's account (``user_id``) holds the seat from then on, under its name. A rated
        game's seats go to signed-in accounts only, one each (403 ``rated_sign_in``, 409 ``already_seated``)."""
        if game.rated:
            check_rated_seat(self.store.sessions, game.id, user_id)
        token = secrets.token_urlsafe(24)
        digest = hash_token(token)
        account: dict[str, Any] = {} if user_id is None else {"user_id": user_id,
                                                               "name": user_name or game.seats[seat].name}
        with self.store.engine.begin() as connection:
            taken = connection.execute(
                update(SeatRow)
                .where(SeatRow.game_id == game.id, SeatRow.seat == seat, SeatRow.claimed.is_(False), condition)
                .values(claimed=True, token_hash=digest, **account)).rowcount
            if taken == 1:
                pubsub.publish(connection, game.id, len(game.snapshot.moves))
        if taken != 1:
            return None
        with game.lock:
            game.seats[seat] = replace(game.seats[seat], claimed=True, name=account.get("name", game.seats[seat].name))
            game.token_hashes[seat] = digest
            if user_id is not None:
                game.owners[seat] = user_id
        return token

    def claim_invite(self, game_id: str, invite: str | None, user_id: int | None = None,
                     user_name: str | None = None) -> tuple[int, str]:
        """Exchange an invite token for a new seat token, once: (seat, token); the invite is spent.
        A signed-in player's account (``user_id``, ``user_name``) holds the seat from then on."""
        game = self.store.get(game_id)
        if not invite:
            raise GameError(401, "no_token", _("this needs the invite's token (Authorization: Bearer <token>)"))
        digest = hash_token(invite)
        for seat, known in enumerate(game.token_hashes):
            if known is not None and secrets.compare_digest(known, digest):
                if game.seats[seat].claimed:
                    raise GameError(409, "claimed", _("this is a seat token, not an invite: the seat is yours already"))
                token = self._take(game, seat, SeatRow.token_hash == digest, user_id, user_name)
                if token is not None:
                    return seat, token
                self.store.forget(game_id)  # another process or request took it: reload the seats next time
                break
        raise GameError(403, "invite_used" if invite.startswith(INVITE_PREFIX) else "bad_token",
                        _("this invite was already used: its seat is taken")
                        if invite.startswith(INVITE_PREFIX) else _("this token belongs to no seat of this game"))

    def join(self, game_id: str, user_id: int | None = None, user_name: str | None = None) -> tuple[int, str]:
        """Take the first free public seat atomically: (seat, token); 409 if none is left. A signed-in
        player's account (``user_id``, ``user_name``) holds the seat from then on.

        Each attempt is a conditional UPDATE, so of simultaneous joins for one
        seat exactly one is told it holds it; the seat's invite token stops working.
        """
        game = self.store.get(game_id)
        if game.snapshot.state.is_over():
            raise GameError(409, "over", _("the game is over"))
        for seat in list(game.seats):
            if seat.kind == "human" and seat.public and not seat.claimed:
                token = self._take(game, seat.seat, SeatRow.public.is_(True), user_id, user_name)
                if token is not None:
                    return seat.seat, token
        self.store.forget(game_id)  # what we knew may be behind another process: reload next time
        raise GameError(409, "no_free_seat", _("no seat of this game is open to join"))

    @staticmethod
    def account_seat(game: LiveGame, user_id: int) -> int | None:
        """The seat an account holds in the game (the one to move if it holds several), or None."""
        held = [seat for seat, owner in enumerate(game.owners) if owner == user_id]
        to_move = game.snapshot.state.player
        return to_move if to_move in held else (held[0] if held else None)

    @staticmethod
    def creator_seat(game: LiveGame) -> int | None:
        """The seat of the game's creator: its first human seat."""
        return next((s.seat for s in game.seats if s.kind == "human"), None)

    def open_seat(self, game_id: str, seat: int, by: int) -> LiveGame:
        """Offer a private seat in the lobby; only the creator (seat ``by``) may. 409 if already taken."""
        game = self.store.get(game_id)
        if by != self.creator_seat(game):
            raise GameError(403, "not_creator", _("only the game's creator can open a seat"))
        if not 0 <= seat < game.players or game.seats[seat].kind != "human":
            raise GameError(404, "no_such_seat", _("seat {seat} is not a human seat of this game", seat=seat))
        if game.snapshot.state.is_over():
            raise GameError(409, "over", _("the game is over"))
        if game.seats[seat].claimed:
            raise GameError(409, "claimed", _("seat {seat} is taken already", seat=seat))
        with game.lock, self.store.engine.begin() as connection:
            connection.execute(update(SeatRow).where(SeatRow.game_id == game.id, SeatRow.seat == seat)
                               .values(public=True))
            pubsub.publish(connection, game.id, len(game.snapshot.moves))
            game.seats[seat] = replace(game.seats[seat], public=True)
        return game

    def adopt(self, user_id: int, held: Sequence[tuple[str, str]],
              on_bad_token: Callable[[], object] | None = None) -> list[tuple[str, int | None, Adopted]]:
        """Make the seats a guest holds the account's: ``held`` is (game id, seat token) pairs, as a browser
        keeps them; returns (game id, seat or None, :data:`Adopted`) for each pair, in order.

        A seat is taken only with its own token, only if it is a person's, claimed (an invite is exchanged
        first), and held by no account, in an unrated game where the account holds no seat yet (a hot-seat
        game: its first seat sent); then, in one conditional UPDATE, it records the account
        (``seats.user_id``): the account lists the game and plays the seat from any browser, as if it had
        taken it signed in. The seat keeps its name and its token, and nothing is rated. Sending the same
        tokens again changes nothing (``yours``). ``on_bad_token`` is called once per token that is no seat's
        before anything is written: it may raise (a rate limit's 429) and then no seat changes.
        """
        found: list[tuple[str, str, Any]] = []  # (game id, token hash, the seat's row or None)
        games: set[str] = set()
        with self.store.sessions() as session:
            for game_id, token in held:
                digest = hash_token(token)
                row = session.execute(
                    select(SeatRow.id, SeatRow.seat, SeatRow.kind, SeatRow.claimed, SeatRow.user_id, GameRow.rated)
                    .join(GameRow, GameRow.id == SeatRow.game_id)
                    .where(SeatRow.game_id == game_id, SeatRow.token_hash == digest)).first()
                found.append((game_id, digest, row))
            unmatched = {game_id for game_id, _digest, row in found if row is None}
            if unmatched:  # which of those games exist (the token is wrong) and which do not
                games = set(session.scalars(select(GameRow.id).where(GameRow.id.in_(unmatched))))
        bad = [row is None or row.kind != "human" or not row.claimed for _game_id, _digest, row in found]
        if on_bad_token is not None:
            for _ in range(bad.count(True)):
                on_bad_token()
        results: list[tuple[str, int | None, Adopted]] = []
        adopted: list[tuple[str, int]] = []
        with self.store.engine.begin() as connection:
            for (game_id, digest, row), wrong in zip(found, bad):
                if wrong:
                    results.append((game_id, None, "unknown_game" if row is None and game_id not in games
                                    else "bad_token"))
                    continue
                if row.user_id is not None:
                    results.append((game_id, row.seat, "yours" if row.user_id == user_id else "other_account"))
                    continue
                if row.rated:  # never so: a rated game's seats go to accounts only
                    results.append((game_id, row.seat, "rated"))
                    continue
                if connection.scalar(select(SeatRow.id).where(SeatRow.game_id == game_id,
                                                              SeatRow.user_id == user_id)) is not None:
                    results.append((game_id, row.seat, "seated"))
                    continue
                taken = connection.execute(
                    update(SeatRow).where(SeatRow.id == row.id, SeatRow.token_hash == digest,
                                          SeatRow.claimed.is_(True), SeatRow.user_id.is_(None))
                    .values(user_id=user_id)).rowcount
                if taken == 1:
                    pubsub.publish(connection, game_id, connection.scalar(
                        select(GameRow.move_count).where(GameRow.id == game_id)) or 0)
                    adopted.append((game_id, row.seat))
                    results.append((game_id, row.seat, "claimed"))
                else:  # another request gave it an account meanwhile
                    holder = connection.scalar(select(SeatRow.user_id).where(SeatRow.id == row.id))
                    results.append((game_id, row.seat, "yours" if holder == user_id else "other_account"))
        for game_id, seat in adopted:  # this process's copy; other processes reload on the notice (PostgreSQL)
            game = self.store.cached(game_id)
            if game is not None:
                with game.lock:
                    game.owners[seat] = user_id
        return results
