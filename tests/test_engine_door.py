"""The engine is the only door to the rules: outside the engine's modules, nothing imports them.

The engine is :mod:`kingisdead.engine` (the door), :mod:`kingisdead.core` (the
bridge to the compiled ``kingisdead._core``) and the reference rules
(:mod:`kingisdead.rules`, :mod:`kingisdead.cunning`, :mod:`kingisdead.lastcard`, :mod:`kingisdead.legality`,
:mod:`kingisdead.playout`, :mod:`kingisdead.scoring`, :mod:`kingisdead.setup`);
see docs/architecture.md. Every other module under src/kingisdead asks
``kingisdead.engine``. The test reads each module's syntax tree, so that an
import in any spelling (relative, absolute, under ``TYPE_CHECKING``, inside a
function, by ``importlib`` with a string) is found.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import kingisdead
from kingisdead import PASS, GameState, core, engine, legality, rules
from kingisdead.board import Card
from kingisdead.edition import FIRST, SECOND
from kingisdead.moves import IllegalMoveError, Move

PACKAGE = "kingisdead"

ENGINE = frozenset({"kingisdead.engine", "kingisdead.core", "kingisdead.rules", "kingisdead.cunning",
                    "kingisdead.lastcard", "kingisdead.legality", "kingisdead.playout", "kingisdead.scoring",
                    "kingisdead.setup", "kingisdead._core"})
"""The modules that are the engine: they may import each other."""

BEHIND_THE_DOOR: dict[str, frozenset[str]] = {
    "kingisdead._core": frozenset(),
    "kingisdead.core": frozenset(),
    "kingisdead.rules": frozenset(),
    "kingisdead.cunning": frozenset(),
    "kingisdead.lastcard": frozenset(),
    "kingisdead.legality": frozenset(),
    "kingisdead.playout": frozenset(),
    # Data, not rules: the result a game ends with (and its steps) and the names of the setups.
    "kingisdead.scoring": frozenset({"Result", "Step", "STEP_KINDS", "ENDINGS"}),
    "kingisdead.setup": frozenset({"VARIANTS", "FOLLOWER", "SWAP", "DEAL"}),
}
"""Each engine module, and the names that other modules may still import from it."""

_IMPORTERS = frozenset({"import_module", "__import__", "find_spec"})


def _resolve(name: str, level: int, module: str, is_package: bool) -> str:
    """The absolute name of ``from <level dots><name> import ...`` written in ``module``."""
    if not level:
        return name
    parts = module.split(".")
    base = parts if is_package else parts[:-1]
    base = base[:len(base) - (level - 1)]
    return ".".join(base + ([name] if name else []))


def _literal(node: ast.expr | None) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def door_breaches(source: str, module: str, is_package: bool = False) -> list[str]:
    """Every way ``source`` (the text of ``module``) reaches behind the engine's door, one line each."""
    if module in ENGINE:
        return []
    found: list[str] = []

    def reach(target: str, names: list[str] | None, line: int) -> None:
        if target in BEHIND_THE_DOOR:
            allowed = BEHIND_THE_DOOR[target]
            refused = [n for n in names or ["*"] if n not in allowed]
            if names is None or refused:
                found.append(f"{module}:{line}: {target}" + (f" ({', '.join(refused)})" if names else ""))
        elif names is not None:  # from <package> import <module>
            for n in names:
                if f"{target}.{n}" in BEHIND_THE_DOOR:
                    found.append(f"{module}:{line}: {target}.{n}")

    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                reach(alias.name, None, node.lineno)
        elif isinstance(node, ast.ImportFrom):
            target = _resolve(node.module or "", node.level, module, is_package)
            reach(target, [alias.name for alias in node.names], node.lineno)
        elif isinstance(node, ast.Call):
            func = node.func
            called = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
            if called in _IMPORTERS and node.args:
                name = _literal(node.args[0])
                anchor = _literal(node.args[1]) if len(node.args) > 1 else None
                anchor = anchor or next((_literal(k.value) for k in node.keywords if k.arg == "package"), None)
                if name is not None:
                    dots = len(name) - len(name.lstrip("."))
                    target = _resolve(name.lstrip("."), dots, anchor or module, bool(anchor)) if dots else name
                    reach(target, None, node.lineno)
            elif called == "getattr" and len(node.args) > 1:
                attribute = _literal(node.args[1])
                if attribute is not None and f"{PACKAGE}.{attribute}" in BEHIND_THE_DOOR:
                    found.append(f"{module}:{node.lineno}: getattr(..., {attribute!r})")
        elif isinstance(node, ast.Subscript):  # sys.modules["kingisdead._core"]
            key = _literal(node.slice)  # type: ignore[arg-type]
            if key in BEHIND_THE_DOOR:
                found.append(f"{module}:{node.lineno}: [{key!r}]")
    return found


def _modules() -> list[tuple[str, Path, bool]]:
    root = Path(kingisdead.__file__).parent
    modules = []
    for path in sorted(root.rglob("*.py")):
        parts = list(path.relative_to(root.parent).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        if is_package:
            parts.pop()
        modules.append((".".join(parts), path, is_package))
    return modules


def test_no_module_outside_the_engine_reaches_behind_its_door():
    """Every module under src/kingisdead outside the engine imports only kingisdead.engine for the rules."""
    modules = _modules()
    assert len(modules) > 50 and {"kingisdead.web.live_game", "kingisdead.bots.mcts"} <= {m for m, _, _ in modules}
    breaches = [line for module, path, is_package in modules
                for line in door_breaches(path.read_text(encoding="utf-8"), module, is_package)]
    assert breaches == []


@pytest.mark.parametrize(("module", "source"), [
    ("kingisdead.render", "from . import rules"),
    ("kingisdead.render", "from . import engine, core"),
    ("kingisdead.render", "from .rules import check_move"),
    ("kingisdead.render", "from ._core import Network"),
    ("kingisdead.render", "from . import _core as c"),
    ("kingisdead.web.views", "from .. import rules"),
    ("kingisdead.web.views", "from ..rules import check_move"),
    ("kingisdead.web.views", "from ..setup import check_setup_arguments"),
    ("kingisdead.web.views", "from ..scoring import score"),
    ("kingisdead.web", "from .. import core"),
    ("kingisdead.web.views", "import kingisdead._core"),
    ("kingisdead.web.views", "import kingisdead.rules as r"),
    ("kingisdead.web.views", "from kingisdead import _core"),
    ("kingisdead.web.views", "from kingisdead import engine, rules"),
    ("kingisdead.web.views", "import importlib\nimportlib.import_module('kingisdead._core')"),
    ("kingisdead.web.views", "from importlib import import_module\nimport_module('..rules', 'kingisdead.web')"),
    ("kingisdead.web.views", "import_module('.core', package='kingisdead')"),
    ("kingisdead.web.views", "__import__('kingisdead.rules')"),
    ("kingisdead.web.views", "import kingisdead\ngetattr(kingisdead, '_core')"),
    ("kingisdead.web.views", "import sys\nsys.modules['kingisdead.rules']"),
    ("kingisdead.web.views", "def f():\n    from ..rules import play\n    return play"),
    ("kingisdead.web.views", "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ..rules import UndoBan"),
    ("kingisdead.web.explain", "from ..scoring import score"),
])
def test_the_walk_finds_every_spelling_of_an_import(module, source):
    """The walk is not fooled by the spelling: each of these is found."""
    assert door_breaches(source, module, is_package=module == "kingisdead.web")


@pytest.mark.parametrize("source", [
    "from .. import engine",
    "from ..engine import check_move",
    "from ..scoring import Result",
    "from ..setup import VARIANTS",
    "from . import explain",
    "from ..board import Card",
])
def test_the_walk_lets_the_door_and_data_through(source):
    """The engine itself, the result's type and the setups' names are not the rules."""
    assert door_breaches(source, "kingisdead.web.views") == []


def test_the_engine_modules_may_import_each_other():
    assert door_breaches("from . import core, rules", "kingisdead.engine") == []
    assert door_breaches("from . import rules", "kingisdead.state") != []


def test_the_engine_is_chosen_in_one_place():
    """The engine in use is what KINGISDEAD_ENGINE or use_engine says, and engine.py reports it."""
    before = engine.name()
    with engine.use_engine("reference"):
        assert engine.name() == "reference" and not engine.compiled()
        assert engine.chosen(None) == "reference" and engine.chosen("core") == "core"
        with engine.use_engine("core"):
            assert engine.name() == "core" and engine.compiled() and engine.chosen(None) == "core"
    assert engine.name() == before
    assert engine.use_engine is core.use_engine
    with pytest.raises(ValueError, match="unknown engine"):
        engine.chosen("fast")


def _exchange_position(players: int = 2, edition: str = "first") -> tuple[GameState, Move]:
    """A position of a seeded random game where the player to move can make an exchange, and one such move."""
    from random import Random

    rng = Random(5)
    for seed in range(200):
        s = GameState.new(players, seed=seed, edition=edition)
        while not s.is_over():
            exchanges = [m for m in s.legal_moves() if m.card in (Card.GARRISON, Card.AMBASSADOR) and m.action]
            if exchanges:
                return s, exchanges[len(exchanges) // 2]
            s.apply(engine.sample_move(s, rng))
    raise AssertionError("no exchange in 200 games")


@pytest.mark.parametrize("edition", ["first", "second", SECOND.with_options(reversal="exact")])
def test_both_engines_keep_the_undo_ban_field_for_field(edition):
    """The ban an exchange leaves is the same (player, reverse) from either engine, and the core hands
    back the ban it was given (a pass does not lift it)."""
    s, move = _exchange_position(edition=edition)
    with engine.use_engine("reference"):
        reference = s.after(move)
    with engine.use_engine("core"):
        compiled = s.after(move)
        assert compiled.after(PASS).undo_ban == compiled.undo_ban
    assert compiled.undo_ban is not None and isinstance(compiled.undo_ban[1], tuple)
    assert compiled.undo_ban == reference.undo_ban
    assert compiled.undo_ban == engine.undo_ban(s.edition, s.player, _reverse(move.action))


def _reverse(action: tuple[int, ...]) -> tuple[int, ...]:
    if len(action) == 5:
        a, f1, f2, b, g = action
        return (b, f1, f2, a, g)
    a, f, b, g = action
    return (a, g, b, f)


def test_an_undo_ban_on_no_change_is_none_unless_judged_literally():
    """A swap within one faction changes nothing: no ban by effect, itself under reversal="exact"."""
    swap = (0, 1, 2, 1)
    assert engine.undo_ban(FIRST, 1, swap) is None
    assert engine.undo_ban(SECOND.with_options(reversal="exact"), 1, swap) == (1, swap)
    assert engine.undo_ban(FIRST, 1, (0, 0, 2, 1)) == (1, (0, 0, 2, 1))


@pytest.mark.parametrize("name", ["core", "reference"])
def test_check_move_names_the_rule_and_spells_the_move_canonically(name):
    """On both engines: a legal move comes back in its one spelling; an illegal one raises the
    reference's words for the rule it breaks, and nothing changes."""
    with engine.use_engine(name):
        s = GameState.new(2, seed=3)
        missing = Card.SCOTS
        s.hands[missing] = 0  # player 1 has played their Scots card
        before = s.key()
        crown = next(m for m in s.legal_moves() if m.card == Card.CROWN and m.action)
        a, b, crowned = crown.action
        assert engine.check_move(s, Move(Card.CROWN, (b, a, crowned), crown.court)) == crown
        with pytest.raises(IllegalMoveError, match=f"player 1 has no {s.edition.cards[missing]} card left"):
            engine.check_move(s, Move(missing, (0, 0), None))
        with pytest.raises(IllegalMoveError, match="not a move"):
            engine.check_move(s, ("Crown", (0, 1, 0), None))  # type: ignore[arg-type]
        with pytest.raises(IllegalMoveError, match="a pass has no action"):
            s.apply(Move(None, (1,), None))
        assert s.key() == before


def test_the_web_checks_and_plays_its_moves_in_the_core(monkeypatch):
    """A move sent to a web game is judged and played by the engine in use (the core), not by the
    reference: with the reference's check and play out of order, the web still plays it, and
    the position is the reference's."""
    from kingisdead.web.live_game import Snapshot

    with engine.use_engine("reference"):
        s, move = _exchange_position()
        expected = s.after(move)

    def broken(*args, **kwargs):
        raise AssertionError("the reference was asked")

    monkeypatch.setattr(legality, "check_move", broken)
    monkeypatch.setattr(rules, "play", broken)
    with engine.use_engine("core"):  # the default engine (the suite may run on the reference)
        snap = Snapshot(s)
        snap.state.check(move)
        after = snap.after(move)
        assert after.state == expected and after.moves == (s.notation(move),)
        with pytest.raises(AssertionError, match="the reference was asked"):  # only a refused move asks it
            snap.state.check(Move(Card.CROWN, (0, 0, 0), None))


def test_a_legal_move_is_judged_and_played_by_one_call_of_the_core(monkeypatch):
    """With the core, ``GameState.apply`` hands the move to the core's play, which refuses an illegal one: a
    legal move is not judged a second time first (only a refused move is, to name the rule)."""
    if not engine.compiled():
        pytest.skip("the compiled core is not built")
    with engine.use_engine("core"):
        s = GameState.new(2, seed=3)
        move = s.legal_moves()[7]
        expected = s.after(move).key()
        monkeypatch.setattr(core, "is_legal", lambda *args: pytest.fail("the move was judged before it was played"))
        s.apply(move)
        assert s.key() == expected
