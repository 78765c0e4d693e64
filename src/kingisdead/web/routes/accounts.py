"""The account endpoints under /api/account: sign-up, sign-in and out, password, deletion, "my games" and
statistics. What they do is in :mod:`..accounts`; the signed-in account as a dependency in :mod:`.deps`."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Request, Response
from pydantic import BaseModel, ConfigDict, Field

from ..accounts import (
    NAME_LENGTH,
    NAME_PATTERN,
    PASSWORD_LENGTH,
    SESSION_COOKIE,
    SESSION_MAX_DAYS,
    account_view,
    change_password,
    check_password,
    create_account,
    delete_account,
    end_session,
    end_sessions,
    my_games,
    set_language,
    start_session,
    statistics,
)
from ..clocks import leave
from ..errors import GameError
from ..i18n import _
from ..seats import Adopted
from ..security import RateLimiter
from .deps import Lan, Limiter, LiveHub, Runner, Service, SignedIn, client_of, refuse_forged, shared_router
from .schemas import MyGames


class SignIn(BaseModel):
    model_config = ConfigDict(strict=True)  # no coercion: 0 is not false, "1" not 1

    name: str = Field(max_length=200, description="3 to 40 characters; unique ignoring case")
    password: str = Field(max_length=1000, description="8 to 128 characters")


class SignUp(BaseModel):
    """The lengths are checked by :func:`account_name` and :func:`_check_password` (422 ``invalid_name``,
    ``invalid_password``); the schema states them."""

    model_config = ConfigDict(strict=True)  # no coercion: 0 is not false, "1" not 1

    name: str = Field(max_length=200, json_schema_extra={"minLength": NAME_LENGTH[0], "maxLength": NAME_LENGTH[1],
                                                         "pattern": NAME_PATTERN},
                      description="3 to 40 characters, with a letter or digit, no control character and no colon, "
                                  "not ending in ' bot'; unique ignoring case")
    password: str = Field(max_length=1000, json_schema_extra={"minLength": PASSWORD_LENGTH[0],
                                                              "maxLength": PASSWORD_LENGTH[1]},
                          description="8 to 128 characters")


class AccountChange(BaseModel):
    model_config = ConfigDict(strict=True)  # no coercion: 0 is not false, "1" not 1

    language: Literal["en", "fr", "de"] | None = Field(
        description="the preferred interface language, or null to follow the browser's")


class PasswordChange(BaseModel):
    model_config = ConfigDict(strict=True)  # no coercion: 0 is not false, "1" not 1

    current: str = Field(max_length=1000, description="the password now")
    new: str = Field(max_length=1000, json_schema_extra={"minLength": PASSWORD_LENGTH[0],
                                                         "maxLength": PASSWORD_LENGTH[1]},
                     description="8 to 128 characters")


class PasswordCheck(BaseModel):
    model_config = ConfigDict(strict=True)  # no coercion: 0 is not false, "1" not 1

    password: str = Field(max_length=1000, description="the account's password, to confirm")


class SessionsEnded(BaseModel):
    sessions_ended: int = Field(description="how many signed-in browsers were signed out")


class Deleted(BaseModel):
    name: str = Field(description="the anonymous name the account's games show from now on")
    games_left: int = Field(description="running games whose seats the stand-in bot now plays")


GUEST_SEATS_AT_ONCE = 100
"""Seat tokens one request may bring into an account (a browser with more sends them in several)."""


class GuestSeat(BaseModel):
    model_config = ConfigDict(strict=True)  # no coercion: 0 is not false, "1" not 1

    game_id: str = Field(max_length=32, description="the game's id")
    token: str = Field(max_length=200, description="the seat token this browser holds for the game")


class GuestGames(BaseModel):
    model_config = ConfigDict(strict=True)  # no coercion: 0 is not false, "1" not 1

    seats: list[GuestSeat] = Field(max_length=GUEST_SEATS_AT_ONCE,
                                   description=f"the seats this browser holds, at most {GUEST_SEATS_AT_ONCE}")


class AdoptedSeat(BaseModel):
    game_id: str
    seat: int | None = Field(description="the token's seat; null for a token that is no seat's")
    result: Adopted = Field(description="claimed: the seat is now your account's; yours: it was already; "
                                        "other_account: another account holds it; seated: your account holds "
                                        "another seat of that game; rated: a rated game's seat (never a "
                                        "guest's); bad_token: the token is no seat's of that game (an invite "
                                        "is exchanged first); unknown_game: no such game. Only claimed "
                                        "changes anything")


class AdoptedSeats(BaseModel):
    claimed: int = Field(description="seats that became your account's with this request")
    seats: list[AdoptedSeat] = Field(description="one per seat sent, in order")


def _set_cookie(response: Response, secret: str, lan: bool) -> None:
    """The session cookie: Secure always, but in plain-http LAN mode (``lan``)."""
    response.set_cookie(SESSION_COOKIE, secret, max_age=SESSION_MAX_DAYS * 86400, path="/", secure=not lan,
                        httponly=True, samesite="lax")


def _sign_out(response: Response, lan: bool) -> None:
    response.delete_cookie(SESSION_COOKIE, path="/", secure=not lan, httponly=True, samesite="lax")


async def _with_password(request: Request, limiter: RateLimiter, check: Any, *args: Any) -> Any:
    """``check(*args)`` in a worker thread, counted as a password attempt of the address (429 once at its
    limit, as for sign-in); only a wrong password (GameError ``wrong_credentials``) stays counted."""
    hit = await asyncio.to_thread(limiter.hit, "sign_in", client_of(request))
    try:
        result = await asyncio.to_thread(check, *args)
    except GameError as exc:
        if exc.code != "wrong_credentials":  # a new password too short: no guess was made
            await asyncio.to_thread(limiter.refund, hit)
        raise
    await asyncio.to_thread(limiter.refund, hit)
    return result


def router(errors: Any) -> APIRouter:
    """The account endpoints under /api/account; ``errors``: the app's OpenAPI error entries maker."""
    api = shared_router(prefix="/api/account", tags=["account"])
    said = {401: "not signed in, or (sign-in) a wrong name or password",
            403: "a signed-in request that changes something was not sent as JSON",
            409: "the name is taken"}

    def errors_of(*statuses: int) -> dict[int | str, dict[str, Any]]:
        entries = errors(*statuses)
        for status, description in said.items():
            if status in entries:
                entries[status] = {**entries[status], "description": description}
        return entries

    @api.post("/sign-up", status_code=201, summary="Create an account and sign in", responses=errors_of(403, 409, 429))
    async def sign_up(body: SignUp, request: Request, response: Response, service: Service, limiter: Limiter,
                      lan: Lan) -> dict[str, Any]:
        """Sets the session cookie. 422 ``invalid_name`` / ``invalid_password``, 409 ``name_taken``."""
        await asyncio.to_thread(limiter.hit, "sign_up", client_of(request))
        user = await asyncio.to_thread(create_account, service, body.name, body.password)
        secret = await asyncio.to_thread(start_session, service, user.id, request.cookies.get(SESSION_COOKIE))
        _set_cookie(response, secret, lan)
        return account_view(user)

    @api.post("/sign-in", summary="Sign in with a name and password", responses=errors_of(401, 429))
    async def sign_in(body: SignIn, request: Request, response: Response, service: Service, limiter: Limiter,
                      lan: Lan) -> dict[str, Any]:
        """Sets the session cookie. 401 ``wrong_credentials`` whether the name or the password is wrong;
        wrong attempts count towards the address's limit (429 once at it, the password unchecked)."""
        # counted before the password is checked, so that attempts sent at once cannot pass the limit
        hit = await asyncio.to_thread(limiter.hit, "sign_in", client_of(request))
        user = await asyncio.to_thread(check_password, service, body.name, body.password)
        if user is None:
            raise GameError(401, "wrong_credentials", _("wrong name or password"))
        await asyncio.to_thread(limiter.refund, hit)  # only wrong passwords count
        secret = await asyncio.to_thread(start_session, service, user.id, request.cookies.get(SESSION_COOKIE))
        _set_cookie(response, secret, lan)
        return account_view(user)

    @api.post("/sign-out", status_code=204, summary="Sign out: this browser's session ends",
              response_class=Response, responses=errors_of(403))
    async def sign_out(request: Request, service: Service, lan: Lan) -> Response:
        """Deletes the session and the cookie; signing out when not signed in does nothing."""
        secret = request.cookies.get(SESSION_COOKIE)
        if secret:
            refuse_forged(request)
            await asyncio.to_thread(end_session, service, secret)
        response = Response(status_code=204)
        _sign_out(response, lan)
        return response

    @api.post("/sign-out-everywhere", summary="Sign out on every browser, this one included",
              responses=errors_of(401, 403))
    async def sign_out_everywhere(user: SignedIn, response: Response, service: Service, lan: Lan) -> SessionsEnded:
        """Ends every session of the account (a browser lost or left signed in elsewhere) and deletes this
        browser's cookie. 401 ``sign_in_required``."""
        ended = await asyncio.to_thread(end_sessions, service, user.id)
        _sign_out(response, lan)
        return SessionsEnded(sessions_ended=ended)

    @api.post("/password", summary="Change your password: your other browsers are signed out",
              responses=errors_of(401, 403, 429))
    async def password(body: PasswordChange, user: SignedIn, request: Request, service: Service,
                       limiter: Limiter) -> SessionsEnded:
        """Needs the current password (401 ``wrong_credentials``, counted as a wrong sign-in: 429 once at the
        address's limit); 422 ``invalid_password`` for a new one of the wrong length. This browser stays
        signed in; every other session ends."""
        ended = await _with_password(request, limiter, change_password, service, user, body.current, body.new,
                                     request.cookies.get(SESSION_COOKIE))
        return SessionsEnded(sessions_ended=ended)

    @api.delete("", summary="Delete your account: your games stay, under an anonymous name",
                responses=errors_of(401, 403, 429))
    async def delete_it(body: PasswordCheck, user: SignedIn, request: Request, response: Response, service: Service,
                        limiter: Limiter, runner: Runner, hub: LiveHub, lan: Lan) -> Deleted:
        """Needs the password (401 ``wrong_credentials``, counted as a wrong sign-in). The account's name
        becomes anonymous in it and in its games, which stay; its sessions, e-mail settings, push
        subscriptions, queued messages and ratings (it leaves the leaderboard) are deleted; the seats it held
        in running games are left (the stand-in bot finishes them). Signs this browser out."""
        name, held, running = await _with_password(request, limiter, delete_account, service, user, body.password)
        for game_id in held:
            service.forget(game_id)  # its seats' names changed
        for game_id, seat in running:
            try:
                await asyncio.to_thread(leave, service, game_id, seat)
            except GameError:  # over or left meanwhile
                continue
            runner.kick(game_id)
            await hub.broadcast(game_id)
        _sign_out(response, lan)
        return Deleted(name=name, games_left=len(running))

    @api.post("/guest-games", summary="Make the games this browser played as a guest your account's",
              responses=errors_of(401, 403, 429))
    async def guest_games(body: GuestGames, user: SignedIn, request: Request, service: Service,
                          limiter: Limiter) -> AdoptedSeats:
        """Send the seat tokens this browser holds (``{"seats": [{"game_id", "token"}]}``): each seat a guest
        holds, in a game that is not rated and where your account holds no seat yet, becomes your account's,
        as if you had taken it signed in; its game is then among your games (running or finished) on every
        browser. A seat another account holds stays theirs; nothing is rated. Sending the same tokens again
        changes nothing. Tokens that are no seat's count as wrong tokens: at the address's limit, 429 and no
        seat changes."""
        client = client_of(request)
        await asyncio.to_thread(limiter.check, "bad_token", client)
        results = await asyncio.to_thread(service.adopt, user.id, [(s.game_id, s.token) for s in body.seats],
                                          lambda: limiter.hit("bad_token", client))
        return AdoptedSeats(claimed=sum(result == "claimed" for _game, _seat, result in results),
                            seats=[AdoptedSeat(game_id=game_id, seat=seat, result=result)
                                   for game_id, seat, result in results])

    @api.get("", summary="Your account and statistics", responses=errors_of(401))
    async def account(user: SignedIn, service: Service) -> dict[str, Any]:
        """Your name and language, games played and won per player count (``by_players``), and your
        ratings per player count (4: 2-vs-2 teams). Only ever the signed-in player's own."""
        return {**account_view(user), **await asyncio.to_thread(statistics, service, user.id)}

    @api.patch("", summary="Change your preferred language", responses=errors_of(401, 403))
    async def change(body: AccountChange, user: SignedIn, service: Service) -> dict[str, Any]:
        return account_view(await asyncio.to_thread(set_language, service, user.id, body.language))

    @api.get("/games", summary="Your games: your turn first, by time left, then running, then finished",
             response_model=MyGames, response_model_exclude_unset=True,
             responses=errors_of(401))
    async def games(user: SignedIn, service: Service,
                    finished: Annotated[int, Query(ge=0, le=100, description="finished games listed")] = 20
                    ) -> dict[str, Any]:
        """Each game as in GET /api/games, plus ``your_seats``, ``your_turn``, ``deadline`` (ISO 8601 UTC: when
        the seat to move runs out of time; null without a clock running) and ``won`` and ``result`` (the ending,
        winners, ruler and reason; both null while the game runs). Running games where you are to move come
        first, then your other running games, each by time left (the soonest deadline first, then those without
        one, most recently changed first); then finished ones, most recent first."""
        return {"games": await asyncio.to_thread(my_games, service, user.id, finished)}

    return api
