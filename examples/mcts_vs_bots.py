"""OpenSpiel's MCTS bot against the engine's bots, in 2-player games.

The game is loaded through OpenSpiel (``kingisdead`` is registered when
``kingisdead.interfaces.openspiel_game`` is imported). OpenSpiel's own Python
MCTS bot (random rollouts) builds its moves step by step; our bots choose
whole moves, which are fed to OpenSpiel as their steps. Each game's setup
comes from a seed, exactly as ``GameState.new(seed=...)`` would set it up,
and the MCTS bot plays each seat equally often.

    pip install -e .[rl]
    python examples/mcts_vs_bots.py                        # a few minutes
    python examples/mcts_vs_bots.py --games 2 --simulations 10
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

from kingisdead.bots import make_bot
from kingisdead.interfaces.encoding import move_to_actions
from kingisdead.interfaces.openspiel_game import play_setup_from_seed


def play_game(game, mcts_bot, opponent, mcts_seat: int, seed: int) -> list[float]:
    state = game.new_initial_state()
    play_setup_from_seed(state, seed)
    while not state.is_terminal():
        if state.current_player() == mcts_seat:
            state.apply_action(mcts_bot.step(state))
        else:
            for action in move_to_actions(opponent.choose(state.stepped.state)):
                state.apply_action(action)
    return state.returns()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4, help="games against each opponent")
    parser.add_argument("--simulations", type=int, default=25, help="MCTS simulations per step")
    parser.add_argument("--opponents", default="random,greedy", help="comma-separated bot names")
    args = parser.parse_args()

    game = pyspiel.load_game("kingisdead")
    rng = np.random.RandomState(0)
    bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=args.simulations,
                       evaluator=mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng), random_state=rng)
    print(f"OpenSpiel MCTS ({args.simulations} simulations per step, random rollouts), 2 players")
    for name in args.opponents.split(","):
        wins = losses = draws = 0
        start = time.perf_counter()
        for g in range(args.games):
            seat = g % 2
            returns = play_game(game, bot, make_bot(name, seed=g), seat, seed=1000 + g)
            wins += returns[seat] > 0
            losses += returns[seat] < 0
            draws += returns[seat] == 0
        print(f"vs {name:8s}: {wins} won, {losses} lost, {draws} drawn of {args.games} "
              f"({time.perf_counter() - start:.0f} s)", flush=True)


if __name__ == "__main__":
    main()
