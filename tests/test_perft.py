"""Perft: the stored move and position counts of tests/perft/perft.json, recomputed.

The whole table of each edition is rechecked here (about 15 s on one core for
the first edition's, 5 s for the second's, 7 s for its advanced game's); regenerate one with
``.venv/bin/python tests/perft/generate.py [--edition second [--mode advanced]]`` only after a
deliberate rule change, and say which counts changed and why in the commit.
"""

from __future__ import annotations

import json

import pytest
from perft.generate import ADVANCED_TABLE, TABLE, TABLES, check, positions, resulting_keys, resulting_keys_slow

from kingisdead import GameState, core

PERFT = json.loads(TABLE.read_text())
SECOND = json.loads(TABLES["second"].read_text())
ADVANCED = json.loads(ADVANCED_TABLE.read_text())
ALL_GAMES = PERFT["games"] + SECOND["games"] + ADVANCED["games"]
GAME_NAMES = [f"{g.get('edition', 'first')}{'-advanced' if g.get('mode') else ''}-{g['players']}p-{g['variant']}-seed{g['seed']}"
              for g in ALL_GAMES]


@pytest.mark.parametrize("index", range(len(ALL_GAMES)), ids=GAME_NAMES)
def test_perft_table_matches_the_reference(index):
    game = ALL_GAMES[index]
    with core.use_engine("reference"):
        problems = check({"games": [game]})
    assert problems == []


@pytest.mark.skipif(not core.available(), reason="the compiled core is not built")
@pytest.mark.parametrize("index", range(len(ALL_GAMES)), ids=GAME_NAMES)
def test_perft_table_matches_the_core(index):
    """The same tables, every count made by the compiled core alone (core/src/perft.rs)."""
    game = ALL_GAMES[index]
    states = positions(game)
    assert [list(core.perft(s, 1)) for s in states] == game["perft1"]
    if "perft2" in game:
        assert list(core.perft(states[game["perft2"]["ply"]], 2)) == game["perft2"]["counts"]


def test_perft_table_covers_every_configuration():
    configs = {(g["players"], g["variant"]) for g in PERFT["games"]}
    assert {(2, "standard"), (3, "standard"), (4, "standard"), (2, "mordred")} <= configs
    assert len(configs) >= 5
    assert all("perft2" in g for g in PERFT["games"])
    assert all(len(g["perft1"]) == len(g["moves"]) for g in PERFT["games"])


def test_the_second_editions_table_covers_its_player_counts_and_options():
    assert {g["players"] for g in SECOND["games"]} == {2, 3, 4}
    assert all(g["edition"] == "second" and g["variant"] == "standard" for g in SECOND["games"])
    assert any(g["options"].get("reversal") == "exact" for g in SECOND["games"])
    assert all("perft2" in g and len(g["perft1"]) == len(g["moves"]) for g in SECOND["games"])
    assert all(positions(g)[0].edition.name == "second" for g in SECOND["games"])


def test_the_advanced_games_table_covers_its_player_counts_and_options():
    """The advanced game's table: 2, 3 and 4 players, one game with every advanced option away from its
    default; Cunning cards played in every game, and a depth-2 count in each."""
    from kingisdead.edition import ADVANCED_OPTIONS

    games = ADVANCED["games"]
    assert {g["players"] for g in games} == {2, 3, 4}
    assert all(g["edition"] == "second" and g["mode"] == "advanced" for g in games)
    assert any(set(ADVANCED_OPTIONS) - {"partial_rank"} <= set(g["options"]) for g in games)
    assert all("perft2" in g and len(g["perft1"]) == len(g["moves"]) for g in games)
    for g in games:
        states = positions(g)
        assert states[0].edition.advanced
        assert any(s.cunning_played != states[0].cunning_played for s in states)


def _sample_positions() -> list[GameState]:
    """From each stored game: a mid-sized position, and one under an undo ban if any."""
    states = []
    for game in ALL_GAMES:
        games_states = positions(game)
        sized = [(n, ply) for ply, (n, _) in enumerate(game["perft1"]) if 300 <= n <= 1500]
        if sized:
            states.append(games_states[min(sized)[1]])
        banned = [ply for ply, s in enumerate(games_states) if s.undo_ban and game["perft1"][ply][0] <= 3000]
        if banned:
            states.append(games_states[banned[0]])
    return states


@pytest.mark.parametrize("state", _sample_positions(), ids=lambda s: repr(s))
def test_fast_position_counter_agrees_with_the_definition(state):
    moves = state.legal_moves()
    assert resulting_keys(state, moves) == resulting_keys_slow(state, moves)


def test_distinct_positions_never_exceed_moves():
    for game in ALL_GAMES:
        for moves, distinct in game["perft1"]:
            assert 1 <= distinct <= moves
