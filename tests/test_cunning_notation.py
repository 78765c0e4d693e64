"""The advanced game's Cunning cards in the notation: every shape, one spelling per move, clear errors."""

from __future__ import annotations

import re
from itertools import product

import pytest

from kingisdead import Card, Move, NotationError, format_move, get_edition, parse_move
from kingisdead.board import Cunning
from kingisdead.edition import CUNNING_CARDS, FIRST, SECOND
from kingisdead.moves import NONE, make_move, normalise

ADVANCED = get_edition("second", "advanced")
MOR, STR, NOR, LAN, GWY, WAR, ESS, DEV = range(8)
S, W, E, L = 0, 1, 2, 3
(SPY, AID, AMBUSH, DISPUTE, INFLUENCE, EDICT, MARCH, RESIST, MUSTER, QUELL, SUPPRESS, PLOT) = Cunning


@pytest.mark.parametrize(("text", "move"), [
    ("Spy @1 Manoeuvre Mor:S<>Str:W +Str:S", Move(SPY, (1, Card.AMBASSADOR, MOR, S, STR, W), (STR, S))),
    ("Spy @0 Negotiate Nor<>Dev *Dev", Move(SPY, (0, Card.CROWN, NOR, DEV, DEV))),
    ("Spy @2 Negotiate Nor<>Dev", Move(SPY, (2, Card.CROWN, NOR, DEV, NONE))),
    ("Spy @1 Negotiate +Lan:W", Move(SPY, (1, Card.CROWN), (LAN, W))),
    ("Spy @3 Outmanoeuvre Lan:SW>Nor:E", Move(SPY, (3, Card.GARRISON, LAN, S, W, NOR, E))),
    ("Spy @1 Assemble S>Ess E>Dev", Move(SPY, (1, Card.SETTLEMENTS, ESS, NONE, DEV))),
    ("Spy @1 Assemble", Move(SPY, (1, Card.SETTLEMENTS, NONE, NONE, NONE))),
    ("Spy @2 Edict Mor:SS<>Str:WE +Mor:W", Move(SPY, (2, EDICT, MOR, S, S, STR, W, E), (MOR, W))),
    ("Spy @1 Suppress Ess -W", Move(SPY, (1, SUPPRESS, ESS, W, NONE))),
    ("Spy @1 Spy", Move(SPY, (1, SPY))),
    ("Spy +Lan:S", Move(SPY, (), (LAN, S))),
    ("Aid S>Lan +Lan:W", Move(AID, (S, LAN), (LAN, W))),
    ("Aid", Move(AID, ())),
    ("Ambush Lan -W +Nor:E", Move(AMBUSH, (LAN, W), (NOR, E))),
    ("Ambush", Move(AMBUSH, ())),
    ("Dispute Nor:E<>Lan:W", Move(DISPUTE, (NOR, E, LAN, W))),
    ("Dispute", Move(DISPUTE, ())),
    ("Influence Lan:SW>Nor:E", Move(INFLUENCE, (LAN, S, W, NOR, E))),
    ("Influence Nor:S<>Lan:E", Move(INFLUENCE, (NOR, S, LAN, E))),
    ("Influence", Move(INFLUENCE, ())),
    ("Edict Mor:SS<>Str:WE", Move(EDICT, (MOR, S, S, STR, W, E))),
    ("Edict Mor:SS>Str:W", Move(EDICT, (MOR, S, S, STR, W))),
    ("Edict Str:WE>Mor:S", Move(EDICT, (STR, W, E, MOR, S))),
    ("Edict Mor:S<>Str:W", Move(EDICT, (MOR, S, STR, W))),
    ("Edict", Move(EDICT, ())),
    ("March Lan:SW>Nor +Nor:S", Move(MARCH, (LAN, S, W, NOR), (NOR, S))),
    ("March Lan:S>Nor", Move(MARCH, (LAN, S, NOR))),
    ("March", Move(MARCH, ())),
    ("Resist Str:WE", Move(RESIST, (STR, W, E))),
    ("Resist Str:W", Move(RESIST, (STR, W))),
    ("Resist", Move(RESIST, ())),
    ("Muster Str:WE", Move(MUSTER, (STR, W, E))),
    ("Muster Str:W", Move(MUSTER, (STR, W))),
    ("Muster Str", Move(MUSTER, (STR,))),
    ("Muster", Move(MUSTER, ())),
    ("Quell Gwy:SS +Gwy:W", Move(QUELL, (GWY, S, S), (GWY, W))),
    ("Quell Gwy:E", Move(QUELL, (GWY, E))),
    ("Quell Gwy", Move(QUELL, (GWY,))),
    ("Quell", Move(QUELL, ())),
    ("Suppress Ess -W E", Move(SUPPRESS, (ESS, W, E))),
    ("Suppress Ess -E", Move(SUPPRESS, (ESS, E, NONE))),
    ("Suppress Ess S", Move(SUPPRESS, (ESS, NONE, S))),
    ("Suppress Ess", Move(SUPPRESS, (ESS, NONE, NONE))),
    ("Suppress +Ess:E", Move(SUPPRESS, (), (ESS, E))),
    ("Plot", Move(PLOT, ())),
])
def test_every_cunning_shape_reads_and_writes(text, move):
    assert parse_move(text, ADVANCED) == move
    assert format_move(move, ADVANCED) == text
    assert str(move) == text  # a Cunning move's only spelling is the advanced game's


@pytest.mark.parametrize(("text", "canonical"), [
    ("dispute lan:w<>nor:e", "Dispute Nor:E<>Lan:W"),
    ("Influence Lan:WS>Nor:E", "Influence Lan:SW>Nor:E"),
    ("Influence Lan:E<>Nor:S", "Influence Nor:S<>Lan:E"),
    ("Edict Str:EW<>Mor:SS", "Edict Mor:SS<>Str:WE"),
    ("Edict Mor:SS<>Str:EW", "Edict Mor:SS<>Str:WE"),
    ("Edict Str:EW>Mor:S", "Edict Str:WE>Mor:S"),
    ("Edict Str:W<>Mor:S", "Edict Mor:S<>Str:W"),
    ("MARCH lan:ws>NOR", "March Lan:SW>Nor"),
    ("Resist Str:EW", "Resist Str:WE"),
    ("muster str:es", "Muster Str:SE"),
    ("Quell Gwy:EW", "Quell Gwy:WE"),
    ("suppress ess -w e", "Suppress Ess -W E"),
    ("Spy @1 Manoeuvre Str:W<>Mor:S +Str:S", "Spy @1 Manoeuvre Mor:S<>Str:W +Str:S"),
    ("Spy @2 Negotiate Dev<>Nor", "Spy @2 Negotiate Nor<>Dev"),
    ("Spy @1 Scottish Str Mor", "Spy @1 Scottish Mor Str"),
    ("spy @01 edict str:ew<>mor:ss", "Spy @1 Edict Mor:SS<>Str:WE"),
    ("SPY  @1  spy", "Spy @1 Spy"),
])
def test_cunning_one_spelling_per_move(text, canonical):
    assert format_move(parse_move(text, ADVANCED), ADVANCED) == canonical
    assert parse_move(text, ADVANCED) == parse_move(canonical, ADVANCED)


@pytest.mark.parametrize(("card", "action", "canonical"), [
    (DISPUTE, (LAN, W, NOR, E), (NOR, E, LAN, W)),
    (INFLUENCE, (LAN, W, S, NOR, E), (LAN, S, W, NOR, E)),
    (INFLUENCE, (LAN, E, NOR, S), (NOR, S, LAN, E)),
    (EDICT, (STR, E, W, MOR, S, S), (MOR, S, S, STR, W, E)),
    (EDICT, (MOR, S, S, STR, E, W), (MOR, S, S, STR, W, E)),
    (EDICT, (STR, E, W, MOR, S), (STR, W, E, MOR, S)),
    (EDICT, (STR, W, MOR, S), (MOR, S, STR, W)),
    (MARCH, (LAN, W, S, NOR), (LAN, S, W, NOR)),
    (MARCH, (NOR, S, LAN), (NOR, S, LAN)),  # a direction: not reordered
    (RESIST, (STR, E, W), (STR, W, E)),
    (MUSTER, (STR, E, S), (STR, S, E)),
    (QUELL, (GWY, W, S), (GWY, S, W)),
    (SUPPRESS, (ESS, W, S), (ESS, W, S)),  # a return and a placement: not reordered
    (AID, (E, MOR), (E, MOR)),
    (AMBUSH, (DEV, S), (DEV, S)),
    (SPY, (1, Card.AMBASSADOR, STR, W, MOR, S), (1, Card.AMBASSADOR, MOR, S, STR, W)),
    (SPY, (0, Card.CROWN, DEV, NOR, NONE), (0, Card.CROWN, NOR, DEV, NONE)),
    (SPY, (2, EDICT, STR, E, W, MOR, S, S), (2, EDICT, MOR, S, S, STR, W, E)),
    (SPY, (1, SPY), (1, SPY)),
    (SPY, (), ()),
])
def test_normalise_gives_the_canonical_action(card, action, canonical):
    assert normalise(card, action) == canonical
    assert normalise(card, canonical) == canonical
    assert make_move(int(card), action) == Move(card, canonical)


R, F = range(8), range(3)
SHAPES = {
    AID: [(F, R)],
    AMBUSH: [(R, F)],
    DISPUTE: [(R, F, R, F)],
    INFLUENCE: [(R, F, F, R, F), (R, F, R, F)],
    EDICT: [(R, F, F, R, F, F), (R, F, F, R, F), (R, F, R, F)],
    MARCH: [(R, F, F, R), (R, F, R)],
    RESIST: [(R, F, F), (R, F)],
    MUSTER: [(R, F, F), (R, F), (R,)],
    QUELL: [(R, F, F), (R, F), (R,)],
    SUPPRESS: [(R, (NONE, *F), (NONE, *F))],
    PLOT: [],
    Card.CROWN: [(R, R, R), (R, R, (NONE,))],
    Card.GARRISON: [(R, F, F, R, F), (R, F, R, F)],
    Card.AMBASSADOR: [(R, F, R, F)],
    Card.SETTLEMENTS: [((NONE, *R),) * 3],
    Card.SCOTS: [(R, R), (R,)],
}
"""Every card's every action shape (for a spied card too), as the ranges of its parts."""


def canonical_actions(card):
    """Every canonical action of ``card``: each of its shapes with every region and faction, and ``()``."""
    actions = {normalise(card, action) for shape in SHAPES[card] for action in product(*shape)}
    return sorted(actions | ({()} if card is not Card.SETTLEMENTS else set()))


@pytest.mark.parametrize("card", [card for card in SHAPES if isinstance(card, Cunning)], ids=lambda c: c.name)
def test_every_cunning_action_round_trips(card):
    for action in canonical_actions(card):
        for move in (Move(card, action), Move(card, action, (NOR, W))):
            assert parse_move(format_move(move, ADVANCED), ADVANCED) == move


@pytest.mark.parametrize("copied", list(SHAPES), ids=lambda c: c.name)
def test_every_spied_action_round_trips(copied):
    for action in canonical_actions(copied):
        move = Move(SPY, (3, copied, *action), (DEV, E))
        assert parse_move(format_move(move, ADVANCED), ADVANCED) == move
    move = Move(SPY, (0, SPY))
    assert parse_move(format_move(move, ADVANCED), ADVANCED) == move


@pytest.mark.parametrize(("text", "fragment"), [
    ("Spy Manoeuvre Mor:S<>Str:W", "Spy takes '@seat' then the spied card and its action"),
    ("Spy @1", "Spy takes '@seat' then the spied card and its action"),
    ("Spy @x Manoeuvre", "Spy's seat is a number after '@'"),
    ("Spy @-1 Manoeuvre", "Spy's seat is a number after '@'"),
    ("Spy @1 Joust", "unknown card 'Joust'"),
    ("Spy @1 Spy @2 Aid S>Lan", "a spied Spy copies nothing further"),
    ("Spy @1 Negotiate Nor<>Dev Mor", "Negotiate takes 'A<>B *C' or, without a disc, 'A<>B'"),
    ("Spy @1 Manoeuvre Mor:SW>Str:E", "Manoeuvre exchange must look like"),
    ("Spy @1 Aid S<Lan", "Aid takes 'S>Lan', got 'S<Lan'"),
    ("Negotiate Nor<>Dev", "Negotiate takes 'A<>B *C', got"),  # a disc-less swap is a spied Negotiate's only
    ("Aid Lan", "Aid takes 'S>Lan'"),
    ("Aid S>Xyz", "unknown region 'Xyz'"),
    ("Aid Q>Lan", "unknown faction 'Q'"),
    ("Ambush Lan W", "Ambush takes 'Lan -W'"),
    ("Dispute Lan:W>Nor:E", "Dispute takes 'Str:W<>Lan:E'"),
    ("Influence Lan:SW<>Nor:E", "Influence takes 'Lan:SW>Nor:E' or 'Str:E<>Lan:S'"),
    ("Edict Mor:S>Str", "Edict takes 'Mor:SS<>Str:WE', 'Mor:SS>Str:W' or 'Mor:S<>Str:W'"),
    ("Edict Mor:SS<>Str:WE Lan", "Edict takes"),
    ("March Lan:SW>Nor:E", "March takes 'Lan:SW>Nor' or 'Lan:S>Nor'"),
    ("March Lan:SWE>Nor", "March takes"),
    ("Resist Str", "Resist takes 'Str:WE' or 'Str:W', got 'Str'"),
    ("Muster Str:WES", "Muster takes 'Str:WE', 'Str:W' or 'Str'"),
    ("Quell Gwy Gwy", "Quell takes"),
    ("Quell Xyz:S", "unknown region 'Xyz'"),
    ("Suppress Ess W -E", "Suppress takes 'Ess -W E', 'Ess -W', 'Ess E' or 'Ess'"),
    ("Suppress -W", "Suppress takes"),
    ("Plot Lan", "unexpected 'Lan' after Plot"),
    ("Aid S>Lan +Lan", "court call"),
    ("Joust", "expected one of Negotiate, Outmanoeuvre, Manoeuvre, Assemble, Scottish, Welsh, English, Spy, Aid"),
])
def test_cunning_notation_errors_say_what_is_wrong(text, fragment):
    with pytest.raises(NotationError, match=re.escape(fragment)):
        parse_move(text, ADVANCED)


@pytest.mark.parametrize("edition", [FIRST, SECOND, SECOND.with_options(reversal="exact")])
@pytest.mark.parametrize("word", [*CUNNING_CARDS, "spy", "PLOT"])
def test_the_standard_game_refuses_the_cunning_cards(edition, word):
    with pytest.raises(NotationError, match="the Cunning cards belong to the advanced game"):
        parse_move(f"{word} @1 Manoeuvre Mor:S<>Str:W" if word.lower() == "spy" else word, edition)


def test_the_standard_game_cannot_write_a_cunning_card():
    with pytest.raises(ValueError, match="Aid is a Cunning card"):
        format_move(Move(AID, (S, LAN)), SECOND)
    assert format_move(Move(AID, (S, LAN)), ADVANCED) == "Aid S>Lan"


def test_the_advanced_game_reads_the_standard_cards_as_the_second_edition():
    for text in ("Negotiate Nor<>Dev *Dev +Lan:S", "Outmanoeuvre Lan:SW>Nor:E +Nor:S", "Assemble S>Ess W>Dev E>Dev",
                 "Scottish Str Str +Mor:S", "pass"):
        assert format_move(parse_move(text, ADVANCED), ADVANCED) == text
        assert parse_move(text, ADVANCED) == parse_move(text, SECOND)


def test_a_cunning_action_of_no_shape_cannot_be_written():
    with pytest.raises(ValueError, match="Edict has no action of 3 parts"):
        format_move(Move(EDICT, (MOR, S, STR)), ADVANCED)


def test_the_documented_examples_read_as_written():
    from pathlib import Path

    doc = (Path(__file__).parent.parent / "docs" / "notation.md").read_text()
    section = doc.split("## The advanced game's Cunning cards")[1].split("\n## ")[0]
    examples = re.findall(r"^\| `([^`]+)`", section, re.MULTILINE)
    assert len(examples) == 27
    for text in examples:
        assert format_move(parse_move(text, ADVANCED), ADVANCED) == text
