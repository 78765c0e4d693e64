"""Explanations in words: why a finished game ended the way it did, and what happens now in a running one.

``explain_result`` retraces the engine's scoring (``kingisdead.scoring``)
step by step and returns each comparison with the values compared, so the
page can show it in words and as a table without knowing the rules itself.
"""

from __future__ import annotations

from typing import Any

from .. import engine
from ..board import NUM_CARDS, NUM_REGIONS, SAXONS, Card, Faction
from ..moves import NONE, Move
from ..scoring import _by_hands, _last_player, _sets, faction_ranking
from ..state import GameState
from .i18n import Text, _, and_list, join, ngettext
from .texts import EDITION_TEXTS, EditionTexts

LOYALISTS = int(Faction.LOYALISTS)


def regions_text(n: int) -> Text:
    """``"1 region"``, ``"3 regions"`` in the language it is shown in."""
    return ngettext("{n} region", "{n} regions", n)


def _who(players: list[int]) -> Any:
    return and_list([_("Player {n}", n=p + 1) for p in players])


def _step(kind: str, label: str, values: dict[int, int], kept: list[int], text: str) -> dict[str, Any]:
    return {"kind": kind, "label": label, "values": {str(p): v for p, v in values.items()},
            "kept": kept, "text": text}


def _names(s: GameState) -> EditionTexts:
    """The names of the state's edition, as interface texts."""
    return EDITION_TEXTS[s.edition.name]


def _faction_rows(s: GameState) -> list[dict[str, Any]]:
    regions = [0, 0, 0]
    latest: list[int | None] = [None, None, None]
    for position in range(s.resolved):
        faction = s.control[s.order[position]]
        if faction < 3:
            regions[faction] += 1
            latest[faction] = position + 1
    rows = []
    for rank, group in enumerate(faction_ranking(s), start=1):
        for f in group:
            rows.append({"faction": _names(s).factions[f], "rank": rank, "regions": regions[f],
                         "latest_win": latest[f], "tied": len(group) > 1})
    return rows


def _ranking_text(rows: list[dict[str, Any]]) -> Any:
    parts = []
    for a, b in zip(rows, rows[1:], strict=False):
        if a["rank"] == b["rank"]:
            parts.append(_("the {faction} and the {other} hold no region and stay tied",
                           faction=a["faction"], other=b["faction"]))
        elif a["regions"] == b["regions"]:
            parts.append(_("the {faction} rank above the {other}: both hold {regions}, and the {faction} won a "
                           "struggle more recently (struggle {latest} against {other_latest})",
                           faction=a["faction"], other=b["faction"], regions=regions_text(a["regions"]),
                           latest=a["latest_win"], other_latest=b["latest_win"]))
        else:
            parts.append(_("the {faction} ({regions}) rank above the {other} ({other_regions})",
                           faction=a["faction"], regions=regions_text(a["regions"]), other=b["faction"],
                           other_regions=regions_text(b["regions"])))
    return _("Factions by power: {comparisons}.", comparisons=join(parts, "; ")) if parts else ""


def _coronation_steps(s: GameState, ending: str) -> list[dict[str, Any]]:
    steps: list[dict[str, Any]] = []
    groups = faction_ranking(s)
    candidates = list(range(s.players))
    for rank, group in enumerate(groups):
        f = group[0]
        if len(group) > 1 or not any(s.control[r] == f for r in range(NUM_REGIONS)):
            break  # the ranking is no longer strict, or no faction holds a region
        name = _names(s).factions[f]
        values = {p: s.courts[p * 3 + f] for p in candidates}
        best = max(values.values())
        kept = [p for p in candidates if values[p] == best]
        if len(kept) == 1:
            others = sorted((v for v in values.values() if v != best), reverse=True)
            text = (_("{player} has the most {faction} followers at court: {count} against {other}.",
                      player=_who(kept), faction=name, count=best, other=others[0]) if others
                    else _("{player} has the most {faction} followers at court: {count}.",
                           player=_who(kept), faction=name, count=best))
        elif rank + 1 < len(groups):
            text = _("{players} tie on {faction} followers with {count} each, so the next faction decides.",
                     players=_who(kept), faction=name, count=best)
        else:
            text = _("{players} tie on {faction} followers with {count} each.", players=_who(kept), faction=name,
                     count=best)
        steps.append(_step("faction", _("{faction} at court", faction=name), values, kept, text))
        candidates = kept
        if len(candidates) == 1:
            return steps
    if ending == "mordred":
        values = {p: sum(s.courts[p * 3:p * 3 + 3]) for p in candidates}
        best = max(values.values())
        kept = [p for p in candidates if values[p] == best]
        steps.append(_step("total", _("followers at court"), values, kept,
                           _("Most followers at court in total: {players} with {count}.", players=_who(kept),
                             count=best)))
        candidates = kept
        if len(candidates) > 1:
            last = _last_player(s, candidates)
            if last is not None:
                values = {p: s.last_play[p] for p in candidates}
                steps.append(_step("last_play", _("last card played (play number)"), values, [last],
                                   _("Still tied: {player} played a card last and wins.", player=_who([last]))))
        return steps
    if s.edition.hands_break_ties and len(candidates) > 1:
        return steps + _hands_steps(s, candidates)
    while len(candidates) > 1:
        last = _last_player(s, candidates)
        if last is None:
            break
        values = {p: s.last_play[p] for p in candidates}
        kept = [p for p in candidates if p != last]
        steps.append(_step("last_play", _("last card played (play number)"), values, kept,
                           _("Still tied: {player} played a card last and drops out.", player=_who([last]))))
        candidates = kept
    return steps


def _hands_steps(s: GameState, candidates: list[int]) -> list[dict[str, Any]]:
    """The second edition's last tie-break in words: the hands, as the engine's scoring applies it."""
    kept = _by_hands(s, list(candidates), [])
    if kept == candidates:
        return []
    left = {p: sum(s.hands[p * NUM_CARDS:(p + 1) * NUM_CARDS]) for p in candidates}
    if s.edition.tie_hands == "lowest_seat":
        text = _("Still tied: {player}, in the lowest seat, wins.", player=_who(kept))
    elif s.players == 4 and all(left[q] == 0 for p in kept for q in (p, (p + 2) % 4) if q in left):
        text = _("Still tied: {player}'s team emptied both its hands first and wins.", player=_who(kept))
    elif all(left[p] == 0 for p in kept):
        text = _("Still tied: {player} emptied their hand first and wins.", player=_who(kept))
    else:
        text = _("Still tied: {player} made their last card play earliest and wins.", player=_who(kept))
    return [_step("last_play", _("last card played (play number)"), {p: s.last_play[p] for p in candidates}, kept,
                  text)]


def _invasion_steps(s: GameState) -> list[dict[str, Any]]:
    sides: list[tuple[int, ...]] = [(0, 2), (1, 3)] if s.players == 4 else [(p,) for p in range(s.players)]
    values = {side[0]: _sets(s.courts, side) for side in sides}
    best = max(values.values())
    leaders = [side for side in sides if values[side[0]] == best]
    kept = [p for side in leaders for p in side]
    label = _("complete sets (team courts pooled)") if s.players == 4 else _("complete sets")
    who = (_("the team of players {a} and {b}", a=leaders[0][0] + 1, b=leaders[0][1] + 1)
           if s.players == 4 and len(leaders) == 1 else _who([side[0] for side in leaders]))
    if len(leaders) == 1:
        text = _("Most complete sets: {who} with {count}.", who=who, count=best)
    elif s.players == 4:
        text = _("Tie at {sets} between the teams.", sets=ngettext("{n} complete set", "{n} complete sets", best))
    else:
        text = _("Tie at {sets}: {who}.", sets=ngettext("{n} complete set", "{n} complete sets", best), who=who)
    steps = [_step("sets", label, values, kept, text)]
    if len(leaders) > 1:
        last = _last_player(s, kept)
        if last is not None:
            steps.append(_step("last_play", _("last card played (play number)"),
                               {p: s.last_play[p] for p in kept}, [last],
                               _("Still tied: {player} played a card last, so that team wins.", player=_who([last]))
                               if s.players == 4 else
                               _("Still tied: {player} played a card last and wins.", player=_who([last]))))
    return steps


def explain_result(state: GameState) -> dict[str, Any] | None:
    """The end screen's explanation of a finished game (None while it runs).

    Shape: ``ending`` ("coronation" | "invasion" | "mordred"), ``headline``
    (one sentence), ``factions`` (rows of faction, rank, regions, latest_win:
    1-based struggle number or None, tied), ``ranking_text``, ``players`` (rows
    of player (0-based), courts: {faction name: followers}, total, sets,
    last_play: play number, 0 if none), ``steps`` (each: kind "faction" |
    "total" | "sets" | "last_play", label, values: {player as str: int}, kept:
    players still in contention after it, text), ``winners``, ``ruler`` and,
    in 4-player games, ``team`` ({"winners": [a, b], "text"}). Texts are
    :class:`~kingisdead.web.i18n.Text` (English as str, translated when sent);
    the courts' keys are the engine's faction names.
    """
    result = state.result
    if result is None:
        return None
    s = state
    players = [{"player": p,
                "courts": {s.edition.factions[f]: s.courts[p * 3 + f] for f in range(3)},
                "total": sum(s.courts[p * 3:p * 3 + 3]),
                "sets": min(s.courts[p * 3:p * 3 + 3]),
                "last_play": s.last_play[p]} for p in range(s.players)]
    factions = _faction_rows(s)
    headline: Any
    if result.ending == "invasion":
        headline = (_("The French invade: {regions} became unstable. Complete sets (one follower of each faction "
                      "at court) decide who leads the resistance.", regions=regions_text(s.saxons))
                    if s.edition.name == "second" else
                    _("The Saxons invade: {regions} fell to them. Complete sets (one follower of each faction at "
                      "court) decide who leads the resistance.", regions=regions_text(s.saxons)))
        steps = _invasion_steps(s)
    else:
        ruling = factions[0]
        if result.ending == "mordred":
            headline = _("Mordred's rebellion: the Loyalists won a struggle, which ends the game. "
                         "The courts are compared over the factions that hold regions.")
        else:
            headline = _("Coronation: all {n} regions are resolved.", n=NUM_REGIONS)
        if ruling["regions"]:
            headline = join([headline, _("The {faction} rule with {regions}.", faction=ruling["faction"],
                                         regions=regions_text(ruling["regions"]))], " ")
        steps = _coronation_steps(s, result.ending)
    if result.ruler is None and len(result.winners) > 1 and s.players != 4:
        steps.append(_step("shared", _("shared win"), {}, list(result.winners),
                           _("{players} stay tied (none played a card) and share the win.",
                             players=_who(list(result.winners)))))
    out: dict[str, Any] = {
        "ending": result.ending, "headline": headline, "factions": factions,
        "ranking_text": "" if result.ending == "invasion" else _ranking_text(factions),
        "players": players, "steps": steps,
        "winners": list(result.winners), "ruler": result.ruler,
    }
    if s.players == 4:
        a, b = sorted(result.winners)[:2] if len(result.winners) >= 2 else (result.winners[0], result.winners[0])
        out["team"] = {"winners": list(result.winners),
                       "text": _("The team of players {a} and {b} wins together.", a=a + 1, b=b + 1)}
    return out


MISTAKE = 0.1
"""Win chance given away (0-1) from which a move is marked a mistake ("?")."""
BLUNDER = 0.25
"""Win chance given away from which a move is marked a blunder ("??")."""


def _choices(note: dict[str, Any]) -> list[dict[str, Any]]:
    """The search's top moves of an analysis row with the played and the best one, by notation."""
    found = {other["move"]: other for other in note.get("alternatives", [])}
    found.setdefault(note["played"], {"move": note["played"], "win_chance": note["played_chance"],
                                      "description": note.get("played_description", note["played"]),
                                      "changes": note.get("played_changes")})
    found.setdefault(note["best"], {"move": note["best"], "win_chance": note["best_chance"],
                                    "description": note.get("best_description", note["best"]), "changes": None})
    return [found[move] for move in sorted(found)]


def analysis_summary(notes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per player, from an analysis's move notes (``compute.analysis``'s rows).

    Each entry: ``player`` (0-based), ``reviewed`` (moves with a choice),
    ``best`` (moves that were the best found), ``lost`` (moves that gave away
    at least MISTAKE win chance), ``blunders`` (at least BLUNDER), and
    ``mistakes``: the three moves that gave away the most (loss > 0), biggest
    first, each ``{number, played, best, best_description, loss, played_chance,
    best_chance, choices}`` (``number`` is the 1-based move number, the replay position
    after the move is ``number``, before it ``number - 1``). ``choices`` are
    the moves to offer when the player looks for a better one ("learn from
    your mistakes"): the played move, the best one and the search's next best,
    each ``{move, description, win_chance, changes}`` (``changes``: what it
    would change, views.move_changes, or None where the row does not say), in
    notation order so that the best one is not always first.
    """
    players = max((note["player"] for note in notes), default=-1) + 1
    summary = []
    for player in range(players):
        mine = [note for note in notes if note["player"] == player and not note["forced"]]
        worst = sorted((note for note in mine if note["loss"] > 0), key=lambda note: (-note["loss"], note["number"]))
        summary.append({
            "player": player, "reviewed": len(mine),
            "best": sum(1 for note in mine if note["loss"] == 0),
            "lost": sum(1 for note in mine if note["loss"] >= MISTAKE),
            "blunders": sum(1 for note in mine if note["loss"] >= BLUNDER),
            "mistakes": [{key: note[key] for key in ("number", "played", "best", "loss", "played_chance", "best_chance")}
                         | {"best_description": note.get("best_description", note["best"]),
                            "choices": _choices(note)} for note in worst[:3]],
        })
    return summary


# -- what happens now, while the game runs -------------------------------------------------

def _leader(counts: list[int]) -> int:
    """Who takes a region with these followers (Scots, Welsh, Romano-British, Loyalists): 0-3, or 4 the Saxons."""
    best = max(counts)
    return counts.index(best) if best and counts.count(best) == 1 else SAXONS


def struggle_now(state: GameState) -> dict[str, Any] | None:
    """The running struggle in words: who leads the contested region now and what an all-pass gives.

    Shape: ``region`` (the contested region), ``leader`` (0-3 the faction with
    the most followers there, 4 when the Saxons would take it: a tie or no
    follower), ``counts`` (followers per faction there), ``lead`` (a sentence:
    who leads now, by how much), ``all_pass`` (a sentence: what the region
    goes to if every player passes now, and the game's end if that ends it).
    The struggle resolves exactly so (``rules.resolve``). None once the game
    is over.
    """
    region = state.contested
    if region is None or state.is_over():
        return None
    counts = state.board[region * 4:region * 4 + 4]
    leader = _leader(counts)
    name = state.edition.regions[region]
    factions = _names(state).factions
    second = state.edition.name == "second"
    present = sorted(((n, f) for f, n in enumerate(counts) if n), key=lambda t: (-t[0], t[1]))
    lead: Text
    if not present:
        lead = _("{region} is empty: no faction leads there.", region=name)
    elif leader == SAXONS:
        tied = [factions[f] for n, f in present if n == present[0][0]]
        lead = _("No faction leads in {region}: the {factions} are tied at {count}.", region=name,
                 factions=and_list(tied), count=present[0][0])
    elif len(present) == 1:
        lead = ngettext("The {faction} lead in {region}: {n} follower and no rival.",
                        "The {faction} lead in {region}: {n} followers and no rival.", present[0][0],
                        faction=factions[leader], region=name)
    else:
        lead = _("The {faction} lead in {region} with {count} against {other} {other_faction}.",
                 faction=factions[leader], region=name, count=present[0][0], other=present[1][0],
                 other_faction=factions[present[1][1]])
    if leader != SAXONS:
        outcome = _("if everyone passes now, {region} goes to the {faction}", region=name, faction=factions[leader])
    else:
        outcome = _("if everyone passes now, {region} becomes unstable", region=name) if second \
            else _("if everyone passes now, {region} falls to the Saxons", region=name)
    ending: Text | None = None
    if leader == SAXONS and state.saxons + 1 >= state.edition.invasion:
        ending = _("that is the third instability disc to leave France: the French invade and the game ends") \
            if second else _("that is the fourth Saxon token: the Saxons invade and the game ends")
    elif leader == LOYALISTS:
        ending = _("a Loyalist win: Mordred's rebellion ends the game")
    elif state.resolved + 1 == NUM_REGIONS:
        ending = _("the last region: the game ends in a coronation")
    all_pass = _("{outcome} ({ending}).", outcome=outcome, ending=ending) if ending is not None \
        else _("{outcome}.", outcome=outcome)
    return {"region": int(region), "leader": leader, "counts": counts, "lead": lead, "all_pass": all_pass}


def _regions(state: GameState, regions: set[int]) -> Any:
    """The regions by name, or "the 6 unresolved regions" when that is what they are."""
    if len(regions) > 2 and regions == {r for r in range(NUM_REGIONS) if state.control[r] < 0}:
        return ngettext("the {n} unresolved region", "the {n} unresolved regions", len(regions))
    return and_list([state.edition.regions[r] for r in sorted(regions)])


def card_effect(state: GameState, card: int) -> dict[str, Any]:
    """What playing ``card`` would do in this position, for the hand's hover line and the map.

    Shape: ``card``, ``text`` (one sentence naming the regions it can act on),
    ``regions`` (the regions it can act on, sorted) and ``followers``
    ({region as str: [faction...]}: the followers an exchange can move from
    there; empty for cards that place followers from the stock). A card with
    no action here says so (it can still call a follower to court).
    """
    actions = engine.card_actions(state, card)
    factions = _names(state).factions
    title = _names(state).cards[card]
    followers: dict[int, set[int]] = {}
    regions: set[int] = set()
    text: Text
    if actions == [()]:
        text = _("{card}: no action here; playing it only calls a follower to court.", card=title)
    elif card == Card.CROWN:
        regions = {r for a in actions for r in a[:2]}
        text = (_("{card}: swap two of the region cards of {regions} and put your negotiation disc on one of them.",
                  card=title, regions=_regions(state, regions)) if state.edition.name == "second" else
                _("{card}: swap two of the region cards of {regions} and put your Crown token on one of them.",
                  card=title, regions=_regions(state, regions)))
    elif card in (Card.GARRISON, Card.AMBASSADOR):
        # (region, faction) of every follower some exchange moves: the source's, then the other side's
        moved = {(a[0], a[1]) for a in actions} | {(a[-2], a[-1]) for a in actions}
        if len(actions[0]) == 5:
            moved |= {(a[0], a[2]) for a in actions}
        for region, faction in moved:
            followers.setdefault(region, set()).add(faction)
        regions = set(followers)
        sources = {a[0] for a in actions}
        if card == Card.AMBASSADOR:
            text = _("{card}: exchange one follower with one from another region, among {regions}.", card=title,
                     regions=_regions(state, regions))
        elif len(actions[0]) == 5:
            text = _("{card}: two followers leave one of {sources} for a bordering region, and one comes back.",
                     card=title, sources=_regions(state, sources))
        else:
            text = _("{card}: no region can send two followers, so one follower is exchanged for one between "
                     "bordering regions among {regions}.", card=title, regions=_regions(state, regions))
    elif card == Card.SETTLEMENTS:
        regions = {r for a in actions for r in a if r != NONE}
        placed = and_list([factions[f] for f in range(3) if state.stock[f]])
        text = _("{card}: place one follower each of the {factions} from the stock, anywhere among {regions}.",
                 card=title, factions=placed, regions=_regions(state, regions))
    else:
        faction = card - Card.SCOTS
        regions = {r for a in actions for r in a}
        params = {"card": title, "faction": factions[faction], "regions": _regions(state, regions)}
        if len(actions[0]) == 1:
            text = _("{card}: place one {faction} follower in {regions} (next to {faction} land).", **params) \
                if len(regions) == 1 else \
                _("{card}: place one {faction} follower in one of {regions} (next to {faction} land).", **params)
        else:
            text = _("{card}: place two {faction} followers in {regions} (next to {faction} land).", **params) \
                if len(regions) == 1 else \
                _("{card}: place two {faction} followers together in one of {regions} (next to {faction} land).",
                  **params) if state.edition.support_together else \
                _("{card}: place two {faction} followers, in one or two of {regions} (next to {faction} land).",
                  **params)
    contested = state.contested
    if contested is not None and contested in regions:
        text = join([text, _("{region}, contested now, is among them.", region=state.edition.regions[contested])],
                    " ")
    return {"card": card, "text": text, "regions": sorted(regions),
            "followers": {str(r): sorted(f) for r, f in sorted(followers.items())}}


def hand_effects(state: GameState, seat: int) -> list[dict[str, Any]]:
    """:func:`card_effect` of each kind of card in ``seat``'s hand (none once the game is over)."""
    if state.is_over():
        return []
    return [card_effect(state, card) for card in range(NUM_CARDS) if state.hands[seat * NUM_CARDS + card]]


def hint_reason(state: GameState, move: Move) -> Text:
    """Why a suggested move helps, in words: what it does to the running struggle and to the mover's court."""
    region = state.contested
    if move.card is None:
        found = struggle_now(state)
        return _("Passing leaves the struggle as it is: {outcome}", outcome=found["all_pass"]) if found \
            else _("Passing changes nothing on the board.")
    after = state.copy()
    engine.play_unchecked(after, move)  # a hint may be an action alone, its court call not chosen
    parts: list[Text] = []
    regions, factions = state.edition.regions, _names(state).factions
    second = state.edition.name == "second"
    if region is not None and after.contested is not None:
        if after.contested != region:
            parts.append(_("it brings {region} into the struggle instead of {other}",
                           region=regions[after.contested], other=regions[region]))
            region = after.contested
        name = regions[region]
        before_leader = _leader(state.board[region * 4:region * 4 + 4])
        leader = _leader(after.board[region * 4:region * 4 + 4])
        if leader == SAXONS:
            if second:
                parts.append(_("{region} would become unstable", region=name) if before_leader == SAXONS
                             else _("it stops the {faction} in {region}: it would become unstable now",
                                    faction=factions[before_leader], region=name))
            else:
                parts.append(_("{region} would fall to the Saxons", region=name) if before_leader == SAXONS
                             else _("it stops the {faction} in {region}: the Saxons would take it now",
                                    faction=factions[before_leader], region=name))
        else:
            held = after.courts[state.player * 3 + leader] if leader < LOYALISTS else 0
            court = _("you have {count} of them at court", count=held)
            parts.append(_("the {faction} keep the lead in {region} ({court})", faction=factions[leader],
                           region=name, court=court) if leader == before_leader
                         else _("it puts the {faction} ahead in {region} ({court})", faction=factions[leader],
                                region=name, court=court))
    if move.court is not None:
        faction = move.court[1]
        parts.append(_("it brings your court to {count} {faction}", faction=factions[faction],
                       count=after.courts[state.player * 3 + faction]))
    return _("{reasons}.", reasons=join(parts, "; "))
