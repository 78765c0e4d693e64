"""The game for OpenSpiel, registered as "kingisdead" when this module is imported (``rl`` extra).

>>> import pyspiel
>>> from kingisdead.interfaces import openspiel_game  # registers the game
>>> game = pyspiel.load_game("kingisdead(players=3,variant=mordred)")
>>> second = pyspiel.load_game("kingisdead(players=2,edition=second)")
>>> advanced = pyspiel.load_game("kingisdead(players=3,edition=second,mode=advanced)")

The setup is explicit chance: every follower drawn from the bag and every step
of the shuffle of the region cards is a chance node, with exactly the
outcomes and probabilities of :class:`kingisdead.setup.SetupDraws` (the draws
GameState.new makes from its seed). Then each player action is one integer of
the action encoding; the player to move keeps moving until its move is
complete. The standard game is one of perfect information: after the setup
every move is public. The second edition's advanced game (``mode=advanced``) is
one of imperfect information: the deal of the Cunning cards is the setup's last
chance nodes, and each player's observation and information state hold what
that seat may know (:class:`~kingisdead.information.SeatView`), never another
seat's Cunning cards. See docs/rl.md.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.observation import IIGObserverForPublicInfoGame

from .. import engine
from ..board import CUNNING_DEALT, FIRST_CUNNING, NUM_CUNNING, NUM_KINDS, NUM_REGIONS
from ..edition import EDITIONS, MODES, get_edition
from ..information import SeatView
from ..moves import Move, format_move
from ..rng import SplitMix64
from ..setup import DEAL, FOLLOWER, VARIANTS
from ..state import _play_ranking
from .encoding import (
    FIELDS,
    MAX_SEATS,
    OBSERVATION_SIZE,
    OFFSETS,
    Field,
    action_name,
    fields,
    max_move_steps,
    move_to_actions,
    num_actions,
    observation_size,
    view_observation,
)
from .stepping import SteppedGame, max_steps

SHORT_NAME = "kingisdead"
DEFAULT_PARAMS = {"players": 2, "variant": "standard", "edition": "first", "mode": "standard"}

def _game_type(long_name: str, information: Any, information_state_tensor: bool) -> pyspiel.GameType:
    """The game's OpenSpiel type; the modes differ in what a player may know."""
    return pyspiel.GameType(
        short_name=SHORT_NAME,
        long_name=long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=information,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=4,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=information_state_tensor,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=DEFAULT_PARAMS,
    )


GAME_TYPE = _game_type("The King Is Dead", pyspiel.GameType.Information.PERFECT_INFORMATION, False)
ADVANCED_GAME_TYPE = _game_type("The King Is Dead (advanced game)",
                                pyspiel.GameType.Information.IMPERFECT_INFORMATION, True)
"""The type of a ``mode=advanced`` game (registered under the same name: the mode is a parameter)."""

MAX_CHANCE_OUTCOMES = NUM_REGIONS
"""A follower draw has 3 outcomes, the first shuffle step 8."""
ADVANCED_MAX_CHANCE_OUTCOMES = NUM_CUNNING
"""The advanced game's deal: 12 Cunning cards, at first."""


class KingIsDeadGame(pyspiel.Game):
    """The King Is Dead for OpenSpiel; parameters ``players`` (2-4), ``variant`` (standard, mordred),
    ``edition`` (first, second: the second has no Mordred variant) and ``mode`` (standard, advanced:
    the second edition's Cunning cards, a game of imperfect information). ValueError for other values."""

    def __init__(self, params: dict | None = None) -> None:
        params = {**DEFAULT_PARAMS, **(params or {})}
        players, variant, edition = int(params["players"]), str(params["variant"]), str(params["edition"])
        mode = str(params["mode"])
        if players not in (2, 3, 4):
            raise ValueError(f"players must be 2, 3 or 4, not {players}")
        if variant not in VARIANTS:
            raise ValueError(f"variant must be one of {', '.join(VARIANTS)}, not {variant!r}")
        if edition not in EDITIONS:
            raise ValueError(f"edition must be one of {', '.join(EDITIONS)}, not {edition!r}")
        if mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}, not {mode!r}")
        self.edition = get_edition(edition, mode)
        if variant == "mordred" and not self.edition.mordred:
            raise ValueError(f"the {edition} edition has no Mordred variant")
        self.players, self.variant = players, variant
        advanced = self.edition.advanced
        self.history_rows = max_steps(players, max_move_steps(self.edition))
        """Rows of the advanced game's information-state tensor: one per step of a game at most."""
        info = pyspiel.GameInfo(
            num_distinct_actions=num_actions(self.edition),
            max_chance_outcomes=ADVANCED_MAX_CHANCE_OUTCOMES if advanced else MAX_CHANCE_OUTCOMES,
            num_players=players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=None,
            max_game_length=self.history_rows,
        )
        super().__init__(ADVANCED_GAME_TYPE if advanced else GAME_TYPE, info, params)

    def new_initial_state(self) -> KingIsDeadState:
        return KingIsDeadState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        """The observation vector of docs/rl.md. In the standard game information states are action histories
        (perfect recall); in the advanced game both are one seat's (:class:`AdvancedObserver`)."""
        if self.edition.advanced:
            return AdvancedObserver(self, iig_obs_type, params)
        if iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall):
            return KingIsDeadObserver(params)
        return IIGObserverForPublicInfoGame(iig_obs_type, params)


class KingIsDeadState(pyspiel.State):
    """A game in progress: the setup draws first (chance), then the players' building steps."""

    def __init__(self, game: KingIsDeadGame) -> None:
        super().__init__(game)
        self.setup = engine.setup_draws(game.players, game.variant, 0, game.edition)
        self.stepped: SteppedGame | None = None
        self.played: list[tuple[int, tuple[int, ...], Move]] = []
        """Each move played: its player, the integers it was built with (that player's spelling) and the move."""

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
            mover, steps = self.stepped.player, (*self.stepped.steps, action)
            move = self.stepped.step(action)
            if move is not None:
                self.played.append((mover, steps, move))

    def _action_to_string(self, player: int, action: int) -> str:
        edition = self.setup.edition
        if player == pyspiel.PlayerId.CHANCE:
            if self.setup.kind == FOLLOWER:
                return f"draw {edition.factions[action]}"
            if self.setup.kind == DEAL:
                return f"deal {edition.card_name(FIRST_CUNNING + action)} to p{self.setup.deal[0] + 1}"
            return f"swap card {self.setup.swap_at + 1} with card {action + 1}"
        return action_name(action, edition)

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


class AdvancedObserver:
    """One seat's observation or information state in the advanced game, from what that seat may know.

    ``iig_obs_type`` None or without perfect recall: the observation, :func:`.encoding.view_observation` of
    ``state.view(player)`` (``observation_size`` numbers, fields :data:`.encoding.ADVANCED_FIELDS`) and a
    string of that view. With perfect recall: the information state, that observation followed by
    ``history`` (``history_rows`` x (37 + 4)): one row per step of each move played, in order, the
    integer one-hot and the relative seat that played it one-hot; another player's move by its canonical
    steps (a move is seen once whole), the player's own by the integers it chose. Its string is the
    setup's public draws with the player's own deal, every move played, and the steps of the move the
    player is building. Only the player's own private information (``SINGLE_PLAYER``) is offered:
    ValueError for another kind, or for observation parameters.
    """

    def __init__(self, game: KingIsDeadGame, iig_obs_type=None, params=None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        if iig_obs_type is not None and (not iig_obs_type.public_info
                                          or iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER):
            raise ValueError("the advanced game offers one player's observations only (public info and "
                             "SINGLE_PLAYER private info)")
        self.game = game
        self.perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        layout: list[Field] = list(fields(game.edition))
        if self.perfect_recall:
            layout.append(Field("history", (game.history_rows, num_actions(game.edition) + MAX_SEATS), 1.0,
                                "one row per step played: the integer one-hot, then the relative seat one-hot"))
        self.tensor = np.zeros(sum(f.size for f in layout), np.float32)
        self.dict: dict[str, np.ndarray] = {}
        at = 0
        for f in layout:
            self.dict[f.name] = self.tensor[at:at + f.size].reshape(f.shape)
            at += f.size

    def set_from(self, state: KingIsDeadState, player: int) -> None:
        self.tensor.fill(0.0)
        size = observation_size(self.game.edition)
        if state.stepped is None:
            self._set_setup(state.setup, player)
        else:
            game = state.stepped
            mine = game.player == player and not game.is_over()
            view = game.state.view(player)
            self.tensor[:size] = view_observation(view, game.steps if mine else (),
                                                  mine and engine.last_card_applies(game.state))
        if self.perfect_recall:
            history, row, n = self.dict["history"], 0, self.game.players
            actions = num_actions(self.game.edition)
            for mover, steps in _seen_moves(state, player):
                for action in steps:
                    history[row, action] = 1.0
                    history[row, actions + (mover - player) % n] = 1.0
                    row += 1

    def _set_setup(self, setup: engine.SetupDraws, player: int) -> None:
        """During the setup: the board, the bag and the courts drawn so far, and the player's own deal."""
        self.dict["board"][:] = np.reshape(setup.board, (NUM_REGIONS, NUM_KINDS))
        self.dict["stock"][:3] = setup.bag
        for p, drawn in enumerate(setup.hands):
            for faction in drawn:
                self.dict["courts"][(p - player) % setup.players, faction] += 1
        self.dict["cunning_hand"][:] = [setup.cunning[player] >> i & 1 for i in range(NUM_CUNNING)]
        self.dict["seat"][player] = 1.0
        self.dict["players"][setup.players - 2] = 1.0

    def string_from(self, state: KingIsDeadState, player: int) -> str:
        if not self.perfect_recall:
            if state.stepped is None:
                return f"seat {player} setup {_setup_seen(state.setup, player)}"
            game = state.stepped
            steps = game.steps if game.player == player else []  # another's move is seen once whole
            return f"seat {player} sees {_view_text(game.state.view(player))} steps {steps}"
        edition = self.game.edition
        lines = [f"seat {player}", f"setup {_setup_seen(state.setup, player)}"]
        for mover, taken, move in state.played:
            text = f"p{mover + 1} {format_move(move, edition)}"
            lines.append(text + f" {list(taken)}" if mover == player else text)
        if state.stepped is not None and state.stepped.player == player and state.stepped.steps:
            lines.append(f"building {state.stepped.steps}")
        return "\n".join(lines)


def _seen_moves(state: KingIsDeadState, player: int) -> list[tuple[int, tuple[int, ...]]]:
    """Each move played as ``player`` saw it: (its player, its integers), ``player``'s own as it built them,
    the others' canonical, then the steps of the move ``player`` is building."""
    seen = [(mover, steps if mover == player else tuple(move_to_actions(move)))
            for mover, steps, move in state.played]
    game = state.stepped
    if game is not None and game.player == player and game.steps:
        seen.append((player, tuple(game.steps)))
    return seen


def _setup_seen(setup: engine.SetupDraws, player: int) -> str:
    """The setup's draws as ``player`` saw them: every follower draw and shuffle step, its own Cunning cards
    dealt, ``?`` for a card dealt to another player."""
    dealt = setup.players * CUNNING_DEALT - len(setup.deal)
    public = len(setup.outcomes) - dealt
    texts = [str(o) for o in setup.outcomes[:public]]
    for i, outcome in enumerate(setup.outcomes[public:]):
        mine = i // CUNNING_DEALT == player
        texts.append(setup.edition.card_name(FIRST_CUNNING + outcome) if mine else "?")
    return " ".join(texts) or "none yet"


def _view_text(view: SeatView) -> str:
    """A seat's view as a tuple of its public fields and its own Cunning cards (no edition: the game fixes it)."""
    return str((
        view.board, view.stock, view.courts, view.hands, view.cunning, view.cunning_played, view.order, view.crowns,
        view.control, view.resolved, view.player, view.passes, view.tops, _play_ranking(list(view.last_play)),
        view.undo_ban,
    ))


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
        hand = ",".join(edition.card_name(card) for card in s.hand(p))
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
