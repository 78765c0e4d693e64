"""Perft for The King Is Dead: move and position counts that pin the move generator down.

Like chess perft, the table records, for fixed positions, how many legal moves
there are and how many distinct positions they lead to. Any change to the rules
(a card that gains or loses an option, an exchange that should be banned, a court
call that should not exist) changes some count.

The positions are those of a few fixed games, played by the fast sampler from
fixed seeds and stored as a starting position (JSON) and a move list, so the
table checks the move generator alone: it keeps working if the setup draws or
the sampler change. For each position along each game: the number of legal moves and the
number of distinct resulting positions (distinct ``GameState.key()`` of
``state.after(move)``). For a late position of each game, with few cards left,
the full depth-2 counts: leaves (the legal replies summed over every legal move)
and distinct leaf positions (a finished game has no replies).

Each edition has its table: ``perft.json`` the first edition's, ``perft-second.json``
the second's (its games in its notation, one of them with the second edition's
options away from their defaults), and ``perft-advanced.json`` the second edition's
advanced game (the Cunning cards dealt at setup, one game with every advanced
option away from its default).

Usage (from the repository root)::

    .venv/bin/python tests/perft/generate.py            # write tests/perft/perft.json
    .venv/bin/python tests/perft/generate.py --check    # recompute every entry and compare
    .venv/bin/python tests/perft/generate.py --edition second [--check]   # perft-second.json
    .venv/bin/python tests/perft/generate.py --edition second --mode advanced [--check]   # perft-advanced.json
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from random import Random
from typing import Any

from kingisdead import GameState, Move, format_move, parse_move, rules
from kingisdead import playout
from kingisdead.edition import get_edition
from kingisdead.position import from_dict, to_dict

TABLE = Path(__file__).with_name("perft.json")
TABLES = {"first": TABLE, "second": Path(__file__).with_name("perft-second.json")}
"""Each edition's table."""
ADVANCED_TABLE = Path(__file__).with_name("perft-advanced.json")
"""The second edition's advanced game's table."""
FORMAT = "kingisdead-perft"
VERSION = 1

GAMES: tuple[tuple[int, str, int], ...] = (
    (2, "standard", 1),
    (3, "standard", 2),
    (4, "standard", 3),
    (2, "mordred", 4),
    (3, "mordred", 5),
)
"""(players, variant, seed): the seed sets up the game and drives the sampler."""

SECOND_GAMES: tuple[tuple[int, str, int, dict[str, Any]], ...] = (
    (2, "standard", 1, {}),
    (3, "standard", 4, {}),
    (4, "standard", 3, {}),
    (3, "standard", 5, {"reversal": "exact", "court_redraw": True}),
)
"""The second edition's games: (players, variant, seed, options)."""

ADVANCED_GAMES: tuple[tuple[int, str, int, dict[str, Any]], ...] = (
    (2, "standard", 4, {}),
    (3, "standard", 2, {}),
    (4, "standard", 3, {}),
    (3, "standard", 5, {"spy_spy": "allowed", "spy_negotiate": "no_effect", "spy_ban": "free", "spy_pile": "fullest",
                        "aid_tie": "none", "plot_coronation": "any_faction", "plot_team": "once",
                        "plot_tiebreak": "holder_first", "plot_empty_hand": "never", "cunning_ban": "same_effect",
                        "reversal": "exact", "last_card": "must_win"}),
)
"""The advanced game's games: (players, variant, seed, options)."""

DEPTH2_MAX_MOVES = 400
"""Depth-2 counts come from the latest position of each game with at most this many
legal moves where the player to move and the next one both hold a card (so both
plies include card plays)."""


# -- counting ---------------------------------------------------------------------------

def resulting_keys(s: GameState, moves: list[Move]) -> set[tuple]:
    """The keys of the positions the moves lead to, without a full copy per move.

    Moves come grouped by card and action (as ``legal_moves`` lists them). For each
    card and action one copy plays the card; each court call then changes only the
    board and the mover's court, so its key is the action's key with those two parts
    replaced. Equal, by construction and by test, to ``{s.after(m).key() for m in moves}``.
    """
    keys: set[tuple] = set()
    p = s.player
    current: tuple | None = None
    board: list[int] = []
    parts: tuple = ()
    courts: list[tuple[int, ...]] = []
    for move in moves:
        if move.card is None:
            keys.add(s.after(move).key())
            continue
        if (move.card, move.action) != current:
            current = (move.card, move.action)
            t = s.copy()
            rules.play_card(t, move.card, move.action)
            rules.finish_turn(t, None)
            parts = t.key()
            board = t.board
            courts = []
            for f in range(3):
                called = t.courts[:]
                called[p * 3 + f] += 1
                courts.append(tuple(called))
        if move.court is None:
            keys.add(parts)
            continue
        i = move.court[0] * 4 + move.court[1]
        board[i] -= 1
        keys.add(parts[:2] + (tuple(board),) + parts[3:4] + (courts[move.court[1]],) + parts[5:])
        board[i] += 1
    return keys


def resulting_keys_slow(s: GameState, moves: list[Move]) -> set[tuple]:
    """The definition: a full copy and a checked move for every move."""
    return {s.after(move).key() for move in moves}


def perft1(s: GameState) -> tuple[int, int]:
    """(legal moves, distinct resulting positions)."""
    moves = s.legal_moves()
    return len(moves), len(resulting_keys(s, moves))


def perft2(s: GameState) -> tuple[int, int]:
    """(leaves, distinct leaf positions) two moves deep."""
    leaves = 0
    keys: set[tuple] = set()
    for move in s.legal_moves():
        child = s.after(move)
        replies = child.legal_moves()
        leaves += len(replies)
        keys |= resulting_keys(child, replies)
    return leaves, len(keys)


# -- the table --------------------------------------------------------------------------

def play_game(s: GameState, seed: int) -> list[str]:
    """A game by the fast sampler from ``s``, as move notation in its edition."""
    s = s.copy()
    rng = Random(seed)
    moves = []
    while not s.is_over():
        moves.append(format_move(playout.play_random(s, rng), s.edition))
    return moves


def positions(game: dict[str, Any]) -> list[GameState]:
    """Every position of a stored game before each of its moves."""
    s = from_dict(game["start"])
    states = []
    for text in game["moves"]:
        states.append(s.copy())
        s.apply(parse_move(text, s.edition))
    return states


def suits_depth2(s: GameState, moves: int) -> bool:
    """Small, and with cards for both the player to move and the next one."""
    nxt = (s.player + 1) % s.players
    return moves <= DEPTH2_MAX_MOVES and s.cards_left(s.player) > 0 and s.cards_left(nxt) > 0


def generate(edition: str = "first", mode: str = "standard") -> dict[str, Any]:
    games = []
    setups = ADVANCED_GAMES if mode == "advanced" else [(*g, {}) for g in GAMES] if edition == "first" else SECOND_GAMES
    for players, variant, seed, options in setups:
        start = GameState.new(players, variant, seed, edition=get_edition(edition, mode, **options))
        game: dict[str, Any] = {"players": players, "variant": variant, "seed": seed}
        if edition != "first":
            game |= {"edition": edition, "options": options}
        if mode == "advanced":
            game["mode"] = mode
        game |= {"start": to_dict(start), "moves": play_game(start, seed)}
        states = positions(game)
        game["perft1"] = [list(perft1(s)) for s in states]
        late = [ply for ply, (s, (n, _)) in enumerate(zip(states, game["perft1"])) if suits_depth2(s, n)]
        if late:
            ply = late[-1]
            game["perft2"] = {"ply": ply, "counts": list(perft2(states[ply]))}
        games.append(game)
    return {"format": FORMAT, "version": VERSION, "games": games}


def check(table: dict[str, Any], every: int = 1, depth2: bool = True) -> list[str]:
    """Recompute the table (every ``every``-th position) and list each disagreement."""
    problems = []
    for game in table["games"]:
        name = f"{game['players']}p {game['variant']} seed {game['seed']} {game.get('edition', 'first')} " \
               f"{game.get('mode', 'standard')}"
        states = positions(game)
        for ply in range(0, len(states), every):
            got = list(perft1(states[ply]))
            if got != game["perft1"][ply]:
                problems.append(f"{name} ply {ply}: perft1 {got}, table {game['perft1'][ply]}")
        if depth2 and "perft2" in game:
            ply = game["perft2"]["ply"]
            got = list(perft2(states[ply]))
            if got != game["perft2"]["counts"]:
                problems.append(f"{name} ply {ply}: perft2 {got}, table {game['perft2']['counts']}")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="recompute every entry of the table and compare")
    parser.add_argument("--edition", choices=TABLES, default="first", help="the edition whose table to write or check")
    parser.add_argument("--mode", choices=("standard", "advanced"), default="standard",
                        help="the advanced game's table (with --edition second)")
    args = parser.parse_args(argv)
    if args.mode == "advanced" and args.edition != "second":
        parser.error("only the second edition has the advanced game")
    table_path = ADVANCED_TABLE if args.mode == "advanced" else TABLES[args.edition]
    start = time.perf_counter()
    if args.check:
        problems = check(json.loads(table_path.read_text()))
        for line in problems:
            print(line)
        print(f"{'FAILED' if problems else 'ok'}: {len(problems)} mismatch(es) in {time.perf_counter() - start:.1f} s")
        return 1 if problems else 0
    table = generate(args.edition, args.mode)
    table_path.write_text(json.dumps(table, indent=1) + "\n")
    positions_counted = sum(len(g["perft1"]) for g in table["games"])
    print(f"wrote {table_path} ({positions_counted} positions) in {time.perf_counter() - start:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
