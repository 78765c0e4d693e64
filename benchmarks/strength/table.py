"""Markdown tables from the arena results in this folder (for docs/bots.md).

Run: .venv/bin/python benchmarks/strength/table.py
     .venv/bin/python benchmarks/strength/table.py --pool 2p-net-r1-strong1s*   (runs of one match, pooled)
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from kingisdead.arena import wilson

HERE = Path(__file__).parent


def pool(pattern: str) -> None:
    """One row per bot over every run whose folder matches ``pattern`` (the same bots in each)."""
    folders = sorted(p for p in HERE.glob(pattern) if (p / "results.json").exists())
    if not folders:
        raise SystemExit(f"no arena run matches {pattern!r} in {HERE}")
    runs = [json.loads((f / "results.json").read_text()) for f in folders]
    if any(sorted(r["bots"]) != sorted(runs[0]["bots"]) for r in runs):
        raise SystemExit("the runs do not all have the same bots: " + "; ".join(f.name for f in folders))
    print(f"**{pattern}**: {len(runs)} runs ({', '.join(f.name for f in folders)}), "
          f"{sum(r['games'] for r in runs)} games")
    print()
    print("| bot | games | score | win rate | 95% CI | s/move |")
    print("| --- | --- | --- | --- | --- | --- |")
    for name in runs[0]["bots"]:
        rows = [s for r in runs for s in r["stats"] if s["name"] == name]
        games, score = sum(s["games"] for s in rows), sum(s["score"] for s in rows)
        moves = sum(s["moves"] for s in rows)
        seconds = sum(s["seconds_per_move"] * s["moves"] for s in rows) / moves
        low, high = wilson(score, games)
        print(f"| {name} | {games} | {score:g} | {score / games:.1%} | {low:.1%} - {high:.1%} | {seconds:.2f} |")
    print()


def main() -> None:
    parser = argparse.ArgumentParser(description="Markdown tables from the arena runs in benchmarks/strength/")
    parser.add_argument("--pool", metavar="PATTERN", help="pool the runs whose folders match (a glob)")
    args = parser.parse_args()
    if args.pool:
        pool(args.pool)
        return
    for folder in sorted(p for p in HERE.iterdir() if (p / "results.json").exists()):
        data = json.loads((folder / "results.json").read_text())
        print(f"**{folder.name}**: {data['players']} players, {data['games']} games, seed {data['seed']}")
        print()
        elo = any(s["elo"] is not None for s in data["stats"])
        print("| bot | games | win rate | 95% CI | " + ("Elo | " if elo else "") + "s/move |")
        print("| --- | --- | --- | --- | " + ("--- | " if elo else "") + "--- |")
        for s in sorted(data["stats"], key=lambda s: -s["win_rate"]):
            cells = [s["name"], str(s["games"]), f"{s['win_rate']:.1%}", f"{s['low']:.1%} - {s['high']:.1%}"]
            if elo:
                cells.append(f"{s['elo']:+.0f}")
            cells.append(f"{s['seconds_per_move']:.2f}")
            print("| " + " | ".join(cells) + " |")
        if len(data["bots"]) > 2:
            names = data["bots"]
            pairs = [f"{names[i]} {data['pairwise'][i][j]:g}-{data['pairwise'][j][i]:g} {names[j]}"
                     for i in range(len(names)) for j in range(i + 1, len(names))]
            print()
            print("Head to head: " + "; ".join(pairs) + ".")
        print()
        print("Wins by seat: " + ", ".join(f"player {p + 1} {w:.0%}" for p, w in enumerate(data["seat_wins"])))
        print()


if __name__ == "__main__":
    main()
