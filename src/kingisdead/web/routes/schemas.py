"""The API's answers as the OpenAPI schema states them: the game summary, the game view and its table, and
(in :mod:`..errors`) the error body.

The top level of each answer is typed field by field; parts whose shape belongs to the engine and changes with
it (a struggle, an explanation, a hand's card effects, the choices of a move) are objects
(``dict[str, Any]``) here and described in docs/web.md. A model lets other fields through (``extra="allow"``):
the schema says what an answer holds at least, so a new field is not a broken contract. A route whose answer a
model checks leaves out what the service left out (``response_model_exclude_unset``: a table has ``hands`` only
once the game is over), so an answer is the same whether a model checked it or not.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class Answer(BaseModel):
    model_config = ConfigDict(extra="allow")


class SeatView(Answer):
    """A seat as everyone sees it (:meth:`..live_game.Seat.to_dict`)."""

    seat: int = Field(description="0 to players - 1")
    kind: str = Field(description="'human' or 'bot'")
    bot: str | None = Field(description="the bot level, for a bot seat")
    name: str
    claimed: bool = Field(description="someone holds the seat (a bot's always)")
    public: bool = Field(description="offered in the lobby to anyone")
    away: bool = Field(False, description="out of time: the stand-in bot plays it until its person returns")
    left: bool = Field(False, description="its person left: the stand-in bot plays it to the end")


class GameSummary(Answer):
    """A game in the lobby's list (:meth:`..games.GameStore._summary`)."""

    id: str
    players: int
    variant: str
    edition: str
    mode: str = Field("standard", description="'standard' or 'advanced' (the second edition's secret Cunning cards)")
    status: str = Field(description="'running' or 'finished'")
    move_number: int = Field(description="moves played")
    hotseat: bool
    seats: list[SeatView]
    time_limit: int | None = Field(description="seconds per move, or null")
    open_seats: list[int] = Field(description="seats anyone may take (POST /api/games/{id}/join)")
    winners: list[int] | None = Field(description="the winning seats once the game is over")
    updated_at: str = Field(description="the last change, ISO 8601")


class GameList(BaseModel):
    games: list[GameSummary] = Field(description="newest activity first")


class MyGame(GameSummary):
    """A game of the signed-in account (:func:`..accounts.my_games`): the summary and the account's part in it."""

    your_seats: list[int]
    your_turn: bool = Field(description="one of your seats is to move")
    won: bool | None = Field(description="whether you won; null while the game runs")
    result: dict[str, Any] | None = Field(description="the ending, winners, ruler and reason; null while it runs")
    deadline: str | None = Field(description="when the seat to move runs out of time, ISO 8601 UTC; null without "
                                              "a clock running")


class MyGames(BaseModel):
    games: list[MyGame] = Field(description="your turn first, by time left, then running, then finished")


class TableView(Answer):
    """The position as one seat (or a spectator) may see it (:func:`..views.table_view`)."""

    players: int
    variant: str
    edition: str
    to_move: int | None = Field(description="the seat to move; null once the game is over")
    passes: int = Field(description="passes in a row in the struggle")
    resolved: int = Field(description="struggles resolved")
    saxons: int = Field(description="Saxon tokens (second edition: instability discs) on the board")
    contested: int | None = Field(description="the region being struggled for")
    followers: list[list[int]] = Field(description="per region, its followers of each kind (3: Loyalists)")
    control: list[int] = Field(description="per region, the faction in control, 4 for the Saxons (second edition: "
                                           "unstable), -1 while unresolved")
    order: list[int] = Field(description="the regions by region-card position")
    crowns: list[int] = Field(description="per region, the player whose Crown token (second edition: "
                                          "negotiation disc) is there, or -1")
    stock: list[int] = Field(description="the common stock, by kind (3: the Loyalist supply)")
    courts: list[list[int]] = Field(description="per player, the followers of each faction at court")
    tops: list[int] = Field(description="per player, the top card of their played pile, or -1")
    cards_left: list[int] = Field(description="per player, cards in hand")
    last_card_rule: bool
    result: dict[str, Any] | None = Field(description="ending, winners, ruler, ranking, reason; null while the game "
                                                      "runs")
    explanation: dict[str, Any] | None = Field(description="how the result was decided, step by step")
    hand: list[int] | None = Field(description="the seat's own action cards left, by kind; null for a spectator")
    mode: str = Field("standard", description="'standard' or 'advanced'")
    cunning: list[int] | None = Field(None, description="the advanced game: the seat's own Cunning cards (numbers "
                                                        "7-18, GET /api/meta's cunning_cards), never another's; "
                                                        "null for a spectator")
    struggle: dict[str, Any] | None = Field(description="who leads the contested region and what an all-pass gives")
    card_effects: list[dict[str, Any]] | None = Field(description="what each card of the hand would do here; the "
                                                                  "seat to move only")
    hands: list[list[int]] | None = Field(None, description="every player's hand (as ``hand``): only once the game "
                                                            "is over")
    cunning_hands: list[list[int]] | None = Field(None, description="every player's Cunning cards still held "
                                                                    "(Plot's holder shown): only once the game is "
                                                                    "over")


class GameView(Answer):
    """A game as one seat (``you``; null: a spectator) may see it (:meth:`..games.GameStore.view`)."""

    id: str
    status: str
    players: int
    variant: str
    edition: str
    options: dict[str, str | bool] = Field(description="the edition's game options that differ from its defaults")
    mode: str = Field("standard", description="'standard' or 'advanced' (the second edition's secret Cunning cards)")
    hints: bool
    hotseat: bool
    memory: bool
    seats: list[SeatView]
    you: int | None = Field(description="the asker's seat, or null")
    time_limit: int | None
    stand_in: str = Field(description="the bot level that plays for a person out of time or gone")
    deadline: str | None = Field(description="when the seat to move runs out of time, ISO 8601 UTC")
    takeback: bool = Field(description="you may take your last move back now")
    rated: bool
    ratings: list[dict[str, Any]] | None = Field(description="a finished rated game's rating changes")
    rematch_of: str | None
    rematch: str | None = Field(description="the rematch's game id, once someone asked for one")
    move_number: int
    log: list[dict[str, Any]] = Field(description="one entry per move (memory mode: without the cards while the "
                                                  "game runs)")
    table: TableView
    choices: dict[str, Any] | None = Field(description="the moves of your hand, for the seat to move only")


class CreatedGame(Answer):
    """A new game: its seats with their secrets, shown this once (see POST /api/games)."""

    id: str
    url: str = Field(description="the game's page")
    seats: list[dict[str, Any]] = Field(description="each seat as in ``game.seats`` with ``token``, or "
                                                    "``invite_token`` and ``invite``")
    game: GameView = Field(description="the spectator's view")


class ReplayFrame(Answer):
    """The public table after ``number`` moves of a game (hands only once it is over)."""

    id: str
    number: int
    total: int = Field(description="moves in the game")
    move: dict[str, Any] | None = Field(description="the log entry of move ``number``; null for 0")
    table: TableView
