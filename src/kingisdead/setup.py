"""The setup of a game as a sequence of random draws, one at a time.

:meth:`GameState.new` draws every setup outcome from its seed. Game-theory
tools (OpenSpiel) need the same setup as explicit chance events, each with its
outcomes and their probabilities; both walk this one sequence, so the two can
never disagree.

The sequence: two followers from the bag for each player's court (where the
edition has the court redraw, players who drew a pair of the same faction as
another player return theirs and draw again), then followers for each region until it holds four, then a
Fisher-Yates shuffle of the region cards; in the advanced game, last, three Cunning cards dealt to each
player in seat order, one draw each. Every draw has integer weights: a
follower draw weighs each faction by its count in the bag, a shuffle step
weighs each position alike, a deal each Cunning card not yet dealt alike.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .board import (
    CARD_COPIES,
    COURT_START_SIZE,
    CUNNING_DEALT,
    NUM_CUNNING,
    SUPPORT_CARDS,
    FACTIONS,
    FOLLOWERS_PER_FACTION,
    HOMES,
    LOYALISTS_TOTAL,
    MORDRED_START,
    NUM_KINDS,
    NUM_REGIONS,
    REGION_START_SIZE,
    REMOVED_TWO_PLAYER,
    START_IN_HOME,
    UNRESOLVED,
    Faction,
)
from .edition import FIRST, Edition
from .rng import SplitMix64

if TYPE_CHECKING:
    from .state import GameState

VARIANTS = ("standard", "mordred")

FOLLOWER = "follower"
"""A follower drawn from the bag: outcome = the faction (0 Scots, 1 Welsh, 2 Romano-British)."""
SWAP = "swap"
"""A Fisher-Yates step over the region cards: outcome = the position swapped with the last unshuffled one."""
DEAL = "deal"
"""A Cunning card dealt (the advanced game): outcome = the card's index among the twelve (card number - 7)."""


def check_setup_arguments(players: int, variant: str, first_player: int, edition: Edition = FIRST) -> None:
    """Raise ValueError for a setup the game does not have."""
    if players not in (2, 3, 4):
        raise ValueError(f"The King Is Dead is for 2, 3 or 4 players, not {players}")
    if variant not in VARIANTS:
        raise ValueError(f"unknown variant {variant!r} (expected one of {', '.join(VARIANTS)})")
    if variant == "mordred" and not edition.mordred:
        raise ValueError(f"the {edition.name} edition has no Mordred variant")
    if not 0 <= first_player < players:
        raise ValueError(f"first player must be a seat from 0 to {players - 1}")


class SetupDraws:
    """A setup in progress: ask :meth:`weights` what the next draw is, give its outcome to :meth:`draw`.

    Cheap to copy (:meth:`copy`), so a search tree can branch on every draw.
    """

    __slots__ = ("edition", "players", "mordred", "first_player", "bag", "board", "hands", "queue",
                 "region", "order", "swap_at", "deal", "cunning", "outcomes")

    def __init__(self, players: int = 2, variant: str = "standard", first_player: int = 0,
                 edition: Edition = FIRST) -> None:
        check_setup_arguments(players, variant, first_player, edition)
        self.edition = edition
        self.players = players
        self.mordred = variant == "mordred"
        self.first_player = first_player
        removed = REMOVED_TWO_PLAYER if players == 2 else 0
        self.bag = [FOLLOWERS_PER_FACTION - removed - START_IN_HOME] * 3
        self.board = [0] * (NUM_REGIONS * NUM_KINDS)
        for faction, home in zip(FACTIONS, HOMES):
            self.board[home * NUM_KINDS + faction] = START_IN_HOME
        if self.mordred:
            for region in MORDRED_START:
                self.board[region * NUM_KINDS + Faction.LOYALISTS] = 1
        self.hands: list[list[int]] = [[] for _ in range(players)]
        self.queue = [p for p in range(players) for _ in range(COURT_START_SIZE)]
        """Players still to draw a court follower, one entry per draw."""
        self.region = 0
        self.order = list(range(NUM_REGIONS))
        self.swap_at = NUM_REGIONS - 1
        self.deal = [p for p in range(players) for _ in range(CUNNING_DEALT)] if edition.advanced else []
        """Players still to be dealt a Cunning card, one entry per card."""
        self.cunning = [0] * players
        self.outcomes: list[int] = []

    def copy(self) -> SetupDraws:
        c = SetupDraws.__new__(SetupDraws)
        c.edition, c.players, c.mordred, c.first_player = self.edition, self.players, self.mordred, self.first_player
        c.bag, c.board, c.queue = self.bag[:], self.board[:], self.queue[:]
        c.hands = [h[:] for h in self.hands]
        c.region, c.order, c.swap_at = self.region, self.order[:], self.swap_at
        c.deal, c.cunning = self.deal[:], self.cunning[:]
        c.outcomes = self.outcomes[:]
        return c

    def __deepcopy__(self, memo: dict) -> SetupDraws:
        return self.copy()

    @property
    def variant(self) -> str:
        return "mordred" if self.mordred else "standard"

    @property
    def done(self) -> bool:
        return self.swap_at == 0 and not self.deal

    @property
    def kind(self) -> str | None:
        """FOLLOWER, SWAP or DEAL for the next draw, None once the setup is complete."""
        if self.queue or self.region < NUM_REGIONS:
            return FOLLOWER
        if self.swap_at:
            return SWAP
        return DEAL if self.deal else None

    def weights(self) -> tuple[int, ...]:
        """Weight of each outcome of the next draw (probability = weight / sum); () when done."""
        kind = self.kind
        if kind == FOLLOWER:
            return tuple(self.bag)
        if kind == SWAP:
            return (1,) * (self.swap_at + 1)
        if kind == DEAL:
            dealt = 0
            for mask in self.cunning:
                dealt |= mask
            return tuple(0 if dealt >> i & 1 else 1 for i in range(NUM_CUNNING))
        return ()

    def draw(self, outcome: int) -> None:
        """Apply the outcome of the next draw; an impossible outcome raises ValueError."""
        weights = self.weights()
        if not 0 <= outcome < len(weights) or not weights[outcome]:
            raise ValueError(f"{outcome!r} is not a possible outcome of this draw (weights {weights})")
        self._apply(outcome)

    def _apply(self, outcome: int) -> None:
        self.outcomes.append(outcome)
        if self.kind == DEAL:
            self.cunning[self.deal.pop(0)] |= 1 << outcome
            return
        if not self.queue and self.region >= NUM_REGIONS:
            i = self.swap_at
            self.order[i], self.order[outcome] = self.order[outcome], self.order[i]
            self.swap_at -= 1
            return
        self.bag[outcome] -= 1
        if self.queue:
            self.hands[self.queue.pop(0)].append(outcome)
            if not self.queue and self.edition.court_redraw:
                self._redraw_clashes()
        else:
            self.board[self.region * NUM_KINDS + outcome] += 1
        self._skip_full_regions()

    def _redraw_clashes(self) -> None:
        """Players who drew the same single-faction pair as another return it to the bag and draw again."""
        clashing = _court_clashes(self.hands)
        for p in clashing:
            for faction in self.hands[p]:
                self.bag[faction] += 1
            self.hands[p] = []
        self.queue = [p for p in clashing for _ in range(COURT_START_SIZE)]

    def _skip_full_regions(self) -> None:
        if self.queue:
            return
        while self.region < NUM_REGIONS and sum(
                self.board[self.region * NUM_KINDS:(self.region + 1) * NUM_KINDS]) >= REGION_START_SIZE:
            self.region += 1

    def pick(self, rng: SplitMix64) -> int:
        """The outcome a seeded generator gives the next draw (as GameState.new draws it), not yet applied."""
        weights = self.weights()
        if not weights:
            raise ValueError("the setup is complete: nothing left to draw")
        pick = rng.below(sum(weights))
        for outcome, weight in enumerate(weights):
            if pick < weight:
                return outcome
            pick -= weight
        raise AssertionError("unreachable")

    def draw_from(self, rng: SplitMix64) -> int:
        """Draw the next outcome from a seeded generator and apply it (an outcome it picks is always possible)."""
        outcome = self.pick(rng)
        self._apply(outcome)
        return outcome

    def state(self) -> GameState:
        """The new game, once every draw is made."""
        if not self.done:
            raise ValueError("the setup still has draws to make")
        from .state import GameState

        s = GameState.__new__(GameState)
        players = self.players
        s.edition = self.edition
        s.players = players
        s.mordred = self.mordred
        s.board = self.board[:]
        s.courts = [0] * (players * 3)
        for p, drawn in enumerate(self.hands):
            for faction in drawn:
                s.courts[p * 3 + faction] += 1
        copies = list(CARD_COPIES)
        if self.edition.advanced:  # the Support cards go back in the box
            for card in SUPPORT_CARDS:
                copies[card] = 0
        s.hands = copies * players
        s.cunning = self.cunning[:]
        s.cunning_played = [0] * players
        s.crowns = [-1] * NUM_REGIONS
        s.control = [UNRESOLVED] * NUM_REGIONS
        s.open = (1 << NUM_REGIONS) - 1
        s.resolved = s.saxons = s.passes = s.plays = 0
        s.player = self.first_player
        s.tops = [-1] * players
        s.last_play = [0] * players
        s.undo_ban = None
        s._result = None
        loyalists = LOYALISTS_TOTAL - (len(MORDRED_START) if self.mordred else 0)
        s.stock = self.bag + [loyalists if self.mordred else 0]
        s.order = self.order[:]
        return s


def _court_clashes(hands: list[list[int]]) -> list[int]:
    """Players who must redraw: two or more drew a pair of the same single faction."""
    by_faction: dict[int, list[int]] = {}
    for p, (a, b) in enumerate(hands):
        if a == b:
            by_faction.setdefault(a, []).append(p)
    return sorted(p for group in by_faction.values() if len(group) > 1 for p in group)


def setup_from_seed(players: int, variant: str, seed: int, first_player: int,
                    edition: Edition = FIRST) -> GameState:
    """The game that ``seed`` sets up: every draw of the sequence comes from SplitMix64(seed)."""
    setup = SetupDraws(players, variant, first_player, edition)
    rng = SplitMix64(seed)
    while not setup.done:
        setup.draw_from(rng)
    return setup.state()
