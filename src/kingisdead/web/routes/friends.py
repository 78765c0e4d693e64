"""The friends endpoints: your follows (the friends list), your block list and the "let others follow me" setting.
What they do is in :mod:`..friends`; every answer is the signed-in account's own :class:`Friends` view."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query
from pydantic import BaseModel, ConfigDict, Field

from ..accounts import NAME_LENGTH
from ..db import UserRow
from ..friends import BLOCK_LIMIT, block, follow, friends_view, set_allow_follow, unblock, unfollow
from ..localized import LocalizedRoute
from ..security import RateLimiter
from ..service import GameService
from .deps import Limiter, Service, SignedIn, shared_router


class SharedGame(BaseModel):
    id: str = Field(description="the game's id (its page is /game/ID)")
    players: int = Field(description="2 to 4")
    move_number: int = Field(description="moves played so far")
    turn: Literal["yours", "theirs", "other"] = Field(description="whose turn it is: one of your seats', one of "
                                                                  "theirs', or a third player's")


class Friend(BaseModel):
    name: str
    online: bool = Field(description="seen (a signed-in request or game-socket message) in the last "
                                     "`online_minutes` minutes")
    follows_you: bool = Field(description="whether they follow you too")
    games: list[SharedGame] = Field(description="running games where you both hold a seat, the longest "
                                                "unchanged first")


class Blocked(BaseModel):
    name: str


class Friends(BaseModel):
    friends: list[Friend] = Field(description="the players you follow, online ones first, then by name")
    blocked: list[Blocked] = Field(description=f"your block list (at most {BLOCK_LIMIT}), by name; only you see it")
    allow_follow: bool = Field(description="whether others may start following you")
    follow_limit: int = Field(description="the most players you may follow")
    online_minutes: int = Field(description="how recently a player was seen to count as online")


class Name(BaseModel):
    model_config = ConfigDict(strict=True)  # no coercion: 0 is not "0"

    name: str = Field(max_length=200, json_schema_extra={"minLength": 1},
                      description=f"a player's name ({NAME_LENGTH[0]} to {NAME_LENGTH[1]} characters), ignoring case")


class FriendSettings(BaseModel):
    model_config = ConfigDict(strict=True)  # no coercion: 0 is not false

    allow_follow: bool = Field(description="false: new follows of you are refused (403 follow_refused); those you "
                                           "have stay")


NameQuery = Annotated[str, Query(max_length=200, description="the player's name, ignoring case")]


def router(errors: Callable[..., dict[int | str, dict[str, Any]]]) -> APIRouter:
    """The friends routes under /api/friends and /api/blocks; ``errors(*statuses)``: the app's OpenAPI error
    entries."""
    routes = shared_router(tags=["friends"], route_class=LocalizedRoute)
    said = {401: "not signed in (guests have no friends list)",
            403: "they take no new followers (follow_refused), or a signed-in change not sent as JSON",
            404: "no player has that name (unknown_player)",
            409: "you blocked them (you_blocked), or your list is full (too_many_follows, too_many_blocks)",
            429: "too many new follows and blocks from your account (Retry-After says when to try again)"}

    def errors_of(*statuses: int) -> dict[int | str, dict[str, Any]]:
        entries = errors(*statuses)
        return {status: {**entry, "description": said.get(int(status), entry["description"])}
                for status, entry in entries.items()}

    async def view(service: GameService, user: UserRow) -> Friends:
        return Friends.model_validate(await asyncio.to_thread(friends_view, service, user.id))

    def counter(limiter: RateLimiter, user: UserRow) -> Callable[[], int]:
        return lambda: limiter.hit("follow", f"account:{user.id}")  # per account, whatever the address

    @routes.get("/api/friends", summary="Your friends list, block list and follow setting", responses=errors_of(401))
    async def get_friends(user: SignedIn, service: Service) -> Friends:
        """The players you follow, each with whether they are online and the running games you share (whose
        turn it is in each); your block list; your "let others follow me" setting."""
        return await view(service, user)

    @routes.post("/api/friends", summary="Follow a player (a friend and a follow are the same)",
                 responses=errors_of(401, 403, 404, 409, 429))
    async def follow_player(body: Name, user: SignedIn, service: Service, limiter: Limiter) -> Friends:
        """Following someone you follow already changes nothing. 404 ``unknown_player``, 422 ``invalid_name`` or
        ``follow_self``, 403 ``follow_refused`` (they take no new followers, or blocked you), 409 ``you_blocked``
        (unblock them first), 409 ``too_many_follows`` (at 300, ``follow_limit``), 429 (new follows and blocks per account)."""
        await asyncio.to_thread(follow, service, user.id, body.name, counter(limiter, user))
        return await view(service, user)

    @routes.delete("/api/friends", summary="Stop following a player", responses=errors_of(401, 403, 404))
    async def unfollow_player(name: NameQuery, user: SignedIn, service: Service) -> Friends:
        """Unfollowing someone you do not follow changes nothing. 404 ``unknown_player``, 422 ``invalid_name``."""
        await asyncio.to_thread(unfollow, service, user.id, name)
        return await view(service, user)

    @routes.patch("/api/friends", summary="Let others follow you, or not", responses=errors_of(401, 403))
    async def change_settings(body: FriendSettings, user: SignedIn, service: Service) -> Friends:
        """Off: new follows of you are refused; the players who follow you already still do (block one to
        remove their follow)."""
        await asyncio.to_thread(set_allow_follow, service, user.id, body.allow_follow)
        return await view(service, user)

    @routes.post("/api/blocks", summary="Block a player: no follows either way, no chat",
                 responses=errors_of(401, 403, 404, 409, 429))
    async def block_player(body: Name, user: SignedIn, service: Service, limiter: Limiter) -> Friends:
        """The follows between you go, both ways, and neither of you can follow the other until you unblock
        them; their chat is hidden from you and yours from them. Blocking someone again changes nothing.
        404 ``unknown_player``, 422 ``invalid_name`` or ``block_self``, 409 ``too_many_blocks``, 429 (new
        follows and blocks per account). Only you ever see your block list."""
        await asyncio.to_thread(block, service, user.id, body.name, counter(limiter, user))
        return await view(service, user)

    @routes.delete("/api/blocks", summary="Unblock a player", responses=errors_of(401, 403, 404))
    async def unblock_player(name: NameQuery, user: SignedIn, service: Service) -> Friends:
        """The follows the block removed do not come back. 404 ``unknown_player``, 422 ``invalid_name``."""
        await asyncio.to_thread(unblock, service, user.id, name)
        return await view(service, user)

    return routes
