"""What translating a view costs: a finished game's view, localized and written as JSON, in English and French.

Usage: python benchmarks/bench_i18n.py [--games 20] [--repeat 20]

Plays ``--games`` seeded random 3-player Mordred games to their end (long logs,
struggle texts, an explanation: the largest views there are), then times, for
each language, what a broadcast does for one socket: build the spectator's view
of every game (the table and its result explanation afresh, the log as the game
keeps it), ``localize(view, lang)`` and ``json.dumps``, ``--repeat`` times.
English is the reference (no catalog lookups: Texts are already English strs);
the ratio says what a French (or German) socket costs more per broadcast. The
log's texts are rendered once per language and kept (Text caches its
renderings), as in a server. In process, no server.
"""

from __future__ import annotations

import argparse
import json
import platform
import time
from random import Random
from typing import Any

from kingisdead import GameState
from kingisdead import playout
from kingisdead.moves import parse_move
from kingisdead.web.live_game import Snapshot
from kingisdead.web.i18n import localize, translations
from kingisdead.web.views import table_view


def finished_game(seed: int) -> Snapshot:
    """A random 3-player Mordred game played to its end."""
    state, rng = GameState.new(3, "mordred", seed), Random(seed)
    snap = Snapshot(state.copy())
    while not state.is_over():
        move = playout.play_random(state, rng)
        snap = snap.after(parse_move(str(move)))
    return snap


def view(snap: Snapshot) -> dict[str, Any]:
    return {"log": list(snap.log), "table": table_view(snap.state, None, reveal=True)}


def timed(games: list[Snapshot], lang: str, repeat: int) -> float:
    """Seconds per view for building it, localize and json.dumps (the best of ``repeat`` rounds)."""
    best = float("inf")
    for _round in range(repeat):
        start = time.perf_counter()
        for snap in games:
            json.dumps(localize(view(snap), lang))
        best = min(best, (time.perf_counter() - start) / len(games))
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    games = [finished_game(seed) for seed in range(args.games)]
    for lang in ("fr", "de"):
        translations(lang)  # compile the catalogs first: a server does it once
    moves = sum(len(snap.log) for snap in games) / len(games)
    english = timed(games, "en", args.repeat)
    print(f"{platform.python_implementation()} {platform.python_version()}, {args.games} finished 3-player "
          f"Mordred games ({moves:.0f} moves on average), best of {args.repeat}")
    print(f"en (reference)  {english * 1e3:7.3f} ms per view")
    for lang in ("fr", "de"):
        seconds = timed(games, lang, args.repeat)
        print(f"{lang}              {seconds * 1e3:7.3f} ms per view  ({seconds / english:.2f} x en)")


if __name__ == "__main__":
    main()
