"""The advanced game's Cunning cards: their legal actions and what they do (being written: issue 31)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .state import GameState


def card_actions(s: GameState, card: int) -> list[tuple[int, ...]]:
    raise NotImplementedError("the Cunning cards are being written")


def carry_out(s: GameState, card: int, action: tuple[int, ...]) -> None:
    raise NotImplementedError("the Cunning cards are being written")
