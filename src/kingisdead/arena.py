"""Tournaments between bots: fair seatings, replayed setups, win rates, ratings.

Fairness comes from the schedule, not from luck:

- Every *round* deals one setup (from its own seed) and plays it once in each
  seating of the schedule, so every bot meets the same setups from every seat.
- The schedule rotates seats so that each bot sits in each seat equally often.
  With as many bots as seats or more, every group of bots that fits the table
  plays every rotation; with fewer (two bots, three seats) the bots fill the
  table in turn (A B A, then B A B) before rotating. In the 4-player game the
  partners (seats 0 and 2, 1 and 3) are two copies of the same bot, so teams
  are compared; every pair of bots meets from both sides.
- Every draw in a game comes from seeds derived from the tournament seed, the
  round, the seating and the seat, so the results do not depend on how many
  processes ran the games, nor in which order they finished.

Games run in worker processes (``concurrent.futures``) or on a Ray cluster;
both call :func:`play_game` with the same tasks.
"""

from __future__ import annotations

import csv
import hashlib
import json
import math
import time
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from itertools import combinations
from pathlib import Path
from typing import Any

from . import engine
from .bots import make_bot
from .bots.budget import Budget
from .edition import Edition, get_edition
from .record import GameRecord
from .state import GameState
from .workers import run_tasks

Z95 = 1.959963984540054
"""Two-sided 95% quantile of the normal distribution."""


# -- the schedule ------------------------------------------------------------------

def schedule(players: int, bots: int) -> list[tuple[int, ...]]:
    """The seatings of one round: for each seat, the index of the bot sitting there."""
    if players not in (2, 3, 4):
        raise ValueError(f"The King Is Dead is for 2, 3 or 4 players, not {players}")
    if bots < 2:
        raise ValueError("an arena needs at least two bots")
    group_size = 2 if players == 4 else min(bots, players)
    seatings: list[tuple[int, ...]] = []
    for group in combinations(range(bots), group_size):
        seen: set[tuple[int, ...]] = set()
        for shift in range(group_size):
            turn = group[shift:] + group[:shift]
            base = tuple(turn[i % group_size] for i in range(players))
            for r in range(players):
                seating = base[r:] + base[:r]
                if seating not in seen:
                    seen.add(seating)
                    seatings.append(seating)
    return seatings


def derive_seed(seed: int, *parts: object) -> int:
    """A 63-bit seed from the tournament seed and a path (the same on every machine)."""
    text = ":".join(str(x) for x in (seed, *parts)).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big") >> 1


# -- one game ------------------------------------------------------------------------

@dataclass(frozen=True)
class GameTask:
    """Everything a worker needs to play one game, picklable and self-contained."""

    index: int
    round: int
    seating: tuple[int, ...]
    names: tuple[str, ...]
    """The bot name (with any budget) in each seat."""
    setup_seed: int
    bot_seeds: tuple[int, ...]
    variant: str = "standard"
    budget: Budget | None = None
    keep_moves: bool = False
    edition: Edition | str = "first"
    """The edition played, in its mode and with its options."""


@dataclass
class GameOutcome:
    index: int
    round: int
    seating: tuple[int, ...]
    setup_seed: int
    winners: tuple[int, ...]
    ending: str
    plies: int
    seconds: tuple[float, ...]
    """Seconds each seat spent choosing moves."""
    decisions: tuple[int, ...]
    """Moves each seat chose (passes included)."""
    moves: list[str] = field(default_factory=list)
    result: dict[str, Any] | None = None


def play_game(task: GameTask) -> GameOutcome:
    """Play one game of the tournament (runs in a worker process)."""
    players = len(task.names)
    state = GameState.new(players, task.variant, task.setup_seed, edition=task.edition)
    bots = [make_bot(name, seed, task.budget, state.edition) for name, seed in zip(task.names, task.bot_seeds)]
    record = GameRecord(list(task.names), task.variant, task.setup_seed, edition=state.edition)
    seconds = [0.0] * players
    decisions = [0] * players
    while not state.is_over():
        seat = state.current_player
        start = time.perf_counter()
        move = bots[seat].choose(state)
        seconds[seat] += time.perf_counter() - start
        decisions[seat] += 1
        state.apply(move)  # checked: a bot's illegal move fails the tournament loudly
        record.add(move)
    result = state.result
    assert result is not None
    return GameOutcome(
        task.index, task.round, task.seating, task.setup_seed, result.winners, result.ending,
        len(record.moves), tuple(seconds), tuple(decisions),
        record.moves if task.keep_moves else [], result.to_dict(),
    )


# -- statistics ------------------------------------------------------------------------

def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion (halves from shared wins count as half a success)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    low = 0.0 if successes <= 0 else max(0.0, centre - half)  # exact ends: no rounding past 0 or 1
    high = 1.0 if successes >= n else min(1.0, centre + half)
    return (low, high)


def credits(outcome: GameOutcome, bots: int) -> dict[int, float]:
    """Each bot at the table and its share of the win: 1 to a lone winning bot, split if several won."""
    present = {b: 0.0 for b in outcome.seating}
    winning = {outcome.seating[p] for p in outcome.winners}
    for b in winning:
        present[b] = 1.0 / len(winning)
    return present


def bradley_terry(wins: list[list[float]], iterations: int = 2000) -> list[float]:
    """Strengths from pairwise wins (``wins[i][j]``: i's wins over j), by the MM algorithm.

    One virtual draw between every pair that met keeps a bot that never won
    (or never lost) at a finite rating. Returned as Elo points, mean 0.
    """
    n = len(wins)
    w = [[wins[i][j] + (0.5 if wins[i][j] + wins[j][i] else 0.0) for j in range(n)] for i in range(n)]
    games = [[w[i][j] + w[j][i] for j in range(n)] for i in range(n)]
    strength = [1.0] * n
    for _ in range(iterations):
        new = []
        for i in range(n):
            total = sum(w[i])
            denominator = sum(games[i][j] / (strength[i] + strength[j]) for j in range(n) if j != i and games[i][j])
            new.append(total / denominator if denominator else strength[i])
        scale = math.exp(sum(math.log(x) for x in new) / n)
        new = [x / scale for x in new]
        if max(abs(a - b) for a, b in zip(new, strength)) < 1e-12:
            strength = new
            break
        strength = new
    elo = [400 * math.log10(x) for x in strength]
    mean = sum(elo) / n
    return [e - mean for e in elo]


@dataclass
class BotStats:
    name: str
    games: int
    score: float
    win_rate: float
    low: float
    high: float
    seconds_per_move: float
    moves: int
    elo: float | None = None


@dataclass
class ArenaResult:
    players: int
    variant: str
    bots: list[str]
    seed: int
    budget: str | None
    rounds: int
    outcomes: list[GameOutcome]
    stats: list[BotStats]
    pairwise: list[list[float]]
    """``pairwise[i][j]``: games in which bot i did better than bot j (ties count half)."""
    seat_wins: list[float]
    """Win rate of each seat, whoever sat there (the first-player advantage shows here)."""
    edition: Edition | str = "first"
    """The edition played, in its mode and with its options (a name: its standard game at its defaults)."""

    def to_dict(self) -> dict[str, Any]:
        edition = get_edition(self.edition)
        return {
            "players": self.players,
            "edition": edition.name,
            "mode": edition.mode,
            "options": edition.options(),
            "variant": self.variant,
            "bots": self.bots,
            "seed": self.seed,
            "budget": self.budget,
            "rounds": self.rounds,
            "games": len(self.outcomes),
            "stats": [asdict(s) for s in self.stats],
            "pairwise": self.pairwise,
            "seat_wins": self.seat_wins,
            "outcomes": [
                {"index": o.index, "round": o.round, "setup_seed": o.setup_seed,
                 "seats": [self.bots[b] for b in o.seating], "winners": list(o.winners),
                 "ending": o.ending, "plies": o.plies, "seconds": list(o.seconds),
                 "decisions": list(o.decisions)}
                for o in self.outcomes
            ],
        }


def summarise(players: int, variant: str, names: list[str], seed: int, budget: Budget | None,
              rounds: int, outcomes: list[GameOutcome], edition: Edition | str = "first") -> ArenaResult:
    n = len(names)
    games = [0] * n
    score = [0.0] * n
    seconds = [0.0] * n
    moves = [0] * n
    pairwise = [[0.0] * n for _ in range(n)]
    seat_wins = [0.0] * players
    for o in outcomes:
        share = credits(o, n)
        for b, credit in share.items():
            games[b] += 1
            score[b] += credit
        for seat, b in enumerate(o.seating):
            seconds[b] += o.seconds[seat]
            moves[b] += o.decisions[seat]
        for seat in o.winners:
            seat_wins[seat] += 1.0 / len(o.winners)
        for i, j in combinations(sorted(share), 2):
            if share[i] > share[j]:
                pairwise[i][j] += 1
            elif share[j] > share[i]:
                pairwise[j][i] += 1
            else:
                pairwise[i][j] += 0.5
                pairwise[j][i] += 0.5
    elo = bradley_terry(pairwise) if n > 2 else None
    stats = []
    for b in range(n):
        low, high = wilson(score[b], games[b])
        stats.append(BotStats(
            names[b], games[b], score[b], score[b] / games[b] if games[b] else 0.0, low, high,
            seconds[b] / moves[b] if moves[b] else 0.0, moves[b], elo[b] if elo else None,
        ))
    total = len(outcomes) or 1
    return ArenaResult(players, variant, names, seed, None if budget is None else str(budget), rounds, outcomes,
                       stats, pairwise, [w / total for w in seat_wins], edition)


# -- running a tournament ------------------------------------------------------------------

def tasks(players: int, names: list[str], games: int, seed: int = 0, variant: str = "standard",
          budget: Budget | None = None, keep_moves: bool = False,
          edition: Edition | str = "first") -> tuple[int, list[GameTask]]:
    """The rounds needed for at least ``games`` games (whole rounds only) and their tasks.

    Raises ValueError for an unknown variant or edition, a variant the edition
    does not have, no games, or a bot that cannot play (unknown, bad budget,
    no network for the edition).
    """
    chosen = get_edition(edition)
    engine.check_setup(players, variant, 0, chosen)
    if games < 1:
        raise ValueError("play at least one game")
    for name in names:
        make_bot(name, edition=chosen)  # unknown names and bad budgets fail here, before any game starts
    seatings = schedule(players, len(names))
    rounds = -(-games // len(seatings))
    out: list[GameTask] = []
    for r in range(rounds):
        setup_seed = derive_seed(seed, "setup", r)
        for k, seating in enumerate(seatings):
            out.append(GameTask(
                index=len(out), round=r, seating=seating,
                names=tuple(names[b] for b in seating), setup_seed=setup_seed,
                bot_seeds=tuple(derive_seed(seed, "bot", r, k, seat) for seat in range(players)),
                variant=variant, budget=budget, keep_moves=keep_moves, edition=chosen,
            ))
    return rounds, out


def run_arena(players: int, names: list[str], games: int, seed: int = 0, jobs: int = 1,
              variant: str = "standard", budget: Budget | None = None, keep_moves: bool = False,
              ray_address: str | None = None, use_ray: bool = False,
              on_game: Callable[[GameOutcome, int], None] | None = None,
              edition: Edition | str = "first") -> ArenaResult:
    """Play a tournament of ``edition`` and summarise it. ``on_game(outcome, total)`` is called as each game ends.

    Raises ValueError as :func:`tasks` does, before any game starts.
    """
    rounds, work = tasks(players, names, games, seed, variant, budget, keep_moves, edition)
    outcomes = run_tasks(play_game, work, jobs, use_ray=use_ray, ray_address=ray_address, on_result=on_game)
    outcomes.sort(key=lambda o: o.index)
    return summarise(players, variant, list(names), seed, budget, rounds, outcomes, edition)


# -- output ------------------------------------------------------------------------------

def write_json(result: ArenaResult, path: Path) -> None:
    path.write_text(json.dumps(result.to_dict(), indent=2) + "\n")


def write_csv(result: ArenaResult, summary: Path, games: Path) -> None:
    """The table per bot, and one row per game."""
    with summary.open("w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["bot", "games", "score", "win_rate", "ci95_low", "ci95_high", "elo",
                         "seconds_per_move", "moves"])
        for s in result.stats:
            writer.writerow([s.name, s.games, s.score, f"{s.win_rate:.4f}", f"{s.low:.4f}", f"{s.high:.4f}",
                             "" if s.elo is None else f"{s.elo:.1f}", f"{s.seconds_per_move:.4f}", s.moves])
    with games.open("w", newline="") as f:
        writer = csv.writer(f)
        seats = [f"seat{p + 1}" for p in range(result.players)]
        writer.writerow(["game", "round", "setup_seed", *seats, "winners", "ending", "plies"])
        for o in result.outcomes:
            writer.writerow([o.index, o.round, o.setup_seed, *(result.bots[b] for b in o.seating),
                             " ".join(f"seat{p + 1}" for p in o.winners), o.ending, o.plies])


def write_records(result: ArenaResult, folder: Path) -> None:
    """One game record per game (needs the tournament to have kept the moves)."""
    folder.mkdir(parents=True, exist_ok=True)
    for o in result.outcomes:
        record = GameRecord([result.bots[b] for b in o.seating], result.variant, o.setup_seed,
                            0, list(o.moves), o.result, get_edition(result.edition))
        record.save(folder / f"game-{o.index:05d}.json")


def write_plot(result: ArenaResult, path: Path) -> None:
    """Win rates with their 95% intervals as a bar chart (needs matplotlib: the 'dist' extra)."""
    try:
        import matplotlib
    except ImportError:
        raise RuntimeError("--plot needs matplotlib: pip install 'kingisdead[dist]'") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = [s.name for s in result.stats]
    rates = [s.win_rate for s in result.stats]
    errors = [[s.win_rate - s.low for s in result.stats], [s.high - s.win_rate for s in result.stats]]
    fig, ax = plt.subplots(figsize=(max(4.0, 1.4 * len(names)), 3.5))
    ax.bar(names, rates, yerr=errors, capsize=6, color="#4a7bb7")
    ax.set_ylim(0, 1)
    ax.set_ylabel("win rate (95% CI)")
    ax.set_title(f"{result.players} players, {len(result.outcomes)} games")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def format_table(result: ArenaResult) -> list[list[str]]:
    """Rows for a table a person reads: bot, games, win rate with its interval, Elo, seconds a move."""
    rows = []
    for s in sorted(result.stats, key=lambda s: -s.win_rate):
        rows.append([
            s.name, str(s.games), f"{s.win_rate:.1%}", f"{s.low:.1%} - {s.high:.1%}",
            "" if s.elo is None else f"{s.elo:+.0f}", f"{s.seconds_per_move:.3f}",
        ])
    return rows


def names_from(text: str | Iterable[str]) -> list[str]:
    """Bot names from 'a,b,c' (spaces ignored); at least two."""
    names = [n.strip() for n in (text.split(",") if isinstance(text, str) else text) if n.strip()]
    if len(names) < 2:
        raise ValueError("name at least two bots, e.g. --bots strong,greedy")
    return names
