"""The challenge endpoints: challenge one to three players by name to a game, answer or withdraw a challenge, and
list your own. What they do is in :mod:`..challenges`."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import datetime
from typing import Annotated, Any, Literal

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict, Field, model_validator

from ..accounts import NAME_LENGTH
from ..errors import ErrorBody, GameError
from ..games import bot_names
from ..challenges import EXPIRY, OPEN_LIMIT, accept, challenges_view, create, decline, withdraw
from ..i18n import _
from ..localized import LocalizedRoute
from ..live_game import DEFAULT_STAND_IN
from .deps import Limiter, Notify, PublicUrl, Runner, Service, SignedIn, shared_router
from .games import _one_of_names

_BOT = Annotated[str, Field(max_length=32, pattern=_one_of_names(bot_names()))]


class ChallengeSettings(BaseModel):
    """The game a challenge proposes: POST /api/games's settings; the challenger at seat 0, the people challenged
    and the bots at the others."""

    model_config = ConfigDict(strict=True, extra="forbid")  # no coercion: 0 is not false

    players: Literal[2, 3, 4] = Field(2, description="2 to 4")
    bots: list[_BOT] = Field(
        default_factory=list, max_length=2,
        description="the bot levels (GET /api/meta's bots) of the seats after yours that are not people, in seat "
                    "order. With `name`: those of seats 2 and 3, players - 2 of them; with `seats`, leave it out")
    edition: Literal["first", "second"] = "first"
    variant: Literal["standard", "mordred"] = "standard"
    mode: Literal["standard", "advanced"] = Field("standard", description="the advanced game is the second "
                                                  "edition's, unrated")
    options: dict[str, str | bool] = Field(default_factory=dict, max_length=16,
                                           description="as POST /api/games's options (none in a rated game)")
    rated: bool = Field(False, description="the result changes both players' ratings")
    time_limit: Literal[120, 600, 86400, 259200] | None = Field(None, description="seconds per move, or none")
    stand_in: str = Field(DEFAULT_STAND_IN, max_length=32, pattern=_one_of_names(bot_names()),
                          description="the bot level that plays for a person out of time or gone")
    hints: bool = False
    memory: bool = False
    first_player: Literal[0, 1, 2, 3] = Field(0, description="the seat that plays first, below players (0: the "
                                                             "challenger)")


class SeatChosen(BaseModel):
    """A seat after the challenger's: a person by name, or a bot."""

    model_config = ConfigDict(strict=True, extra="forbid")

    name: str | None = Field(None, max_length=200, json_schema_extra={"minLength": 1},
                             description="a person challenged, ignoring case")
    bot: _BOT | None = Field(None, description="or a bot level (GET /api/meta's bots)")

    @model_validator(mode="after")
    def one_of_them(self) -> SeatChosen:
        if (self.name is None) == (self.bot is None):
            raise ValueError("a seat is a person's name or a bot level: give one of them")
        return self


class NewChallenge(BaseModel):
    model_config = ConfigDict(strict=True)

    name: str | None = Field(None, max_length=200, json_schema_extra={"minLength": 1},
                             description=f"the one player challenged, at seat 1 ({NAME_LENGTH[0]} to "
                                         f"{NAME_LENGTH[1]} characters), ignoring case; the seats after are "
                                         "`settings.bots`. Or give `seats`")
    seats: list[SeatChosen] | None = Field(None, min_length=1, max_length=3,
                                           description="every seat after yours, in order, a person or a bot "
                                                       "(players - 1 of them, at least one person), instead of "
                                                       "`name`: a 3- or 4-player game with several people")
    settings: ChallengeSettings = Field(default_factory=lambda: ChallengeSettings.model_validate({}),
                                        description="the game proposed; left out: the defaults")

    def seats_chosen(self) -> list[dict[str, str]]:
        """The seats after the challenger's, ``{"name"}`` or ``{"bot"}`` each; 422 ``invalid_request`` for both
        `name` and `seats` or neither, and for `seats` with `settings.bots`."""
        if (self.name is None) == (self.seats is None):
            raise GameError(422, "invalid_request", _("give the player challenged in name, or every seat after "
                                                      "yours in seats"))
        if self.seats is None:
            return [{"name": self.name or ""}, *({"bot": bot} for bot in self.settings.bots)]
        if self.settings.bots:
            raise GameError(422, "invalid_request", _("with seats, the bots' levels are given there, not in "
                                                      "settings.bots"))
        return [seat.model_dump(exclude_none=True) for seat in self.seats]


class ChallengeSeat(BaseModel):
    seat: int = Field(description="1 to 3 (the challenger holds seat 0)")
    name: str | None = Field(description="the person challenged at this seat, or None for a bot")
    bot: str | None = Field(description="the bot level at this seat, or None for a person")
    answer: Literal["open", "accepted", "declined"] | None = Field(
        description="the person's answer; who declined is told to the challenger (and the decliner) only: None to "
                    "the others, and for a bot")


class Challenge(BaseModel):
    id: int
    from_: str = Field(alias="from", description="the challenger's name")
    to: str = Field(description="the first person challenged")
    seats: list[ChallengeSeat] = Field(description="every seat after the challenger's, in order")
    seat: int = Field(description="your seat in it (0: yours, the challenger's)")
    settings: ChallengeSettings
    status: Literal["open", "accepted", "declined", "withdrawn", "expired"]
    created_at: datetime
    expires_at: datetime = Field(description=f"an open challenge is refused after this ({EXPIRY.days} days)")
    game: str | None = Field(description="the game an accepted challenge made (its page is /game/ID)")

    model_config = ConfigDict(populate_by_name=True, serialize_by_alias=True)


class Challenges(BaseModel):
    incoming: list[Challenge] = Field(description="open challenges sent to you that you have not declined (those "
                                                  "you accepted wait for the others), oldest first")
    ended: list[Challenge] = Field(description="challenges sent to you that you accepted and that ended in the last "
                                               "day (the game made, or declined by another, withdrawn, expired), "
                                               "newest first")
    outgoing: list[Challenge] = Field(description="your open challenges and those answered in the last day, newest "
                                                  "first")
    expiry_days: int = Field(description="how long a challenge stays open")
    open_limit: int = Field(description="the most open challenges you may have")


class Accepted(BaseModel):
    game: str | None = Field(description="the new game's id; None while others have still to accept (a "
                                         "challenge of several people: the last accept makes it)")
    url: str | None = Field(description="its page")
    seat: int = Field(description="your seat (the challenger holds seat 0)")
    challenges: Challenges


def router(errors: Callable[..., dict[int | str, dict[str, Any]]]) -> APIRouter:
    """The challenge routes under /api/challenges; ``errors(*statuses)``: the app's OpenAPI error entries."""
    routes = shared_router(tags=["challenges"], route_class=LocalizedRoute)
    said = {401: "not signed in (guests cannot challenge)",
            403: "they cannot take your challenge (challenge_refused), or a change not sent as JSON",
            404: "no player has that name (unknown_player), or no such challenge of yours (unknown_challenge)",
            409: "answered already (challenge_answered), an open one to them (already_challenged), yours full "
                 f"(too_many_challenges, at {OPEN_LIMIT})",
            410: f"the challenge expired (open {EXPIRY.days} days)",
            429: "too many new challenges from your account (Retry-After says when to try again)"}

    def errors_of(*statuses: int) -> dict[int | str, dict[str, Any]]:
        entries = errors(*[status for status in statuses if status != 410])
        if 410 in statuses:
            entries[410] = {"model": ErrorBody, "description": said[410]}
        return {status: {**entry, "description": said.get(int(status), entry["description"])}
                for status, entry in entries.items()}

    async def view(service: Any, user_id: int) -> Challenges:
        return Challenges.model_validate(await asyncio.to_thread(challenges_view, service, user_id))

    @routes.get("/api/challenges", summary="Your challenges, sent and received", responses=errors_of(401))
    async def get_challenges(user: SignedIn, service: Service) -> Challenges:
        """The open challenges sent to you, and yours (open, or answered in the last day: an accepted one with
        its game)."""
        return await view(service, user.id)

    @routes.post("/api/challenges", status_code=201, summary="Challenge one to three players to a game",
                 responses=errors_of(401, 403, 404, 409, 429))
    async def new_challenge(body: NewChallenge, user: SignedIn, service: Service, limiter: Limiter,
                            notifier: Notify) -> Challenges:
        """One person by `name` (bots in the seats after), or several people and bots by `seats`. They see it in
        their lobby, and by e-mail (a confirmed address) and push where they turned those on. 422
        ``invalid_name``, ``challenge_self``, ``invalid_request``; 404 ``unknown_player``; 403
        ``challenge_refused`` (the answer never says why: a block between any two of you, or someone's incoming
        challenges are full); 409 ``already_challenged``, ``too_many_challenges``; 429. The game's own rules
        (rated at the defaults, the advanced game unrated...) are checked when it is accepted, as for POST
        /api/games."""
        settings = body.settings.model_dump(exclude={"bots"})
        await asyncio.to_thread(create, service, notifier, user.id, body.seats_chosen(), settings,
                                lambda: limiter.hit("challenge", f"account:{user.id}"))
        return await view(service, user.id)

    @routes.post("/api/challenges/{challenge_id}/accept", summary="Accept a challenge: the last accept makes the game",
                 responses=errors_of(401, 403, 404, 409, 410))
    async def accept_challenge(challenge_id: int, user: SignedIn, service: Service, runner: Runner,
                               public_url: PublicUrl) -> Accepted:
        """Once every person challenged has accepted, the game is made with the challenge's settings through the
        lobby's game creation (its 422s apply; the challenge then stays open), each person's seat held by their
        account; until then `game` is None. 404 ``unknown_challenge``, 403 ``challenge_refused`` (a block between
        two of its people, made since: the answer never says why), 410 ``challenge_expired``, 409
        ``challenge_answered``."""
        game, seat = await asyncio.to_thread(accept, service, _bounded(challenge_id), user.id)
        if game is not None:
            runner.kick(game)  # a bot's first move, as after POST /api/games
        return Accepted(game=game, url=None if game is None else f"{public_url}/game/{game}", seat=seat,
                        challenges=await view(service, user.id))

    @routes.post("/api/challenges/{challenge_id}/decline", summary="Decline a challenge: it ends for all",
                 responses=errors_of(401, 403, 404, 409, 410))
    async def decline_challenge(challenge_id: int, user: SignedIn, service: Service) -> Challenges:
        """Also after accepting, while the others have not all accepted. 404 ``unknown_challenge``, 410 ``challenge_expired``, 409 ``challenge_answered``."""
        await asyncio.to_thread(decline, service, _bounded(challenge_id), user.id)
        return await view(service, user.id)

    @routes.delete("/api/challenges/{challenge_id}", summary="Withdraw your challenge",
                   responses=errors_of(401, 403, 404, 409, 410))
    async def withdraw_challenge(challenge_id: int, user: SignedIn, service: Service) -> Challenges:
        """404 ``unknown_challenge``, 410 ``challenge_expired``, 409 ``challenge_answered``."""
        await asyncio.to_thread(withdraw, service, _bounded(challenge_id), user.id)
        return await view(service, user.id)

    return routes


def _bounded(challenge_id: int) -> int:
    """An id no row has (0) for one outside the database's integers: answered 404 ``unknown_challenge``."""
    return challenge_id if 1 <= challenge_id <= 2**31 - 1 else 0
