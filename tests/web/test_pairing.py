"""Tournament pairing and standings (web/pairing.py): properties checked by Hypothesis against brute force on
small fields, the first round's Dutch halves, bad input, and a standings example worked out by hand."""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kingisdead.web.pairing import Entrant, Pairing, Standing, pair_round, standings


@st.composite
def fields(draw: st.DrawFn, size: int, most: int) -> list[Entrant]:
    """A field of ``size`` .. ``most`` entrants with random points, ratings, byes and a symmetric history."""
    count = draw(st.integers(min_value=size, max_value=most))
    ids = draw(st.lists(st.integers(min_value=0, max_value=10_000), min_size=count, max_size=count, unique=True))
    met: dict[int, set[int]] = {i: set() for i in ids}
    for a, b in itertools.combinations(ids, 2):
        if draw(st.integers(min_value=0, max_value=9)) < 4:
            met[a].add(b)
            met[b].add(a)
    return [Entrant(id=i, rating=float(draw(st.integers(min_value=0, max_value=30)) * 50),
                    points=draw(st.integers(min_value=0, max_value=6)), opponents=frozenset(met[i]),
                    byes=draw(st.integers(min_value=0, max_value=2)))
            for i in ids]


def standing_order(entrants: Sequence[Entrant]) -> list[Entrant]:
    """The standing pair_round documents: points, rating (highest first), then id."""
    return sorted(entrants, key=lambda e: (-e.points, -e.rating, e.id))


def repeats(tables: Sequence[Sequence[int]], entrants: Sequence[Entrant]) -> int:
    """Pairs of players at one table who met before."""
    met = {e.id: e.opponents for e in entrants}
    return sum(1 for table in tables for a, b in itertools.combinations(table, 2) if b in met[a] or a in met[b])


def fewest_rematches(ids: list[int], entrants: Sequence[Entrant]) -> int:
    """Brute force: the fewest rematches over every way of pairing ``ids`` (an even count)."""
    if not ids:
        return 0
    first, others = ids[0], ids[1:]
    met = {e.id: e.opponents for e in entrants}
    return min((1 if other in met[first] else 0) + fewest_rematches([i for i in others if i != other], entrants)
               for other in others)


def check_shape(pairing: Pairing, entrants: Sequence[Entrant], size: int) -> None:
    """Every entrant exactly once at a table or among the byes; full tables; the bye count; seats in range."""
    placed = [i for table in pairing.tables for i in table] + list(pairing.byes)
    assert sorted(placed) == sorted(e.id for e in entrants)
    assert all(len(table) == size for table in pairing.tables)
    assert len(pairing.byes) == len(entrants) % size
    assert len(pairing.first_players) == len(pairing.tables)
    assert all(0 <= first < size for first in pairing.first_players)


@settings(max_examples=100, deadline=None)
@given(fields(2, 9), st.integers())
def test_two_players_fewest_rematches_and_the_bye(entrants: list[Entrant], seed: int) -> None:
    """Two players: the bye goes to one of the fewest byes, the lowest standing whose absence allows the fewest
    rematches, and the pairing has the fewest rematches brute force finds (none when none is possible)."""
    pairing = pair_round(entrants, 2, random.Random(seed))
    check_shape(pairing, entrants, 2)
    order = standing_order(entrants)
    ids = [e.id for e in order]
    if len(entrants) % 2:
        fewest = min(e.byes for e in entrants)
        candidates = [e.id for e in reversed(order) if e.byes == fewest]
        costs = [fewest_rematches([i for i in ids if i != c], entrants) for c in candidates]
        assert pairing.byes == (candidates[costs.index(min(costs))],)
        assert repeats(pairing.tables, entrants) == min(costs)
    else:
        assert repeats(pairing.tables, entrants) == fewest_rematches(ids, entrants)


@settings(max_examples=60, deadline=None)
@given(fields(2, 9).map(lambda field: [Entrant(e.id, e.rating, e.points, frozenset(), e.byes) for e in field]))
def test_two_players_without_history_the_bye_goes_to_the_lowest_without_one(entrants: list[Entrant]) -> None:
    """No rematch to avoid: the bye goes to the lowest-standing entrant among those with the fewest byes."""
    pairing = pair_round(entrants, 2, random.Random(1))
    if len(entrants) % 2:
        fewest = min(e.byes for e in entrants)
        assert pairing.byes == ([e.id for e in standing_order(entrants) if e.byes == fewest][-1],)
    else:
        assert pairing.byes == ()


@settings(max_examples=60, deadline=None)
@given(st.sampled_from([3, 4]).flatmap(lambda size: st.tuples(st.just(size), fields(size, 14))), st.integers())
def test_three_and_four_players(sized: tuple[int, list[Entrant]], seed: int) -> None:
    """Full tables; the leftover players' byes by fewest byes then lowest standing; no exchange of two players
    between neighbouring tables would lower the repeated pairs."""
    size, entrants = sized
    pairing = pair_round(entrants, size, random.Random(seed))
    check_shape(pairing, entrants, size)
    order = standing_order(entrants)
    by_bye = sorted(range(len(order)), key=lambda i: (order[i].byes, -i))
    assert sorted(pairing.byes) == sorted(order[i].id for i in by_bye[:len(entrants) % size])
    tables = [list(table) for table in pairing.tables]
    for upper, lower in itertools.pairwise(tables):
        now = repeats([upper, lower], entrants)
        for a, b in itertools.product(upper, lower):
            swapped = [[b if v == a else v for v in upper], [a if v == b else v for v in lower]]
            assert repeats(swapped, entrants) >= now


@settings(max_examples=60, deadline=None)
@given(st.sampled_from([2, 3, 4]).flatmap(lambda size: st.tuples(st.just(size), fields(size, 12))), st.integers(),
       st.randoms(use_true_random=False))
def test_same_seed_same_pairing_whatever_the_input_order(sized: tuple[int, list[Entrant]], seed: int,
                                                          shuffler: random.Random) -> None:
    """The pairing depends on the entrants and the seed only, not on the order the entrants are given in."""
    size, entrants = sized
    shuffled = list(entrants)
    shuffler.shuffle(shuffled)
    assert pair_round(entrants, size, random.Random(seed)) == pair_round(shuffled, size, random.Random(seed))


def test_seats_and_first_players_come_from_the_generator() -> None:
    """Different seeds draw different seats or first players for the same tables (40 tables: not by chance)."""
    field = [Entrant(id=i, rating=2000 - i, points=0, opponents=frozenset(), byes=0) for i in range(80)]
    one, two = pair_round(field, 2, random.Random("7:1")), pair_round(field, 2, random.Random("7:2"))
    assert [sorted(t) for t in one.tables] == [sorted(t) for t in two.tables]
    assert (one.tables, one.first_players) != (two.tables, two.first_players)


def test_round_one_top_half_meets_bottom_half_by_rating() -> None:
    """Round 1 (everyone on 0 points): the Dutch halves by rating, 1st v 5th, 2nd v 6th...; the bye to the lowest."""
    ratings = [1900, 1400, 1800, 1300, 1700, 1200, 1600, 1500, 1000]
    field = [Entrant(id=i, rating=r, points=0, opponents=frozenset(), byes=0) for i, r in enumerate(ratings)]
    pairing = pair_round(field, 2, random.Random(3))
    assert pairing.byes == (8,)  # rated 1000
    by_rating = {r: i for i, r in enumerate(ratings)}
    expected = [{by_rating[a], by_rating[b]} for a, b in [(1900, 1500), (1800, 1400), (1700, 1300), (1600, 1200)]]
    assert [set(table) for table in pairing.tables] == expected


def test_score_groups_pair_within_and_the_odd_one_floats_down() -> None:
    """Points first: 3 on 2 points (the lowest floats down), 3 on 0 points; nobody met before."""
    field = [Entrant(id=i, rating=1500 - 10 * i, points=2 if i < 3 else 0, opponents=frozenset(), byes=0)
             for i in range(6)]
    pairing = pair_round(field, 2, random.Random(0))
    assert [set(table) for table in pairing.tables] == [{0, 1}, {2, 3}, {4, 5}]


def test_a_rematch_is_avoided_by_looking_further() -> None:
    """The top pair met already: the top player meets the next possible one, and nobody meets twice."""
    met = {0: {1}, 1: {0}}
    field = [Entrant(id=i, rating=1500 - i, points=2 if i < 2 else 0, opponents=frozenset(met.get(i, ())), byes=0)
             for i in range(4)]
    pairing = pair_round(field, 2, random.Random(0))
    assert repeats(pairing.tables, field) == 0
    assert [set(table) for table in pairing.tables] == [{0, 2}, {1, 3}]


def test_a_thousand_players_late_in_the_tournament_have_no_rematch() -> None:
    """1,000 players, 11 rounds played without repeats by a simple schedule: round 12 avoids every rematch."""
    count = 1000
    met: dict[int, set[int]] = {i: set() for i in range(count)}
    for shift in range(1, 12):  # a circle schedule: i meets i + shift (mod count) in the round of that shift
        for i in range(count):
            met[i].add((i + shift) % count)
            met[(i + shift) % count].add(i)
    field = [Entrant(id=i, rating=1500.0, points=(i * 7) % 12, opponents=frozenset(met[i]), byes=0)
             for i in range(count)]
    pairing = pair_round(field, 2, random.Random(12))
    check_shape(pairing, field, 2)
    assert repeats(pairing.tables, field) == 0


@pytest.mark.parametrize(("entrants", "size", "message"), [
    ([Entrant(1, 1500, 0, frozenset(), 0)] * 2, 2, "listed twice"),
    ([Entrant(1, 1500, 0, frozenset(), 0), Entrant(2, 1500, 0, frozenset(), 0)], 5, "2, 3 or 4"),
    ([Entrant(1, 1500, 0, frozenset(), 0), Entrant(2, 1500, 0, frozenset(), 0)], 1, "2, 3 or 4"),
    ([Entrant(1, 1500, 0, frozenset(), 0), Entrant(2, 1500, 0, frozenset(), 0)], 3, "cannot fill"),
    ([Entrant(1, 1500, 0, frozenset(), 0)], 2, "cannot fill"),
    ([], 2, "cannot fill"),
    ([Entrant(1, 1500, 0, frozenset({1}), 0), Entrant(2, 1500, 0, frozenset(), 0)], 2, "itself"),
    ([Entrant(1, 1500, -2, frozenset(), 0), Entrant(2, 1500, 0, frozenset(), 0)], 2, "negative"),
    ([Entrant(1, 1500, 0, frozenset(), -1), Entrant(2, 1500, 0, frozenset(), 0)], 2, "negative"),
    ([Entrant(1, float("nan"), 0, frozenset(), 0), Entrant(2, 1500, 0, frozenset(), 0)], 2, "finite"),
])
def test_bad_input_is_refused(entrants: list[Entrant], size: int, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        pair_round(entrants, size, random.Random(0))


def test_standings_by_hand() -> None:
    """Five players, two rounds, 2/1/0 points. Round 1: Ann beat Bob, Cy beat Dee, Eve's bye. Round 2: Ann beat
    Eve, Bob beat Dee, Cy's bye. Fay and Gus entered and withdrew before playing.

    Points: Ann 4, Cy 4, Bob 2, Eve 2, Dee 0, Fay 0, Gus 0.
    Buchholz: Ann = Bob 2 + Eve 2 = 4; Cy = Dee 0 = 0 (the bye adds nothing); Bob = Ann 4 + Dee 0 = 4;
    Eve = Ann 4 = 4; Dee = Cy 4 + Bob 2 = 6; Fay and Gus 0.
    So: Ann 1st (4, 4), Cy 2nd (4, 0); Bob and Eve share 3rd (2, 4), Eve first by rating; Dee 5th; Fay and Gus
    share 6th (0, 0) with equal ratings, in name order.
    """
    ann, bob, cy, dee, eve, fay, gus = range(1, 8)
    results = [(ann, 2, 1), (bob, 0, 1), (cy, 2, 1), (dee, 0, 1), (eve, 2, 1),
               (ann, 2, 2), (eve, 0, 2), (bob, 2, 2), (dee, 0, 2), (cy, 2, 2)]
    ratings = {ann: 1500.0, bob: 1500.0, cy: 1400.0, dee: 1450.0, eve: 1600.0, fay: 1300.0, gus: 1300.0}
    names = {ann: "Ann", bob: "Bob", cy: "Cy", dee: "Dee", eve: "Eve", fay: "Fay", gus: "Gus"}
    opponents = {ann: [bob, eve], bob: [ann, dee], cy: [dee], dee: [cy, bob], eve: [ann]}
    assert standings(results, ratings, names, opponents) == [
        Standing(id=ann, rank=1, points=4, buchholz=4, rating=1500.0, name="Ann"),
        Standing(id=cy, rank=2, points=4, buchholz=0, rating=1400.0, name="Cy"),
        Standing(id=eve, rank=3, points=2, buchholz=4, rating=1600.0, name="Eve"),
        Standing(id=bob, rank=3, points=2, buchholz=4, rating=1500.0, name="Bob"),
        Standing(id=dee, rank=5, points=0, buchholz=6, rating=1450.0, name="Dee"),
        Standing(id=fay, rank=6, points=0, buchholz=0, rating=1300.0, name="Fay"),
        Standing(id=gus, rank=6, points=0, buchholz=0, rating=1300.0, name="Gus"),
    ]


@pytest.mark.parametrize(("results", "names", "opponents", "message"), [
    ([(9, 2, 1)], {1: "Ann", 2: "Bob"}, {}, "no rating"),
    ([(1, 2, 1), (1, 0, 1)], {1: "Ann", 2: "Bob"}, {}, "two results in round 1"),
    ([], {1: "Ann"}, {}, "no name"),
    ([], {1: "Ann", 2: "Bob"}, {1: [9]}, "met 9"),
    ([], {1: "Ann", 2: "Bob"}, {9: [1]}, "no rating"),
])
def test_standings_refuse_bad_input(results: list[tuple[int, int, int | None]], names: dict[int, str],
                                    opponents: dict[int, list[int]], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        standings(results, {1: 1500.0, 2: 1500.0}, names, opponents)


def test_standings_add_points_without_a_round() -> None:
    """Rows without a round (an adjustment) add up with the others and are never taken for a second result."""
    table = standings([(1, 2, None), (1, 1, None), (2, 2, 1)], {1: 0.0, 2: 0.0}, {1: "a", 2: "b"}, {})
    assert [(s.id, s.points, s.rank) for s in table] == [(1, 3, 1), (2, 2, 2)]
