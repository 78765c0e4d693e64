"""The advanced game's Cunning cards (second edition): every legal action of each, and what it does.

An action is a tuple of small integers, regions and factions (0 Scottish, 1 Welsh, 2 English), one
canonical spelling per way of carrying the card out (docs/rules.md, "The advanced game"):

- Spy ``(seat, card, *copied)``: the top ``card`` of ``seat``'s pile carried out as if the spy had
  played it, with that card's own action ``copied`` (a copied Negotiate whose disc the spy no
  longer holds: ``(a, b, -1)``, the cards swapped and no disc placed)
- Aid ``(faction, region)``; Ambush ``(region, returned)``
- Dispute ``(a, f, b, g)`` a < b: f leaves a for b, g leaves b for a
- Influence ``(b, g1, g2, a, English)``, fallback ``(a, f, b, g)``
- Edict ``(a, S, S, b, g1, g2)``, fallbacks ``(x, f1, f2, y, g)`` and ``(a, f, b, g)``
- March ``(a, f1, f2, b)``, fallback ``(a, f, b)``
- Resist, Muster, Quell ``(region, *placed)``; Suppress ``(region, returned, placed)``, -1 for a part
  that cannot happen
- Plot: never played, no action

Targets are unresolved regions; f1 <= f2 wherever two followers go together. Every card is carried
out as fully as it can be: of all the ways to carry it out, only those moving the most followers are
legal (placed, returned, swapped or moved: each follower counted once per movement), so a partial
swap or a single placement is offered only where no fuller one exists. When no way moves anything
the action is ``()``: a card may always be played, and its summon made. The no-reversal ban is
applied before the fullest effect is judged, as for Outmanoeuvre.

The open points are the edition's options (:data:`kingisdead.edition.ADVANCED_OPTIONS`): ``spy_spy``,
``spy_negotiate``, ``spy_ban``, ``spy_pile``, ``aid_tie``, ``partial_rank`` and ``cunning_ban``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from . import rules
from .board import FIRST_CUNNING, NEIGHBOURS, Card, Cunning
from .moves import NONE

if TYPE_CHECKING:
    from .state import GameState

Action = tuple[int, ...]

SCOTTISH, WELSH, ENGLISH = 0, 1, 2
FACTIONS = (SCOTTISH, WELSH, ENGLISH)
"""The follower kinds of the second edition (it has no Loyalists)."""

SWAPS = (Cunning.DISPUTE, Cunning.INFLUENCE, Cunning.EDICT)
"""The Cunning cards that exchange followers: the option ``cunning_ban`` says whether the no-reversal
ban, printed on Manoeuvre and Outmanoeuvre only, binds them too."""


def card_actions(s: GameState, card: int) -> list[Action]:
    """Every legal action of Cunning card ``card`` for the player to move, canonical, in ascending
    order (Spy: by seat, then in the copied card's order): ``[()]`` when nothing can happen, ``[]``
    for Plot, which is never played, and in the standard game, which has no Cunning cards."""
    return _ACTIONS[card](s) if s.edition.advanced else []


def carry_out(s: GameState, card: int, action: Action) -> None:
    """Carry out the legal ``action`` of Cunning ``card`` for the player to move, in place: the board and
    the stock (and for a spied Negotiate the region cards and discs), and ``s.undo_ban``, which a card
    play always replaces: a ban ``(player, reverse, card)`` where the card made an exchange that bans
    its reversal, else None."""
    if card == Cunning.SPY:
        _spy(s, action)
        return
    s.undo_ban = None
    if not action:
        return
    _EFFECTS[card](s, action)
    if card in SWAPS and s.edition.cunning_ban == "same_effect":
        s.undo_ban = rules.ban_after(s.edition, s.player, action, card)


# -- the fullest effect ------------------------------------------------------------------

def _fullest(ways: Sequence[tuple[int, Action]]) -> list[Action]:
    """The actions among ``ways`` ``(followers moved, action)`` that move the most, sorted; ``[()]``
    when none moves any."""
    most = max((moved for moved, _ in ways), default=0)
    return sorted(action for moved, action in ways if moved == most) if most else [()]


def _unbanned(s: GameState, card: int, ways: Sequence[tuple[int, Action]]) -> Sequence[tuple[int, Action]]:
    """The ways that the no-reversal ban leaves ``card`` (all of them unless ``cunning_ban`` binds it)."""
    reverse = rules.active_ban(s, card) if s.edition.cunning_ban == "same_effect" else None
    if reverse is None:
        return ways
    return [(moved, action) for moved, action in ways if not rules.is_banned(s, action, reverse)]


def _present(counts: Sequence[int], kinds: Sequence[int] = FACTIONS) -> list[int]:
    """The kinds among ``kinds`` that ``counts`` (followers by faction) has one of."""
    return [f for f in kinds if counts[f]]


def _pairs(counts: Sequence[int], kinds: Sequence[int] = FACTIONS) -> list[tuple[int, int]]:
    """The distinct pairs ``(f1, f2)``, f1 <= f2, of kinds among ``kinds`` that ``counts`` can give."""
    return [(f1, f2) for i, f1 in enumerate(kinds) for f2 in kinds[i:]
            if counts[f1] >= (2 if f1 == f2 else 1) and counts[f2]]


def _placements(stock: Sequence[int], n: int, kinds: Sequence[int] = FACTIONS) -> Sequence[Action]:
    """The ways to take ``n`` (0 to 2) followers of ``kinds`` from ``stock``, as sorted tuples."""
    if n == 2:
        return _pairs(stock, kinds)
    return [(f,) for f in _present(stock, kinds)] if n == 1 else [()]


def _region(s: GameState, r: int) -> list[int]:
    return s.board[r * 4:r * 4 + 3]


def _place(s: GameState, r: int, f: int) -> None:
    s.stock[f] -= 1
    s.board[r * 4 + f] += 1


def _return(s: GameState, r: int, f: int) -> None:
    s.board[r * 4 + f] -= 1
    s.stock[f] += 1


# -- Spy ------------------------------------------------------------------------------------

def _spy_actions(s: GameState) -> list[Action]:
    e = s.edition
    piles = [(seat, card, _copy_actions(s, card)) for seat, card in enumerate(s.tops)
             if seat != s.player and card >= 0 and not (card == Cunning.SPY and e.spy_spy == "forbidden")]
    if e.spy_pile == "fullest" and any(_effective(actions[0]) for _, _, actions in piles):
        piles = [pile for pile in piles if _effective(pile[2][0])]
    return [(seat, card, *action) for seat, card, actions in piles for action in actions] or [()]


def _effective(action: Action) -> bool:
    """Whether a (copied) action does anything (an Assemble with an empty stock is all -1)."""
    return any(x != NONE for x in action)


def _copy_actions(s: GameState, card: int) -> list[Action]:
    """The actions of ``card`` carried out by the spy: a spied Spy copies nothing further; Negotiate
    as ``spy_negotiate`` says; any other card as if the spy played it, bound by the no-reversal ban
    as that card unless ``spy_ban`` frees the copy."""
    if card == Cunning.SPY:
        return [()]
    if card == Card.CROWN:
        return _negotiate_actions(s)
    if s.edition.spy_ban == "free" and s.undo_ban is not None:
        s = s.copy()
        s.undo_ban = None
    return rules.card_actions(s, card)


def _negotiate_actions(s: GameState) -> list[Action]:
    """A spied Negotiate: while the spy's own disc is not on the board (or with ``spy_negotiate="always"``)
    as the card; once it is, nothing (``"no_effect"``) or the swap alone, ``(a, b, -1)`` (``"own_disc"``)."""
    actions = rules.crown_actions(s)
    rule = s.edition.spy_negotiate
    if s.player not in s.crowns or rule == "always" or actions == [()]:
        return actions
    return [()] if rule == "no_effect" else [(a, b, NONE) for a, b, crowned in actions if crowned == a]


def _spy(s: GameState, action: Action) -> None:
    s.undo_ban = None
    if len(action) < 3:  # nothing to spy, a spied Spy, or a copy without effect
        return
    card, copied = action[1], action[2:]
    if card == Card.CROWN:
        rules.negotiate(s, s.player, copied)
    elif card >= FIRST_CUNNING:
        carry_out(s, card, copied)
    else:
        rules.move_followers(s.board, s.stock, card, copied)
        if card in rules.EXCHANGES:
            s.undo_ban = rules.ban_after(s.edition, s.player, copied, card)
    if s.edition.spy_ban == "free":
        s.undo_ban = None


# -- placing from the stock -------------------------------------------------------------------

def _aid_actions(s: GameState) -> list[Action]:
    stock = s.stock
    most = max(stock[f] for f in FACTIONS)
    leaders = [f for f in FACTIONS if stock[f] == most]
    if not most or (len(leaders) > 1 and s.edition.aid_tie == "none"):
        return [()]
    return [(f, r) for f in leaders for r in rules.MASK_REGIONS[s.open]]


def _aid(s: GameState, action: Action) -> None:
    faction, r = action
    for _ in range(min(2, s.stock[faction])):
        _place(s, r, faction)


def _ambush_actions(s: GameState) -> list[Action]:
    placed = min(2, s.stock[SCOTTISH])
    ways = []
    for r in rules.MASK_REGIONS[s.open]:
        counts = _region(s, r)
        counts[SCOTTISH] += placed
        ways += [(placed + 1, (r, k)) for k in _present(counts)]
    return _fullest(ways)


def _ambush(s: GameState, action: Action) -> None:
    r, returned = action
    for _ in range(min(2, s.stock[SCOTTISH])):
        _place(s, r, SCOTTISH)
    _return(s, r, returned)


def _resist_actions(s: GameState) -> list[Action]:
    kinds = (WELSH, ENGLISH)
    n = min(2, s.stock[WELSH] + s.stock[ENGLISH])
    return _fullest([(n, (r, *placed)) for r in rules.faction_targets(s, SCOTTISH)
                     for placed in _placements(s.stock, n, kinds)])


def _resist(s: GameState, action: Action) -> None:
    for f in action[1:]:
        _place(s, action[0], f)


def _rally_actions(s: GameState, faction: int) -> list[Action]:
    """Muster (Scottish) and Quell (Welsh): in a target region of ``faction``'s Support, one of its
    followers back to the stock where there is one, then two followers of any kinds from the stock."""
    ways = []
    for r in rules.faction_targets(s, faction):
        back = 1 if s.board[r * 4 + faction] else 0
        stock = s.stock[:3]
        stock[faction] += back
        n = min(2, sum(stock))
        ways += [(back + n, (r, *placed)) for placed in _placements(stock, n)]
    return _fullest(ways)


def _rally(s: GameState, faction: int, action: Action) -> None:
    r = action[0]
    if s.board[r * 4 + faction]:
        _return(s, r, faction)
    for f in action[1:]:
        _place(s, r, f)


def _suppress_actions(s: GameState) -> list[Action]:
    """In a target region of the English Support: an English follower back if there is one, then another
    of any kind if one is left (independently of the first), then one from the stock."""
    ways = []
    for r in rules.faction_targets(s, ENGLISH):
        counts, stock = _region(s, r), s.stock[:3]
        first = 1 if counts[ENGLISH] else 0
        counts[ENGLISH] -= first
        stock[ENGLISH] += first
        for g in _present(counts) or [NONE]:
            after = stock[:]
            if g != NONE:
                after[g] += 1
            ways += [(first + (g != NONE) + (f != NONE), (r, g, f)) for f in _present(after) or [NONE]]
    return _fullest(ways)


def _suppress(s: GameState, action: Action) -> None:
    r, returned, placed = action
    if s.board[r * 4 + ENGLISH]:
        _return(s, r, ENGLISH)
    if returned != NONE:
        _return(s, r, returned)
    if placed != NONE:
        _place(s, r, placed)


# -- moving followers on the board -----------------------------------------------------------

def _dispute_actions(s: GameState) -> list[Action]:
    opens = rules.MASK_REGIONS[s.open]
    ways = [(2, (a, f, b, g)) for i, a in enumerate(opens) for b in opens[i + 1:]
            for f in _present(_region(s, a)) for g in _present(_region(s, b)) if (f == WELSH) != (g == WELSH)]
    return _fullest(_unbanned(s, Cunning.DISPUTE, ways))


def _influence_actions(s: GameState) -> list[Action]:
    opens = rules.MASK_REGIONS[s.open]
    ways: list[tuple[int, Action]] = [
        (3, (b, g1, g2, a, ENGLISH)) for b in opens for g1, g2 in _pairs(_region(s, b), (SCOTTISH, WELSH))
        for a in opens if a != b and s.board[a * 4 + ENGLISH]]
    ways += [(2, (a, f, b, g)) for i, a in enumerate(opens) for b in opens[i + 1:]
             for f in _present(_region(s, a)) for g in _present(_region(s, b)) if (f == ENGLISH) != (g == ENGLISH)]
    return _fullest(_unbanned(s, Cunning.INFLUENCE, ways))


def _edict_actions(s: GameState) -> list[Action]:
    """Two Scots for two others between bordering regions; then three followers moved (two Scots for one
    other, or two others for one Scot); then one Scot for one other."""
    others = (WELSH, ENGLISH)
    ways: list[tuple[int, Action]] = []
    for a in rules.MASK_REGIONS[s.open]:
        here = _region(s, a)
        for b in rules.MASK_REGIONS[NEIGHBOURS[a] & s.open]:
            there = _region(s, b)
            if here[SCOTTISH] >= 2:
                ways += [(4, (a, SCOTTISH, SCOTTISH, b, g1, g2)) for g1, g2 in _pairs(there, others)]
                ways += [(3, (a, SCOTTISH, SCOTTISH, b, g)) for g in _present(there, others)]
            if there[SCOTTISH]:
                ways += [(3, (a, f1, f2, b, SCOTTISH)) for f1, f2 in _pairs(here, others)]
            if a < b:
                ways += [(2, (a, f, b, g)) for f in _present(here) for g in _present(there)
                         if (f == SCOTTISH) != (g == SCOTTISH)]
    return _fullest(_unbanned(s, Cunning.EDICT, ways))


def _swap(s: GameState, action: Action) -> None:
    """Dispute, Influence and Edict: ``(a, *leaving a, b, *leaving b)``, one or two followers each way."""
    split = 2 if len(action) == 4 else 3
    a, b, board = action[0], action[split], s.board
    for f in action[1:split]:
        board[a * 4 + f] -= 1
        board[b * 4 + f] += 1
    for g in action[split + 1:]:
        board[b * 4 + g] -= 1
        board[a * 4 + g] += 1


def _march_actions(s: GameState) -> list[Action]:
    ways: list[tuple[int, Action]] = []
    for a in rules.MASK_REGIONS[s.open]:
        here = _region(s, a)
        for b in rules.MASK_REGIONS[NEIGHBOURS[a] & s.open]:
            ways += [(2, (a, f1, f2, b)) for f1, f2 in _pairs(here)]
            ways += [(1, (a, f, b)) for f in _present(here)]
    return _fullest(ways)


def _march(s: GameState, action: Action) -> None:
    a, b, board = action[0], action[-1], s.board
    for f in action[1:-1]:
        board[a * 4 + f] -= 1
        board[b * 4 + f] += 1


_ACTIONS: dict[int, Callable[[GameState], list[Action]]] = {
    Cunning.SPY: _spy_actions,
    Cunning.AID: _aid_actions,
    Cunning.AMBUSH: _ambush_actions,
    Cunning.DISPUTE: _dispute_actions,
    Cunning.INFLUENCE: _influence_actions,
    Cunning.EDICT: _edict_actions,
    Cunning.MARCH: _march_actions,
    Cunning.RESIST: _resist_actions,
    Cunning.MUSTER: lambda s: _rally_actions(s, SCOTTISH),
    Cunning.QUELL: lambda s: _rally_actions(s, WELSH),
    Cunning.SUPPRESS: _suppress_actions,
    Cunning.PLOT: lambda s: [],
}

_EFFECTS: dict[int, Callable[[GameState, Action], None]] = {
    Cunning.AID: _aid,
    Cunning.AMBUSH: _ambush,
    Cunning.DISPUTE: _swap,
    Cunning.INFLUENCE: _swap,
    Cunning.EDICT: _swap,
    Cunning.MARCH: _march,
    Cunning.RESIST: _resist,
    Cunning.MUSTER: lambda s, action: _rally(s, SCOTTISH, action),
    Cunning.QUELL: lambda s, action: _rally(s, WELSH, action),
    Cunning.SUPPRESS: _suppress,
}
