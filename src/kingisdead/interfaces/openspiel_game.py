"""The game for OpenSpiel, registered as "kingisdead" when this module is imported (``rl`` extra).

>>> import pyspiel
>>> from kingisdead.interfaces import openspiel_game  # registers the game
>>> game = pyspiel.load_game("kingisdead(players=3,variant=mordred)")
>>> second = pyspiel.load_game("kingisdead(players=2,edition=second)")

The setup is explicit chance: every follower drawn from the bag and every step
of the shuffle of the region cards is a chance node, with exactly the
outcomes and probabilities of :class:`kingisdead.setup.SetupDraws` (the draws
GameState.new makes from its seed). Then each player action is one integer of
the action encoding; the player to move keeps moving until its move is
complete. The game is one of perfect information: after the setup every move
is public. See docs/rl.md.
"""

from __future__ import annotations

import numpy as np
import pyspiel
from open_spiel.python.observation import IIGObserverForPublicInfoGame

from .. import engine
from ..board import NUM_KINDS, NUM_REGIONS
from ..edition import EDITIONS, get_edition
from ..rng import SplitMix64
from ..setup import FOLLOWER, VARIANTS
from .encoding import FIELDS, NUM_ACTIONS, OBSERVATION_SIZE, OFFSETS, action_name
from .stepping import SteppedGame, max_steps

SHORT_NAME = "kingisdead"
DEFAULT_PARAMS = {"players": 2, "variant": "standard", "edition": "first"}

GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="The King Is Dead",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=4,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=DEFAULT_PARAMS,
)

MAX_CHANCE_OUTCOMES = NUM_REGIONS
"""A follower draw has 3 outcomes, the first shuffle step 8."""


class KingIsDeadGame(pyspiel.Game):
    """The King Is Dead for OpenSpiel; parameters ``players`` (2-4), ``variant`` (standard, mordred)
    and ``edition`` (first, second: the second has no Mordred variant). ValueError for other values."""

    def __init__(self, params: dict | None = None) -> None:
        params = {**DEFAULT_PARAMS, **(params or {})}
        players, variant, edition = int(params["players"]), str(params["variant"]), str(params["edition"])
        if players not in (2, 3, 4):
            raise ValueError(f"players must be 2, 3 or 4, not {players}")
        if variant not in VARIANTS:
            raise ValueError(f"variant must be one of {', '.join(VARIANTS)}, not {variant!r}")
        if edition not in EDITIONS:
            raise ValueError(f"edition must be one of {', '.join(EDITIONS)}, not {edition!r}")
        self.edition = get_edition(edition)
        if variant == "mordred" and not self.edition.mordred:
            raise ValueError(f"the {edition} edition has no Mordred variant")
        self.players, self.variant = players, variant
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=MAX_CHANCE_OUTCOMES,
            num_players=players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=None,
            max_game_length=max_steps(players),
        )
        super().__init__(GAME_TYPE, info, params)

    def new_initial_state(self) -> KingIsDeadState:
        return KingIsDeadState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        """The observation vector of docs/rl.md; information states are action histories (perfect recall)."""
        if iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall):
            return KingIsDeadObserver(params)
        return IIGObserverForPublicInfoGame(iig_obs_type, params)


class KingIsDeadState(pyspiel.State):
    """A game in progress: the setup draws first (chance), then the players' building steps."""

    def __init__(self, game: KingIsDeadGame) -> None:
        super().__init__(game)
        self.setup = engine.setup_draws(game.players, game.variant, 0, game.edition)
        self.stepped: SteppedGame | None = None

    def current_player(self) -> int:
        if self.stepped is None:
            return pyspiel.PlayerId.CHANCE
        if self.stepped.is_over():
            return pyspiel.PlayerId.TERMINAL
        return self.stepped.player

    def _legal_actions(self, player: int) -> list[int]:
        assert self.stepped is not None and player == self.stepped.player
        return self.stepped.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        weights = self.setup.weights()
        total = sum(weights)
        return [(outcome, weight / total) for outcome, weight in enumerate(weights) if weight]

    def _apply_action(self, action: int) -> None:
        if self.stepped is None:
            self.setup.draw(action)
            if self.setup.done:
                self.stepped = SteppedGame(self.setup.state())
        else:
            self.stepped.step(action)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if self.setup.kind == FOLLOWER:
                return f"draw {self.setup.edition.factions[action]}"
            return f"swap card {self.setup.swap_at + 1} with card {action + 1}"
        return action_name(action, self.setup.edition)

    def is_terminal(self) -> bool:
        return self.stepped is not None and self.stepped.is_over()

    def returns(self) -> list[float]:
        if self.stepped is None:
            return [0.0] * self.setup.players
        return self.stepped.returns()

    def __str__(self) -> str:
        if self.stepped is None:
            return f"Setup: {len(self.setup.outcomes)} draws made, next: {self.setup.kind}"
        return state_text(self.stepped)


class KingIsDeadObserver:
    """Fills the observation vector (and its named views) of :mod:`.encoding` for one player."""

    def __init__(self, params=None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        self.tensor = np.zeros(OBSERVATION_SIZE, np.float32)
        self.dict = {
            f.name: self.tensor[OFFSETS[f.name]:OFFSETS[f.name] + f.size].reshape(f.shape) for f in FIELDS
        }

    def set_from(self, state: KingIsDeadState, player: int) -> None:
        if state.stepped is not None:
            self.tensor[:] = state.stepped.observation(player)
            return
        # During the setup only the board, the bag and the courts drawn so far exist.
        setup = state.setup
        self.tensor.fill(0.0)
        self.dict["board"][:] = np.reshape(setup.board, (NUM_REGIONS, NUM_KINDS))
        self.dict["stock"][:3] = setup.bag
        for p, drawn in enumerate(setup.hands):
            for faction in drawn:
                self.dict["courts"][(p - player) % setup.players, faction] += 1
        self.dict["seat"][player] = 1.0
        self.dict["players"][setup.players - 2] = 1.0
        self.dict["mordred"][0] = float(setup.mordred)

    def string_from(self, state: KingIsDeadState, player: int) -> str:
        """The whole position (nothing is hidden), seen by ``player``."""
        if state.stepped is None:
            return f"setup draws {setup_text(state.setup)}"
        game = state.stepped
        return f"seat {player} sees {game.state.key()} steps {game.steps}"


def play_setup_from_seed(state: KingIsDeadState, seed: int) -> None:
    """Play the chance nodes of a new state as ``GameState.new(..., seed=seed)`` draws them.

    Afterwards ``state.stepped.state`` equals that new game (with seat 0 first):
    reproducible games, comparable with the engine's own setups.
    """
    if state.setup.outcomes:
        raise ValueError("the setup has already begun: start from game.new_initial_state()")
    rng = SplitMix64(seed)
    while state.is_chance_node():
        state.apply_action(state.setup.pick(rng))


def state_text(game: SteppedGame) -> str:
    """The position in a few plain lines in the edition's codes (OpenSpiel prints states often: no Rich tables)."""
    s = game.state
    edition = s.edition
    codes = edition.faction_codes
    control = ("?", *codes, "Saxons" if edition.invaders == "Saxons" else "unstable")
    lines = []
    for position, region in enumerate(s.order):
        counts = " ".join(f"{codes[k]}{s.board[region * 4 + k]}" for k in range(NUM_KINDS))
        crown = f" crown:p{s.crowns[region] + 1}" if s.crowns[region] >= 0 else ""
        lines.append(f"{position + 1} {edition.region_codes[region]} {counts} {control[s.control[region] + 1]}{crown}")
    lines.append("stock " + " ".join(f"{codes[k]}{s.stock[k]}" for k in range(NUM_KINDS))
                 + f" {edition.invaders.lower()} {s.saxons} passes {s.passes}")
    for p in range(s.players):
        court = " ".join(f"{codes[f]}{c}" for f, c in enumerate(s.court(p)))
        hand = ",".join(edition.cards[card] for card in s.hand(p))
        lines.append(f"p{p + 1} court {court} hand {hand or '-'}")
    if s.result is not None:
        lines.append(s.result.reason)
    else:
        lines.append(f"p{s.player + 1} to move" + (": " + ", ".join(action_name(a, edition) for a in game.steps)
                                                     if game.steps else ""))
    return "\n".join(lines)


def setup_text(setup: engine.SetupDraws) -> str:
    return " ".join(str(o) for o in setup.outcomes) or "none yet"


pyspiel.register_game(GAME_TYPE, KingIsDeadGame)
