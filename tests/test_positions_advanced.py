"""Positions of the second edition's advanced game, and seats' views of them, as JSON.

The positions are edited from a new game's (seed 3: seat 0 holds Dispute, Influence and March, seat 1
Spy, Edict and Quell), so that each test states only what it changes.
"""

from __future__ import annotations

import copy
import json
import re
from random import Random
from typing import Any

import pytest

from kingisdead import GameState, playout
from kingisdead.board import Card, Cunning
from kingisdead.position import (
    PositionError,
    dumps,
    from_dict,
    loads,
    loads_view,
    to_dict,
    view_from_dict,
    view_to_dict,
)

ACTION_CARDS = {"Negotiate": 1, "Outmanoeuvre": 1, "Manoeuvre": 1, "Assemble": 2}


def start(**options: str) -> dict[str, Any]:
    return to_dict(GameState.new(2, seed=3, edition="second", mode="advanced", options=options))


def played(data: dict[str, Any], player: int, card: str) -> dict[str, Any]:
    """``data`` after ``player`` played ``card`` (its effect left out): hand, pile, play numbers, turn."""
    data = copy.deepcopy(data)
    hand = data["hands"][player]
    if card in ACTION_CARDS:
        hand[card] -= 1
    else:
        del hand[card]
        data["cunning_played"][player].append(card)
    data["top_cards"][player] = card
    data["card_plays"] += 1
    data["last_played"][player] = data["card_plays"]
    data["to_move"] = 1 - player
    return data


def test_an_advanced_position_names_the_mode_and_every_cunning_card():
    data = start()
    assert data["mode"] == "advanced" and "options" not in data
    assert data["hands"] == [ACTION_CARDS | {"Dispute": 1, "Influence": 1, "March": 1},
                             ACTION_CARDS | {"Spy": 1, "Edict": 1, "Quell": 1}]
    assert data["cunning_played"] == [[], []]
    after = played(played(data, 0, "March"), 1, "Spy")
    s = from_dict(after)
    assert s.edition.advanced and s.hand(0) == {Card.CROWN: 1, Card.GARRISON: 1, Card.AMBASSADOR: 1,
                                                Card.SETTLEMENTS: 2, Cunning.DISPUTE: 1, Cunning.INFLUENCE: 1}
    assert s.cunning_played == [1 << (Cunning.MARCH - 7), 1 << (Cunning.SPY - 7)]
    assert [s.top_card(p).title for p in range(2)] == ["March", "Spy"]
    assert to_dict(s) == after
    assert loads(dumps(s)) == s


def test_the_advanced_options_are_written_and_read():
    data = start(spy_spy="allowed", cunning_ban="same_effect")
    assert data["options"] == {"spy_spy": "allowed", "cunning_ban": "same_effect"}
    assert from_dict(data).edition.options() == data["options"]


def test_positions_round_trip_along_advanced_games():
    # Random games with every card (the Cunning cards' rules in cunning.py), each position and each
    # seat's view written and read back.
    for players, seed, options in [(2, 1, {}), (3, 2, {"cunning_ban": "same_effect", "spy_spy": "allowed"}),
                                   (4, 3, {"spy_negotiate": "always", "reversal": "exact"})]:
        s = GameState.new(players, seed=seed, edition="second", mode="advanced", options=options)
        rng = Random(seed)
        while True:
            again = from_dict(json.loads(json.dumps(to_dict(s))))
            assert again == s and again.result == s.result
            for seat in range(players):
                assert view_from_dict(json.loads(json.dumps(to_dict(s, view=seat)))) == s.view(seat)
            if s.is_over():
                break
            playout.play_random(s, rng)


def edit(path: str, value: Any, data: dict[str, Any] | None = None) -> dict[str, Any]:
    """A copy of ``data`` (default: :func:`start`) with the field at ``path`` ('hands.0.Spy') set, or
    deleted for ``...``."""
    data = copy.deepcopy(data or start())
    *parents, last = [int(key) if key.isdigit() else key for key in path.split(".")]
    target = data
    for key in parents:
        target = target[key]
    if value is ...:
        del target[last]
    else:
        target[last] = value
    return data


NEGOTIATED = played(start(), 0, "Negotiate")


@pytest.mark.parametrize(("data", "message"), [
    (edit("hands.0.Dispute", 2), "hands[0].Dispute is 2: there is one of each Cunning card"),
    (edit("hands.1.Dispute", 1, edit("hands.1.Spy", ...)),
     "Dispute is held by player 1 and held by player 2: there is one of each Cunning card"),
    (edit("cunning_played.1", ["Dispute"]), "Dispute is held by player 1 and played by player 2"),
    (edit("cunning_played.0", ["Spy", "Spy"]), "cunning_played[0] names Spy twice"),
    (edit("cunning_played.0", ["Plot"]), "cunning_played[0]: Plot is never played"),
    (edit("cunning_played.0", ["Joust"]), "cunning_played[0]: unknown Cunning card 'Joust'"),
    (edit("cunning_played.0", "Spy"), "cunning_played[0] must be a list of Cunning card names"),
    (edit("cunning_played", [[]]), "cunning_played must have one entry per player (2)"),
    (edit("cunning_played", ...), "missing field 'cunning_played'"),
    (edit("hands.0.Dispute", ...), "player 1 holds 2 Cunning card(s) and has played 0: each player is dealt 3"),
    (edit("hands.0.Scottish Support", 1), "hands[0]: the advanced game has no Scottish Support"),
    (edit("hands.0.Cunning", 3), "hands[0].Cunning: only a seat's view of the advanced game counts"),
    (edit("top_cards.0", "Welsh Support", NEGOTIATED), "top_cards[0]: the advanced game has no Welsh Support"),
    (edit("top_cards.0", "March", NEGOTIATED), "player 1: top card March is not among the Cunning cards they played"),
    (edit("top_cards.0", "Plot", NEGOTIATED), "player 1: top card Plot is not among the Cunning cards they played"),
    (edit("mode", "cunning"), "unknown mode 'cunning'"),
    (edit("edition", "first"), "the first edition has no advanced game"),
])
def test_impossible_advanced_positions_are_refused_with_the_reason(data, message):
    with pytest.raises(PositionError, match=re.escape(message)):
        from_dict(data)


def standard() -> dict[str, Any]:
    return to_dict(GameState.new(2, seed=3, edition="second"))


@pytest.mark.parametrize(("data", "message"), [
    (edit("hands.0.Spy", 1, standard()), "hands[0]: Spy is a Cunning card; the Cunning cards belong to the advanced"),
    (edit("cunning_played", [[], []], standard()), "cunning_played belongs to the advanced game (mode 'advanced')"),
    (edit("top_cards.0", "Plot", standard()), "top_cards[0]: Plot is a Cunning card"),
    (edit("undo_ban", {"player": 0, "card": "Manoeuvre", "exchange": "Mor:W<>Str:S"}, standard()),
     "undo_ban must be null or {'player': seat, 'exchange': notation}"),
])
def test_cunning_cards_in_a_standard_position_are_refused_as_such(data, message):
    with pytest.raises(PositionError, match=re.escape(message)):
        from_dict(data)


def test_a_standard_position_has_no_advanced_fields():
    data = standard()
    assert not {"mode", "cunning_played", "view"} & set(data)
    assert all("Cunning" not in hand for hand in data["hands"])


# -- the undo ban: (player, reverse, card), the card that made the exchange ----------------------------------

MANOEUVRED = played(start(), 0, "Manoeuvre") | {"undo_ban": {"player": 0, "card": "Manoeuvre",
                                                             "exchange": "Mor:W<>Str:S"}}


def test_an_advanced_undo_ban_names_the_card_that_made_the_exchange():
    s = from_dict(MANOEUVRED)
    assert s.undo_ban == (0, (0, 1, 1, 0), Card.AMBASSADOR)
    assert to_dict(s)["undo_ban"] == MANOEUVRED["undo_ban"]
    # Any spelling is read; the one written is the effect's.
    assert from_dict(edit("undo_ban.exchange", "Str:S<>Mor:W", MANOEUVRED)) == s
    outmanoeuvred = played(start(), 0, "Outmanoeuvre") | {"undo_ban": {"player": 0, "card": "Outmanoeuvre",
                                                                       "exchange": "Str:SW>Mor:E"}}
    assert from_dict(outmanoeuvred).undo_ban == (0, (1, 0, 1, 0, 2), Card.GARRISON)


def test_a_spy_copying_an_exchange_bans_as_the_copied_card():
    spied = played(start(), 1, "Spy") | {"to_move": 0,
                                         "undo_ban": {"player": 1, "card": "Manoeuvre", "exchange": "Mor:W<>Str:S"}}
    assert from_dict(spied).undo_ban == (1, (0, 1, 1, 0), Card.AMBASSADOR)
    with pytest.raises(PositionError, match=re.escape("undo_ban: player 2's last card was not the Manoeuvre")):
        from_dict(spied | {"options": {"spy_ban": "free"}})


@pytest.mark.parametrize(("ban", "message"), [
    ({"player": 0, "exchange": "Mor:W<>Str:S"},
     "undo_ban must be null or {'player': seat, 'card': name, 'exchange': notation}"),
    ({"player": 0, "card": "Assemble", "exchange": "Mor:W<>Str:S"},
     "undo_ban.card must name the card that made the exchange: Outmanoeuvre, Manoeuvre, not 'Assemble'"),
    ({"player": 0, "card": "Dispute", "exchange": "Mor:W<>Str:S"}, "Outmanoeuvre, Manoeuvre, not 'Dispute'"),
    ({"player": 0, "card": "Outmanoeuvre", "exchange": "Mor:W<>Str:S"},
     "undo_ban: player 1's last card was not the Outmanoeuvre that made the exchange"),
    ({"player": 0, "card": "Manoeuvre", "exchange": "Mor:S<>Str:S"}, "changes no region's make-up"),
    ({"player": 0, "card": "Manoeuvre", "exchange": "Mor:SW>Str:S"}, "undo_ban.exchange"),
])
def test_impossible_advanced_undo_bans_are_refused_with_the_reason(ban, message):
    with pytest.raises(PositionError, match=re.escape(message)):
        from_dict(MANOEUVRED | {"undo_ban": ban})


def test_the_cunning_exchanges_ban_only_with_cunning_ban_same_effect():
    disputed = played(start(cunning_ban="same_effect"), 0, "Dispute") | {
        "undo_ban": {"player": 0, "card": "Dispute", "exchange": "Mor:W<>Str:S"}}
    s = from_dict(disputed)
    assert s.undo_ban == (0, (0, 1, 1, 0), Cunning.DISPUTE)
    assert to_dict(s) == disputed


# -- negotiation discs: a Spy copying a Negotiate places one too ----------------------------------------------

def test_a_spy_may_have_placed_a_negotiation_disc():
    spied = played(start(), 1, "Spy") | {"to_move": 0, "crowns": {"Essex": 1}}
    assert from_dict(spied).crowns.count(1) == 1
    both = played(played(start(), 1, "Spy"), 0, "Negotiate")
    both = played(both, 1, "Negotiate") | {"crowns": {"Essex": 1, "Devon": 1}}
    assert from_dict(both).crowns.count(1) == 2
    with pytest.raises(PositionError, match=re.escape("player 2 has 2 negotiation disc(s) on the board but could "
                                                      "have placed 1: one by playing the Negotiate, one by a Spy")):
        from_dict(spied | {"crowns": {"Essex": 1, "Devon": 1}})
    with pytest.raises(PositionError, match="could have placed 0"):
        from_dict(start() | {"crowns": {"Essex": 0}})


# -- a seat's view as a position file --------------------------------------------------------------------------

def test_a_views_file_counts_the_other_hands_cunning_cards():
    s = from_dict(played(start(), 1, "Spy") | {"to_move": 0})
    data = to_dict(s, view=0)
    assert data == view_to_dict(s.view(0))
    assert list(data)[:3] == ["format", "version", "view"] and data["view"] == 0
    assert data["hands"] == [ACTION_CARDS | {"Dispute": 1, "Influence": 1, "March": 1}, ACTION_CARDS | {"Cunning": 2}]
    assert data["cunning_played"] == [[], ["Spy"]]
    assert {key: value for key, value in data.items() if key not in ("view", "hands")} == {
        key: value for key, value in to_dict(s).items() if key != "hands"}
    assert view_from_dict(data) == s.view(0)
    assert loads_view(dumps(s, view=1)) == s.view(1)
    assert to_dict(s, view=1)["hands"][0] == ACTION_CARDS | {"Cunning": 3}


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: d.update(view=2), "view must be a seat from 0 to 1, not 2"),
    (lambda d: d.update(view=True), "view must be a seat from 0 to 1, not True"),
    (lambda d: d["hands"][1].update(Spy=1), "a seat's view does not know another player's Cunning cards"),
    (lambda d: d["hands"][1].update(Cunning=2), "player 2 holds 2 Cunning card(s) and has played 0"),
    (lambda d: d["hands"][1].update(Cunning=4), "hands[1].Cunning must be a whole number from 0 to 3, not 4"),
    (lambda d: d["hands"][0].update(Cunning=0), "hands[0].Cunning: only a seat's view of the advanced game counts"),
    (lambda d: d.pop("view"), "not a seat's view (it has no 'view' field): load a whole position with from_dict"),
])
def test_impossible_views_are_refused_with_the_reason(change, message):
    data = to_dict(GameState.new(2, seed=3, edition="second", mode="advanced"), view=0)
    change(data)
    with pytest.raises(PositionError, match=re.escape(message)):
        view_from_dict(data)


def test_a_view_is_not_loaded_as_a_whole_position():
    data = to_dict(GameState.new(2, seed=3, edition="second", mode="advanced"), view=0)
    with pytest.raises(PositionError, match="this is a seat's view .* load it with view_from_dict"):
        from_dict(data)
    with pytest.raises(PositionError, match="not JSON"):
        loads_view("{")


def test_a_standard_games_view_file_is_the_position_and_its_seat():
    s = GameState.new(3, seed=2)
    data = to_dict(s, view=2)
    assert data == {"view": 2} | to_dict(s)
    assert view_from_dict(data) == s.view(2)
    with pytest.raises(PositionError, match="only a seat's view of the advanced game"):
        view_from_dict(edit("hands.1.Cunning", 0, data))
