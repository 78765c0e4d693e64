"""The King Is Dead: a faithful, fast engine for the board game.

>>> from kingisdead import GameState
>>> game = GameState.new(players=2, seed=7)
>>> game.apply("pass").current_player
1
"""

from .board import Card, Faction, Region
from .edition import EDITIONS, FIRST, SECOND, Edition, get_edition
from .moves import PASS, IllegalMoveError, Move, NotationError, format_move, parse_move
from .scoring import Result
from .state import VARIANTS, GameState

__all__ = [
    "EDITIONS", "FIRST", "PASS", "SECOND", "VARIANTS", "Card", "Edition", "Faction", "GameState",
    "IllegalMoveError", "Move", "NotationError", "Region", "Result", "format_move", "get_edition", "parse_move",
]
__version__ = "0.1.0"
