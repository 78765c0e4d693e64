"""Hints and analysis: ranked legal moves with win chances, and annotated records."""

from __future__ import annotations

import json
from random import Random

import pytest
from typer.testing import CliRunner

from kingisdead import GameState, position, rules
from kingisdead import playout
from kingisdead.analysis import analyse_position, analyse_record, load
from kingisdead.bots.budget import Budget
from kingisdead.cli import app
from kingisdead.moves import PASS, parse_move
from kingisdead.record import GameRecord

QUICK = Budget(iterations=20)


def random_record(seed: int, players: int = 2, moves: int | None = None) -> GameRecord:
    state = GameState.new(players, seed=seed)
    record = GameRecord([f"random{p}" for p in range(players)], seed=seed)
    rng = Random(seed)
    while not state.is_over() and (moves is None or len(record.moves) < moves):
        record.add(playout.play_random(state, rng))
    if state.is_over():
        record.result = state.result.to_dict()
    return record


def test_position_moves_are_legal_ranked_and_have_win_chances():
    state = GameState.new(3, seed=12)
    analysis = analyse_position(state, QUICK, seed=1)
    assert analysis.player == state.player and analysis.iterations == 20
    assert analysis.moves
    visits = [m.visits for m in analysis.moves]
    assert visits == sorted(visits, reverse=True)
    for estimate in analysis.moves:
        assert 0.0 <= estimate.win_chance <= 1.0
        assert state.is_legal(parse_move(estimate.move))
    assert len(analyse_position(state, QUICK, seed=1, top=2).moves) == 2
    assert analysis.moves == analyse_position(state, QUICK, seed=1).moves  # iteration budgets repeat exactly


def test_small_two_player_endgames_carry_the_exact_verdict():
    from test_solver import small_endgames

    _, state, value = small_endgames()[0]
    analysis = analyse_position(state, QUICK)
    assert analysis.exact == value
    assert analysis.moves[0].move == analysis.exact_move
    assert analysis.moves[0].win_chance == (value + 1) / 2


def test_record_analysis_marks_every_move():
    record = random_record(3, moves=6)
    notes = analyse_record(record, Budget(iterations=10), seed=2)
    assert [n.number for n in notes] == list(range(1, 7))
    state = record.start()
    for note, text in zip(notes, record.moves):
        assert note.played == text and note.player == state.player
        assert note.loss >= 0.0
        if note.best == note.played:
            assert note.loss == 0.0
        else:
            assert note.loss == pytest.approx(max(0.0, note.best_chance - note.played_chance), abs=1e-3)
        assert state.is_legal(parse_move(note.best))
        state.apply(text)


def test_forced_passes_are_marked_and_not_searched():
    record = random_record(8)
    state = record.start()
    for forced_at, text in enumerate(record.moves):
        if not any(state.hands[state.player * 7:state.player * 7 + 7]):
            break
        state.apply(text)
    else:
        pytest.fail("no player ran out of cards in this game")
    record.moves = record.moves[:forced_at + 1]
    record.result = None
    note = analyse_record(record, Budget(iterations=2))[-1]
    assert note.forced and note.played == note.best == "pass" and note.loss == 0.0


def test_load_tells_records_from_positions():
    record = random_record(2, moves=3)
    assert isinstance(load(record.dumps()), GameRecord)
    state = GameState.new(2, seed=2)
    assert load(position.dumps(state)) == state
    with pytest.raises(ValueError):
        load(json.dumps({"format": "something-else"}))


def test_finished_games_cannot_be_analysed():
    state = GameState.new(2, seed=1)
    while not state.is_over():
        rules.play(state, parse_move("pass"))
    with pytest.raises(ValueError, match="over"):
        analyse_position(state, QUICK)


def test_cli_analyse_position_and_record(tmp_path):
    runner = CliRunner()
    spot = tmp_path / "position.json"
    spot.write_text(position.dumps(GameState.new(2, seed=4)))
    outcome = runner.invoke(app, ["analyse", str(spot), "--budget", "15", "--top", "3", "--json"])
    assert outcome.exit_code == 0, outcome.output
    data = json.loads(outcome.output)
    assert len(data["moves"]) == 3 and data["iterations"] == 15
    game = tmp_path / "game.json"
    random_record(6, moves=4).save(game)
    outcome = runner.invoke(app, ["analyse", str(game), "--budget", "8"])
    assert outcome.exit_code == 0, outcome.output
    assert "best found" in outcome.output


def test_cli_analyse_reports_bad_input_clearly(tmp_path):
    runner = CliRunner()
    junk = tmp_path / "junk.json"
    junk.write_text("{not json")
    outcome = runner.invoke(app, ["analyse", str(junk)])
    assert outcome.exit_code != 0 and "neither a game record nor a position" in outcome.output
    outcome = runner.invoke(app, ["analyse", str(tmp_path / "missing.json")])
    assert outcome.exit_code != 0 and "cannot read" in outcome.output
    spot = tmp_path / "p.json"
    spot.write_text(position.dumps(GameState.new(2, seed=4)))
    outcome = runner.invoke(app, ["analyse", str(spot), "--budget", "soon"])
    assert outcome.exit_code != 0


def test_no_move_looks_better_than_a_proven_result():
    """In a proven position the proof caps every estimate (a proven loss shows every move at 0)."""
    seen = set()
    for seed in range(200):
        s = GameState.new(2, seed=seed)
        rng = Random(seed)
        while not s.is_over() and sum(s.hands) > 3:
            rules.play(s, PASS) if rng.random() < 0.5 else playout.play_random(s, rng)
        if s.is_over() or not any(s.hands[s.player * 7:s.player * 7 + 7]):
            continue
        analysis = analyse_position(s, QUICK, seed=seed)
        if analysis.exact is None:
            continue
        best = (analysis.exact + 1) / 2
        assert analysis.moves[0].move == analysis.exact_move and analysis.moves[0].win_chance == best
        assert all(e.win_chance <= best for e in analysis.moves)
        seen.add(analysis.exact)
        if {-1, 1} <= seen:
            break
    assert {-1, 1} <= seen
