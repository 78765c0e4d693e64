"""Endings and tie-breaks: who won, by which ending, and each comparison that decided it.

The result carries its comparisons as data (:class:`Step`: what is compared, the
values per player, who stays), the same in both engines, and a sentence
rendered from them that a person can check against the board, e.g.
"Coronation: The Welsh rule with 3 regions. Player 2 has the most Welsh
followers: 4 against 3." Every other explanation of a result (the web's end
screen, the terminal, records) renders the steps and never scores again.

In the second edition's advanced game the Cunning card Plot, never played,
is revealed at scoring and counts as one follower of a faction its holder
chooses (:func:`plot_holder`; the options ``plot_coronation``, ``plot_team``,
``plot_tiebreak`` and ``plot_empty_hand`` of :class:`kingisdead.edition.Edition`
say how); its decisions are steps too. The compiled core scores the standard
game only, and this module scores it exactly as the core does.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import product
from typing import TYPE_CHECKING, Any

from .board import FIRST_CUNNING, NUM_CARDS, NUM_REGIONS, Cunning
from .edition import EDITIONS, FIRST

if TYPE_CHECKING:
    from .state import GameState

ENDINGS = ("coronation", "invasion", "mordred")

STEP_KINDS = {
    "faction": "followers of the step's faction at court; the most stay",
    "total": "followers at court in total (the Mordred ending); the most stay",
    "latest_play_out": "each tied player's latest card play (its play number, 0 for none); the one who played "
                       "most recently drops out (a first-edition coronation)",
    "latest_play": "each tied player's latest card play (its play number, 0 for none); the one who played most "
                   "recently wins (an invasion, with 4 players their team; the Mordred ending)",
    "emptied_team": "the play that emptied both hands of the player's team (-1: the team still holds a card); "
                    "the earliest stay (a second-edition coronation with 4 players)",
    "emptied_hand": "the play that emptied the player's hand (-1: a card is left); the earliest stay "
                    "(a second-edition coronation)",
    "earliest_play": "each tied player's latest card play (0 for none) when no tied player emptied their hand; "
                     "the earliest stay (a second-edition coronation)",
    "lowest_seat": "the tied seats, when no tied player emptied their hand; the lowest stays (the second "
                   "edition's option tie_hands=\"lowest_seat\")",
    "sets": "complete sets at court (with 4 players per team, courts pooled, keyed by the team's lower seat: "
            "0 for seats 0 and 2, 1 for seats 1 and 3); the most stay (an invasion)",
    "plot": "the advanced game's Plot revealed (it is never played): the seat whose court counts it as one "
            "follower of the step's faction, and 1; the holder's step comes first, then, at an invasion with 4 "
            "players and plot_team=\"each\", the partner's; everyone stays. The courts compared in the later "
            "steps include it",
    "plot_tiebreak": "each player still tied after the counts, 1 for Plot's holder and 0 for the others; the holder "
                     "stays, at an invasion with 4 players with their partner (option plot_tiebreak=\"holder_first\")",
    "plot_hand": "Plot's holder, whose hand holds Plot alone, where the hands break a tie: the play of their other "
                 "last card (plot_empty_hand=\"empty\": the hand counts as emptied then) or -1 (\"never\": it does "
                 "not); everyone stays",
}
"""Each :attr:`Step.kind` and what its values are."""


@dataclass(frozen=True)
class Step:
    """One comparison of the scoring, in the order the engine makes them.

    ``kind`` is a key of :data:`STEP_KINDS`; ``faction`` the faction compared
    (kind "faction"), or the one Plot counts as (kind "plot"), else None;
    ``values`` the ``(seat, value)`` pairs of
    the players compared, by seat (kind "sets" with 4 players: per team, see
    :data:`STEP_KINDS`); ``kept`` the seats still in contention after it (a
    step that wins an invasion for a team keeps both its seats). The last
    step's ``kept`` are the ruler, or the players sharing the win; with 4
    players at a coronation the ruler's partner wins too.
    """

    kind: str
    faction: int | None
    values: tuple[tuple[int, int], ...]
    kept: tuple[int, ...]

    def value(self, seat: int) -> int:
        """The value compared for ``seat`` (KeyError for a seat not compared)."""
        return dict(self.values)[seat]

    def to_dict(self, factions: Sequence[str]) -> dict[str, Any]:
        """Plain data, the faction by its name in ``factions``."""
        return {"kind": self.kind, "faction": None if self.faction is None else factions[self.faction],
                "values": [list(pair) for pair in self.values], "kept": list(self.kept)}

    @classmethod
    def from_dict(cls, data: dict[str, Any], factions: Sequence[str]) -> Step:
        """Read :meth:`to_dict`'s output (KeyError, TypeError or ValueError when malformed)."""
        if data["kind"] not in STEP_KINDS:
            raise ValueError(f"unknown step kind {data['kind']!r}")
        faction = data["faction"]
        return cls(data["kind"], None if faction is None else factions.index(faction),
                   tuple((int(seat), int(value)) for seat, value in data["values"]),
                   tuple(int(seat) for seat in data["kept"]))


@dataclass(frozen=True)
class Result:
    """The end of a game.

    ``winners`` are seats (0-based); in the 4-player game a team wins together.
    ``ruler`` is the single player crowned or leading the resistance; it is
    None when a 4-player team wins an invasion, and when players stay tied after
    every tie-break because none of them played a card (a case the rulebook does
    not cover: they then share the win). ``ranking`` lists factions from
    most to least powerful (coronation and Mordred endings).
    """

    ending: str
    winners: tuple[int, ...]
    ruler: int | None
    reason: str = field(compare=False)
    ranking: tuple[int, ...] = ()
    steps: tuple[Step, ...] = field(default=(), compare=False)
    factions: tuple[str, ...] = field(default=FIRST.factions, compare=False)
    """The factions' names in the game's edition (for :meth:`to_dict`)."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "ending": self.ending,
            "winners": list(self.winners),
            "ruler": self.ruler,
            "ranking": [self.factions[f] for f in self.ranking],
            "reason": self.reason,
            "steps": [step.to_dict(self.factions) for step in self.steps],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Result:
        """Read :meth:`to_dict`'s output, in either edition's faction names (``steps`` may be
        missing: records written before them). KeyError, TypeError or ValueError when malformed."""
        ranking = data.get("ranking", [])
        named = set(ranking) | {step.get("faction") for step in data.get("steps", []) if isinstance(step, dict)} - {None}
        edition = next((e for e in EDITIONS.values() if named <= set(e.factions)), FIRST)
        return cls(
            ending=data["ending"],
            winners=tuple(data["winners"]),
            ruler=data["ruler"],
            reason=data["reason"],
            ranking=tuple(edition.factions.index(f) for f in ranking),
            steps=tuple(Step.from_dict(step, edition.factions) for step in data.get("steps", [])),
            factions=edition.factions,
        )


def faction_ranking(s: GameState) -> list[list[int]]:
    """Factions in groups of equal rank, strongest first.

    Most regions first; among equals, the faction that won a struggle most
    recently. Factions with no region form one last group (tied with each
    other), or, with the second edition's option ``tie_faction="always"``,
    one group each in faction order.
    """
    regions = [0, 0, 0]
    latest = [-1, -1, -1]
    for position in range(s.resolved):
        faction = s.control[s.order[position]]
        if faction < 3:
            regions[faction] += 1
            latest[faction] = position
    holders = sorted((f for f in range(3) if regions[f]), key=lambda f: (-regions[f], -latest[f]))
    groups = [[f] for f in holders]
    empty = [f for f in range(3) if not regions[f]]
    if s.edition.tie_faction == "always":
        groups += [[f] for f in empty]
    elif empty:
        groups.append(empty)
    return groups


def region_counts(s: GameState) -> list[int]:
    """Regions each faction controls, by faction."""
    counts = [0, 0, 0]
    for r in range(NUM_REGIONS):
        if 0 <= s.control[r] < 3:
            counts[s.control[r]] += 1
    return counts


def compared_factions(s: GameState) -> list[int]:
    """The factions a coronation compares the courts on, in order (the edition's ``tie_faction``).

    ``"strict"``: down the ranking while it is strict (from the top faction,
    which must hold a region); ``"second"``: the same, two factions at most;
    ``"always"``: every faction, those without regions in faction order.
    """
    groups = faction_ranking(s)
    if s.edition.tie_faction == "always":
        return [f for group in groups for f in group]
    regions = region_counts(s)
    compared: list[int] = []
    for rank, group in enumerate(groups):
        if len(group) > 1 or (rank == 0 and not regions[group[0]]):
            break  # the ranking is no longer strict (or no faction holds a region)
        compared.append(group[0])
    return compared[:2] if s.edition.tie_faction == "second" else compared


def _last_player(s: GameState, players: Iterable[int]) -> int | None:
    """The one of ``players`` whose latest card play is the most recent (None if none played)."""
    best = max(players, key=lambda p: s.last_play[p])
    return best if s.last_play[best] else None


def _team(s: GameState, player: int) -> tuple[int, ...]:
    return tuple(sorted((player, (player + 2) % 4))) if s.players == 4 else (player,)


PLOT = 1 << (Cunning.PLOT - FIRST_CUNNING)
"""Plot's bit in :attr:`GameState.cunning <kingisdead.state.GameState.cunning>`."""


def plot_holder(s: GameState) -> int | None:
    """The seat holding Plot in an advanced game (it is never played, so its holder keeps it to the
    end), or None: a standard game, or Plot went back to the box unseen (2 or 3 players)."""
    if not s.edition.advanced:
        return None
    return next((p for p in range(s.players) if s.cunning[p] & PLOT), None)


def _only_plot(s: GameState, player: int) -> bool:
    """Whether ``player``'s hand holds Plot and no other card."""
    return s.cunning[player] == PLOT and not any(s.hands[player * NUM_CARDS:(player + 1) * NUM_CARDS])


def _left(s: GameState, player: int) -> int:
    """The cards ``player`` holds as the hands tie-break counts them: every card, Cunning cards
    included, but Plot not with ``plot_empty_hand="empty"`` (a hand holding Plot alone counts as
    emptied, at its latest card play: the one that played its other last card)."""
    held = s.cunning[player]
    if s.edition.advanced and s.edition.plot_empty_hand == "empty":
        held &= ~PLOT
    return sum(s.hands[player * NUM_CARDS:(player + 1) * NUM_CARDS]) + held.bit_count()


Verdict = tuple[tuple[int, ...], int | None, list[Step]]
"""An ending's winners, ruler and steps."""


def score(s: GameState, ending: str) -> Result:
    """The result of a game that has just ended by ``ending``."""
    holder = plot_holder(s)
    winners, ruler, steps = (_verdict(s, ending, s.courts, None) if holder is None
                             else _with_plot(s, ending, holder))
    ranking = () if ending == "invasion" else tuple(f for g in faction_ranking(s) for f in g)
    return build_result(s, ending, winners, ruler, ranking, steps)


def _verdict(s: GameState, ending: str, courts: Sequence[int], holder: int | None) -> Verdict:
    """Score ``ending`` over ``courts`` (``s.courts``, or with Plot's followers counted), Plot's
    ``holder`` (None: no Plot) breaking ties as the options say."""
    if ending == "invasion":
        return _invasion(s, courts, holder)
    return _coronation(s, ending, courts, holder)


def _plot_choices(s: GameState, ending: str, holder: int) -> list[tuple[tuple[int, int], ...]]:
    """Each way Plot may count, as the ``(seat, faction)`` followers it adds, lowest faction numbers first.

    At a coronation it counts for its holder alone (courts are compared one by one, also with 4
    players): ``plot_coronation="top_only"`` as one follower of the top faction (the first compared,
    :func:`compared_factions`: with at most 2 of 8 regions unstable a faction always rules),
    ``"any_faction"`` of any faction.
    At an invasion it counts as any faction; with 4 players and ``plot_team="each"`` it counts for each
    partner of the holder's team, so the pooled courts gain one follower per partner, each of any faction.
    """
    if ending == "invasion":
        seats = _team(s, holder) if s.edition.plot_team == "each" else (holder,)
        seats = tuple(sorted(seats, key=lambda p: p != holder))  # the holder's own first
        return [tuple(zip(seats, factions)) for factions in product(range(3), repeat=len(seats))]
    if s.edition.plot_coronation == "any_faction":
        return [((holder, f),) for f in range(3)]
    return [((holder, compared_factions(s)[0]),)]


def _outcome(s: GameState, holder: int, winners: Sequence[int]) -> int:
    """How good ``winners`` are for Plot's holder (with 4 players their team): 2 a win of theirs
    alone, 1 a shared win, 0 a loss."""
    team = set(_team(s, holder))
    if not team & set(winners):
        return 0
    return 2 if set(winners) <= team else 1


def _most(steps: list[Step], kind: str, faction: int | None, values: dict[int, int]) -> list[int]:
    """Record a step keeping the players with the largest value; those players."""
    best = max(values.values())
    kept = [p for p in values if values[p] == best]
    steps.append(Step(kind, faction, tuple(values.items()), tuple(kept)))
    return kept


def _earliest(steps: list[Step], kind: str, values: dict[int, int]) -> list[int]:
    """Record a step keeping the players with the smallest value of at least 0; those players."""
    best = min(v for v in values.values() if v >= 0)
    kept = [p for p in values if values[p] == best]
    steps.append(Step(kind, None, tuple(values.items()), tuple(kept)))
    return kept


def _with_plot(s: GameState, ending: str, holder: int) -> Verdict:
    """Score with Plot revealed and counted as its holder's best choice (:func:`_plot_choices`).

    Best: a win of the holder's (team's) alone, then a shared win, then a loss
    (:func:`_outcome`); among equally good choices, which may be every choice
    where none wins, the lowest faction numbers (the holder's own follower
    first), so that the choice is deterministic. The "plot" steps that say what
    it counted as come first.
    """
    best: tuple[int, tuple[tuple[int, int], ...], Verdict] | None = None
    for choice in _plot_choices(s, ending, holder):
        courts = s.courts[:]
        for seat, faction in choice:
            courts[seat * 3 + faction] += 1
        verdict = _verdict(s, ending, courts, holder)
        outcome = _outcome(s, holder, verdict[0])
        if best is None or outcome > best[0]:
            best = (outcome, choice, verdict)
    assert best is not None
    _, choice, (winners, ruler, steps) = best
    everyone = tuple(range(s.players))
    return winners, ruler, [Step("plot", faction, ((seat, 1),), everyone) for seat, faction in choice] + steps


def _coronation(s: GameState, ending: str, courts: Sequence[int], holder: int | None) -> Verdict:
    steps: list[Step] = []
    candidates = list(range(s.players))
    regions = region_counts(s)
    for f in compared_factions(s):
        if ending == "mordred" and not regions[f]:
            break  # Mordred compares the factions that hold regions, then the totals (RULINGS.md)
        candidates = _most(steps, "faction", f, {p: courts[p * 3 + f] for p in candidates})
        if len(candidates) == 1:
            break
    if len(candidates) > 1 and holder in candidates and s.edition.plot_tiebreak == "holder_first":
        steps.append(Step("plot_tiebreak", None, tuple((p, int(p == holder)) for p in candidates), (holder,)))
        candidates = [holder]
    if len(candidates) > 1 and ending == "mordred":
        candidates = _most(steps, "total", None, {p: sum(courts[p * 3:p * 3 + 3]) for p in candidates})
        last = _last_player(s, candidates) if len(candidates) > 1 else None
        if last is not None:
            steps.append(Step("latest_play", None, tuple((p, s.last_play[p]) for p in candidates), (last,)))
            candidates = [last]
    elif len(candidates) > 1 and s.edition.hands_break_ties:
        candidates = _by_hands(s, candidates, steps, holder)
    else:
        while len(candidates) > 1 and (last := _last_player(s, candidates)) is not None:
            values = tuple((p, s.last_play[p]) for p in candidates)
            candidates = [p for p in candidates if p != last]
            steps.append(Step("latest_play_out", None, values, tuple(candidates)))
    ruler = candidates[0] if len(candidates) == 1 else None
    return tuple(sorted({w for p in candidates for w in _team(s, p)})), ruler, steps


def _by_hands(s: GameState, candidates: list[int], steps: list[Step], holder: int | None) -> list[int]:
    """The second edition's last tie-break: the hands (see :class:`kingisdead.edition.Edition`).

    With 4 players a team whose two hands are both empty comes first, the one
    that emptied them earlier first. Then a player who emptied their hand
    beats one who did not, the earlier emptier the later; with no hand
    emptied, the earliest last card play wins (a player who never played
    counts as earliest), or with option ``tie_hands="lowest_seat"`` the
    lowest tied seat.

    A hand is emptied at its latest card play (:attr:`GameState.last_play`),
    the state keeping no other date: once it is empty that play was its last
    card's. A hand that holds Plot (never played) alone is emptied at the
    play of its other last card, its latest play too, with
    ``plot_empty_hand="empty"``, and never with ``"never"`` (:func:`_left`);
    where Plot's holder's hand is so judged, a "plot_hand" step says so.
    """
    if holder is not None and _only_plot(s, holder) and set(_team(s, holder)) & set(candidates):
        emptied = s.last_play[holder] if _left(s, holder) == 0 else -1
        steps.append(Step("plot_hand", None, ((holder, emptied),), tuple(candidates)))
    if s.players == 4:
        def team_emptied(p: int) -> int:
            team = (p, (p + 2) % 4)
            return max(s.last_play[q] for q in team) if all(_left(s, q) == 0 for q in team) else -1

        values = {p: team_emptied(p) for p in candidates}
        if max(values.values()) >= 0:
            candidates = _earliest(steps, "emptied_team", values)
    if len(candidates) == 1:
        return candidates
    values = {p: s.last_play[p] if _left(s, p) == 0 else -1 for p in candidates}
    if max(values.values()) >= 0:
        return _earliest(steps, "emptied_hand", values)
    if s.edition.tie_hands == "lowest_seat":
        steps.append(Step("lowest_seat", None, tuple((p, p) for p in candidates), (min(candidates),)))
        return [min(candidates)]
    return _earliest(steps, "earliest_play", {p: s.last_play[p] for p in candidates})


def _sets(courts: Sequence[int], players: tuple[int, ...]) -> int:
    return min(sum(courts[p * 3 + f] for p in players) for f in range(3))


def _sides(s: GameState) -> list[tuple[int, ...]]:
    """Who compares complete sets at an invasion: each player, or with 4 players each team."""
    return [(0, 2), (1, 3)] if s.players == 4 else [(p,) for p in range(s.players)]


def _invasion(s: GameState, courts: Sequence[int], holder: int | None) -> Verdict:
    sides = _sides(s)
    sets = {side: _sets(courts, side) for side in sides}
    best = max(sets.values())
    leaders = [side for side in sides if sets[side] == best]
    tied = tuple(sorted(p for side in leaders for p in side))
    steps = [Step("sets", None, tuple((side[0], n) for side, n in sets.items()), tied)]
    if len(leaders) == 1:
        return leaders[0], (leaders[0][0] if s.players != 4 else None), steps
    if holder in tied and s.edition.plot_tiebreak == "holder_first":
        side = next(side for side in leaders if holder in side)
        steps.append(Step("plot_tiebreak", None, tuple((p, int(p == holder)) for p in tied), side))
        return side, (holder if s.players != 4 else None), steps
    last = _last_player(s, tied)
    if last is None:
        return tied, None, steps
    winners = next(side for side in leaders if last in side)
    steps.append(Step("latest_play", None, tuple((p, s.last_play[p]) for p in tied), winners))
    return winners, (last if s.players != 4 else None), steps


def build_result(s: GameState, ending: str, winners: Sequence[int], ruler: int | None, ranking: Sequence[int],
                 steps: Iterable[Step | tuple]) -> Result:
    """The :class:`Result` of ``s``, finished by ``ending``, from an engine's verdict and steps.

    Both engines score; this puts their verdict in a Result with the sentence
    rendered from the steps (given as :class:`Step` or as the compiled core's
    ``(kind, faction or None, [(seat, value)...], [seat...])`` tuples).
    """
    read = tuple(step if isinstance(step, Step) else
                 Step(step[0], step[1], tuple((int(p), int(v)) for p, v in step[2]), tuple(step[3]))
                 for step in steps)
    result = Result(ending, tuple(winners), ruler, "", tuple(ranking), read, s.edition.factions)
    return Result(ending, result.winners, ruler, reason(s, result), result.ranking, read, s.edition.factions)


def _who(players: Iterable[int]) -> str:
    names = [f"player {p + 1}" for p in players]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _against(step: Step) -> str:
    """`` against 3`` (the best value of those left out), or nothing when everyone stays."""
    others = sorted({v for p, v in step.values if p not in step.kept}, reverse=True)
    return f" against {others[0]}" if others else ""


def _latest(step: Step) -> int:
    """The player who played most recently among those a play step compares."""
    return max(step.values, key=lambda pair: pair[1])[0]


def _plays(step: Step) -> str:
    """``play 14 against 16``: the kept value against the others', as a play step compares them."""
    kept = sorted({v for p, v in step.values if p in step.kept})
    others = sorted({v for p, v in step.values if p not in step.kept and v >= 0})
    return f"play {kept[0]}" + (f" against {' and '.join(str(v) for v in others)}" if others else "")


def step_sentence(step: Step, s: GameState, ending: str) -> str:
    """One step in English words, as :attr:`Result.reason` says it (``s``: the game ``ending`` finished)."""
    who = _who(step.kept).capitalize()
    n = len(step.kept)
    if step.kind == "faction":
        assert step.faction is not None
        name = s.edition.factions[step.faction]
        best = step.value(step.kept[0])
        if n == 1:
            return f"{who} has the most {name} followers: {best}{_against(step)}."
        return f"{who} tie with {best} {name} followers each."
    if step.kind == "total":
        return f"Most followers at court in total: {_who(step.kept)} with {step.value(step.kept[0])}."
    if step.kind == "latest_play_out":
        out = next(p for p, _ in step.values if p not in step.kept)
        return f"Still tied: {_who([out])} played a card last and drops out."
    if step.kind == "latest_play":
        last = _latest(step)
        if ending == "invasion":
            return f"Player {last + 1} played a card last, so {_side_label(s, step.kept)} wins."
        return f"Still tied: {_who([last])} played a card last and wins."
    if step.kind == "emptied_team":
        return f"Still tied: {_who(step.kept)}'s team emptied both its hands first ({_plays(step)}) " \
               f"and win{'s' if n == 1 else ''}."
    if step.kind == "emptied_hand":
        return f"Still tied: {_who(step.kept)} emptied their hand first ({_plays(step)}) " \
               f"and win{'s' if n == 1 else ''}."
    if step.kind == "earliest_play":
        return f"Still tied, and no hand emptied: {_who(step.kept)} played their last card earliest " \
               f"({_plays(step)}) and win{'s' if n == 1 else ''}."
    if step.kind == "lowest_seat":
        return f"Still tied, and no hand emptied: {_who(step.kept)}, in the lowest seat, wins."
    if step.kind.startswith("plot"):
        return _plot_sentence(step, s, ending)
    assert step.kind == "sets"
    best = max(v for _, v in step.values)
    leaders = [p for p, v in step.values if v == best]
    if len(leaders) == 1:
        label = _side_label(s, step.kept)
        return f"{label[0].upper() + label[1:]} has the most complete sets: {best}{_against(step)}."
    labels = " and ".join(_side_label(s, (p, p + 2) if s.players == 4 else (p,)) for p in leaders)
    return f"Tie at {best} complete set{'' if best == 1 else 's'} between {labels}."


def _plot_sentence(step: Step, s: GameState, ending: str) -> str:
    """A Plot step (kinds "plot", "plot_tiebreak", "plot_hand") in words."""
    seat, value = step.values[0]
    if step.kind == "plot":
        assert step.faction is not None
        name = s.edition.factions[step.faction]
        if seat != plot_holder(s):
            return f"Plot counts for {_who([seat])}, the holder's partner, too: as one {name} follower."
        return f"Plot revealed: {_who([seat])} counts it as one {name} follower."
    if step.kind == "plot_tiebreak":
        holder = next(p for p, v in step.values if v)
        if ending == "invasion":
            return f"Still tied: player {holder + 1} holds Plot, so {_side_label(s, step.kept)} wins."
        return f"Still tied: player {holder + 1} holds Plot and wins the tie."
    assert step.kind == "plot_hand"
    if value >= 0:
        return f"{_who([seat]).capitalize()}'s hand holds only Plot: it counts as emptied at play {value}, " \
               f"with their other last card."
    return f"{_who([seat]).capitalize()}'s hand holds Plot, which is never played: it is not emptied."


def _side_label(s: GameState, seats: Sequence[int]) -> str:
    """``player 2`` (``seats``: one), or with 4 players ``the team of players 1 and 3`` (its two seats)."""
    if s.players == 4:
        a, b = sorted(seats)
        return f"the team of players {a + 1} and {b + 1}"
    return f"player {seats[0] + 1}"


def reason(s: GameState, result: Result) -> str:
    """The sentence explaining ``result``, the result of ``s``: its steps in words, with the facts of
    the ending (the ruling faction, the invaders) and the outcome (a shared win, a partner)."""
    steps = result.steps
    if result.ending == "invasion":
        if s.edition.invaders == "Saxons":
            words = [f"Four Saxon tokens: the Saxons invade ({s.saxons} of {NUM_REGIONS} regions fell)."
                     if s.saxons >= 4 else "The Saxons invade."]
        else:
            words = [f"The third instability disc has left France: invasion ({s.saxons} regions unstable)."]
        words += [step_sentence(step, s, "invasion") for step in steps]
        if steps[-1].kind == "sets" and len(steps[-1].kept) > (2 if s.players == 4 else 1):  # tied, nobody played
            words.append("None of them played a card: they share the win.")
        return "Invasion: " + " ".join(words)
    words = ["The Loyalists won a struggle: Mordred ends the game."] if result.ending == "mordred" else []
    regions = region_counts(s)
    if result.ranking and regions[result.ranking[0]]:
        n = regions[result.ranking[0]]
        words.append(f"The {s.edition.factions[result.ranking[0]]} rule with {n} region{'' if n == 1 else 's'}.")
    words += [step_sentence(step, s, result.ending) for step in steps]
    if result.ruler is None:
        tied = steps[-1].kept if steps else tuple(range(s.players))
        why = "nothing parts them" if s.edition.hands_break_ties else "none played a card"
        words.append(f"{_who(tied).capitalize()} stay tied ({why}) and share the win.")
    elif s.players == 4:
        words.append(f"Player {(result.ruler + 2) % 4 + 1} shares the victory as partner.")
    title = "Coronation" if result.ending == "coronation" else "Mordred"
    return f"{title}: " + " ".join(words)
