"""A game in memory: its seats and an immutable :class:`Snapshot` of its state, moves and log.

A :class:`LiveGame` holds a game's settings and its latest snapshot; a move
replaces the snapshot whole, so a reader never sees a half-made move (see
web/games.py for how games are loaded, cached and stored).
"""

from __future__ import annotations

import hashlib
import threading
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from functools import cached_property
from typing import Any

from .. import engine
from ..edition import Edition, get_edition
from ..moves import PASS, Move, format_move
from ..record import GameRecord
from ..state import GameState
from .choices import choices_view
from .errors import GameError
from .i18n import _
from .texts import NotationText
from .views import describe_move, move_changes

TIME_LIMITS = (120, 600, 86_400, 259_200)
"""The move time limits a game may have, in seconds (2 and 10 minutes, 1 and 3 days); None: no limit."""
INVITE_PREFIX = "invite-"
"""Invite tokens start with this: one used again is told "already used", not "no such token"."""
DEFAULT_STAND_IN = "intermediate"
"""The bot level that plays for a person who ran out of time or left, unless the game names another."""


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
    notation (and ``shown_notation``, written as the reader's language names things), the card played (its index, None for a pass), the move in words and the struggles it
    ended (region, control).
    """

    state: GameState
    moves: tuple[str, ...] = ()
    log: tuple[dict[str, Any], ...] = ()

    def after(self, move: Move) -> Snapshot:
        before = self.state
        state = before.copy()
        engine.play(state, move)
        text = format_move(move, before.edition)
        entry = {
            "number": len(self.moves) + 1, "seat": before.player, "notation": text,
            "shown_notation": NotationText(move, before.edition),  # in the page's language (texts.py)
            "text": describe_move(move, before.edition),
            "card": None if move.card is None else int(move.card),  # the face the log draws
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
    edition: str = "first"  # a name of kingisdead.edition.EDITIONS
    options: dict[str, Any] = field(default_factory=dict)  # the edition's options the game is played with
    mode: str = "standard"  # or "advanced": the second edition's secret Cunning cards (kingisdead.edition.MODES)
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
        return GameState.new(self.players, self.variant, self.seed, self.first_player, self.edition_played())

    def edition_played(self) -> Edition:
        """The edition in the game's mode with its options."""
        return get_edition(self.edition, self.mode, **self.options)

    @property
    def advanced(self) -> bool:
        """The advanced game: each seat holds secret Cunning cards, which only its own views show."""
        return self.mode == "advanced"

    @property
    def status(self) -> str:
        return "finished" if self.snapshot.state.is_over() else "running"

    def bot_for(self, seat: int) -> str | None:
        """The bot level that plays ``seat``: a bot seat's own, the stand-in for a person away or gone, else None."""
        s = self.seats[seat]
        if s.kind == "bot":
            return s.bot
        return self.stand_in if s.away or s.left else None

    def passes_for(self, state: GameState) -> bool:
        """True if the seat to move in ``state`` is a person with no card left, whose turn the server passes
        (their only legal move: a person is not asked to click it turn after turn, nor timed for it)."""
        return (not state.is_over() and self.bot_for(state.player) is None and state.cards_left(state.player) == 0
                and engine.legal_moves(state) == [PASS])  # the engine says so: cheap to ask once the hand is empty

    def server_moves(self, state: GameState) -> bool:
        """True if the server makes the move of the seat to move in ``state``: a bot's, the stand-in's for a
        person away or gone, or the pass of a person with no card left (:meth:`passes_for`)."""
        return not state.is_over() and (self.bot_for(state.player) is not None or self.passes_for(state))

    def next_deadline(self, state: GameState, now: datetime) -> datetime | None:
        """When the seat to move in ``state`` runs out of time: ``now`` plus the limit if a person plays it,
        None if the game has no limit, is over, or the server makes that move (:meth:`server_moves`)."""
        if self.time_limit is None or self.server_moves(state) or state.is_over():
            return None
        return now + timedelta(seconds=self.time_limit)

    def record(self) -> GameRecord:
        snap = self.snapshot
        result = snap.state.result
        return GameRecord([s.name for s in self.seats], self.variant, self.seed, self.first_player,
                          list(snap.moves), None if result is None else result.to_dict(), snap.state.edition)


def as_utc(moment: datetime | None) -> datetime | None:
    """A stored time as an aware UTC datetime (SQLite gives them back without their zone)."""
    return moment if moment is None or moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


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
