"""N games stepped at once in the compiled core: a Gymnasium vector environment (``rl`` extra).

Every game is the PettingZoo environment's game (:mod:`.pettingzoo_env`),
seen through the seat to act: each call to :meth:`KingIsDeadVectorEnv.step`
takes one building step (one integer of :mod:`.encoding`) in every game at
once, and returns NumPy arrays with one row per game:

- observations ``(N, 456)`` float32 (``(N, 770)`` in the advanced game): the
  observation of the seat to act (``infos["seat"]``), with the steps of its move
  so far; in the advanced game it is built from that seat's view alone
  (:func:`.encoding.view_observation`: its own Cunning cards, every card played,
  how many each other seat holds, never which);
- rewards ``(N,)`` float32: the reward of the seat that took the step (it is
  nonzero only at the end of a game); ``infos["seat_rewards"]`` ``(N, players)``
  holds every seat's, as the PettingZoo environment pays them;
- terminations ``(N,)`` bool (a game ends only by its rules), truncations
  ``(N,)`` always False;
- ``infos["action_mask"]`` ``(N, 21)`` int8 (``(N, 37)`` in the advanced game; also
  :meth:`~KingIsDeadVectorEnv.action_masks`),
  ``infos["seat"]`` ``(N,)`` int8 and ``infos["game_seed"]`` ``(N,)`` uint64, the
  ``GameState.new`` seed of each game under way.

A finished game is set up anew at the next step ("next-step" autoreset, the
Gymnasium default): that step ignores its action and returns the new game's
first observation with reward 0. With ``autoreset_mode=AutoresetMode.SAME_STEP``
it is set up anew in the step that ends it: that step returns the final
rewards and terminations with the new game's first observation, and the
last observation in ``infos["final_obs"]`` (as Gymnasium's own vector
environments do). See docs/rl.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from .. import engine
from ..edition import Edition, get_edition
from ..moves import IllegalMoveError
from ..state import GameState
from .encoding import num_actions, observation_size
from .pettingzoo_env import SEED_BOUND, observation_space, render_text
from .stepping import SteppedGame


class KingIsDeadVectorEnv(VectorEnv):
    """``num_envs`` games of ``players`` seats and ``variant`` ("standard" or "mordred").

    ``copy`` False returns the environment's own buffers from ``reset`` and
    ``step`` (no copying, but the next call overwrites them); True (the
    default, as Gymnasium's vector environments) returns fresh arrays.
    ``autoreset_mode`` is ``AutoresetMode.NEXT_STEP`` (the default) or
    ``AutoresetMode.SAME_STEP`` (or their values, "NextStep" and "SameStep").
    ``edition`` is "first" (the default), "second" or an
    :class:`~kingisdead.edition.Edition` with options; the encodings have the
    same shapes in both (ValueError for an unknown edition, or Mordred in the second).
    ``mode`` is "standard" or "advanced" (None: the edition's own): the second
    edition's advanced game has the advanced encodings (observations of 770
    numbers from the seat to act's view alone, 37 integers; docs/rl.md), its
    spaces sized as the Gymnasium environment's (ValueError for a mode the edition
    does not have). Needs the compiled core (RuntimeError otherwise).
    """

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": ["ansi"]}

    def __init__(self, num_envs: int, players: int = 2, variant: str = "standard", copy: bool = True,
                 render_mode: str | None = None,
                 autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
                 edition: str | Edition = "first", mode: str | None = None) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive integer, got {num_envs!r}")
        self.edition = get_edition(edition, mode)
        engine.check_setup(players, variant, 0, self.edition)
        mordred = variant == "mordred"
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or None")
        modes = (AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP)
        autoreset = next((m for m in modes if autoreset_mode in (m, m.value)), None)
        if autoreset is None:
            raise ValueError(f"autoreset_mode must be AutoresetMode.NEXT_STEP or SAME_STEP, got {autoreset_mode!r}")
        self.metadata = {**self.metadata, "autoreset_mode": autoreset}
        self.num_envs = num_envs
        self.players = players
        self.variant = variant
        self.copy = copy
        self.render_mode = render_mode
        self.single_observation_space = observation_space(self.edition)
        self.single_action_space = spaces.Discrete(num_actions(self.edition))
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._same_step = autoreset is AutoresetMode.SAME_STEP
        self._core = engine.vector_env(players, mordred, 0, np.zeros(num_envs, dtype=np.uint64),
                                       self._same_step, self.edition)
        width, actions = observation_size(self.edition), num_actions(self.edition)
        if (self._core.observation_size, self._core.num_actions) != (width, actions):
            raise RuntimeError(f"the compiled core's encodings ({self._core.observation_size} numbers, "
                               f"{self._core.num_actions} integers) are not this edition's ({width}, {actions}): "
                               "rebuild the core")
        self._generators: list[np.random.Generator] | None = None
        self._observations = np.zeros((num_envs, width), dtype=np.float32)
        self._masks = np.zeros((num_envs, actions), dtype=np.int8)
        self._seats = np.zeros(num_envs, dtype=np.int8)
        self._rewards = np.zeros(num_envs, dtype=np.float32)
        self._seat_rewards = np.zeros((num_envs, players), dtype=np.float32)
        self._terminations = np.zeros(num_envs, dtype=np.bool_)
        self._truncations = np.zeros(num_envs, dtype=np.bool_)
        self._reset_flags = np.zeros(num_envs, dtype=np.bool_)
        self._game_seeds = np.zeros(num_envs, dtype=np.uint64)
        self._next_seeds = np.zeros(num_envs, dtype=np.uint64)
        self._final_observations = np.zeros((num_envs, width), dtype=np.float32) \
            if self._same_step else None
        self._started = False

    # -- the Gymnasium API ---------------------------------------------------------

    def reset(self, *, seed: int | Sequence[int | None] | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        """New games in every env.

        ``seed`` an integer seeds env i with ``seed + i`` (as Gymnasium's
        vector environments do), a sequence gives each env its own; env i then
        plays the games the PettingZoo environment plays after
        ``reset(seed=seed + i)`` and later resets without a seed. ``None``
        continues each env's sequence. ``options={"first_player": k}`` lets
        seat k start (default 0); ``options={"game_seeds": [...]}`` sets up env
        i exactly as ``GameState.new(players, variant, seed=game_seeds[i])``.
        """
        options = dict(options or {})
        first_player = options.pop("first_player", 0)
        game_seeds = options.pop("game_seeds", None)
        if options:
            raise ValueError(f"unknown reset options {sorted(options)}: expected first_player, game_seeds")
        if isinstance(first_player, bool) or not isinstance(first_player, (int, np.integer)) \
                or not 0 <= first_player < self.players:
            raise ValueError(f"first_player must be a seat from 0 to {self.players - 1}, got {first_player!r}")
        seeds = self._env_seeds(seed)
        chosen = None if game_seeds is None else self._checked_game_seeds(game_seeds)
        if seed is not None or self._generators is None:
            if isinstance(seed, int):
                super().reset(seed=seed)
            self._generators = [gymnasium.utils.seeding.np_random(s)[0] for s in seeds]
            self._draw_next_seeds()
        # The next seed of each env's sequence is drawn ahead (the autoreset needs it in the core).
        drawn = chosen is None
        if chosen is None:
            chosen = self._next_seeds.copy()
        self._core.reset(chosen, int(first_player), self._observations, self._masks, self._seats)
        self._game_seeds[:] = chosen
        if drawn:
            self._draw_next_seeds()
        self._seat_rewards[:] = 0.0
        self._started = True
        return self._out(self._observations), self._infos()

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """One building step in every game; see the module docstring for what comes back.

        ``actions``: ``(num_envs,)`` integers. An integer outside its game's
        mask raises IllegalMoveError naming the game and its choices, and no
        game changes; games that ended at the previous step (next-step
        autoreset) ignore theirs.
        """
        if not self._started:
            raise RuntimeError("call reset() before step()")
        batch = np.asarray(actions)
        if batch.shape != (self.num_envs,):
            raise ValueError(f"actions must have shape ({self.num_envs},), got {batch.shape}")
        if not np.issubdtype(batch.dtype, np.integer):
            raise ValueError(f"actions must be integers, got dtype {batch.dtype}")
        try:
            self._core.step(np.ascontiguousarray(batch, dtype=np.int64), self._next_seeds,
                            self._observations, self._masks, self._seats, self._rewards,
                            self._seat_rewards, self._terminations, self._reset_flags,
                            self._final_observations)
        except ValueError as error:
            raise IllegalMoveError(str(error)) from None
        restarted = np.flatnonzero(self._reset_flags)
        if restarted.size:
            self._game_seeds[restarted] = self._next_seeds[restarted]
            self._draw_next_seeds(restarted)
        infos = self._infos()
        if self._final_observations is not None and restarted.size:
            # Gymnasium's shape for it: an object array, None for the games that go on.
            finals = np.full(self.num_envs, None, dtype=object)
            for i in restarted:
                finals[i] = self._final_observations[i].copy()
            infos["final_obs"], infos["_final_obs"] = finals, self._reset_flags.copy()
        out = self._out
        return (out(self._observations), out(self._rewards), out(self._terminations),
                out(self._truncations), infos)

    def action_masks(self) -> np.ndarray:
        """The integers each game's seat to act may choose now, as booleans ``(num_envs, 21)`` (37 wide in the
        advanced game)."""
        return self._masks.astype(bool)

    def render(self) -> tuple[str, ...] | None:
        """Each game's table as text, with the move being built (render mode "ansi"); as the PettingZoo
        environment's render, it shows the whole table, every hand included."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode; pass render_mode='ansi'")
            return None
        texts = []
        for i in range(self.num_envs):
            game = SteppedGame(self.game_state(i))
            game.steps = list(self._core.steps(i))
            texts.append(render_text(game))
        return tuple(texts)

    # -- for people, tests and debugging ----------------------------------------------

    def game_state(self, index: int) -> GameState:
        """A copy of game ``index``'s position (IndexError outside ``range(num_envs)``)."""
        if not self._started:
            raise RuntimeError("call reset() before using the environment")
        return self._core.state(index)

    def move_steps(self, index: int) -> list[int]:
        """The integers chosen so far in game ``index``'s move under way."""
        return list(self._core.steps(index))

    # -- internals ---------------------------------------------------------------------

    def _env_seeds(self, seed: int | Sequence[int | None] | None) -> list[int | None]:
        if seed is None:
            return [None] * self.num_envs
        if isinstance(seed, (int, np.integer)) and not isinstance(seed, bool):
            return [int(seed) + i for i in range(self.num_envs)]
        if isinstance(seed, Sequence) and len(seed) == self.num_envs:
            return [None if s is None else int(s) for s in seed]
        raise ValueError(f"seed must be None, an integer or a sequence of {self.num_envs} seeds, got {seed!r}")

    def _checked_game_seeds(self, game_seeds: Any) -> np.ndarray:
        values = list(game_seeds)
        if len(values) != self.num_envs or not all(
                isinstance(v, (int, np.integer)) and not isinstance(v, bool) and 0 <= v < 2**64 for v in values):
            raise ValueError(f"game_seeds must be {self.num_envs} integers from 0 to 2**64 - 1")
        return np.array(values, dtype=np.uint64)

    def _draw_next_seeds(self, envs: Sequence[int] | np.ndarray | None = None) -> None:
        assert self._generators is not None  # made by reset()
        for i in range(self.num_envs) if envs is None else envs:
            self._next_seeds[i] = self._generators[i].integers(SEED_BOUND)

    def _out(self, array: np.ndarray) -> np.ndarray:
        return array.copy() if self.copy else array

    def _infos(self) -> dict[str, Any]:
        out = self._out
        return {"seat": out(self._seats), "action_mask": out(self._masks),
                "seat_rewards": out(self._seat_rewards), "game_seed": self._game_seeds.copy()}


def vector_env(num_envs: int, players: int = 2, variant: str = "standard", copy: bool = True,
               render_mode: str | None = None,
               autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
               edition: str | Edition = "first", mode: str | None = None) -> KingIsDeadVectorEnv:
    """The batched environment (see :class:`KingIsDeadVectorEnv`)."""
    return KingIsDeadVectorEnv(num_envs, players, variant, copy, render_mode, autoreset_mode, edition, mode)
