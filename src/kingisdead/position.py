"""Positions as JSON: like chess's FEN, but readable and complete.

A position holds everything needed to continue the game, including what the
no-immediate-undo rule and the tie-breaks depend on (one spelling of the
exchange that may not be made now, every spelling with the same effect being
banned alike; who played a card most recently). Loading validates it: an
impossible position (followers that do not add up, followers in a resolved
region, ...) raises :class:`PositionError` saying what is wrong.
"""

from __future__ import annotations

import json
from typing import Any

from . import engine
from .board import (
    CARD_COPIES,
    FOLLOWERS_PER_FACTION,
    LOYALISTS_TOTAL,
    NUM_REGIONS,
    REMOVED_TWO_PLAYER,
    SAXONS,
    UNRESOLVED,
    Card,
    borders,
)
from .moves import NotationError, format_move, make_move, parse_move
from .edition import Edition, read_edition
from .state import VARIANTS, GameState

FORMAT = "kingisdead-position"
VERSION = 1


def _control_names(edition: Edition) -> tuple[str, ...]:
    """Who may hold a resolved region, by control value: the factions, then "Saxons" or "unstable"."""
    return edition.factions + ("Saxons" if edition.invaders == "Saxons" else "unstable",)


class PositionError(ValueError):
    """A position that is malformed or impossible."""


def to_dict(s: GameState) -> dict[str, Any]:
    """The position as a JSON-ready dict (see docs/formats.md), in the names of its edition."""
    e = s.edition
    REGION_NAMES, FACTION_NAMES, CARD_NAMES = e.regions, e.factions, e.cards  # noqa: N806
    CONTROL_NAMES = _control_names(e)  # noqa: N806
    ban = None
    if s.undo_ban is not None:
        player, action = s.undo_ban
        card = Card.GARRISON if len(action) == 5 else Card.AMBASSADOR
        ban = {"player": player, "exchange": format_move(make_move(card, action), e).split(" ", 1)[1]}
    options = {"options": e.options()} if e.options() else {}
    return {
        "format": FORMAT,
        "version": VERSION,
        "edition": e.name,
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
        "hands": [{CARD_NAMES[c]: s.hands[p * 7 + c] for c in range(7)} for p in range(s.players)],
        "top_cards": [CARD_NAMES[t] if t >= 0 else None for t in s.tops],
        "last_played": list(s.last_play),
        "card_plays": s.plays,
        "undo_ban": ban,
    }


def dumps(s: GameState, indent: int | None = 2) -> str:
    return json.dumps(to_dict(s), indent=indent)


def loads(text: str) -> GameState:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise PositionError(f"not JSON: {exc}") from None
    return from_dict(data)


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
    """Load and validate a position; raises PositionError on anything wrong."""
    if not isinstance(data, dict):
        raise PositionError("a position is a JSON object")
    if data.get("format") != FORMAT:
        raise PositionError(f"not a position (format must be {FORMAT!r})")
    if data.get("version") != VERSION:
        raise PositionError(f"unsupported position version {data.get('version')!r} (this is version {VERSION})")
    players = _get(data, "players", int)
    if players not in (2, 3, 4):
        raise PositionError(f"players must be 2, 3 or 4, not {players}")
    variant = _get(data, "variant", str)
    if variant not in VARIANTS:
        raise PositionError(f"unknown variant {variant!r}")
    e = read_edition(data, PositionError)
    if variant == "mordred" and not e.mordred:
        raise PositionError(f"the {e.name} edition has no Mordred variant")
    REGION_NAMES, FACTION_NAMES, CARD_NAMES = e.regions, e.factions, e.cards  # noqa: N806
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
    s.hands = []
    for p, hand in enumerate(hands):
        hand = _named(hand, CARD_NAMES, f"hands[{p}]")
        s.hands += [_count(hand.get(CARD_NAMES[c], 0), f"hands[{p}].{CARD_NAMES[c]}", CARD_COPIES[c]) for c in range(7)]
    s.tops = []
    for p, top in enumerate(tops):
        if top is not None and top not in CARD_NAMES:
            raise PositionError(f"top_cards[{p}]: unknown card {top!r}")
        s.tops.append(-1 if top is None else CARD_NAMES.index(top))
    s.last_play = [_count(n, f"last_played[{p}]", 10_000) for p, n in enumerate(last)]
    s.plays = _count(_get(data, "card_plays", int), "card_plays", 10_000)
    s.cunning = [0] * players
    s.cunning_played = [0] * players

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
    ban = data["undo_ban"]
    s.undo_ban = None
    if ban is not None:
        if (not isinstance(ban, dict) or set(ban) != {"player", "exchange"} or not _is_int(ban["player"])
                or not 0 <= ban["player"] < players or not isinstance(ban["exchange"], str)):
            raise PositionError("undo_ban must be null or {'player': seat, 'exchange': notation}")
        try:
            move = parse_move(e.card_words[Card.GARRISON] + " " + ban["exchange"], e)
        except NotationError as exc:
            raise PositionError(f"undo_ban.exchange: {exc}") from None
        if not move.action:
            raise PositionError("undo_ban.exchange must name an exchange")
        a, b = move.action[0], move.action[-2]
        if a == b:
            raise PositionError("undo_ban.exchange names one region twice; an exchange is between two regions")
        if len(move.action) == 5 and not borders(a, b):
            raise PositionError(f"undo_ban.exchange: a 2-for-1 exchange is between bordering regions; "
                                f"{REGION_NAMES[a]} and {REGION_NAMES[b]} do not border each other")
        s.undo_ban = engine.undo_ban(e, ban["player"], move.action)
        if s.undo_ban is None:
            raise PositionError("undo_ban.exchange changes no region's make-up (a swap within one faction); "
                                "such an exchange sets no ban")
    s._result = None
    _validate(s)
    return s


def _validate(s: GameState) -> None:
    """Check the invariants that no sequence of legal moves can break."""
    e = s.edition
    REGION_NAMES, FACTION_NAMES, CARD_NAMES = e.regions, e.factions, e.cards  # noqa: N806
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
        played = sum(CARD_COPIES) - sum(held)
        if (s.tops[p] < 0) != (played == 0):
            raise PositionError(f"player {p + 1}: a top card is shown exactly when a card was played")
        if s.tops[p] >= 0 and held[s.tops[p]] == CARD_COPIES[s.tops[p]]:
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
        if crowned > 1:
            raise PositionError(f"player {p + 1} has {crowned} {token}s on the board; each player has one")
        if crowned and held[Card.CROWN]:
            raise PositionError(f"player {p + 1} has a {token} on the board without having played "
                                f"the {CARD_NAMES[Card.CROWN]}")
    nonzero = [n for n in s.last_play if n]
    if len(set(nonzero)) != len(nonzero):
        raise PositionError("last_played: two players cannot have made the same card play")
    played = sum(CARD_COPIES) * s.players - sum(s.hands)
    if s.plays != played:
        raise PositionError(f"card_plays is {s.plays} but the hands show {played} card(s) played")
    if nonzero and max(nonzero) != s.plays:
        raise PositionError("last_played: the latest card play must be number card_plays")
    if s.undo_ban is not None:
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
