"""What a log entry says a move changed (regions touched, followers moved, struggles with their
tally, Mordred Loyalists), and memory mode's log before and after the game ends."""

from __future__ import annotations

import random

import pytest

from kingisdead import GameState, parse_move, rules
from kingisdead.moves import format_move
from kingisdead.web.errors import GameError
from kingisdead.web.service import GameService
from kingisdead.web.views import describe_struggle, move_changes


def played(state: GameState, notation: str) -> tuple[GameState, dict]:
    before = state.copy()
    move = parse_move(notation)
    rules.play(state, move)
    return state, move_changes(before, state, move)


def test_an_exchange_marks_both_regions_and_the_court_call_apart():
    state = GameState.new(3, "standard", 5, 0)
    _, changes = played(state, "Garrison Dev:WW>Ebo:S +Dev:S")
    assert changes["exchange"] == [3, 2] and changes["swap"] is None
    assert changes["court"] == {"region": 3, "faction": 0}
    # Deva: two Welsh arrive, one Scot leaves for Eboracum; the Scot called to court is not "left".
    assert changes["arrived"] == {"2": [0, 2, 0, 0], "3": [1, 0, 0, 0]}
    assert changes["left"] == {"2": [1, 0, 0, 0], "3": [0, 2, 0, 0]}
    assert changes["touched"] == [2, 3] and changes["struggles"] == []


def test_a_crown_swap_touches_the_swapped_regions():
    state = GameState.new(2, "standard", 3, 0)
    move = next(m for m in rules.legal_moves(state) if m.card is not None and format_move(m).startswith("Crown"))
    _, changes = played(state, format_move(move))
    assert changes["swap"] == [move.action[0], move.action[1]]
    assert set(changes["swap"]) <= set(changes["touched"])


def test_struggles_in_words_name_the_tally_and_the_tie():
    assert describe_struggle(3, [3, 3, 0, 0], 4) == "Deva: Scots 3, Welsh 3 — tie, the Saxons take it"
    assert describe_struggle(3, [0, 0, 0, 0], 4) == "Deva: no followers — the Saxons take it"
    assert describe_struggle(2, [0, 1, 4, 0], 2) == "Eboracum: Romano-British 4, Welsh 1 — the Romano-British take control"


@pytest.mark.parametrize("variant", ["standard", "mordred"])
def test_every_resolution_is_logged_with_its_counts_and_loyalist(variant):
    rng = random.Random(7)
    state, seen = GameState.new(3, variant, 5, 0), 0
    while not state.is_over():
        before = state.copy()
        move = rng.choice(rules.legal_moves(state))
        rules.play(state, move)
        changes = move_changes(before, state, move)
        for struggle in changes["struggles"]:
            seen += 1
            region = struggle["region"]
            assert struggle["counts"] == before.board[region * 4:region * 4 + 4]
            assert struggle["control"] == state.control[region] and region in changes["touched"]
            if struggle["loyalist"] is not None:
                assert variant == "mordred"
                assert state.board[struggle["loyalist"] * 4 + 3] == before.board[struggle["loyalist"] * 4 + 3] + 1
    assert seen == state.resolved


def test_memory_mode_hides_the_cards_until_the_end_then_shows_everything(tmp_path):
    service = GameService(f"sqlite:///{tmp_path / 'games.sqlite3'}")
    game, _ = service.create(2, "standard", [{"kind": "human"}, {"kind": "human"}], seed=3, memory=True)
    rng = random.Random(1)
    while not game.snapshot.state.is_over():
        state = game.snapshot.state
        move = rng.choice(rules.legal_moves(state))
        running = service.view(game, state.player)
        assert {e["notation"] for e in running["log"]} <= {"pass", "card"}
        assert all(e["shown_notation"] == e["notation"] for e in running["log"])  # in no language either
        with pytest.raises(GameError) as refused:
            service.replay_frame(game, 0)
        assert refused.value.status == 409
        game = service.play(game.id, state.player, format_move(move), len(game.snapshot.moves))
    final = service.view(game, None)
    assert [e["notation"] for e in final["log"]] == list(game.snapshot.moves)
    assert service.replay_frame(game, 1)["move"]["notation"] == game.snapshot.moves[0]
    reloaded = GameService(f"sqlite:///{tmp_path / 'games.sqlite3'}").get(game.id)
    assert reloaded.memory
    service.close()
