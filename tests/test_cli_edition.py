"""The kingisdead command in the second edition: --edition, and a table, moves and records in its words."""

from __future__ import annotations

import json

import pytest
from rich.console import Console
from typer.testing import CliRunner

from kingisdead import GameState, position, render
from kingisdead import playout
from kingisdead.cli import app
from kingisdead.moves import parse_move
from kingisdead.record import GameRecord

runner = CliRunner()
WIDE = {"COLUMNS": "150"}
SECOND_REGIONS = ("Moray", "Strathclyde", "Northumbria", "Lancaster", "Gwynedd", "Warwick", "Essex", "Devon")
FIRST_WORDS = ("Caledonia", "Londinium", "Saxon", "Romano-British", "Crown", "Garrison", "Settlements")


def invoke(*args: str, input: str | None = None):
    return runner.invoke(app, list(args), input=input, env=WIDE)


def first_edition_words(text: str) -> list[str]:
    return [word for word in FIRST_WORDS if word in text]


def test_play_second_edition_speaks_its_names(tmp_path):
    path = tmp_path / "second.json"
    result = invoke("play", "--seats", "random,greedy", "--seed", "3", "--edition", "second", "--record", str(path))
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "second edition" in out
    for region in SECOND_REGIONS:
        assert region in out
    assert "Instability discs: 0 of 3" in out and "Scottish" in out and "English" in out
    assert "Support" in out and "Game over" in out
    assert first_edition_words(out) == []
    record = GameRecord.load(path)
    assert record.edition.name == "second" and json.loads(path.read_text())["edition"] == "second"
    state = record.replay()
    assert state.result is not None and state.result.reason in " ".join(out.split())
    for move in record.moves:  # announced in the second edition's notation, as the record holds them
        assert f": {move}" in out


def test_a_person_types_and_reads_second_edition_moves(tmp_path):
    state = GameState.new(2, seed=4, edition="second")
    move = next(m for m in state.legal_moves() if m.card is not None and m.action and m.court)
    typed = state.notation(move)
    path = tmp_path / "typed.json"
    result = invoke("play", "--seats", "human,random", "--seed", "4", "--edition", "second", "--record", str(path),
                    input=f"help\nborders\nCrown Cal<>Din *Cal\n{typed}\nquit\n")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Negotiate Lan<>Ess *Ess +Nor:W" in out  # the help's examples, in this edition's notation
    assert "factions by S, W, E" in out and "negotiation disc" in out
    assert "Mor Moray: Str" in out  # the borders
    assert "Not played: cannot read move 'Crown Cal<>Din *Cal'" in out  # the first edition's words are not read
    assert GameRecord.load(path).moves[0] == typed


@pytest.mark.parametrize("command", [
    ("play", "--seats", "random,random"), ("new",), ("simulate", "--games", "1"), ("arena", "--bots", "random,greedy"),
])
def test_an_unknown_edition_is_a_usage_error(command):
    result = invoke(*command, "--edition", "third")
    assert result.exit_code == 2
    assert "--edition" in result.output and "third" in result.output and "second" in result.output


@pytest.mark.parametrize("command", [
    ("play", "--seats", "random,random"), ("new",), ("simulate", "--games", "1"),
    ("arena", "--bots", "random,greedy", "--games", "2"),
])
def test_the_second_edition_has_no_mordred_variant(command, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = invoke(*command, "--edition", "second", "--variant", "mordred")
    assert result.exit_code == 2, result.output
    assert "the second edition has no Mordred variant" in " ".join(result.output.split())
    assert list(tmp_path.iterdir()) == []  # no record started


def test_master_refuses_the_second_edition_before_the_game(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for command in (("play", "--seats", "human,master"), ("simulate", "--bots", "master", "--games", "1"),
                    ("arena", "--bots", "master,greedy")):
        result = invoke(*command, "--edition", "second")
        assert result.exit_code == 2, result.output
        assert "no network trained for the second edition yet" in " ".join(result.output.split())
    assert list(tmp_path.iterdir()) == []


def test_positions_carry_the_edition_through_new_moves_and_apply(tmp_path):
    result = invoke("new", "--edition", "second", "--seed", "5")
    assert result.exit_code == 0, result.output
    start = tmp_path / "start.json"
    start.write_text(result.stdout)
    assert json.loads(result.stdout)["edition"] == "second"
    listed = invoke("moves", str(start)).stdout.splitlines()
    state = position.loads(start.read_text())
    assert listed == [state.notation(m) for m in state.legal_moves()]
    assert any(line.startswith("Negotiate ") for line in listed) and not any("Crown" in line for line in listed)
    support = next(line for line in listed if line.startswith("Scottish "))
    applied = invoke("apply", str(start), support)
    assert applied.exit_code == 0, applied.output
    after = position.loads(applied.stdout)
    assert after.edition.name == "second" and after == state.after(state.parse(support))
    assert invoke("apply", str(start), "Scots Din Din").exit_code == 1  # first-edition words


def test_simulate_replay_and_analyse_a_second_edition_game(tmp_path):
    result = invoke("simulate", "--json", "--games", "2", "--seed", "7", "--bots", "random,greedy",
                    "--edition", "second", "--records", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["edition"] == "second"
    path = sorted(tmp_path.glob("*.json"))[0]
    record = GameRecord.load(path)
    assert record.edition.name == "second" and record.replay().is_over()
    replayed = invoke("replay", str(path))
    assert replayed.exit_code == 0 and "second edition" in replayed.stdout
    assert json.loads(invoke("replay", "--json", str(path)).stdout)["edition"] == "second"
    record.moves = record.moves[:3]
    record.result = None
    short = tmp_path / "short.json"
    record.save(short)
    analysed = invoke("analyse", "--json", "--budget", "30", str(short))
    assert analysed.exit_code == 0, analysed.output
    notes = json.loads(analysed.stdout)
    assert [n["played"] for n in notes] == record.moves
    for note in notes:
        parse_move(note["best"], GameState.new(2, edition="second").edition)  # the edition's notation


def test_analyse_a_second_edition_position_in_its_notation(tmp_path):
    state = GameState.new(2, seed=5, edition="second")
    path = tmp_path / "position.json"
    path.write_text(position.dumps(state))
    result = invoke("analyse", "--json", "--budget", "40", "--top", "5", str(path))
    assert result.exit_code == 0, result.output
    moves = [m["move"] for m in json.loads(result.stdout)["moves"]]
    assert moves and all(state.parse(m) in state.legal_moves() for m in moves)
    assert not first_edition_words(" ".join(moves))


def test_arena_plays_the_second_edition(tmp_path):
    result = invoke("arena", "--json", "--bots", "random,greedy", "--games", "2", "--jobs", "1",
                    "--edition", "second", "--records", str(tmp_path))
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["edition"] == "second" and data["games"] == 2
    for path in tmp_path.glob("*.json"):
        record = GameRecord.load(path)
        assert record.edition.name == "second" and record.replay().is_over()


# -- the terminal's words --------------------------------------------------------------------

def rendered(state: GameState) -> str:
    console = Console(width=150, record=True, file=open("/dev/null", "w"))
    console.print(render.TableView(state, ["human", "random"], hand_of=0))
    return console.export_text()


def test_the_table_in_the_second_edition():
    state = GameState.new(2, seed=6, edition="second")
    negotiate = next(m for m in state.legal_moves() if m.card == 0 and m.action)
    state.apply(negotiate)
    text = rendered(state)
    assert "Instability discs: 0 of 3" in text and "Saxon" not in text
    assert "Your hand: Outmanoeuvre, Manoeuvre, Assemble ×2, Scottish Support" in text
    player_row = next(line for line in text.splitlines() if "Player 1 (human)" in line)
    assert "Negotiate" in player_row
    assert f"Struggle for {state.edition.regions[state.order[0]]}" in text
    assert first_edition_words(text) == []


@pytest.mark.parametrize("notation,words", [
    ("Negotiate Lan<>Ess *Ess +Nor:W",
     "plays Negotiate: swaps the region cards of Lancaster and Essex and puts the negotiation disc on Essex; "
     "calls a Welsh follower from Northumbria"),
    ("Outmanoeuvre Lan:SW>Nor:E +Nor:S", "a Scottish and a Welsh follower leave Lancaster for Northumbria, "
                                         "an English follower goes back"),
    ("Assemble E>Dev", "plays Assemble: places an English follower in Devon"),
    ("Scottish Str Str +Mor:S", "plays Scottish Support: two Scottish followers to Strathclyde"),
])
def test_second_edition_moves_in_words(notation, words):
    from kingisdead.edition import SECOND

    assert words in render.describe_move(parse_move(notation, SECOND), SECOND)


def test_second_edition_resolutions_and_prompts():
    from random import Random


    state = GameState.new(2, seed=2, edition="second")
    rng = Random(2)
    while not state.is_over():
        playout.play_random(state, rng)
    said = [render.describe_resolution(state, p) for p in range(state.resolved)]
    unstable = [line for line in said if "unstable" in line]
    assert unstable and unstable[0].endswith("it becomes unstable (instability disc 1 of 3).")
    assert all("Saxon" not in line for line in said)
    builder = GameState.new(2, seed=2, edition="second").builder()
    negotiate = next(c for c in builder.options() if c.kind == "card" and c.value == 0)
    assert "Negotiate" in render.choice_label(builder.state, negotiate)
    builder.choose(negotiate)
    builder.choose(builder.options()[0])
    builder.choose(builder.options()[0])
    assert render.step_prompt(builder) == "region card for your negotiation disc"
    assert render.steps_so_far(builder).startswith("Negotiate › ")


def test_simulate_plays_the_same_second_edition_games_in_batches_and_one_by_one(tmp_path):
    def summary(*extra: str) -> dict:
        result = invoke("simulate", "--json", "--games", "30", "--seed", "3", "--players", "3", "--edition", "second",
                        *extra)
        assert result.exit_code == 0, result.output
        return {k: v for k, v in json.loads(result.stdout).items() if k not in ("seconds", "games_per_second")}

    batched = summary()
    assert batched == summary("--records", str(tmp_path))  # the records need the games one by one
    assert batched["edition"] == "second" and batched["endings"]["mordred"] == 0
    assert {GameRecord.load(path).edition.name for path in tmp_path.glob("*.json")} == {"second"}


# -- the advanced game (--mode advanced) ------------------------------------------------------------------------

def test_play_the_advanced_game_between_bots_that_see_only_their_own_hands(tmp_path):
    path = tmp_path / "advanced.json"
    result = invoke("play", "--seats", "random,determinised:20", "--seed", "5", "--edition", "second",
                    "--mode", "advanced", "--record", str(path))
    assert result.exit_code == 0, result.output
    assert "second edition, advanced game" in result.stdout and "Game over" in result.stdout
    record = GameRecord.load(path)
    assert record.edition.advanced
    final = record.replay()  # the deal comes again from the seed
    assert final.is_over() and final.result is not None and final.result.to_dict() == record.result


def test_a_human_plays_a_cunning_card_typed_in_notation(tmp_path):
    s = GameState.new(2, seed=5, edition="second", mode="advanced")
    cunning = next(m for m in s.legal_moves() if m.card is not None and m.card >= 7)
    typed = s.notation(cunning)
    result = invoke("play", "--seats", "human,random", "--seed", "5", "--edition", "second", "--mode", "advanced",
                    "--record", str(tmp_path / "h.json"), input=f"{typed}\nquit\n")
    assert f": {typed}" in result.stdout, result.output  # announced as played
    assert "Your hand" in result.stdout


def test_the_advanced_game_is_refused_where_it_does_not_exist_and_to_bots_that_would_peek():
    result = invoke("new", "--mode", "advanced")
    assert result.exit_code == 2 and "no advanced game" in result.output
    result = invoke("simulate", "--edition", "second", "--mode", "advanced", "--bots", "greedy", "--games", "1")
    assert result.exit_code == 2 and "does not play the advanced game" in result.output


def test_simulate_new_and_arena_in_the_advanced_game():
    result = invoke("simulate", "--edition", "second", "--mode", "advanced", "--games", "4", "--seed", "2", "--json")
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["mode"] == "advanced" and summary["games"] == 4
    start = position.loads(invoke("new", "--edition", "second", "--mode", "advanced", "--seed", "3").stdout)
    assert start.edition.advanced and start == GameState.new(2, seed=3, edition="second", mode="advanced")
    result = invoke("arena", "--bots", "random,determinised:8", "--games", "2", "--edition", "second",
                    "--mode", "advanced", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["mode"] == "advanced"
