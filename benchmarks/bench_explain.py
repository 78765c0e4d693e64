"""What the running game's explanations add to a seat's view: the struggle line and each hand card's effect.

Usage: python benchmarks/bench_explain.py [--positions 60] [--repeat 20]

Draws ``--positions`` seeded positions of running 2-, 3- and 4-player games
(up to 30 random moves in), then times, for the player to move, the seat's
view as the server sends it (``table_view`` localized in English and written as
JSON), once without the explanations (the reference: ``struggle_now`` and
``hand_effects`` stubbed out, as before they existed) and once with them, and
the French view with them. The ratio is what the explanations cost per view.
In process, no server.
"""

from __future__ import annotations

import argparse
import json
import platform
import time
from random import Random

from kingisdead import GameState
from kingisdead import playout
from kingisdead.web import views
from kingisdead.web.i18n import localize, translations


def positions(count: int) -> list[GameState]:
    found: list[GameState] = []
    seed = 0
    while len(found) < count:
        state, rng = GameState.new(2 + seed % 3, "mordred" if seed % 2 else "standard", seed), Random(seed)
        for _ in range(rng.randrange(31)):
            if state.is_over():
                break
            playout.play_random(state, rng)
        if not state.is_over():
            found.append(state)
        seed += 1
    return found


def timed(states: list[GameState], lang: str, repeat: int) -> float:
    """Seconds per view: build the mover's view, localize it and write it as JSON (best of ``repeat`` rounds)."""
    best = float("inf")
    for _round in range(repeat):
        start = time.perf_counter()
        for state in states:
            json.dumps(localize(views.table_view(state, state.player), lang))
        best = min(best, (time.perf_counter() - start) / len(states))
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=60)
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    states = positions(args.positions)
    translations("fr")  # compiled once per process in a server
    struggle_now, hand_effects = views.struggle_now, views.hand_effects
    views.struggle_now, views.hand_effects = (lambda state: None), (lambda state, seat: [])
    reference = timed(states, "en", args.repeat)
    views.struggle_now, views.hand_effects = struggle_now, hand_effects
    english = timed(states, "en", args.repeat)
    french = timed(states, "fr", args.repeat)
    print(f"{platform.python_implementation()} {platform.python_version()}, {len(states)} positions of running "
          f"2-4 player games, best of {args.repeat}")
    print(f"without explanations (reference)  {reference * 1e3:6.3f} ms per view")
    print(f"with them, English                {english * 1e3:6.3f} ms per view  ({english / reference:.2f} x)")
    print(f"with them, French                 {french * 1e3:6.3f} ms per view  ({french / reference:.2f} x)")


if __name__ == "__main__":
    main()
