"""Setup for 2, 3 and 4 players and the Mordred variant, from a single seed."""

from __future__ import annotations

import pytest

from kingisdead import GameState, Region
from kingisdead.board import FACTIONS, HOMES, REGIONS, Card, Faction
from kingisdead.rng import SplitMix64

from kingisdead.setup import _court_clashes

pytestmark = pytest.mark.usefixtures("each_engine")
"""Every rule test runs on both engines: the compiled core and the reference."""

SEEDS = range(200)
CONFIGS = [(2, "standard"), (3, "standard"), (4, "standard"), (2, "mordred"), (3, "mordred"), (4, "mordred")]


def region_total(s: GameState, region: int) -> int:
    return sum(s.followers(region, k) for k in range(4))


@pytest.mark.parametrize(("players", "in_play"), [(2, 16), (3, 18), (4, 18)])
def test_two_players_remove_two_followers_of_each_faction(players, in_play):
    for seed in range(50):
        s = GameState.new(players, seed=seed)
        for f in FACTIONS:
            on_board = sum(s.followers(r, f) for r in REGIONS)
            at_court = sum(s.court(p)[f] for p in range(players))
            assert on_board + at_court + s.stock[f] == in_play


@pytest.mark.parametrize(("players", "variant"), CONFIGS)
def test_every_region_starts_with_four_followers(players, variant):
    for seed in range(50):
        s = GameState.new(players, variant, seed=seed)
        assert [region_total(s, r) for r in REGIONS] == [4] * 8


def test_homes_start_with_two_followers_of_their_faction():
    seen_below_two = {f: False for f in FACTIONS}
    for seed in SEEDS:
        s = GameState.new(2, seed=seed)
        for f, home in zip(FACTIONS, HOMES):
            assert s.followers(home, f) >= 2
        # Elsewhere a faction is often missing: the two in the home are placed, not drawn.
        for f in FACTIONS:
            other = HOMES[(f + 1) % 3]
            seen_below_two[f] |= s.followers(other, f) < 2
    assert all(seen_below_two.values())
    assert [Region(h) for h in HOMES] == [Region.CALEDONIA, Region.CAERLEON, Region.LONDINIUM]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_mordred_setup_puts_one_loyalist_in_din_eidyn_and_aquae_sulis(players):
    for seed in range(50):
        s = GameState.new(players, "mordred", seed=seed)
        loyalists = [s.followers(r, Faction.LOYALISTS) for r in REGIONS]
        assert loyalists == [0, 1, 0, 0, 0, 0, 0, 1]
        assert s.stock[Faction.LOYALISTS] == 7
        assert s.variant == "mordred"


def test_standard_setup_has_no_loyalists():
    s = GameState.new(3, seed=5)
    assert sum(s.followers(r, Faction.LOYALISTS) for r in REGIONS) == 0
    assert s.stock[Faction.LOYALISTS] == 0


@pytest.mark.parametrize(("players", "variant"), CONFIGS)
def test_courts_hands_and_stock_at_the_start(players, variant):
    s = GameState.new(players, variant, seed=11)
    for p in range(players):
        assert sum(s.court(p)) == 2
        assert s.hand(p) == {Card.CROWN: 1, Card.GARRISON: 1, Card.AMBASSADOR: 1, Card.SETTLEMENTS: 2,
                             Card.SCOTS: 1, Card.WELSH: 1, Card.ROMANO_BRITISH: 1}
        assert s.cards_left(p) == 8 and s.top_card(p) is None
    in_play = 16 if players == 2 else 18
    assert sum(s.stock[:3]) == 3 * in_play - 8 * 4 + (2 if variant == "mordred" else 0) - 2 * players
    assert s.resolved == 0 and s.saxons == 0 and s.passes == 0
    assert s.control == [-1] * 8 and s.crowns == [-1] * 8
    assert not s.is_over() and s.result is None


def test_region_cards_are_shuffled_by_the_seed():
    orders = {tuple(GameState.new(2, seed=seed).order) for seed in SEEDS}
    assert all(sorted(order) == list(range(8)) for order in orders)
    assert len(orders) > 150  # 8! orders: almost every seed gives a different one
    first = {order[0] for order in orders}
    assert first == set(range(8))


@pytest.mark.parametrize(("players", "variant"), CONFIGS)
def test_same_seed_gives_the_same_setup(players, variant):
    a = GameState.new(players, variant, seed=123456789)
    b = GameState.new(players, variant, seed=123456789)
    assert a.key() == b.key()
    assert GameState.new(players, variant, seed=123456790).key() != a.key()


def test_seed_generator_is_the_reference_splitmix64():
    """The setup's generator matches SplitMix64's published reference outputs, so a seed
    gives the same game on every machine (Python's own generator is not used)."""
    rng = SplitMix64(0)
    assert [rng.next() for _ in range(3)] == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]
    assert GameState.new(2, seed=2**64 + 42).key() == GameState.new(2, seed=42).key()  # seeds are 64-bit


@pytest.mark.parametrize("first", [0, 1, 2])
def test_first_player_can_be_chosen(first):
    s = GameState.new(3, seed=1, first_player=first)
    assert s.current_player == first
    assert GameState.new(3, seed=1).current_player == 0


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"players": 5}, "2, 3 or 4 players"),
    ({"players": 1}, "2, 3 or 4 players"),
    ({"variant": "arthur"}, "unknown variant"),
    ({"players": 2, "first_player": 2}, "first player"),
    ({"players": 2, "first_player": -1}, "first player"),
])
def test_bad_setup_arguments_raise(kwargs, message):
    with pytest.raises(ValueError, match=message):
        GameState.new(**kwargs)


def test_court_redraw_when_two_players_draw_same_single_faction():
    """No two players ever start with a pair of the same single faction."""
    for players in (2, 3, 4):
        for seed in SEEDS:
            s = GameState.new(players, seed=seed)
            pairs = [f for p in range(players) for f in FACTIONS if s.court(p)[f] == 2]
            assert len(pairs) == len(set(pairs)), (players, seed)


def test_court_pair_of_one_faction_allowed_when_nobody_shares_it():
    """A single player with two of one faction keeps them (and two pairs of different factions stay)."""
    singles = different_pairs = 0
    for seed in SEEDS:
        s = GameState.new(4, seed=seed)
        pairs = [f for p in range(4) for f in FACTIONS if s.court(p)[f] == 2]
        singles += len(pairs) >= 1
        different_pairs += len(pairs) >= 2
    assert singles > 0 and different_pairs > 0


@pytest.mark.parametrize(("hands", "redraw"), [
    ([[0, 0], [0, 0]], [0, 1]),
    ([[0, 0], [1, 1]], []),
    ([[0, 1], [1, 0]], []),
    ([[2, 2], [0, 1], [2, 2]], [0, 2]),
    ([[1, 1], [1, 1], [1, 1], [0, 0]], [0, 1, 2]),
    ([[1, 1], [2, 2], [1, 1], [2, 2]], [0, 1, 2, 3]),
])
def test_court_redraw_applies_to_exactly_the_clashing_players(hands, redraw):
    assert _court_clashes(hands) == redraw


BORDER_RULING = """Caledonia-Din Eidyn, Din Eidyn-Deva, Din Eidyn-Eboracum, Deva-Eboracum,
Deva-Caerleon, Deva-Ratae, Eboracum-Ratae, Eboracum-Londinium,
Caerleon-Ratae, Caerleon-Aquae Sulis, Ratae-Londinium, Ratae-Aquae Sulis,
Londinium-Aquae Sulis"""
"""The thirteen borders, copied from the rulings."""


def test_board_borders_are_those_of_the_rulings():
    from kingisdead.board import BORDERS, REGION_NAMES, borders

    ruled = {frozenset(pair.strip().split("-")) for pair in BORDER_RULING.replace("\n", " ").split(",")}
    assert len(ruled) == 13
    assert {frozenset((REGION_NAMES[a], REGION_NAMES[b])) for a, b in BORDERS} == ruled
    for a in REGIONS:
        for b in REGIONS:
            assert borders(a, b) == (frozenset((REGION_NAMES[a], REGION_NAMES[b])) in ruled)
