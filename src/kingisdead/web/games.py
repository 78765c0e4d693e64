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
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import insert, select, update
from sqlalchemy.exc import IntegrityError

from .. import VARIANTS, rules
from ..bots import BOTS
from ..bots.budget import Budget
from ..building import Choice
from ..moves import IllegalMoveError, Move, NotationError, format_move, parse_move
from ..record import GameRecord
from ..state import GameState
from . import compute, pubsub
from .compute import Job
from .db import GameRow, MoveRow, SeatRow, make_engine, make_sessions
from .explain import analysis_summary
from .views import describe_move, move_changes, preview, step_guide, table_view

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

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "kind": self.kind, "bot": self.bot, "name": self.name, "claimed": self.claimed,
                "public": self.public}


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
    lock: threading.Lock = field(default_factory=threading.Lock)
    owners: list[int | None] = field(default_factory=list)  # per seat: the account holding it (users.id)

    def start(self) -> GameState:
        return GameState.new(self.players, self.variant, self.seed, self.first_player)

    @property
    def status(self) -> str:
        return "finished" if self.snapshot.state.is_over() else "running"

    def record(self) -> GameRecord:
        snap = self.snapshot
        result = snap.state.result
        return GameRecord([s.name for s in self.seats], self.variant, self.seed, self.first_player,
                          list(snap.moves), None if result is None else result.to_dict())


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

    def close(self) -> None:
        self.engine.dispose()

    # -- creating and finding games ----------------------------------------------------

    def create(self, players: int, variant: str, seats: list[dict[str, Any]], seed: int | None = None,
               first_player: int = 0, hints: bool = False, hotseat: bool = False,
               memory: bool = False, user_id: int | None = None,
               user_name: str | None = None) -> tuple[LiveGame, dict[int, str]]:
        """A new game; returns it with the secret token of every human seat (shown once).

        The creator holds the first human seat (every human seat in hot-seat
        mode): those tokens are seat tokens. Every other human seat gets an
        invite token (starting with :data:`INVITE_PREFIX`) that :meth:`claim_invite`
        exchanges once for a seat token; a seat with ``"public": true`` is also
        offered in the lobby to anyone (:meth:`join`). ``user_id``: the creator's
        account (signed in), which then holds the creator's seat, named
        ``user_name`` unless its description gives a name.
        """
        if players not in (2, 3, 4):
            raise GameError(422, "invalid_request", "a game has 2, 3 or 4 players")
        if variant not in VARIANTS:
            raise GameError(422, "invalid_request", f"variant must be one of {', '.join(VARIANTS)}")
        if len(seats) != players:
            raise GameError(422, "invalid_request", f"give one seat description per player ({players})")
        if not 0 <= first_player < players:
            raise GameError(422, "invalid_request", f"first_player must be a seat from 0 to {players - 1}")
        seed = secrets.randbits(32) if seed is None else seed
        game_id = secrets.token_urlsafe(8)
        tokens: dict[int, str] = {}
        rows = []
        first_human = next((i for i, s in enumerate(seats) if s["kind"] == "human"), None)
        for i, spec in enumerate(seats):
            if spec["kind"] == "bot":
                bot = (spec.get("bot") or "").lower()
                if bot not in BOTS:
                    raise GameError(422, "invalid_request", f"unknown bot {bot!r} (known: {', '.join(BOTS)})")
                name = spec.get("name") or f"{bot.capitalize()} bot"
                rows.append(SeatRow(seat=i, kind="bot", bot=bot, name=name, token_hash=None, claimed=True))
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
                      hints=hints, hotseat=hotseat, memory=memory, status="running", move_count=0, result=None)
        row.seats = rows
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
            seats=[Seat(s.seat, s.kind, s.bot, s.name, s.claimed, bool(s.public)) for s in seats],
            token_hashes=[s.token_hash for s in seats], owners=[s.user_id for s in seats],
            snapshot=Snapshot(GameState.new(row.players, row.variant, row.seed, row.first_player)),
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
                raise GameError(404, "unknown_game", f"no game {game_id!r}")
            moves = session.scalars(
                select(MoveRow.notation).where(MoveRow.game_id == game_id).order_by(MoveRow.number)).all()
            return self._from_rows(row, list(row.seats), list(moves))

    def forget(self, game_id: str) -> None:
        """Drop the cached game so the next use reloads it from the database."""
        with self._loading:
            self._games.pop(game_id, None)
            self._used.pop(game_id, None)

    def list_games(self, status: str | None = None, limit: int = 50) -> list[dict[str, Any]]:
        """Summaries for the lobby, newest activity first; ``status``: open, running or finished."""
        with self.sessions() as session:
            query = select(GameRow).order_by(GameRow.updated_at.desc()).limit(limit)
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
            "move_number": row.move_count, "hotseat": row.hotseat, "seats": seats,
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
                .where(GameRow.status == "running", SeatRow.kind == "bot")).all())

    # -- seats and tokens --------------------------------------------------------------------

    @staticmethod
    def find_seat(game: LiveGame, token: str | None) -> int:
        """The seat a seat token belongs to (no database access).

        401 ``no_token`` without a token; 403 ``invite_unclaimed`` for an invite
        not yet exchanged, ``invite_used`` for one already used, ``bad_token``
        for any other token.
        """
        if not token:
            raise GameError(401, "no_token", "this needs your seat's token (Authorization: Bearer <token>)")
        digest = hash_token(token)
        for seat, known in enumerate(game.token_hashes):
            if known is not None and secrets.compare_digest(known, digest):
                if not game.seats[seat].claimed:
                    raise GameError(403, "invite_unclaimed", "this is an invite: claim the seat first "
                                                             f"(POST /api/games/{game.id}/claim)")
                return seat
        if token.startswith(INVITE_PREFIX):
            raise GameError(403, "invite_used", "this invite was already used: its seat is taken")
        raise GameError(403, "bad_token", "this token belongs to no seat of this game")

    def _take(self, game: LiveGame, seat: int, condition: Any, user_id: int | None = None,
              user_name: str | None = None) -> str | None:
        """Claim an unclaimed seat in one conditional UPDATE; the new seat token, or None if it was taken first.
        A signed-in player's account (``user_id``) holds the seat from then on, under its name."""
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
            old = game.seats[seat]
            game.seats[seat] = Seat(seat, old.kind, old.bot, account.get("name", old.name), True, old.public)
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
            raise GameError(401, "no_token", "this needs the invite's token (Authorization: Bearer <token>)")
        digest = hash_token(invite)
        for seat, known in enumerate(game.token_hashes):
            if known is not None and secrets.compare_digest(known, digest):
                if game.seats[seat].claimed:
                    raise GameError(409, "claimed", "this is a seat token, not an invite: the seat is yours already")
                token = self._take(game, seat, SeatRow.token_hash == digest, user_id, user_name)
                if token is not None:
                    return seat, token
                self.forget(game_id)  # another process or request took it: reload the seats next time
                break
        raise GameError(403, "invite_used" if invite.startswith(INVITE_PREFIX) else "bad_token",
                        "this invite was already used: its seat is taken"
                        if invite.startswith(INVITE_PREFIX) else "this token belongs to no seat of this game")

    def join(self, game_id: str, user_id: int | None = None, user_name: str | None = None) -> tuple[int, str]:
        """Take the first free public seat atomically: (seat, token); 409 if none is left. A signed-in
        player's account (``user_id``, ``user_name``) holds the seat from then on.

        Each attempt is a conditional UPDATE, so of simultaneous joins for one
        seat exactly one is told it holds it; the seat's invite token stops working.
        """
        game = self.get(game_id)
        if game.snapshot.state.is_over():
            raise GameError(409, "over", "the game is over")
        for seat in list(game.seats):
            if seat.kind == "human" and seat.public and not seat.claimed:
                token = self._take(game, seat.seat, SeatRow.public.is_(True), user_id, user_name)
                if token is not None:
                    return seat.seat, token
        self.forget(game_id)  # what we knew may be behind another process: reload next time
        raise GameError(409, "no_free_seat", "no seat of this game is open to join")

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
            raise GameError(403, "not_creator", "only the game's creator can open a seat")
        if not 0 <= seat < game.players or game.seats[seat].kind != "human":
            raise GameError(404, "no_such_seat", f"seat {seat} is not a human seat of this game")
        if game.snapshot.state.is_over():
            raise GameError(409, "over", "the game is over")
        if game.seats[seat].claimed:
            raise GameError(409, "claimed", f"seat {seat} is taken already")
        with game.lock, self.engine.begin() as connection:
            connection.execute(update(SeatRow).where(SeatRow.game_id == game.id, SeatRow.seat == seat)
                               .values(public=True))
            pubsub.publish(connection, game.id, len(game.snapshot.moves))
            old = game.seats[seat]
            game.seats[seat] = Seat(seat, old.kind, old.bot, old.name, old.claimed, True)
        return game

    # -- views ---------------------------------------------------------------------------------

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
            "move_number": len(snap.moves),
            "log": list(snap.log) if over or not game.memory else [_without_card(e) for e in snap.log],
            "table": table_view(snap.state, seat, reveal=over),
        }

    @staticmethod
    def public_record(game: LiveGame) -> str:
        """The game's record (JSON text) as anyone may see it: the seed, which decides every hand and
        the order of the region cards, is null until the game is over."""
        _refuse_in_memory_mode(game, "the record")
        text = game.record().dumps()
        if game.snapshot.state.is_over():
            return text
        return json.dumps({**json.loads(text), "seed": None}, indent=2)

    def replay_frame(self, game: LiveGame, number: int) -> dict[str, Any]:
        """The public table after ``number`` moves (hands shown only once the game is over)."""
        _refuse_in_memory_mode(game, "a replay")
        snap = game.snapshot
        if not 0 <= number <= len(snap.moves):
            raise GameError(404, "no_such_move", f"the game has moves 0 to {len(snap.moves)}, not {number}")
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
        builder = state.builder()
        for number, step in enumerate(steps, start=1):
            try:
                builder.choose(step)
            except (IllegalMoveError, LookupError) as exc:  # LookupError: a card, region or faction that is none
                raise GameError(422, "illegal_step", f"step {number}: {exc}") from None
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
            raise GameError(409, "over", "the game is over")
        if seat != state.player:
            raise GameError(409, "not_your_turn", f"not your turn: player {state.player + 1} is to move")

    def play(self, game_id: str, seat: int, notation: str, expected: int | None = None) -> LiveGame:
        """Validate and store one move; errors change nothing.

        Before refusing with a 409 (stale, not your turn, over), the game is
        compared with the database: if another process stored moves this one
        has not seen yet, it reloads and judges the move again.
        """
        try:
            return self._play(game_id, seat, notation, expected)
        except GameError as exc:
            if exc.status != 409 or not self.catch_up(game_id):
                raise
        return self._play(game_id, seat, notation, expected)

    def catch_up(self, game_id: str) -> bool:
        """Reload the cached game if the database holds more moves than it; True if it was behind."""
        game = self._games.get(game_id)
        with self.sessions() as session:
            stored = session.scalar(select(GameRow.move_count).where(GameRow.id == game_id))
        if stored is None or (game is not None and len(game.snapshot.moves) >= stored):
            return False
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

    def _play(self, game_id: str, seat: int, notation: str, expected: int | None) -> LiveGame:
        game = self.get(game_id)
        game.lock.acquire()
        while self._games.get(game_id) is not game:  # reloaded while we waited: judge against the new copy
            game.lock.release()
            game = self.get(game_id)
            game.lock.acquire()
        try:
            snap = game.snapshot
            if expected is not None and expected != len(snap.moves):
                raise GameError(409, "stale", f"stale: the game is at move {len(snap.moves)}, not {expected}; "
                                              "reload to see the latest position")
            self._check_turn(snap.state, seat)
            try:
                move = parse_move(notation)
                snap.state.check(move)
            except (NotationError, IllegalMoveError) as exc:
                raise GameError(422, "illegal_move", str(exc)) from None
            after = snap.after(move)
            self._store(game, after, seat)
            game.snapshot = after
        finally:
            game.lock.release()
        return game

    def _store(self, game: LiveGame, snap: Snapshot, seat: int) -> None:
        """Append the move and update the game row in one transaction (two plain statements)."""
        number = len(snap.moves)
        result = snap.state.result
        changes: dict[str, Any] = {"move_count": number, "updated_at": datetime.now(UTC),
                                   "to_move": None if result is not None else snap.state.player}
        if result is not None:
            changes.update(status="finished", result=result.to_dict())
        try:
            with self.engine.begin() as connection:
                connection.execute(insert(MoveRow).values(game_id=game.id, number=number, seat=seat,
                                                          notation=snap.moves[-1], created_at=changes["updated_at"]))
                connection.execute(update(GameRow).where(GameRow.id == game.id).values(**changes))
                pubsub.publish(connection, game.id, number)
        except IntegrityError:
            self.forget(game.id)  # another writer got there first: reload its moves next time
            raise GameError(409, "stale", f"stale: move {number} was already played; reload") from None

    @staticmethod
    def bot_is_to_move(game: LiveGame) -> bool:
        state = game.snapshot.state
        return not state.is_over() and game.seats[state.player].kind == "bot"

    def bot_turn(self, game_id: str) -> tuple[Job, int] | None:
        """If a bot is to move: (the job that chooses its move, in notation; the seat), else None."""
        game = self.get(game_id)
        snap = game.snapshot
        state = snap.state
        if not self.bot_is_to_move(game):
            return None
        name = game.seats[state.player].bot
        assert name is not None
        number = len(snap.moves)
        job = Job("bot", game_id, number, compute.bot_move, (name, game.bot_seed * 1009 + number, state.copy()))
        return job, state.player

    def hint(self, game: LiveGame, seat: int) -> Job:
        """The job that finds this seat's best moves (only if the game allows hints); run it in the pool.

        The search sees every hand, but hands hold no secret from a player who
        follows the public move log (every card played is in it).
        """
        if not game.hints:
            raise GameError(403, "hints_off", "hints are off in this game's settings")
        snap = game.snapshot
        self._check_turn(snap.state, seat)
        number = len(snap.moves)
        return Job("hint", game.id, number, compute.hint,
                   (snap.state.copy(), game.bot_seed + number, HINT_BUDGET, HINTS_SHOWN))

    def analysis(self, game: LiveGame) -> dict[str, Any] | Job:
        """The analysis of a finished game if it is known, else the job that makes it (then :meth:`remember`)."""
        if not game.snapshot.state.is_over():
            raise GameError(409, "not_over", "the analysis is shown once the game is over")
        cached = self._analyses.get(game.id)
        if cached is not None:
            self._analyses.move_to_end(game.id)
            return cached
        return Job("analysis", game.id, len(game.snapshot.moves), compute.analysis,
                   (game.record().dumps(), game.bot_seed, ANALYSIS_BUDGET))

    def remember(self, game_id: str, notes: list[dict[str, Any]]) -> dict[str, Any]:
        """Keep a finished game's analysis (its job's result; the most recent ANALYSES_KEPT stay)."""
        found = {"id": game_id, "method": f"search of {ANALYSIS_BUDGET.iterations} playouts per move", "moves": notes,
                 "summary": analysis_summary(notes)}
        self._analyses[game_id] = found
        self._analyses.move_to_end(game_id)
        while len(self._analyses) > ANALYSES_KEPT:
            self._analyses.popitem(last=False)
        return found


def _without_card(entry: dict[str, Any]) -> dict[str, Any]:
    """A log entry as memory mode shows it while the game runs: who moved and what changed on the
    board, but not the card played nor the move's notation."""
    passed = entry["notation"] == "pass"
    return {**entry, "notation": "pass" if passed else "card", "text": "passes" if passed else "plays a card"}


def _refuse_in_memory_mode(game: LiveGame, what: str) -> None:
    """Raises GameError 409 for ``what`` (a record or a replay) of a running memory-mode game."""
    if game.memory and not game.snapshot.state.is_over():
        raise GameError(409, "memory_mode", f"this game is played from memory: {what} is available once it ends")


def _choice_dict(choice: Choice) -> dict[str, Any]:
    return {"kind": choice.kind, "value": choice.value, "label": choice.label}

