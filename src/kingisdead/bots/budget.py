"""How long a bot may think: seconds, search iterations, or both (whichever ends first)."""

from __future__ import annotations

import re
from dataclasses import dataclass

_TEXT = re.compile(r"^\s*(\d+(?:\.\d*)?|\.\d+)\s*(s|ms|i|it|iterations?)?\s*$", re.IGNORECASE)


@dataclass(frozen=True)
class Budget:
    """A thinking budget per move. Iteration budgets make searches repeatable; time budgets do not."""

    seconds: float | None = None
    iterations: int | None = None

    def __post_init__(self) -> None:
        if self.seconds is None and self.iterations is None:
            raise ValueError("a budget needs seconds, iterations or both")
        if self.seconds is not None and not self.seconds > 0:
            raise ValueError(f"a budget's seconds must be positive, not {self.seconds}")
        if self.iterations is not None and self.iterations < 1:
            raise ValueError(f"a budget's iterations must be at least 1, not {self.iterations}")

    @classmethod
    def parse(cls, text: str) -> Budget:
        """Read '1s', '250ms' (time) or '400', '400i' (iterations)."""
        m = _TEXT.match(text)
        if not m:
            raise ValueError(f"cannot read budget {text!r} (examples: 1s, 250ms, 400 iterations as '400')")
        number, unit = m[1], (m[2] or "i").lower()
        if unit == "s":
            return cls(seconds=float(number))
        if unit == "ms":
            return cls(seconds=float(number) / 1000)
        if "." in number:
            raise ValueError(f"iterations must be a whole number, not {number}")
        return cls(iterations=int(number))

    def __str__(self) -> str:
        parts = []
        if self.seconds is not None:
            parts.append(f"{self.seconds:g}s")
        if self.iterations is not None:
            parts.append(f"{self.iterations} iterations")
        return " or ".join(parts)
