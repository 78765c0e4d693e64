"""Per-seat views, move descriptions, step prompts, and the board's data (borders, places, tracks)."""

from __future__ import annotations

import json
import re
from importlib.resources import files

import pytest

from kingisdead import GameState, engine, parse_move
from kingisdead.board import BORDERS, Card
from kingisdead.building import Choice
from kingisdead.edition import EDITIONS, SECOND
from kingisdead.web.choices import choices_view
from kingisdead.web.views import board_facts, describe_move, preview, step_guide, table_view


def test_a_seat_view_holds_its_own_hand_and_no_other():
    state = GameState.new(4, "standard", 3)
    state.apply("Settlements S>Lon W>Dev R>Lon +Dev:W")
    for seat in range(4):
        view = table_view(state, seat)
        assert view["hand"] == state.hands[seat * 7:seat * 7 + 7]
        assert "hands" not in view
    assert table_view(state, None)["hand"] is None
    assert table_view(state, None, reveal=True)["hands"][2] == state.hands[14:21]
    assert table_view(state, 1)["tops"] == [Card.SETTLEMENTS, -1, -1, -1]
    assert table_view(state, 1)["cards_left"] == [7, 8, 8, 8]


def test_moves_in_words():
    assert describe_move(parse_move("pass")) == "passes"
    assert describe_move(parse_move("Crown Dev<>Lon *Lon +Ebo:W")) == (
        "Crown: swaps Deva and Londinium, crowns Londinium; calls a Welsh follower from Eboracum to court")
    assert describe_move(parse_move("Garrison Dev:SW>Ebo:R +Ebo:S")).startswith(
        "Garrison: Scots and Welsh leave Deva for Eboracum, a Romano-British follower comes back")
    assert describe_move(parse_move("Settlements S>Lon R>Dev")) == (
        "Settlements: Scots to Londinium, Romano-British to Deva")
    assert describe_move(parse_move("Crown +Ebo:W")).startswith("Crown: no action possible")
    assert describe_move(parse_move("Scots Din Din +Cal:S")).startswith("Scots: places 2 followers in Din Eidyn;")
    assert describe_move(parse_move("Scots Din Ebo")) == "Scots: places followers in Din Eidyn and Eboracum"


def guide(state: GameState, *steps: Choice) -> dict:
    builder = state.builder()
    for step in steps:
        builder.choose(step)
    return step_guide(state, builder.steps, builder.complete)


def test_prompts_follow_the_card_being_built():
    state = GameState.new(2, "standard", 3)
    assert guide(state)["prompt"] == "Play a card from your hand, or pass"
    crown = Choice("card", Card.CROWN)
    assert guide(state, crown)["prompt"] == "Choose a region card to swap"
    assert guide(state, crown, Choice("region", 0))["prompt"] == "Choose the card to swap it with"
    court = guide(state, crown, Choice("region", 0), Choice("region", 1), Choice("region", 1))
    assert court["prompt"] == "Call a follower to court: choose a region"
    assert guide(state, Choice("pass"))["prompt"] == "Confirm your pass, or go back"


def test_a_partial_settlements_is_explained():
    state = GameState.new(2, "standard", 3)
    state.stock[1] = 0  # as if every Welsh follower were on the board or at court
    notes = guide(state, Choice("card", Card.SETTLEMENTS))["notes"]
    assert notes == ["Partial action: the stock has no Welsh follower left, so none is placed."]


def test_a_faction_card_with_one_follower_left_is_explained():
    state = GameState.new(2, "standard", 3)
    state.stock[0] = 1
    notes = guide(state, Choice("card", Card.SCOTS))["notes"]
    assert notes == ["Partial action: only one Scots follower is left in the stock."]


def test_the_no_reversal_note_shows_only_for_a_card_whose_choices_the_ban_restricts():
    state = GameState.new(2, "standard", 3)
    state.apply("Ambassador Cal:S<>Din:W +Cal:S")  # player 2 may not swap them back right away
    note = "Player 1's last exchange may not be reversed right away."
    assert state.undo_ban is not None
    assert note in guide(state, Choice("card", Card.AMBASSADOR))["notes"]
    # the Garrison has two-for-one exchanges here, which a one-for-one ban leaves alone
    assert len(engine.card_actions(state, Card.GARRISON)[0]) == 5
    assert note not in guide(state, Choice("card", Card.GARRISON))["notes"]
    chosen = {card["card"]: card["notes"] for card in choices_view(state)["cards"]}
    assert note in chosen[Card.AMBASSADOR] and note not in chosen[Card.GARRISON]


def test_the_last_card_rule_is_explained():
    state = GameState.new(3, "standard", 3)
    state.hands = [0] * 21
    state.hands[0 * 7 + Card.WELSH] = 1  # player 1 holds the last card of the game
    notes = guide(state)["notes"]
    assert notes and notes[0].startswith("Last card (3 players)")
    assert guide(GameState.new(3, "standard", 3))["notes"] == []


def _britain(edition: str = "first") -> dict:
    return json.loads((files("kingisdead.web") / "static" / "editions" / edition / "board.json").read_text())


@pytest.mark.parametrize("edition", ["first", "second"])
def test_the_drawn_map_has_exactly_the_game_borders(edition):
    regions = _britain(edition)["regions"]
    assert len(regions) == 8 and all(regions)

    def edges(rings):
        return {frozenset((tuple(ring[i]), tuple(ring[(i + 1) % len(ring)]))) for ring in rings
                for i in range(len(ring))}

    touching = {(a, b) for a in range(8) for b in range(a + 1, 8) if edges(regions[a]) & edges(regions[b])}
    assert touching == {tuple(sorted(pair)) for pair in BORDERS}
    # regions meet only along shared edges, never at a lone corner
    points = [{tuple(p) for ring in rings for p in ring} for rings in regions]
    corners = {(a, b) for a in range(8) for b in range(a + 1, 8) if points[a] & points[b]}
    assert corners == touching


def _inside(x, y, ring):  # even-odd ray casting
    hit = False
    for (x1, y1), (x2, y2) in zip(ring, ring[1:] + ring[:1]):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            hit = not hit
    return hit


@pytest.mark.parametrize("edition", ["first", "second"])
def test_the_board_data_stays_light_and_places_each_regions_things_on_the_board(edition):
    path = files("kingisdead.web") / "static" / "editions" / edition / "board.json"
    assert len(path.read_bytes()) < 60_000
    board = _britain(edition)
    assert board["edition"] == edition
    width, height = board["size"]
    assert 0.62 <= width / height <= 0.72  # the table's layout is made for this shape
    frame = board["frame"]

    def on_board(x, y):
        return frame < x < width - frame and frame < y < height - frame

    assert len(board["places"]) == 8
    colours = [place["colour"] for place in board["places"]]
    assert len(set(colours)) == 8 and all(c.startswith("#") and len(c) == 7 for c in colours)
    for r, place in enumerate(board["places"]):
        assert any(_inside(*place["pieces"], ring) for ring in board["regions"][r]), r  # pieces stand in their region
        assert any(_inside(*place["control"], ring) for ring in board["regions"][r]), r
        banner = place["banner"]
        assert on_board(banner["x"] - banner["width"] / 2, banner["y"]) and on_board(banner["x"] + banner["width"] / 2, banner["y"] + 16)
        for key in ("pieces", "control", "home", "crown", "marks", "flag"):
            assert on_board(*place[key]), (r, key)
    assert len(board["track"]["slots"]) == 8 and len(board["track"]["card"]) == 2
    card_w, card_h = board["track"]["card"]
    assert all(on_board(x, y) and on_board(x + card_w, y + card_h) for x, y in board["track"]["slots"])
    slots = board["invader_track"]["slots"]
    assert len(slots) == EDITIONS[edition].invasion and all(on_board(x, y) for x, y in slots)
    assert len(board["stock"]["piles"]) == 4 and all(on_board(x, y) for x, y in board["stock"]["piles"])
    for point in (board["key"], board["loyalist_key"], board["compass"], board["track"]["title"], board["stock"]["title"],
                  board["invader_track"]["title"], *([label["x"], label["y"]] for label in board["sea_labels"])):
        assert on_board(*point), point
    # every faction (and the invaders) has a colour and its own mark, so that no one needs the colours
    sides = [*board["factions"], board["invaders"]]
    assert len(board["factions"]) == 4
    assert len({side["mark"] for side in sides}) == 5 and len({side["colour"] for side in sides}) == 5


def test_the_preview_shows_the_board_after_the_action_and_the_court_call():
    state = GameState.new(2, "standard", 3)
    scots = Choice("card", Card.SCOTS)
    builder = state.builder().choose(scots)
    target = builder.options()[0]
    assert preview(state, builder.steps) is None  # the action is not chosen yet
    builder.choose(target).choose(target)
    after_action = preview(state, builder.steps)
    assert after_action is not None
    assert after_action.followers(target.value, 0) == state.followers(target.value, 0) + 2
    region = builder.options()[0]
    builder.choose(region)
    builder.choose(builder.options()[0])
    after_move = preview(state, builder.steps)
    assert after_move == state.after(builder.move())
    assert state == GameState.new(2, "standard", 3)  # the position itself is untouched


def test_the_second_editions_board_differs_from_the_first_only_in_its_data():
    first, second = _britain("first"), _britain("second")
    assert second["regions"] == first["regions"]  # the same map, the regions renamed
    assert [f["colour"] for f in second["factions"][:3]] == [f["colour"] for f in first["factions"][:3]]  # blue, red, yellow
    assert [f["mark"] for f in second["factions"][:3]] == ["saltire", "triangle", "cross"]
    assert second["invader_track"]["fill"] == "left" and first["invader_track"]["fill"] == "taken"
    assert (first["seat_token"], second["seat_token"]) == ("crown", "disc")
    # the drawing code names no region, faction or card of either edition: all of it comes from the data
    code = re.sub(r"//.*", "", (files("kingisdead.web") / "static" / "board.js").read_text())  # comments may name them
    for edition in EDITIONS.values():
        for name in (*edition.regions, *edition.factions[:3], *edition.cards, edition.invaders):
            assert not re.search(rf"\b{re.escape(name)}\b", code), name


def test_the_board_facts_speak_the_editions_names():
    facts = board_facts(SECOND)
    assert facts["edition"] == "second"
    assert [r["name"] for r in facts["regions"]] == list(SECOND.regions)
    assert [r["code"] for r in facts["regions"]][:3] == ["Mor", "Str", "Nor"]
    assert facts["factions"][:3] == ["Scottish", "Welsh", "English"]
    assert facts["cards"] == ["Negotiate", "Outmanoeuvre", "Manoeuvre", "Assemble", "Scottish Support",
                              "Welsh Support", "English Support"]
    assert facts["card_keys"] == list(SECOND.cards)
    assert facts["controls"][4] == "Instability" and facts["invaders"]["track"] == "France"
    assert facts["seat_token"] == "Negotiation disc"
    first = board_facts()
    assert first["edition"] == "first" and first["controls"][4] == "Saxons" and first["seat_token"] == "Crown token"
