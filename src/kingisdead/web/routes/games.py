"""Games: the board's fixed data, creating, listing and showing games, and a finished game's record,
replay and analysis."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field

from ... import VARIANTS, __version__
from ...bots import NETWORK_BOTS
from ...bots.master import TRAINED_EDITIONS
from ...edition import ADVANCED_OPTIONS, EDITIONS, MODES, OPTIONS
from ..games import ADVANCED_LEVELS, advanced_bot_names, bot_names
from ..localized import LocalizedJSON as JSONResponse
from ..localized import LocalizedRoute
from ..live_game import DEFAULT_STAND_IN, Seat
from ..ratings import PROVISIONAL_GAMES, rated_stand_ins
from ..security import PRINTABLE
from ..views import board_facts, bot_levels
from .chat import with_seats_chat
from .deps import (
    Account,
    Compute,
    Credentials,
    Integer,
    Limiter,
    Notify,
    PublicUrl,
    Runner,
    Service,
    client_of,
    current_user,
    game_of,
    integer,
    seat_of,
    shared_router,
)
from .schemas import CreatedGame, GameList, GameView, ReplayFrame

MAX_SEED = 2**53 - 1
"""The largest seed a request may give: JavaScript's largest safe integer, exact in every JSON reader."""


def _one_of_names(names: Any, any_case: bool = False) -> str:
    """A pattern matching exactly one of ``names`` (in any case: ``any_case``)."""
    return f"^({'?i:' if any_case else ''}{'|'.join(sorted(names))})$"


class HumanSeat(BaseModel):
    model_config = ConfigDict(strict=True)  # no coercion: 0 is not false, "1" not 1

    kind: Literal["human"] = Field(description="a person: gets a token or an invite")
    name: str | None = Field(None, max_length=40, pattern=PRINTABLE,
                             description="shown at the table; no control characters")
    public: bool = Field(False, description="a person's seat other than the creator's: offered in the lobby to "
                                            "anyone (true), or only through its private invite link (false)")


class BotSeat(BaseModel):
    model_config = ConfigDict(strict=True)  # no coercion: 0 is not false, "1" not 1

    kind: Literal["bot"] = Field(description="a bot")
    bot: str = Field(max_length=32, pattern=_one_of_names(bot_names(), any_case=True),
                     description="bot level, one of GET /api/meta's bots (in any case)")
    name: str | None = Field(None, max_length=40, pattern=PRINTABLE,
                             description="shown at the table; no control characters")


SeatSpec = Annotated[HumanSeat | BotSeat, Field(discriminator="kind")]


def _rules_across_fields(schema: dict[str, Any]) -> None:
    """What :meth:`~..games.GameStore.create` checks across fields, said in the schema (so that every request
    the schema allows is accepted): one seat per player and a first player among them; per edition, the
    Mordred variant only where it exists, the network bots only where they are trained, and the rule options it
    has (kingisdead.edition.OPTIONS: the first edition none but its own values), at their defaults in a rated
    game; the advanced mode the second edition's only, with its own options too (ADVANCED_OPTIONS), unrated,
    without the last card rule ``must_win`` and with the bot levels that may play it (advanced_bot_names)."""
    per_count = [{"properties": {"players": {"const": n}, "seats": {"minItems": n, "maxItems": n},
                                 "first_player": {"maximum": n - 1}}} for n in (2, 3, 4)]
    per_edition = []
    for name, edition in EDITIONS.items():
        rules: dict[str, Any] = {"edition": {"const": name}}
        if not edition.mordred:
            rules["variant"] = {"const": "standard"}
        if name not in TRAINED_EDITIONS:
            rules["stand_in"] = {"not": {"pattern": _one_of_names(NETWORK_BOTS)}}
            rules["seats"] = {"items": {"properties": {"bot": {"not": {"pattern": _one_of_names(NETWORK_BOTS, True)}}}}}
        defaults = {option: {"const": getattr(edition, option)} for option in OPTIONS}
        choices = {option: {"enum": list(values)} for option, values in OPTIONS.items()}
        standard = {"properties": {"mode": {"const": "standard"},
                                   "options": {"properties": defaults if name == "first" else choices,
                                               "additionalProperties": False}}}
        modes: list[dict[str, Any]] = [standard]
        if name == "second":
            fit = _one_of_names(advanced_bot_names())
            advanced = choices | {"last_card": {"enum": [v for v in OPTIONS["last_card"] if v != "must_win"]}} \
                | {option: {"enum": list(values)} for option, values in ADVANCED_OPTIONS.items()}
            modes.append({"properties": {"mode": {"const": "advanced"}, "rated": {"const": False},
                                         "options": {"properties": advanced, "additionalProperties": False},
                                         "stand_in": {"pattern": fit},
                                         "seats": {"items": {"properties": {"bot": {"pattern": _one_of_names(
                                             advanced_bot_names(), True)}}}}},
                          "required": ["mode"]})
        per_edition.append({"properties": rules, "required": [] if name == "first" else ["edition"],
                            "allOf": [{"anyOf": [{"properties": {"rated": {"const": False}}},
                                                 {"properties": {"options": {"properties": defaults}}}]},
                                      {"anyOf": modes}]})
    schema["allOf"] = [{"anyOf": per_count}, {"anyOf": per_edition}]


class CreateGame(BaseModel):
    model_config = ConfigDict(strict=True, json_schema_extra=_rules_across_fields)  # strict: 0 is not false

    players: Integer = Field(ge=2, le=4)
    edition: Literal["first", "second"] = Field("first", description="the edition played: the first (2015: Scots, "
                                                "Saxons, the Mordred variant) or the second (2020: Scottish, "
                                                "instability from France), at its default options")
    options: dict[str, str | bool] = Field(
        default_factory=dict, description="the second edition's game options that differ from its defaults, e.g. "
        '{"reversal": "exact"}: reversal effect|exact, court_redraw false|true, tie_faction second|strict|always, '
        "tie_hands earliest|lowest_seat, last_card free|must_win (docs/rules.md); none in a rated game")
    variant: Literal["standard", "mordred"] = "standard"
    mode: Literal["standard", "advanced"] = Field(
        "standard", description="the standard game, or the second edition's advanced game: each player holds 3 "
        "secret Cunning cards, which only their own seat's views show until the game ends; its options (spy_spy, "
        "spy_negotiate, spy_ban, spy_pile, aid_tie, partial_rank, plot_coronation, plot_team, plot_tiebreak, "
        "plot_empty_hand, cunning_ban: GET /api/meta's advanced_options) go in options too. Unrated, without "
        "hints (made without them), never with last_card must_win, and its bots are GET /api/meta's "
        "advanced_bots (the levels play the determinised search)")
    seats: list[SeatSpec] = Field(min_length=2, max_length=4, description="one per player, in seat order")
    seed: integer(ge=0, le=MAX_SEED) | None = Field(None, description="decides the setup; random if left out")
    first_player: Integer = Field(0, ge=0, le=3, description="the seat that plays first, below players")
    hints: bool = Field(False, description="allow hints on request (never in memory mode: the game is made "
                                           "without them)")
    hotseat: bool = Field(False, description="all human seats play on one screen")
    memory: bool = Field(False, description="memory mode: no card history (log, record, replay) until the game ends")
    rated: bool = Field(False, description="the result changes the players' ratings: signed in, every person's seat "
                                           "held by an account, bots of a fixed level, no hints, no hot-seat")
    time_limit: Literal[120, 600, 86400, 259200] | None = Field(
        None, description="seconds per move (2 or 10 minutes, 1 or 3 days), or none: a person out of time is "
                          "replaced by the stand-in bot until they take their seat back")
    stand_in: str = Field(DEFAULT_STAND_IN, max_length=32, pattern=_one_of_names(bot_names()),
                          description="the bot level (GET /api/meta's bots) that "
                                                                       "plays for a person out of time or gone")


def router(errors: Callable[..., dict[int | str, dict[str, Any]]]) -> APIRouter:
    """The games' routes."""
    games = shared_router(route_class=LocalizedRoute, tags=["games"])

    @games.get("/api/meta", summary="Bot levels, variants and an edition's board data", responses=errors())
    async def meta(notifier: Notify, edition: Literal["first", "second"] = "first") -> dict[str, Any]:
        """The board's fixed data (names, borders, homes...) are the ``edition``'s, in the page's language; a
        table asks for its game's edition (the view's ``edition``). ``editions`` lists every edition; ``modes``
        the games' modes: ``advanced`` (the second edition's only) has the options ``advanced_options`` (the
        default first), its Cunning cards are the second edition's ``cunning_cards`` (numbers 7 to 18 in this order),
        and it is played by the bots
        ``advanced_bots`` (``advanced_levels``: the bot each level of the lobby plays there);
        ``network_bots`` play only the ``trained_editions`` (their network learnt no other). ``reminders``:
        whether this site can send reminders of a slow game's turn by e-mail (an SMTP server is set) and by
        push (VAPID keys are set), ``{"mail": bool, "push": bool}``."""
        return {"version": __version__, "bots": bot_names(), "levels": bot_levels(), "variants": list(VARIANTS),
                "editions": list(EDITIONS), "network_bots": sorted(NETWORK_BOTS),
                "trained_editions": sorted(TRAINED_EDITIONS), "provisional_games": PROVISIONAL_GAMES,
                "rated_stand_ins": rated_stand_ins(),
                "modes": list(MODES), "advanced_bots": advanced_bot_names(), "advanced_levels": dict(ADVANCED_LEVELS),
                "advanced_options": {name: list(values) for name, values in ADVANCED_OPTIONS.items()},
                "reminders": {"mail": notifier.settings.mail.enabled, "push": notifier.settings.push.enabled},
                **board_facts(EDITIONS[edition])}

    @games.post("/api/games", status_code=201, summary="Create a game", response_model=CreatedGame,
                response_model_exclude_unset=True, responses=errors(403, 429))
    async def create_game(body: CreateGame, request: Request, user: Account, service: Service, limiter: Limiter,
                          runner: Runner, public: PublicUrl) -> dict[str, Any]:
        """Returns the game and, once only, the creator's seat token(s) and every other human seat's invite.

        Each seat: ``token`` (a seat token the creator holds: the first human
        seat, or every human seat in hot-seat mode) or ``invite_token`` and
        ``invite`` (a link built from the server's public URL) for a seat meant
        for someone else; see POST /api/games/{id}/claim.
        """
        await asyncio.to_thread(limiter.hit, "create", client_of(request))
        game, tokens = await asyncio.to_thread(
            service.create, body.players, body.variant, [s.model_dump() for s in body.seats], body.seed,
            body.first_player, body.hints, body.hotseat, body.memory,
            rated=body.rated, user_id=None if user is None else user.id, user_name=None if user is None else user.name,
            time_limit=body.time_limit, stand_in=body.stand_in, edition=body.edition, options=body.options,
            mode=body.mode)
        runner.kick(game.id)

        def seat_entry(seat: Seat) -> dict[str, Any]:
            token = tokens.get(seat.seat)
            invite = token if token is not None and not seat.claimed else None
            return {**seat.to_dict(), "token": None if invite else token, "invite_token": invite,
                    "invite": f"{public}/game/{game.id}#token={invite}" if invite else None}

        return {"id": game.id, "url": f"{public}/game/{game.id}", "seats": [seat_entry(s) for s in game.seats],
                "game": service.view(game, None)}

    @games.get("/api/games", summary="List games for the lobby", response_model=GameList,
               response_model_exclude_unset=True, responses=errors())
    async def list_games(service: Service,
                         status: Literal["open", "running", "finished"] | None = None) -> dict[str, Any]:
        return {"games": await asyncio.to_thread(service.list_games, status)}

    @games.get("/api/games/{game_id}", summary="The game as your seat sees it", response_class=JSONResponse,
               response_model=GameView, response_model_exclude_unset=True,
               responses=errors(401, 403, 404, 429))
    async def get_game(game_id: str, credentials: Credentials, request: Request, service: Service) -> JSONResponse:
        """Without a token: the spectator's view (no hand), or your seat's if your account holds one.
        With a token: your own hand as well."""
        game = await game_of(request, game_id)
        if credentials:
            seat: int | None = await seat_of(game, credentials, request)
        else:
            user = await asyncio.to_thread(current_user, request)
            seat = None if user is None else service.account_seat(game, user.id)
        return JSONResponse(service.view(service.get(game_id), seat))

    @games.get("/api/games/{game_id}/analysis", summary="Move-by-move analysis of a finished game",
               responses=errors(404, 409, 429, 503))
    async def analysis(game_id: str, request: Request, service: Service, compute: Compute) -> dict[str, Any]:
        """Each move with the best alternative the search found and the win chance it gave away."""
        game = await game_of(request, game_id)
        known = service.analysis(game)
        if isinstance(known, dict):
            return known
        return dict(service.remember(game_id, await compute.run(known, client_of(request))))

    @games.get("/api/games/{game_id}/record", summary="Download the game record (JSON)",
               responses={200: {"content": {"application/json": {}}}, **errors(403, 404, 409, 429)})
    async def record(game_id: str, request: Request, service: Service, credentials: Credentials,
                     user: Account) -> Response:
        """The record in the `kingisdead replay` format; its ``seed`` is null until the game is over
        (409 ``memory_mode`` while a memory-mode game runs). Asked by one of its seats (the seat's token, or
        signed in), it holds the players' chat as ``chat`` too (docs/formats.md)."""
        game = await game_of(request, game_id)
        record = await with_seats_chat(service.public_record(game), game, credentials, request, service, user)
        return Response(record + "\n", media_type="application/json",
                        headers={"Content-Disposition": f'attachment; filename="kingisdead-{game_id}.json"'})

    @games.get("/api/games/{game_id}/replay/{number}", summary="The table after a number of moves",
               response_model=ReplayFrame, response_model_exclude_unset=True,
               responses=errors(404, 409))
    async def replay(game_id: str, number: int, request: Request, service: Service) -> dict[str, Any]:
        game = await game_of(request, game_id)
        return dict(await asyncio.to_thread(service.replay_frame, game, number))

    return games
