"""How well leaf values predict who wins: the heuristic, networks, and their mixes, on self-play positions.

For every position of the shards, each seat's predicted win chance is
``mix * network + (1 - mix) * heuristic`` (the heuristic rescaled to [0, 1],
as the features carry it: ``seats[q].heuristic``), scored against the game's
result by log loss and mean absolute error over the seats in play. Use
shards no network here was trained on.

Run: .venv/bin/python benchmarks/strength/value_calibration.py SHARDS r1.kdn r3.kdn
"""

from __future__ import annotations

import argparse

import numpy as np

from kingisdead.learning.features import FEATURES
from kingisdead.learning.network import Network
from kingisdead.learning.train import load_shards

SEAT_BLOCK, SEAT_SLOTS, HEURISTIC_SLOT = 192, 16, 15
MIXES = (0.0, 0.25, 0.5, 0.75, 1.0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("shards", help="a folder of self-play shards (or one .npz)")
    parser.add_argument("networks", nargs="+", help=".kdn weight files")
    args = parser.parse_args()
    data = load_shards([args.shards])
    assert data.features.shape[1] == FEATURES
    heuristic = np.stack([data.features[:, SEAT_BLOCK + SEAT_SLOTS * q + HEURISTIC_SLOT] for q in range(4)], 1)
    print(f"{len(data.features)} positions")
    print("| network | mix (network share) | log loss | mean absolute error |")
    print("| --- | --- | --- | --- |")
    for path in args.networks:
        values = Network.load(path).evaluate(data.features)[0]
        for mix in MIXES:
            p = np.clip(mix * values + (1 - mix) * heuristic, 1e-4, 1 - 1e-4)
            loss = -(data.values * np.log(p) + (1 - data.values) * np.log(1 - p))
            error = np.abs(p - data.values)
            print(f"| {path} | {mix:g} | {loss[data.seats].mean():.4f} | {error[data.seats].mean():.4f} |")


if __name__ == "__main__":
    main()
