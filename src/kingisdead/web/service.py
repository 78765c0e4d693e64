"""The game service: the games kept (:mod:`.games`), their seats (:mod:`.seats`) and moves (:mod:`.moves`).

:class:`GameService` is a facade: it holds one :class:`~.games.GameStore` and the seat and move services
made on it, and hands each call to the one that does it, so callers need only the service.
"""

from __future__ import annotations

import threading

from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session, sessionmaker

from .games import GameStore
from .lobby import LobbyCache
from .moves import MoveService
from .seats import SeatService


class GameService:
    """Creates, loads, seats, shows and advances games; thread-safe (called from worker threads).

    ``store`` keeps the games; ``seats`` and ``moves`` work on that same store. Raises what the
    :class:`~.games.GameStore` raises for a bad ``database_url`` (see :func:`.db.make_engine`).
    """

    def __init__(self, database_url: str) -> None:
        self.store = GameStore(database_url)
        self.seats = SeatService(self.store)
        self.moves = MoveService(self.store)
        store, seats, moves = self.store, self.seats, self.moves
        # The store's games: made, found, cached, listed and shown.
        self.create, self.cached, self.get, self.evict = store.create, store.cached, store.get, store.evict
        self.forget, self.catch_up, self.reload = store.forget, store.catch_up, store.reload
        self.list_games, self.bot_games, self.rating_changes = store.list_games, store.bot_games, store.rating_changes
        self.view, self.public_record, self.replay_frame = store.view, store.public_record, store.replay_frame
        self.close = store.close
        # Who sits where.
        self.find_seat, self.claim_invite, self.join = seats.find_seat, seats.claim_invite, seats.join
        self.account_seat, self.creator_seat, self.open_seat = seats.account_seat, seats.creator_seat, seats.open_seat
        self.adopt = seats.adopt
        # Moves, bots' turns, hints and analyses.
        self.options, self.play, self.server_is_to_move = moves.options, moves.play, moves.server_is_to_move
        self.bot_turn, self.hint, self.analysis, self.remember = moves.bot_turn, moves.hint, moves.analysis, moves.remember

    @property
    def engine(self) -> Engine:
        """The store's database engine."""
        return self.store.engine

    @property
    def sessions(self) -> sessionmaker[Session]:
        """The store's ORM sessions."""
        return self.store.sessions

    @property
    def lobby(self) -> LobbyCache:
        """The lobby's listing, kept in memory for a moment."""
        return self.store.lobby

    @property
    def ratings_due(self) -> threading.Event:
        """Set when a finished rated game's ratings failed: :func:`.ratings.keep_applied` retries."""
        return self.store.ratings_due

