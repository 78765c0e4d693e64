"""Positions as JSON: round trips and validation with messages that name the problem."""

from __future__ import annotations

import copy
import json
import re
from random import Random

import pytest
from positions import build, hand_without

from kingisdead import GameState, parse_move, rules
from kingisdead.position import PositionError, dumps, from_dict, loads, to_dict


@pytest.mark.parametrize(("players", "variant"), [(2, "standard"), (3, "standard"), (4, "mordred")])
def test_position_json_round_trip_along_a_game(players, variant):
    rng = Random(players)
    s = GameState.new(players, variant, seed=9)
    while not s.is_over():
        again = loads(dumps(s))
        assert again.key() == s.key()
        assert again.result == s.result
        rules.play_random(s, rng)
    again = loads(dumps(s, indent=None))
    assert again.key() == s.key() and again.result == s.result


def test_position_keeps_the_undo_ban():
    s = build(regions={"Dev": "SW", "Lon": "RR"})
    s.apply("Ambassador Dev:S<>Lon:R +Lon:R")
    data = to_dict(s)
    assert data["undo_ban"] == {"player": 0, "exchange": "Dev:R<>Lon:S"}
    again = from_dict(data)
    assert again.undo_ban == s.undo_ban
    assert not again.is_legal(parse_move("Ambassador Dev:R<>Lon:S +Dev:W"))


def test_position_undo_ban_is_judged_by_effect_not_spelling():
    # Two spellings of one change (Eboracum gives a Welsh follower to Deva) are one position;
    # the JSON keeps the spelling it was given (the format is unchanged).
    def position(exchange: str) -> GameState:
        return build(regions={"Dev": "SWR", "Ebo": "SWWR"}, to_move=1,
                     hands=[hand_without("Garrison"), hand_without()],
                     undo_ban={"player": 0, "exchange": exchange})
    a, b = position("Ebo:SW>Dev:S"), position("Ebo:WW>Dev:W")
    assert a == b and hash(a) == hash(b) and a.key() == b.key()
    assert to_dict(b)["undo_ban"] == {"player": 0, "exchange": "Ebo:WW>Dev:W"}
    assert a.legal_moves() == b.legal_moves()
    assert not a.is_legal(parse_move("Garrison Ebo:WW>Dev:W +Ebo:R"))
    assert position("Ebo:SR>Dev:S") != a  # Eboracum gives a Romano-British: another change


def start() -> dict:
    return to_dict(GameState.new(2, seed=5))


def changed(**edits) -> dict:
    data = copy.deepcopy(start())
    for key, value in edits.items():
        data[key] = value
    return data


@pytest.mark.parametrize(("data", "fragment"), [
    ([], "a position is a JSON object"),
    ({"format": "chess"}, "not a position"),
    (changed(version=2), "unsupported position version"),
    (changed(players=5), "players must be 2, 3 or 4"),
    (changed(players="2"), "field 'players' has the wrong type"),
    (changed(variant="arthur"), "unknown variant"),
    (changed(stock={"Scots": 99, "Welsh": 4, "Romano-British": 6}), "Scots followers add up to"),
    (changed(stock={"Scots": -1, "Welsh": 4, "Romano-British": 6}), "whole number"),
    (changed(stock={"Saxons": 1}), "unknown name"),
    (changed(region_cards=["Caledonia"] * 8), "region_cards must list each of the eight regions once"),
    (changed(resolved=1), "needs a faction or 'Saxons'"),
    (changed(to_move=2), "to_move"),
    (changed(courts=[{}]), "one entry per player"),
    (changed(hands=[{"Settlements": 3}, {}]), "hands[0].Settlements"),
    (changed(top_cards=["Crown", None]), "a top card is shown exactly when a card was played"),
    (changed(undo_ban={"player": 0, "exchange": "nonsense"}), "undo_ban.exchange"),
    (changed(undo_ban={"player": 0, "exchange": "Dev:S<>Lon:S"}), "changes no region's make-up"),
])
def test_position_validation_names_the_problem(data, fragment):
    with pytest.raises(PositionError, match=re.escape(fragment)):
        from_dict(data)


def test_position_rejects_followers_in_a_resolved_region():
    data = to_dict(build(regions={"Dev": "S"}, control={"Cal": "S"}))
    data["regions"]["Caledonia"] = {"Scots": 1}
    data["stock"]["Scots"] -= 1
    with pytest.raises(PositionError, match="Caledonia is resolved but still holds followers"):
        from_dict(data)


def test_position_rejects_a_struggle_after_a_loyalist_win():
    with pytest.raises(PositionError, match="the game ends when the Loyalists win"):
        build(variant="mordred", control={"Cal": "L", "Din": "S"})


def test_position_rejects_more_than_four_saxon_tokens():
    with pytest.raises(PositionError, match="Saxon"):
        build(control={"Cal": "X", "Din": "X", "Ebo": "X", "Dev": "X", "Cae": "X"})


def test_position_rejects_a_crown_token_from_a_player_holding_the_crown():
    with pytest.raises(PositionError, match="Crown token"):
        build(crowns={"Lon": 0})


def test_position_json_errors_are_position_errors():
    with pytest.raises(PositionError, match="not JSON"):
        loads("{")
    assert json.loads(dumps(GameState.new(3, seed=1)))["players"] == 3
