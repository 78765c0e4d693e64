"""Moves: the choices of a move being built, moves checked by the engine and stored, bot turns, hints,
analyses and take-back rules.

A move is checked by the engine, written to the database, and only then
becomes the game's new snapshot, so a failed write changes nothing. Moves for
one game are serialised by a per-game lock and by the move number the client
sends: a client that is behind gets a "stale" error.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import insert, update
from sqlalchemy.exc import IntegrityError

from ..bots.budget import Budget
from ..building import Choice
from ..edition import Edition
from ..moves import IllegalMoveError, Move, NotationError, format_move, parse_move
from ..state import GameState
from . import compute, pubsub
from .compute import Job
from .db import GameRow, MoveRow
from .errors import GameError
from .explain import analysis_summary
from .games import GameStore, bot_played
from .i18n import _
from .live_game import LiveGame, Snapshot
from .outage import DATABASE_DOWN, reason
from .ratings import apply_ratings
from .views import choice_label, describe_move, preview, step_guide, table_view

log = logging.getLogger("kingisdead.web")

HINTS_SHOWN = 3
HINT_BUDGET = Budget(iterations=20_000)
"""About 0.15 s in the compiled core: enough visits to tell the top moves apart."""
ANALYSIS_BUDGET = Budget(iterations=2000)
ANALYSES_KEPT = 200
"""Finished games whose analysis stays in memory (the least recently asked for goes first)."""


class MoveService:
    """Builds, checks and stores moves of the games kept in ``store``; finds bots' moves, hints and analyses."""

    def __init__(self, store: GameStore) -> None:
        self.store = store
        self._analyses: OrderedDict[str, dict[str, Any]] = OrderedDict()

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
            "steps": [_choice_dict(c, state.edition) for c in builder.steps],
            "options": [_choice_dict(c, state.edition) for c in builder.options()],
            "complete": complete,
            "move": None if move is None else format_move(move, state.edition),
            "description": None if move is None else describe_move(move, state.edition),
            "preview": None if (after := preview(state, builder.steps) or _played(state, move)) is None
            else table_view(after, seat),
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
            if exc.status != 409 or not self.store.catch_up(game_id):
                raise
        return self._play(game_id, seat, notation, expected, position)

    def _play(self, game_id: str, seat: int, notation: str, expected: int | None,
              position: GameState | None = None) -> LiveGame:
        game = self.store.get(game_id)
        game.lock.acquire()
        while self.store._games.get(game_id) is not game:  # reloaded while we waited: judge against the new copy
            game.lock.release()
            game = self.store.get(game_id)
            game.lock.acquire()
        try:
            snap = game.snapshot
            if expected is not None and expected != len(snap.moves):
                if position is None and _passed_for(snap, seat, notation, expected):
                    return game  # the server passed for this person with no card left: that pass is this one
                raise GameError(409, "stale", _("stale: the game is at move {current}, not {expected}; "
                                                "reload to see the latest position", current=len(snap.moves),
                                                expected=expected))
            if position is not None and (not game.server_moves(snap.state) or snap.state != position):
                # a bot's move chosen before a take-back, or for a person who has come back: drop it
                raise GameError(409, "stale", _("stale: the position this bot move was chosen for has changed"))
            self._check_turn(snap.state, seat)
            if position is None:
                self._check_person_plays(game, seat)
            try:
                move = parse_move(notation, snap.state.edition)
                snap.state.check(move)
            except (NotationError, IllegalMoveError) as exc:
                raise GameError(422, "illegal_move", str(exc)) from None
            after = snap.after(move)
            stand_in = position is not None and game.bot_for(seat) is not None and game.seats[seat].kind == "human"
            self._store(game, after, seat, stand_in=stand_in)
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
            with self.store.engine.begin() as connection:
                connection.execute(insert(MoveRow).values(game_id=game.id, number=number, seat=seat,
                                                          notation=snap.moves[-1], created_at=changes["updated_at"],
                                                          stand_in=stand_in))
                connection.execute(update(GameRow).where(GameRow.id == game.id).values(**changes))
                pubsub.publish(connection, game.id, number)
        except IntegrityError:
            self.store.forget(game.id)  # another writer got there first: reload its moves next time
            raise GameError(409, "stale", _("stale: move {number} was already played; reload", number=number)) from None
        game.deadline = deadline
        if result is not None and game.rated:
            self._apply_ratings(game.id)

    def _apply_ratings(self, game_id: str) -> None:
        """Apply a rated game's result once it is stored; on a failure the move stands, and
        :func:`.ratings.keep_applied` applies it as soon as the database lets it (:attr:`ratings_due`)."""
        try:
            apply_ratings(self.store.engine, game_id)
        except DATABASE_DOWN as exc:
            log.warning("ratings of game %s not applied yet (%s): tried again until they are", game_id, reason(exc))
            self.store.ratings_due.set()
        except Exception:
            log.exception("ratings of game %s not applied: tried again until they are", game_id)
            self.store.ratings_due.set()

    @staticmethod
    def server_is_to_move(game: LiveGame) -> bool:
        """True if the server makes the next move (:meth:`LiveGame.server_moves`): a bot seat's, the stand-in's
        for a person away or gone, or the pass of a person with no card left."""
        return game.server_moves(game.snapshot.state)

    def bot_turn(self, game_id: str) -> tuple[Job, int, GameState] | None:
        """If the server is to move: (the job that chooses the move, in notation; the seat; the position it is
        chosen for, to pass to :meth:`play` as ``position``), else None. A person with no card left passes."""
        game = self.store.get(game_id)
        snap = game.snapshot
        state = snap.state
        if not self.server_is_to_move(game):
            return None
        name = game.bot_for(state.player)
        number = len(snap.moves)
        if name is not None:
            name = bot_played(name, game.mode)
        if name is None:  # game.passes_for(state)
            job = Job("bot", game_id, number, compute.forced_pass, (), position=state.key())
        else:
            job = Job("bot", game_id, number, compute.bot_move, (name, game.bot_seed * 1009 + number, state.copy()),
                      position=state.key())
        return job, state.player, state

    def hint(self, game: LiveGame, seat: int) -> Job:
        """The job that finds this seat's best moves (only if the game allows hints); run it in the pool.

        The search sees every hand, but hands hold no secret from a player who
        follows the public move log (every card played is in it).

        Raises GameError 403 ``hints_off`` in memory mode (a hint would show what the player may not look
        back at: the cards played), in the advanced game (the search would read the other seats' secret
        Cunning cards) or when the game was made without hints, 409 if it is not this seat's turn.
        """
        if game.advanced:
            raise GameError(403, "hints_off", _("no hints in the advanced game: their search would read the "
                                                "other players' secret cards"))
        if game.memory:
            raise GameError(403, "hints_off", _("no hints in memory mode: they would show the cards played"))
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
        if game.advanced:
            raise GameError(409, "advanced", _("the advanced game has no analysis yet"))
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


def _played(state: GameState, move: Move | None) -> GameState | None:
    """The position after a complete card move (a Cunning card's preview, see views.preview), else None."""
    return None if move is None or move.card is None else state.after(move)


def _choice_dict(choice: Choice, edition: Edition) -> dict[str, Any]:
    return {"kind": choice.kind, "value": choice.value, "label": choice_label(choice.kind, choice.value, edition)}


def _passed_for(snap: Snapshot, seat: int, notation: str, number: int) -> bool:
    """Whether move ``number`` (from 0) is a pass the server played for ``seat`` with no card left
    (:meth:`LiveGame.passes_for`) and ``notation`` a pass: that person's own pass sent for the same turn is then
    answered as made, not refused as stale. (The hand was empty then: it is now, and the seat has only passed
    since, as cards are never dealt again.)"""
    if not (0 <= number < len(snap.moves) and notation.strip().lower() == "pass"):
        return False
    own = [k for k in range(number, len(snap.moves)) if snap.log[k]["seat"] == seat]
    return (bool(own) and own[0] == number and all(snap.moves[k] == "pass" for k in own)
            and snap.state.cards_left(seat) == 0)
