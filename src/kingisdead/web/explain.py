"""Explanations in words: why a finished game ended the way it did, and what happens now in a running one.

``explain_result`` puts the engine's scoring steps (:attr:`kingisdead.scoring.Result.steps`:
each comparison with the values compared and who stays) in words and tables,
so that the page shows the engine's own reasons and never scores again.
"""

from __future__ import annotations

from typing import Any

from .. import engine
from ..analysis import Line, StruggleOutcome
from ..board import LOYALISTS, NUM_CARDS, NUM_REGIONS, SAXONS, Card
from ..moves import NONE, PASS, Move
from ..scoring import Result, Step
from ..state import GameState
from .i18n import Text, _, and_list, clauses, join, ngettext
from .texts import EDITION_TEXTS, EditionTexts



def regions_text(n: int) -> Text:
    """``"1 region"``, ``"3 regions"`` in the language it is shown in."""
    return ngettext("{n} region", "{n} regions", n)


def _who(players: list[int]) -> Any:
    return and_list([_("Player {n}", n=p + 1) for p in players])


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
    for rank, group in enumerate(engine.faction_ranking(s), start=1):
        for f in group:
            rows.append({"faction": _names(s).factions[f], "rank": rank, "regions": regions[f],
                         "latest_win": latest[f], "tied": len(group) > 1})
    return rows


def listed_factions(names: list[Any]) -> Any:
    """Faction names for a sentence that puts "the" before them, each named once and each with its
    article: "Scots", "Scots and the Welsh", "Scots, the Welsh and the Romano-British" (so that
    "the {factions}" reads "the Scots and the Welsh"; French repeats "les", German needs no second "die")."""
    listed = names[0]
    for name in names[1:-1]:
        listed = _("{factions}, the {faction}", factions=listed, faction=name)
    return _("{factions} and the {faction}", factions=listed, faction=names[-1]) if len(names) > 1 else listed


def _ranking_text(rows: list[dict[str, Any]]) -> Any:
    """The ranking in words: each group of factions the engine ranks together named once, and why each
    group ranks above the next."""
    groups: list[list[dict[str, Any]]] = []
    for row in rows:
        if groups and groups[-1][0]["rank"] == row["rank"]:
            groups[-1].append(row)
        else:
            groups.append([row])
    parts = []
    for k, group in enumerate(groups):
        if k:
            a, b = groups[k - 1][-1], group[0]
            if len(group) > 1:  # a tie only among factions that hold no region: the lowest group
                parts.append(_("the {faction} ({regions}) rank above the {others}, who hold no region and stay tied",
                               faction=a["faction"], regions=regions_text(a["regions"]),
                               others=listed_factions([row["faction"] for row in group])))
            elif a["regions"] == b["regions"]:
                parts.append(_("the {faction} rank above the {other}: both hold {regions}, and the {faction} won a "
                               "struggle more recently (struggle {latest} against {other_latest})",
                               faction=a["faction"], other=b["faction"], regions=regions_text(a["regions"]),
                               latest=a["latest_win"], other_latest=b["latest_win"]))
            else:
                parts.append(_("the {faction} ({regions}) rank above the {other} ({other_regions})",
                               faction=a["faction"], regions=regions_text(a["regions"]), other=b["faction"],
                               other_regions=regions_text(b["regions"])))
        elif len(group) > 1:  # every faction ranks together
            parts.append(_("the {factions} hold no region and stay tied",
                           factions=listed_factions([row["faction"] for row in group])))
    return _("Factions by power: {comparisons}.", comparisons=clauses(parts)) if parts else ""


PLAY_KINDS = ("latest_play_out", "latest_play", "earliest_play")
"""Step kinds whose values are play numbers (0: no card played)."""
EMPTIED_KINDS = ("emptied_hand", "emptied_team")
"""Step kinds whose values are the play that emptied a hand (-1: a card is left)."""


def _label(step: Step, s: GameState) -> Text:
    if step.kind == "faction":
        assert step.faction is not None
        return _("{faction} at court", faction=_names(s).factions[step.faction])
    if step.kind == "total":
        return _("followers at court")
    if step.kind == "sets":
        return _("complete sets (team courts pooled)") if s.players == 4 else _("complete sets")
    if step.kind == "emptied_hand":
        return _("hand emptied with")
    if step.kind == "emptied_team":
        return _("both team hands emptied with")
    if step.kind == "lowest_seat":
        return _("seat")
    if step.kind in ("plot", "plot_tiebreak"):
        return _("Plot revealed")
    if step.kind == "plot_hand":
        return _("hand emptied but for Plot with")
    return _("last card played")


def card_of_game(n: int) -> Text:
    """A play number (:attr:`GameState.last_play`: the game's card plays counted from 1, passes not
    counted) in a player's words: ``"card 16 of the game"``."""
    return _("card {n} of the game", n=n)


def _cell(step: Step, value: int) -> Any:
    """A value of a step as its table shows it."""
    if step.kind in PLAY_KINDS:
        return card_of_game(value) if value else _("none")
    if step.kind in EMPTIED_KINDS:
        return card_of_game(value) if value >= 0 else _("holds cards")
    if step.kind == "lowest_seat":
        return _("seat {n}", n=value + 1)
    if step.kind == "plot_hand":
        return card_of_game(value) if value >= 0 else _("holds cards")
    if step.kind == "plot_tiebreak":
        return _("Plot") if value else _("no Plot")
    return str(value)


def _against(n: int, others: list[int]) -> Text:
    """``card 14 of the game, against 16``: one play number against others."""
    return _("card {n} of the game, against {others}", n=n, others=and_list([str(v) for v in others]))


def _plays(step: Step) -> Text:
    """``card 14 of the game, against 16``: the kept players' play against the others' (those that count)."""
    kept = min(v for p, v in step.values if p in step.kept)
    others = sorted({v for p, v in step.values if p not in step.kept and v > 0})
    if not others:
        return card_of_game(kept)
    return _against(kept, others)


def _step_text(step: Step, s: GameState, ending: str, following: Step | None) -> Text:
    """A step in words: who stays, and why, with the values compared."""
    kept = list(step.kept)
    if step.kind == "faction":
        assert step.faction is not None
        name, best = _names(s).factions[step.faction], step.value(kept[0])
        if len(kept) == 1:
            others = sorted((v for p, v in step.values if p not in step.kept), reverse=True)
            return (_("{player} has the most {faction} followers at court: {count} against {other}.",
                      player=_who(kept), faction=name, count=best, other=others[0]) if others
                    else _("{player} has the most {faction} followers at court: {count}.",
                           player=_who(kept), faction=name, count=best))
        if following is not None and following.kind == "faction":
            return _("{players} tie on {faction} followers with {count} each, so the next faction decides.",
                     players=_who(kept), faction=name, count=best)
        return _("{players} tie on {faction} followers with {count} each.", players=_who(kept), faction=name,
                 count=best)
    if step.kind == "total":
        return _("Most followers at court in total: {players} with {count}.", players=_who(kept),
                 count=step.value(kept[0]))
    if step.kind == "latest_play_out":
        out = [p for p, _v in step.values if p not in step.kept]
        return _("Still tied: {player} played a card last ({plays}) and drops out.", player=_who(out),
                 plays=_against(step.value(out[0]), [v for p, v in step.values if p in step.kept]))
    if step.kind == "latest_play":
        last = max(step.values, key=lambda pair: pair[1])[0]
        plays = _against(step.value(last), sorted({v for p, v in step.values if p != last}))
        if ending == "invasion" and s.players == 4:
            return _("Still tied: {player} played a card last ({plays}), so that team wins.", player=_who([last]),
                     plays=plays)
        return _("Still tied: {player} played a card last ({plays}) and wins.", player=_who([last]), plays=plays)
    if step.kind == "emptied_team":
        return _("Still tied: {player}'s team emptied both its hands first ({plays}) and wins.", player=_who(kept),
                 plays=_plays(step))
    if step.kind == "emptied_hand":
        if any(v >= 0 for p, v in step.values if p not in step.kept):
            return _("Still tied: {player} emptied their hand first ({plays}) and wins.", player=_who(kept),
                     plays=_plays(step))
        return _("Still tied: {player} emptied their hand ({plays}) and {others} did not: {player} wins.",
                 player=_who(kept), plays=_plays(step), others=_who([p for p, _v in step.values if p not in kept]))
    if step.kind == "earliest_play":
        return _("Still tied, and no hand is empty: {player} played their last card earlier ({plays}) and wins.",
                 player=_who(kept), plays=_plays(step))
    if step.kind == "lowest_seat":
        return _("Still tied, and no hand is empty: {player}, in the lowest seat, wins.", player=_who(kept))
    if step.kind == "plot":  # the advanced game: revealed at the end, counted before the courts are compared
        assert step.faction is not None
        return _("{player} reveals Plot, which counts as one {faction} follower at court.",
                 player=_who([p for p, _v in step.values]), faction=_names(s).factions[step.faction])
    if step.kind == "plot_tiebreak":
        return _("Still tied: {player} holds Plot and wins the tie.", player=_who(kept))
    if step.kind == "plot_hand":
        holder, emptied = step.values[0]
        return _("{player}'s hand holds Plot alone: it counts as emptied with {play}.", player=_who([holder]),
                 play=card_of_game(emptied)) if emptied >= 0 else \
            _("{player}'s hand holds Plot alone, which does not count as an empty hand.", player=_who([holder]))
    # sets
    values = dict(step.values)
    top = max(values.values())
    leaders = [p for p in values if values[p] == top]
    who = (_("the team of players {a} and {b}", a=leaders[0] + 1, b=leaders[0] + 3)
           if s.players == 4 and len(leaders) == 1 else _who(leaders))
    if len(leaders) == 1:
        return _("Most complete sets: {who} with {count}.", who=who, count=top)
    if s.players == 4:
        return _("Tie at {sets} between the teams.", sets=ngettext("{n} complete set", "{n} complete sets", top))
    return _("Tie at {sets}: {who}.", sets=ngettext("{n} complete set", "{n} complete sets", top), who=who)


def _result_steps(s: GameState, result: Result) -> list[dict[str, Any]]:
    """The result's steps (the engine's, :attr:`Result.steps`) as the end screen shows them."""
    steps = list(result.steps)
    return [{"kind": step.kind, "label": _label(step, s), "values": {str(p): v for p, v in step.values},
             "cells": {str(p): _cell(step, v) for p, v in step.values}, "kept": list(step.kept),
             "text": _step_text(step, s, result.ending, steps[i + 1] if i + 1 < len(steps) else None)}
            for i, step in enumerate(steps)]


def explain_result(state: GameState) -> dict[str, Any] | None:
    """The end screen's explanation of a finished game (None while it runs).

    Shape: ``ending`` ("coronation" | "invasion" | "mordred"), ``headline``
    (one sentence), ``factions`` (rows of faction, rank, regions, latest_win:
    1-based struggle number or None, tied), ``ranking_text``, ``players`` (rows
    of player (0-based), courts: {faction name: followers}, total, sets,
    last_play: play number, 0 if none, last_card: the same in words), ``steps`` (the result's steps, each:
    kind (a :data:`kingisdead.scoring.STEP_KINDS` key, or "shared" for a
    shared win), label, values: {player as str: int} (with 4 players a "sets"
    step's are per team, keyed by its lower seat), cells: the same values as
    the table shows them, kept: players still in contention after it, text),
    ``winners``, ``ruler`` and,
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
                "last_play": s.last_play[p],
                "last_card": card_of_game(s.last_play[p]) if s.last_play[p] else _("none")} for p in range(s.players)]
    factions = _faction_rows(s)
    headline: Any
    if result.ending == "invasion":
        headline = (_("The French invade: {regions} became unstable. Complete sets (one follower of each faction "
                      "at court) decide who leads the resistance.", regions=regions_text(s.saxons))
                    if s.edition.name == "second" else
                    _("The Saxons invade: {regions} fell to them. Complete sets (one follower of each faction at "
                      "court) decide who leads the resistance.", regions=regions_text(s.saxons)))
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
    steps = _result_steps(s, result)
    if result.ruler is None and len(result.winners) > 1 and s.players != 4:
        text = (_("{players} stay tied (nothing parts them) and share the win.", players=_who(list(result.winners)))
                if s.edition.hands_break_ties and result.ending != "invasion" else
                _("{players} stay tied (none played a card) and share the win.", players=_who(list(result.winners))))
        steps.append({"kind": "shared", "label": _("shared win"), "values": {}, "cells": {},
                      "kept": list(result.winners), "text": text})
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
    found.setdefault(note["played"], {"move": note["played"], "shown_notation": note.get("played_shown", note["played"]),
                                      "win_chance": note["played_chance"],
                                      "description": note.get("played_description", note["played"]),
                                      "changes": note.get("played_changes")})
    found.setdefault(note["best"], {"move": note["best"], "shown_notation": note.get("best_shown", note["best"]),
                                    "win_chance": note["best_chance"],
                                    "description": note.get("best_description", note["best"]), "changes": None})
    return [found[move] for move in sorted(found)]


MISTAKES_SHOWN = 3
"""The costliest moves per player that the summary lists and "learn from your mistakes" goes through,
at the least: every blunder is listed, however many (the summary counts them)."""


def costliest(notes: list[dict[str, Any]], player: int) -> list[dict[str, Any]]:
    """The moves of ``player`` that gave away the most win chance (loss > 0), biggest first: every
    blunder (loss at least BLUNDER), and at least MISTAKES_SHOWN moves where there are so many."""
    mine = [note for note in notes if note["player"] == player and not note["forced"] and note["loss"] > 0]
    blunders = sum(1 for note in mine if note["loss"] >= BLUNDER)
    return sorted(mine, key=lambda note: (-note["loss"], note["number"]))[:max(MISTAKES_SHOWN, blunders)]


def why_better(state: GameState, played: Line, best: Line) -> Text:
    """Why the better move beats the one played, from both moves' lines (``state``: the position before)."""
    return _("After the better move, as the search plays on: {best}. After yours: {played}.",
             best=line_text(state, best), played=line_text(state, played))


def analysis_summary(notes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per player, from an analysis's move notes (``compute.analysis``'s rows).

    Each entry: ``player`` (0-based), ``reviewed`` (moves with a choice),
    ``best`` (moves that were the best found), ``lost`` (moves that gave away
    at least MISTAKE win chance), ``blunders`` (at least BLUNDER), and
    ``mistakes``: the moves that gave away the most (loss > 0), biggest
    first (:func:`costliest`: every blunder, and three moves at least), each ``{number, played, best, played_shown,
    best_shown (the two in the reader's words: texts.NotationText), best_description, loss, played_chance,
    best_chance, why, choices}`` (``why``: :func:`why_better`, None where the row lacks it) (``number`` is the 1-based move number, the replay position
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
        worst = costliest(notes, player)
        summary.append({
            "player": player, "reviewed": len(mine),
            "best": sum(1 for note in mine if note["loss"] == 0),
            "lost": sum(1 for note in mine if note["loss"] >= MISTAKE),
            "blunders": sum(1 for note in mine if note["loss"] >= BLUNDER),
            "mistakes": [{key: note[key] for key in ("number", "played", "best", "loss", "played_chance", "best_chance")}
                         | {"best_description": note.get("best_description", note["best"]),
                            "played_shown": note.get("played_shown", note["played"]),
                            "best_shown": note.get("best_shown", note["best"]),
                            "why": note.get("why"), "choices": _choices(note)} for note in worst],
        })
    return summary


# -- what happens now, while the game runs -------------------------------------------------

def struggle_now(state: GameState) -> dict[str, Any] | None:
    """The running struggle in words: who leads the contested region now and what an all-pass gives.

    Shape: ``region`` (the contested region), ``leader`` (0-3 the faction with
    the most followers there, 4 when the Saxons would take it: a tie or no
    follower), ``counts`` (followers per faction there), ``lead`` (a sentence:
    who leads now, by how much), ``all_pass`` (a sentence: what the region
    goes to if every player passes now, and the game's end if that ends it),
    ``if_over`` (when the all-pass would end the game: the comparisons that
    would decide it, from the engine's result of those passes, else None; always None in the advanced
    game, whose result counts the secret Plot card).
    The engine plays those passes: the leader, the ending and ``if_over`` are
    its resolution and its result. None once the game is over.
    """
    region = state.contested
    if region is None or state.is_over():
        return None
    counts = state.board[region * 4:region * 4 + 4]
    passed = state.copy()  # every player passes: the engine resolves the struggle
    while passed.result is None and passed.resolved == state.resolved:
        engine.play(passed, PASS)  # a pass is always legal: no check first
    leader = passed.control[region]
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
                 factions=listed_factions(tied), count=present[0][0])
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
    result = passed.result
    if result is not None and result.ending == "invasion":
        ending = _("that is the third instability disc to leave France: the French invade and the game ends") \
            if second else _("that is the fourth Saxon token: the Saxons invade and the game ends")
    elif result is not None and result.ending == "mordred":
        ending = _("a Loyalist win: Mordred's rebellion ends the game")
    elif result is not None:
        ending = _("the last region: the game ends in a coronation")
    all_pass = _("{outcome} ({ending}).", outcome=outcome, ending=ending) if ending is not None \
        else _("{outcome}.", outcome=outcome)
    return {"region": int(region), "leader": leader, "counts": counts, "lead": lead, "all_pass": all_pass,
            "if_over": None if state.edition.advanced else _if_over(passed)}


def _if_over(passed: GameState) -> Text | None:
    """What would decide the game if the passes that gave ``passed`` ended it: the engine's result, its
    comparisons in words (the tie-breaks foreseen). None if they do not end it."""
    explained = explain_result(passed)
    if explained is None:
        return None
    return _("If it ends so: {steps}", steps=join([step["text"] for step in explained["steps"]], " "))


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


def _winners_text(state: GameState, winners: tuple[int, ...]) -> Text:
    """The winners as the player to move in ``state`` reads them: "you win", "your team wins", "Player 2 wins"."""
    me = state.player
    if me in winners:
        return _("your team wins") if state.players == 4 else _("you win") if len(winners) == 1 \
            else _("you share the win with {others}", others=_who([p for p in winners if p != me]))
    if state.players == 4:
        return _("the other team wins")
    return ngettext("{players} wins", "{players} win", len(winners), players=_who(list(winners)))


def _outcome_text(state: GameState, struggle: StruggleOutcome) -> Text:
    """One struggle of a line in words, e.g. "Deva goes to the Welsh (you have 2 of them at court)"."""
    name, factions = state.edition.regions[struggle.region], _names(state).factions
    if struggle.ruler == SAXONS:
        return _("{region} becomes unstable", region=name) if state.edition.name == "second" \
            else _("{region} falls to the Saxons", region=name)
    if struggle.ruler == LOYALISTS:
        return _("{region} goes to the Loyalists", region=name)
    held = state.courts[state.player * 3 + struggle.ruler]  # as they are before the move: what the player sees
    return _("{region} goes to the {faction} (you have {count} of them at court)", region=name,
             faction=factions[struggle.ruler], count=held)


def _ending_text(state: GameState, line: Line) -> Text:
    """How a line ends, in the words of the player to move in ``state``."""
    result = line.result
    at = line.ends_at
    winners = _winners_text(state, result.winners)
    if result.ending == "invasion":
        return _("the French invade at struggle {n}: {winners}", n=at, winners=winners) \
            if state.edition.name == "second" else \
            _("the Saxons invade at struggle {n}: {winners}", n=at, winners=winners)
    if result.ending == "mordred":
        return _("Mordred's rebellion ends the game at struggle {n}: {winners}", n=at, winners=winners)
    return _("the game ends in a coronation: {winners}", winners=winners)


def line_text(state: GameState, line: Line) -> Text:
    """What follows a move along its best line (:func:`kingisdead.analysis.best_line`), in words.

    Said to the player to move in ``state`` (the position before the move): what the running
    struggle goes to, and how and for whom the game ends; courts are counted as they are before
    the move.
    """
    parts = []
    if line.struggles and line.struggles[0].number == state.resolved + 1:
        parts.append(_outcome_text(state, line.struggles[0]))
    parts.append(_ending_text(state, line))
    return clauses(parts)


def hint_reason(state: GameState, move: Move, line: Line) -> Text:
    """Why a suggested move is good or bad, from its consequences: what follows it along its best line
    (``line``, :func:`kingisdead.analysis.best_line`), the follower it calls to court, and, where a tie
    decides the line's end, the engine's comparisons that break it."""
    parts = [_("as the search plays on: {consequences}", consequences=line_text(state, line))]
    if move.court is not None:
        faction = move.court[1]
        parts.append(_("it brings your court from {before} to {after} {faction}", faction=_names(state).factions[faction],
                       before=state.courts[state.player * 3 + faction],
                       after=state.courts[state.player * 3 + faction] + 1))
    reason = _("{reasons}.", reasons=clauses(parts))
    steps = line.result.steps
    if len(steps) < 2:  # one comparison decided: no tie
        return reason
    told = [_step_text(step, state, line.result.ending, steps[i + 1] if i + 1 < len(steps) else None)
            for i, step in enumerate(steps)]
    return join([reason, _("A tie decides it: {steps}", steps=join(told, " "))], " ")
