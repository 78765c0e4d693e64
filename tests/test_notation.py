"""Move notation: every card's spelling, one spelling per move, round trips, clear errors."""

from __future__ import annotations

import re

import pytest

from kingisdead import PASS, Card, Move, NotationError, format_move, parse_move
from kingisdead.board import Region
from kingisdead.moves import NONE

CAL, DIN, EBO, DEV, CAE, RAT, LON, AQU = (int(r) for r in Region)
S, W, R, L = 0, 1, 2, 3


@pytest.mark.parametrize(("text", "move"), [
    ("pass", PASS),
    ("Crown Dev<>Lon *Lon +Ebo:W", Move(Card.CROWN, (DEV, LON, LON), (EBO, W))),
    ("Crown +Ebo:W", Move(Card.CROWN, (), (EBO, W))),
    ("Garrison Dev:SW>Ebo:R +Ebo:S", Move(Card.GARRISON, (DEV, S, W, EBO, R), (EBO, S))),
    ("Garrison Din:LL>Ebo:W +Din:W", Move(Card.GARRISON, (DIN, L, L, EBO, W), (DIN, W))),
    ("Garrison Cal:W<>Din:S +Din:S", Move(Card.GARRISON, (CAL, W, DIN, S), (DIN, S))),
    ("Garrison +Lon:R", Move(Card.GARRISON, (), (LON, R))),
    ("Ambassador Cal:S<>Lon:R +Lon:S", Move(Card.AMBASSADOR, (CAL, S, LON, R), (LON, S))),
    ("Settlements S>Lon W>Dev R>Lon +Dev:W", Move(Card.SETTLEMENTS, (LON, DEV, LON), (DEV, W))),
    ("Settlements S>Lon R>Cae +Cae:R", Move(Card.SETTLEMENTS, (LON, NONE, CAE), (CAE, R))),
    ("Settlements", Move(Card.SETTLEMENTS, (NONE, NONE, NONE), None)),
    ("Scots Din Din +Cal:S", Move(Card.SCOTS, (DIN, DIN), (CAL, S))),
    ("Welsh Cae +Dev:W", Move(Card.WELSH, (CAE,), (DEV, W))),
    ("Romano-British +Rat:W", Move(Card.ROMANO_BRITISH, (), (RAT, W))),
    ("Crown Dev<>Lon *Dev", Move(Card.CROWN, (DEV, LON, DEV), None)),
])
def test_notation_reads_and_writes_every_card(text, move):
    assert parse_move(text) == move
    assert format_move(move) == text
    assert str(move) == text


@pytest.mark.parametrize(("text", "canonical"), [
    ("Crown Lon<>Dev *Lon", "Crown Dev<>Lon *Lon"),
    ("garrison dev:ws>ebo:r +ebo:s", "Garrison Dev:SW>Ebo:R +Ebo:S"),
    ("Garrison Din:S<>Cal:W +Cal:S", "Garrison Cal:W<>Din:S +Cal:S"),
    ("Ambassador Lon:R<>Cal:S +Lon:S", "Ambassador Cal:S<>Lon:R +Lon:S"),
    ("Settlements R>Lon S>Dev", "Settlements S>Dev R>Lon"),
    ("Scots Ebo Din +Cal:S", "Scots Din Ebo +Cal:S"),
    ("ROMANO-BRITISH lon", "Romano-British Lon"),
    ("romano_british Londinium", "Romano-British Lon"),
    ("  PASS  ", "pass"),
])
def test_notation_one_spelling_per_move(text, canonical):
    assert format_move(parse_move(text)) == canonical
    assert parse_move(text) == parse_move(canonical)


@pytest.mark.parametrize(("text", "fragment"), [
    ("", "empty move"),
    ("Joust Cal", "unknown card"),
    ("Crown Dev<>Lon", "Crown takes 'A<>B *C'"),
    ("Crown Dev<>Xyz *Dev", "unknown region"),
    ("Garrison Dev:SW>Ebo:R Lon:S", "Garrison takes one exchange"),
    ("Garrison Dev-Ebo", "Garrison exchange must look like"),
    ("Ambassador Dev:SW>Ebo:R", "Ambassador exchange must look like"),
    ("Settlements S>Lon S>Dev", "one Scots, Welsh and Romano-British follower each"),
    ("Settlements L>Lon", "one Scots, Welsh and Romano-British follower each"),
    ("Settlements Lon", "placements look like 'S>Lon'"),
    ("Scots Din Din Ebo", "at most 2 followers"),
    ("Scots Din +Din", "court call"),
    ("Scots Din +Din:Q", "unknown faction"),
    ("pass Cal", "unknown card"),
    ("Crown Dev<>Lon *Lon extra", "Crown takes"),
])
def test_notation_errors_say_what_is_wrong(text, fragment):
    with pytest.raises(NotationError, match=re.escape(fragment)):
        parse_move(text)


def test_notation_error_is_a_value_error_and_not_an_illegal_move():
    with pytest.raises(ValueError):
        parse_move("Garrison Dev")
    # A well-spelled but illegal move parses: legality is the position's business.
    assert parse_move("Garrison Dev:SS>Lon:R +Dev:S").action == (DEV, S, S, LON, R)


@pytest.mark.parametrize(("players", "variant", "seed"), [(2, "standard", 1), (3, "mordred", 2), (4, "standard", 3)])
def test_notation_round_trip_of_every_legal_move(players, variant, seed):
    from kingisdead import GameState

    for move in GameState.new(players, variant, seed=seed).legal_moves():
        assert parse_move(format_move(move)) == move
