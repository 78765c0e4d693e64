"""Plot at the end of the second edition's advanced game: one test per point of the scoring with Plot.

Plot is never played: its holder keeps it, and when the winner is decided it is revealed and counts
as one follower of a faction they choose (../shared/rules/second-edition.md, "The advanced game";
the options plot_coronation, plot_team, plot_tiebreak and plot_empty_hand). End positions are built
here field by field on a new advanced game and scored by the reference engine
(:func:`kingisdead.scoring.score`), the only one that plays the advanced game.
"""

from __future__ import annotations

from itertools import product

import pytest

from kingisdead import GameState, core, engine
from kingisdead.board import FIRST_CUNNING, Cunning
from kingisdead.scoring import PLOT, STEP_KINDS, Result, Step, plot_holder, score

S, W, E = 0, 1, 2
UNSTABLE = 4
SPY = 1 << (Cunning.SPY - FIRST_CUNNING)
ASSEMBLE = 3
"""The card number of Assemble, in a hand's stride of 7."""

CROWNED = (S, S, S, W, W, E, E, UNSTABLE)
"""All eight regions resolved, in region order: the Scottish rule with 3, then the English (2, the
later won) and the Welsh (2). A coronation compares the Scottish, then the English."""

WELSH_RULE = (W, W, W, S, S, E, E, UNSTABLE)
"""The Welsh rule with 3, then the English (2, the later won), then the Scottish."""

INVADED = (UNSTABLE, UNSTABLE, UNSTABLE)
"""The third instability disc after three struggles: an invasion."""


def ended(players: int, control: tuple[int, ...], courts: list[str], *, plot: int | None = None,
          last_play: list[int] | None = None, hands: list[list[int]] | None = None,
          cunning: list[int] | None = None, mode: str = "advanced", **options: str) -> GameState:
    """A finished game of the second edition in ``mode``: ``control`` lists the resolved regions' rulers in
    region order (the first ``len(control)`` regions, the others open), ``courts`` each court in faction
    codes ("SSW"), ``plot`` Plot's holder (None: it went back to the box), ``last_play`` each seat's
    latest card play (default 10, 11, ...: the highest seat played last), ``hands`` each seat's cards left
    by card number (default: none), ``cunning`` each seat's other Cunning cards held (bit masks)."""
    s = GameState.new(players, edition="second", mode=mode, seed=1, options=options)
    s.order = list(range(8))
    s.control = list(control) + [-1] * (8 - len(control))
    s.resolved = len(control)
    s.open = sum(1 << r for r in range(len(control), 8))
    s.saxons = list(control).count(UNSTABLE)
    s.board = [0] * len(s.board)
    s.courts = [court.count(code) for court in courts for code in "SWE"]
    s.hands = [0] * (7 * players)
    for p, cards in enumerate(hands or []):
        for card in cards:
            s.hands[p * 7 + card] += 1
    s.cunning = list(cunning) if cunning else [0] * players
    if plot is not None:
        s.cunning[plot] |= PLOT
    s.last_play = list(last_play) if last_play else [10 + p for p in range(players)]
    s.plays = max(s.last_play)
    return s


def coronation(*args, **kwargs) -> Result:
    return score(ended(*args, **kwargs), "coronation")


def invasion(*args, **kwargs) -> Result:
    return score(ended(*args, **kwargs), "invasion")


def kinds(result: Result) -> list[str]:
    return [step.kind for step in result.steps]


# -- the coronation --------------------------------------------------------------------------

def test_plot_counted_as_one_of_the_top_faction_wins_a_coronation():
    # Tied on the Scottish, player 2 leads on the English; Plot makes player 1's Scots 4 against 3.
    courts = ["SSS", "SSSE"]
    assert coronation(2, CROWNED, courts).winners == (1,)  # Plot in the box
    result = coronation(2, CROWNED, courts, plot=0)
    assert result.winners == (0,) and result.ruler == 0
    assert result.steps[:2] == (Step("plot", S, ((0, 1),), (0, 1)), Step("faction", S, ((0, 4), (1, 3)), (0,)))
    assert "Plot revealed: player 1 counts it as one Scottish follower. " \
           "Player 1 has the most Scottish followers: 4 against 3." in result.reason
    # Held by player 2, the same card widens their lead instead.
    assert coronation(2, CROWNED, courts, plot=1).steps[1].values == ((0, 3), (1, 4))
    # The engine sends an advanced game to the reference, which scores it so.
    s = ended(2, CROWNED, courts, plot=0)
    assert plot_holder(s) == 0 and engine.score(s, "coronation") == result


def test_a_standard_game_with_the_same_courts_scores_as_before():
    standard = ended(2, CROWNED, ["SSS", "SSSE"], mode="standard")
    standard.cunning[0] = PLOT  # never set in a standard game; were it, nothing would read it
    result = score(standard, "coronation")
    assert result.winners == (1,)
    assert result.steps == (Step("faction", S, ((0, 3), (1, 3)), (0, 1)), Step("faction", E, ((0, 0), (1, 1)), (1,)))
    assert "Plot" not in result.reason
    if core.available():
        standard.cunning[0] = 0
        assert core.score(standard, "coronation").steps == result.steps
    # An advanced game whose Plot went back to the box scores as the standard game does.
    assert coronation(2, CROWNED, ["SSS", "SSSE"]).steps == result.steps


def test_top_only_counts_plot_for_the_top_faction_and_any_faction_for_the_best_choice():
    # Player 1 leads anyway: top_only names the ruling Welsh, any_faction the lowest faction number
    # among the choices that win as well (the Scottish), a deterministic pick among equal ones.
    courts = ["WWWW", "W"]
    assert coronation(2, WELSH_RULE, courts, plot=0).steps[0] == Step("plot", W, ((0, 1),), (0, 1))
    assert coronation(2, WELSH_RULE, courts, plot=0, plot_coronation="any_faction").steps[0].faction == S
    # Only the Welsh win it (4 against 4, then the English 1 against 0): any_faction finds it.
    courts = ["WWWE", "WWWW"]
    for option in ("top_only", "any_faction"):
        result = coronation(2, WELSH_RULE, courts, plot=0, plot_coronation=option)
        assert result.winners == (0,) and result.steps[0].faction == W, option
    # No choice wins: any_faction takes the lowest faction number, top_only the top faction.
    courts = ["W", "WWWW"]
    assert coronation(2, WELSH_RULE, courts, plot=0, plot_coronation="any_faction").steps[0].faction == S
    assert coronation(2, WELSH_RULE, courts, plot=0).steps[0].faction == W


def test_at_a_coronation_no_faction_serves_the_holder_better_than_the_top_one():
    # The courts are compared faction by faction, the top one first: a follower more of the top faction
    # beats a follower more of any later one, so any_faction crowns whom top_only crowns, in every one
    # of these positions (tied or not, on one or both compared factions, with the hands after).
    for counts in product(range(3), repeat=4):
        courts = ["S" * counts[0] + "E" * counts[1] + "W", "S" * counts[2] + "E" * counts[3]]
        for last_play in ([10, 11], [11, 10]):
            top = coronation(2, CROWNED, courts, plot=0, last_play=last_play)
            best = coronation(2, CROWNED, courts, plot=0, last_play=last_play, plot_coronation="any_faction")
            assert best.winners == top.winners, courts
            assert top.steps[0].faction == S


def test_four_players_at_a_coronation_count_plot_for_its_holder_alone_with_either_plot_team():
    # Courts are compared one by one: the holder's 2 Scots do not reach 3, and the partner's 3 get no
    # Plot (were it counted for them too, their 4 would crown them); player 2's English then decide.
    for option in ("each", "once"):
        result = coronation(4, CROWNED, ["S", "SSSE", "SSS", ""], plot=0, plot_team=option)
        assert result.winners == (1, 3), option
        assert [step for step in result.steps if step.kind == "plot"] == [Step("plot", S, ((0, 1),), (0, 1, 2, 3))]


# -- the invasion ----------------------------------------------------------------------------

def test_plot_completes_a_set_at_an_invasion():
    courts = ["SSWW", "SW"]
    assert invasion(2, INVADED, courts).winners == (1,)  # 0 sets each; player 2 played last
    result = invasion(2, INVADED, courts, plot=0)
    assert result.winners == (0,) and result.ruler == 0
    # The English complete a set (a Scottish follower, the lowest number, would not).
    assert result.steps == (Step("plot", E, ((0, 1),), (0, 1)), Step("sets", None, ((0, 1), (1, 0)), (0,)))
    assert "Plot revealed: player 1 counts it as one English follower. " \
           "Player 1 has the most complete sets: 1 against 0." in result.reason


def test_four_players_plot_team_each_counts_plot_for_both_partners_in_the_pooled_courts():
    # The team of players 1 and 3 pools one Scot; the other team a set. Counted once, Plot completes
    # no set; counted for each partner (a Welsh and an English follower) it ties the sets at 1, and
    # player 3, of the holder's team, played a card last.
    courts = ["S", "SW", "", "E"]
    last_play = [10, 11, 13, 12]
    once = invasion(4, INVADED, courts, plot=0, last_play=last_play, plot_team="once")
    assert once.winners == (1, 3)
    assert once.steps == (Step("plot", S, ((0, 1),), (0, 1, 2, 3)), Step("sets", None, ((0, 0), (1, 1)), (1, 3)))
    each = invasion(4, INVADED, courts, plot=0, last_play=last_play)  # each: the default
    assert each.winners == (0, 2) and each.ruler is None
    assert kinds(each) == ["plot", "plot", "sets", "latest_play"]
    assert each.steps[:2] == (Step("plot", W, ((0, 1),), (0, 1, 2, 3)), Step("plot", E, ((2, 1),), (0, 1, 2, 3)))
    assert "Plot revealed: player 1 counts it as one Welsh follower. " \
           "Plot counts for player 3, the holder's partner, too: as one English follower." in each.reason


# -- plot_tiebreak ---------------------------------------------------------------------------

def test_plot_tiebreak_holder_first_gives_a_tie_left_after_the_counts_to_the_holder():
    # Coronation: 3 Scots (Plot's included) and 1 English each; player 2 emptied their hand first.
    courts = ["SSE", "SSSE"]
    assert coronation(2, CROWNED, courts, plot=0, last_play=[12, 11]).winners == (1,)  # none: the default
    result = coronation(2, CROWNED, courts, plot=0, last_play=[12, 11], plot_tiebreak="holder_first")
    assert result.winners == (0,)
    assert kinds(result) == ["plot", "faction", "faction", "plot_tiebreak"]
    assert result.steps[-1] == Step("plot_tiebreak", None, ((0, 1), (1, 0)), (0,))
    assert result.reason.endswith("Still tied: player 1 holds Plot and wins the tie.")
    # Invasion: a set each (Plot completes player 1's); player 2 played a card last.
    courts = ["SW", "SWE"]
    assert invasion(2, INVADED, courts, plot=0).winners == (1,)
    result = invasion(2, INVADED, courts, plot=0, plot_tiebreak="holder_first")
    assert result.winners == (0,) and result.ruler == 0
    assert result.steps[-1] == Step("plot_tiebreak", None, ((0, 1), (1, 0)), (0,))
    # With 4 players the holder's team wins the invasion's tie.
    result = invasion(4, INVADED, ["SW", "SW", "", "E"], plot=2, plot_tiebreak="holder_first")
    assert result.winners == (0, 2) and result.ruler is None
    assert result.steps[-1] == Step("plot_tiebreak", None, ((0, 0), (1, 0), (2, 1), (3, 0)), (0, 2))
    assert "Still tied: player 3 holds Plot, so the team of players 1 and 3 wins." in result.reason


def test_plot_tiebreak_holder_first_leaves_a_tie_without_the_holder_to_the_hands():
    # Players 1 and 2 tie; player 3 holds Plot but trails: the hands decide, as with "none".
    result = coronation(3, CROWNED, ["SSS", "SSS", "S"], plot=2, plot_tiebreak="holder_first")
    assert result.winners == (0,)
    assert kinds(result) == ["plot", "faction", "faction", "emptied_hand"]


# -- plot_empty_hand -------------------------------------------------------------------------

def test_plot_empty_hand_decides_whether_a_hand_holding_only_plot_is_emptied():
    # Tied after the counts; player 1 played their other last card at play 20, player 2 their last at 22.
    courts, last_play = ["SSE", "SSSE"], [20, 22]
    result = coronation(2, CROWNED, courts, plot=0, last_play=last_play)  # empty: the default
    assert result.winners == (0,)
    assert result.steps[-2:] == (Step("plot_hand", None, ((0, 20),), (0, 1)),
                                 Step("emptied_hand", None, ((0, 20), (1, 22)), (0,)))
    assert "Player 1's hand holds only Plot: it counts as emptied at play 20, with their other last card." \
           in result.reason
    result = coronation(2, CROWNED, courts, plot=0, last_play=last_play, plot_empty_hand="never")
    assert result.winners == (1,)
    assert result.steps[-2:] == (Step("plot_hand", None, ((0, -1),), (0, 1)),
                                 Step("emptied_hand", None, ((0, -1), (1, 22)), (1,)))
    assert "Player 1's hand holds Plot, which is never played: it is not emptied." in result.reason


def test_a_hand_holding_another_cunning_card_is_not_emptied():
    # Player 1 holds Plot and Spy: not emptied with either value, and no plot_hand step.
    for option in ("empty", "never"):
        result = coronation(2, CROWNED, ["SSE", "SSSE"], plot=0, cunning=[SPY, 0], last_play=[20, 22],
                            plot_empty_hand=option)
        assert result.winners == (1,), option
        assert result.steps[-1] == Step("emptied_hand", None, ((0, -1), (1, 22)), (1,))
    # Player 2 holds Spy alone: player 1, holding only Plot, emptied their hand.
    result = coronation(2, CROWNED, ["SSE", "SSSE"], plot=0, cunning=[0, SPY], last_play=[20, 22])
    assert result.winners == (0,) and result.steps[-1].values == ((0, 20), (1, -1))


def test_four_players_a_team_whose_hands_hold_only_plot_emptied_them():
    # Players 1 and 2 tie; player 4 still holds an Assemble. With "empty" the team of players 1 and 3
    # emptied both its hands (at play 24); with "never" no team did, and player 2 emptied theirs.
    courts, last_play, hands = ["SSE", "SSSE", "", ""], [20, 21, 24, 22], [[], [], [], [ASSEMBLE]]
    result = coronation(4, CROWNED, courts, plot=0, last_play=last_play, hands=hands)
    assert result.winners == (0, 2) and result.ruler == 0
    assert result.steps[-1] == Step("emptied_team", None, ((0, 24), (1, -1)), (0,))
    result = coronation(4, CROWNED, courts, plot=0, last_play=last_play, hands=hands, plot_empty_hand="never")
    assert result.winners == (1, 3) and result.ruler == 1
    assert result.steps[-1] == Step("emptied_hand", None, ((0, -1), (1, 21)), (1,))


# -- the steps as data -----------------------------------------------------------------------

def test_plot_steps_are_data_that_records_keep():
    assert {"plot", "plot_tiebreak", "plot_hand"} <= set(STEP_KINDS)
    result = coronation(2, CROWNED, ["SSE", "SSSE"], plot=0, last_play=[20, 22], plot_tiebreak="holder_first")
    data = result.to_dict()
    assert data["steps"][0] == {"kind": "plot", "faction": "Scottish", "values": [[0, 1]], "kept": [0, 1]}
    again = Result.from_dict(data)
    assert again.steps == result.steps and again.reason == result.reason


@pytest.mark.parametrize("option", ["top_only", "any_faction"])
def test_no_plot_no_plot_steps(option):
    # Plot in the box (2 or 3 players): nothing is revealed.
    result = coronation(3, CROWNED, ["SSS", "SSSE", "S"], plot_coronation=option)
    assert result.winners == (1,) and not any(kind.startswith("plot") for kind in kinds(result))
