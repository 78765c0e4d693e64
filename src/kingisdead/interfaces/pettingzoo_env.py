"""The game as a PettingZoo AEC environment (needs the ``rl`` extra).

Agents are ``player_0`` ... ``player_{n-1}`` (seat order). The agent to act
chooses one integer of the action encoding per ``step``; it keeps acting until
its move is complete, then the turn passes. Observations are dicts with the
observation vector for that agent and the mask of the integers it may choose
now (all zero for an agent that is not to act). Rewards come only at the end,
from :func:`.stepping.returns`. Either edition is played (``edition``): the
encodings have the same shapes and meanings in both. In the second edition's
advanced game (``mode="advanced"``) each agent observes only what its seat
may know (``state.view(seat)``: its own Cunning cards, never another's), and
the encodings are the advanced ones (docs/rl.md).
"""

from __future__ import annotations

import io
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from rich.console import Console

from .. import engine
from ..edition import FIRST, Edition, get_edition
from ..render import TableView
from ..state import GameState
from .encoding import action_name, num_actions, observation_high
from .stepping import SteppedGame

SEED_BOUND = 2**63
"""Game seeds drawn from the environment's generator lie in range(SEED_BOUND)."""


def observation_space(edition: Edition = FIRST) -> spaces.Box:
    """The observation vector's Box in ``edition``'s game: shape (456,), or (770,) in the advanced game."""
    return spaces.Box(low=0.0, high=np.array(observation_high(edition), dtype=np.float32), dtype=np.float32)


def mask_space(edition: Edition = FIRST) -> spaces.Box:
    """The action mask's Box in ``edition``'s game: shape (21,), or (37,) in the advanced game."""
    return spaces.Box(low=0, high=1, shape=(num_actions(edition),), dtype=np.int8)


def render_text(game: SteppedGame) -> str:
    """The table as plain text, with the move being built (the 'ansi' render)."""
    buffer = io.StringIO()
    seats = [f"player_{p}" for p in range(game.state.players)]
    Console(file=buffer, width=100, color_system=None).print(TableView(game.state, seats))
    if game.steps:
        chosen = ", ".join(action_name(a, game.state.edition) for a in game.steps)
        buffer.write(f"Player {game.player + 1} is building a move: {chosen}\n")
    if game.state.result is not None:
        buffer.write(game.state.result.reason + "\n")
    return buffer.getvalue()


class KingIsDeadAEC(AECEnv):
    """The King Is Dead for 2-4 agents, one building step per ``step`` (see docs/rl.md).

    ``edition`` is "first", "second" or an :class:`~kingisdead.edition.Edition`
    (with options), ``mode`` "standard" or "advanced" (None: the edition's own);
    ValueError for a player count, variant, edition or mode the game does not
    have (the second edition has no Mordred variant, the first no advanced game).
    The 'ansi' and 'human' renders show the whole table, every hand included: a
    spectator's view, not an agent's.
    """

    metadata: dict[str, Any] = {"name": "kingisdead_v0", "render_modes": ["human", "ansi"], "is_parallelizable": False}

    def __init__(self, players: int = 2, variant: str = "standard", render_mode: str | None = None,
                 edition: str | Edition = "first", mode: str | None = None) -> None:
        super().__init__()
        self.edition = get_edition(edition, mode)
        engine.check_setup(players, variant, 0, self.edition)  # the engine's own messages
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or None")
        self.players = players
        self.variant = variant
        self.render_mode = render_mode
        self.possible_agents = [f"player_{p}" for p in range(players)]
        self.agents = self.possible_agents[:]
        self.observation_spaces = {
            a: spaces.Dict({"observation": observation_space(self.edition), "action_mask": mask_space(self.edition)})
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(num_actions(self.edition)) for a in self.possible_agents}
        self._np_random: np.random.Generator | None = None
        self.game: SteppedGame | None = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game; its setup seed comes from ``seed`` (or continues the previous sequence).

        ``options={"first_player": k}`` lets seat k start (default 0);
        ``options={"game_seed": n}`` sets up exactly ``GameState.new(..., seed=n)``.
        """
        if seed is not None or self._np_random is None:
            self._np_random, _ = gymnasium.utils.seeding.np_random(seed)
        options = options or {}
        game_seed = options.get("game_seed")
        if game_seed is None:
            game_seed = int(self._np_random.integers(SEED_BOUND))
        state = GameState.new(self.players, self.variant, game_seed, options.get("first_player", 0), self.edition)
        self.game = SteppedGame(state)
        self.game_seed = game_seed
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.agents[state.player]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """``agent``'s observation vector (in the advanced game from its seat's view alone) and action mask."""
        game = self._running()
        seat = self.possible_agents.index(agent)
        mask = np.zeros(num_actions(self.edition), dtype=np.int8)
        if seat == game.player:
            mask[game.legal_actions()] = 1
        return {"observation": np.asarray(game.observation(seat), dtype=np.float32), "action_mask": mask}

    def step(self, action: int | None) -> None:
        """One building step for the agent to act; an integer it may not choose raises IllegalMoveError."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError("an agent that is still playing must choose an action, not None")
        game = self._running()
        game.step(int(action))
        self._cumulative_rewards[agent] = 0.0
        if game.is_over():
            self.rewards = dict(zip(self.agents, game.returns()))
            self.terminations = dict.fromkeys(self.agents, True)
            result = game.state.result
            assert result is not None  # the game is over
            self.infos = {a: {"result": result.to_dict()} for a in self.agents}
        self.agent_selection = self.agents[game.player]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode; pass render_mode='ansi' or 'human'")
            return None
        text = render_text(self._running())
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def close(self) -> None:
        pass

    def _running(self) -> SteppedGame:
        if self.game is None:
            raise RuntimeError("call reset() before using the environment")
        return self.game


def raw_env(players: int = 2, variant: str = "standard", render_mode: str | None = None,
            edition: str | Edition = "first", mode: str | None = None) -> KingIsDeadAEC:
    """The environment without PettingZoo's safety wrappers (an illegal integer raises)."""
    return KingIsDeadAEC(players, variant, render_mode, edition, mode)


def aec_env(players: int = 2, variant: str = "standard", render_mode: str | None = None,
            illegal_reward: float = -1.0, edition: str | Edition = "first", mode: str | None = None) -> AECEnv:
    """The environment with PettingZoo's usual wrappers, as its classic games have them.

    An integer outside the mask ends the game with ``illegal_reward`` for the
    agent that chose it (and 0 for the others), out-of-range integers fail an
    assertion, and calls out of order (step before reset) are refused.
    """
    env: AECEnv = raw_env(players, variant, render_mode, edition, mode)
    env = wrappers.TerminateIllegalWrapper(env, illegal_reward=illegal_reward)
    env = wrappers.AssertOutOfBoundsWrapper(env)
    return wrappers.OrderEnforcingWrapper(env)
