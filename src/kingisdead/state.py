"""The game state: everything needed to continue a game, in flat integer lists.

A state is small and cheap to copy (a handful of list copies), so that bots can
copy millions of them; every rule question it is asked goes to :mod:`kingisdead.engine`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import engine
from .edition import Edition, get_edition
from .board import (
    CUNNING,
    NUM_CARDS,
    NUM_KINDS,
    NUM_REGIONS,
    Card,
    Cunning,
    Region,
    card_kind,
)
from .moves import Move, format_move, parse_move
from .setup import VARIANTS  # noqa: F401  (re-exported)

if TYPE_CHECKING:
    from random import Random

    from .building import MoveBuilder
    from .engine import UndoBan
    from .information import SeatView
    from .scoring import Result


class GameState:
    """A position of The King Is Dead, with the player to move.

    Attributes are plain lists of small integers (see docs/architecture.md), and the edition:

    - ``edition``: the :class:`~kingisdead.edition.Edition` played (its names, cards, rule
      switches and options), shared between copies (it is immutable)
    - ``board[region * 4 + kind]``: followers of each faction (kind 3: Loyalists)
    - ``stock[kind]``: the common stock (kind 3: the Loyalist supply)
    - ``courts[player * 3 + faction]``: followers at each player's court
    - ``hands[player * 7 + card]``: action cards left, by kind
    - ``order``: regions by region-card position (positions 1-8 are 0-7)
    - ``crowns[region]``: the player whose Crown token (second edition: negotiation disc)
      lies on that card, or -1
    - ``control[region]``: faction in control, 4 for the Saxons (second edition: unstable),
      -1 while unresolved
    - ``saxons``: Saxon tokens (second edition: instability discs) on the board
    - ``resolved``: number of resolved struggles (the contested card is ``order[resolved]``)
    - ``tops[player]``: top card of each played pile, or -1
    - ``last_play[player]``: number of the player's latest card play (0: none yet)
    - ``cunning[player]``: the advanced game's Cunning cards in each hand, a bit mask (bit ``i``:
      card ``7 + i``, :class:`~kingisdead.board.Cunning`); 0 in the standard game
    - ``cunning_played[player]``: the Cunning cards each player has played, a bit mask; those
      nobody holds or played went back to the box unseen
    - ``undo_ban``: ``(player, reverse)``: the others may not now make the exchange
      ``reverse`` (an action tuple), which undoes ``player``'s last exchange; judged by
      effect or literally as the edition says (see :func:`kingisdead.engine.undo_ban`), or None;
      the compiled core keeps the same two fields
    """

    __slots__ = (
        "edition", "players", "mordred", "board", "stock", "courts", "hands", "order", "crowns",
        "control", "open", "resolved", "saxons", "player", "passes", "tops",
        "last_play", "plays", "cunning", "cunning_played", "undo_ban", "_result",
    )

    edition: Edition
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
    cunning: list[int]
    cunning_played: list[int]
    undo_ban: UndoBan | None
    _result: Result | None

    @classmethod
    def new(cls, players: int = 2, variant: str = "standard", seed: int = 0,
            first_player: int = 0, edition: str | Edition = "first", mode: str | None = None,
            options: dict | None = None) -> GameState:
        """Set up a new game: every random draw of the setup comes from ``seed``.

        ``edition`` is ``"first"``, ``"second"`` or an :class:`~kingisdead.edition.Edition`
        (e.g. ``SECOND.with_options(reversal="exact")``); ``mode="advanced"`` plays the
        second edition's advanced game (Cunning cards dealt in secret) and ``options`` sets
        the edition's options (:func:`kingisdead.edition.get_edition`). The draws are made one
        by one by :class:`kingisdead.setup.SetupDraws`, which also lets a caller
        make them itself (OpenSpiel's chance nodes); the compiled core makes the
        same draws, faster, when it is in use. Raises ValueError for a player
        count, variant, first player, edition, mode or option the game does not have.
        """
        return engine.new_game(players, variant, seed, first_player, get_edition(edition, mode, **(options or {})))

    def copy(self) -> GameState:
        """An independent copy (a few list copies: cheap enough for search)."""
        c = GameState.__new__(GameState)
        c.edition = self.edition
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
        c.cunning = self.cunning[:]
        c.cunning_played = self.cunning_played[:]
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
        """Every legal move, pass first, each exactly once (can be ~19,000).

        Listed by the compiled core when it is the engine in use (the same
        list, in the same order, as the reference's).
        """
        return engine.legal_moves(self)

    def card_actions(self, card: int) -> list[tuple[int, ...]]:
        """Every legal action of ``card`` (a :class:`Card` or its number), in the
        reference's order, from the engine in use; empty if the card cannot be played."""
        return engine.card_actions(self, card)

    def is_legal(self, move: Move) -> bool:
        """Whether ``move`` is legal here, judged by the engine in use."""
        return engine.is_legal(self, move)

    def check(self, move: Move) -> None:
        """Raise :class:`IllegalMoveError` naming the broken rule, or return (:func:`engine.check_move`)."""
        engine.check_move(self, move)

    def apply(self, move: Move | str) -> GameState:
        """Play a move (a Move or its notation) in place, in the engine in use.

        Raises :class:`IllegalMoveError` naming the broken rule (:func:`engine.apply`: the engine
        judges every move first) and changes nothing.
        """
        if isinstance(move, str):
            move = parse_move(move, self.edition)
        engine.apply(self, move)
        return self

    def after(self, move: Move | str) -> GameState:
        """A copy of this state with ``move`` played (this state is unchanged)."""
        return self.copy().apply(move)

    def notation(self, move: Move) -> str:
        """``move`` in this game's edition's notation (:func:`kingisdead.moves.format_move`)."""
        return format_move(move, self.edition)

    def parse(self, text: str) -> Move:
        """A move read in this game's edition's notation (NotationError for bad text)."""
        return parse_move(text, self.edition)

    def builder(self) -> MoveBuilder:
        """Build a move step by step (card, then each choice, then the court call)."""
        from .building import MoveBuilder

        return MoveBuilder(self)

    # -- one seat's information ---------------------------------------------------

    def view(self, seat: int) -> SeatView:
        """What ``seat`` may know (:class:`~kingisdead.information.SeatView`): the whole position in the
        standard game; in the advanced game, not the others' Cunning cards nor the box. ValueError for a
        seat not in the game."""
        from .information import SeatView

        return SeatView.of(self, seat)

    def sample(self, seat: int, rng: Random) -> GameState:
        """A full state consistent with :meth:`view` of ``seat``, the Cunning cards ``seat`` has not seen
        dealt uniformly with ``rng`` (:meth:`~kingisdead.information.SeatView.sample`); ValueError for a
        seat not in the game."""
        return self.view(seat).sample(rng)

    # -- views for people -------------------------------------------------------

    def followers(self, region: int, kind: int) -> int:
        return self.board[region * NUM_KINDS + kind]

    def court(self, player: int) -> tuple[int, int, int]:
        c = self.courts
        return (c[player * 3], c[player * 3 + 1], c[player * 3 + 2])

    def hand(self, player: int) -> dict[Card | Cunning, int]:
        """The cards a player still holds, Cunning cards included (in the advanced game hidden from
        the other players, and from their bots: :meth:`view`)."""
        h = self.hands[player * NUM_CARDS:(player + 1) * NUM_CARDS]
        held: dict[Card | Cunning, int] = {Card(c): n for c, n in enumerate(h) if n}
        held.update((card, 1) for i, card in enumerate(CUNNING) if self.cunning[player] >> i & 1)
        return held

    def cards_left(self, player: int) -> int:
        return sum(self.hands[player * NUM_CARDS:(player + 1) * NUM_CARDS]) + self.cunning[player].bit_count()

    def top_card(self, player: int) -> Card | Cunning | None:
        return None if self.tops[player] < 0 else card_kind(self.tops[player])

    def partner(self, player: int) -> int | None:
        """The teammate in a 4-player game (opposite seat), else None."""
        return (player + 2) % 4 if self.players == 4 else None

    def key(self) -> tuple:
        """A hashable summary that is equal exactly for equal positions."""
        return (
            self.players, self.mordred, tuple(self.board), tuple(self.stock), tuple(self.courts),
            tuple(self.hands), tuple(self.order), tuple(self.crowns), tuple(self.control),
            self.resolved, self.player, self.passes, tuple(self.tops),
            _play_ranking(self.last_play), self.undo_ban, self.edition, tuple(self.cunning),
            tuple(self.cunning_played),
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, GameState) and self.key() == other.key()

    def __hash__(self) -> int:
        return hash(self.key())

    def __repr__(self) -> str:
        mode = " advanced" if self.edition.advanced else ""
        return f"<GameState {self.edition.name}{mode} {self.players}p {self.variant} resolved={self.resolved} to_move={self.player}>"


def _play_ranking(last_play: list[int]) -> tuple[int, ...]:
    """Who played most recently, as ranks: the tie-breaks need only the order."""
    played = sorted((n, p) for p, n in enumerate(last_play) if n)
    ranks = [0] * len(last_play)
    for rank, (_, p) in enumerate(played, start=1):
        ranks[p] = rank
    return tuple(ranks)
