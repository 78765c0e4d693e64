"""How the evaluation's card value changes greedy play: drawn-move greedy against random play.

Run: .venv/bin/python benchmarks/eval_card_value.py --card-value 1.02 --projected 0.8 --players 2 --rounds 60

Each round deals one setup and plays it twice, the greedy player taking the
other seats the second time (with 3 and 4 players the two alternate round the
table). Prints the greedy side's score out of the games played.
"""

from __future__ import annotations

import argparse
from random import Random

from kingisdead import GameState, evaluation, rules
from kingisdead import playout
from kingisdead.bots.candidates import ranked_candidates


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--card-value", type=float, default=evaluation.CARD_VALUE)
    parser.add_argument("--projected", type=float, default=evaluation.PROJECTED_WEIGHT)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=60)
    args = parser.parse_args()
    evaluation.CARD_VALUE = args.card_value
    evaluation.PROJECTED_WEIGHT = args.projected
    score = 0.0
    for game in range(args.rounds):
        for swap in (0, 1):
            state = GameState.new(args.players, seed=5000 + game)
            rng = Random(game * 2 + swap)
            side = [(seat + swap) % 2 for seat in range(args.players)]  # 0: greedy, 1: random
            while not state.is_over():
                if side[state.player] == 0:
                    move = ranked_candidates(state, rng, 2)[0][1]
                else:
                    move = playout.sample_move(state, rng)
                rules.play(state, move)
            winners = {side[p] for p in state.result.winners}
            score += 1.0 / len(winners) if 0 in winners else 0.0
    print(f"card value {args.card_value}, projected weight {args.projected}, {args.players} players: "
          f"greedy scored {score:g} of {2 * args.rounds}")


if __name__ == "__main__":
    main()
