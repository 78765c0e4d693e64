"""Rated games: OpenSkill ratings per account, edition and player count, the leaderboard, bot accounts.

A rating is OpenSkill's Plackett-Luce ``(mu, sigma)``; people see its conservative
estimate ``mu - 3 sigma`` (:func:`shown`), which also orders the leaderboard. A
person's rating is *provisional* (:func:`provisional`) for their first
:data:`PROVISIONAL_GAMES` rated games at a player count: a newcomer starts at
``25 - 3 * 25/3 = 0`` and one loss takes them below zero, so the pages show
"provisional" rather than that number until it means something. Each
account has one rating per edition (first, second: each its own game) and
player count: 2, 3 (three teams of one) and 4 (the two 2-vs-2 teams, partners
rated together). A game's winners share rank 1 and
every other seat (or team) shares rank 2: the game names winners only, and a
shared win is a tie. A seat its person gave up (:func:`forfeited`: left, or
played more by the stand-in bot than by them) is rated as a loss below everyone,
whatever the stand-in did; a rated game's stand-in is at most as strong as
:data:`~kingisdead.web.live_game.DEFAULT_STAND_IN`.

Every bot level (:data:`~kingisdead.bots.levels.LEVELS`) is an account of kind
``"bot"``, made on first use, whose rating starts from the level's arena Elo
(:data:`LEVEL_ELO`, see docs/web.md) so that people can place themselves.

A finished rated game is applied once (:func:`apply_ratings`): one transaction
claims it by a conditional ``UPDATE games SET ratings_applied`` and, only if that
changed a row, inserts its ``rating_changes`` (unique per game and account) and
updates the ``ratings``. :func:`apply_pending` applies those a crash or a database outage left behind
(:func:`keep_applied` runs it in the background).
"""

from __future__ import annotations

import asyncio
import logging
from datetime import UTC, datetime
from functools import cache
from typing import TYPE_CHECKING, Any

from openskill.models import PlackettLuce
from sqlalchemy import func, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, aliased

from ..bots.levels import LEVELS
from . import pubsub
from .errors import GameError
from .live_game import DEFAULT_STAND_IN
from .i18n import _
from .db import GameRow, MoveRow, RatingChangeRow, RatingRow, SeatRow, UserRow
from .outage import DATABASE_DOWN, Outage

if TYPE_CHECKING:  # the service imports this module
    from .service import GameService

log = logging.getLogger("kingisdead.web")

MODEL = PlackettLuce()
"""OpenSkill's Plackett-Luce model with its defaults: mu 25, sigma 25/3, beta 25/6."""
LEVEL_ELO = {"beginner": -285.0, "intermediate": -221.0, "strong": 186.0, "max": 320.0, "master": 377.0}
"""Each level's Bradley-Terry Elo (mean 0) in the 2-player arena run '2p-levels' of docs/bots.md;
``master`` (not in that run) is placed at strong + 191, the Elo gap of the network-guided search's
75% score against ``strong`` at 1 s a move (docs/bots.md, 40 games): a floor, as master thinks longer."""
BOT_SIGMA = 3.0
"""A bot's starting uncertainty: the calibration rests on 24 arena games per level."""
ATTEMPTS = 3
"""Tries of one game's rating transaction: a first rating of an account inserted by another game's
transaction at the same moment makes this one fail its insert, and the next try updates it instead."""


def shown(mu: float, sigma: float) -> float:
    """The rating people see: the conservative estimate ``mu - 3 sigma``, rounded to 0.1."""
    return round(mu - 3 * sigma, 1)


PROVISIONAL_GAMES = 5
"""Rated games at one player count before a person's rating is shown as a number: by then a player who
wins half their games stands above zero (sigma falls from 8.3 to about 7.2)."""


def provisional(kind: str, games: int) -> bool:
    """Whether an account's rating (``kind`` "person" or "bot"; ``games`` rated at that player count) is
    still provisional: a person's before :data:`PROVISIONAL_GAMES` games; a bot level's never (the arena
    placed it)."""
    return kind != "bot" and games < PROVISIONAL_GAMES


@cache
def level_mu(level: str) -> float:
    """The starting mu of a bot level: the mu at which OpenSkill predicts, against a bot at the default
    mu (Elo 0), the score that the level's Elo gives (1 / (1 + 10^(-elo/400))). KeyError: not a level."""
    wanted = 1 / (1 + 10 ** (-LEVEL_ELO[level] / 400))
    low, high = MODEL.mu - 60, MODEL.mu + 60
    for _step in range(60):  # bisection: the predicted score grows with mu
        middle = (low + high) / 2
        other = MODEL.rating(mu=MODEL.mu, sigma=BOT_SIGMA)
        chance = MODEL.predict_win([[MODEL.rating(mu=middle, sigma=BOT_SIGMA)], [other]])[0]
        low, high = (middle, high) if chance < wanted else (low, middle)
    return round((low + high) / 2, 3)


def bot_key(level: str) -> str:
    """The ``users.name_key`` of a bot level's account (a colon no person's name key holds)."""
    return f"bot:{level}"


def bot_account(sessions: Any, level: str) -> int:
    """The id of the bot level's account, made on first use (safe when processes race).

    ``sessions``: a SQLAlchemy ``sessionmaker``. KeyError: not a level.
    """
    LEVELS[level]
    for _attempt in range(ATTEMPTS):
        with sessions() as session:
            found = session.scalar(select(UserRow.id).where(UserRow.name_key == bot_key(level)))
        if found is not None:
            return int(found)
        try:
            with sessions.begin() as session:
                user = UserRow(name=f"{level.capitalize()} bot", name_key=bot_key(level), kind="bot")
                session.add(user)
                session.flush()
                return int(user.id)
        except IntegrityError:
            continue  # made by another request just now: read it
    raise RuntimeError(f"could not make the account of bot level {level!r}")


def check_rated(seats: list[dict[str, Any]], *, hints: bool, hotseat: bool, stand_in: str,
                user_id: int | None) -> None:
    """Refuse a rated game that could not be rated fairly: GameError 403 ``rated_sign_in`` if its
    creator is not signed in (``user_id`` None); 422 ``not_rateable`` with hints, hot-seat, no person,
    a bot or stand-in that is not a level of :data:`LEVEL_ELO`, a stand-in stronger than
    :data:`~kingisdead.web.live_game.DEFAULT_STAND_IN`, or one level in two seats (each account holds one
    seat of a rated game). ``seats``: the seat descriptions of the create request."""
    def refuse(message: str) -> None:  # message: an interface text (i18n._)
        raise GameError(422, "not_rateable", message)

    if user_id is None:
        raise GameError(403, "rated_sign_in", _("sign in to create a rated game: every person's seat in a rated "
                                                "game is held by an account"))
    levels = ", ".join(LEVEL_ELO)
    bots = [(spec.get("bot") or "").lower() for spec in seats if spec["kind"] == "bot"]
    if hotseat:
        refuse(_("a rated game is not played hot-seat: each person plays from their own account"))
    if hints:
        refuse(_("a rated game has no hints"))
    if stand_in not in LEVEL_ELO:
        refuse(_("the stand-in bot of a rated game plays at a fixed level ({levels})", levels=levels))
    if LEVEL_ELO[stand_in] > LEVEL_ELO[DEFAULT_STAND_IN]:  # a person away must not gain from a strong stand-in
        refuse(_("the stand-in bot of a rated game is at most as strong as the {level} level",
                 level=DEFAULT_STAND_IN))
    if len(bots) == len(seats):
        refuse(_("a rated game needs at least one person"))
    if any(bot not in LEVEL_ELO for bot in bots):
        refuse(_("the bots of a rated game play at a fixed level ({levels})", levels=levels))
    if len(set(bots)) != len(bots):
        refuse(_("a rated game has each bot level in one seat at most"))


def rated_stand_ins() -> list[str]:
    """The stand-in levels a rated game may have, weakest first: those no stronger than
    :data:`~kingisdead.web.live_game.DEFAULT_STAND_IN`."""
    cap = LEVEL_ELO[DEFAULT_STAND_IN]
    return sorted((level for level, elo in LEVEL_ELO.items() if elo <= cap), key=LEVEL_ELO.__getitem__)


def capped_stand_in(level: str) -> str:
    """A rated game's stand-in: ``level``, or :data:`~kingisdead.web.live_game.DEFAULT_STAND_IN` if that is
    stronger (a game rated before the cap) or not a level of :data:`LEVEL_ELO`."""
    return level if LEVEL_ELO.get(level, float("inf")) <= LEVEL_ELO[DEFAULT_STAND_IN] else DEFAULT_STAND_IN


def check_rated_seat(sessions: Any, game_id: str, user_id: int | None) -> None:
    """Before a person takes a seat of a rated game (join, invite): GameError 403 ``rated_sign_in`` if
    they are not signed in, 409 ``already_seated`` if their account holds a seat of it already."""
    if user_id is None:
        raise GameError(403, "rated_sign_in", _("this is a rated game: sign in to take a seat"))
    with sessions() as session:
        if session.scalar(select(SeatRow.id).where(SeatRow.game_id == game_id, SeatRow.user_id == user_id)):
            raise GameError(409, "already_seated", _("your account holds a seat of this rated game already"))


def _starting(kind: str, name_key: str) -> tuple[float, float]:
    if kind == "bot" and name_key.startswith("bot:") and name_key[4:] in LEVEL_ELO:
        return level_mu(name_key[4:]), BOT_SIGMA
    return MODEL.mu, MODEL.sigma


def sides(players: int) -> list[tuple[int, ...]]:
    """The seats rated together: every seat alone, or with 4 players the teams (0, 2) and (1, 3)."""
    return [(0, 2), (1, 3)] if players == 4 else [(seat,) for seat in range(players)]


def ranks(players: int, winners: list[int], forfeited: set[int] | frozenset[int] = frozenset()) -> list[float]:
    """OpenSkill ranks of :func:`sides` (1 is best): a side with a ``forfeited`` seat 3, below all; of the
    others, those with a winner 1, the rest 2, or all 1 if none of them won (a forfeited seat's win, the
    stand-in's, counts for no one)."""
    lost = [bool(forfeited & set(side)) for side in sides(players)]
    won = [bool(set(winners) & set(side)) and not gave_up for side, gave_up in zip(sides(players), lost)]
    return [3.0 if gave_up else 1.0 if wins or not any(won) else 2.0 for gave_up, wins in zip(lost, won)]


def forfeited(session: Session, game_id: str) -> set[int]:
    """The person's seats of a game that count as given up: left, or with more of their moves played by
    the stand-in bot than by the person (a person away for most of the game)."""
    return forfeited_seats(session, [game_id]).get(game_id, set())


def forfeited_seats(session: Session, game_ids: list[str]) -> dict[str, set[int]]:
    """:func:`forfeited` of several games at once: the seats given up by game id (games with none left out)."""
    played: dict[tuple[str, int, bool], int] = {}
    for game_id, seat, by_stand_in, count in session.execute(
            select(MoveRow.game_id, MoveRow.seat, MoveRow.stand_in, func.count()).where(MoveRow.game_id.in_(game_ids))
            .group_by(MoveRow.game_id, MoveRow.seat, MoveRow.stand_in)):
        played[game_id, seat, bool(by_stand_in)] = int(count)
    found: dict[str, set[int]] = {}
    for s in session.scalars(select(SeatRow).where(SeatRow.game_id.in_(game_ids), SeatRow.kind == "human")):
        if s.left or played.get((s.game_id, s.seat, True), 0) > played.get((s.game_id, s.seat, False), 0):
            found.setdefault(s.game_id, set()).add(s.seat)
    return found


def apply_ratings(engine: Engine, game_id: str) -> bool:
    """Apply a finished rated game's result to its seats' ratings, once; True if this call applied it.

    False (nothing changed) for a game that is unknown, unrated, running or already
    applied, whether by this process, another one or an earlier run. A rated game
    with a seat held by no account, or by one account twice, is marked applied with
    no change (logged): it cannot be rated fairly.
    """
    for attempt in range(ATTEMPTS):
        try:
            with Session(engine) as session, session.begin():
                return _apply(session, game_id)
        except IntegrityError:
            if attempt == ATTEMPTS - 1:
                raise
    return False


def _apply(session: Session, game_id: str) -> bool:
    claimed = session.execute(
        update(GameRow)
        .where(GameRow.id == game_id, GameRow.rated.is_(True), GameRow.status == "finished",
               GameRow.ratings_applied.is_(False))
        .values(ratings_applied=True)
        .execution_options(synchronize_session=False))
    if not getattr(claimed, "rowcount", 0):
        return False  # not a finished rated game, or applied already: the claim is the once-only guard
    game = session.get(GameRow, game_id)
    assert game is not None
    accounts = {s.seat: s.user_id for s in session.scalars(select(SeatRow).where(SeatRow.game_id == game_id))}
    found = [accounts.get(seat) for seat in range(game.players)]
    holders = [user_id for user_id in found if user_id is not None]  # seat by seat, once none is missing
    if len(holders) != game.players or len(set(holders)) != len(holders):
        log.warning("rated game %s has a seat without an account or an account twice: not rated", game_id)
        return True
    users = {u.id: u for u in session.scalars(select(UserRow).where(UserRow.id.in_(holders)))}
    held = {r.user_id: r for r in session.scalars(
        select(RatingRow).where(RatingRow.user_id.in_(holders), RatingRow.edition == game.edition,
                                RatingRow.players == game.players)
        .order_by(RatingRow.user_id).with_for_update())}  # locked in one order: two games cannot deadlock
    before: dict[int, tuple[float, float]] = {}
    for user_id in holders:
        row = held.get(user_id)
        before[user_id] = (row.mu, row.sigma) if row else _starting(users[user_id].kind, users[user_id].name_key)
    teams = [[MODEL.rating(*before[holders[seat]]) for seat in side] for side in sides(game.players)]
    rated = MODEL.rate(teams, ranks=ranks(game.players, list((game.result or {}).get("winners", [])),
                                          forfeited(session, game_id)))
    now = datetime.now(UTC)
    for side, team in zip(sides(game.players), rated):
        for seat, rating in zip(side, team):
            user_id = holders[seat]
            mu_before, sigma_before = before[user_id]
            session.add(RatingChangeRow(game_id=game_id, user_id=user_id, players=game.players,
                                        edition=game.edition, created_at=now,
                                        mu_before=mu_before, sigma_before=sigma_before,
                                        mu_after=rating.mu, sigma_after=rating.sigma))
            row = held.get(user_id)
            if row is None:
                session.add(RatingRow(user_id=user_id, players=game.players, edition=game.edition, mu=rating.mu,
                                      sigma=rating.sigma, games=1, updated_at=now))
            else:
                row.mu, row.sigma, row.games, row.updated_at = rating.mu, rating.sigma, row.games + 1, now
    session.flush()
    pubsub.publish(session.connection(), game_id, game.move_count)  # other processes reload: the view changed
    return True


def apply_pending(engine: Engine) -> list[str]:
    """Apply every finished rated game not applied yet (after a crash between its last move and its
    ratings); returns the ids this call applied."""
    with Session(engine) as session:
        pending = list(session.scalars(select(GameRow.id).where(
            GameRow.rated.is_(True), GameRow.status == "finished", GameRow.ratings_applied.is_(False))))
    return [game_id for game_id in pending if apply_ratings(engine, game_id)]


async def keep_applied(service: GameService, every: float = 1.0) -> None:
    """Apply the finished rated games not applied yet each time applying one failed
    (``service.ratings_due``), looking every ``every`` seconds. While the
    database cannot be reached it tries again, waiting longer each time (:class:`~.outage.Outage`).
    Runs until cancelled."""
    outage = Outage("ratings")
    while True:
        if service.ratings_due.is_set():
            service.ratings_due.clear()
            try:
                await asyncio.to_thread(apply_pending, service.engine)
            except DATABASE_DOWN as exc:
                service.ratings_due.set()
                await asyncio.sleep(outage.failed(exc))
                continue
            except Exception:
                log.exception("applying pending ratings failed; trying again")
                service.ratings_due.set()
                await asyncio.sleep(outage.longest)
                continue
            outage.ok()
        await asyncio.sleep(every)


def game_ratings(sessions: Any, game_id: str) -> list[dict[str, Any]]:
    """A rated game's rating changes by seat, once applied (else ``[]``): per seat its ``seat``,
    account ``name``, ``bot``, ``before`` and ``after`` (shown ratings), ``change``, the raw
    ``mu``/``sigma`` after, ``games`` (the account's rated games of this edition at this player
    count, this one included) and whether the rating was and is provisional (``provisional_before``/``_after``)."""
    earlier = aliased(RatingChangeRow)
    with sessions() as session:
        rows = session.execute(
            select(SeatRow.seat, UserRow.name, UserRow.kind, RatingChangeRow,
                   select(func.count(earlier.id)).where(earlier.user_id == RatingChangeRow.user_id,
                                                       earlier.players == RatingChangeRow.players,
                                                       earlier.edition == RatingChangeRow.edition,
                                                       earlier.id <= RatingChangeRow.id).scalar_subquery())
            .join(UserRow, UserRow.id == SeatRow.user_id)
            .join(RatingChangeRow, (RatingChangeRow.user_id == SeatRow.user_id)
                  & (RatingChangeRow.game_id == SeatRow.game_id))
            .where(SeatRow.game_id == game_id).order_by(SeatRow.seat)).all()
    found = []
    for seat, name, kind, change, games in rows:
        before, after = shown(change.mu_before, change.sigma_before), shown(change.mu_after, change.sigma_after)
        found.append({"seat": seat, "name": name, "bot": kind == "bot", "before": before, "after": after,
                      "change": round(after - before, 1), "mu": change.mu_after, "sigma": change.sigma_after,
                      "games": games, "provisional_before": provisional(kind, games - 1),
                      "provisional_after": provisional(kind, games)})
    return found


def leaderboard(sessions: Any, players: int, limit: int = 100, edition: str = "first") -> dict[str, Any]:
    """The ratings of ``players``-player games of ``edition`` (a name of kingisdead.edition.EDITIONS), best
    conservative estimate first (at most ``limit``); every bot level is listed, at its starting rating until
    it has played (``games`` 0)."""
    with sessions() as session:
        rows = session.execute(select(UserRow, RatingRow).join(RatingRow, RatingRow.user_id == UserRow.id)
                               .where(RatingRow.players == players, RatingRow.edition == edition)).all()
    entries = [_entry(user.name, user.kind, user.name_key, row.mu, row.sigma, row.games) for user, row in rows]
    played = {e["level"] for e in entries if e["level"]}
    for level in LEVELS:
        if level in LEVEL_ELO and level not in played:
            entries.append(_entry(f"{level.capitalize()} bot", "bot", bot_key(level), level_mu(level), BOT_SIGMA, 0))
    entries.sort(key=lambda e: (-(e["mu"] - 3 * e["sigma"]), e["name"].casefold()))
    bots = {e["level"]: e["rating"] for e in entries if e["level"]}
    for place, entry in enumerate(entries, start=1):
        entry["rank"] = place
    return {"players": players, "edition": edition, "ratings": entries[:limit], "bots": bots}


def _entry(name: str, kind: str, name_key: str, mu: float, sigma: float, games: int) -> dict[str, Any]:
    level = name_key[4:] if kind == "bot" and name_key.startswith("bot:") else None
    return {"name": name, "bot": kind == "bot", "level": level, "rating": shown(mu, sigma),
            "provisional": provisional(kind, games), "mu": round(mu, 3), "sigma": round(sigma, 3), "games": games}
