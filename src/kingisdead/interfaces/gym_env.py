"""A Gymnasium single-agent environment: the learner in one seat, bots in the others (``rl`` extra).

The learner builds its moves one integer at a time, exactly as in the
PettingZoo environment; between its moves the bots play whole moves. The
observation is the flat vector of :mod:`.encoding`; the mask of the integers
allowed now is in ``info["action_mask"]`` and in :meth:`KingIsDeadGym.action_masks`
(the name sb3-contrib's maskable algorithms look for). In the second
edition's advanced game (``mode="advanced"``) the learner observes only what
its seat may know (``state.view(seat)``), in the advanced encodings.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from .. import engine
from ..bots import Bot, make_bot
from ..edition import Edition, get_edition
from ..moves import IllegalMoveError
from ..state import GameState
from .encoding import num_actions
from .pettingzoo_env import SEED_BOUND, observation_space, render_text
from .stepping import SteppedGame


class KingIsDeadGym(gymnasium.Env):
    """One learner against bots.

    ``seat`` is the learner's seat (0-based) or "random" for a new draw at every
    reset; ``opponent`` a bot name from :data:`kingisdead.bots.BOTS` or a Bot.
    ``illegal_reward`` None makes an integer outside the mask raise
    IllegalMoveError; a number instead ends the episode with that reward.
    ``edition`` is "first", "second" or an :class:`~kingisdead.edition.Edition`;
    the observation and action spaces are the same in both. ``mode`` is
    "standard" or "advanced" (None: the edition's own); the advanced game has its
    own spaces (docs/rl.md) and only the bots that keep to their seat's view play
    it (:data:`kingisdead.bots.SEAT_VIEW_BOTS`). ValueError for a setup or mode
    the edition does not have, or a bot name that cannot play it.
    """

    metadata = {"render_modes": ["human", "ansi"]}

    def __init__(self, players: int = 2, variant: str = "standard", opponent: str | Bot = "random",
                 seat: int | str = 0, render_mode: str | None = None,
                 illegal_reward: float | None = None, edition: str | Edition = "first",
                 mode: str | None = None) -> None:
        self.edition = get_edition(edition, mode)
        engine.check_setup(players, variant, 0, self.edition)
        if seat != "random" and (not isinstance(seat, int) or not 0 <= seat < players):
            raise ValueError(f"seat must be 'random' or a seat from 0 to {players - 1}, got {seat!r}")
        if isinstance(opponent, str):
            make_bot(opponent, edition=self.edition)  # unknown names fail now, not at the first reset
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or None")
        self.players, self.variant, self.opponent, self.seat_choice = players, variant, opponent, seat
        self.render_mode = render_mode
        self.illegal_reward = illegal_reward
        self.observation_space = observation_space(self.edition)
        self.action_space = spaces.Discrete(num_actions(self.edition))
        self.game: SteppedGame | None = None
        self.seat: int = 0 if isinstance(seat, str) else seat
        self._bots: list[Bot] = []
        self._ended = False
        """True once the episode is over (the game ended or an illegal integer ended it)."""

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[np.ndarray, dict[str, Any]]:
        """A new game; ``options`` may fix "game_seed" and "first_player" (default 0)."""
        super().reset(seed=seed)
        options = options or {}
        game_seed = options.get("game_seed")
        if game_seed is None:
            game_seed = int(self.np_random.integers(SEED_BOUND))
        if self.seat_choice == "random":
            self.seat = int(self.np_random.integers(self.players))
        self._bots = [
            make_bot(self.opponent, int(self.np_random.integers(SEED_BOUND)), edition=self.edition)
            if isinstance(self.opponent, str)
            else self.opponent
            for _ in range(self.players)
        ]
        self.game = SteppedGame(GameState.new(self.players, self.variant, game_seed,
                                              options.get("first_player", 0), self.edition))
        self._ended = False
        self._bots_play()
        return self._observe(), self._info()

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        game = self._running()
        if self._ended or game.is_over():
            raise IllegalMoveError("the episode is over: call reset()")
        try:
            game.step(int(action))
        except (IllegalMoveError, ValueError):
            if self.illegal_reward is None:
                raise
            self._ended = True
            return self._observe(), float(self.illegal_reward), True, False, self._info(illegal=True)
        self._bots_play()
        reward = game.returns()[self.seat] if game.is_over() else 0.0
        if self.render_mode == "human":
            self.render()
        return self._observe(), reward, game.is_over(), False, self._info()

    def action_masks(self) -> np.ndarray:
        """The integers the learner may choose now, as booleans."""
        return self._mask().astype(bool)

    def render(self) -> str | None:
        text = render_text(self._running())
        if self.render_mode == "ansi":
            return text
        if self.render_mode == "human":
            print(text)
        return None

    # -- internals -----------------------------------------------------------------

    def _bots_play(self) -> None:
        game = self._running()
        while not game.is_over() and game.player != self.seat:
            game.play(self._bots[game.player].choose(game.state))

    def _running(self) -> SteppedGame:
        if self.game is None:
            raise RuntimeError("call reset() before using the environment")
        return self.game

    def _mask(self) -> np.ndarray:
        mask = np.zeros(num_actions(self.edition), dtype=np.int8)
        game = self._running()
        if game.player == self.seat:
            mask[game.legal_actions()] = 1
        return mask

    def _observe(self) -> np.ndarray:
        return np.asarray(self._running().observation(self.seat), dtype=np.float32)

    def _info(self, illegal: bool = False) -> dict[str, Any]:
        game = self._running()
        info: dict[str, Any] = {"action_mask": self._mask(), "seat": self.seat}
        if illegal:
            info["illegal_action"] = True
        if game.state.result is not None:
            info["result"] = game.state.result.to_dict()
        return info


def gym_env(players: int = 2, variant: str = "standard", opponent: str | Bot = "random", seat: int | str = 0,
            render_mode: str | None = None, illegal_reward: float | None = None,
            edition: str | Edition = "first", mode: str | None = None) -> KingIsDeadGym:
    """The single-agent environment (see :class:`KingIsDeadGym`)."""
    return KingIsDeadGym(players, variant, opponent, seat, render_mode, illegal_reward, edition, mode)
