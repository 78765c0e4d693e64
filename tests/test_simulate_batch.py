"""`kingisdead simulate` with random bots plays its games inside the core in batches
(kingisdead.core.random_outcomes): the same games, game for game, as the per-game loop."""

from __future__ import annotations

import json
from random import Random

import pytest
from typer.testing import CliRunner

from kingisdead import GameState, cli, core, engine
from kingisdead.cli import app, derive_seed, play_out
from kingisdead.edition import FIRST, Edition, get_edition
from kingisdead.scoring import ENDINGS

needs_core = pytest.mark.skipif(not core.available(), reason="the compiled core is not built")
TIMING = ("seconds", "games_per_second")


def loop_games(players: int, variant: str, seed: int, first: int, games: int, edition: Edition = FIRST) -> list[tuple]:
    """(ending, winners, ruler, moves) of each game, played one by one as simulate's per-game loop does."""
    out = []
    for index in range(first, first + games):
        moves, final = play_out(GameState.new(players, variant, seed + index, edition=edition), None,
                                Random(derive_seed(seed, index)))
        result = final.result
        assert result is not None
        out.append((result.ending, tuple(result.winners), result.ruler, len(moves)))
    return out


def batch_games(players: int, variant: str, seed: int, first: int, games: int, edition: Edition = FIRST) -> list[tuple]:
    """The same from one call to the core."""
    batch = core.random_outcomes(GameState.new(players, variant, seed, edition=edition), seed, first, games)
    assert len(batch.endings) == len(batch.winners) == len(batch.rulers) == len(batch.moves) == games
    return [
        (ENDINGS[ending], tuple(p for p in range(players) if mask >> p & 1),
         None if ruler == core.NO_RULER else ruler, moves)
        for ending, mask, ruler, moves in zip(batch.endings, batch.winners, batch.rulers, batch.moves)
    ]


def loop_summary(players: int, variant: str, seed: int, games: int) -> dict:
    """The counts simulate prints, from the per-game loop."""
    return loop_summary_in(players, FIRST, seed, games, variant)


def loop_summary_in(players: int, edition: Edition, seed: int, games: int, variant: str = "standard") -> dict:
    """:func:`loop_summary` in ``edition``."""
    endings = dict.fromkeys(ENDINGS, 0)
    wins, rulers = [0] * players, [0] * players
    no_ruler = moves = 0
    for ending, winners, ruler, length in loop_games(players, variant, seed, 0, games, edition):
        endings[ending] += 1
        for seat in winners:
            wins[seat] += 1
        if ruler is None:
            no_ruler += 1
        else:
            rulers[ruler] += 1
        moves += length
    return {"endings": endings, "wins": wins, "rulers": rulers, "no_ruler": no_ruler, "moves": moves}


def simulate_json(*args: str) -> dict:
    result = CliRunner().invoke(app, ["simulate", "--json", *args])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


@needs_core
@pytest.mark.parametrize("players,variant", [(2, "standard"), (3, "standard"), (4, "standard"),
                                             (2, "mordred"), (3, "mordred"), (4, "mordred")])
def test_a_batch_plays_the_per_game_loops_games(players, variant):
    with core.use_engine("core"):
        assert batch_games(players, variant, 7, 0, 40) == loop_games(players, variant, 7, 0, 40)


@needs_core
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("edition", [get_edition("second", "advanced"),
                                     get_edition("second", "advanced", spy_spy="allowed", spy_negotiate="always",
                                                 plot_tiebreak="holder_first", cunning_ban="same_effect",
                                                 last_card="must_win")],
                         ids=["advanced", "advanced-options"])
def test_a_batch_plays_the_per_game_loops_advanced_games(players, edition):
    """The advanced game's random games in batches: its mode and options travel with the start."""
    with core.use_engine("core"):
        assert batch_games(players, "standard", 5, 0, 40, edition) == loop_games(players, "standard", 5, 0, 40, edition)


@needs_core
@pytest.mark.parametrize("seed", [0, -3, 2**32 - 1, 2**63 + 12345, 2**64 + 5])
def test_a_batch_from_any_seed_and_first_game(seed):
    """Negative and huge seeds are taken modulo 2**64 by both; a batch may start at any game."""
    with core.use_engine("core"):
        assert batch_games(2, "standard", seed, 1000, 12) == loop_games(2, "standard", seed, 1000, 12)


@needs_core
def test_a_batch_refuses_what_is_no_game():
    start = GameState.new(2, "standard", 0)
    with pytest.raises(ValueError):
        core.random_outcomes(start, 0, 0, -1)
    finished = core.random_outcomes(start, 0, 0, 0)
    assert finished.endings == b"" and len(finished.moves) == 0


@needs_core
@pytest.mark.parametrize("players,variant", [(2, "standard"), (3, "mordred"), (4, "standard")])
def test_simulate_in_batches_prints_the_per_game_loops_counts(monkeypatch, players, variant):
    """Games split over several batches (the last one shorter) add up to the loop's counts."""
    monkeypatch.setattr(cli, "BATCH", 7)
    with core.use_engine("core"):
        data = simulate_json("--games", "30", "--seed", "4", "--players", str(players), "--variant", variant)
        expected = loop_summary(players, variant, 4, 30)
    assert {k: data[k] for k in expected} == expected
    assert data["moves_per_game"] == round(expected["moves"] / 30, 2)


@needs_core
def test_simulate_uses_the_batches_for_random_bots_only(monkeypatch):
    calls = []
    played = engine.random_outcomes
    monkeypatch.setattr(engine, "random_outcomes", lambda *args: calls.append(args[1:]) or played(*args))
    monkeypatch.setattr(cli, "BATCH", 4)
    with core.use_engine("core"):
        simulate_json("--games", "10", "--seed", "2")
        assert calls == [(2, 0, 4), (2, 4, 4), (2, 8, 2)]
        calls.clear()
        simulate_json("--games", "3", "--bots", "random,uniform")
        assert calls == []
        data = simulate_json("--games", "5", "--seed", "2", "--edition", "second", "--mode", "advanced")
        assert calls == [(2, 0, 4), (2, 4, 1)]
        assert {k: data[k] for k in ("endings", "wins")} == {
            k: v for k, v in loop_summary_in(2, get_edition("second", "advanced"), 2, 5).items()
            if k in ("endings", "wins")}


def test_simulate_on_the_reference_engine_keeps_the_per_game_loop():
    with core.use_engine("reference"):
        data = simulate_json("--games", "6", "--seed", "9", "--players", "3")
        expected = loop_summary(3, "standard", 9, 6)
    assert {k: data[k] for k in expected} == expected


@needs_core
def test_simulate_with_records_plays_the_same_games_one_by_one(tmp_path, monkeypatch):
    monkeypatch.setattr(cli, "BATCH", 5)
    with core.use_engine("core"):
        batched = simulate_json("--games", "12", "--seed", "30", "--players", "4")
        recorded = simulate_json("--games", "12", "--seed", "30", "--players", "4", "--records", str(tmp_path))
    assert len(list(tmp_path.glob("*.json"))) == 12
    assert {k: v for k, v in batched.items() if k not in TIMING} == {k: v for k, v in recorded.items()
                                                                     if k not in TIMING}
