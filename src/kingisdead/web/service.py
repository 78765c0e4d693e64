"""The game service: the games kept (:mod:`.games`), their seats (:mod:`.seats`) and moves (:mod:`.moves`)."""

from __future__ import annotations

from .moves import MoveService
from .seats import SeatService


class GameService(SeatService, MoveService):
    """Creates, loads, seats, shows and advances games; thread-safe (called from worker threads)."""
