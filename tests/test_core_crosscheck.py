"""The compiled core against the pure-Python reference, rule by rule.

Every rule lives in both engines (core/src/*.rs and kingisdead/rules.py and
friends); these tests make them agree. Along seeded random games of every
configuration of both editions (the second with its options too, and its advanced game with its
Cunning cards and every value of its options), at every position: the same legal moves in the same order, the
same distinct successor positions, the same state after each move (sampled in
large positions), the same heuristic values, the same last-card verdict, and at
the end the same ending, winners, ruler, ranking and scoring steps. Games are driven by each
engine's sampler in turn, and Hypothesis drives both with the same moves.
KINGISDEAD_PROPERTY_SCALE multiplies the number of games.
"""

from __future__ import annotations

import os
from dataclasses import asdict
from random import Random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kingisdead import PASS, GameState, board, core, rules, scoring
from kingisdead import lastcard
from kingisdead import playout
from kingisdead.edition import ADVANCED_OPTIONS, EDITIONS, FIRST, SECOND, Edition, get_edition
from kingisdead.evaluation import evaluate

pytestmark = pytest.mark.skipif(not core.available(), reason="the compiled core is not built")

SCALE = int(os.environ.get("KINGISDEAD_PROPERTY_SCALE", "1"))
OPTIONED = get_edition("second", reversal="exact", court_redraw=True, tie_faction="always", tie_hands="lowest_seat",
                       last_card="must_win")
"""The second edition with every option away from its default."""
STRICT = get_edition("second", tie_faction="strict", last_card="must_win")
"""The second edition with the first edition's coronation tie and last card (the values OPTIONED lacks)."""
ADVANCED = get_edition("second", "advanced")
"""The advanced game (secret Cunning cards) with its options at their defaults."""
ADVANCED_OPTIONED = get_edition("second", "advanced", spy_spy="allowed", spy_negotiate="no_effect", spy_ban="free",
                                spy_pile="fullest", aid_tie="none", plot_coronation="any_faction", plot_team="once",
                                plot_tiebreak="holder_first", plot_empty_hand="never", cunning_ban="same_effect",
                                reversal="exact", court_redraw=True, tie_faction="always", tie_hands="lowest_seat",
                                last_card="must_win")
"""The advanced game with every option away from its default (the second edition's too)."""
ADVANCED_ALWAYS = get_edition("second", "advanced", spy_negotiate="always", cunning_ban="same_effect",
                              tie_faction="strict", last_card="must_win")
"""The advanced game with the option values ADVANCED_OPTIONED lacks, the ban binding the Cunning swaps by effect."""
CONFIGS: list[tuple[int, str, Edition]] = [
    *((p, v, FIRST) for v in ("standard", "mordred") for p in (2, 3, 4)),
    *((p, "standard", e) for e in (SECOND, OPTIONED, STRICT, ADVANCED, ADVANCED_OPTIONED) for p in (2, 3, 4)),
    (3, "standard", ADVANCED_ALWAYS),
]
NAMES = {id(STRICT): "-strict", id(ADVANCED): "-advanced", id(ADVANCED_OPTIONED): "-advanced-options",
         id(ADVANCED_ALWAYS): "-advanced-always"}
CONFIG_IDS = [f"{p}p-{v}-{e.name}{NAMES.get(id(e), '-options' if e.options() else '')}" for p, v, e in CONFIGS]
FULL_SUCCESSORS = 2500
"""Positions with at most this many moves have every successor compared; larger ones a sample."""
SAMPLED_SUCCESSORS = 150


def full_key(s: GameState) -> tuple:
    """Everything a position holds, beyond ``key()``: raw play numbers and the result."""
    result = s.result
    verdict = None if result is None else (result.ending, result.winners, result.ruler, result.ranking, result.steps,
                                           result.reason)
    return (s.key(), tuple(s.last_play), s.plays, s.saxons, s.open, verdict)


def reference_successor_keys(s: GameState, moves: list) -> set[tuple]:
    keys = set()
    for move in moves:
        after = s.copy()
        rules.play(after, move)
        keys.add(after.key())
    return keys


def check_position(s: GameState, rng: Random) -> None:
    """Both engines agree on everything about this position."""
    reference = rules.legal_moves(s)
    compiled = core.legal_moves(s)
    assert compiled == reference, "legal moves differ (content or order)"
    assert core.count_legal_moves(s) == len(reference)
    for card in range(19 if s.edition.advanced else 7):  # the advanced game's Cunning cards 7-18
        assert core.card_actions(s, card) == rules.card_actions(s, card), f"card {card}"
    assert core.require().last_card_applies(s) == lastcard.last_card_applies(s)
    for ours, theirs in zip(core.evaluate(s), evaluate(s)):
        assert ours == pytest.approx(theirs, abs=1e-12)
    if len(reference) <= FULL_SUCCESSORS:
        pairs = core.successors(s)
        assert [m for m, _ in pairs] == reference
        assert {t.key() for _, t in pairs} == reference_successor_keys(s, reference)
        sample = pairs if len(pairs) <= SAMPLED_SUCCESSORS else rng.sample(pairs, SAMPLED_SUCCESSORS)
    else:
        moves = rng.sample(reference, SAMPLED_SUCCESSORS)
        sample = [(m, core.play(s, m)) for m in moves]
    t = s
    for move, after in sample:
        expected = s.copy()
        rules.play(expected, move)
        assert full_key(after) == full_key(expected), f"after {move}"
        assert core.require().is_legal(t, move)
    # Moves legal one ply later are mostly illegal now: both engines must judge them alike.
    later = [m for _, after in sample[:3] if not after.is_over() for m in rules.legal_moves(after)]
    for move in rng.sample(later, min(30, len(later))):
        assert core.require().is_legal(t, move) == s.is_legal(move), f"is {move} legal?"


def check_result(s: GameState) -> None:
    assert s.result is not None
    verdict = core.outcome(s)
    assert verdict == (s.result.ending, s.result.winners, s.result.ruler, s.result.ranking, s.result.steps)
    with core.use_engine("reference"):
        assert scoring.score(s, s.result.ending).steps == s.result.steps


@pytest.mark.parametrize(("players", "variant", "edition"), CONFIGS, ids=CONFIG_IDS)
def test_every_position_of_reference_sampled_games(players, variant, edition):
    """Games drawn by the reference sampler: every position is compared in full (one game per
    configuration, both editions, the second with its default and changed options; SCALE more)."""
    for game in range(SCALE):
        seed = 1000 * players + 10 * game + (variant == "mordred") + 3 * (edition is OPTIONED) + 5 * (edition is STRICT) \
            + 7 * edition.advanced
        s = GameState.new(players, variant, seed, edition=edition)
        rng = Random(seed)
        while not s.is_over():
            check_position(s, rng)
            playout.play_random(s, rng)
        check_result(s)


@pytest.mark.parametrize(("players", "variant", "edition"), CONFIGS, ids=CONFIG_IDS)
def test_core_sampled_games_are_legal_for_the_reference(players, variant, edition):
    """Games drawn by the core's sampler replay move by move through the reference's checks."""
    for game in range(25 * SCALE):
        seed = 7 + 100 * game + players
        start = GameState.new(players, variant, seed, edition=edition)
        moves, final = core.playout(start, Random(seed))
        s = start.copy()
        for move in moves:
            s.apply(move)  # check_move in Python: raises if the core played an illegal move
        assert full_key(s) == full_key(final)
        check_result(final)


@pytest.mark.parametrize(("players", "variant", "edition"), CONFIGS, ids=CONFIG_IDS)
def test_setup_from_a_seed_is_the_same_game(players, variant, edition):
    for seed in [0, 1, 2, 3, 2**63, 2**64 - 1, *range(100, 100 + 60 * SCALE)]:
        compiled = core.require().new_game(players, variant == "mordred", seed, seed % players, edition)
        with core.use_engine("reference"):
            reference = GameState.new(players, variant, seed, first_player=seed % players, edition=edition)
        assert full_key(compiled) == full_key(reference)
        assert compiled.edition is edition


@settings(max_examples=24 * SCALE, deadline=None)
@given(config=st.sampled_from(CONFIGS), seed=st.integers(0, 2**64 - 1), data=st.data())
def test_both_engines_follow_the_same_random_moves(config, seed, data):
    """Hypothesis picks each move from the legal list; both engines play it and must agree."""
    players, variant, edition = config
    s = GameState.new(players, variant, seed, edition=edition)
    ply = 0
    while not s.is_over() and ply < 200:
        moves = core.legal_moves(s)
        assert moves == rules.legal_moves(s)
        move = moves[data.draw(st.integers(0, len(moves) - 1), label=f"move {ply}")]
        compiled = core.play(s, move)
        rules.play(s, move)
        assert full_key(compiled) == full_key(s)
        ply += 1
    if s.is_over():
        check_result(s)


@pytest.mark.parametrize("edition", [FIRST, SECOND, get_edition("second", reversal="exact"), ADVANCED_ALWAYS,
                                     ADVANCED_OPTIONED],
                         ids=["first", "second", "second-exact", "advanced-same-effect", "advanced-exact"])
def test_undo_ban_is_judged_alike(edition):
    """Positions under an undo ban, from the reference's exchanges: the same moves are banned,
    by effect or (the second edition's option) literally, across resolutions where the ban outlives them;
    in the advanced game the ban names its card, and binds Dispute, Influence and Edict too (cunning_ban)."""
    found = 0
    for seed in range(300):
        s = GameState.new(2, "standard", seed, edition=edition)
        rng = Random(seed)
        while not s.is_over() and found < 40:
            if s.undo_ban is not None and s.undo_ban[0] != s.player:
                assert core.legal_moves(s) == rules.legal_moves(s)
                for card in (1, 2, *(range(7, 19) if edition.advanced else ())):
                    assert core.card_actions(s, card) == rules.card_actions(s, card)
                assert core.play(s, PASS).undo_ban == s.after(PASS).undo_ban
                found += 1
            playout.play_random(s, rng)
        if found >= 40:
            break
    assert found >= 40


def test_engine_selection():
    assert core.engine() == "core"
    with core.use_engine("reference"):
        assert core.engine() == "reference"
        assert not core.active()
    assert core.active()
    with pytest.raises(ValueError, match="unknown engine"):
        core.set_engine("fast")


@pytest.mark.parametrize(("variant", "edition"), [("mordred", FIRST), ("standard", OPTIONED),
                                                  ("standard", ADVANCED_OPTIONED)],
                         ids=["first", "second-options", "advanced-options"])
def test_state_round_trip_through_the_core(variant, edition):
    """The core reads every field of a GameState by name and builds one back with the same fields
    (the same Edition object included)."""
    s = GameState.new(4, variant, 11, edition=edition)
    rng = Random(3)
    for _ in range(30):
        after, expected = core.play(s, PASS), s.copy()
        rules.play(expected, PASS)
        assert type(after) is GameState
        assert {name: getattr(after, name) for name in GameState.__slots__} == \
            {name: getattr(expected, name) for name in GameState.__slots__}
        assert after.edition is edition
        playout.play_random(s, rng)


def test_bad_states_are_refused_with_a_clear_error():
    s = GameState.new(2, seed=1)
    s.players = 5
    with pytest.raises(ValueError, match="players"):
        core.require().legal_moves(s)
    with pytest.raises(AttributeError, match="players"):
        core.require().legal_moves((2, False))


def test_the_core_refuses_what_it_cannot_use():
    """Out-of-range states, unknown cards and finished games get a ValueError, never a crash."""
    s = GameState.new(2, seed=1)
    t = s.copy()
    t.order = [0, 0, 1, 2, 3, 4, 5, 6]  # a region card twice
    with pytest.raises(ValueError, match="region cards"):
        core.require().legal_moves(t)
    t = s.copy()
    t.control = [9] * 8
    with pytest.raises(ValueError, match="out of range"):
        core.require().legal_moves(t)
    with pytest.raises(ValueError, match="unknown card"):
        core.require().card_actions(s, 9)
    finished = GameState.new(3, seed=1)
    rng = Random(1)
    while not finished.is_over():
        playout.play_random(finished, rng)
    for call in (core.sample_move, lambda state, r: core.ranked_candidates(state, r, 3)):
        with pytest.raises(ValueError, match="over"):
            call(finished, rng)
    with pytest.raises(ValueError, match="over"):
        core.greedy_moves(finished)


@pytest.mark.parametrize("name", list(EDITIONS))
def test_both_engines_read_the_same_editions(name):
    """The core's editions are kingisdead.edition.EDITIONS, field for field, the mode and the advanced
    game's options included; the board module reads the first."""
    def plain(value):
        return [plain(v) for v in value] if isinstance(value, (list, tuple)) else value

    ours = {name: plain(value) for name, value in core.require().edition(name).items()}
    assert ours == {name: plain(value) for name, value in asdict(EDITIONS[name]).items()}
    assert {"mode", *ADVANCED_OPTIONS} <= set(ours)
    assert (board.REGION_NAMES, board.CARD_NAMES, board.CARD_COPIES) == (FIRST.regions, FIRST.cards, FIRST.card_copies)
    assert board.SAXON_INVASION == FIRST.invasion == 4
    assert [tuple(pair) for pair in board.BORDERS] == list(FIRST.borders)
    with pytest.raises(ValueError, match="unknown edition"):
        core.require().edition("third")


def test_the_core_refuses_what_an_edition_lacks():
    """The second edition's Mordred variant, a first edition with options: ValueError, as in Python."""
    with pytest.raises(ValueError, match="no Mordred variant"):
        core.require().new_game(3, True, 1, 0, SECOND)
    s = GameState.new(3, seed=1, edition=SECOND)
    s.mordred = True
    with pytest.raises(ValueError, match="no Mordred variant"):
        core.require().legal_moves(s)


def _hands_left(s: GameState, p: int) -> int:
    return sum(s.hands[p * 7:p * 7 + 7])


@pytest.mark.parametrize(("tie_faction", "tie_hands"),
                         [(f, h) for f in ("second", "strict", "always") for h in ("earliest", "lowest_seat")])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_coronation_ties_are_scored_alike(players, tie_faction, tie_hands):
    """Finished second-edition games built to tie (small courts, hands half empty, some players
    who never played): the same winners, ruler, ranking and steps in both engines."""
    edition = get_edition("second", tie_faction=tie_faction, tie_hands=tie_hands)
    rng = Random(players)
    for seed in range(400 * SCALE):
        s = GameState.new(players, "standard", seed, edition=edition)
        control = [rng.choice([0, 0, 1, 1, 2, 4]) for _ in range(8)]
        if control.count(4) >= edition.invasion:
            control = [c if c != 4 else rng.choice([0, 1, 2]) for c in control]
        s.control, s.order, s.resolved, s.open = control, rng.sample(range(8), 8), 8, 0
        s.saxons, s.board = control.count(4), [0] * 32
        s.courts = [rng.choice([0, 1, 1, 2]) for _ in range(3 * players)]
        s.hands = [0] * (7 * players)
        for p in range(players):
            if rng.random() < 0.5:
                s.hands[p * 7 + rng.randrange(7)] = 1
        plays = rng.sample(range(1, 30), players)
        s.last_play = [0 if _hands_left(s, p) and rng.random() < 0.1 else plays[p] for p in range(players)]
        s.plays = max(s.last_play)
        with core.use_engine("reference"):
            s._result = result = scoring.score(s, "coronation")
        verdict = core.outcome(s)
        assert verdict == ("coronation", result.winners, result.ruler, result.ranking, result.steps), \
            f"{s.courts} {s.hands} {s.last_play}"


PLOT_EDITIONS = [get_edition("second", "advanced", plot_coronation=c, plot_team=t, plot_tiebreak=b, plot_empty_hand=h,
                             tie_hands=th)
                 for c, t, b, h, th in [("top_only", "each", "none", "empty", "earliest"),
                                        ("any_faction", "once", "holder_first", "never", "lowest_seat"),
                                        ("any_faction", "each", "holder_first", "empty", "earliest"),
                                        ("top_only", "once", "none", "never", "lowest_seat")]]


@pytest.mark.parametrize("edition", PLOT_EDITIONS, ids=lambda e: "-".join(str(v) for v in e.options().values()) or "defaults")
@pytest.mark.parametrize("players", [2, 3, 4])
def test_plot_is_scored_alike(players, edition):
    """Finished advanced games built to tie, one seat holding Plot (sometimes alone in its hand), ended by a
    coronation or an invasion: the same winners, ruler, ranking and steps (Plot's own steps included)."""
    rng = Random(players)
    for seed in range(200 * SCALE):
        s = GameState.new(players, "standard", seed, edition=edition)
        ending = "invasion" if seed % 3 == 0 else "coronation"
        control = [rng.choice([0, 0, 1, 1, 2, 4]) for _ in range(8)]
        if ending == "coronation" and control.count(4) >= edition.invasion:
            control = [c if c != 4 else rng.choice([0, 1, 2]) for c in control]
        s.control, s.order, s.resolved, s.open = control, rng.sample(range(8), 8), 8, 0
        s.saxons, s.board = control.count(4), [0] * 32
        s.courts = [rng.choice([0, 1, 1, 2]) for _ in range(3 * players)]
        s.hands = [0] * (7 * players)
        holder = rng.randrange(players)
        s.cunning = [0] * players
        s.cunning[holder] = 1 << 11
        for p in range(players):
            if rng.random() < 0.5:
                s.cunning[p] |= 1 << rng.randrange(11)
        plays = rng.sample(range(1, 30), players)
        s.last_play = [plays[p] for p in range(players)]
        s.plays = max(s.last_play)
        with core.use_engine("reference"):
            s._result = result = scoring.score(s, ending)
        assert any(step.kind == "plot" for step in result.steps)
        verdict = core.outcome(s)
        assert verdict == (ending, result.winners, result.ruler, result.ranking, result.steps), \
            f"{s.courts} {s.cunning} {s.last_play}"
