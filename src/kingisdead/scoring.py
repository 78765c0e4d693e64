"""Endings and tie-breaks: who won, by which ending, and the deciding comparison.

The result carries a sentence a person can check against the board, e.g.
"Coronation: the Welsh rule (3 regions). Player 2 has the most Welsh
followers: 4 against 3."
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .board import NUM_REGIONS
from .edition import EDITIONS, FIRST

if TYPE_CHECKING:
    from .state import GameState

ENDINGS = ("coronation", "invasion", "mordred")


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
    reason: str
    ranking: tuple[int, ...] = ()
    steps: tuple[str, ...] = field(default=(), compare=False)
    factions: tuple[str, ...] = field(default=FIRST.factions, compare=False)
    """The factions' names in the game's edition (for :meth:`to_dict`)."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "ending": self.ending,
            "winners": list(self.winners),
            "ruler": self.ruler,
            "ranking": [self.factions[f] for f in self.ranking],
            "reason": self.reason,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Result:
        """Read :meth:`to_dict`'s output, in either edition's faction names."""
        ranking = data.get("ranking", [])
        edition = next((e for e in EDITIONS.values() if set(ranking) <= set(e.factions)), FIRST)
        return cls(
            ending=data["ending"],
            winners=tuple(data["winners"]),
            ruler=data["ruler"],
            reason=data["reason"],
            ranking=tuple(edition.factions.index(f) for f in ranking),
            factions=edition.factions,
        )


def _who(players: list[int]) -> str:
    names = [f"player {p + 1}" for p in players]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


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


def _region_counts(s: GameState) -> list[int]:
    counts = [0, 0, 0]
    for r in range(NUM_REGIONS):
        if s.control[r] < 3:
            counts[s.control[r]] += 1
    return counts


def _last_player(s: GameState, players: list[int]) -> int | None:
    """The one of ``players`` whose latest card play is the most recent (None if none played)."""
    best = max(players, key=lambda p: s.last_play[p])
    return best if s.last_play[best] else None


def _team(s: GameState, player: int) -> tuple[int, ...]:
    return tuple(sorted((player, (player + 2) % 4))) if s.players == 4 else (player,)


def score(s: GameState, ending: str) -> Result:
    """The result of a game that has just ended by ``ending``."""
    if ending == "invasion":
        return _invasion(s)
    return _coronation(s, ending)


def _coronation(s: GameState, ending: str) -> Result:
    groups = faction_ranking(s)
    regions = _region_counts(s)
    ranking = tuple(f for g in groups for f in g)
    steps: list[str] = []
    if ending == "mordred":
        steps.append("The Loyalists won a struggle: Mordred ends the game.")
    candidates = list(range(s.players))
    names = s.edition.factions
    for rank, group in enumerate(groups):
        if len(group) > 1 or (rank == 0 and not regions[group[0]]):
            break  # the ranking is no longer strict (or no faction holds a region)
        f = group[0]
        name = names[f]
        counts = {p: s.courts[p * 3 + f] for p in candidates}
        best = max(counts.values())
        leaders = [p for p in candidates if counts[p] == best]
        if rank == 0:
            steps.append(f"The {name} rule with {regions[f]} region{'' if regions[f] == 1 else 's'}.")
        others = sorted({counts[p] for p in candidates if counts[p] != best}, reverse=True)
        if len(leaders) == 1:
            against = f" against {others[0]}" if others else ""
            steps.append(f"{_who(leaders).capitalize()} has the most {name} followers: {best}{against}.")
        else:
            steps.append(f"{_who(leaders).capitalize()} tie with {best} {name} followers each.")
        candidates = leaders
        if len(candidates) == 1:
            break
    if len(candidates) > 1 and ending == "mordred":
        totals = {p: sum(s.courts[p * 3:p * 3 + 3]) for p in candidates}
        best = max(totals.values())
        candidates = [p for p in candidates if totals[p] == best]
        steps.append(f"Most followers at court in total: {_who(candidates)} with {best}.")
        if len(candidates) > 1:
            last = _last_player(s, candidates)
            if last is not None:
                steps.append(f"Still tied: {_who([last])} played a card last and wins.")
                candidates = [last]
    if len(candidates) > 1 and s.edition.hands_break_ties:
        candidates = _by_hands(s, candidates, steps)
    while len(candidates) > 1 and ending != "mordred" and not s.edition.hands_break_ties:
        last = _last_player(s, candidates)
        if last is None:
            break
        steps.append(f"Still tied: {_who([last])} played a card last and drops out.")
        candidates.remove(last)
    ruler = candidates[0] if len(candidates) == 1 else None
    if ruler is None:
        why = "nothing parts them" if s.edition.hands_break_ties else "none played a card"
        steps.append(f"{_who(candidates).capitalize()} stay tied ({why}) and share the win.")
    winners = tuple(sorted({w for p in candidates for w in _team(s, p)}))
    if s.players == 4 and ruler is not None:
        steps.append(f"Player {(ruler + 2) % 4 + 1} shares the victory as partner.")
    title = "Coronation" if ending == "coronation" else "Mordred"
    return Result(ending, winners, ruler, f"{title}: " + " ".join(steps), ranking, tuple(steps), names)


def _by_hands(s: GameState, candidates: list[int], steps: list[str]) -> list[int]:
    """The second edition's last tie-break: the hands (see :class:`kingisdead.edition.Edition`).

    A player who emptied their hand beats one who did not, the earlier emptier
    the later; with no hand emptied, the earliest last card play wins (a player
    who never played counts as earliest). With 4 players a team whose two hands
    are both empty comes first, the one that emptied them earlier first. Option
    ``tie_hands="lowest_seat"`` gives the tie to the lowest seat instead.
    """
    if s.edition.tie_hands == "lowest_seat":
        steps.append(f"Still tied: {_who([min(candidates)])}, in the lowest seat, wins.")
        return [min(candidates)]

    def left(p: int) -> int:
        return sum(s.hands[p * 7:p * 7 + 7])

    def key(p: int) -> tuple[int, ...]:
        own = (left(p) > 0, s.last_play[p])
        if s.players != 4:
            return own
        team = (p, (p + 2) % 4)
        emptied = all(left(q) == 0 for q in team)
        return (0, max(s.last_play[q] for q in team)) + own if emptied else (1, 0) + own

    best = min(key(p) for p in candidates)
    winners = [p for p in candidates if key(p) == best]
    if len(winners) < len(candidates):
        if s.players == 4 and best[0] == 0:
            how = "their team emptied both its hands first"
        elif not best[-2]:
            how = "emptied their hand first"
        else:
            how = "made their last card play earliest"
        steps.append(f"Still tied: {_who(winners)} {how} and win{'s' if len(winners) == 1 else ''}.")
    return winners


def _sets(courts: list[int], players: tuple[int, ...]) -> int:
    return min(sum(courts[p * 3 + f] for p in players) for f in range(3))


def _invasion(s: GameState) -> Result:
    if s.players == 4:
        sides: list[tuple[int, ...]] = [(0, 2), (1, 3)]
        label = {sides[0]: "the team of players 1 and 3", sides[1]: "the team of players 2 and 4"}
    else:
        sides = [(p,) for p in range(s.players)]
        label = {side: f"player {side[0] + 1}" for side in sides}
    sets = {side: _sets(s.courts, side) for side in sides}
    best = max(sets.values())
    leaders = [side for side in sides if sets[side] == best]
    if s.edition.invaders == "Saxons":
        steps = [f"Four Saxon tokens: the Saxons invade ({s.saxons} of {NUM_REGIONS} regions fell)."
                 if s.saxons >= 4 else "The Saxons invade."]
    else:
        steps = [f"The third instability disc has left France: invasion ({s.saxons} regions unstable)."]
    others = sorted({v for side, v in sets.items() if v != best}, reverse=True)
    ruler: int | None = None
    if len(leaders) == 1:
        against = f" against {others[0]}" if others else ""
        steps.append(f"{label[leaders[0]][0].upper() + label[leaders[0]][1:]} has the most complete sets: {best}{against}.")
        winners = leaders[0]
        ruler = winners[0] if len(winners) == 1 else None
    else:
        steps.append(f"Tie at {best} complete set{'' if best == 1 else 's'} between {' and '.join(label[x] for x in leaders)}.")
        tied_players = [p for side in (leaders if s.players != 4 else sides) for p in side]
        last = _last_player(s, tied_players)
        if last is None:
            winners = tuple(sorted(p for side in leaders for p in side))
            steps.append("None of them played a card: they share the win.")
        else:
            winners = next(side for side in leaders if last in side)
            ruler = last if s.players != 4 else None
            steps.append(f"Player {last + 1} played a card last, so {label[winners]} wins.")
    return Result("invasion", tuple(sorted(winners)), ruler, "Invasion: " + " ".join(steps), (), tuple(steps),
                  s.edition.factions)

