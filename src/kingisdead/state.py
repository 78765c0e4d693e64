"""The game state: everything needed to continue a game, in flat integer lists.

A state is small and cheap to copy (a handful of list copies), so that bots can
copy millions of them; the rules themselves live in :mod:`kingisdead.rules`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import rules
from .board import (
    CARD_COPIES,
    COURT_START_SIZE,
    FACTIONS,
    FOLLOWERS_PER_FACTION,
    HOMES,
    LOYALISTS_TOTAL,
    MORDRED_START,
    NUM_CARDS,
    NUM_KINDS,
    NUM_REGIONS,
    REGION_START_SIZE,
    REMOVED_TWO_PLAYER,
    START_IN_HOME,
    UNRESOLVED,
    Card,
    Faction,
    Region,
)
from .moves import Move, parse_move
from .rng import SplitMix64

if TYPE_CHECKING:
    from .building import MoveBuilder
    from .scoring import Result

VARIANTS = ("standard", "mordred")


class GameState:
    """A position of The King Is Dead, with the player to move.

    Attributes are plain lists of small integers (see docs/architecture.md):

    - ``board[region * 4 + kind]``: followers of each faction (kind 3: Loyalists)
    - ``stock[kind]``: the common stock (kind 3: the Loyalist supply)
    - ``courts[player * 3 + faction]``: followers at each player's court
    - ``hands[player * 7 + card]``: action cards left, by kind
    - ``order``: regions by region-card position (positions 1-8 are 0-7)
    - ``crowns[region]``: the player whose Crown token lies on that card, or -1
    - ``control[region]``: faction in control, 4 for Saxons, -1 while unresolved
    - ``resolved``: number of resolved struggles (the contested card is ``order[resolved]``)
    - ``tops[player]``: top card of each played pile, or -1
    - ``last_play[player]``: number of the player's latest card play (0: none yet)
    - ``undo_ban``: (player, action) of an exchange that may not be reversed now, or None
    """

    __slots__ = (
        "players", "mordred", "board", "stock", "courts", "hands", "order", "crowns",
        "control", "open", "resolved", "saxons", "player", "passes", "tops",
        "last_play", "plays", "undo_ban", "_result",
    )

    players: int
    mordred: bool
    board: list[int]
    stock: list[int]
    courts: list[int]
    hands: list[int]
    order: list[int]
    crowns: list[int]
    control: list[int]
    open: int
    resolved: int
    saxons: int
    player: int
    passes: int
    tops: list[int]
    last_play: list[int]
    plays: int
    undo_ban: tuple[int, tuple[int, ...]] | None
    _result: Result | None

    @classmethod
    def new(cls, players: int = 2, variant: str = "standard", seed: int = 0,
            first_player: int = 0) -> GameState:
        """Set up a new game: every random draw of the setup comes from ``seed``."""
        if players not in (2, 3, 4):
            raise ValueError(f"The King Is Dead is for 2, 3 or 4 players, not {players}")
        if variant not in VARIANTS:
            raise ValueError(f"unknown variant {variant!r} (expected one of {', '.join(VARIANTS)})")
        if not 0 <= first_player < players:
            raise ValueError(f"first player must be a seat from 0 to {players - 1}")
        rng = SplitMix64(seed)
        s = cls.__new__(cls)
        s.players = players
        s.mordred = variant == "mordred"
        s.board = [0] * (NUM_REGIONS * NUM_KINDS)
        s.courts = [0] * (players * 3)
        s.hands = list(CARD_COPIES) * players
        s.crowns = [-1] * NUM_REGIONS
        s.control = [UNRESOLVED] * NUM_REGIONS
        s.open = (1 << NUM_REGIONS) - 1
        s.resolved = s.saxons = s.passes = s.plays = 0
        s.player = first_player
        s.tops = [-1] * players
        s.last_play = [0] * players
        s.undo_ban = None
        s._result = None

        removed = REMOVED_TWO_PLAYER if players == 2 else 0
        bag = [FOLLOWERS_PER_FACTION - removed - START_IN_HOME] * 3
        for faction, home in zip(FACTIONS, HOMES):
            s.board[home * 4 + faction] = START_IN_HOME

        def draw() -> int:
            pick = rng.below(sum(bag))
            for faction in FACTIONS:
                if pick < bag[faction]:
                    bag[faction] -= 1
                    return faction
                pick -= bag[faction]
            raise AssertionError("unreachable")

        hands = [[draw() for _ in range(COURT_START_SIZE)] for _ in range(players)]
        while clashing := _court_clashes(hands):
            for p in clashing:
                for faction in hands[p]:
                    bag[faction] += 1
            for p in clashing:
                hands[p] = [draw() for _ in range(COURT_START_SIZE)]
        for p, drawn in enumerate(hands):
            for faction in drawn:
                s.courts[p * 3 + faction] += 1

        loyalists = LOYALISTS_TOTAL
        if s.mordred:
            for region in MORDRED_START:
                s.board[region * 4 + Faction.LOYALISTS] = 1
                loyalists -= 1
        for region in range(NUM_REGIONS):
            while sum(s.board[region * 4:region * 4 + 4]) < REGION_START_SIZE:
                s.board[region * 4 + draw()] += 1
        s.stock = bag + [loyalists if s.mordred else 0]
        s.order = list(range(NUM_REGIONS))
        rng.shuffle(s.order)
        return s

    def copy(self) -> GameState:
        """An independent copy (a few list copies: cheap enough for search)."""
        c = GameState.__new__(GameState)
        c.players = self.players
        c.mordred = self.mordred
        c.board = self.board[:]
        c.stock = self.stock[:]
        c.courts = self.courts[:]
        c.hands = self.hands[:]
        c.order = self.order[:]
        c.crowns = self.crowns[:]
        c.control = self.control[:]
        c.open = self.open
        c.resolved = self.resolved
        c.saxons = self.saxons
        c.player = self.player
        c.passes = self.passes
        c.tops = self.tops[:]
        c.last_play = self.last_play[:]
        c.plays = self.plays
        c.undo_ban = self.undo_ban
        c._result = self._result
        return c

    __copy__ = copy

    # -- the game API ---------------------------------------------------------

    @property
    def variant(self) -> str:
        return "mordred" if self.mordred else "standard"

    @property
    def current_player(self) -> int:
        return self.player

    def is_over(self) -> bool:
        return self._result is not None

    @property
    def result(self) -> Result | None:
        """Who won, by which ending and why; None while the game goes on."""
        return self._result

    @property
    def contested(self) -> Region | None:
        """The region whose power struggle is under way (None once all are resolved)."""
        return Region(self.order[self.resolved]) if self.resolved < NUM_REGIONS else None

    def legal_moves(self) -> list[Move]:
        """Every legal move, pass first, each exactly once (can be ~18,000)."""
        return rules.legal_moves(self)

    def is_legal(self, move: Move) -> bool:
        try:
            rules.check_move(self, move)
        except ValueError:
            return False
        return True

    def check(self, move: Move) -> None:
        """Raise :class:`IllegalMoveError` naming the broken rule, or return."""
        rules.check_move(self, move)

    def apply(self, move: Move | str) -> GameState:
        """Play a move (a Move or its notation) in place; illegal moves raise and change nothing."""
        if isinstance(move, str):
            move = parse_move(move)
        rules.play(self, rules.check_move(self, move))
        return self

    def after(self, move: Move | str) -> GameState:
        """A copy of this state with ``move`` played (this state is unchanged)."""
        return self.copy().apply(move)

    def builder(self) -> MoveBuilder:
        """Build a move step by step (card, then each choice, then the court call)."""
        from .building import MoveBuilder

        return MoveBuilder(self)

    # -- views for people -------------------------------------------------------

    def followers(self, region: int, kind: int) -> int:
        return self.board[region * NUM_KINDS + kind]

    def court(self, player: int) -> tuple[int, int, int]:
        c = self.courts
        return (c[player * 3], c[player * 3 + 1], c[player * 3 + 2])

    def hand(self, player: int) -> dict[Card, int]:
        """The cards a player still holds (hidden from other people, not from bots)."""
        h = self.hands[player * NUM_CARDS:(player + 1) * NUM_CARDS]
        return {Card(c): n for c, n in enumerate(h) if n}

    def cards_left(self, player: int) -> int:
        return sum(self.hands[player * NUM_CARDS:(player + 1) * NUM_CARDS])

    def top_card(self, player: int) -> Card | None:
        return None if self.tops[player] < 0 else Card(self.tops[player])

    def partner(self, player: int) -> int | None:
        """The teammate in a 4-player game (opposite seat), else None."""
        return (player + 2) % 4 if self.players == 4 else None

    def key(self) -> tuple:
        """A hashable summary that is equal exactly for equal positions."""
        return (
            self.players, self.mordred, tuple(self.board), tuple(self.stock), tuple(self.courts),
            tuple(self.hands), tuple(self.order), tuple(self.crowns), tuple(self.control),
            self.resolved, self.player, self.passes, tuple(self.tops),
            _play_ranking(self.last_play), self.undo_ban,
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, GameState) and self.key() == other.key()

    def __hash__(self) -> int:
        return hash(self.key())

    def __repr__(self) -> str:
        return f"<GameState {self.players}p {self.variant} resolved={self.resolved} to_move={self.player}>"


def _play_ranking(last_play: list[int]) -> tuple[int, ...]:
    """Who played most recently, as ranks: the tie-breaks need only the order."""
    played = sorted((n, p) for p, n in enumerate(last_play) if n)
    ranks = [0] * len(last_play)
    for rank, (_, p) in enumerate(played, start=1):
        ranks[p] = rank
    return tuple(ranks)


def _court_clashes(hands: list[list[int]]) -> list[int]:
    """Players who must redraw: two or more drew a pair of the same single faction."""
    by_faction: dict[int, list[int]] = {}
    for p, (a, b) in enumerate(hands):
        if a == b:
            by_faction.setdefault(a, []).append(p)
    return sorted(p for group in by_faction.values() if len(group) > 1 for p in group)
