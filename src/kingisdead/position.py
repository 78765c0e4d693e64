"""Positions as JSON: like chess's FEN, but readable and complete.

A position holds everything needed to continue the game, including what the
no-immediate-undo rule and the tie-breaks depend on (one spelling of the
exchange that may not be made now, every spelling with the same effect being
banned alike; who played a card most recently). Loading validates it: an
impossible position (followers that do not add up, followers in a resolved
region, ...) raises :class:`PositionError` saying what is wrong.

A position of the advanced game names every Cunning card held and played; a seat's
view of one (:class:`~kingisdead.information.SeatView`) is written as a position with
``"view": seat`` in which the other hands count their Cunning cards unnamed
(:func:`view_to_dict`, :func:`view_from_dict`).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, cast

from . import engine
from .board import (
    CARD_COPIES,
    CUNNING_DEALT,
    FIRST_CUNNING,
    FOLLOWERS_PER_FACTION,
    HAND_SIZE,
    LOYALISTS_TOTAL,
    NUM_CUNNING,
    NUM_REGIONS,
    REMOVED_TWO_PLAYER,
    SAXONS,
    SUPPORT_CARDS,
    UNRESOLVED,
    Card,
    Cunning,
    borders,
)
from .moves import NotationError, format_move, make_move, parse_move
from .edition import CUNNING_CARDS, Edition, read_edition
from .information import SeatView
from .state import VARIANTS, GameState

if TYPE_CHECKING:
    from .engine import UndoBan

FORMAT = "kingisdead-position"
VERSION = 1


def _control_names(edition: Edition) -> tuple[str, ...]:
    """Who may hold a resolved region, by control value: the factions, then "Saxons" or "unstable"."""
    return edition.factions + ("Saxons" if edition.invaders == "Saxons" else "unstable",)


HIDDEN = "Cunning"
"""In a seat's view of the advanced game, the key of another hand's count of the Cunning cards that
the seat cannot see (``{"Negotiate": 1, ..., "Cunning": 3}``)."""

ADVANCED_EXCHANGES = (Cunning.DISPUTE, Cunning.INFLUENCE, Cunning.EDICT)
"""The Cunning cards that set an undo ban when the option ``cunning_ban`` is ``"same_effect"``."""

_AdvancedBan = tuple[int, tuple[int, ...], int]
"""The advanced game's undo ban: ``(player, reverse, card)``, ``card`` the one that made the exchange."""


def _card_names(e: Edition) -> tuple[str, ...]:
    """The cards' names by card number: the seven Action cards, then, in the advanced game, the Cunning cards."""
    return e.cards + CUNNING_CARDS if e.advanced else e.cards


def _bits(mask: int) -> list[int]:
    """The Cunning cards of a bit mask, by index (0 Spy ... 11 Plot)."""
    return [i for i in range(NUM_CUNNING) if mask >> i & 1]


class PositionError(ValueError):
    """A position that is malformed or impossible."""


def to_dict(s: GameState, view: int | None = None) -> dict[str, Any]:
    """The position as a JSON-ready dict (see docs/formats.md), in the names of its edition; with ``view``,
    that seat's view of it instead (:func:`view_to_dict`; ValueError for a seat not in the game)."""
    if view is not None:
        return view_to_dict(s.view(view))
    return _to_dict(s, [_hand(s.edition, s.hands, p, s.cunning[p]) for p in range(s.players)])


def view_to_dict(v: SeatView) -> dict[str, Any]:
    """Seat ``v.seat``'s view as a JSON-ready dict: a position with ``"view": seat`` whose other hands name
    their Action cards and count their Cunning cards (``"Cunning": n``). In the standard game it is the whole
    position with ``"view"`` added."""
    e = v.edition
    hands = [_hand(e, v.hands, p, v.cunning if p == v.seat else 0)
             | ({HIDDEN: v.hidden(p)} if e.advanced and p != v.seat else {}) for p in range(v.players)]
    position = _to_dict(v, hands)
    return {"format": FORMAT, "version": VERSION, "view": v.seat} | position


def _hand(e: Edition, hands: list[int] | tuple[int, ...], p: int, cunning: int) -> dict[str, int]:
    """Seat ``p``'s hand by card name: every Action card the game deals (the advanced game's Support cards
    stay in the box), then the Cunning cards of the mask ``cunning``."""
    held = {e.cards[c]: hands[p * 7 + c] for c in range(7) if not (e.advanced and c in SUPPORT_CARDS)}
    return held | {CUNNING_CARDS[i]: 1 for i in _bits(cunning)}


def _to_dict(s: GameState | SeatView, hands: list[dict[str, int]]) -> dict[str, Any]:
    """The public position of ``s`` (a state or a view) with ``hands`` written as given."""
    e = s.edition
    REGION_NAMES, FACTION_NAMES, CARD_NAMES = e.regions, e.factions, _card_names(e)  # noqa: N806
    CONTROL_NAMES = _control_names(e)  # noqa: N806
    ban: dict[str, Any] | None = None
    if s.undo_ban is not None and e.advanced:
        player, reverse, card = cast(_AdvancedBan, s.undo_ban)
        ban = {"player": player, "card": CARD_NAMES[card], "exchange": _exchange(e, card, reverse)}
    elif s.undo_ban is not None:
        player, reverse = s.undo_ban[0], s.undo_ban[1]
        ban = {"player": player,
               "exchange": _exchange(e, Card.GARRISON if len(reverse) == 5 else Card.AMBASSADOR, reverse)}
    mode = {"mode": e.mode} if e.advanced else {}
    options = {"options": e.options()} if e.options() else {}
    played = {"cunning_played": [[CUNNING_CARDS[i] for i in _bits(mask)] for mask in s.cunning_played]
              } if e.advanced else {}
    return {
        "format": FORMAT,
        "version": VERSION,
        "edition": e.name,
        **mode,
        **options,
        "players": s.players,
        "variant": s.variant,
        "to_move": s.player,
        "passes": s.passes,
        "regions": {
            REGION_NAMES[r]: {FACTION_NAMES[k]: s.board[r * 4 + k] for k in range(4 if s.mordred else 3)}
            for r in range(NUM_REGIONS)
        },
        "stock": {FACTION_NAMES[k]: s.stock[k] for k in range(4 if s.mordred else 3)},
        "region_cards": [REGION_NAMES[r] for r in s.order],
        "resolved": s.resolved,
        "control": {REGION_NAMES[r]: CONTROL_NAMES[s.control[r]] for r in s.order[:s.resolved]},
        "crowns": {REGION_NAMES[r]: p for r, p in enumerate(s.crowns) if p >= 0},
        "courts": [{FACTION_NAMES[f]: s.courts[p * 3 + f] for f in range(3)} for p in range(s.players)],
        "hands": hands,
        **played,
        "top_cards": [CARD_NAMES[t] if t >= 0 else None for t in s.tops],
        "last_played": list(s.last_play),
        "card_plays": s.plays,
        "undo_ban": ban,
    }


def _exchange(e: Edition, card: int, reverse: tuple[int, ...]) -> str:
    """The exchange ``reverse`` in ``card``'s notation, without the card's word (``Dev:R<>Lon:S``)."""
    return format_move(make_move(card, reverse), e).split(" ", 1)[1]


def dumps(s: GameState, indent: int | None = 2, view: int | None = None) -> str:
    """The position as JSON text (``view``: that seat's view of it, as :func:`to_dict`)."""
    return json.dumps(to_dict(s, view), indent=indent)


def loads(text: str) -> GameState:
    """A position read from JSON text (PositionError for anything wrong, a seat's view included)."""
    return from_dict(_json(text))


def loads_view(text: str) -> SeatView:
    """A seat's view read from JSON text (:func:`view_from_dict`)."""
    return view_from_dict(_json(text))


def _json(text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise PositionError(f"not JSON: {exc}") from None


def _get(data: dict[str, Any], key: str, kind: type | tuple[type, ...]) -> Any:
    if key not in data:
        raise PositionError(f"missing field {key!r}")
    value = data[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise PositionError(f"field {key!r} has the wrong type ({type(value).__name__})")
    return value


def _count(value: Any, where: str, most: int = 99) -> int:
    if not _is_int(value) or not 0 <= value <= most:
        raise PositionError(f"{where} must be a whole number from 0 to {most}, not {value!r}")
    return value


def _is_int(value: Any) -> bool:
    """A JSON whole number: ``true``/``false`` are not seats or counts."""
    return isinstance(value, int) and not isinstance(value, bool)


def _named(table: dict[str, Any], names: tuple[str, ...], where: str) -> dict[str, Any]:
    if not isinstance(table, dict):
        raise PositionError(f"{where} must be an object")
    unknown = set(table) - set(names)
    if unknown:
        raise PositionError(f"{where}: unknown name(s) {', '.join(sorted(unknown))}")
    return table


def from_dict(data: Any) -> GameState:
    """Load and validate a position; raises PositionError on anything wrong, and for a seat's view (which
    :func:`view_from_dict` loads)."""
    if isinstance(data, dict) and "view" in data:
        raise PositionError("this is a seat's view (it has a 'view' field), not a whole position: "
                            "load it with view_from_dict")
    return _read(data, None)


def view_from_dict(data: Any) -> SeatView:
    """Load and validate a seat's view (:func:`view_to_dict`): the view, not a state, for the other seats'
    Cunning cards are not in it. PositionError on anything wrong, as :func:`from_dict`, and for a file
    without ``"view"``."""
    if isinstance(data, dict) and "view" not in data:
        raise PositionError("not a seat's view (it has no 'view' field): load a whole position with from_dict")
    s = _read(data, data["view"] if isinstance(data, dict) else None)
    return s.view(data["view"])


def _read(data: Any, viewer: int | None) -> GameState:
    """The position in ``data``, validated. For the view of seat ``viewer`` the other hands' unnamed Cunning
    cards are dealt the lowest unseen ones, so that the state can be checked whole (its view drops them)."""
    if not isinstance(data, dict):
        raise PositionError("a position is a JSON object")
    if data.get("format") != FORMAT:
        raise PositionError(f"not a position (format must be {FORMAT!r})")
    if data.get("version") != VERSION:
        raise PositionError(f"unsupported position version {data.get('version')!r} (this is version {VERSION})")
    players = _get(data, "players", int)
    if players not in (2, 3, 4):
        raise PositionError(f"players must be 2, 3 or 4, not {players}")
    if viewer is not None and (not _is_int(viewer) or not 0 <= viewer < players):
        raise PositionError(f"view must be a seat from 0 to {players - 1}, not {viewer!r}")
    variant = _get(data, "variant", str)
    if variant not in VARIANTS:
        raise PositionError(f"unknown variant {variant!r}")
    e = read_edition(data, PositionError)
    if variant == "mordred" and not e.mordred:
        raise PositionError(f"the {e.name} edition has no Mordred variant")
    REGION_NAMES, FACTION_NAMES, CARD_NAMES = e.regions, e.factions, _card_names(e)  # noqa: N806
    CONTROL_NAMES = _control_names(e)  # noqa: N806
    s = GameState.__new__(GameState)
    s.edition = e
    s.players, s.mordred = players, variant == "mordred"
    kinds = 4 if s.mordred else 3

    regions = _named(_get(data, "regions", dict), REGION_NAMES, "regions")
    s.board = [0] * (NUM_REGIONS * 4)
    for r, name in enumerate(REGION_NAMES):
        counts = _named(regions.get(name, {}), FACTION_NAMES[:kinds], f"regions.{name}")
        for k in range(kinds):
            s.board[r * 4 + k] = _count(counts.get(FACTION_NAMES[k], 0), f"regions.{name}.{FACTION_NAMES[k]}")
    stock = _named(_get(data, "stock", dict), FACTION_NAMES[:kinds], "stock")
    s.stock = [_count(stock.get(FACTION_NAMES[k], 0), f"stock.{FACTION_NAMES[k]}") for k in range(kinds)]
    s.stock += [0] * (4 - kinds)

    courts = _get(data, "courts", list)
    hands = _get(data, "hands", list)
    tops = _get(data, "top_cards", list)
    last = _get(data, "last_played", list)
    for field, value in (("courts", courts), ("hands", hands), ("top_cards", tops), ("last_played", last)):
        if len(value) != players:
            raise PositionError(f"{field} must have one entry per player ({players})")
    s.courts = []
    for p, court in enumerate(courts):
        court = _named(court, FACTION_NAMES[:3], f"courts[{p}]")
        s.courts += [_count(court.get(FACTION_NAMES[f], 0), f"courts[{p}].{FACTION_NAMES[f]}") for f in range(3)]
    s.hands, s.cunning, hidden = [], [0] * players, [0] * players
    for p, hand in enumerate(hands):
        counted = viewer is not None and p != viewer and e.advanced
        cards, s.cunning[p], hidden[p] = _read_hand(hand, f"hands[{p}]", e, counted)
        s.hands += cards
    s.tops = []
    for p, top in enumerate(tops):
        if top is not None and not e.advanced and top in CUNNING_CARDS:
            raise PositionError(f"top_cards[{p}]: {_cunning_outside(top)}")
        if top is not None and top not in CARD_NAMES:
            raise PositionError(f"top_cards[{p}]: unknown card {top!r}")
        if e.advanced and top in e.cards and e.cards.index(top) in SUPPORT_CARDS:
            raise PositionError(f"top_cards[{p}]: {_support_in_box(top)}")
        s.tops.append(-1 if top is None else CARD_NAMES.index(top))
    s.last_play = [_count(n, f"last_played[{p}]", 10_000) for p, n in enumerate(last)]
    s.plays = _count(_get(data, "card_plays", int), "card_plays", 10_000)
    s.cunning_played = _read_cunning_played(data, e, players)
    if e.advanced:
        _check_cunning(s, hidden)

    cards = _get(data, "region_cards", list)
    if not all(isinstance(name, str) for name in cards) or sorted(cards) != sorted(REGION_NAMES):
        raise PositionError("region_cards must list each of the eight regions once")
    s.order = [REGION_NAMES.index(name) for name in cards]
    s.resolved = _count(_get(data, "resolved", int), "resolved", NUM_REGIONS)
    control = _named(_get(data, "control", dict), REGION_NAMES, "control")
    s.control = [UNRESOLVED] * NUM_REGIONS
    for position, r in enumerate(s.order):
        name = REGION_NAMES[r]
        if position < s.resolved:
            if control.get(name) not in CONTROL_NAMES[:kinds] + CONTROL_NAMES[-1:]:
                raise PositionError(f"control: resolved region {name} needs a faction or {CONTROL_NAMES[-1]!r}")
            s.control[r] = CONTROL_NAMES.index(control[name])
        elif name in control:
            raise PositionError(f"control: {name} is not resolved yet (its card is in position {position + 1})")
    s.open = sum(1 << r for r in range(NUM_REGIONS) if s.control[r] == UNRESOLVED)
    s.saxons = s.control.count(SAXONS)

    crowns = _named(_get(data, "crowns", dict), REGION_NAMES, "crowns")
    s.crowns = [-1] * NUM_REGIONS
    for name, p in crowns.items():
        if not _is_int(p) or not 0 <= p < players:
            raise PositionError(f"crowns.{name}: {p!r} is not a player")
        s.crowns[REGION_NAMES.index(name)] = p

    s.player = _count(_get(data, "to_move", int), "to_move", players - 1)
    s.passes = _count(_get(data, "passes", int), "passes", players - 1)
    if "undo_ban" not in data:
        raise PositionError("missing field 'undo_ban' (null when no exchange is banned)")
    s.undo_ban = None if data["undo_ban"] is None else _read_ban(data["undo_ban"], e, players)
    s._result = None
    _validate(s)
    return s


def _read_ban(ban: Any, e: Edition, players: int) -> UndoBan:
    """The undo ban ``ban`` describes, as the state keeps it (the advanced game's with its card)."""
    keys = {"player", "card", "exchange"} if e.advanced else {"player", "exchange"}
    if (not isinstance(ban, dict) or set(ban) != keys or not _is_int(ban["player"])
            or not 0 <= ban["player"] < players or not isinstance(ban["exchange"], str)):
        shape = "'card': name, " if e.advanced else ""
        raise PositionError(f"undo_ban must be null or {{'player': seat, {shape}'exchange': notation}}")
    card: int = Card.GARRISON
    if e.advanced:
        exchanges = (Card.GARRISON, Card.AMBASSADOR) + (ADVANCED_EXCHANGES if e.cunning_ban == "same_effect" else ())
        names = [_card_names(e)[c] for c in exchanges]
        if ban["card"] not in names:
            raise PositionError(f"undo_ban.card must name the card that made the exchange: "
                                f"{', '.join(names)}, not {ban['card']!r}")
        card = exchanges[names.index(ban["card"])]
    word = e.card_words[card] if card < FIRST_CUNNING else CUNNING_CARDS[card - FIRST_CUNNING]
    try:
        move = parse_move(word + " " + ban["exchange"], e)
    except NotationError as exc:
        raise PositionError(f"undo_ban.exchange: {exc}") from None
    action = move.action
    if not action:
        raise PositionError("undo_ban.exchange must name an exchange")
    a, b = (action[0], action[3]) if len(action) == 6 else (action[0], action[-2])
    if a == b:
        raise PositionError("undo_ban.exchange names one region twice; an exchange is between two regions")
    if len(action) == 5 and card == Card.GARRISON and not borders(a, b):
        raise PositionError(f"undo_ban.exchange: a 2-for-1 exchange is between bordering regions; "
                            f"{e.regions[a]} and {e.regions[b]} do not border each other")
    if card == Cunning.EDICT and not borders(a, b):
        raise PositionError(f"undo_ban.exchange: an Edict is between bordering regions; "
                            f"{e.regions[a]} and {e.regions[b]} do not border each other")
    undo = engine.undo_ban(e, ban["player"], action)
    if undo is None:
        raise PositionError("undo_ban.exchange changes no region's make-up (a swap within one faction); "
                            "such an exchange sets no ban")
    return (undo[0], undo[1], card) if e.advanced else undo


def _cunning_outside(name: str) -> str:
    return f"{name} is a Cunning card; the Cunning cards belong to the advanced game (mode 'advanced')"


def _support_in_box(name: str) -> str:
    return f"the advanced game has no {name} (the Support cards stay in the box)"


def _read_hand(hand: Any, where: str, e: Edition, counted: bool) -> tuple[list[int], int, int]:
    """A hand's Action cards by kind (7 counts), its Cunning cards (a bit mask) and, where ``counted`` (another
    seat's hand in a seat's view of the advanced game), how many Cunning cards it holds unnamed."""
    if isinstance(hand, dict):
        if not e.advanced and set(hand) & set(CUNNING_CARDS):
            raise PositionError(f"{where}: {_cunning_outside(min(set(hand) & set(CUNNING_CARDS)))}")
        if HIDDEN in hand and not counted:
            raise PositionError(f"{where}.{HIDDEN}: only a seat's view of the advanced game counts another "
                                f"player's Cunning cards unnamed")
        if counted and set(hand) & set(CUNNING_CARDS):
            raise PositionError(f"{where}: a seat's view does not know another player's Cunning cards "
                                f"(count them with {HIDDEN!r}), yet names {min(set(hand) & set(CUNNING_CARDS))}")
    hand = _named(hand, _card_names(e) + ((HIDDEN,) if counted else ()), where)
    cards = [_count(hand.get(e.cards[c], 0), f"{where}.{e.cards[c]}", CARD_COPIES[c]) for c in range(7)]
    if e.advanced and any(cards[c] for c in SUPPORT_CARDS):
        raise PositionError(f"{where}: {_support_in_box(e.cards[next(c for c in SUPPORT_CARDS if cards[c])])}")
    cunning = 0
    for i, name in enumerate(CUNNING_CARDS if e.advanced else ()):
        held = hand.get(name, 0)
        if _is_int(held) and held > 1:
            raise PositionError(f"{where}.{name} is {held}: there is one of each Cunning card")
        cunning |= _count(held, f"{where}.{name}", 1) << i
    return cards, cunning, _count(hand.get(HIDDEN, 0), f"{where}.{HIDDEN}", CUNNING_DEALT)


def _read_cunning_played(data: dict[str, Any], e: Edition, players: int) -> list[int]:
    """``cunning_played`` as bit masks, one per seat (the advanced game's field; zeros in the standard game)."""
    if not e.advanced:
        if "cunning_played" in data:
            raise PositionError("cunning_played belongs to the advanced game (mode 'advanced')")
        return [0] * players
    played = _get(data, "cunning_played", list)
    if len(played) != players:
        raise PositionError(f"cunning_played must have one entry per player ({players})")
    masks = []
    for p, names in enumerate(played):
        if not isinstance(names, list) or not all(isinstance(name, str) for name in names):
            raise PositionError(f"cunning_played[{p}] must be a list of Cunning card names")
        mask = 0
        for name in names:
            if name not in CUNNING_CARDS:
                raise PositionError(f"cunning_played[{p}]: unknown Cunning card {name!r}")
            if name == CUNNING_CARDS[Cunning.PLOT - FIRST_CUNNING]:
                raise PositionError(f"cunning_played[{p}]: {name} is never played")
            bit = 1 << CUNNING_CARDS.index(name)
            if mask & bit:
                raise PositionError(f"cunning_played[{p}] names {name} twice: there is one of each Cunning card")
            mask |= bit
        masks.append(mask)
    return masks


def _check_cunning(s: GameState, hidden: list[int]) -> None:
    """Each Cunning card is in one place at most, each player was dealt 3; then the unnamed cards of a seat's
    view (``hidden``, per seat) are dealt the lowest unseen cards."""
    where: dict[int, str] = {}
    for verb, masks in (("held", s.cunning), ("played", s.cunning_played)):
        for p, mask in enumerate(masks):
            for i in _bits(mask):
                place = f"{verb} by player {p + 1}"
                if i in where:
                    raise PositionError(f"{CUNNING_CARDS[i]} is {where[i]} and {place}: "
                                        f"there is one of each Cunning card")
                where[i] = place
    for p in range(s.players):
        held, played = s.cunning[p].bit_count() + hidden[p], s.cunning_played[p].bit_count()
        if held + played != CUNNING_DEALT:
            raise PositionError(f"player {p + 1} holds {held} Cunning card(s) and has played {played}: "
                                f"each player is dealt {CUNNING_DEALT}")
    unseen = [i for i in range(NUM_CUNNING) if i not in where]
    for p, count in enumerate(hidden):
        for i in unseen[:count]:
            s.cunning[p] |= 1 << i
        del unseen[:count]


def _validate(s: GameState) -> None:
    """Check the invariants that no sequence of legal moves can break."""
    e = s.edition
    REGION_NAMES, FACTION_NAMES, CARD_NAMES = e.regions, e.factions, _card_names(e)  # noqa: N806
    invasion = e.invasion
    removed = REMOVED_TWO_PLAYER if s.players == 2 else 0
    for f in range(3):
        total = sum(s.board[r * 4 + f] for r in range(NUM_REGIONS)) + s.stock[f] + sum(s.courts[f::3])
        if total != FOLLOWERS_PER_FACTION - removed:
            raise PositionError(
                f"{FACTION_NAMES[f]} followers add up to {total} on the board, in stock and at court; "
                f"a {s.players}-player game has {FOLLOWERS_PER_FACTION - removed}")
    loyalists = sum(s.board[r * 4 + 3] for r in range(NUM_REGIONS)) + s.stock[3]
    if s.mordred and loyalists != LOYALISTS_TOTAL:
        raise PositionError(f"Loyalists add up to {loyalists}; the Mordred variant has {LOYALISTS_TOTAL}")
    for r in range(NUM_REGIONS):
        if s.control[r] != UNRESOLVED and any(s.board[r * 4:r * 4 + 4]):
            raise PositionError(f"{REGION_NAMES[r]} is resolved but still holds followers")
    tokens = "Saxon tokens" if e.invaders == "Saxons" else "instability discs"
    if s.saxons > invasion:
        raise PositionError(f"{s.saxons} {tokens}: the game ends at {invasion}")
    ended_at = [i for i, r in enumerate(s.order[:s.resolved]) if s.control[r] == 3]
    if ended_at and ended_at[0] != s.resolved - 1 or len(ended_at) > 1:
        raise PositionError("the game ends when the Loyalists win a struggle; no struggle can follow")
    fourth = [i for i, r in enumerate(s.order[:s.resolved]) if s.control[r] == SAXONS]
    if s.saxons == invasion and fourth[-1] != s.resolved - 1:
        raise PositionError(f"the game ends at the last of its {invasion} {tokens}; no struggle can follow")
    for p in range(s.players):
        held = s.hands[p * 7:p * 7 + 7]
        played = HAND_SIZE - s.cards_left(p)
        if (s.tops[p] < 0) != (played == 0):
            raise PositionError(f"player {p + 1}: a top card is shown exactly when a card was played")
        if s.tops[p] >= FIRST_CUNNING and not s.cunning_played[p] >> (s.tops[p] - FIRST_CUNNING) & 1:
            raise PositionError(f"player {p + 1}: top card {CARD_NAMES[s.tops[p]]} is not among the Cunning "
                                f"cards they played")
        if 0 <= s.tops[p] < FIRST_CUNNING and held[s.tops[p]] == CARD_COPIES[s.tops[p]]:
            raise PositionError(f"player {p + 1}: top card {CARD_NAMES[s.tops[p]]} is still in the hand")
        if (s.last_play[p] == 0) != (played == 0) or s.last_play[p] > s.plays:
            raise PositionError(f"player {p + 1}: last_played does not match the cards played")
        court = sum(s.courts[p * 3:p * 3 + 3])
        if court > 2 + played:
            raise PositionError(
                f"player {p + 1} has {court} followers at court but has played {played} card(s); "
                f"a court starts with 2 and each card play calls at most 1 more, so at most {2 + played}")
        crowned = s.crowns.count(p)
        token = "Crown token" if e.name == "first" else "negotiation disc"
        if e.advanced:  # a Spy copying a Negotiate may place a disc too
            placed = (not held[Card.CROWN]) + (s.cunning_played[p] >> (Cunning.SPY - FIRST_CUNNING) & 1)
            if crowned > placed:
                raise PositionError(f"player {p + 1} has {crowned} {token}(s) on the board but could have placed "
                                    f"{placed}: one by playing the {CARD_NAMES[Card.CROWN]}, one by a Spy copying it")
        elif crowned > 1:
            raise PositionError(f"player {p + 1} has {crowned} {token}s on the board; each player has one")
        elif crowned and held[Card.CROWN]:
            raise PositionError(f"player {p + 1} has a {token} on the board without having played "
                                f"the {CARD_NAMES[Card.CROWN]}")
    nonzero = [n for n in s.last_play if n]
    if len(set(nonzero)) != len(nonzero):
        raise PositionError("last_played: two players cannot have made the same card play")
    played = sum(HAND_SIZE - s.cards_left(p) for p in range(s.players))
    if s.plays != played:
        raise PositionError(f"card_plays is {s.plays} but the hands show {played} card(s) played")
    if nonzero and max(nonzero) != s.plays:
        raise PositionError("last_played: the latest card play must be number card_plays")
    if s.undo_ban is not None and e.advanced:
        player, _, card = cast(_AdvancedBan, s.undo_ban)
        if s.tops[player] != card and not (s.tops[player] == Cunning.SPY and e.spy_ban == "as_card"):
            raise PositionError(f"undo_ban: player {player + 1}'s last card was not the {CARD_NAMES[card]} "
                                f"that made the exchange (nor a Spy copying it)")
    elif s.undo_ban is not None:
        if s.tops[s.undo_ban[0]] not in (Card.GARRISON, Card.AMBASSADOR):
            raise PositionError("undo_ban: that player's last card was not an exchange")
        if not e.ban_outlives_struggle and any(s.control[r] != UNRESOLVED for r in (s.undo_ban[1][0], s.undo_ban[1][-2])):
            raise PositionError("undo_ban: a struggle resolved since the exchange would have lifted the ban")
        if s.last_play[s.undo_ban[0]] != s.plays:
            raise PositionError(f"undo_ban: player {s.undo_ban[0] + 1} was not the last to play a card")
    if s.saxons >= invasion:
        s._result = engine.score(s, "invasion")
    elif ended_at:
        s._result = engine.score(s, "mordred")
    elif s.resolved == NUM_REGIONS:
        s._result = engine.score(s, "coronation")
