"""What one seat may know: its view of a game, and full states sampled from that view.

In the standard game nothing is hidden: a seat's view is the whole position. In the
second edition's advanced game each player holds three secret Cunning cards, and the
cards nobody was dealt go back to the box unseen (../shared/rules/second-edition.md,
"The advanced game"). A seat then knows the public position, its own hand, every card
played (the engine's view keeps them all; hiding the piles below the top card is the web's
memory mode), and so every player's Action cards still held and how many Cunning cards
each other player holds, but not which.

:class:`SeatView` is that knowledge as a frozen value (equal views, equal knowledge), and
:meth:`SeatView.sample` deals the Cunning cards the seat has not seen into the other hands,
uniformly among the deals consistent with the view (determinisation: a bot that holds only
a view searches full states sampled from it).
"""

from __future__ import annotations

from dataclasses import dataclass
from random import Random
from typing import TYPE_CHECKING

from . import engine
from .board import (
    CUNNING,
    CUNNING_DEALT,
    LOYALISTS,
    NUM_CARDS,
    NUM_CUNNING,
    NUM_REGIONS,
    SAXONS,
    UNRESOLVED,
    Card,
    Cunning,
)
from .edition import Edition
from .state import GameState

if TYPE_CHECKING:
    from .engine import UndoBan

ALL_CUNNING = (1 << NUM_CUNNING) - 1
"""The twelve Cunning cards as a bit mask (bit ``i``: card ``7 + i``)."""


@dataclass(frozen=True)
class SeatView:
    """What seat ``seat`` may know of a game: the state less the other seats' Cunning cards and the box.

    The fields are those of :class:`~kingisdead.state.GameState` that are public, as tuples, with
    the same meaning and shapes (``board[region * 4 + kind]``, ``hands[player * 7 + card]``, ...):

    - ``edition``, ``seat``, ``players``, ``mordred``
    - ``board``, ``stock``, ``courts``, ``order``, ``crowns``, ``control``, ``resolved``
    - ``hands``: every player's Action cards still held, by kind (public: every card played is seen)
    - ``cunning``: this seat's own Cunning cards, a bit mask (bit ``i``: card ``7 + i``; 0 in the
      standard game). The other seats' are not here, nor which cards went back to the box.
    - ``cunning_played``: the Cunning cards each player has played, bit masks
    - ``tops``, ``last_play``, ``plays``: the piles' top cards and the card plays' numbers
    - ``player`` (the seat to move), ``passes``, ``undo_ban``

    The result is not part of a view: :meth:`sample` scores a finished game's sampled state.
    """

    edition: Edition
    seat: int
    players: int
    mordred: bool
    board: tuple[int, ...]
    stock: tuple[int, ...]
    courts: tuple[int, ...]
    hands: tuple[int, ...]
    cunning: int
    cunning_played: tuple[int, ...]
    order: tuple[int, ...]
    crowns: tuple[int, ...]
    control: tuple[int, ...]
    resolved: int
    player: int
    passes: int
    tops: tuple[int, ...]
    last_play: tuple[int, ...]
    plays: int
    undo_ban: UndoBan | None

    @classmethod
    def of(cls, s: GameState, seat: int) -> SeatView:
        """Seat ``seat``'s view of ``s``; ValueError for a seat that is not in the game."""
        if not 0 <= seat < s.players:
            raise ValueError(f"seat must be from 0 to {s.players - 1}, not {seat!r}")
        return cls(
            edition=s.edition, seat=seat, players=s.players, mordred=s.mordred,
            board=tuple(s.board), stock=tuple(s.stock), courts=tuple(s.courts), hands=tuple(s.hands),
            cunning=s.cunning[seat], cunning_played=tuple(s.cunning_played),
            order=tuple(s.order), crowns=tuple(s.crowns), control=tuple(s.control), resolved=s.resolved,
            player=s.player, passes=s.passes, tops=tuple(s.tops), last_play=tuple(s.last_play),
            plays=s.plays, undo_ban=s.undo_ban,
        )

    @property
    def variant(self) -> str:
        return "mordred" if self.mordred else "standard"

    def hidden(self, player: int) -> int:
        """How many Cunning cards ``player`` holds that this seat cannot see (0 for the seat itself and
        in the standard game): each player is dealt 3 and plays them in the open."""
        if player == self.seat or not self.edition.advanced:
            return 0
        return CUNNING_DEALT - self.cunning_played[player].bit_count()

    @property
    def unseen(self) -> int:
        """The Cunning cards this seat has not seen, a bit mask: those the other players hold and those in
        the box, which the seat cannot tell apart (0 in the standard game)."""
        if not self.edition.advanced:
            return 0
        seen = self.cunning
        for played in self.cunning_played:
            seen |= played
        return ALL_CUNNING & ~seen

    def hand(self, player: int) -> dict[Card | Cunning, int]:
        """The cards this seat knows ``player`` holds, by card: its own whole hand, another's Action cards
        (their Cunning cards are counted by :meth:`hidden`)."""
        h = self.hands[player * NUM_CARDS:(player + 1) * NUM_CARDS]
        known: dict[Card | Cunning, int] = {Card(c): n for c, n in enumerate(h) if n}
        if player == self.seat:
            known.update((card, 1) for i, card in enumerate(CUNNING) if self.cunning >> i & 1)
        return known

    def cards_left(self, player: int) -> int:
        """How many cards ``player`` holds, Cunning cards included."""
        mine = self.cunning.bit_count() if player == self.seat else 0
        return sum(self.hands[player * NUM_CARDS:(player + 1) * NUM_CARDS]) + mine + self.hidden(player)

    def is_over(self) -> bool:
        return self.ending is not None

    @property
    def ending(self) -> str | None:
        """How the game ended (``"invasion"``, ``"mordred"`` or ``"coronation"``), or None while it goes on."""
        if self.control.count(SAXONS) >= self.edition.invasion:
            return "invasion"
        if LOYALISTS in self.control:
            return "mordred"
        return "coronation" if self.resolved == NUM_REGIONS else None

    def sample(self, rng: Random) -> GameState:
        """A full state consistent with this view: the unseen Cunning cards shuffled with ``rng`` and dealt
        to the other players in seat order, each as many as it holds (:meth:`hidden`), the rest left in
        the box. Every consistent deal is equally likely; the same ``rng`` state gives the same deal. In
        the standard game it is the position itself (no draw is made). A finished game's sampled state is
        scored from its own cards, as a loaded position is.
        """
        unseen = [i for i in range(NUM_CUNNING) if self.unseen >> i & 1]
        rng.shuffle(unseen)
        cunning = [0] * self.players
        cunning[self.seat] = self.cunning
        dealt = 0
        for p in range(self.players):
            for i in unseen[dealt:dealt + self.hidden(p)]:
                cunning[p] |= 1 << i
            dealt += self.hidden(p)
        s = GameState.__new__(GameState)
        s.edition, s.players, s.mordred = self.edition, self.players, self.mordred
        s.board, s.stock, s.courts, s.hands = list(self.board), list(self.stock), list(self.courts), list(self.hands)
        s.cunning, s.cunning_played = cunning, list(self.cunning_played)
        s.order, s.crowns, s.control = list(self.order), list(self.crowns), list(self.control)
        s.open = sum(1 << r for r in range(NUM_REGIONS) if self.control[r] == UNRESOLVED)
        s.resolved, s.saxons = self.resolved, self.control.count(SAXONS)
        s.player, s.passes, s.plays = self.player, self.passes, self.plays
        s.tops, s.last_play = list(self.tops), list(self.last_play)
        s.undo_ban = self.undo_ban
        s._result = None
        if self.ending is not None:
            s._result = engine.score(s, self.ending)
        return s
