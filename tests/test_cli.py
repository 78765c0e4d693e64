"""The kingisdead command, driven through Typer's CliRunner as a person or a script would use it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from kingisdead import GameState, position, render
from kingisdead import lastcard
from kingisdead import playout
from kingisdead.bots import make_bot
from kingisdead.cli import app, derive_seed
from kingisdead.moves import format_move
from kingisdead.record import GameRecord, RecordError

runner = CliRunner()
WIDE = {"COLUMNS": "150"}


def invoke(*args: str, input: str | None = None):
    return runner.invoke(app, list(args), input=input, env=WIDE)


def summary(*args: str) -> dict:
    result = invoke("simulate", "--json", *args)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


# -- simulate ------------------------------------------------------------------------------

def test_simulate_text_summary():
    result = invoke("simulate", "--games", "5", "--seed", "3")
    assert result.exit_code == 0, result.output
    assert "5 games" in result.stdout
    assert "Endings:" in result.stdout
    assert "Player 1 (random)" in result.stdout and "Player 2 (random)" in result.stdout


@pytest.mark.parametrize("players,variant", [(2, "standard"), (3, "mordred"), (4, "standard")])
def test_simulate_json_counts_add_up(players, variant):
    data = summary("--games", "12", "--seed", "5", "--players", str(players), "--variant", variant)
    assert data["games"] == 12 and data["players"] == players and data["variant"] == variant
    assert sum(data["endings"].values()) == 12
    assert sum(data["rulers"]) + data["no_ruler"] == 12
    assert len(data["wins"]) == players and sum(data["wins"]) >= 12
    assert data["moves_per_game"] == pytest.approx(data["moves"] / 12, abs=0.01)
    if players == 4:  # partners win together
        assert sum(data["wins"]) == 2 * 12


def test_simulate_same_seed_same_summary():
    timing = ("seconds", "games_per_second")
    first, second = (summary("--games", "8", "--seed", "11") for _ in range(2))
    assert {k: v for k, v in first.items() if k not in timing} == {k: v for k, v in second.items() if k not in timing}


def test_simulate_per_seat_bots():
    data = summary("--games", "2", "--seed", "1", "--bots", "random,uniform")
    assert data["bots"] == ["random", "uniform"]
    assert sum(data["endings"].values()) == 2


def test_simulate_rejects_unknown_bot_and_wrong_count():
    unknown = invoke("simulate", "--bots", "random,nosuchbot")
    assert unknown.exit_code == 2
    assert "nosuchbot" in unknown.output and "random" in unknown.output and "greedy" in unknown.output
    wrong = invoke("simulate", "--bots", "random,random,random", "--players", "2")
    assert wrong.exit_code == 2
    assert "one per seat" in wrong.output


def test_simulate_records_replay(tmp_path):
    data = summary("--games", "3", "--seed", "20", "--players", "3", "--records", str(tmp_path))
    files = sorted(tmp_path.glob("*.json"))
    assert len(files) == 3
    endings = []
    for path in files:
        record = GameRecord.load(path)
        state = record.replay()  # raises if a move or the stored result does not replay
        assert state.result is not None and record.result == state.result.to_dict()
        endings.append(state.result.ending)
    assert sorted(endings) == sorted(e for e, n in data["endings"].items() for _ in range(n))


# -- replay -----------------------------------------------------------------------------------

@pytest.fixture
def record_file(tmp_path) -> Path:
    summary("--games", "1", "--seed", "9", "--records", str(tmp_path))
    return next(tmp_path.glob("*.json"))


def test_replay_valid_record(record_file):
    text = invoke("replay", str(record_file))
    assert text.exit_code == 0, text.output
    expected = GameRecord.load(record_file).replay().result
    assert "Valid record" in text.stdout
    assert expected.reason.split(":")[0] in text.stdout
    data = json.loads(invoke("replay", "--json", str(record_file)).stdout)
    assert data["valid"] and data["finished"]
    assert data["result"] == expected.to_dict()


def test_replay_corrupted_record_names_the_move(record_file):
    data = json.loads(record_file.read_text())
    data["moves"][2] = "Crown Cal<>Cal *Cal"
    record_file.write_text(json.dumps(data))
    result = invoke("replay", str(record_file))
    assert result.exit_code == 1
    assert "move 3" in result.stderr and "Crown Cal<>Cal *Cal" in result.stderr
    assert "Traceback" not in result.output
    as_json = invoke("replay", "--json", str(record_file))
    assert as_json.exit_code == 1 and json.loads(as_json.stdout)["valid"] is False


def test_replay_unreadable_files(tmp_path):
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    result = invoke("replay", str(broken))
    assert result.exit_code == 1 and "not JSON" in result.stderr
    missing = invoke("replay", str(tmp_path / "missing.json"))
    assert missing.exit_code == 1 and "cannot read" in missing.stderr
    binary = tmp_path / "binary.json"
    binary.write_bytes(bytes(range(256)))
    for command in ("replay", "moves"):
        result = invoke(command, str(binary))
        assert result.exit_code == 1 and "not a text file" in result.stderr


# -- positions: new, moves, apply ---------------------------------------------------------------

@pytest.fixture
def start_file(tmp_path) -> Path:
    result = invoke("new", "--players", "3", "--variant", "mordred", "--seed", "4")
    assert result.exit_code == 0, result.output
    path = tmp_path / "start.json"
    path.write_text(result.stdout)
    return path


def test_moves_and_apply_round_trip(start_file, tmp_path):
    state = GameState.new(3, "mordred", 4)
    assert position.loads(start_file.read_text()) == state
    listed = invoke("moves", str(start_file)).stdout.splitlines()
    assert listed == [format_move(m) for m in state.legal_moves()]
    assert invoke("moves", "--count", str(start_file)).stdout.strip() == str(len(listed))
    move = listed[len(listed) // 2]
    applied = invoke("apply", str(start_file), move)
    assert applied.exit_code == 0, applied.output
    assert position.loads(applied.stdout) == state.after(move)
    # the printed position is itself a valid input
    next_file = tmp_path / "next.json"
    next_file.write_text(applied.stdout)
    assert invoke("moves", "--count", str(next_file)).stdout.strip() == str(len(state.after(move).legal_moves()))


def test_position_errors_are_clear(start_file, tmp_path):
    bad_json = tmp_path / "bad.json"
    bad_json.write_text("[1, 2")
    result = invoke("moves", str(bad_json))
    assert result.exit_code == 1 and "not JSON" in result.stderr
    invalid = json.loads(start_file.read_text())
    invalid["regions"]["Caledonia"]["Scots"] += 1
    invalid_file = tmp_path / "invalid.json"
    invalid_file.write_text(json.dumps(invalid))
    result = invoke("apply", str(invalid_file), "pass")
    assert result.exit_code == 1 and "Scots followers add up" in result.stderr
    illegal = invoke("apply", str(start_file), "Crown Cal<>Cal *Cal")
    assert illegal.exit_code == 1 and "illegal move" in illegal.stderr and "different" in illegal.stderr
    garbled = invoke("apply", str(start_file), "Dance Cal")
    assert garbled.exit_code == 1 and "unknown card" in garbled.stderr
    missing = invoke("moves", str(tmp_path / "nowhere.json"))
    assert missing.exit_code == 1 and "cannot read" in missing.stderr
    for result in (illegal, garbled, missing):
        assert "Traceback" not in result.output and result.stdout == ""


# -- rendering ------------------------------------------------------------------------------------

def rendered(state: GameState, seats: list[str], hand_of: int | None = None) -> str:
    console = Console(width=150, record=True, file=open("/dev/null", "w"))
    console.print(render.TableView(state, seats, hand_of))
    return console.export_text()


def test_table_shows_what_a_player_can_see():
    state = GameState.new(4, "mordred", seed=2)
    state.apply("pass")
    text = rendered(state, ["human", "random", "greedy", "random"], hand_of=None)
    for region in ("Caledonia", "Din Eidyn", "Eboracum", "Deva", "Caerleon", "Ratae", "Londinium", "Aquae Sulis"):
        assert region in text
    assert "Loyal" in text and "Loyalist supply" in text
    assert f"Romano-British {state.stock[2]}" in text
    assert "contested" in text and f"Struggle for {state.contested.title}" in text
    assert "Player 2 (random) to move" in text
    assert "Cards left" in text and "Top card" in text and "P1 & P3" in text
    assert "Your hand" not in text  # hands are private


def test_table_shows_courts_top_cards_crowns_and_own_hand():
    state = GameState.new(2, seed=6)
    crown = next(m for m in state.legal_moves() if m.card is not None and m.card.title == "Crown" and m.action)
    state.apply(crown)
    crown_region = state.edition.regions[crown.action[2]]
    text = rendered(state, ["human", "greedy"], hand_of=1)
    court_row = next(line for line in text.splitlines() if "Player 1 (human)" in line)
    assert court_row.split()[-2:] == ["Crown", "7"]  # top card and cards left
    crowned = next(line for line in text.splitlines() if crown_region in line)
    assert "P1" in crowned
    assert "Your hand: Crown, Garrison" in text  # player 2 still holds every card


# -- play -------------------------------------------------------------------------------------------

def plan_game(seed: int) -> tuple[list[str], list[str]]:
    """Inputs for a human (seat 1) against the random bot, and the moves the record must hold.

    The human types 'help', a malformed move, an illegal move, then a move in notation;
    next turn builds a move from numbered steps (with a 'back' in between); then passes to the end.
    """
    state = GameState.new(2, seed=seed)
    bot = make_bot("random", derive_seed(seed, 0, 1))
    inputs = ["help", "Dance Cal", "Crown Cal<>Cal *Cal"]
    expected: list[str] = []
    human_turns = 0
    while not state.is_over():
        if state.current_player == 1:
            move = bot.choose(state)
        elif human_turns == 0:
            move = state.legal_moves()[1]
            inputs.append(format_move(move))
        elif human_turns == 1:
            builder = state.builder()
            builder.choose(builder.options()[1])
            inputs += ["2", "back", "2"]
            while not builder.complete:
                builder.choose(builder.options()[0])
                inputs.append("1")
            inputs.append("")  # Enter plays the finished move
            move = builder.move()
        else:
            move = state.legal_moves()[0]
            inputs.append("pass")
        if state.current_player == 0:
            human_turns += 1
        state.apply(move)
        expected.append(format_move(move))
    return inputs, expected


def test_play_a_full_game_through_input(tmp_path):
    inputs, expected = plan_game(seed=3)
    path = tmp_path / "game.json"
    result = invoke("play", "--seats", "human,random", "--seed", "3", "--record", str(path),
                    input="\n".join(inputs) + "\n")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Settlements S>Lon" in out  # the help
    assert "Not played: cannot read move 'Dance Cal'" in out
    assert "Not played: Crown: swap two different region cards" in out
    assert "Garrison" in out and "Choose the card to play" in out
    assert "Stock:" in out and "courts" in out and "Top card" in out and "contested" in out
    assert "Game over" in out and str(path) in out
    assert out.count("Your hand") == len(expected[0::2])  # shown at each human turn, never for the bot
    record = GameRecord.load(path)
    assert record.moves == expected
    assert record.players == ["human", "random"] and record.seed == 3
    state = record.replay()
    assert state.result is not None and record.result == state.result.to_dict()
    assert state.result.reason in " ".join(out.split())


def test_eof_mid_game_saves_the_record(tmp_path):
    inputs, expected = plan_game(seed=8)
    path = tmp_path / "unfinished.json"
    human_first = inputs[3]
    result = invoke("play", "--seats", "human,random", "--seed", "8", "--record", str(path), input=human_first + "\n")
    assert result.exit_code == 0, result.output
    assert "saved" in result.stdout and str(path) in result.stdout
    record = GameRecord.load(path)
    assert record.result is None
    assert record.moves == expected[:2]  # the human's move and the bot's answer
    assert not record.replay().is_over()


def test_quit_saves_to_the_default_record(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = invoke("play", "--seed", "12", "--players", "3", "--seat", "human", "--seat", "random,random",
                    input="quit\n")
    assert result.exit_code == 0, result.output
    record = GameRecord.load(tmp_path / "kingisdead-game-12.json")
    assert record.moves == [] and record.result is None and len(record.players) == 3


def test_bots_only_play_matches_simulate(tmp_path):
    path = tmp_path / "watched.json"
    watched = invoke("play", "--seats", "random,uniform", "--seed", "4", "--record", str(path))
    assert watched.exit_code == 0, watched.output
    assert "Game over" in watched.stdout
    summary("--games", "1", "--seed", "4", "--bots", "random,uniform", "--records", str(tmp_path / "sim"))
    simulated = GameRecord.load(next((tmp_path / "sim").glob("*.json")))
    assert GameRecord.load(path).moves == simulated.moves


def test_play_rejects_bad_seats():
    unknown = invoke("play", "--seats", "human,grumpy")
    assert unknown.exit_code == 2 and "grumpy" in unknown.output and "greedy" in unknown.output
    mismatch = invoke("play", "--seats", "human,random", "--players", "3")
    assert mismatch.exit_code == 2 and "--players 3" in mismatch.output


def test_forced_passes_are_played_for_a_human():
    """No cards left, or a 3-player last card that cannot win: the human is told and passes."""
    from random import Random

    from kingisdead.cli import forced_pass

    state = GameState.new(3, seed=1)
    assert forced_pass(state) is None
    rng = Random(1)
    while not (lastcard.last_card_applies(state) and len(state.legal_moves()) == 1):
        assert not state.is_over(), "this seed no longer reaches a blocked last card"
        playout.play_random(state, rng)
    assert "last card of the game may only be played by a move that wins" in forced_pass(state)


def test_a_human_without_cards_is_passed_for(tmp_path):
    """The human plays every card at once by notation; afterwards the game goes on without asking."""
    path = tmp_path / "empty-hand.json"
    state = GameState.new(2, seed=2)
    bot = make_bot("random", derive_seed(2, 0, 1))
    inputs = []
    while state.cards_left(0):
        move = state.legal_moves()[1] if state.current_player == 0 else bot.choose(state)
        if state.current_player == 0:
            inputs.append(format_move(move))
        state.apply(move)
        assert not state.is_over()
    result = invoke("play", "--seats", "human,random", "--seed", "2", "--record", str(path),
                    input="\n".join(inputs) + "\n")
    assert result.exit_code == 0, result.output
    assert "Player 1 (human) has no cards left and passes" in result.stdout
    assert GameRecord.load(path).replay().is_over()


def test_play_refuses_a_record_path_it_cannot_write(tmp_path):
    result = invoke("play", "--seed", "1", "--record", str(tmp_path / "missing-dir" / "game.json"), input="pass\n")
    assert result.exit_code == 1
    assert "cannot write the game record" in result.stderr and "Traceback" not in result.output


@pytest.mark.parametrize("stored", [{"ending": "coronation"}, {"ending": "coronation", "winners": [1], "ruler": 1,
                                                               "reason": "?", "ranking": ["Picts"]}])
def test_a_malformed_stored_result_is_a_record_error(record_file, stored):
    """Regression: a result missing fields or naming an unknown faction raised KeyError/ValueError."""
    data = json.loads(record_file.read_text())
    data["result"] = stored
    with pytest.raises(RecordError, match="stored result is malformed"):
        GameRecord.from_dict(data).replay()
    record_file.write_text(json.dumps(data))
    result = invoke("replay", str(record_file))
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit)
    assert "stored result is malformed" in result.stderr


@pytest.mark.parametrize("notation,words", [
    ("pass", "passes"),
    ("Crown Dev<>Lon *Lon +Ebo:W", "swaps the region cards of Deva and Londinium and puts the Crown token on Lond"),
    ("Garrison Dev:SW>Ebo:R +Ebo:S", "a Scots and a Welsh follower leave Deva for Eboracum, a Romano-British"),
    ("Ambassador Cal:S<>Lon:R +Lon:S", "a Scots follower of Caledonia changes places with a Romano-British"),
    ("Settlements W>Dev", "places a Welsh follower in Deva; no follower to call to court"),
    ("Scots Din Ebo +Cal:S", "one Scots follower each to Din Eidyn and Eboracum; calls a Scots follower from Cal"),
])
def test_moves_are_described_in_words(notation, words):
    from kingisdead import parse_move

    assert words in render.describe_move(parse_move(notation))


def test_hot_seat_waits_before_showing_a_hand(tmp_path):
    path = tmp_path / "hotseat.json"
    result = invoke("play", "--seats", "human,human", "--seed", "5", "--record", str(path), input="\npass\n\nquit\n")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert out.count("press Enter when the others look away") == 2
    assert out.index("Player 2 (human), your turn") < out.rindex("Your hand")
    assert GameRecord.load(path).moves == ["pass"]


def test_step_prompts_follow_the_card():
    from random import Random

    from kingisdead import rules

    state = GameState.new(2, seed=6)
    builder = state.builder()
    assert render.step_prompt(builder) == "card to play (or pass)"
    builder.choose(next(c for c in builder.options() if c.label == "Garrison"))
    prompts = []
    while not builder.complete:
        prompts.append(render.step_prompt(builder))
        builder.choose(builder.options()[0])
    assert prompts == ["region that two followers leave", "first follower to leave", "second follower to leave",
                       "bordering region they go to", "follower sent back in exchange",
                       "region of the follower to call to court", "follower to call to court"]
    # A Crown that cannot swap anything goes straight to the court call.
    rng = Random(51)
    state = GameState.new(2, seed=51)
    while not (state.hands[state.current_player * 7] and rules.card_actions(state, 0) == [()]):
        assert not state.is_over(), "this seed no longer reaches a Crown without swaps"
        playout.play_random(state, rng)
    builder = state.builder()
    builder.choose(next(c for c in builder.options() if c.label == "Crown"))
    assert render.step_prompt(builder) == "region of the follower to call to court"


def test_settlements_skips_a_faction_without_stock(monkeypatch):
    """An empty stock leaves only 'none' for that faction: it is taken for the player, and 'back' undoes it too."""
    from io import StringIO
    from random import Random

    from kingisdead.cli import ask_move

    state = GameState.new(2, seed=0)
    rng = Random(0)
    while not (state.hands[state.current_player * 7 + 3] and state.stock[0] == 0 and state.stock[1]):
        assert not state.is_over(), "this seed no longer reaches Settlements without Scots in stock"
        playout.play_random(state, rng)
    builder = state.builder()
    number = next(i for i, c in enumerate(builder.options(), start=1) if c.label == "Settlements")
    monkeypatch.setattr("sys.stdin", StringIO(f"{number}\n1\nback\nback\npass\n"))
    out = StringIO()
    move, built = ask_move(Console(file=out, width=200), state, ["human", "random"])
    text = out.getvalue()
    assert move.is_pass and not built
    assert "none (no follower" not in text
    # the first 'back' undoes the Welsh region, the second the card (with the skipped Scots step)
    assert text.count("Settlements › none › choose the region for the Welsh follower") == 2
    assert text.count("Choose the card to play") == 2


def test_an_unknown_engine_in_the_environment_is_a_clear_error(monkeypatch):
    from kingisdead import core

    monkeypatch.setattr(core, "_engine", "bogus")
    result = invoke("simulate", "--games", "1")
    assert result.exit_code == 2
    assert "KINGISDEAD_ENGINE must be one of core, reference, not 'bogus'" in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize(("setting", "message"), [
    ("KINGISDEAD_COMPUTE=gpu", "KINGISDEAD_COMPUTE must be 'processes' or 'ray', not 'gpu'"),
    ("KINGISDEAD_COMPUTE_WORKERS=many", "KINGISDEAD_COMPUTE_WORKERS must be a positive whole number, not 'many'"),
    ("KINGISDEAD_LIMIT_JOIN=lots", "KINGISDEAD_LIMIT_JOIN must read like '30/minute', not 'lots'"),
    ("KINGISDEAD_TRUSTED_PROXIES=127.0.0.1,nginx", "a trusted proxy must be an IP address or network, not 'nginx'"),
])
def test_serve_refuses_a_bad_setting_before_touching_the_database(setting, message, tmp_path, monkeypatch):
    pytest.importorskip("fastapi")
    name, value = setting.split("=")
    monkeypatch.setenv(name, value)
    database = tmp_path / "games.sqlite3"
    result = invoke("serve", "--database", f"sqlite:///{database}", "--port", "1")
    assert result.exit_code != 0
    assert message in result.output
    assert "Traceback" not in result.output
    assert not database.exists()
