"""The arena: fair seat rotation, replayed setups, statistics, outputs, parallel and Ray runs."""

from __future__ import annotations

import csv
import json
from collections import Counter

import pytest
from typer.testing import CliRunner

from kingisdead.arena import (
    GameOutcome,
    bradley_terry,
    credits,
    derive_seed,
    names_from,
    run_arena,
    schedule,
    tasks,
    wilson,
    write_csv,
    write_json,
    write_records,
)
from kingisdead.cli import app
from kingisdead.record import GameRecord

FAST = ["random", "careless"]


def strip(result) -> list[tuple]:
    """What a tournament decided, without timings."""
    return [(o.index, o.seating, o.setup_seed, o.winners, o.ending, o.plies) for o in result.outcomes]


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("bots", [2, 3, 4])
def test_every_bot_sits_in_every_seat_equally_often(players, bots):
    seatings = schedule(players, bots)
    per_seat = [Counter(seating[seat] for seating in seatings) for seat in range(players)]
    for counts in per_seat:
        assert set(counts) == set(range(bots))
        assert len(set(counts.values())) == 1
    assert len(set(seatings)) == len(seatings)


def test_four_players_seat_partners_as_one_bot_and_every_pair_meets_from_both_sides():
    seatings = schedule(4, 3)
    for seating in seatings:
        assert seating[0] == seating[2] and seating[1] == seating[3] and seating[0] != seating[1]
    pairs = {(s[0], s[1]) for s in seatings}
    assert pairs == {(a, b) for a in range(3) for b in range(3) if a != b}


def test_schedule_rejects_bad_tables():
    with pytest.raises(ValueError):
        schedule(5, 2)
    with pytest.raises(ValueError):
        schedule(2, 1)


def test_rounds_replay_one_setup_in_every_seating_with_distinct_bot_seeds():
    rounds, work = tasks(3, ["random", "careless"], games=7, seed=4)
    per_round = len(schedule(3, 2))
    assert rounds == 2 and len(work) == rounds * per_round  # rounded up to whole rounds
    for r in range(rounds):
        group = [t for t in work if t.round == r]
        assert len({t.setup_seed for t in group}) == 1
        assert sorted(t.seating for t in group) == sorted(schedule(3, 2))
    assert work[0].setup_seed != work[-1].setup_seed
    seeds = [s for t in work for s in t.bot_seeds]
    assert len(set(seeds)) == len(seeds)
    assert derive_seed(4, "setup", 0) == work[0].setup_seed


def test_unknown_bots_and_bad_arguments_fail_before_any_game():
    with pytest.raises(ValueError, match="unknown bot"):
        tasks(2, ["random", "nobody"], games=2)
    with pytest.raises(ValueError):
        tasks(2, ["random", "greedy"], games=0)
    with pytest.raises(ValueError):
        tasks(2, ["random", "greedy"], games=2, variant="chess")
    with pytest.raises(ValueError):
        names_from("random")
    assert names_from(" strong, greedy ,") == ["strong", "greedy"]


def test_wilson_interval():
    low, high = wilson(50, 100)
    assert low < 0.5 < high and abs((0.5 - low) - (high - 0.5)) < 1e-12
    assert wilson(0, 10)[0] == 0.0 and 0 < wilson(0, 10)[1] < 0.35
    assert wilson(10, 10)[1] == 1.0 and wilson(10, 10)[0] > 0.65
    # More games, narrower interval.
    assert wilson(500, 1000)[1] - wilson(500, 1000)[0] < high - low
    assert wilson(0, 0) == (0.0, 1.0)


def test_bradley_terry_orders_bots_and_is_symmetric():
    wins = [[0, 8, 9], [2, 0, 7], [1, 3, 0]]
    elo = bradley_terry(wins)
    assert elo[0] > elo[1] > elo[2]
    assert abs(sum(elo)) < 1e-6
    even = bradley_terry([[0, 5], [5, 0]])
    assert abs(even[0] - even[1]) < 1e-6
    # A bot that never won still gets a finite rating.
    assert all(abs(e) < 2000 for e in bradley_terry([[0, 10], [0, 0]]))


def test_credits_split_shared_wins_and_pool_seats_of_one_bot():
    def outcome(seating, winners):
        return GameOutcome(0, 0, seating, 1, winners, "coronation", 10, (0.0,) * len(seating), (1,) * len(seating))

    assert credits(outcome((0, 1, 0), (2,)), 2) == {0: 1.0, 1: 0.0}
    assert credits(outcome((0, 1), (0, 1)), 2) == {0: 0.5, 1: 0.5}
    assert credits(outcome((1, 0, 1, 0), (1, 3)), 2) == {1: 0.0, 0: 1.0}


def test_results_do_not_depend_on_the_number_of_jobs():
    serial = run_arena(2, FAST, games=4, seed=9, jobs=1)
    parallel = run_arena(2, FAST, games=4, seed=9, jobs=2)
    assert strip(serial) == strip(parallel)
    assert [s.score for s in serial.stats] == [s.score for s in parallel.stats]


def test_statistics_add_up():
    result = run_arena(3, ["random", "careless", "mcts:2"], games=3, seed=2, jobs=1)
    assert len(result.outcomes) == 3 * 1  # one round of 3 rotations
    total_credit = sum(s.score for s in result.stats)
    assert abs(total_credit - len(result.outcomes)) < 1e-9  # one win shared out per game
    for s in result.stats:
        assert s.games == 3 and s.low <= s.win_rate <= s.high and s.elo is not None
    assert abs(sum(result.seat_wins) - 1.0) < 1e-9
    n = len(result.bots)
    for i in range(n):
        for j in range(i + 1, n):
            assert result.pairwise[i][j] + result.pairwise[j][i] == 3


def test_outputs_json_csv_and_replayable_records(tmp_path):
    result = run_arena(2, FAST, games=2, seed=5, jobs=1, keep_moves=True)
    write_json(result, tmp_path / "results.json")
    write_csv(result, tmp_path / "summary.csv", tmp_path / "games.csv")
    write_records(result, tmp_path / "records")
    data = json.loads((tmp_path / "results.json").read_text())
    assert data["games"] == 2 and [s["name"] for s in data["stats"]] == FAST
    rows = list(csv.DictReader((tmp_path / "summary.csv").open()))
    assert [r["bot"] for r in rows] == FAST
    games = list(csv.DictReader((tmp_path / "games.csv").open()))
    assert len(games) == 2 and games[0]["seat1"] == "random" and games[1]["seat1"] == "careless"
    for o in result.outcomes:
        record = GameRecord.load(tmp_path / "records" / f"game-{o.index:05d}.json")
        final = record.replay()  # raises if the moves or the stored result do not replay
        assert final.result.winners == o.winners


def test_cli_arena_writes_results_and_a_plot(tmp_path):
    pytest.importorskip("matplotlib")
    out = tmp_path / "out"
    outcome = CliRunner().invoke(app, [
        "arena", "--bots", "random,careless", "--players", "2", "--games", "2", "--jobs", "1",
        "--seed", "1", "--out", str(out), "--plot", str(tmp_path / "rates.png"),
    ])
    assert outcome.exit_code == 0, outcome.output
    assert "careless" in outcome.output and "95% CI" in outcome.output
    assert (out / "results.json").exists() and (out / "games.csv").exists()
    assert (tmp_path / "rates.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_cli_arena_rejects_unknown_bots():
    outcome = CliRunner().invoke(app, ["arena", "--bots", "random,nobody", "--games", "1"])
    assert outcome.exit_code != 0
    assert "unknown bot" in outcome.output


def test_ray_local_cluster_gives_the_same_results(ray):
    local = run_arena(2, FAST, games=2, seed=3, jobs=1)
    try:
        on_ray = run_arena(2, FAST, games=2, seed=3, jobs=1, use_ray=True)
    finally:
        if ray.is_initialized():
            ray.shutdown()
    assert strip(on_ray) == strip(local)
