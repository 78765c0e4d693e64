"""The tournament endpoints: create a turn-based Swiss tournament, list them, see one (rounds, games, standings),
enter or withdraw, cancel your own. What they do is in :mod:`..tournaments`."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import datetime
from typing import Any, Literal

from fastapi import APIRouter, Response
from pydantic import BaseModel, ConfigDict, Field

from ..games import bot_names
from ..localized import LocalizedRoute
from ..live_game import DEFAULT_STAND_IN
from ..tournaments import AHEAD, POINTS, cancel, create, enter, tournament_view, tournaments_view, withdraw
from .deps import Account, Integer, Limiter, Notify, Service, SignedIn, shared_router
from .games import _one_of_names


class Points(BaseModel):
    """The points of a game's places: ``win >= shared >= loss``."""

    model_config = ConfigDict(strict=True, extra="forbid")

    win: Integer = Field(ge=0, le=10, description="a seat among the winners of a game with one winner (or one "
                                                  "winning team); also a bye")
    shared: Integer = Field(ge=0, le=10, description="each winner when several players (or teams) stay tied")
    loss: Integer = Field(ge=0, le=10, description="every other seat")


class NewTournament(BaseModel):
    """A tournament's settings; every game of it has them."""

    model_config = ConfigDict(strict=True, extra="forbid")  # no coercion: 0 is not false

    name: str = Field(min_length=3, max_length=60)
    edition: Literal["first", "second"] = "first"
    variant: Literal["standard", "mordred"] = "standard"
    mode: Literal["standard", "advanced"] = Field("standard", description="the advanced game is the second "
                                                  "edition's, unrated")
    players: Literal[2, 3, 4] = Field(2, description="players at each table")
    time_limit: Literal[86400, 259200] = Field(86400, description="seconds per move (1 or 3 days)")
    rounds: Integer = Field(3, ge=1, le=12, description="Swiss rounds")
    points: Points = Field(default_factory=lambda: Points.model_validate(POINTS))
    starts_at: datetime = Field(strict=False, description=f"ISO 8601, in the future, at most {AHEAD.days} days away: "
                                                          "entries close and round 1 is paired then")
    entry_limit: Integer = Field(64, ge=2, le=1000)
    rating_floor: float | None = Field(None, ge=-1000, le=1000, description="entrants need at least this shown "
                                                                          "rating (the edition's, at this player "
                                                                          "count; 0 without one)")
    rated: bool = Field(False, description="its games change ratings (the edition's default options, standard mode)")
    round_days: Integer = Field(14, ge=1, le=60, description="days a round may last: a game still running then is "
                                                             "played out by its stand-in bot")
    stand_in: str = Field(DEFAULT_STAND_IN, max_length=32, pattern=_one_of_names(bot_names()),
                          description="the bot level that plays for a person out of time, and plays out games at a "
                                      "round's deadline")


class Created(BaseModel):
    id: int


class Settings(BaseModel):
    """What a tournament's summary and its page both give."""

    id: int
    name: str
    creator: str
    edition: str
    variant: str
    mode: str
    players: int
    time_limit: int
    points: Points
    starts_at: datetime
    entry_limit: int
    rating_floor: float | None
    rated: bool
    round_days: int
    stand_in: str
    status: Literal["open", "running", "finished", "cancelled"]
    round: int = Field(description="the last round paired (0 before the start)")
    entered: bool = Field(description="you are entered (and not withdrawn)")


class Summary(Settings):
    rounds: int
    entrants: int = Field(description="entrants not withdrawn")


class Tournaments(BaseModel):
    tournaments: list[Summary] = Field(description="open and running (soonest start first), then finished or "
                                                   "cancelled in the last 30 days")


class Entrant(BaseModel):
    name: str
    rating: float = Field(description="the rating it plays with (taken at entry, again at the start)")
    withdrawn: bool


class TableSeat(BaseModel):
    seat: int
    name: str
    points: int | None = Field(description="its points once the game is counted")


class Table(BaseModel):
    table: int
    game: str | None = Field(description="the game's id (its page is /game/ID); null until it is made")
    seats: list[TableSeat]
    status: Literal["running", "finished", "adjudicated"]


class Round(BaseModel):
    round: int
    paired_at: datetime
    deadline: datetime = Field(description="games still running then are played out by their stand-in bot")
    finished_at: datetime | None
    tables: list[Table]
    byes: list[str] = Field(description="entrants with a bye (worth a win)")


class Standing(BaseModel):
    rank: int = Field(description="shared when points and Buchholz are equal")
    name: str
    points: int
    buchholz: int = Field(description="the sum of the points of each opponent met")
    rating: float
    byes: int


class TournamentView(Settings):
    """One tournament: the summary's fields, with ``entrants`` and ``rounds`` lists in place of their numbers
    (``entrant_count``, ``round_count``), and its standings."""

    rounds: list[Round] = Field(description="the rounds paired, first first")
    round_count: int = Field(description="the rounds it has (the summary's rounds)")
    entrants: list[Entrant] = Field(description="by rating, best first; the withdrawn too")
    entrant_count: int = Field(description="entrants not withdrawn (the summary's entrants)")
    standings: list[Standing]


def router(errors: Callable[..., dict[int | str, dict[str, Any]]]) -> APIRouter:
    """The tournament routes under /api/tournaments; ``errors(*statuses)``: the app's OpenAPI error entries."""
    routes = shared_router(tags=["tournaments"], route_class=LocalizedRoute)
    said = {401: "not signed in",
            403: "below the rating floor (rating_too_low), not its creator (not_creator), or a change not sent as JSON",
            404: "no such tournament (unknown_tournament), or you are not entered (not_entered)",
            409: "it has started (tournament_started), is full (tournament_full) or over (tournament_over)",
            429: "too many new tournaments from your account (Retry-After says when to try again)"}

    def errors_of(*statuses: int) -> dict[int | str, dict[str, Any]]:
        return {status: {**entry, "description": said.get(int(status), entry["description"])}
                for status, entry in errors(*statuses).items()}

    @routes.post("/api/tournaments", status_code=201, summary="Create a tournament",
                 responses=errors_of(401, 429))
    async def new_tournament(body: NewTournament, user: SignedIn, service: Service, limiter: Limiter) -> Created:
        """Anyone signed in; entering is separate (POST /api/tournaments/{id}/entry). 422 ``invalid_request`` for a
        start in the past or too far away, points not ``win >= shared >= loss``, or games that could not be made
        (the Mordred variant outside the first edition, the advanced game outside the second, a stand-in that
        cannot play them); 422 ``not_rateable`` (a rated advanced game, a rated game's stand-in above
        intermediate); 429."""
        made = await asyncio.to_thread(create, service, user.id, body.model_dump(),
                                       lambda: limiter.hit("tournament", f"account:{user.id}"))
        return Created(id=made)

    @routes.get("/api/tournaments", summary="The tournaments: open, running, and recently finished")
    async def list_tournaments(user: Account, service: Service) -> Tournaments:
        return Tournaments.model_validate(await asyncio.to_thread(tournaments_view, service,
                                                                  None if user is None else user.id))

    @routes.get("/api/tournaments/{tournament_id}", summary="One tournament: entrants, rounds, games, standings",
                responses=errors_of(404))
    async def one_tournament(tournament_id: int, user: Account, service: Service) -> TournamentView:
        """404 ``unknown_tournament``."""
        view = await asyncio.to_thread(tournament_view, service, _bounded(tournament_id),
                                       None if user is None else user.id)
        return TournamentView.model_validate(view)

    @routes.post("/api/tournaments/{tournament_id}/entry", status_code=204, summary="Enter a tournament",
                 responses=errors_of(401, 403, 404, 409))
    async def enter_tournament(tournament_id: int, user: SignedIn, service: Service) -> Response:
        """Before its start; entering again changes nothing. 404 ``unknown_tournament``, 409
        ``tournament_started``, ``tournament_full``, 403 ``rating_too_low``."""
        await asyncio.to_thread(enter, service, _bounded(tournament_id), user.id)
        return Response(status_code=204)

    @routes.delete("/api/tournaments/{tournament_id}/entry", status_code=204, summary="Withdraw from a tournament",
                   responses=errors_of(401, 403, 404, 409))
    async def withdraw_tournament(tournament_id: int, user: SignedIn, service: Service) -> Response:
        """Before its start the entry is removed; after it you are paired in no later round (your games under way
        go on). 404 ``unknown_tournament``, ``not_entered``; 409 ``tournament_over``."""
        await asyncio.to_thread(withdraw, service, _bounded(tournament_id), user.id)
        return Response(status_code=204)

    @routes.post("/api/tournaments/{tournament_id}/cancel", status_code=204, summary="Cancel your tournament",
                 responses=errors_of(401, 403, 404, 409))
    async def cancel_tournament(tournament_id: int, user: SignedIn, service: Service, notifier: Notify) -> Response:
        """Its creator, before its start; the entrants are told. 404 ``unknown_tournament``, 403 ``not_creator``,
        409 ``tournament_started``."""
        await asyncio.to_thread(cancel, service, notifier, _bounded(tournament_id), user.id)
        return Response(status_code=204)

    return routes


def _bounded(tournament_id: int) -> int:
    """An id no row has (0) for one outside the database's integers: answered 404 ``unknown_tournament``."""
    return tournament_id if 1 <= tournament_id <= 2**31 - 1 else 0
