"""Game records: saved, loaded and replayed to the same final state and result."""

from __future__ import annotations

from random import Random

import pytest

from kingisdead import PASS, GameState, engine, get_edition
from kingisdead import playout
from kingisdead.board import Card
from kingisdead.moves import make_move
from kingisdead.record import GameRecord, RecordError


def random_record(players: int, variant: str, seed: int) -> tuple[GameRecord, GameState]:
    record = GameRecord([f"bot{p}" for p in range(players)], variant, seed, first_player=seed % players)
    state = record.start()
    rng = Random(seed)
    while not state.is_over():
        record.add(playout.play_random(state, rng))
    record.result = state.result.to_dict()
    return record, state


@pytest.mark.parametrize(("players", "variant"), [(2, "standard"), (3, "standard"), (4, "standard"),
                                                  (2, "mordred"), (3, "mordred")])
def test_record_replays_to_the_same_state_and_result(players, variant, tmp_path):
    record, final = random_record(players, variant, seed=17)
    path = tmp_path / "game.json"
    record.save(path)
    loaded = GameRecord.load(path)
    assert loaded == record
    replayed = loaded.replay()
    assert replayed.key() == final.key()
    assert replayed.result == final.result


def test_record_with_an_illegal_move_names_its_number_and_rule():
    record, _ = random_record(2, "standard", seed=3)
    record.moves[0] = "Garrison Dev:SW>Lon:R +Lon:S"
    with pytest.raises(RecordError, match=r"move 1 \('Garrison Dev:SW>Lon:R \+Lon:S'\): Garrison: "):
        record.replay()


def test_record_with_an_unreadable_move_fails():
    record, _ = random_record(2, "standard", seed=3)
    record.moves[2] = "Joust"
    with pytest.raises(RecordError, match="move 3"):
        record.replay()


def test_record_whose_result_does_not_match_fails():
    record, _ = random_record(2, "standard", seed=4)
    record.result = dict(record.result, winners=[9], reason="made up")
    with pytest.raises(RecordError, match="stored result does not match"):
        record.replay()


def test_a_result_carries_its_steps_and_records_without_them_still_replay():
    record, final = random_record(3, "standard", seed=5)
    stored = record.result
    assert stored["steps"] == [step.to_dict(final.edition.factions) for step in final.result.steps]
    assert stored["steps"] and all(set(step) == {"kind", "faction", "values", "kept"} for step in stored["steps"])
    # An older record: no steps, and a reason in other words.
    record.result = {key: value for key, value in stored.items() if key != "steps"} | {"reason": "older words"}
    assert GameRecord.loads(record.dumps()).replay().result == final.result
    # Steps that the replay does not give are refused.
    record.result = dict(stored, steps=stored["steps"][:1] + [dict(stored["steps"][0], kept=[9])])
    with pytest.raises(RecordError, match="stored result does not match"):
        record.replay()
    record.result = dict(stored, steps=[dict(stored["steps"][0], kind="coin toss")])
    with pytest.raises(RecordError, match="malformed"):
        record.replay()


def test_record_claiming_a_result_for_an_unfinished_game_fails():
    record, _ = random_record(2, "standard", seed=4)
    record.moves = record.moves[:5]
    with pytest.raises(RecordError, match="do not finish the game"):
        record.replay()


def test_unfinished_record_replays_to_its_position():
    record = GameRecord(["a", "b"], seed=8)
    state = record.start()
    rng = Random(1)
    for _ in range(10):
        record.add(playout.play_random(state, rng))
    assert GameRecord.loads(record.dumps()).replay().key() == state.key()


@pytest.mark.parametrize(("text", "fragment"), [
    ("[", "not JSON"),
    ('{"format": "pgn"}', "not a game record"),
    ('{"format": "kingisdead-record", "version": 7}', "unsupported record version"),
    ('{"format": "kingisdead-record", "version": 1, "players": ["a"]}', "players must be a list of 2 to 4 names"),
    ('{"format": "kingisdead-record", "version": 1, "players": ["a", "b"], "variant": "x"}', "unknown variant"),
    ('{"format": "kingisdead-record", "version": 1, "players": ["a", "b"], "seed": "1"}', "seed must be an integer"),
    ('{"format": "kingisdead-record", "version": 1, "players": ["a", "b"], "seed": 1, "first_player": 2}',
     "first_player"),
    ('{"format": "kingisdead-record", "version": 1, "players": ["a", "b"], "seed": 1, "moves": [1]}', "moves"),
])
def test_bad_records_are_refused_with_a_reason(text, fragment):
    with pytest.raises(RecordError, match=fragment):
        GameRecord.loads(text)


def test_a_record_without_its_seed_says_why_it_cannot_be_replayed():
    """A server hides a running game's seed; loading that download explains it instead of failing on a type."""
    text = GameRecord(["A", "B"], "standard", 5, 0, ["pass"]).dumps().replace('"seed": 5', '"seed": null')
    with pytest.raises(RecordError, match="no seed: a game server hides it until the game is over"):
        GameRecord.loads(text)


def test_an_advanced_record_writes_its_mode_and_replays_the_deal_from_its_seed():
    # Played with the Action cards and passes only: the deal of the Cunning cards comes from the seed alone.
    edition = get_edition("second", "advanced", spy_spy="allowed")
    record = GameRecord(["a", "b", "c"], seed=11, first_player=1, edition=edition)
    state = record.start()
    assert state.cunning == GameState.new(3, seed=11, first_player=1, edition=edition).cunning
    rng = Random(11)
    while not state.is_over():
        p = state.player
        cards = [c for c in (Card.CROWN, Card.SETTLEMENTS) if state.hands[p * 7 + c]]
        move = PASS
        if cards and rng.random() < 0.6:
            card = rng.choice(cards)
            action = rng.choice(state.card_actions(card))
            calls = engine.court_calls_after(state, card, action)
            move = make_move(card, action, rng.choice(calls) if calls else None)
        state.apply(move)
        record.add(move)
    assert state.result.ending == "coronation"
    record.result = state.result.to_dict()
    data = record.to_dict()
    assert (data["edition"], data["mode"], data["options"]) == ("second", "advanced", {"spy_spy": "allowed"})
    loaded = GameRecord.loads(record.dumps())
    assert loaded == record and loaded.edition == edition
    replayed = loaded.replay()
    assert replayed.key() == state.key() and replayed.cunning == state.cunning
    assert replayed.result == state.result
    assert "mode" not in random_record(2, "standard", seed=3)[0].to_dict()
