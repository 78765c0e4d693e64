"""The game service: every rule decision goes through the engine, every change through the database.

A game lives in memory as a :class:`LiveGame` (its settings and an immutable
:class:`Snapshot` of state and moves) and in the database as its setup plus the
moves in notation. A move is checked by the engine, written to the database,
and only then becomes the new snapshot, so a failed write changes nothing.
Moves for one game are serialised by a per-game lock and by the move number
the client sends: a client that is behind gets a "stale" error.
"""

from __future__ import annotations

import hashlib
import json
import logging
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import cached_property
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import selectinload

from .. import VARIANTS, rules
from ..bots import BOTS
from ..bots.budget import Budget
from ..building import Choice
from ..moves import IllegalMoveError, Move, NotationError, format_move, parse_move
from ..record import GameRecord
from ..state import GameState
from . import compute, pubsub
from .choices import choices_view
from .compute import Job
from .db import GameRow, MoveRow, SeatRow, make_engine, make_sessions
from .explain import analysis_summary
from .lobby import LobbyCache
from .i18n import _
from .outage import DATABASE_DOWN, reason
from .views import choice_label, describe_move, move_changes, preview, step_guide, table_view

log = logging.getLogger("kingisdead.web")

INVITE_PREFIX = "invite-"
"""Invite tokens start with this: one used again is told "already used", not "no such token"."""
HINTS_SHOWN = 3
HINT_BUDGET = Budget(iterations=20_000)
"""About 0.15 s in the compiled core: enough visits to tell the top moves apart."""
ANALYSIS_BUDGET = Budget(iterations=2000)
ANALYSES_KEPT = 200
"""Finished games whose analysis stays in memory (the least recently asked for goes first)."""
GAMES_KEPT = 2000
"""Games in memory at most, beyond those watched or with a bot thinking (the least recently used go first)."""
GAME_IDLE = 900.0
"""Seconds unused after which a game leaves memory (it reloads from the database on its next use)."""
TIME_LIMITS = (120, 600, 86_400, 259_200)
"""The move time limits a game may have, in seconds (2 and 10 minutes, 1 and 3 days); None: no limit."""
DEFAULT_STAND_IN = "intermediate"
"""The bot level that plays for a person who ran out of time or left, unless the game names another."""


class GameError(Exception):
    """A request the game cannot honour; ``status`` is the HTTP status, ``code`` a stable word."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


@dataclass(frozen=True)
class Seat:
    seat: int
    kind: str
    bot: str | None
    name: str
    claimed: bool
    public: bool = False
    away: bool = False  # a person who ran out of time: the stand-in bot plays until they come back
    left: bool = False  # a person who left: the stand-in bot finishes the game

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "kind": self.kind, "bot": self.bot, "name": self.name, "claimed": self.claimed,
                "public": self.public, "away": self.away, "left": self.left}


@dataclass(frozen=True)
class Snapshot:
    """A game at one moment: replaced whole on every move, never changed in place.

    ``log`` holds one entry per move: its number, the seat that made it, the
    notation, the move in words and the struggles it ended (region, control).
    """

    state: GameState
    moves: tuple[str, ...] = ()
    log: tuple[dict[str, Any], ...] = ()

    def after(self, move: Move) -> Snapshot:
        before = self.state
        state = before.copy()
        rules.play(state, move)
        text = format_move(move)
        entry = {
            "number": len(self.moves) + 1, "seat": before.player, "notation": text, "text": describe_move(move),
            "resolved": [{"region": r, "control": state.control[r]}
                         for r in state.order[before.resolved:state.resolved]],
            "changes": move_changes(before, state, move),
        }
        return Snapshot(state, self.moves + (text,), self.log + (entry,))

    @cached_property
    def choices(self) -> dict[str, Any]:
        """Every choice of the move to make (see web/choices.py): made once per position, when first asked for."""
        return choices_view(self.state)


@dataclass
class LiveGame:
    id: str
    players: int
    variant: str
    seed: int
    first_player: int
    hints: bool
    hotseat: bool
    memory: bool
    bot_seed: int  # secret, drawn at creation: knowing the public seed predicts no bot reply
    seats: list[Seat]
    token_hashes: list[str | None]
    snapshot: Snapshot
    rated: bool = False
    time_limit: int | None = None  # seconds per move
    stand_in: str = DEFAULT_STAND_IN
    deadline: datetime | None = None  # when the person to move runs out of time (UTC); None: no clock running
    rematch_of: str | None = None  # the game this one is a rematch of
    rematch: str | None = None  # the rematch of this game, once made
    ratings: list[dict[str, Any]] | None = None  # a rated game's rating changes, once applied and read
    lock: threading.Lock = field(default_factory=threading.Lock)
    owners: list[int | None] = field(default_factory=list)  # per seat: the account holding it (users.id)

    def start(self) -> GameState:
        return GameState.new(self.players, self.variant, self.seed, self.first_player)

    @property
    def status(self) -> str:
        return "finished" if self.snapshot.state.is_over() else "running"

    def bot_for(self, seat: int) -> str | None:
        """The bot level that plays ``seat``: a bot seat's own, the stand-in for a person away or gone, else None."""
        s = self.seats[seat]
        if s.kind == "bot":
            return s.bot
        return self.stand_in if s.away or s.left else None

    def next_deadline(self, state: GameState, now: datetime) -> datetime | None:
        """When the seat to move in ``state`` runs out of time: ``now`` plus the limit if a person plays it,
        None if the game has no limit, is over, or a bot (or a stand-in) is to move."""
        if self.time_limit is None or state.is_over() or self.bot_for(state.player) is not None:
            return None
        return now + timedelta(seconds=self.time_limit)

    def record(self) -> GameRecord:
        snap = self.snapshot
        result = snap.state.result
        return GameRecord([s.name for s in self.seats], self.variant, self.seed, self.first_player,
                          list(snap.moves), None if result is None else result.to_dict())


def as_utc(moment: datetime | None) -> datetime | None:
    """A stored time as an aware UTC datetime (SQLite gives them back without their zone)."""
    return moment if moment is None or moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def bot_names() -> list[str]:
    """The bot levels on offer, straight from the engine's registry."""
    return list(BOTS)


class GameService:
    """Creates, loads, shows and advances games; thread-safe (called from worker threads)."""

    def __init__(self, database_url: str) -> None:
        self.engine = make_engine(database_url)
        self.sessions = make_sessions(self.engine)
        self._games: dict[str, LiveGame] = {}
        self._used: dict[str, float] = {}  # game id -> time.monotonic() of its last use
        self._analyses: OrderedDict[str, dict[str, Any]] = OrderedDict()
        self._loading = threading.Lock()
        self.ratings_due = threading.Event()  # a finished rated game's ratings failed: ratings.keep_applied retries
        self.lobby = LobbyCache(self.engine)

    def close(self) -> None:
        self.engine.dispose()

    # -- creating and finding games ----------------------------------------------------

    def create(self, players: int, variant: str, seats: list[dict[str, Any]], seed: int | None = None,
               first_player: int = 0, hints: bool = False, hotseat: bool = False,
               memory: bool = False, time_limit: int | None = None,
               stand_in: str = DEFAULT_STAND_IN, rated: bool = False,
               user_id: int | None = None, user_name: str | None = None) -> tuple[LiveGame, dict[int, str]]:
        """A new game; returns it with the secret token of every human seat (shown once).

        The creator holds the first human seat (every human seat in hot-seat
        mode): those tokens are seat tokens. Every other human seat gets an
        invite token (starting with :data:`INVITE_PREFIX`) that :meth:`claim_invite`
        exchanges once for a seat token; a seat with ``"public": true`` is also
        offered in the lobby to anyone (:meth:`join`). ``time_limit``: seconds per
        move, one of :data:`TIME_LIMITS` or None; ``stand_in``: the bot level that
        plays for a person who runs out of time or leaves (422 for anything else).
        ``user_id``: the creator's account (signed in), which then holds the creator's
        seat, named ``user_name`` unless its description gives a name. ``rated``: the result changes ratings (see :func:`.ratings.check_rated`
        for the games that may be rated: 403/422 otherwise); each bot seat is then
        held by its level's account.
        """
        from .ratings import bot_account, check_rated  # ratings.py imports this module

        if players not in (2, 3, 4):
            raise GameError(422, "invalid_request", _("a game has 2, 3 or 4 players"))
        if variant not in VARIANTS:
            raise GameError(422, "invalid_request", _("variant must be one of {variants}", variants=", ".join(VARIANTS)))
        if len(seats) != players:
            raise GameError(422, "invalid_request", _("give one seat description per player ({players})", players=players))
        if not 0 <= first_player < players:
            raise GameError(422, "invalid_request", _("first_player must be a seat from 0 to {last}", last=players - 1))
        if time_limit is not None and time_limit not in TIME_LIMITS:
            raise GameError(422, "invalid_request", _("time_limit must be none or one of {limits} (seconds per move)",
                                                      limits=", ".join(map(str, TIME_LIMITS))))
        if stand_in not in BOTS:
            raise GameError(422, "invalid_request", _("stand_in: unknown bot {bot} (known: {known})", bot=repr(stand_in),
                                                      known=", ".join(BOTS)))
        if rated:
            check_rated(seats, hints=hints, hotseat=hotseat, stand_in=stand_in, user_id=user_id)
        seed = secrets.randbits(32) if seed is None else seed
        game_id = secrets.token_urlsafe(8)
        tokens: dict[int, str] = {}
        rows = []
        first_human = next((i for i, s in enumerate(seats) if s["kind"] == "human"), None)
        for i, spec in enumerate(seats):
            if spec["kind"] == "bot":
                bot = (spec.get("bot") or "").lower()
                if bot not in BOTS:
                    raise GameError(422, "invalid_request", _("unknown bot {bot} (known: {known})", bot=repr(bot),
                                                              known=", ".join(BOTS)))
                name = spec.get("name") or f"{bot.capitalize()} bot"
                rows.append(SeatRow(seat=i, kind="bot", bot=bot, name=name, token_hash=None, claimed=True,
                                    user_id=bot_account(self.sessions, bot) if rated else None))
            else:
                claimed = hotseat or i == first_human
                tokens[i] = secrets.token_urlsafe(24) if claimed else INVITE_PREFIX + secrets.token_urlsafe(24)
                default = user_name if i == first_human and user_name else f"Player {i + 1}"
                rows.append(SeatRow(seat=i, kind="human", bot=None, name=spec.get("name") or default,
                                    token_hash=hash_token(tokens[i]), claimed=claimed,
                                    public=bool(spec.get("public")) and not claimed,
                                    user_id=user_id if i == first_human else None))
        row = GameRow(id=game_id, players=players, variant=variant, seed=seed, bot_seed=secrets.randbits(63),
                      first_player=first_player, to_move=first_player,
                      hints=hints, hotseat=hotseat, memory=memory, status="running", move_count=0, result=None,
                      time_limit=time_limit, stand_in=stand_in, rated=rated)
        row.seats = rows
        if time_limit is not None and rows[first_player].kind == "human":
            row.deadline = datetime.now(UTC) + timedelta(seconds=time_limit)
        with self.sessions.begin() as session:
            session.add(row)
        game = self._from_rows(row, rows, [])
        with self._loading:
            self._games[game_id] = game
            self._used[game_id] = time.monotonic()
        return game, tokens

    def _from_rows(self, row: GameRow, seats: list[SeatRow], moves: list[str]) -> LiveGame:
        game = LiveGame(
            id=row.id, players=row.players, variant=row.variant, seed=row.seed, first_player=row.first_player,
            hints=row.hints, hotseat=row.hotseat, memory=bool(row.memory), bot_seed=row.bot_seed,
            seats=[Seat(s.seat, s.kind, s.bot, s.name, s.claimed, bool(s.public), bool(s.away), bool(s.left))
                   for s in seats],
            token_hashes=[s.token_hash for s in seats], owners=[s.user_id for s in seats],
            snapshot=Snapshot(GameState.new(row.players, row.variant, row.seed, row.first_player)),
            rated=bool(row.rated), time_limit=row.time_limit, stand_in=row.stand_in or DEFAULT_STAND_IN,
            deadline=as_utc(row.deadline), rematch_of=row.rematch_of, rematch=row.rematch,
        )
        snap = game.snapshot
        for number, text in enumerate(moves, start=1):
            try:
                move = parse_move(text)
                snap.state.check(move)
            except (IllegalMoveError, NotationError) as exc:
                raise GameError(500, "corrupt", f"game {row.id}: stored move {number} ({text!r}) fails: {exc}") \
                    from None
            snap = snap.after(move)
        game.snapshot = snap
        return game

    def cached(self, game_id: str) -> LiveGame | None:
        """The game if it is in memory already (no database access)."""
        game = self._games.get(game_id)
        if game is not None:
            self._used[game_id] = time.monotonic()
        return game

    def get(self, game_id: str) -> LiveGame:
        """The game, loaded from the database (and replayed) on first use or after :meth:`evict`."""
        game = self._games.get(game_id)
        if game is None:
            with self._loading:
                game = self._games.get(game_id)
                if game is None:
                    game = self._load(game_id)
                    self._games[game_id] = game
        self._used[game_id] = time.monotonic()
        return game

    def evict(self, keep: Callable[[str], bool], idle: float = GAME_IDLE, most: int = GAMES_KEPT) -> list[str]:
        """Drop from memory the games unused for ``idle`` seconds, then the least recently used beyond
        ``most``; never a game for which ``keep(id)`` is true (watched, a bot thinking) or one being
        changed. They reload from the database on their next use. Returns the ids dropped."""
        now = time.monotonic()
        dropped = []
        with self._loading:
            oldest_first = sorted(self._games, key=lambda g: self._used.get(g, 0.0))
            over = len(oldest_first) - most
            for game_id in oldest_first:
                if over <= 0 and now - self._used.get(game_id, 0.0) < idle:
                    break  # the rest were used more recently still
                if keep(game_id) or self._games[game_id].lock.locked():
                    continue
                del self._games[game_id]
                self._used.pop(game_id, None)
                dropped.append(game_id)
                over -= 1
        return dropped

    def _load(self, game_id: str) -> LiveGame:
        with self.sessions() as session:
            row = session.get(GameRow, game_id)
            if row is None:
                raise GameError(404, "unknown_game", _("no game {id}", id=repr(game_id)))
            moves = session.scalars(
                select(MoveRow.notation).where(MoveRow.game_id == game_id).order_by(MoveRow.number)).all()
            return self._from_rows(row, list(row.seats), list(moves))

    def forget(self, game_id: str) -> None:
        """Drop the cached game so the next use reloads it from the database."""
        with self._loading:
            self._games.pop(game_id, None)
            self._used.pop(game_id, None)

    def list_games(self, status: str | None = None, limit: int = 50) -> list[dict[str, Any]]:
        """Summaries for the lobby, newest activity first; ``status``: open, running or finished.
        Kept in memory: its move numbers may be up to :data:`.lobby.LOBBY_TTL` seconds old (see lobby.py)."""
        return self.lobby.get((status, limit), lambda: self._list_games(status, limit))

    def _list_games(self, status: str | None, limit: int) -> list[dict[str, Any]]:
        with self.sessions() as session:
            # the seats of all listed games in one more query, not one query per game
            query = select(GameRow).options(selectinload(GameRow.seats)).order_by(GameRow.updated_at.desc()).limit(limit)
            if status in ("running", "open"):
                query = query.where(GameRow.status == "running")
            elif status == "finished":
                query = query.where(GameRow.status == "finished")
            rows = session.scalars(query).all()
            summaries = [self._summary(row) for row in rows]
        if status == "open":
            summaries = [s for s in summaries if s["open_seats"]]
        return summaries

    @staticmethod
    def _summary(row: GameRow) -> dict[str, Any]:
        seats = [Seat(s.seat, s.kind, s.bot, s.name, s.claimed, bool(s.public)).to_dict() for s in row.seats]
        return {
            "id": row.id, "players": row.players, "variant": row.variant, "status": row.status,
            "move_number": row.move_count, "hotseat": row.hotseat, "seats": seats, "time_limit": row.time_limit,
            "open_seats": [s["seat"] for s in seats if s["kind"] == "human" and s["public"] and not s["claimed"]]
            if row.status == "running" else [],
            "winners": (row.result or {}).get("winners"),
            "updated_at": row.updated_at.isoformat(),
        }

    def bot_games(self) -> list[str]:
        """The games where a bot is to move (from the database: nothing is loaded)."""
        with self.sessions() as session:
            return list(session.scalars(
                select(GameRow.id).join(SeatRow, (SeatRow.game_id == GameRow.id) & (SeatRow.seat == GameRow.to_move))
                .where(GameRow.status == "running",
                       (SeatRow.kind == "bot") | SeatRow.away.is_(True) | SeatRow.left.is_(True))).all())

    # -- seats and tokens --------------------------------------------------------------------

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
            from .ratings import check_rated_seat  # ratings.py imports this module

            check_rated_seat(self.sessions, game.id, user_id)
        token = secrets.token_urlsafe(24)
        digest = hash_token(token)
        account: dict[str, Any] = {} if user_id is None else {"user_id": user_id,
                                                               "name": user_name or game.seats[seat].name}
        with self.engine.begin() as connection:
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
        game = self.get(game_id)
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
                self.forget(game_id)  # another process or request took it: reload the seats next time
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
        game = self.get(game_id)
        if game.snapshot.state.is_over():
            raise GameError(409, "over", _("the game is over"))
        for seat in list(game.seats):
            if seat.kind == "human" and seat.public and not seat.claimed:
                token = self._take(game, seat.seat, SeatRow.public.is_(True), user_id, user_name)
                if token is not None:
                    return seat.seat, token
        self.forget(game_id)  # what we knew may be behind another process: reload next time
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
        game = self.get(game_id)
        if by != self.creator_seat(game):
            raise GameError(403, "not_creator", _("only the game's creator can open a seat"))
        if not 0 <= seat < game.players or game.seats[seat].kind != "human":
            raise GameError(404, "no_such_seat", _("seat {seat} is not a human seat of this game", seat=seat))
        if game.snapshot.state.is_over():
            raise GameError(409, "over", _("the game is over"))
        if game.seats[seat].claimed:
            raise GameError(409, "claimed", _("seat {seat} is taken already", seat=seat))
        with game.lock, self.engine.begin() as connection:
            connection.execute(update(SeatRow).where(SeatRow.game_id == game.id, SeatRow.seat == seat)
                               .values(public=True))
            pubsub.publish(connection, game.id, len(game.snapshot.moves))
            game.seats[seat] = replace(game.seats[seat], public=True)
        return game

    # -- views ---------------------------------------------------------------------------------

    def rating_changes(self, game: LiveGame) -> list[dict[str, Any]] | None:
        """A finished rated game's rating change of each seat (:func:`.ratings.game_ratings`; ``[]`` until
        applied); None for a running or unrated game. Read from the database until found, then kept."""
        if not game.rated or not game.snapshot.state.is_over():
            return None
        if game.ratings is None:
            from .ratings import game_ratings  # ratings.py imports this module

            found = game_ratings(self.sessions, game.id)
            if not found:
                return found
            game.ratings = found
        return game.ratings

    def view(self, game: LiveGame, seat: int | None) -> dict[str, Any]:
        """The game as ``seat`` (None: a spectator) may see it; every hand once the game is over."""
        snap = game.snapshot
        over = snap.state.is_over()
        return {
            "id": game.id,
            "status": game.status,
            "players": game.players,
            "variant": game.variant,
            "hints": game.hints,
            "hotseat": game.hotseat,
            "memory": game.memory,
            "seats": [s.to_dict() for s in game.seats],
            "you": seat,
            "time_limit": game.time_limit,
            "stand_in": game.stand_in,
            "deadline": None if game.deadline is None else game.deadline.isoformat(),
            "takeback": seat is not None and takeback_refusal(game, seat) is None,
            "rated": game.rated,
            "ratings": self.rating_changes(game),
            "rematch_of": game.rematch_of,
            "rematch": game.rematch,
            "move_number": len(snap.moves),
            "log": list(snap.log) if over or not game.memory else [_without_card(e) for e in snap.log],
            "table": table_view(snap.state, seat, reveal=over),
            # Only the seat to move gets them: the choices tell about its hand.
            "choices": snap.choices if seat is not None and seat == snap.state.player and not over else None,
        }

    @staticmethod
    def public_record(game: LiveGame) -> str:
        """The game's record (JSON text) as anyone may see it: the seed, which decides every hand and
        the order of the region cards, is null until the game is over."""
        _refuse_in_memory_mode(game, _("the record"))
        text = game.record().dumps()
        if game.snapshot.state.is_over():
            return text
        return json.dumps({**json.loads(text), "seed": None}, indent=2)

    def replay_frame(self, game: LiveGame, number: int) -> dict[str, Any]:
        """The public table after ``number`` moves (hands shown only once the game is over)."""
        _refuse_in_memory_mode(game, _("a replay"))
        snap = game.snapshot
        if not 0 <= number <= len(snap.moves):
            raise GameError(404, "no_such_move", _("the game has moves 0 to {last}, not {number}", last=len(snap.moves),
                                                    number=number))
        frame = Snapshot(game.start())
        for text in snap.moves[:number]:
            frame = frame.after(parse_move(text))
        return {
            "id": game.id, "number": number, "total": len(snap.moves),
            "move": snap.log[number - 1] if number else None,
            "table": table_view(frame.state, None, reveal=snap.state.is_over()),
        }

    # -- moves ---------------------------------------------------------------------------------

    def options(self, game: LiveGame, seat: int, steps: list[Choice]) -> dict[str, Any]:
        """The choices that can follow ``steps`` in building this seat's move (the engine's builder)."""
        state = game.snapshot.state
        self._check_turn(state, seat)
        self._check_person_plays(game, seat, timed=False)  # building is harmless: only the move is late
        builder = state.builder()
        for number, step in enumerate(steps, start=1):
            try:
                builder.choose(step)
            except (IllegalMoveError, LookupError) as exc:  # LookupError: a card, region or faction that is none
                raise GameError(422, "illegal_step", _("step {number}: {problem}", number=number, problem=str(exc))) from None
        complete = builder.complete
        move = builder.move() if complete else None
        return {
            "move_number": len(game.snapshot.moves),
            "steps": [_choice_dict(c) for c in builder.steps],
            "options": [_choice_dict(c) for c in builder.options()],
            "complete": complete,
            "move": None if move is None else format_move(move),
            "description": None if move is None else describe_move(move),
            "preview": None if (after := preview(state, builder.steps)) is None else table_view(after, seat),
            **step_guide(state, builder.steps, complete),
        }

    @staticmethod
    def _check_turn(state: GameState, seat: int) -> None:
        if state.is_over():
            raise GameError(409, "over", _("the game is over"))
        if seat != state.player:
            raise GameError(409, "not_your_turn", _("not your turn: player {n} is to move", n=state.player + 1))

    @staticmethod
    def _check_person_plays(game: LiveGame, seat: int, timed: bool = True) -> None:
        """Refuse a person's move on their turn while the stand-in bot plays their seat or (``timed``) once their
        time is up."""
        if game.seats[seat].left:
            raise GameError(409, "left", _("you left this game: the stand-in bot plays your seat to the end"))
        if game.seats[seat].away:
            raise GameError(409, "away", _("you ran out of time and the stand-in bot plays for you: "
                                           "take your seat back to play again"))
        if timed and game.deadline is not None and datetime.now(UTC) >= game.deadline:
            raise GameError(409, "out_of_time", _("your time for this move ran out: the stand-in bot plays it"))

    def play(self, game_id: str, seat: int, notation: str, expected: int | None = None,
             position: GameState | None = None) -> LiveGame:
        """Validate and store one move; errors change nothing.

        A person's move (``position`` None) is refused while the stand-in plays
        their seat (409 ``away``, ``left``) or once their deadline has passed (409
        ``out_of_time``). A bot's move names the ``position`` it was chosen for
        (from :meth:`bot_turn`): it is dropped as stale if the game is no longer
        there (a take-back) or a bot no longer plays the seat (the person came back).

        Before refusing with a 409 (stale, not your turn, over), the game is
        compared with the database: if another process stored moves this one
        has not seen yet, it reloads and judges the move again.
        """
        try:
            return self._play(game_id, seat, notation, expected, position)
        except GameError as exc:
            if exc.status != 409 or not self.catch_up(game_id):
                raise
        return self._play(game_id, seat, notation, expected, position)

    def catch_up(self, game_id: str) -> bool:
        """Reload the cached game if the database holds more moves than it; True if it was behind."""
        game = self._games.get(game_id)
        with self.sessions() as session:
            stored = session.scalar(select(GameRow.move_count).where(GameRow.id == game_id))
        if stored is None or (game is not None and len(game.snapshot.moves) == stored):
            return False  # (a count below ours: another process took moves back)
        self.reload(game_id)
        return True

    def reload(self, game_id: str) -> LiveGame | None:
        """Replace the cached game (moves and seats) by the database's; None if it was not cached."""
        old = self._games.get(game_id)
        if old is None:
            return None
        with old.lock:  # a move being stored through the old copy lands first
            fresh = self._load(game_id)
            with self._loading:
                if self._games.get(game_id) is old:
                    self._games[game_id] = fresh
        return fresh

    def _play(self, game_id: str, seat: int, notation: str, expected: int | None,
              position: GameState | None = None) -> LiveGame:
        game = self.get(game_id)
        game.lock.acquire()
        while self._games.get(game_id) is not game:  # reloaded while we waited: judge against the new copy
            game.lock.release()
            game = self.get(game_id)
            game.lock.acquire()
        try:
            snap = game.snapshot
            if expected is not None and expected != len(snap.moves):
                raise GameError(409, "stale", _("stale: the game is at move {current}, not {expected}; "
                                                "reload to see the latest position", current=len(snap.moves),
                                                expected=expected))
            if position is not None and (game.bot_for(seat) is None or snap.state != position):
                # a bot's move chosen before a take-back, or for a person who has come back: drop it
                raise GameError(409, "stale", _("stale: the position this bot move was chosen for has changed"))
            self._check_turn(snap.state, seat)
            if position is None:
                self._check_person_plays(game, seat)
            try:
                move = parse_move(notation)
                snap.state.check(move)
            except (NotationError, IllegalMoveError) as exc:
                raise GameError(422, "illegal_move", str(exc)) from None
            after = snap.after(move)
            self._store(game, after, seat, stand_in=position is not None and game.seats[seat].kind == "human")
            game.snapshot = after
        finally:
            game.lock.release()
        return game

    def _store(self, game: LiveGame, snap: Snapshot, seat: int, stand_in: bool = False) -> None:
        """Append the move and update the game row in one transaction (two plain statements); the
        next person to move gets a new deadline (``game.deadline``, set only once stored). ``stand_in``:
        the stand-in bot played this person's move (rated games count them, see :mod:`.ratings`)."""
        number = len(snap.moves)
        result = snap.state.result
        now = datetime.now(UTC)
        deadline = game.next_deadline(snap.state, now)
        changes: dict[str, Any] = {"move_count": number, "updated_at": now, "deadline": deadline,
                                   "to_move": None if result is not None else snap.state.player}
        if result is not None:
            changes.update(status="finished", result=result.to_dict())
        try:
            with self.engine.begin() as connection:
                connection.execute(insert(MoveRow).values(game_id=game.id, number=number, seat=seat,
                                                          notation=snap.moves[-1], created_at=changes["updated_at"],
                                                          stand_in=stand_in))
                connection.execute(update(GameRow).where(GameRow.id == game.id).values(**changes))
                pubsub.publish(connection, game.id, number)
        except IntegrityError:
            self.forget(game.id)  # another writer got there first: reload its moves next time
            raise GameError(409, "stale", _("stale: move {number} was already played; reload", number=number)) from None
        game.deadline = deadline
        if result is not None and game.rated:
            self._apply_ratings(game.id)

    def _apply_ratings(self, game_id: str) -> None:
        """Apply a rated game's result once it is stored; on a failure the move stands, and
        :func:`.ratings.keep_applied` applies it as soon as the database lets it (:attr:`ratings_due`)."""
        from .ratings import apply_ratings  # ratings.py imports this module

        try:
            apply_ratings(self.engine, game_id)
        except DATABASE_DOWN as exc:
            log.warning("ratings of game %s not applied yet (%s): tried again until they are", game_id, reason(exc))
            self.ratings_due.set()
        except Exception:
            log.exception("ratings of game %s not applied: tried again until they are", game_id)
            self.ratings_due.set()

    @staticmethod
    def bot_is_to_move(game: LiveGame) -> bool:
        """True if a bot plays the seat to move: a bot seat, or the stand-in for a person away or gone."""
        state = game.snapshot.state
        return not state.is_over() and game.bot_for(state.player) is not None

    def bot_turn(self, game_id: str) -> tuple[Job, int, GameState] | None:
        """If a bot is to move: (the job that chooses its move, in notation; the seat; the position it is
        chosen for, to pass to :meth:`play` as ``position``), else None."""
        game = self.get(game_id)
        snap = game.snapshot
        state = snap.state
        if not self.bot_is_to_move(game):
            return None
        name = game.bot_for(state.player)
        assert name is not None
        number = len(snap.moves)
        job = Job("bot", game_id, number, compute.bot_move, (name, game.bot_seed * 1009 + number, state.copy()),
                  position=state.key())
        return job, state.player, state

    def hint(self, game: LiveGame, seat: int) -> Job:
        """The job that finds this seat's best moves (only if the game allows hints); run it in the pool.

        The search sees every hand, but hands hold no secret from a player who
        follows the public move log (every card played is in it).
        """
        if not game.hints:
            raise GameError(403, "hints_off", _("hints are off in this game's settings"))
        snap = game.snapshot
        self._check_turn(snap.state, seat)
        number = len(snap.moves)
        return Job("hint", game.id, number, compute.hint,
                   (snap.state.copy(), game.bot_seed + number, HINT_BUDGET, HINTS_SHOWN), position=snap.state.key())

    def analysis(self, game: LiveGame) -> dict[str, Any] | Job:
        """The analysis of a finished game if it is known, else the job that makes it (then :meth:`remember`)."""
        if not game.snapshot.state.is_over():
            raise GameError(409, "not_over", _("the analysis is shown once the game is over"))
        cached = self._analyses.get(game.id)
        if cached is not None:
            self._analyses.move_to_end(game.id)
            return cached
        return Job("analysis", game.id, len(game.snapshot.moves), compute.analysis,
                   (game.record().dumps(), game.bot_seed, ANALYSIS_BUDGET))

    def remember(self, game_id: str, notes: list[dict[str, Any]]) -> dict[str, Any]:
        """Keep a finished game's analysis (its job's result; the most recent ANALYSES_KEPT stay)."""
        found = {"id": game_id, "method": _("search of {playouts} playouts per move", playouts=ANALYSIS_BUDGET.iterations),
                 "moves": notes,
                 "summary": analysis_summary(notes)}
        self._analyses[game_id] = found
        self._analyses.move_to_end(game_id)
        while len(self._analyses) > ANALYSES_KEPT:
            self._analyses.popitem(last=False)
        return found


def takeback_refusal(game: LiveGame, seat: int) -> GameError | None:
    """Why ``seat`` may not take back its last move now (the error to raise), or None if it may.

    Take-backs are for unrated games against bots only (403 ``rated``,
    ``not_against_bots``), while the game runs and the seat is played by its
    person (409 ``over``, ``away``, ``left``), for a seat that has moved (409
    ``nothing_to_take_back``), and only while no struggle has been resolved by
    that move or since (409 ``struggle_resolved``): a resolution is settled.
    """
    if game.rated:
        return GameError(403, "rated", _("take-backs are never allowed in rated games"))
    if any(s.kind != "bot" for s in game.seats if s.seat != seat):
        return GameError(403, "not_against_bots", _("take-backs are only for games against bots: "
                                                    "another person plays at this table"))
    if game.snapshot.state.is_over():
        return GameError(409, "over", _("the game is over"))
    if game.seats[seat].left or game.seats[seat].away:
        return GameError(409, "left" if game.seats[seat].left else "away",
                         _("the stand-in bot plays your seat: take it back before taking back a move")
                         if game.seats[seat].away else _("you left this game"))
    log = game.snapshot.log
    number = last_move_of(log, seat)
    if number is None:
        return GameError(409, "nothing_to_take_back", _("you have made no move to take back"))
    if any(entry["resolved"] for entry in log[number - 1:]):
        return GameError(409, "struggle_resolved", _("a struggle has been resolved since your last move began: "
                                                     "moves up to a resolution cannot be taken back"))
    return None


def last_move_of(log: tuple[dict[str, Any], ...], seat: int) -> int | None:
    """The number (from 1) of the seat's latest move in the log, or None if it has not moved."""
    return next((entry["number"] for entry in reversed(log) if entry["seat"] == seat), None)


def _without_card(entry: dict[str, Any]) -> dict[str, Any]:
    """A log entry as memory mode shows it while the game runs: who moved and what changed on the
    board, but not the card played nor the move's notation."""
    passed = entry["notation"] == "pass"
    return {**entry, "notation": "pass" if passed else "card", "text": _("passes") if passed else _("plays a card")}


def _refuse_in_memory_mode(game: LiveGame, what: str) -> None:
    """Raises GameError 409 for ``what`` (a record or a replay) of a running memory-mode game."""
    if game.memory and not game.snapshot.state.is_over():
        raise GameError(409, "memory_mode", _("this game is played from memory: {what} is available once it ends",
                                              what=what))


def _choice_dict(choice: Choice) -> dict[str, Any]:
    return {"kind": choice.kind, "value": choice.value, "label": choice_label(choice.kind, choice.value)}

