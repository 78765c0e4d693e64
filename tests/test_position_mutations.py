"""Mutated positions (the advanced game's included) either load (and then have legal moves in both engines) or
raise PositionError."""

from __future__ import annotations

import copy
from random import Random

from hypothesis import given, settings
from hypothesis import strategies as st

from kingisdead import GameState, core
from kingisdead import playout
from kingisdead.position import PositionError, from_dict, to_dict

CONFIGS = [(2, "standard", "standard"), (3, "standard", "standard"), (4, "standard", "standard"),
           (3, "mordred", "standard"), (4, "mordred", "standard"), (2, "standard", "advanced"),
           (4, "standard", "advanced")]
"""Players, variant and mode (the advanced game: the second edition's)."""


def _positions():
    found = []
    for players, variant, mode in CONFIGS:
        rng = Random(players * 7 + len(variant))
        edition = "second" if mode == "advanced" else "first"
        s = GameState.new(players, variant, seed=players, edition=edition, mode=mode)
        while not s.is_over():
            if rng.random() < 0.15:
                found.append(to_dict(s))
            playout.play_random(s, rng)
        found.append(to_dict(s))
    return found


POSITIONS = _positions()
ODD = st.one_of(st.none(), st.booleans(), st.integers(-3, 40), st.just(10**30), st.text(max_size=4),
                st.lists(st.integers(-1, 3), max_size=3), st.dictionaries(st.text(max_size=3), st.integers(), max_size=2))


def _paths(value, prefix=()):
    yield prefix
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, prefix + (key,))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _paths(item, prefix + (i,))


@settings(max_examples=300)
@given(st.sampled_from(range(len(POSITIONS))), st.data())
def test_mutated_positions_load_or_raise_position_error(index, data):
    position = copy.deepcopy(POSITIONS[index])
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from([p for p in _paths(position) if p]))
        parent = position
        for key in path[:-1]:
            parent = parent[key]
        kind = data.draw(st.sampled_from(["set", "delete", "add", "swap", "nudge"]))
        key = path[-1]
        if kind == "add" and isinstance(parent[key], dict):
            names = ["Scots", "Loyalists", "Ratae", "Crown", "Spy", "Plot", "Cunning", "Scottish Support", "x"]
            parent[key][data.draw(st.sampled_from(names))] = data.draw(ODD)
        elif kind == "delete" and isinstance(parent, dict):
            del parent[key]
        elif kind == "swap" and isinstance(parent[key], list) and len(parent[key]) > 1:
            parent[key].reverse()
        elif kind == "nudge" and type(parent[key]) is int:
            parent[key] += data.draw(st.sampled_from([-1, 1]))
        else:
            parent[key] = data.draw(ODD)
    try:
        s = from_dict(position)
    except PositionError as exc:
        assert str(exc)
        return
    if s.is_over():
        return
    for engine in ("core", "reference") if core.available() else ("reference",):
        with core.use_engine(engine):
            assert list(s.copy().legal_moves()) is not None
