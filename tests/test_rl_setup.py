"""The setup as explicit draws (kingisdead.setup) sets up exactly what GameState.new always did.

``_reference_new`` is GameState.new as it was before the setup became a sequence
of draws (commit 9fd1a4e), kept here as the oracle: for every seed tried, the
refactored GameState.new and a setup driven draw by draw must agree with it.
"""

from __future__ import annotations

import pytest

from kingisdead import FIRST, GameState
from kingisdead.board import (
    CARD_COPIES,
    COURT_START_SIZE,
    FACTIONS,
    FOLLOWERS_PER_FACTION,
    HOMES,
    LOYALISTS_TOTAL,
    MORDRED_START,
    NUM_KINDS,
    NUM_REGIONS,
    REGION_START_SIZE,
    REMOVED_TWO_PLAYER,
    START_IN_HOME,
    UNRESOLVED,
    Faction,
)
from kingisdead.rng import SplitMix64
from kingisdead.setup import FOLLOWER, SWAP, SetupDraws


def _clashes(hands: list[list[int]]) -> list[int]:
    by_faction: dict[int, list[int]] = {}
    for p, (a, b) in enumerate(hands):
        if a == b:
            by_faction.setdefault(a, []).append(p)
    return sorted(p for group in by_faction.values() if len(group) > 1 for p in group)


def _reference_new(players: int, variant: str, seed: int, first_player: int) -> GameState:
    rng = SplitMix64(seed)
    s = GameState.__new__(GameState)
    s.edition = FIRST
    s.players = players
    s.mordred = variant == "mordred"
    s.board = [0] * (NUM_REGIONS * NUM_KINDS)
    s.courts = [0] * (players * 3)
    s.hands = list(CARD_COPIES) * players
    s.cunning = [0] * players  # the standard game deals no Cunning card
    s.cunning_played = [0] * players
    s.crowns = [-1] * NUM_REGIONS
    s.control = [UNRESOLVED] * NUM_REGIONS
    s.open = (1 << NUM_REGIONS) - 1
    s.resolved = s.saxons = s.passes = s.plays = 0
    s.player = first_player
    s.tops = [-1] * players
    s.last_play = [0] * players
    s.undo_ban = None
    s._result = None
    removed = REMOVED_TWO_PLAYER if players == 2 else 0
    bag = [FOLLOWERS_PER_FACTION - removed - START_IN_HOME] * 3
    for faction, home in zip(FACTIONS, HOMES):
        s.board[home * 4 + faction] = START_IN_HOME

    def draw() -> int:
        pick = rng.below(sum(bag))
        for faction in FACTIONS:
            if pick < bag[faction]:
                bag[faction] -= 1
                return faction
            pick -= bag[faction]
        raise AssertionError("unreachable")

    hands = [[draw() for _ in range(COURT_START_SIZE)] for _ in range(players)]
    while clashing := _clashes(hands):
        for p in clashing:
            for faction in hands[p]:
                bag[faction] += 1
        for p in clashing:
            hands[p] = [draw() for _ in range(COURT_START_SIZE)]
    for p, drawn in enumerate(hands):
        for faction in drawn:
            s.courts[p * 3 + faction] += 1
    loyalists = LOYALISTS_TOTAL
    if s.mordred:
        for region in MORDRED_START:
            s.board[region * 4 + Faction.LOYALISTS] = 1
            loyalists -= 1
    for region in range(NUM_REGIONS):
        while sum(s.board[region * 4:region * 4 + 4]) < REGION_START_SIZE:
            s.board[region * 4 + draw()] += 1
    s.stock = bag + [loyalists if s.mordred else 0]
    s.order = list(range(NUM_REGIONS))
    rng.shuffle(s.order)
    return s


def _fields(s: GameState) -> tuple:
    return (s.key(), s.open, s.saxons, s.plays, s.last_play, s.result)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("variant", ["standard", "mordred"])
def test_new_sets_up_what_it_always_did(players: int, variant: str) -> None:
    for seed in [*range(400), 2**63 - 1, 2**64 - 1, 12345678901234567890]:
        first = seed % players
        assert _fields(GameState.new(players, variant, seed, first)) == \
            _fields(_reference_new(players, variant, seed, first)), seed


def test_redraws_happen_and_still_agree() -> None:
    """Some seeds make players redraw their court (the clash rule): those agree too."""
    redrawn = 0
    for seed in range(300):
        setup = SetupDraws(4, "standard", 0)
        rng = SplitMix64(seed)
        while not setup.done:
            setup.draw_from(rng)
        court_draws = len(setup.outcomes) - (NUM_REGIONS - 1) - sum(
            REGION_START_SIZE - (START_IN_HOME if r in HOMES else 0) for r in range(NUM_REGIONS))
        redrawn += court_draws > 4 * COURT_START_SIZE
        assert _fields(setup.state()) == _fields(_reference_new(4, "standard", seed, 0))
    assert redrawn > 0


def test_draws_by_hand_follow_the_weights() -> None:
    setup = SetupDraws(2, "standard", 1)
    assert setup.kind == FOLLOWER
    assert setup.weights() == (14, 14, 14)
    with pytest.raises(ValueError):
        setup.state()
    with pytest.raises(ValueError):
        setup.draw(3)
    while setup.kind == FOLLOWER:
        # Rotate through the factions: always drawing the first one would make both
        # players draw a Scots pair and redraw for ever (the clash rule).
        weights = setup.weights()
        turn = len(setup.outcomes)
        setup.draw(next(f for f in sorted(range(3), key=lambda f: (f - turn) % 3) if weights[f]))
    assert setup.kind == SWAP and setup.weights() == (1,) * NUM_REGIONS
    while not setup.done:
        setup.draw(0)
    assert setup.kind is None and setup.weights() == ()
    s = setup.state()
    assert s.player == 1
    assert all(sum(s.board[r * 4:r * 4 + 4]) == REGION_START_SIZE for r in range(NUM_REGIONS))
    assert sorted(s.order) == list(range(NUM_REGIONS))


def test_copy_is_independent() -> None:
    setup = SetupDraws(3, "mordred", 0)
    setup.draw(0)
    twin = setup.copy()
    twin.draw(1)
    assert setup.outcomes == [0] and twin.outcomes == [0, 1]
    assert setup.bag != twin.bag


def test_bad_arguments_are_refused() -> None:
    for args in [(5, "standard", 0), (2, "chess", 0), (2, "standard", 2)]:
        with pytest.raises(ValueError):
            SetupDraws(*args)
