"""Game records as JSON: like PGN, the setup and the moves in notation.

The seed, player count, variant, first player and edition (its mode and
options) rebuild the exact setup, the advanced game's secret deal of Cunning
cards included, and the moves replay the game; replaying must reproduce the
stored result (its ending, winners, ruler and ranking, and its scoring steps
where the record has them: records written before the steps still replay; the
reason sentence is the steps in words and is not compared). A record with an
illegal move fails with the move's number and the rule it breaks.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .edition import FIRST, Edition, read_edition
from .moves import IllegalMoveError, Move, NotationError, format_move, parse_move
from .scoring import Result
from .state import VARIANTS, GameState


FORMAT = "kingisdead-record"
VERSION = 1


class RecordError(ValueError):
    """A record that is malformed, or whose moves or result do not replay."""


@dataclass
class GameRecord:
    """A game from its setup to its last move (and its result once over)."""

    players: list[str]
    variant: str = "standard"
    seed: int = 0
    first_player: int = 0
    moves: list[str] = field(default_factory=list)
    result: dict[str, Any] | None = None
    edition: Edition = FIRST
    """The edition played, with its mode and options; moves are in its notation. The seed deals the
    advanced game's Cunning cards too, so a record of it is replayed like any other."""

    def start(self) -> GameState:
        return GameState.new(len(self.players), self.variant, self.seed, self.first_player, self.edition)

    def add(self, move: Move) -> None:
        self.moves.append(format_move(move, self.edition))

    def to_dict(self) -> dict[str, Any]:
        """The record as a JSON-ready dict (see docs/formats.md): ``mode`` and ``options`` only where they
        are not the standard game's defaults."""
        mode = {"mode": self.edition.mode} if self.edition.advanced else {}
        options = {"options": self.edition.options()} if self.edition.options() else {}
        return {
            "format": FORMAT,
            "version": VERSION,
            "edition": self.edition.name,
            **mode,
            **options,
            "players": list(self.players),
            "variant": self.variant,
            "seed": self.seed,
            "first_player": self.first_player,
            "moves": list(self.moves),
            "result": self.result,
        }

    def dumps(self) -> str:
        return json.dumps(self.to_dict(), indent=2)

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.dumps() + "\n")

    @classmethod
    def from_dict(cls, data: Any) -> GameRecord:
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise RecordError(f"not a game record (format must be {FORMAT!r})")
        if data.get("version") != VERSION:
            raise RecordError(f"unsupported record version {data.get('version')!r} (this is version {VERSION})")
        players = data.get("players")
        if not isinstance(players, list) or len(players) not in (2, 3, 4) or not all(isinstance(p, str) for p in players):
            raise RecordError("players must be a list of 2 to 4 names")
        variant = data.get("variant", "standard")
        if variant not in VARIANTS:
            raise RecordError(f"unknown variant {variant!r}")
        edition = read_edition(data, RecordError)
        if variant == "mordred" and not edition.mordred:
            raise RecordError(f"the {edition.name} edition has no Mordred variant")
        seed, first = data.get("seed"), data.get("first_player", 0)
        if seed is None:
            raise RecordError("the record has no seed: a game server hides it until the game is over, "
                              "so download the record again once the game has ended")
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise RecordError("seed must be an integer")
        if not isinstance(first, int) or not 0 <= first < len(players):
            raise RecordError("first_player must be a seat number")
        moves = data.get("moves")
        if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
            raise RecordError("moves must be a list of moves in notation")
        result = data.get("result")
        if result is not None and not isinstance(result, dict):
            raise RecordError("result must be an object or null")
        return cls(list(players), variant, seed, first, list(moves), result, edition)

    @classmethod
    def loads(cls, text: str) -> GameRecord:
        try:
            return cls.from_dict(json.loads(text))
        except json.JSONDecodeError as exc:
            raise RecordError(f"not JSON: {exc}") from None

    @classmethod
    def load(cls, path: str | Path) -> GameRecord:
        return cls.loads(Path(path).read_text())

    def replay(self) -> GameState:
        """Play the moves from the setup; the final state, checked against the stored result."""
        state = self.start()
        for number, text in enumerate(self.moves, start=1):
            try:
                state.apply(parse_move(text, self.edition))
            except (IllegalMoveError, NotationError) as exc:
                raise RecordError(f"move {number} ({text!r}): {exc}") from None
        if self.result is not None:
            if state.result is None:
                raise RecordError("the record states a result but its moves do not finish the game")
            try:
                stored = Result.from_dict(self.result)
            except (KeyError, TypeError, ValueError) as exc:
                raise RecordError(f"the stored result is malformed ({type(exc).__name__}: {exc})") from None
            # Steps are checked where the record holds them (records written before them hold none).
            if stored != state.result or (stored.steps and stored.steps != state.result.steps):
                raise RecordError(
                    f"the stored result does not match the replay: stored {self.result['reason']!r}, "
                    f"replayed {state.result.reason!r}")
        return state
