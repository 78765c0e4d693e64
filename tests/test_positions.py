"""Positions as JSON: round trips and validation with messages that name the problem."""

from __future__ import annotations

import copy
import json
import re
from random import Random

import pytest
from positions import FULL_HAND, build, hand_without

from kingisdead import GameState, parse_move
from kingisdead import playout
from kingisdead.position import PositionError, dumps, from_dict, loads, to_dict


@pytest.mark.parametrize(("players", "variant"), [(2, "standard"), (3, "standard"), (4, "mordred")])
def test_position_json_round_trip_along_a_game(players, variant):
    rng = Random(players)
    s = GameState.new(players, variant, seed=9)
    while not s.is_over():
        again = loads(dumps(s))
        assert again.key() == s.key()
        assert again.result == s.result
        playout.play_random(s, rng)
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
    # the state keeps the effect, and the JSON writes that effect's one spelling (rules.spell_effect).
    def position(exchange: str) -> GameState:
        return build(regions={"Dev": "SWR", "Ebo": "SWWR"}, to_move=1,
                     hands=[hand_without("Garrison"), hand_without()],
                     undo_ban={"player": 0, "exchange": exchange})
    a, b = position("Ebo:SW>Dev:S"), position("Ebo:WW>Dev:W")
    assert a == b and hash(a) == hash(b) and a.key() == b.key()
    assert to_dict(a)["undo_ban"] == to_dict(b)["undo_ban"] == {"player": 0, "exchange": "Ebo:WW>Dev:W"}
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


def _game_position(players=3, variant="standard", plays=6):
    rng = Random(5)
    s = GameState.new(players, variant, seed=5)
    while s.plays < plays and not s.is_over():
        playout.play_random(s, rng)
    return to_dict(s)


def _ban_position():
    s = build(regions={"Dev": "SW", "Lon": "RR"})
    s.apply("Ambassador Dev:S<>Lon:R +Lon:R")
    return to_dict(s)


@pytest.mark.parametrize(("mutate", "message"), [
    (lambda d: d["region_cards"].__setitem__(0, 3), "region_cards"),
    (lambda d: d.update(to_move=True), "to_move"),
    (lambda d: d.update(crowns={"Caledonia": True}), "not a player"),
    (lambda d: d.update(card_plays=d["card_plays"] + 1), "card_plays"),
    (lambda d: d.pop("undo_ban"), "undo_ban"),
])
def test_impossible_game_positions_are_refused_with_the_reason(mutate, message):
    data = _game_position()
    from_dict(copy.deepcopy(data))
    mutate(data)
    with pytest.raises(PositionError, match=message):
        from_dict(data)


@pytest.mark.parametrize(("ban", "message"), [
    ({"player": 1, "exchange": "Dev:R<>Lon:S"}, "not the last to play|not an exchange"),
    ({"player": 0, "exchange": "Dev:R<>Dev:S"}, "one region twice"),
    ({"player": 0, "exchange": "Dev:RS>Lon:S"}, "do not border"),
    ({"player": 0, "exchange": "Dev:S<>Lon:S"}, "changes no region"),
    ({"player": True, "exchange": "Dev:R<>Lon:S"}, "undo_ban must be"),
])
def test_impossible_undo_bans_are_refused_with_the_reason(ban, message):
    data = _ban_position()
    from_dict(copy.deepcopy(data))
    data["undo_ban"] = ban
    with pytest.raises(PositionError, match=message):
        from_dict(data)


def test_two_crown_tokens_of_one_player_are_refused_as_such():
    data = _game_position(plays=0)
    data["crowns"] = {"Caledonia": 0, "Londinium": 0}
    with pytest.raises(PositionError, match="2 Crown tokens"):
        from_dict(data)


@pytest.mark.parametrize("seat", [0, 1])
@pytest.mark.parametrize("plays", [0, 1, 3, 8])
def test_a_court_holds_at_most_two_followers_plus_its_players_card_plays(seat, plays):
    # A court starts with the 2 followers drawn at setup and each card play calls at most one more:
    # 2 + plays followers load, one more is refused, saying why.
    hands = [FULL_HAND, FULL_HAND]
    hands[seat] = FULL_HAND[:len(FULL_HAND) - plays]
    courts = ["SW", "SW"]
    courts[seat] = ("SWR" * 4)[:2 + plays]
    data = to_dict(build(courts=courts, hands=hands, to_move=1 - seat if plays else 0))
    assert sum(from_dict(copy.deepcopy(data)).court(seat)) == 2 + plays
    data["courts"][seat]["Romano-British"] += 1
    data["stock"]["Romano-British"] -= 1
    message = f"player {seat + 1} has {3 + plays} followers at court but has played {plays} card(s)"
    with pytest.raises(PositionError, match=re.escape(message) + ".* at most " + str(2 + plays)):
        from_dict(data)


def test_a_court_beyond_the_card_plays_is_refused_when_built_too():
    with pytest.raises(PositionError, match="player 2 has 4 followers at court but has played 1 card"):
        build(courts=["", "SSWR"], hands=[FULL_HAND, hand_without("Crown")])
    # Left to the builder, a hand is as full as the court allows.
    s = build(courts=["SSWR", "SW"])
    assert [sum(s.hands[p * 7:p * 7 + 7]) for p in range(2)] == [6, 8]
