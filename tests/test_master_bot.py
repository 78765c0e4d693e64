"""The master level and the guided search: legal moves everywhere, budgets, the shipped weights (no NumPy needed)."""

from __future__ import annotations

from random import Random

import pytest

from kingisdead import GameState, core
from kingisdead.bots import make_bot
from kingisdead.bots.budget import Budget
from kingisdead.bots.master import Guidance, MasterBot, guided_search, load_network, shipped_network
from kingisdead.bots.mcts import search

pytestmark = pytest.mark.skipif(not core.available(), reason="the compiled core is not built")

CONFIGURATIONS = [(2, "standard"), (3, "standard"), (3, "mordred"), (4, "standard")]


def test_the_shipped_weights_load_from_the_package() -> None:
    path = shipped_network()
    assert path.parent.name == "data" and path.parent.parent.name == "kingisdead"
    assert path.stat().st_size < 5_000_000
    net = load_network(path)
    assert net.inputs == core.require().FEATURES
    assert len(net.widths) >= 1


@pytest.mark.parametrize(("players", "variant"), CONFIGURATIONS)
def test_master_plays_legal_moves_in_every_configuration(players: int, variant: str) -> None:
    bot = make_bot("master:60", seed=players)
    assert isinstance(bot, MasterBot)
    s = GameState.new(players=players, variant=variant, seed=11)
    while not s.is_over():
        move = bot.choose(s)
        s.check(move)  # raises if illegal
        s.apply(move)


def test_the_guided_search_honours_its_budgets_and_repeats() -> None:
    s = GameState.new(players=3, variant="mordred", seed=2)
    a = guided_search(s, Budget(iterations=150), Random(1), threads=2)
    b = guided_search(s, Budget(iterations=150), Random(1), threads=2)
    assert a.iterations == 300 and sum(m.visits for m in a.moves) == 300
    assert [(m.move, m.visits) for m in a.moves] == [(m.move, m.visits) for m in b.moves]
    timed = guided_search(s, Budget(seconds=0.05), Random(1))
    assert timed.iterations >= 1
    # With both weights at 0 the network changes nothing: the plain search's choices.
    off = guided_search(s, Budget(iterations=150), Random(1), guidance=Guidance(0.0, 0.0), threads=2)
    plain = search(s, Budget(iterations=150), Random(1), threads=2)
    assert off.moves == plain.moves
    assert a.moves != off.moves
    with pytest.raises(ValueError, match="value_weight"):
        Guidance(value_weight=1.5)
    with pytest.raises(ValueError, match="over"):
        finished = s.copy()
        rng = Random(0)
        while not finished.is_over():
            finished.apply(core.sample_move(finished, rng))
        guided_search(finished, Budget(iterations=5), rng)
