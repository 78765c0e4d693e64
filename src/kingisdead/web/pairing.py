"""Swiss pairing and standings for turn-based tournaments: pure functions, no database and no web.

:func:`pair_round` pairs one round from the entrants' standing so far; :func:`standings` ranks the entrants
from their results. The tournament service (web/tournaments.py) stores what these return; nothing here reads
a clock or a global random state, so a round paired again with the same entrants and the same generator
(``random.Random(f"{seed}:{round}")``) gives the same tables, seats and first players.

The conventions follow the FIDE Handbook, put in our own words:

- C.04 (Swiss rules), its general rules: players with the same score form a score group; two players meet at
  most once; a player who cannot be paired gets a bye, worth the points of a win here, and a player gets a
  second bye only once everyone else had one.
- C.04.3 (the Dutch system): in the first round, and within each score group afterwards, the players are
  ordered by strength (here: the rating) and the top half meets the bottom half in order (first against the
  first of the lower half, second against the second...); an odd player of a group moves down ("floats") to
  the next group. Colours have no counterpart here: seats and the first player are drawn instead.
- C.02 (tie-breaks), the Buchholz system: the sum of the final scores of the opponents a player met. A bye
  adds nothing to it (FIDE counts a "virtual opponent" for unplayed games; we do not, as the contract says).

Two-player games get the Swiss pairing described in :func:`pair_round`; three and four players sit at
tables grouped by standing, an extension of the same idea that FIDE does not cover.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass

SIZES = (2, 3, 4)
"""The players at one table: the game's player count."""
LOOKAHEAD = 3
"""Three or four players: how many tables' worth of waiting players a table may skip to seat one who met
nobody at it, before it takes the next one in the standing anyway."""


@dataclass(frozen=True)
class Entrant:
    """One entrant as the pairing sees them before a round.

    ``id`` is the entrant's id (any int, unique among the entrants); ``rating`` the account's shown rating for
    the tournament's edition and player count (0 when none); ``points`` the tournament points so far (byes
    included); ``opponents`` the ids of everyone met at a table in an earlier round (ids that are not among
    the entrants, a withdrawn player's, are allowed and ignored); ``byes`` how many byes they had.
    """

    id: int
    rating: float
    points: int
    opponents: frozenset[int]
    byes: int


@dataclass(frozen=True)
class Pairing:
    """One round's pairing.

    ``tables``: the entrant ids at each table in seat order (seat 0 first), best tables first (the table of
    the top of the standing is table 0); every table holds exactly the round's table size.
    ``first_players``: per table, the seat (0 .. size - 1) that plays first.
    ``byes``: the ids of the entrants who sit this round out (each is worth a win), lowest standing first.
    Every entrant is in exactly one table or in ``byes``.
    """

    tables: tuple[tuple[int, ...], ...]
    first_players: tuple[int, ...]
    byes: tuple[int, ...]


@dataclass(frozen=True)
class Standing:
    """One line of the standings: ``rank`` counts from 1 and is shared by equal points and Buchholz."""

    id: int
    rank: int
    points: int
    buchholz: int
    rating: float
    name: str


def pair_round(entrants: Sequence[Entrant], size: int, rng: random.Random) -> Pairing:
    """Pair one round of ``entrants`` at tables of ``size`` (2, 3 or 4) players.

    The standing order is points (highest first), then rating (highest first), then id (lowest first); the
    order of ``entrants`` does not matter. In round 1 every entrant has 0 points, so the order is the rating.

    **Byes.** ``len(entrants) % size`` entrants get a bye: those with the fewest byes so far, the lowest in
    the standing first. With two players that one bye goes, among the entrants with the fewest byes, to the
    lowest-standing one whose absence leaves the others pairable with the fewest repeated opponents (so the
    lowest-standing player without a bye gets it unless that would force a rematch another bye would avoid).

    **Two players** (Swiss): guaranteed, given the bye, that the number of rematches (two players meeting
    again) is the fewest possible, in particular none when a pairing without rematches exists; this is
    exact (a maximum matching of the graph of allowed pairs decides each step), not a heuristic. Within that
    constraint the top unpaired player is paired first, each time with the first possible opponent in this
    order: the Dutch opponent (top half against bottom half of its score group, an odd one floating down),
    then the others of its score group by distance from that one, then the lower score groups in standing
    order. Not guaranteed: that this is the pairing FIDE's full Dutch rules would choose (their finer
    criteria, e.g. about floaters over several rounds, are not applied), nor that scores are as close as
    they could be once a rematch had to be avoided.

    **Three and four players**: the others sit at tables filled from the top of the standing: a table takes
    the highest player left, then each time the first of the next :data:`LOOKAHEAD` x ``size`` players left
    who met nobody at the table yet (the next one in the standing when none did). Then, sweeping the tables
    from the top again and again, a player is exchanged with one at the next table whenever that lowers the
    number of pairs of players at those two tables who met before (the exchange closest in standing first),
    until no such exchange is left. Guaranteed: every table has ``size`` players, and no single exchange
    between two neighbouring tables lowers the number of repeated pairs. Not guaranteed: the fewest repeated
    pairs overall (a chain of exchanges, or one between distant tables, may avoid a repeat that remains;
    docs/performance.md gives how many remain in a simulated 1,000-player tournament).

    **Seats and first player**: for each table in order, the seats are shuffled by ``rng`` and the first
    player's seat is drawn by ``rng`` (``rng.randrange(size)``), so the same entrants and the same seed give
    the same pairing.

    Raises ValueError when ``size`` is not 2, 3 or 4, when there are fewer entrants than ``size``, when two
    entrants share an id, when an entrant lists itself among its opponents, or has negative points or byes,
    or a rating that is not a finite number. Runs in well under a second for 1,000 entrants after 11 rounds
    (docs/performance.md, "Tournament pairing").
    """
    if size not in SIZES:
        raise ValueError(f"a table has 2, 3 or 4 players, not {size!r}")
    if len(entrants) < size:
        raise ValueError(f"{len(entrants)} entrants cannot fill a table of {size}")
    seen: set[int] = set()
    for entrant in entrants:
        if entrant.id in seen:
            raise ValueError(f"entrant {entrant.id} is listed twice")
        seen.add(entrant.id)
        if entrant.id in entrant.opponents:
            raise ValueError(f"entrant {entrant.id} lists itself among its opponents")
        if entrant.points < 0 or entrant.byes < 0:
            raise ValueError(f"entrant {entrant.id} has negative points or byes")
        if not math.isfinite(entrant.rating):
            raise ValueError(f"entrant {entrant.id} has a rating that is not a finite number")
    order = sorted(entrants, key=lambda e: (-e.points, -e.rating, e.id))
    groups: Sequence[Sequence[int]]
    if size == 2:
        groups, byes = _pair_two(order)
    else:
        groups, byes = _group_tables(order, size)
    tables: list[tuple[int, ...]] = []
    first_players: list[int] = []
    for group in groups:
        seats = [order[i].id for i in group]
        rng.shuffle(seats)
        tables.append(tuple(seats))
        first_players.append(rng.randrange(size))
    return Pairing(tables=tuple(tables), first_players=tuple(first_players),
                   byes=tuple(order[i].id for i in byes))


def _bye_order(order: Sequence[Entrant]) -> list[int]:
    """Positions in ``order`` by bye priority: fewest byes first, then the lowest standing first."""
    return sorted(range(len(order)), key=lambda i: (order[i].byes, -i))


def _forbidden(order: Sequence[Entrant]) -> list[set[int]]:
    """For each position, the positions of the entrants it met (either side's list counts)."""
    position = {e.id: i for i, e in enumerate(order)}
    met: list[set[int]] = [set() for _ in order]
    for i, entrant in enumerate(order):
        for other in entrant.opponents:
            j = position.get(other)
            if j is not None:
                met[i].add(j)
                met[j].add(i)
    return met


class _Matcher:
    """Maximum matchings of the graph whose vertices are positions and whose edges are the pairs not met yet.

    Edmonds' blossom algorithm (augmenting paths, odd cycles shrunk to their base), over the vertices
    currently ``active``. The graph is dense in a real tournament (each player met at most one per round), so
    its edges are not listed: a vertex's neighbours are the active vertices outside its ``forbidden`` set.
    """

    def __init__(self, forbidden: list[set[int]]) -> None:
        self.forbidden = forbidden
        self.widest = max((len(f) for f in forbidden), default=0)

    def surely_perfect(self, active: Sequence[int]) -> bool:
        """True when ``active`` (an even count) certainly has a perfect matching, by a cheap sufficient test.

        Dirac's theorem: when every vertex of a graph of n >= 3 vertices has at least n / 2 neighbours, it has
        a Hamiltonian cycle, and every other edge of an even cycle is a perfect matching. A False says nothing.
        """
        count = len(active)
        if count == 0:
            return True
        if self.widest <= count // 2 - 1:
            return True
        members = set(active)
        worst = max(len(self.forbidden[v] & members) for v in active)
        return worst <= count // 2 - 1

    def maximum(self, active: Sequence[int], mate: dict[int, int]) -> dict[int, int]:
        """A maximum matching of the active vertices, grown from ``mate`` (a matching among them, both ways)."""
        mate = dict(mate)
        free = [v for v in active if v not in mate]
        for v in free:  # a greedy start leaves few vertices for the searches
            if v not in mate:
                banned = self.forbidden[v]
                for w in free:
                    if w != v and w not in mate and w not in banned:
                        mate[v] = w
                        mate[w] = v
                        break
        for root in active:
            if root not in mate:
                self._augment(active, mate, root)
        return mate

    def _augment(self, active: Sequence[int], mate: dict[int, int], root: int) -> None:
        """Search one augmenting path from the unmatched ``root`` and flip it into ``mate`` when found."""
        parent: dict[int, int] = {}
        base = {v: v for v in active}
        queued = {root}
        queue = [root]
        head = 0
        while head < len(queue):
            v = queue[head]
            head += 1
            banned = self.forbidden[v]
            for w in active:
                if w == v or w in banned or base[v] == base[w] or mate.get(v) == w:
                    continue
                if w == root or (w in mate and mate[w] in parent):
                    # An odd cycle: shrink it to the base shared by both paths to the root.
                    shared = self._common_base(mate, parent, base, v, w)
                    blossom: set[int] = set()
                    self._mark(mate, parent, base, blossom, v, shared, w)
                    self._mark(mate, parent, base, blossom, w, shared, v)
                    for u in active:
                        if base[u] in blossom:
                            base[u] = shared
                            if u not in queued:
                                queued.add(u)
                                queue.append(u)
                elif w not in parent:
                    parent[w] = v
                    if w not in mate:
                        while True:  # flip the path back to the root
                            previous = parent[w]
                            onward = mate.get(previous)
                            mate[w] = previous
                            mate[previous] = w
                            if onward is None:
                                return
                            w = onward
                    queued.add(mate[w])
                    queue.append(mate[w])

    @staticmethod
    def _common_base(mate: dict[int, int], parent: dict[int, int], base: dict[int, int], a: int, b: int) -> int:
        """The base where the alternating paths from ``a`` and from ``b`` back to the root meet."""
        on_path: set[int] = set()
        while True:
            a = base[a]
            on_path.add(a)
            if a not in mate:
                break
            a = parent[mate[a]]
        while True:
            b = base[b]
            if b in on_path:
                return b
            b = parent[mate[b]]

    @staticmethod
    def _mark(mate: dict[int, int], parent: dict[int, int], base: dict[int, int], blossom: set[int],
              v: int, shared: int, child: int) -> None:
        """Mark the bases on the path from ``v`` down to ``shared`` as in the blossom, linking it to ``child``."""
        while base[v] != shared:
            blossom.add(base[v])
            blossom.add(base[mate[v]])
            parent[v] = child
            child = mate[v]
            v = parent[mate[v]]


def _without(mate: dict[int, int], gone: Iterable[int]) -> dict[int, int]:
    """``mate`` less the pairs that touch ``gone``."""
    drop = set(gone)
    for v in list(drop):
        if v in mate:
            drop.add(mate[v])
    return {v: w for v, w in mate.items() if v not in drop}


def _pair_two(order: Sequence[Entrant]) -> tuple[list[tuple[int, int]], list[int]]:
    """Two-player tables as pairs of positions in ``order`` (see :func:`pair_round`), and the bye, if any."""
    matcher = _Matcher(_forbidden(order))
    everyone = list(range(len(order)))
    byes: list[int] = []
    unpaired = everyone
    if len(order) % 2:
        fewest = min(e.byes for e in order)
        best: tuple[int, int] | None = None
        for candidate in _bye_order(order):
            if order[candidate].byes > fewest:
                break
            rest = [v for v in everyone if v != candidate]
            if matcher.surely_perfect(rest):
                best = (len(rest) // 2, candidate)
                break
            pairs = len(matcher.maximum(rest, {})) // 2
            if best is None or pairs > best[0]:
                best = (pairs, candidate)
                if pairs == len(rest) // 2:
                    break
        assert best is not None  # the entrant with the fewest byes is always a candidate
        byes = [best[1]]
        unpaired = [v for v in everyone if v != best[1]]
    tables: list[tuple[int, int]] = []
    mate: dict[int, int] | None = None  # a maximum matching of `unpaired`, once the cheap test stopped answering
    while unpaired:
        top = unpaired[0]
        perfect: bool | None = None  # whether `unpaired` surely has a pairing without rematches, once asked
        for opponent in _candidates(order, unpaired):
            rest = [v for v in unpaired if v != top and v != opponent]
            allowed = opponent not in matcher.forbidden[top]
            if mate is None:
                if matcher.surely_perfect(rest):
                    if allowed:
                        break
                    if perfect is None:
                        perfect = matcher.surely_perfect(unpaired)
                    if perfect:
                        continue  # a rematch, when a pairing without one is sure to exist
                mate = matcher.maximum(unpaired, {})
            if mate.get(top) == opponent:
                mate = _without(mate, (top, opponent))
                break
            smaller = matcher.maximum(rest, _without(mate, (top, opponent)))
            if len(smaller) // 2 + allowed == len(mate) // 2:
                mate = smaller
                break
        else:  # pragma: no cover - some opponent always keeps the maximum (the one `mate` pairs `top` with)
            raise AssertionError("no opponent keeps the pairing maximal")
        tables.append((top, opponent))
        unpaired = rest
    return tables, byes


def _candidates(order: Sequence[Entrant], unpaired: Sequence[int]) -> Iterator[int]:
    """The opponents of ``unpaired[0]`` in order of preference (see :func:`pair_round`), lazily.

    ``unpaired`` is in standing order, so the top's score group is its first ``group`` members; the top half
    of an even group meets the bottom half, the lowest of an odd group floats down to the next.
    """
    points = order[unpaired[0]].points
    group = 1
    while group < len(unpaired) and order[unpaired[group]].points == points:
        group += 1
    even = group - group % 2
    preferred = even // 2 if even else 1
    yield unpaired[preferred]
    for step in range(1, group):
        for index in (preferred - step, preferred + step):
            if 1 <= index < group and index != preferred:
                yield unpaired[index]
    for index in range(max(group, preferred + 1), len(unpaired)):
        yield unpaired[index]


def _repeats(table: Sequence[int], forbidden: list[set[int]]) -> int:
    """The pairs of players at ``table`` who met before."""
    return sum(1 for i, a in enumerate(table) for b in table[i + 1:] if b in forbidden[a])


def _group_tables(order: Sequence[Entrant], size: int) -> tuple[list[list[int]], list[int]]:
    """Three- or four-player tables as lists of positions in ``order`` (see :func:`pair_round`), and the byes."""
    forbidden = _forbidden(order)
    byes = _bye_order(order)[:len(order) % size]
    away = set(byes)
    waiting = [i for i in range(len(order)) if i not in away]
    tables: list[list[int]] = []
    while waiting:
        table = [waiting.pop(0)]
        while len(table) < size:
            # The first of the next few waiting players who met nobody at the table, or else the first.
            chosen = 0
            for index in range(min(LOOKAHEAD * size, len(waiting))):
                if not any(waiting[index] in forbidden[seated] for seated in table):
                    chosen = index
                    break
            table.append(waiting.pop(chosen))
        tables.append(sorted(table))
    changed = any(forbidden)
    while changed:  # each exchange lowers the repeats by at least one, so this ends
        changed = False
        for upper in range(len(tables) - 1):
            while _exchange(tables[upper], tables[upper + 1], forbidden):
                changed = True
    return tables, sorted(byes, reverse=True)


def _exchange(upper: list[int], lower: list[int], forbidden: list[set[int]]) -> bool:
    """Exchange one player of ``upper`` with one of ``lower`` when that lowers their repeats; True if done.

    The exchanges are tried closest in standing first (positions ``a`` and ``b`` with the smallest ``b - a``).
    The tables stay sorted by standing.
    """
    now = _repeats(upper, forbidden) + _repeats(lower, forbidden)
    if now == 0:
        return False
    for a, b in sorted(((a, b) for a in upper for b in lower), key=lambda pair: (abs(pair[1] - pair[0]), pair)):
        new_upper = sorted([b if v == a else v for v in upper])
        new_lower = sorted([a if v == b else v for v in lower])
        if _repeats(new_upper, forbidden) + _repeats(new_lower, forbidden) < now:
            upper[:] = new_upper
            lower[:] = new_lower
            return True
    return False


def standings(results: Iterable[tuple[int, int, int | None]], ratings: Mapping[int, float],
              names: Mapping[int, str], opponents: Mapping[int, Iterable[int]]) -> list[Standing]:
    """The standings of a tournament's entrants, best first.

    ``results``: ``(entrant id, points, round)`` rows, one per game result or bye (``round`` None for points
    not tied to a round); an entrant's points are the sum of its rows. ``ratings``: every entrant's rating
    (the entrants are exactly its keys; those without rows have 0 points). ``names``: every entrant's name.
    ``opponents``: for each entrant, the ids of the opponents it met, one per game (an opponent met twice is
    listed twice); entrants missing from it met nobody.

    Buchholz (FIDE Handbook C.02, in our words: the sum of the final scores of the opponents met) is the sum
    of the final points of each opponent listed; byes have no opponent, so they add nothing. The order is
    points, then Buchholz, then rating (all highest first), then name, then id; the rank is shared by
    entrants with equal points and Buchholz (competition ranking: 1, 2, 2, 4).

    Raises ValueError when a row or an opponent names an entrant not in ``ratings``, when an entrant has no
    name, or when one entrant has two rows for the same round.
    """
    points = {entrant: 0 for entrant in ratings}
    counted: set[tuple[int, int]] = set()
    for entrant, gained, round_ in results:
        if entrant not in points:
            raise ValueError(f"a result names entrant {entrant}, who has no rating")
        if round_ is not None:
            if (entrant, round_) in counted:
                raise ValueError(f"entrant {entrant} has two results in round {round_}")
            counted.add((entrant, round_))
        points[entrant] += gained
    missing = [entrant for entrant in ratings if entrant not in names]
    if missing:
        raise ValueError(f"entrants {missing} have no name")
    buchholz = {entrant: 0 for entrant in ratings}
    for entrant, met in opponents.items():
        if entrant not in buchholz:
            raise ValueError(f"opponents are given for entrant {entrant}, who has no rating")
        for other in met:
            if other not in points:
                raise ValueError(f"entrant {entrant} met {other}, who has no rating")
            buchholz[entrant] += points[other]
    order = sorted(ratings, key=lambda e: (-points[e], -buchholz[e], -ratings[e], names[e], e))
    lines: list[Standing] = []
    for place, entrant in enumerate(order, start=1):
        shared = lines and (lines[-1].points, lines[-1].buchholz) == (points[entrant], buchholz[entrant])
        rank = lines[-1].rank if shared else place
        lines.append(Standing(id=entrant, rank=rank, points=points[entrant], buchholz=buchholz[entrant],
                              rating=ratings[entrant], name=names[entrant]))
    return lines
