"""Games kept: created, loaded from the database, cached in memory, listed and shown.

A game lives in memory as a :class:`~.live_game.LiveGame` (its settings and
an immutable snapshot of state and moves) and in the database as its setup
plus the moves in notation. :class:`GameStore` makes, finds, caches and shows
games; :class:`~.seats.SeatService` hands out seats and
:class:`~.moves.MoveService` checks and stores moves, both working on one
store, and :class:`~.service.GameService` is the facade over the three. Every
rule decision goes through the engine, every change through the database.
"""

from __future__ import annotations

import json
import secrets
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import selectinload

from .. import VARIANTS
from ..bots import BOTS, NETWORK_BOTS, SEAT_VIEW_BOTS
from ..bots.master import TRAINED_EDITIONS
from ..edition import ADVANCED_OPTIONS, EDITIONS, MODES, OPTIONS, get_edition
from ..moves import IllegalMoveError, NotationError, parse_move
from ..state import GameState
from .db import GameRow, MoveRow, SeatRow, make_engine, make_sessions
from .errors import GameError
from .i18n import _
from .live_game import (
    DEFAULT_STAND_IN,
    INVITE_PREFIX,
    TIME_LIMITS,
    LiveGame,
    Seat,
    Snapshot,
    as_utc,
    hash_token,
    takeback_refusal,
)
from .lobby import LobbyCache
from .ratings import bot_account, check_rated, game_ratings
from .views import table_view

GAMES_KEPT = 2000
"""Games in memory at most, beyond those watched or with a bot thinking (the least recently used go first)."""
GAME_IDLE = 900.0
"""Seconds unused after which a game leaves memory (it reloads from the database on its next use)."""


ADVANCED_LEVELS = {"beginner": "determinised:100", "intermediate": "determinised:400",
                   "strong": "determinised:1s", "max": "determinised:2s"}
"""The lobby's levels in the advanced game: the determinised search (bots/determinised.py), which chooses from
its own seat's view, with a budget per level (iterations, or seconds a move). The other levels read every hand,
and ``master``'s network learnt only the first edition: the advanced game refuses them."""


def bot_names() -> list[str]:
    """The bot levels on offer, straight from the engine's registry."""
    return list(BOTS)


def advanced_bot_names() -> list[str]:
    """The bot levels that may play the advanced game: :data:`ADVANCED_LEVELS` and the bots that choose from
    their own seat's view (kingisdead.bots.SEAT_VIEW_BOTS)."""
    return [name for name in BOTS if name in ADVANCED_LEVELS or name in SEAT_VIEW_BOTS]


def bot_played(level: str, mode: str) -> str:
    """The bot (a name for kingisdead.bots.make_bot) that plays ``level`` in a game of ``mode``."""
    return ADVANCED_LEVELS.get(level, level) if mode == "advanced" else level


class GameStore:
    """Creates, loads, caches and shows games; thread-safe (called from worker threads).

    :class:`~.service.GameService` holds one; its seats (:class:`~.seats.SeatService`) and moves
    (:class:`~.moves.MoveService`) work on the games kept here.
    """

    def __init__(self, database_url: str) -> None:
        self.engine = make_engine(database_url)
        self.sessions = make_sessions(self.engine)
        self._games: dict[str, LiveGame] = {}
        self._used: dict[str, float] = {}  # game id -> time.monotonic() of its last use
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
               user_id: int | None = None, user_name: str | None = None,
               edition: str = "first", options: dict[str, Any] | None = None,
               mode: str = "standard", game_id: str | None = None) -> tuple[LiveGame, dict[int, str]]:
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
        held by its level's account. ``edition``: a name of kingisdead.edition.EDITIONS (422 for another,
        and for a variant the edition lacks: the second edition has no Mordred). ``options``: the edition's game
        options that differ from its defaults (kingisdead.edition.OPTIONS: the second edition's only; 422 for an
        unknown option or value, for the first edition's, and in a rated game, played at the defaults). ``mode``:
        ``"standard"`` or ``"advanced"`` (the second edition's secret Cunning cards, with the options of
        kingisdead.edition.ADVANCED_OPTIONS too; 422 for the first edition, a rated game, the 3-player last card
        rule ``must_win``, which reads every hand, and a bot level that is not one of :func:`advanced_bot_names`).
        An advanced game is made without hints: a hint's search would read every hand. A human seat
        description with ``"user_id"`` (and ``"name"``) is held by that account from the start, claimed (a
        tournament's seats); a rated game needs no creator then. ``game_id``: the new game's id (default: a
        random one); an id taken already raises sqlalchemy's IntegrityError.
        """
        if players not in (2, 3, 4):
            raise GameError(422, "invalid_request", _("a game has 2, 3 or 4 players"))
        if variant not in VARIANTS:
            raise GameError(422, "invalid_request", _("variant must be one of {variants}", variants=", ".join(VARIANTS)))
        if edition not in EDITIONS:
            raise GameError(422, "invalid_request", _("edition must be one of {editions}", editions=", ".join(EDITIONS)))
        if variant == "mordred" and not EDITIONS[edition].mordred:
            raise GameError(422, "invalid_request", _("the Mordred variant is the first edition's only: "
                                                      "choose the standard game"))
        if mode not in MODES:
            raise GameError(422, "invalid_request", _("mode must be one of {modes}", modes=", ".join(MODES)))
        advanced = mode == "advanced"
        if advanced and edition != "second":
            raise GameError(422, "invalid_request", _("the advanced game (secret Cunning cards) is the second "
                                                      "edition's only"))
        defaults = EDITIONS[edition]
        options = {name: value for name, value in (options or {}).items()
                   if not (name in OPTIONS or advanced and name in ADVANCED_OPTIONS)
                   or value != getattr(defaults, name)}
        try:
            played = defaults.with_mode(mode).with_options(**options)
        except ValueError as exc:
            raise GameError(422, "invalid_request", _("options: {reason}", reason=str(exc))) from None
        if rated and options:
            raise GameError(422, "invalid_request", _("a rated game is played at its edition's default options"))
        if rated and advanced:
            raise GameError(422, "not_rateable", _("the advanced game is not rated yet"))
        if advanced and played.last_card == "must_win":
            raise GameError(422, "invalid_request", _("the last card rule must_win is not played online in the "
                                                      "advanced game: who may play the last card depends on the "
                                                      "secret hands"))
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
        chosen_bots = {stand_in} | {(s.get("bot") or "").lower() for s in seats if s["kind"] == "bot"}
        untrained = sorted(chosen_bots & NETWORK_BOTS) if edition not in TRAINED_EDITIONS else []
        if untrained:
            raise GameError(422, "invalid_request", _("{bots} play only the first edition: no network has been "
                                                      "trained for the second yet (choose strong or max)",
                                                      bots=", ".join(untrained)))
        if advanced:
            unfit = sorted(chosen_bots - set(advanced_bot_names()))
            if unfit:
                raise GameError(422, "invalid_request", _("{bots} cannot play the advanced game: they would read "
                                                          "the secret hands (levels for it: {levels})",
                                                          bots=", ".join(unfit), levels=", ".join(advanced_bot_names())))
        held = [spec["user_id"] for spec in seats if spec["kind"] == "human" and spec.get("user_id") is not None]
        if rated:
            check_rated(seats, hints=hints, hotseat=hotseat, stand_in=stand_in,
                        user_id=user_id if user_id is not None else next(iter(held), None))
        seed = secrets.randbits(32) if seed is None else seed
        game_id = game_id or secrets.token_urlsafe(8)
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
            elif spec.get("user_id") is not None:  # held by its account from the start
                tokens[i] = secrets.token_urlsafe(24)
                rows.append(SeatRow(seat=i, kind="human", bot=None, name=spec.get("name") or f"Player {i + 1}",
                                    token_hash=hash_token(tokens[i]), claimed=True, user_id=spec["user_id"]))
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
                      hints=hints and not memory and not advanced, hotseat=hotseat, memory=memory, status="running", move_count=0,
                      result=None,
                      time_limit=time_limit, stand_in=stand_in, rated=rated, edition=edition, options=options,
                      mode=mode)
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
            id=row.id, players=row.players, variant=row.variant, edition=row.edition, seed=row.seed,
            first_player=row.first_player,
            # memory mode hides the cards played, which a hint's search sees: no hints there (older rows had both)
            hints=row.hints and not row.memory, hotseat=row.hotseat, memory=bool(row.memory), bot_seed=row.bot_seed,
            seats=[Seat(s.seat, s.kind, s.bot, s.name, s.claimed, bool(s.public), bool(s.away), bool(s.left))
                   for s in seats],
            token_hashes=[s.token_hash for s in seats], owners=[s.user_id for s in seats],
            options=dict(row.options or {}), mode=row.mode or "standard",
            snapshot=Snapshot(GameState.new(row.players, row.variant, row.seed, row.first_player,
                                            get_edition(row.edition, row.mode or "standard", **(row.options or {})))),
            rated=bool(row.rated), time_limit=row.time_limit, stand_in=row.stand_in or DEFAULT_STAND_IN,
            deadline=as_utc(row.deadline), rematch_of=row.rematch_of, rematch=row.rematch,
        )
        snap = game.snapshot
        for number, text in enumerate(moves, start=1):
            try:
                move = parse_move(text, snap.state.edition)
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
            "id": row.id, "players": row.players, "variant": row.variant, "edition": row.edition,
            "mode": row.mode or "standard", "status": row.status,
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

    # -- views ---------------------------------------------------------------------------------

    def rating_changes(self, game: LiveGame) -> list[dict[str, Any]] | None:
        """A finished rated game's rating change of each seat (:func:`.ratings.game_ratings`; ``[]`` until
        applied); None for a running or unrated game. Read from the database until found, then kept."""
        if not game.rated or not game.snapshot.state.is_over():
            return None
        if game.ratings is None:

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
            "edition": game.edition,
            "options": game.options,
            "mode": game.mode,
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
            frame = frame.after(parse_move(text, frame.state.edition))
        return {
            "id": game.id, "number": number, "total": len(snap.moves),
            "move": snap.log[number - 1] if number else None,
            "table": table_view(frame.state, None, reveal=snap.state.is_over()),
        }


def _without_card(entry: dict[str, Any]) -> dict[str, Any]:
    """A log entry as memory mode shows it while the game runs: who moved and what changed on the
    board, but not the card played nor the move's notation."""
    passed = entry["notation"] == "pass"
    hidden = "pass" if passed else "card"
    return {**entry, "notation": hidden, "shown_notation": hidden, "text": _("passes") if passed else _("plays a card"),
            "card": None}


def _refuse_in_memory_mode(game: LiveGame, what: str) -> None:
    """Raises GameError 409 for ``what`` (a record or a replay) of a running memory-mode game."""
    if game.memory and not game.snapshot.state.is_over():
        raise GameError(409, "memory_mode", _("this game is played from memory: {what} is available once it ends",
                                              what=what))
