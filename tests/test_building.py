"""Building a move choice by choice: only completable choices, every legal move reachable."""

from __future__ import annotations

from collections import Counter

import pytest
from positions import build
from test_last_card import last_card_position

from kingisdead import PASS, GameState, IllegalMoveError, parse_move
from kingisdead.board import Card, Region
from kingisdead.building import Choice, choice_table, move_steps, step_kinds
from kingisdead.moves import NONE

pytestmark = pytest.mark.usefixtures("each_engine")
"""Every rule test runs on both engines: the compiled core and the reference."""


def all_built_moves(state) -> list:
    """Every move the builder can complete, by walking every offered choice (depth first)."""
    built = []

    def walk(builder):
        options = builder.options()
        if builder.complete:
            built.append(builder.move())
            return
        assert options, "the builder offered a dead end"
        for choice in options:
            builder.choose(choice)
            walk(builder)
            builder.back()

    walk(state.builder())
    return built


SMALL_POSITIONS = {
    "two-for-one": dict(regions={"Dev": "SSW", "Ebo": "R", "Lon": "W"}, control={"Cal": "S", "Din": "W", "Cae": "X"}),
    "one-for-one": dict(regions={"Dev": "S", "Ebo": "R", "Cal": "W"}, control={"Din": "W", "Cae": "X", "Aqu": "R"}),
    "mordred": dict(variant="mordred", regions={"Din": "LS", "Aqu": "LW"},
                    control={"Cal": "S", "Ebo": "W", "Cae": "X", "Lon": "R"}),
    # No Welsh left in the stock (player 1 has a full hand, so a court of 2; player 2 played 4 cards).
    "empty stock": dict(regions={"Dev": "S", "Cae": "W" * 12}, courts=["WR", "WWWRRR"],
                        control={"Cal": "S", "Din": "X", "Ebo": "X", "Rat": "W"}, stock={"Welsh": 0}),
    "empty board": dict(control={"Cal": "S", "Din": "X", "Ebo": "X", "Rat": "W", "Lon": "R"}),
}


@pytest.mark.parametrize("name", SMALL_POSITIONS)
def test_builder_offers_only_completable_choices_and_reaches_every_legal_move(name):
    state = build(**SMALL_POSITIONS[name])
    built = all_built_moves(state)
    assert set(built) == set(state.legal_moves())
    # Unordered choices may come in either order: a move is built at most two ways.
    assert max(Counter(built).values()) <= 2


def test_builder_steps_build_each_move():
    state = build(**SMALL_POSITIONS["two-for-one"])
    for move in state.legal_moves():
        builder = state.builder()
        for step in move_steps(move):
            builder.choose(step)
        assert builder.complete and builder.move() == move


def test_builder_accepts_unordered_choices_in_either_order():
    state = build(regions={"Dev": "S", "Lon": "R"})
    forward, backward = state.builder(), state.builder()
    for builder, first, second in ((forward, Region.DEVA, Region.LONDINIUM), (backward, Region.LONDINIUM, Region.DEVA)):
        builder.choose(Choice("card", Card.CROWN)).choose(Choice("region", first)).choose(Choice("region", second))
        builder.choose(Choice("region", Region.LONDINIUM))
        builder.choose(Choice("region", Region.DEVA)).choose(Choice("faction", 0))
    assert forward.move() == backward.move() == parse_move("Crown Dev<>Lon *Lon +Dev:S")


def test_builder_refuses_a_choice_that_is_not_offered():
    state = build(regions={"Dev": "S", "Lon": "R"})
    builder = state.builder().choose(Choice("card", Card.GARRISON))
    with pytest.raises(IllegalMoveError, match="cannot choose Caledonia here"):
        builder.choose(Choice("region", Region.CALEDONIA))
    assert builder.steps == [Choice("card", Card.GARRISON)]


def test_builder_back_and_incomplete_move():
    state = build(regions={"Dev": "S", "Lon": "R"})
    builder = state.builder()
    assert builder.back().steps == []
    builder.choose(Choice("card", Card.SCOTS))
    assert not builder.complete
    with pytest.raises(IllegalMoveError, match="not complete"):
        builder.move()
    builder.back()
    assert builder.options()[0] == Choice("pass")
    builder.choose(Choice("pass"))
    assert builder.complete and builder.move().is_pass


def test_builder_offers_no_card_the_player_has_spent():
    state = build(regions={"Dev": "S"}, hands=[["Crown", "Settlements"], ["Crown"]])
    assert [c.label for c in state.builder().options()] == ["pass", "Crown", "Settlements"]


def test_builder_never_changes_the_state():
    state = build(**SMALL_POSITIONS["mordred"])
    before = state.key()
    all_built_moves(state)
    assert state.key() == before


def table_options(table, steps: list[Choice]) -> list[Choice]:
    """The choices that can follow ``steps``, read from a choice table as the browser reads it."""
    if not steps:
        return [Choice("pass")] + [Choice("card", card) for card in sorted(table)]
    if steps[0].kind == "pass":
        return []
    entries = table[steps[0].value]
    length = len(entries[0][0])
    kinds = step_kinds(steps[0].value, length)
    chosen = tuple(NONE if c.kind == "none" else c.value for c in steps[1:1 + length])
    if len(chosen) < length:
        values = sorted({spelling[len(chosen)] for spelling, _ in entries if spelling[:len(chosen)] == chosen})
        kind = kinds[len(chosen)]
        return [Choice("none") if kind == "x" and v == NONE else Choice("faction" if kind == "f" else "region", v)
                for v in values]
    courts = next(calls for spelling, calls in entries if spelling == chosen)
    called = steps[1 + length:]
    if not courts or len(called) == 2:
        return []
    if not called:
        return [Choice("region", r) for r in sorted({r for r, _ in courts})]
    return [Choice("faction", f) for r, f in courts if r == called[0].value]


def assert_table_matches_builder(state) -> int:
    """Walk every choice the builder offers and check the table offers the same; the moves walked."""
    table = choice_table(state)
    moves = 0

    def walk(builder):
        nonlocal moves
        options = builder.options()
        assert table_options(table, builder.steps) == options, builder.steps
        if builder.complete:
            moves += 1
            return
        for choice in options:
            builder.choose(choice)
            walk(builder)
            builder.back()

    walk(state.builder())
    return moves


@pytest.mark.parametrize("name", SMALL_POSITIONS)
def test_choice_table_offers_what_the_builder_offers(name):
    assert assert_table_matches_builder(build(**SMALL_POSITIONS[name])) > 1


def test_choice_table_of_a_game_start_and_of_a_game_over():
    state = GameState.new(2, "standard", 3, 0)
    table = choice_table(state)
    assert sum(len(calls) or 1 for entries in table.values() for _, calls in entries) >= len(state.legal_moves()) - 1
    assert_table_matches_builder(state)
    for _ in range(3):
        state = state.apply(PASS)
    while not state.is_over():
        state = state.apply(PASS)
    assert choice_table(state) == {}


def test_choice_table_under_the_last_card_rule():
    state = last_card_position("Settlements", "SW")
    assert list(choice_table(state)) == [Card.SETTLEMENTS]
    assert_table_matches_builder(state)
    assert choice_table(last_card_position("Crown", "SWW")) == {}
