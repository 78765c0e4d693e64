"""Self-play data: games played by the core's search, written as ``.npz`` shards.

    python -m kingisdead.learning.selfplay --games 200 --players 2,3,4 \\
        --variant standard,mordred --budget 200 --seed 1 --out data/selfplay --jobs 2

Every seat is the compiled core's search (``core/src/selfplay.rs``) at a small
iteration budget; the first ``--explore`` moves of each game are drawn by the
search's visit counts, the later ones are its most visited. For every position
a shard keeps the features from the mover's view, the search's visits over
its root moves with the policy targets they give over the move-building
steps, and the game's final result per seat; docs/learning.md gives every
array's shape and dtype. Games are spread over shards of ``--shard-games``
games and the shards over local processes (or Ray); each game's seeds derive
from ``--seed`` and its number alone, so the same seed writes the same shards
byte for byte whatever the number of processes.

Needs NumPy (``pip install kingisdead[learn]``) and the compiled core.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import sys
import time
import zipfile
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

try:
    import numpy as np
except ImportError as exc:  # pragma: no cover - depends on the installed extras
    raise ImportError(
        f"kingisdead.learning.selfplay needs NumPy ({exc.name} is missing): pip install kingisdead[learn]"
    ) from exc

from .. import engine
from ..bots.mcts import SearchConfig
from ..interfaces.encoding import MAX_SEATS, MAX_STEPS, NUM_ACTIONS
from ..workers import run_tasks
from .features import FEATURES

FORMAT_VERSION = 1
"""Bumped whenever an array of the shards changes meaning or shape."""
ENDINGS = ("coronation", "invasion", "mordred")
"""``game_ending`` codes."""
SHARD_NAME = "shard-{:05d}.npz"
_ZIP_DATE = (1980, 1, 1, 0, 0, 0)


@dataclass(frozen=True)
class SelfPlaySettings:
    """How the games are played and spread over shards (all of it goes into the manifest)."""

    players: tuple[int, ...] = (2,)
    """Player counts; game g uses the configuration ``g % len(configurations)``."""
    variants: tuple[str, ...] = ("standard",)
    budget: int = 200
    """Search iterations per move."""
    explore: int = 8
    """Moves at the start of each game drawn by visit counts."""
    temperature: float = 1.0
    """Visit counts are raised to ``1 / temperature`` for those draws."""
    shard_games: int = 50
    search: SearchConfig = field(default_factory=SearchConfig)

    def __post_init__(self) -> None:
        if not self.players or any(p not in (2, 3, 4) for p in self.players):
            raise ValueError(f"players must be among 2, 3 and 4, got {self.players}")
        if not self.variants or any(v not in ("standard", "mordred") for v in self.variants):
            raise ValueError(f"variants must be among 'standard' and 'mordred', got {self.variants}")
        if self.budget < 1:
            raise ValueError("the budget must be at least 1 iteration a move")
        if self.explore < 0:
            raise ValueError("explore must be 0 or more moves")
        if not self.temperature > 0:
            raise ValueError("the temperature must be positive")
        if self.shard_games < 1:
            raise ValueError("a shard needs at least 1 game")

    @property
    def configurations(self) -> list[tuple[int, str]]:
        return [(p, v) for p in self.players for v in self.variants]


def game_seeds(seed: int, game: int) -> tuple[int, int]:
    """The setup seed and the play seed of game number ``game`` (BLAKE2b of both numbers)."""
    digest = hashlib.blake2b(f"kingisdead selfplay {seed} {game}".encode(), digest_size=16).digest()
    return int.from_bytes(digest[:8], "big") >> 1, int.from_bytes(digest[8:], "big") >> 1


def play_game(settings: SelfPlaySettings, seed: int, game: int) -> dict[str, Any]:
    """Game number ``game`` of a run: the core's record of it, as NumPy arrays (see :func:`make_shard`)."""
    players, variant = settings.configurations[game % len(settings.configurations)]
    setup_seed, play_seed = game_seeds(seed, game)
    c = settings.search
    knobs = (c.exploration, c.widening, c.root_widening, c.per_card, c.root_per_card, c.rollout_moves,
             c.prior_weight)
    raw = engine.selfplay_game(players, variant == "mordred", setup_seed, play_seed, settings.budget,
                               settings.explore, settings.temperature, knobs)

    def arr(name: str, dtype: str, width: int = 0) -> np.ndarray:
        a = np.frombuffer(raw[name], dtype=dtype)
        return a.reshape(-1, width) if width else a

    end = raw["end"]
    result = end.result
    assert result is not None
    return {
        "players": players, "mordred": variant == "mordred", "setup_seed": setup_seed, "play_seed": play_seed,
        "features": arr("features", "<f4", FEATURES),
        "player": arr("player", "u1").astype(np.int8),
        "forced": arr("forced", "u1").astype(bool),
        "played": arr("played", "<u4").astype(np.int64),
        "move_count": arr("move_count", "<u4").astype(np.int64),
        "target_count": arr("target_count", "<u4").astype(np.int64),
        "move_steps": arr("move_steps", "u1", MAX_STEPS).view(np.int8),
        "move_visits": arr("move_visits", "<u4").astype(np.int32),
        "move_value": arr("move_value", "<f4"),
        "target_prefix": arr("target_prefix", "u1", MAX_STEPS).view(np.int8),
        "target_len": arr("target_len", "u1").astype(np.int8),
        "target": arr("target", "<f4", NUM_ACTIONS),
        "target_legal": (arr("target_legal", "<u4")[:, None] >> np.arange(NUM_ACTIONS, dtype=np.uint32)) & 1 == 1,
        "result": np.array(raw["result"] + [0.0] * (MAX_SEATS - players), dtype=np.float32),
        "winners": sum(1 << p for p in result.winners),
        "ending": ENDINGS.index(result.ending),
    }


def _starts(counts: np.ndarray) -> np.ndarray:
    return np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)


def make_shard(settings: SelfPlaySettings, seed: int, first_game: int, games: int) -> dict[str, np.ndarray]:
    """Games ``first_game .. first_game + games - 1`` of a run, as the arrays of one shard.

    N positions, M root moves, K step prefixes, G games (docs/learning.md explains each array).
    """
    records = [play_game(settings, seed, g) for g in range(first_game, first_game + games)]
    n_pos = np.array([len(r["player"]) for r in records])
    cat = np.concatenate
    move_count = cat([r["move_count"] for r in records])
    target_count = cat([r["target_count"] for r in records])
    move_start = _starts(move_count)
    target_start = _starts(target_count)
    players = cat([np.full(n, r["players"], np.int8) for n, r in zip(n_pos, records)])
    player = cat([r["player"] for r in records])
    # Each position's results by seat relative to the mover (0 = the mover).
    result = np.zeros((len(player), MAX_SEATS), np.float32)
    row = 0
    for r in records:
        for i, mover in enumerate(r["player"]):
            n = r["players"]
            result[row + i, :n] = np.roll(r["result"][:n], -int(mover))
        row += len(r["player"])
    visits = cat([r["move_visits"] for r in records])
    totals = np.add.reduceat(visits, move_start[:-1]).astype(np.float64)
    move_prob = (visits / np.repeat(totals, move_count)).astype(np.float32)
    target = cat([r["target"] for r in records])
    target_legal = cat([r["target_legal"] for r in records])
    return {
        "format_version": np.array(FORMAT_VERSION, np.int32),
        "features": cat([r["features"] for r in records]),
        "player": player,
        "players": players,
        "mordred": cat([np.full(n, r["mordred"], bool) for n, r in zip(n_pos, records)]),
        "game": cat([np.full(n, first_game + i, np.int32) for i, n in enumerate(n_pos)]),
        "ply": cat([np.arange(n, dtype=np.int16) for n in n_pos]),
        "forced": cat([r["forced"] for r in records]),
        "result": result,
        "policy": target[target_start[:-1]],
        "legal": target_legal[target_start[:-1]],
        "played": move_start[:-1] + cat([r["played"] for r in records]),
        "move_start": move_start,
        "move_steps": cat([r["move_steps"] for r in records]),
        "move_visits": visits,
        "move_prob": move_prob,
        "move_value": cat([r["move_value"] for r in records]),
        "target_start": target_start,
        "target_prefix": cat([r["target_prefix"] for r in records]),
        "target_len": cat([r["target_len"] for r in records]),
        "target": target,
        "target_legal": target_legal,
        "game_start": _starts(n_pos),
        "game_number": np.arange(first_game, first_game + games, dtype=np.int64),
        "game_setup_seed": np.array([r["setup_seed"] for r in records], np.uint64),
        "game_play_seed": np.array([r["play_seed"] for r in records], np.uint64),
        "game_players": np.array([r["players"] for r in records], np.int8),
        "game_mordred": np.array([r["mordred"] for r in records], bool),
        "game_result": np.stack([r["result"] for r in records]),
        "game_winners": np.array([r["winners"] for r in records], np.uint8),
        "game_ending": np.array([r["ending"] for r in records], np.int8),
    }


def write_shard(path: Path, arrays: dict[str, np.ndarray]) -> None:
    """An ``.npz`` file ``numpy.load`` reads, the same bytes for the same arrays (fixed dates, sorted names)."""
    tmp = path.with_suffix(".tmp")
    with zipfile.ZipFile(tmp, "w") as z:
        for name in sorted(arrays):
            buffer = io.BytesIO()
            np.lib.format.write_array(buffer, np.asarray(arrays[name]), allow_pickle=False)
            info = zipfile.ZipInfo(name + ".npy", date_time=_ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            # Level 1: ten times smaller than stored (the features are mostly zeros), at little cost.
            z.writestr(info, buffer.getvalue(), compresslevel=1)
    tmp.replace(path)


def load_shard(path: str | Path) -> dict[str, np.ndarray]:
    """All arrays of a shard; ValueError for a shard of another format version."""
    with np.load(path, allow_pickle=False) as data:
        arrays = {name: data[name] for name in data.files}
    version = int(arrays.get("format_version", -1))
    if version != FORMAT_VERSION:
        raise ValueError(f"{path}: self-play format {version}, this version reads {FORMAT_VERSION}")
    return arrays


def step_targets(shard: dict[str, np.ndarray], position: int) -> dict[tuple[int, ...], np.ndarray]:
    """The policy targets of one position: each prefix of building steps -> the visit mass of the next step."""
    start, stop = shard["target_start"][position], shard["target_start"][position + 1]
    return {
        tuple(int(a) for a in shard["target_prefix"][k][:shard["target_len"][k]]): shard["target"][k]
        for k in range(start, stop)
    }


@dataclass(frozen=True)
class ShardTask:
    """One shard to write: picklable, self-contained (a worker needs nothing else)."""

    settings: SelfPlaySettings
    seed: int
    index: int
    first_game: int
    games: int
    out: str


@dataclass(frozen=True)
class ShardSummary:
    index: int
    games: int
    positions: int
    seconds: float
    """Wall time of the worker on this shard (not part of the manifest: it varies)."""


def run_task(task: ShardTask) -> ShardSummary:
    """Play a shard's games and write its file."""
    start = time.perf_counter()
    arrays = make_shard(task.settings, task.seed, task.first_game, task.games)
    write_shard(Path(task.out) / SHARD_NAME.format(task.index), arrays)
    return ShardSummary(task.index, task.games, len(arrays["player"]), time.perf_counter() - start)


@dataclass(frozen=True)
class RunSummary:
    shards: list[ShardSummary]
    seconds: float

    @property
    def positions(self) -> int:
        return sum(s.positions for s in self.shards)

    @property
    def games(self) -> int:
        return sum(s.games for s in self.shards)


def tasks(settings: SelfPlaySettings, games: int, seed: int, out: Path) -> list[ShardTask]:
    per = settings.shard_games
    return [ShardTask(settings, seed, i, first, min(per, games - first), str(out))
            for i, first in enumerate(range(0, games, per))]


def generate(out: str | Path, games: int, seed: int, settings: SelfPlaySettings | None = None, jobs: int = 1,
             ray: bool = False, ray_address: str | None = None,
             on_shard: Callable[[ShardSummary, int], None] | None = None) -> RunSummary:
    """Play ``games`` self-play games into shards under ``out`` (created), with ``manifest.json`` beside them.

    ``jobs`` local processes (1: in this process), or Ray tasks (``ray``: a local cluster of ``jobs`` CPUs,
    or the cluster at ``ray_address``). ValueError for bad settings or fewer than 1 game.
    """
    settings = settings or SelfPlaySettings()
    if games < 1:
        raise ValueError("games must be at least 1")
    engine.require_compiled()
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    work = tasks(settings, games, seed, out)
    start = time.perf_counter()
    done = run_tasks(run_task, work, jobs, use_ray=ray, ray_address=ray_address, on_result=on_shard)
    done.sort(key=lambda s: s.index)
    manifest = {
        "format_version": FORMAT_VERSION, "games": games, "seed": seed,
        "settings": {**asdict(settings), "search": asdict(settings.search)},
        "features": FEATURES, "actions": NUM_ACTIONS, "max_steps": MAX_STEPS,
        "shards": [{"file": SHARD_NAME.format(s.index), "games": s.games, "positions": s.positions} for s in done],
    }
    (out / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n")
    return RunSummary(done, time.perf_counter() - start)


def _csv(kind: Callable[[str], Any]) -> Callable[[str], tuple[Any, ...]]:
    def parse(text: str) -> tuple[Any, ...]:
        return tuple(kind(part.strip()) for part in text.split(",") if part.strip())
    return parse


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m kingisdead.learning.selfplay",
                                     description="Self-play games of the core's search, written as .npz shards.")
    parser.add_argument("--games", type=int, required=True, help="games to play")
    parser.add_argument("--out", required=True, help="folder for the shards and manifest.json")
    parser.add_argument("--players", type=_csv(int), default=(2,), help="player counts, e.g. 2,3,4 (default 2)")
    parser.add_argument("--variant", type=_csv(str), default=("standard",),
                        help="standard, mordred or both: standard,mordred")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--budget", type=int, default=200, help="search iterations per move (default 200)")
    parser.add_argument("--explore", type=int, default=8,
                        help="moves at the start of a game drawn by visit counts (default 8)")
    parser.add_argument("--temperature", type=float, default=1.0)
    parser.add_argument("--shard-games", type=int, default=50, help="games per shard (default 50)")
    parser.add_argument("--jobs", type=int, default=1, help="local processes (default 1)")
    parser.add_argument("--ray", action="store_true", help="run the shards as tasks on a local Ray cluster")
    parser.add_argument("--ray-address", default=None, help="join a running Ray cluster instead")
    args = parser.parse_args(argv)
    try:
        settings = SelfPlaySettings(players=args.players, variants=args.variant, budget=args.budget,
                                    explore=args.explore, temperature=args.temperature,
                                    shard_games=args.shard_games)
        if args.games < 1:
            raise ValueError("games must be at least 1")
    except ValueError as exc:
        parser.error(str(exc))

    def progress(shard: ShardSummary, total: int) -> None:
        print(f"shard {shard.index}: {shard.games} games, {shard.positions} positions, {shard.seconds:.1f} s",
              file=sys.stderr)

    run = generate(args.out, args.games, args.seed, settings, jobs=args.jobs, ray=args.ray,
                   ray_address=args.ray_address, on_shard=progress)
    print(f"{run.games} games, {run.positions} positions in {len(run.shards)} shards, {run.seconds:.1f} s "
          f"({run.positions / run.seconds:.0f} positions/s) -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
