"""Markdown tables from the arena results in this folder (for docs/bots.md).

Run: .venv/bin/python benchmarks/strength/table.py
"""

from __future__ import annotations

import json
from pathlib import Path

HERE = Path(__file__).parent


def main() -> None:
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
