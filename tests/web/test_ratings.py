"""Rated games: each finished rated game moves exactly the right ratings, once; refusals; the leaderboard."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from typing import Any

import pytest
from sqlalchemy import select, update
from sqlalchemy.exc import OperationalError

from kingisdead.bots import make_bot
from kingisdead.moves import format_move
from kingisdead.web import clocks, moves, ratings
from kingisdead.web.db import GameRow, MoveRow, RatingChangeRow, RatingRow, SeatRow, UserRow
from kingisdead.web.errors import GameError
from kingisdead.web.service import GameService
from kingisdead.web.ratings import BOT_SIGMA, MODEL, apply_pending, apply_ratings, keep_applied, level_mu


@pytest.fixture
def service(tmp_path):
    made = GameService(f"sqlite:///{tmp_path / 'rated.sqlite3'}")
    yield made
    made.close()


def account(service: GameService, name: str) -> int:
    with service.sessions.begin() as session:
        user = UserRow(name=name, name_key=name.casefold(), kind="person", password_hash="x")
        session.add(user)
        session.flush()
        return int(user.id)


def seat_accounts(service: GameService, game_id: str, holders: dict[int, int]) -> None:
    """Give seats to accounts, as a signed-in claim of each invite would."""
    with service.sessions.begin() as session:
        for seat, user_id in holders.items():
            session.execute(update(SeatRow).where(SeatRow.game_id == game_id, SeatRow.seat == seat)
                            .values(user_id=user_id, claimed=True))
    service.forget(game_id)


def play_out(service: GameService, game_id: str, seed: int = 0) -> dict[str, Any]:
    """Play the game to its end with random moves through the service (every seat, bots included)."""
    chooser = make_bot("random", seed)
    while not (state := service.get(game_id).snapshot.state).is_over():
        service.play(game_id, state.player, format_move(chooser.choose(state)), None)
    result = service.get(game_id).snapshot.state.result
    assert result is not None
    return result.to_dict()


def table(service: GameService, game_id: str | None = None) -> dict[str, Any]:
    """Every rating and rating change (of one game, or all) as plain values."""
    with service.sessions() as session:
        rows = {(r.user_id, r.players): (r.mu, r.sigma, r.games) for r in session.scalars(select(RatingRow))}
        query = select(RatingChangeRow)
        if game_id is not None:
            query = query.where(RatingChangeRow.game_id == game_id)
        changes = sorted((c.game_id, c.user_id, c.mu_before, c.sigma_before, c.mu_after, c.sigma_after)
                         for c in session.scalars(query))
        applied = {g.id: g.ratings_applied for g in session.scalars(select(GameRow))}
    return {"ratings": rows, "changes": changes, "applied": applied}


def expected(starts: list[tuple[float, float]], teams: list[tuple[int, ...]], winners: list[int]) -> list:
    """OpenSkill's own update of ``starts`` (one per seat) for the winners: the reference the service must match."""
    rated = MODEL.rate([[MODEL.rating(*starts[s]) for s in team] for team in teams],
                       ranks=[1 if set(team) & set(winners) else 2 for team in teams])
    after: list[Any] = [None] * len(starts)
    for team, new in zip(teams, rated):
        for seat, rating in zip(team, new):
            after[seat] = (rating.mu, rating.sigma)
    return after


def check_once(service: GameService, game_id: str, tmp_path) -> None:
    """Replaying the finish hook, applying again, and a restart's pending pass leave everything as it is."""
    before = table(service)
    assert before["applied"][game_id] is True
    assert apply_ratings(service.engine, game_id) is False
    service.moves._apply_ratings(game_id)
    assert apply_pending(service.engine) == []
    restarted = GameService(f"sqlite:///{tmp_path / 'rated.sqlite3'}")
    try:
        assert apply_pending(restarted.engine) == []
        assert table(restarted) == before
    finally:
        restarted.close()
    assert table(service) == before


def test_a_two_player_rated_game_moves_both_ratings_once(service, tmp_path):
    alice, bob = account(service, "Alice"), account(service, "Bob")
    game, _ = service.create(2, "standard", [{"kind": "human"}, {"kind": "human"}], seed=5, rated=True,
                             user_id=alice)
    seat_accounts(service, game.id, {1: bob})
    assert table(service)["ratings"] == {}
    result = play_out(service, game.id, seed=1)
    after = expected([(MODEL.mu, MODEL.sigma)] * 2, [(0,), (1,)], result["winners"])
    found = table(service, game.id)
    assert found["ratings"] == {(alice, 2): (*after[0], 1), (bob, 2): (*after[1], 1)}
    assert found["changes"] == sorted([(game.id, alice, MODEL.mu, MODEL.sigma, *after[0]),
                                       (game.id, bob, MODEL.mu, MODEL.sigma, *after[1])])
    winner = result["winners"][0]
    assert after[winner][0] > MODEL.mu > after[1 - winner][0]
    view = service.view(service.get(game.id), None)
    assert view["rated"] is True
    assert [(r["seat"], r["after"]) for r in view["ratings"]] == [
        (seat, ratings.shown(*after[seat])) for seat in range(2)]
    assert view["ratings"][winner]["change"] > 0
    check_once(service, game.id, tmp_path)


def test_a_three_player_rated_game_rates_three_sides_and_the_bot_from_its_calibration(service, tmp_path):
    alice, bob = account(service, "Alice"), account(service, "Bob")
    game, _ = service.create(3, "standard", [{"kind": "human"}, {"kind": "bot", "bot": "strong"}, {"kind": "human"}],
                             seed=8, rated=True, user_id=alice)
    seat_accounts(service, game.id, {2: bob})
    with service.sessions() as session:
        strong = session.scalar(select(SeatRow.user_id).where(SeatRow.game_id == game.id, SeatRow.seat == 1))
        assert session.get(UserRow, strong).kind == "bot"
    # a second game with the level uses the same account
    other, _ = service.create(2, "standard", [{"kind": "human"}, {"kind": "bot", "bot": "strong"}], rated=True,
                              user_id=bob)
    with service.sessions() as session:
        assert session.scalar(select(SeatRow.user_id).where(SeatRow.game_id == other.id, SeatRow.seat == 1)) == strong
    result = play_out(service, game.id, seed=2)
    starts = [(MODEL.mu, MODEL.sigma), (level_mu("strong"), BOT_SIGMA), (MODEL.mu, MODEL.sigma)]
    after = expected(starts, [(0,), (1,), (2,)], result["winners"])
    found = table(service, game.id)
    assert found["ratings"] == {(alice, 3): (*after[0], 1), (strong, 3): (*after[1], 1), (bob, 3): (*after[2], 1)}
    assert found["applied"][other.id] is False  # still running
    check_once(service, game.id, tmp_path)


def test_a_four_player_rated_game_rates_the_teams(service, tmp_path):
    people = [account(service, name) for name in ("Ann", "Ben", "Cat")]
    seats = [{"kind": "human"}, {"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "beginner"}]
    game, _ = service.create(4, "standard", seats, seed=13, rated=True, user_id=people[0])
    seat_accounts(service, game.id, {1: people[1], 2: people[2]})
    result = play_out(service, game.id, seed=3)
    starts = [(MODEL.mu, MODEL.sigma)] * 3 + [(level_mu("beginner"), BOT_SIGMA)]
    after = expected(starts, [(0, 2), (1, 3)], result["winners"])
    found = table(service, game.id)
    assert {key: value[:2] for key, value in found["ratings"].items() if key[0] in people} == {
        (people[0], 4): after[0], (people[1], 4): after[1], (people[2], 4): after[2]}
    assert len(found["changes"]) == 4
    partners_won = set(result["winners"]) == {0, 2}
    assert (after[0][0] > MODEL.mu) == partners_won and (after[2][0] > MODEL.mu) == partners_won
    assert (after[1][0] > MODEL.mu) != partners_won
    check_once(service, game.id, tmp_path)


def test_an_unrated_game_changes_no_rating(service):
    alice = account(service, "Alice")
    game, _ = service.create(2, "standard", [{"kind": "human"}, {"kind": "bot", "bot": "strong"}], seed=3,
                             user_id=alice)
    play_out(service, game.id)
    assert apply_ratings(service.engine, game.id) is False
    found = table(service)
    assert found["ratings"] == {} and found["changes"] == [] and found["applied"][game.id] is False
    assert service.view(service.get(game.id), None)["ratings"] is None


def test_ratings_lost_in_a_crash_are_applied_at_the_next_start(service, tmp_path, monkeypatch):
    alice = account(service, "Alice")
    game, _ = service.create(2, "standard", [{"kind": "human"}, {"kind": "bot", "bot": "max"}], seed=4, rated=True,
                             user_id=alice)

    def crash(*_args: Any) -> bool:
        raise RuntimeError("the process died here")

    monkeypatch.setattr(moves, "apply_ratings", crash)  # where the finishing move calls it
    play_out(service, game.id)  # the last move is stored; its ratings are not
    assert table(service)["applied"][game.id] is False and table(service)["changes"] == []
    monkeypatch.undo()
    restarted = GameService(f"sqlite:///{tmp_path / 'rated.sqlite3'}")
    try:
        assert apply_pending(restarted.engine) == [game.id]
        assert len(table(restarted, game.id)["changes"]) == 2
        assert table(restarted)["ratings"][(alice, 2)][2] == 1
        check_once(restarted, game.id, tmp_path)
    finally:
        restarted.close()


def test_ratings_held_back_by_a_database_outage_are_applied_without_a_restart(service, monkeypatch):
    alice = account(service, "Alice")
    game, _ = service.create(2, "standard", [{"kind": "human"}, {"kind": "bot", "bot": "max"}], seed=5, rated=True,
                             user_id=alice)

    def locked(*_args: Any) -> bool:
        raise OperationalError("UPDATE games", {}, sqlite3.OperationalError("database is locked"))

    monkeypatch.setattr(moves, "apply_ratings", locked)
    play_out(service, game.id)  # the last move is stored; its ratings are not
    assert table(service)["applied"][game.id] is False
    monkeypatch.undo()  # the database is back

    async def until_applied() -> None:  # the server's background task, on its own
        task = asyncio.create_task(keep_applied(service, every=0.05))
        try:
            while not table(service)["applied"][game.id]:
                await asyncio.sleep(0.05)
        finally:
            task.cancel()

    asyncio.run(asyncio.wait_for(until_applied(), 60))
    assert len(table(service, game.id)["changes"]) == 2
    assert table(service)["ratings"][(alice, 2)][2] == 1


@pytest.mark.parametrize("database", ["sqlite", "postgresql"])
def test_racing_appliers_apply_a_game_once(database, request, tmp_path):
    url = request.getfixturevalue("postgres_url") if database == "postgresql" else f"sqlite:///{tmp_path / 'race.db'}"
    service = GameService(url)
    request.addfinalizer(service.close)
    alice = account(service, "Alice")
    game, _ = service.create(2, "standard", [{"kind": "human"}, {"kind": "bot", "bot": "beginner"}], seed=6,
                             rated=True, user_id=alice)
    play_out(service, game.id)
    with service.sessions.begin() as session:  # as if the finishing process had died before its ratings
        session.execute(update(GameRow).values(ratings_applied=False))
        session.execute(RatingChangeRow.__table__.delete())
        session.execute(RatingRow.__table__.delete())
    outcomes: list[bool] = []
    barrier = threading.Barrier(4)

    def attempt() -> None:
        barrier.wait()
        outcomes.append(apply_ratings(service.engine, game.id))

    threads = [threading.Thread(target=attempt) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == [False, False, False, True]
    assert len(table(service, game.id)["changes"]) == 2
    assert all(games == 1 for _mu, _sigma, games in table(service)["ratings"].values())


def test_a_rated_game_with_a_seat_no_account_holds_is_not_rated(service):
    alice = account(service, "Alice")
    game, _ = service.create(2, "standard", [{"kind": "human"}, {"kind": "human"}], seed=7, rated=True,
                             user_id=alice)
    play_out(service, game.id)  # seat 1 was never claimed by an account (a stand-in could have played it)
    found = table(service)
    assert found["applied"][game.id] is True and found["changes"] == [] and found["ratings"] == {}


@pytest.mark.parametrize(("seats", "settings", "status", "code"), [
    ([{"kind": "human"}, {"kind": "bot", "bot": "strong"}], {"user_id": None}, 403, "rated_sign_in"),
    ([{"kind": "human"}, {"kind": "bot", "bot": "strong"}], {"hints": True}, 422, "not_rateable"),
    ([{"kind": "human"}, {"kind": "human"}], {"hotseat": True}, 422, "not_rateable"),
    ([{"kind": "human"}, {"kind": "bot", "bot": "random"}], {}, 422, "not_rateable"),
    ([{"kind": "human"}, {"kind": "bot", "bot": "mcts:100"}], {}, 422, "not_rateable"),
    ([{"kind": "human"}, {"kind": "bot", "bot": "strong"}], {"stand_in": "random"}, 422, "not_rateable"),
    ([{"kind": "human"}, {"kind": "bot", "bot": "beginner"}], {"stand_in": "strong"}, 422, "not_rateable"),
    ([{"kind": "human"}, {"kind": "bot", "bot": "strong"}, {"kind": "bot", "bot": "strong"}], {}, 422,
     "not_rateable"),
    ([{"kind": "bot", "bot": "strong"}, {"kind": "bot", "bot": "max"}], {}, 422, "not_rateable"),
])
def test_games_that_cannot_be_rated_fairly_are_refused(service, seats, settings, status, code):
    alice = account(service, "Alice")
    with pytest.raises(GameError) as refused:
        service.create(len(seats), "standard", seats, rated=True, **{"user_id": alice, **settings})
    assert (refused.value.status, refused.value.code) == (status, code)
    with service.sessions() as session:
        assert session.scalars(select(GameRow)).all() == []


def test_ranks_give_winners_one_place_and_ties_share_it():
    assert ratings.ranks(2, [1]) == [2, 1]
    assert ratings.ranks(3, [0, 2]) == [1, 2, 1]  # a shared win
    assert ratings.ranks(4, [1, 3]) == [2, 1]
    assert ratings.ranks(4, [0, 1, 2, 3]) == [1, 1]  # everyone shares the win: a draw
    assert ratings.sides(4) == [(0, 2), (1, 3)] and ratings.sides(3) == [(0,), (1,), (2,)]


def test_bot_levels_start_in_the_order_of_their_arena_elo():
    mus = [level_mu(level) for level in ("beginner", "intermediate", "strong", "max", "master")]
    assert mus == sorted(mus) and mus[0] < MODEL.mu < mus[2]
    strong, intermediate = (MODEL.rating(mu=level_mu(level), sigma=BOT_SIGMA) for level in ("strong", "intermediate"))
    elo = ratings.LEVEL_ELO["strong"] - ratings.LEVEL_ELO["intermediate"]
    predicted = MODEL.predict_win([[strong], [intermediate]])[0]
    assert predicted == pytest.approx(1 / (1 + 10 ** (-elo / 400)), abs=0.05)


@pytest.fixture
def make_client(tmp_path, browsers: Any) -> Any:
    """Clients of one app, each its own browser (https: the session cookie is Secure)."""
    from kingisdead.web import create_app

    app = create_app(f"sqlite:///{tmp_path / 'api.sqlite3'}")

    def make(name: str | None = None) -> Any:
        client = browsers(app)
        if name:
            response = client.post("/api/account/sign-up", json={"name": name, "password": "a long password"})
            assert response.status_code == 201, response.text
        return client

    return make


def test_a_rated_game_through_the_api_shows_each_seat_its_change_and_fills_the_leaderboard(make_client):
    ann, ben = make_client("Ann"), make_client("Ben")
    created = ann.post("/api/games", json={"players": 2, "seats": [{"kind": "human"}, {"kind": "human"}],
                                           "seed": 21, "rated": True})
    assert created.status_code == 201, created.text
    game = created.json()
    assert game["game"]["rated"] is True and game["game"]["ratings"] is None
    claimed = ben.post(f"/api/games/{game['id']}/claim", json={}, headers={
        "Authorization": f"Bearer {game['seats'][1]['invite_token']}"})
    assert claimed.status_code == 200, claimed.text
    result = play_out(ann.app.state.service, game["id"], seed=5)
    view = ben.get(f"/api/games/{game['id']}").json()
    changes = {r["name"]: r for r in view["ratings"]}
    assert set(changes) == {"Ann", "Ben"}
    winner = "Ann" if result["winners"] == [0] else "Ben"
    loser = ({"Ann", "Ben"} - {winner}).pop()
    assert changes[winner]["before"] == changes[loser]["before"] == ratings.shown(MODEL.mu, MODEL.sigma)
    assert changes[winner]["change"] > 0 > changes[loser]["change"]

    board = ann.get("/api/leaderboard", params={"players": 2}).json()
    names = [e["name"] for e in board["ratings"]]
    assert {"Ann", "Ben", "Beginner bot", "Intermediate bot", "Strong bot", "Max bot", "Master bot"} == set(names)
    shown_ratings = [e["rating"] for e in board["ratings"]]
    assert shown_ratings == sorted(shown_ratings, reverse=True)
    assert [e["rank"] for e in board["ratings"]] == list(range(1, len(names) + 1))
    people = {e["name"]: e for e in board["ratings"] if not e["bot"]}
    assert people[winner]["rating"] == changes[winner]["after"] and people[winner]["games"] == 1
    assert board["bots"] == {level: ratings.shown(level_mu(level), BOT_SIGMA)
                             for level in ("beginner", "intermediate", "strong", "max", "master")}
    assert ann.get("/api/leaderboard", params={"players": 3}).json()["ratings"][0]["bot"] is True
    assert ann.get("/api/leaderboard", params={"players": 5}).status_code == 422


def test_rated_games_refuse_guests_and_a_second_seat_of_one_account(make_client):
    guest, ann = make_client(), make_client("Ann")
    two = {"players": 2, "seats": [{"kind": "human"}, {"kind": "human"}], "rated": True}
    refused = guest.post("/api/games", json=two)
    assert (refused.status_code, refused.json()["error"]) == (403, "rated_sign_in")
    refused = ann.post("/api/games", json={**two, "hints": True})
    assert (refused.status_code, refused.json()["error"]) == (422, "not_rateable")
    game = ann.post("/api/games", json=two).json()
    invite = {"Authorization": f"Bearer {game['seats'][1]['invite_token']}"}
    refused = guest.post(f"/api/games/{game['id']}/claim", json={}, headers=invite)
    assert (refused.status_code, refused.json()["error"]) == (403, "rated_sign_in")
    refused = ann.post(f"/api/games/{game['id']}/claim", json={}, headers=invite)
    assert (refused.status_code, refused.json()["error"]) == (409, "already_seated")
    assert ann.get(f"/api/games/{game['id']}").json()["seats"][1]["claimed"] is False  # the invite still works


def test_a_newcomers_rating_is_provisional_for_their_first_rated_games(make_client):
    """Until PROVISIONAL_GAMES rated games at a player count, a person's rating is marked provisional (on the
    game's changes, the leaderboard and their statistics); a bot level's never is."""
    ann, ben = make_client("Ann"), make_client("Ben")
    for number in range(ratings.PROVISIONAL_GAMES):
        game = ann.post("/api/games", json={"players": 2, "seats": [{"kind": "human"}, {"kind": "human"}],
                                            "seed": 30 + number, "rated": True}).json()
        claimed = ben.post(f"/api/games/{game['id']}/claim", json={}, headers={
            "Authorization": f"Bearer {game['seats'][1]['invite_token']}"})
        assert claimed.status_code == 200, claimed.text
        play_out(ann.app.state.service, game["id"], seed=number)
        changes = ben.get(f"/api/games/{game['id']}").json()["ratings"]
        last = number + 1 == ratings.PROVISIONAL_GAMES
        for change in changes:
            assert change["games"] == number + 1
            assert change["provisional_before"] is True
            assert change["provisional_after"] is not last
        board = {e["name"]: e for e in ann.get("/api/leaderboard", params={"players": 2}).json()["ratings"]}
        assert board["Ann"]["provisional"] is not last and board["Beginner bot"]["provisional"] is False
        mine = ann.get("/api/account").json()["ratings"]
        assert [r["provisional"] for r in mine] == [not last]


def play_out_with_stand_in(service: GameService, game_id: str, seed: int, away: Any) -> dict[str, Any]:
    """Play to the end with random moves; seat 0's person is away (the stand-in plays it, its moves marked as
    a bot's) on the turns where ``away(turn)`` is true, counting seat 0's turns from 0, or has left."""
    chooser = make_bot("random", seed)
    turn = 0
    while not (state := service.get(game_id).snapshot.state).is_over():
        game = service.get(game_id)
        if state.player == 0 and not game.seats[0].left:
            if away(turn) != game.seats[0].away:
                with service.sessions.begin() as session:
                    session.execute(update(SeatRow).where(SeatRow.game_id == game_id, SeatRow.seat == 0)
                                    .values(away=away(turn)))
                service.forget(game_id)
            turn += 1
        game = service.get(game_id)
        by_bot = game.bot_for(state.player) is not None
        service.play(game_id, state.player, format_move(chooser.choose(state)), None, state if by_bot else None)
    result = service.get(game_id).snapshot.state.result
    assert result is not None
    return result.to_dict()


def won_by_seat_0(service: GameService, alice: int, away: Any, leave: bool = False) -> str:
    """A rated game of Alice (seat 0, intermediate stand-in) against the beginner bot that seat 0 wins."""
    for seed in range(40):
        game, _ = service.create(2, "standard", [{"kind": "human"}, {"kind": "bot", "bot": "beginner"}], seed=seed,
                                 rated=True, user_id=alice, stand_in="intermediate")
        if leave:
            clocks.leave(service, game.id, 0)
        if play_out_with_stand_in(service, game.id, seed, away)["winners"] == [0]:
            return game.id
    raise AssertionError("seat 0 won none of 40 games")


@pytest.mark.parametrize("how", ["left at move 0", "away from its second turn"])
def test_a_person_gains_no_rating_from_the_stand_ins_win(service, how):
    alice = account(service, "Alice")
    game_id = won_by_seat_0(service, alice, lambda turn: turn >= 1, leave=how == "left at move 0")
    with service.sessions() as session:
        changes = {c.user_id: c for c in session.scalars(select(RatingChangeRow)
                                                         .where(RatingChangeRow.game_id == game_id))}
        beginner = session.scalar(select(UserRow.id).where(UserRow.name_key == "bot:beginner"))
    assert changes[alice].mu_after < changes[alice].mu_before  # rated as a loss
    assert changes[beginner].mu_after > changes[beginner].mu_before  # the bot won by forfeit
    assert service.view(service.get(game_id), None)["ratings"][0]["change"] <= 0


def test_a_person_whom_the_stand_in_replaced_for_one_turn_keeps_the_win(service):
    alice = account(service, "Alice")
    game_id = won_by_seat_0(service, alice, lambda turn: turn == 1)
    with service.sessions() as session:
        change = session.scalar(select(RatingChangeRow).where(RatingChangeRow.game_id == game_id,
                                                              RatingChangeRow.user_id == alice))
        stand_in_moves = session.scalars(select(MoveRow.stand_in).where(MoveRow.game_id == game_id,
                                                                        MoveRow.seat == 0)).all()
    assert stand_in_moves.count(True) == 1 and len(stand_in_moves) > 2
    assert change is not None and change.mu_after > change.mu_before


def test_forfeited_sides_rank_below_every_other_and_their_win_counts_for_no_one():
    assert ratings.ranks(2, [0], forfeited={0}) == [3, 1]
    assert ratings.ranks(2, [1], forfeited={0}) == [3, 1]
    assert ratings.ranks(3, [2], forfeited={2}) == [1, 1, 3]  # the others share the place the winner left
    assert ratings.ranks(3, [0], forfeited={2}) == [1, 2, 3]
    assert ratings.ranks(4, [0, 2], forfeited={0}) == [3, 1]  # a team with a seat given up loses
