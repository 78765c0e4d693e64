"""A game played one encoded step at a time, the common core of every research interface.

PettingZoo, Gymnasium and OpenSpiel all see the same thing: the player to move
chooses one integer of the action encoding at a time (see
:mod:`.encoding`); when the steps make a whole move, the move is played and
the turn passes. Only the standard library is needed here.
"""

from __future__ import annotations

from ..building import MoveBuilder
from ..moves import IllegalMoveError, Move
from ..state import GameState
from .encoding import (
    MAX_STEPS,
    action_name,
    action_to_choice,
    legal_actions,
    move_to_actions,
    num_actions,
    observation,
)


def returns(state: GameState) -> list[float]:
    """The reward scheme: +1 to each winner, -1 to the others, 0 to all if every player wins.

    With 4 players both members of the winning team get +1. Everyone wins only
    when all stay tied and none played a card: that is scored as a draw.
    Before the end every player's return is 0.
    """
    result = state.result
    if result is None or len(result.winners) == state.players:
        return [0.0] * state.players
    return [1.0 if p in result.winners else -1.0 for p in range(state.players)]


def max_steps(players: int, move_steps: int = MAX_STEPS) -> int:
    """An upper bound on the steps of a game (OpenSpiel's max_game_length).

    Each player plays at most 8 cards of at most ``move_steps`` steps (8; 11 in the
    advanced game: :func:`.encoding.max_move_steps`); between two card plays at most
    ``players - 1`` passes come, and each of the 8 struggles ends with a round of
    ``players`` passes.
    """
    cards = 8 * players
    return cards * move_steps + cards * (players - 1) + 8 * players


class SteppedGame:
    """A :class:`GameState` with the move being built step by step by the player to move."""

    __slots__ = ("state", "steps", "moves", "_builder", "_offered")

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.steps: list[int] = []
        """Integers chosen so far for the move being built."""
        self.moves: list[Move] = []
        """Moves played through this object, in order."""
        self._builder: MoveBuilder | None = None
        self._offered: list[int] | None = None
        """The integers offered next (cached: listing them is the costly part of a step)."""

    def copy(self) -> SteppedGame:
        c = SteppedGame(self.state.copy())
        c.steps = self.steps[:]
        c.moves = self.moves[:]
        return c

    def __deepcopy__(self, memo: dict) -> SteppedGame:
        """What copy.deepcopy (and so OpenSpiel's clone) uses: :meth:`copy`, without the builder's caches."""
        return self.copy()

    @property
    def builder(self) -> MoveBuilder:
        """The builder of the move under way (rebuilt lazily after a copy)."""
        if self._builder is None:
            self._builder = self.state.builder()
            for action in self.steps:
                self._builder.choose(action_to_choice(action, self.num_actions))
        return self._builder

    @property
    def player(self) -> int:
        return self.state.player

    def is_over(self) -> bool:
        return self.state.is_over()

    def legal_actions(self) -> list[int]:
        """The integers the player to move may choose next, ascending (empty once the game is over)."""
        if self._offered is None:
            self._offered = [] if self.state.is_over() else legal_actions(self.builder)
        return self._offered[:]

    @property
    def num_actions(self) -> int:
        """How many integers the game has (:func:`.encoding.num_actions`)."""
        return num_actions(self.state.edition)

    def action_mask(self) -> list[int]:
        mask = [0] * self.num_actions
        for a in self.legal_actions():
            mask[a] = 1
        return mask

    def observation(self, player: int) -> list[float]:
        """``player``'s observation (:func:`.encoding.observation`): in the advanced game, its view only."""
        return observation(self.state, player, self.steps)

    def returns(self) -> list[float]:
        return returns(self.state)

    def step(self, action: int) -> Move | None:
        """Take one step; returns the move once the steps complete one (it is then played).

        An integer that is not offered raises IllegalMoveError and changes nothing.
        """
        if self.state.is_over():
            raise IllegalMoveError("the game is over")
        choice = action_to_choice(action, self.num_actions)
        offered = self.legal_actions()
        if action not in offered:
            edition = self.state.edition
            names = ", ".join(f"{a} ({action_name(a, edition)})" for a in offered)
            raise IllegalMoveError(f"action {action} ({action_name(action, edition)}) is not offered; "
                                   f"the choices are: {names}")
        builder = self.builder
        builder.steps.append(choice)  # offered, so MoveBuilder.choose would accept it
        self.steps.append(action)
        self._offered = legal_actions(builder)
        if self._offered:
            return None
        move = builder.move()
        self.state.apply(move)
        self.moves.append(move)
        self.steps = []
        self._builder = self._offered = None
        return move

    def play(self, move: Move) -> None:
        """Play a whole move (a bot's); only between moves, and checked like any move."""
        if self.steps:
            raise IllegalMoveError("a move is being built step by step; finish it first")
        self.state.apply(move)
        self.moves.append(move)
        self._builder = self._offered = None

    def play_steps(self, move: Move) -> list[int]:
        """Play a whole move by its steps (keeps step histories complete); returns the steps."""
        actions = move_to_actions(move)
        for action in actions:
            self.step(action)
        return actions
