"""A small builder of exact positions for the rule tests.

Tests describe only what matters to them (a few regions' followers, which
regions are resolved, the hands) and :func:`build` fills in the rest so that
the position is valid: the stock takes whatever followers are not on the board
or at court, a hand left out is as full as its court allows (a court beyond the 2
followers drawn at setup took one card play per follower), played cards get a top
card and a play number. The position then
goes through :func:`kingisdead.position.from_dict`, the same validation every
loaded position gets.
"""

from __future__ import annotations

from typing import Any

from kingisdead import GameState, IllegalMoveError, Move
from kingisdead.board import CARD_COPIES, FOLLOWERS_PER_FACTION, LOYALISTS_TOTAL, REMOVED_TWO_PLAYER
from kingisdead.edition import FIRST, Edition, get_edition
from kingisdead.position import from_dict


def full_hand(edition: Edition = FIRST) -> list[str]:
    """A player's 8 cards by name, the faction cards last (the first edition's Romano-British last)."""
    return [name for name, copies in zip(edition.cards, CARD_COPIES) for _ in range(copies)]


FULL_HAND = full_hand()


def _faction_counts(text: str, edition: Edition = FIRST) -> list[int]:
    """'SSWL' -> [2, 1, 0, 1] (by the edition's faction codes, then the Loyalists)."""
    return [text.count(code) for code in edition.faction_codes]


def _region(code: str, edition: Edition) -> str:
    return edition.regions[edition.region_codes.index(code)]


def build(
    players: int = 2,
    variant: str = "standard",
    *,
    regions: dict[str, str] | None = None,
    control: dict[str, str] | None = None,
    order: list[str] | None = None,
    courts: list[str] | None = None,
    hands: list[list[str]] | None = None,
    played_order: list[int] | None = None,
    to_move: int = 0,
    passes: int = 0,
    crowns: dict[str, int] | None = None,
    stock: dict[str, int] | None = None,
    undo_ban: dict[str, Any] | None = None,
    edition: str | Edition = "first",
) -> GameState:
    """A valid position from a short description.

    - ``regions``: region code -> followers, e.g. ``{"Dev": "SSW", "Din": "L"}``; others empty.
    - ``control``: resolved regions in the order they were resolved, code -> S/W/R/L/X.
    - ``order``: the region cards after the resolved ones (default: the rest in map order).
    - ``courts``: each player's court, e.g. ``["SSW", "R"]``; default empty.
    - ``hands``: each player's cards left (names). Default: as full a hand as the
      court allows. A court starts with 2 followers and each card play calls at most
      one more, so a court of ``n > 2`` followers means at least ``n - 2`` cards
      played: that many are taken off the end of :data:`FULL_HAND` (Romano-British
      first), and at least one for a seat named in ``played_order``.
    - ``played_order``: seats in the order of their latest card play, oldest first
      (default: every seat that played a card, by seat number).
    - ``stock``: optional faction name -> expected stock, a check of the test's own
      arithmetic (followers listed nowhere else go to the stock).
    - ``edition``: its name or Edition (with options); codes and names are the edition's,
      ``control`` letters are its faction codes, L for Loyalists and X for Saxons/unstable.
    """
    e = get_edition(edition)
    REGION_NAMES, FACTION_NAMES, CARD_NAMES = e.regions, e.factions, e.cards  # noqa: N806
    control_names = dict(zip(e.faction_codes, e.factions)) | {"X": "Saxons" if e.invaders == "Saxons" else "unstable"}
    regions = regions or {}
    control = control or {}
    courts = courts or [""] * players
    if hands is None:
        hands = [least_played(court, p in (played_order or []), e) for p, court in enumerate(courts)]
    resolved = [_region(code, e) for code in control]
    rest = [_region(code, e) for code in order] if order else [
        name for name in REGION_NAMES if name not in resolved]
    cards = resolved + [name for name in rest if name not in resolved]
    cards += [name for name in REGION_NAMES if name not in cards]

    board = {_region(code, e): _faction_counts(text, e) for code, text in regions.items()}
    court_counts = [_faction_counts(text, e) for text in courts]
    total = FOLLOWERS_PER_FACTION - (REMOVED_TWO_PLAYER if players == 2 else 0)
    kinds = 4 if variant == "mordred" else 3
    stock_counts = []
    for k in range(kinds):
        on_board = sum(counts[k] for counts in board.values())
        if k == 3:
            stock_counts.append(LOYALISTS_TOTAL - on_board)
        else:
            stock_counts.append(total - on_board - sum(c[k] for c in court_counts))
    if stock is not None:
        for name, count in stock.items():
            k = FACTION_NAMES.index(name)
            assert stock_counts[k] == count, f"stock of {name}: {stock_counts[k]}, expected {count}"

    played = []
    for hand in hands:
        left = {name: hand.count(name) for name in CARD_NAMES}
        played.append([name for name in CARD_NAMES if left[name] < CARD_COPIES[CARD_NAMES.index(name)]])
    seats_played = [p for p in range(players) if played[p]]
    played_order = played_order if played_order is not None else seats_played
    assert sorted(played_order) == seats_played, "played_order must list exactly the seats that played"
    # Every card played counts as a card play; the seats' latest plays are the last ones, in order.
    card_plays = sum(CARD_COPIES) * players - sum(len(hand) for hand in hands)
    last_played = [0] * players
    for number, p in enumerate(played_order, start=card_plays - len(played_order) + 1):
        last_played[p] = number

    data = {
        "format": "kingisdead-position",
        "version": 1,
        "edition": e.name,
        "options": e.options(),
        "players": players,
        "variant": variant,
        "to_move": to_move,
        "passes": passes,
        "regions": {name: dict(zip(FACTION_NAMES[:kinds], counts)) for name, counts in board.items()},
        "stock": dict(zip(FACTION_NAMES[:kinds], stock_counts)),
        "region_cards": cards,
        "resolved": len(resolved),
        "control": {name: control_names[code] for name, code in zip(resolved, control.values())},
        "crowns": {_region(code, e): p for code, p in (crowns or {}).items()},
        "courts": [dict(zip(FACTION_NAMES[:3], counts[:3])) for counts in court_counts],
        "hands": [{name: hand.count(name) for name in CARD_NAMES} for hand in hands],
        "top_cards": [names[0] if names else None for names in played],
        "last_played": last_played,
        "card_plays": card_plays,
        "undo_ban": undo_ban,
    }
    return from_dict(data)


def least_played(court: str, played: bool = False, edition: Edition = FIRST) -> list[str]:
    """The fullest hand a player with this court can hold: one card played per follower
    beyond the 2 drawn at setup (at least one when ``played``), the last cards of
    :data:`FULL_HAND` first."""
    plays = max(len(court) - 2, 1 if played else 0)
    hand = full_hand(edition)
    assert plays <= len(hand), (
        f"a court of {len(court)} followers needs {plays} card plays; a player has {len(hand)} cards")
    return hand[:len(hand) - plays]


def hand_without(*cards: str, edition: Edition = FIRST) -> list[str]:
    """A full hand less the named cards (one copy each)."""
    hand = full_hand(edition)
    for card in cards:
        hand.remove(card)
    return hand


def followers(state: GameState, code: str) -> str:
    """A region's followers as letters in faction order, e.g. 'SSWL'."""
    e = state.edition
    r = e.region_codes.index(code)
    return "".join(e.faction_codes[k] * state.followers(r, k) for k in range(4))


def assert_illegal(state: GameState, move: Move | str, *fragments: str) -> IllegalMoveError:
    """The move raises IllegalMoveError whose message holds every fragment, the engine under test
    finds it illegal too, and the state is unchanged."""
    before = state.key()
    if isinstance(move, str):
        move = state.parse(move)
    try:
        state.apply(move)
    except IllegalMoveError as exc:
        message = str(exc)
        for fragment in fragments:
            assert fragment in message, f"{fragment!r} not in {message!r}"
        assert state.key() == before, "an illegal move changed the state"
        assert not state.is_legal(move)
        return exc
    raise AssertionError(f"{move} was accepted")


def play(state: GameState, *moves: str) -> GameState:
    """Apply moves given in notation, in order (each must be legal)."""
    for text in moves:
        state.apply(text)
    return state
