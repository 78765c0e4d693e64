"""Three players: the last action card of the game may only be played by a move that wins."""

from __future__ import annotations

from random import Random

import pytest
from positions import assert_illegal, build

from kingisdead import PASS, GameState, Move, engine, parse_move, rules
from kingisdead import playout
from kingisdead.board import CARDS
from kingisdead.edition import SECOND

pytestmark = pytest.mark.usefixtures("each_engine")
"""Every rule test runs on both engines: the compiled core and the reference."""

# Seven regions resolved: Scots 3, Welsh 3 (won most recently), Romano-British 1.
# Aquae Sulis is the last struggle. Player 1 leads the Scots, player 2 the Welsh.
SEVEN_RESOLVED = {"Cal": "S", "Din": "S", "Ebo": "S", "Dev": "R", "Cae": "W", "Rat": "W", "Lon": "W"}
COURTS = ["SSS", "WWW", "R"]


def last_card_position(card: str, aquae_sulis: str, players: int = 3) -> GameState:
    hands = [[card]] + [[] for _ in range(players - 1)]
    return build(players, control=SEVEN_RESOLVED, regions={"Aqu": aquae_sulis},
                 courts=(COURTS + [""])[:players], hands=hands)


def test_three_player_last_card_playable_only_with_a_winning_move():
    # Settlements fills Aquae Sulis to S2 W2 R1: only calling the Welsh follower to court
    # lets the Scots win it (4 regions), crowning player 1.
    s = last_card_position("Settlements", "SW")
    assert engine.last_card_applies(s)
    winning = parse_move("Settlements S>Aqu W>Aqu R>Aqu +Aqu:W")
    assert s.legal_moves() == [PASS, winning]
    assert_illegal(s, "Settlements S>Aqu W>Aqu R>Aqu +Aqu:S", "last card", "does not")
    assert_illegal(s, "Settlements S>Aqu W>Aqu R>Aqu +Aqu:R", "last card")
    s.apply(winning)
    s.apply("pass").apply("pass").apply("pass")
    assert s.result.ending == "coronation" and s.result.winners == (0,)


def test_three_player_last_card_otherwise_only_pass():
    # The Crown can swap nothing; any court call leaves Aquae Sulis Welsh or Saxon: the Welsh rule.
    s = last_card_position("Crown", "SWW")
    assert s.legal_moves() == [PASS]
    assert_illegal(s, "Crown +Aqu:W", "last card: with 3 players the last card of the game may only be played")
    assert_illegal(s, "Crown +Aqu:S", "last card")
    assert [c.kind for c in s.builder().options()] == ["pass"]
    s.apply("pass")
    assert s.current_player == 1


def test_builder_offers_only_the_winning_last_card_move():
    s = last_card_position("Settlements", "SW")
    b = s.builder()
    assert [c.kind for c in b.options()] == ["pass", "card"]
    b.choose(b.options()[1])
    while not b.complete:
        assert len(b.options()) == 1
        b.choose(b.options()[0])
    assert b.move() == parse_move("Settlements S>Aqu W>Aqu R>Aqu +Aqu:W")


@pytest.mark.parametrize("players", [2, 4])
def test_last_card_rule_only_with_three_players(players):
    s = last_card_position("Crown", "SWW", players)
    assert not engine.last_card_applies(s)
    assert len(s.legal_moves()) == 3  # pass, Crown calling a Scots, Crown calling a Welsh
    s.apply("Crown +Aqu:W")


def test_last_card_rule_only_when_one_card_is_left_in_all_hands():
    s = build(3, control=SEVEN_RESOLVED, regions={"Aqu": "SWW"}, courts=COURTS, hands=[["Crown"], ["Garrison"], []])
    assert not engine.last_card_applies(s)
    s.apply("Crown +Aqu:W")
    assert engine.last_card_applies(s)  # now player 2 holds the last card
    # Calling the Scots follower leaves Aquae Sulis to the Welsh: player 2's only winning move.
    assert s.legal_moves() == [PASS, parse_move("Garrison +Aqu:S")]


def _follow_to_the_end(state: GameState) -> GameState:
    """Everyone passes until the game is over (nobody holds a card any more)."""
    while not state.is_over():
        state.apply(PASS)
    return state


def _card_moves_ignoring_the_rule(s: GameState) -> list[Move]:
    card = next(c for c in range(7) if s.hands[s.player * 7 + c])
    moves = []
    for action in rules.card_actions(s, card):
        board = s.board[:]
        rules.move_followers(board, s.stock[:], card, action)
        for court in rules.court_options(board, s.open) or [None]:
            moves.append(Move(CARDS[card], action, court))
    return moves


@pytest.mark.parametrize("variant", ["standard", "mordred"])
@pytest.mark.parametrize("seed", range(12))
def test_last_card_legal_exactly_when_the_game_that_follows_is_won(seed, variant):
    """In positions reached by random play, a last-card move is legal iff the mover then wins alone
    (the play-out goes through the public API, pass by pass, Mordred's Loyalists included)."""
    rng = Random(seed)
    s = GameState.new(3, variant, seed=seed)
    while not s.is_over() and not engine.last_card_applies(s):
        playout.play_random(s, rng)
    if s.is_over():
        pytest.skip("this game ended before the last card")
    mover = s.current_player
    legal = set(s.legal_moves()[1:])
    for move in _card_moves_ignoring_the_rule(s):
        after = s.copy()
        rules.play(after, move)
        wins = _follow_to_the_end(after).result.winners == (mover,)
        assert (move in legal) == wins, move


# The same position in the second edition's names: Devon (Aquae Sulis) is the last struggle.
SECOND_SEVEN_RESOLVED = {"Mor": "S", "Str": "S", "Nor": "S", "Lan": "E", "Gwy": "W", "War": "W", "Ess": "W"}


def _second_last_card(last_card: str | None) -> GameState:
    edition = SECOND if last_card is None else SECOND.with_options(last_card=last_card)
    return build(3, control=SECOND_SEVEN_RESOLVED, regions={"Dev": "SWW"}, courts=["SSS", "WWW", "E"],
                 hands=[["Negotiate"], [], []], edition=edition)


def test_the_second_edition_lets_the_last_card_be_played_freely_by_default():
    # option last_card="free" (the default): "a card may always be played", even a move that loses.
    s = _second_last_card(None)
    assert s.edition.last_card == "free" and not engine.last_card_applies(s)
    # Pass, and Negotiate calling a Scottish or a Welsh follower: both lose (the Welsh rule).
    assert len(s.legal_moves()) == 3
    s.apply("Negotiate +Dev:W")
    assert s.current_player == 1 and sum(s.hands) == 0


def test_the_second_editions_option_last_card_must_win_is_the_first_editions_rule():
    s = _second_last_card("must_win")
    assert engine.last_card_applies(s)
    assert s.legal_moves() == [PASS]
    assert_illegal(s, "Negotiate +Dev:W", "last card")
    assert GameState.new(3, seed=1).edition.last_card == "must_win"  # the first edition: always
