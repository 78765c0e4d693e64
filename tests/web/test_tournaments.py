"""Tournaments through the API (the races and the killed processes on PostgreSQL too): creation checked, entries, withdrawals, the entry limit, the
rating floor, cancelling; a 6-player Swiss tournament of 3 rounds played to its end (people's moves, stand-ins
after a clock ran out, games played out at a round's deadline) with its standings checked by hand; 3-player
tables with a bye; one pairing per round when two processes race; processes killed between the steps."""

from __future__ import annotations

import random
import threading
import time
from datetime import UTC, datetime, timedelta, timezone
from types import SimpleNamespace
from typing import Any

import pytest
from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from webtools import on_both_databases

from kingisdead.moves import format_move
from kingisdead.web import clocks, games, tournaments
from kingisdead.web.db import (
    GameRow,
    NotificationSettingsRow,
    OutboxRow,
    RatingChangeRow,
    TournamentResultRow,
    TournamentRoundRow,
    TournamentTableRow,
    UserRow,
)
from kingisdead.web.mail import MailSettings
from kingisdead.web.notify import Notifier, NotifySettings
from kingisdead.web.push import PushSettings, generate_keys
from kingisdead.web.security import RateLimits
from kingisdead.web.service import GameService

PASSWORD = "correct horse battery"
JSON = {"content-type": "application/json"}
NAMES = ("Ada", "Bea", "Cid", "Dot", "Eve", "Fay")


@pytest.fixture
def site(db_url: str, browsers: Any, tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
    """``site.person(name)``: a browser signed up as ``name``; ``site.tick(now)``: one pass of the tournament job
    at ``now`` (the app's own loop waits an hour between passes here); games and tournaments seeded from a fixed
    generator, so that every deal and stand-in move is the same at each run."""
    from kingisdead.web import create_app

    monkeypatch.setattr(tournaments, "CHECK_EVERY", 3600.0)
    drawn = random.Random(32)
    seeded = SimpleNamespace(randbits=drawn.getrandbits, token_urlsafe=tournaments.secrets.token_urlsafe)
    monkeypatch.setattr(games, "secrets", seeded)
    monkeypatch.setattr(tournaments, "secrets", seeded)
    generate_keys(tmp_path / "vapid.pem")
    notify = NotifySettings(mail=MailSettings(host="127.0.0.1", port=9, timeout=1),
                            push=PushSettings(key_file=tmp_path / "vapid.pem", subject="mailto:ops@kid.example"),
                            every=3600)
    app = create_app(db_url, public_url="https://kid.example", notify=notify,
                     rate_limits=RateLimits(tournament="4/minute"))

    class Site:
        people: dict[str, Any] = {}

        @staticmethod
        def person(name: str) -> Any:
            client = browsers(app)
            answer = client.post("/api/account/sign-up", json={"name": name, "password": PASSWORD})
            assert answer.status_code == 201, answer.text
            Site.people[name] = client
            return client

        @staticmethod
        def tick(now: datetime) -> list[str]:
            state = app.state
            return list(Site.people[NAMES[0]].portal.call(tournaments.tick, state.service, state.notifier, state.hub,
                                                          state.runner, now))

    Site.app = app  # type: ignore[attr-defined]
    Site.service = app.state.service  # type: ignore[attr-defined]
    return Site


def refused(answer: Any, status: int, error: str) -> None:
    assert answer.status_code == status, answer.text
    assert answer.json()["error"] == error, answer.json()


def settings(**changes: Any) -> dict[str, Any]:
    starts = datetime.now(UTC) + timedelta(hours=1)
    return {"name": "Winter Swiss", "edition": "first", "variant": "standard", "mode": "standard", "players": 2,
            "time_limit": 86400, "rounds": 3, "points": {"win": 2, "shared": 1, "loss": 0},
            "starts_at": starts.isoformat(), "entry_limit": 16, "rating_floor": None, "rated": False,
            "round_days": 14, "stand_in": "random", **changes}


def made(client: Any, **changes: Any) -> int:
    answer = client.post("/api/tournaments", json=settings(**changes))
    assert answer.status_code == 201, answer.text
    return int(answer.json()["id"])


def wait_until(check: Any, what: str, timeout: float = 30.0) -> Any:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        found = check()
        if found:
            return found
        time.sleep(0.02)
    raise AssertionError(f"timed out waiting for {what}")


def detail(client: Any, tournament_id: int) -> dict[str, Any]:
    answer = client.get(f"/api/tournaments/{tournament_id}")
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def test_creation_is_checked_and_listed(site, browsers):
    ada = site.person("Ada")
    first = made(ada)
    listed = ada.get("/api/tournaments").json()["tournaments"]
    assert [(t["id"], t["name"], t["creator"], t["status"], t["round"], t["entrants"], t["entered"])
            for t in listed] == [(first, "Winter Swiss", "Ada", "open", 0, 0, False)]
    shown = detail(ada, first)
    assert (shown["round_count"], shown["rounds"], shown["entrants"], shown["standings"]) == (3, [], [], [])
    past = (datetime.now(UTC) - timedelta(minutes=1)).isoformat()
    far = (datetime.now(UTC) + timedelta(days=91)).isoformat()
    for bad in ({"starts_at": past}, {"starts_at": far}, {"points": {"win": 1, "shared": 2, "loss": 0}},
                {"name": "ab"}, {"name": "   a   "}, {"rounds": 13}, {"rounds": 0}, {"players": 5},
                {"time_limit": 600}, {"entry_limit": 1}, {"entry_limit": 1001}, {"round_days": 61},
                {"variant": "mordred", "edition": "second"}, {"mode": "advanced"}, {"stand_in": "nobody"},
                {"rated": "yes"}, {"rounds": "3"}, {"extra": 1}, {"points": {"win": 11, "shared": 1, "loss": 0}},
                {"edition": "second", "stand_in": "master"}, {"starts_at": "tomorrow"}):
        refused(ada.post("/api/tournaments", json=settings(**bad)), 422, "invalid_request")
    refused(ada.post("/api/tournaments", json=settings(edition="second", mode="advanced", rated=True)), 422,
            "not_rateable")
    refused(ada.post("/api/tournaments", json=settings(rated=True, stand_in="strong")), 422, "not_rateable")
    assert made(ada, edition="second", mode="advanced", stand_in="beginner")  # the advanced game, unrated
    assert made(ada, rated=True, stand_in="beginner", rating_floor=-5)
    paris = (datetime.now(UTC) + timedelta(days=2)).replace(microsecond=0).astimezone(timezone(timedelta(hours=1)))
    fours = made(ada, players=4, rounds=1, starts_at=paris.isoformat())  # stored and shown in UTC
    assert datetime.fromisoformat(detail(ada, fours)["starts_at"]) == paris
    refused(ada.post("/api/tournaments", json=settings()), 429, "rate_limited")  # 4 a minute (refusals not counted)
    guest = browsers(site.app)
    refused(guest.post("/api/tournaments", json=settings()), 401, "sign_in_required")
    assert guest.get("/api/tournaments").json()["tournaments"][0]["entered"] is False
    refused(guest.get("/api/tournaments/999"), 404, "unknown_tournament")
    refused(guest.get(f"/api/tournaments/{2**40}"), 404, "unknown_tournament")
    refused(guest.get("/api/tournaments/abc"), 422, "invalid_request")
    schema = ada.get("/openapi.json").json()
    assert {"NewTournament", "Points", "TournamentView", "Standing"} <= set(schema["components"]["schemas"])
    assert "/api/tournaments/{tournament_id}/entry" in schema["paths"]


def test_entries_withdrawals_the_limit_the_floor_and_cancelling(site):
    ada, bea, cid = site.person("Ada"), site.person("Bea"), site.person("Cid")
    small = made(ada, entry_limit=2)
    for person in (ada, bea):
        assert person.post(f"/api/tournaments/{small}/entry", headers=JSON).status_code == 204
    assert ada.post(f"/api/tournaments/{small}/entry", headers=JSON).status_code == 204  # again: no change
    refused(cid.post(f"/api/tournaments/{small}/entry", headers=JSON), 409, "tournament_full")
    assert bea.delete(f"/api/tournaments/{small}/entry", headers=JSON).status_code == 204
    refused(bea.delete(f"/api/tournaments/{small}/entry", headers=JSON), 404, "not_entered")
    assert cid.post(f"/api/tournaments/{small}/entry", headers=JSON).status_code == 204
    shown = detail(cid, small)
    assert (shown["entrant_count"], shown["entered"], sorted(e["name"] for e in shown["entrants"])) == (
        2, True, ["Ada", "Cid"])
    floored = made(ada, rating_floor=5)
    refused(bea.post(f"/api/tournaments/{floored}/entry", headers=JSON), 403, "rating_too_low")  # no rating: 0
    refused(bea.post(f"/api/tournaments/{small}/cancel", headers=JSON), 403, "not_creator")
    with site.service.sessions.begin() as session:  # Cid wants e-mail: the cancellation reaches him
        cid_id = session.scalar(select(UserRow.id).where(UserRow.name == "Cid"))
        session.add(NotificationSettingsRow(user_id=cid_id, email="cid@kid.example", unsubscribe_key="k" * 40,
                                            confirmed_at=datetime.now(UTC)))
    assert ada.post(f"/api/tournaments/{small}/cancel", headers=JSON).status_code == 204
    refused(ada.post(f"/api/tournaments/{small}/cancel", headers=JSON), 409, "tournament_started")
    refused(bea.post(f"/api/tournaments/{small}/entry", headers=JSON), 409, "tournament_started")
    refused(cid.delete(f"/api/tournaments/{small}/entry", headers=JSON), 409, "tournament_over")
    assert detail(ada, small)["status"] == "cancelled"
    with site.service.sessions() as session:
        mail = session.scalar(select(OutboxRow).where(OutboxRow.key == f"tournament:cancelled:mail:{small}:{cid_id}"))
    assert mail is not None and "Winter Swiss" in mail.content["text"]
    lonely = made(ada)  # one entrant at its start: cancelled, and said so
    assert ada.post(f"/api/tournaments/{lonely}/entry", headers=JSON).status_code == 204
    site.tick(datetime.now(UTC) + timedelta(hours=2))
    assert [(t["id"], t["status"]) for t in ada.get("/api/tournaments").json()["tournaments"]
            if t["id"] == lonely] == [(lonely, "cancelled")]
    refused(ada.post("/api/tournaments/999/entry", headers=JSON), 404, "unknown_tournament")


# -- playing a tournament -----------------------------------------------------------------------------------

def seated(site: Any, game_id: str) -> list[str]:
    return [seat.name for seat in site.service.get(game_id).seats]


def play_by_people(site: Any, game_id: str, moves: int | None = None, seed: int = 0) -> None:
    """The people of the game play ``moves`` moves (all: to its end) through the API, each a legal move drawn by a
    generator seeded with ``seed``."""
    rng = random.Random(seed)
    played = 0
    while moves is None or played < moves:
        game = site.service.get(game_id)
        state = game.snapshot.state
        if state.is_over():
            return
        move = rng.choice(state.legal_moves())
        person = site.people[game.seats[state.player].name]
        answer = person.post(f"/api/games/{game_id}/moves", json={"move": format_move(move, state.edition),
                                                                  "move_number": len(game.snapshot.moves)})
        assert answer.status_code == 200, answer.text
        played += 1


def kick(site: Any, game_id: str) -> None:
    async def kicked() -> None:
        site.app.state.runner.kick(game_id)

    site.people[NAMES[0]].portal.call(kicked)


def run_out_of_time(site: Any, game_id: str) -> None:
    """Every person's clock of the game runs out in turn (its deadline passed): the stand-in plays to the end."""
    def over_or_expired() -> bool:
        game = site.service.get(game_id)
        state = game.snapshot.state
        if state.is_over():
            return True
        if game.deadline is None:
            return False  # the stand-in is thinking
        later = game.deadline + timedelta(seconds=1)
        if clocks.expire(site.service, game_id, state.player, len(game.snapshot.moves), later):
            kick(site, game_id)
        return False

    wait_until(over_or_expired, f"game {game_id} played out by its stand-ins")


def finished(site: Any, game_id: str) -> None:
    wait_until(lambda: site.service.get(game_id).snapshot.state.is_over(), f"game {game_id} to end")


def results(site: Any, tournament_id: int, number: int) -> list[tuple[str, ...]]:
    """Round ``number``'s tables as (status, name:points...) and its byes as ("bye", name)."""
    shown = detail(site.people[NAMES[0]], tournament_id)["rounds"][number - 1]
    return [(t["status"], *(f"{s['name']}:{s['points']}" for s in t["seats"])) for t in shown["tables"]] + \
        [("bye", name) for name in shown["byes"]]


def test_a_six_player_swiss_tournament_played_to_its_end(site):
    for name in NAMES:
        site.person(name)
    ada = site.people["Ada"]
    with site.service.sessions.begin() as session:  # Ada wants e-mail: she is told of each round and the end
        ada_id = session.scalar(select(UserRow.id).where(UserRow.name == "Ada"))
        session.add(NotificationSettingsRow(user_id=ada_id, email="ada@kid.example", unsubscribe_key="a" * 40,
                                            confirmed_at=datetime.now(UTC)))
    swiss = made(ada, name="Six of us")
    for name in NAMES:
        assert site.people[name].post(f"/api/tournaments/{swiss}/entry", headers=JSON).status_code == 204
    now = datetime.now(UTC) + timedelta(hours=2)
    made_games = site.tick(now)  # started: round 1 paired, its games made
    played: list[list[tuple[str, ...]]] = []
    for number in (1, 2, 3):
        shown = detail(ada, swiss)
        assert (shown["status"], shown["round"]) == ("running", number)
        tables = shown["rounds"][number - 1]["tables"]
        assert [t["game"] for t in tables] == made_games and len(tables) == 3
        first, second, third = made_games
        play_by_people(site, first, seed=number)  # the people play the first table to its end
        run_out_of_time(site, second)  # the second's clocks run out: the stand-ins play it
        play_by_people(site, third, moves=3, seed=number)  # the third is still running at the round's deadline
        assert site.tick(now) == []  # nothing to do before the deadline
        now += timedelta(days=14, seconds=1)
        assert site.tick(now) == [third]  # adjudicated: the stand-in plays every seat to the end
        finished(site, third)
        now += timedelta(minutes=1)
        made_games = site.tick(now)  # the round's results counted, the next round paired
        played.append(results(site, swiss, number))
    # Each round's tables (the people's game, the stand-ins' after the clocks ran out, the one played out at the
    # deadline): the deals, the people's moves and the stand-ins' are seeded, so the games end the same each run.
    assert played == [
        [("finished", "Dot:0", "Ada:2"), ("finished", "Bea:2", "Eve:0"), ("adjudicated", "Cid:2", "Fay:0")],
        # after round 1: Ada, Bea, Cid 2 points; Dot, Eve, Fay 0. Swiss: the top group's odd one (Cid, the lowest
        # of the three in its order) floats down to Dot; no pair meets again
        [("finished", "Ada:0", "Bea:2"), ("finished", "Cid:2", "Dot:0"), ("adjudicated", "Fay:2", "Eve:0")],
        # after round 2: Bea 4, Cid 4, Ada 2, Fay 2, Dot 0, Eve 0
        [("finished", "Bea:2", "Cid:0"), ("finished", "Ada:0", "Fay:2"), ("adjudicated", "Dot:2", "Eve:0")]]
    # Final points: Bea 2+2+2 = 6; Cid 2+2+0 = 4; Fay 0+2+2 = 4; Ada 2+0+0 = 2; Dot 0+0+2 = 2; Eve 0.
    # Buchholz (the final points of the opponents met):
    #   Bea met Eve 0, Ada 2, Cid 4 = 6        Cid met Fay 4, Dot 2, Bea 6 = 12
    #   Fay met Cid 4, Eve 0, Ada 2 = 6        Ada met Dot 2, Bea 6, Fay 4 = 12
    #   Dot met Ada 2, Cid 4, Eve 0 = 6        Eve met Bea 6, Fay 4, Dot 2 = 12
    # So Cid (4, 12) stands above Fay (4, 6), and Ada (2, 12) above Dot (2, 6).
    shown = detail(ada, swiss)
    assert shown["status"] == "finished"
    assert [(s["rank"], s["name"], s["points"], s["buchholz"], s["byes"]) for s in shown["standings"]] == [
        (1, "Bea", 6, 6, 0), (2, "Cid", 4, 12, 0), (3, "Fay", 4, 6, 0), (4, "Ada", 2, 12, 0), (5, "Dot", 2, 6, 0),
        (6, "Eve", 0, 12, 0)]
    assert [t["status"] for t in ada.get("/api/tournaments").json()["tournaments"]] == ["finished"]
    with site.service.sessions() as session:
        keys = set(session.scalars(select(OutboxRow.key).where(OutboxRow.user_id == ada_id)))
        ended = session.scalar(select(OutboxRow).where(OutboxRow.key == f"tournament:ended:mail:{swiss}:{ada_id}"))
    assert keys == {f"tournament:round{n}:mail:{swiss}:{ada_id}" for n in (1, 2, 3)} | {ended.key}
    assert "You placed 4 of 6 with 2 points." in ended.content["text"]


def test_the_points_of_a_games_places():
    points = {"win": 3, "shared": 2, "loss": 0}
    assert tournaments.table_points(2, [1], points) == [0, 3]
    assert tournaments.table_points(3, [0, 2], points) == [2, 0, 2]  # two players tied after every tie-break
    assert tournaments.table_points(4, [1, 3], points) == [0, 3, 0, 3]  # one winning team: both partners win
    assert tournaments.table_points(4, [0, 1, 2, 3], points) == [2, 2, 2, 2]  # both teams tied
    assert tournaments.table_points(3, [], points) == [0, 0, 0]


def test_three_player_tables_and_a_bye(site):
    names = (*NAMES, "Gus")
    for name in names:
        site.person(name)
    threes = made(site.people["Ada"], players=3, rounds=1, points={"win": 3, "shared": 2, "loss": 1})
    for name in names:
        assert site.people[name].post(f"/api/tournaments/{threes}/entry", headers=JSON).status_code == 204
    now = datetime.now(UTC) + timedelta(hours=2)
    made_games = site.tick(now)
    shown = detail(site.people["Ada"], threes)["rounds"][0]
    assert [len(t["seats"]) for t in shown["tables"]] == [3, 3] and len(shown["byes"]) == 1  # 7 = 3 + 3 + a bye
    now += timedelta(days=14, seconds=1)
    assert sorted(site.tick(now)) == sorted(made_games)  # both played out at the deadline
    for game_id in made_games:
        finished(site, game_id)
    site.tick(now + timedelta(minutes=1))
    shown = detail(site.people["Ada"], threes)
    assert shown["status"] == "finished"
    with site.service.sessions() as session:
        winners = {game_id: session.get(GameRow, game_id).result["winners"] for game_id in made_games}
    for table in shown["rounds"][0]["tables"]:
        assert table["status"] == "adjudicated"
        assert [s["points"] for s in table["seats"]] == tournaments.table_points(3, winners[table["game"]],
                                                                                 shown["points"])
    bye = shown["rounds"][0]["byes"][0]
    assert [(s["points"], s["byes"]) for s in shown["standings"] if s["name"] == bye] == [(3, 1)]
    assert sorted(s["name"] for s in shown["standings"]) == sorted(names)


@on_both_databases
def test_two_processes_pairing_a_round_at_once_pair_it_once(site, db_url):
    for name in NAMES[:5]:
        site.person(name)
    tournament = made(site.people["Ada"])
    for name in NAMES[:5]:
        assert site.people[name].post(f"/api/tournaments/{tournament}/entry", headers=JSON).status_code == 204
    now = datetime.now(UTC) + timedelta(hours=2)
    services = [GameService(db_url), GameService(db_url)]
    notifiers = [Notifier(s.engine, NotifySettings(), "https://kid.example") for s in services]
    assert tournaments.start_due(services[0], notifiers[0], now) == [tournament]
    assert tournaments.start_due(services[1], notifiers[1], now) == []  # started once
    barrier = threading.Barrier(2)
    paired: list[bool] = [False, False]

    def pair(i: int) -> None:
        barrier.wait()
        paired[i] = tournaments.pair(services[i], notifiers[i], tournament, 1, now)

    threads = [threading.Thread(target=pair, args=(i,)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(paired) == [False, True]
    with services[0].sessions() as session:
        assert session.scalar(select(func.count()).select_from(TournamentRoundRow)) == 1
        assert session.scalar(select(func.count()).select_from(TournamentTableRow)) == 2
        assert session.scalar(select(func.count()).select_from(TournamentResultRow)) == 1  # the bye
    made_games = [tournaments.make_games(s) for s in services]
    assert sorted(map(len, made_games)) == [0, 2]
    for service in services:
        service.close()


def started_with_games(site: Any, entrants: int, **changes: Any) -> tuple[int, datetime]:
    for name in NAMES[:entrants]:
        site.person(name)
    tournament = made(site.people["Ada"], **changes)
    for name in NAMES[:entrants]:
        assert site.people[name].post(f"/api/tournaments/{tournament}/entry", headers=JSON).status_code == 204
    return tournament, datetime.now(UTC) + timedelta(hours=2)


def counts(site: Any) -> tuple[int, int, int, int]:
    """Rounds, tables, results and games stored."""
    with site.service.sessions() as session:
        return tuple(session.scalar(select(func.count()).select_from(model))  # type: ignore[return-value]
                     for model in (TournamentRoundRow, TournamentTableRow, TournamentResultRow, GameRow))


def restarted(site: Any, db_url: str, browsers: Any) -> Any:
    """A second app on the same database (the killed process's successor); its ``tick(now)``."""
    from kingisdead.web import create_app

    app = create_app(db_url, public_url="https://kid.example")
    client = browsers(app)
    state = app.state
    return lambda now: client.portal.call(tournaments.tick, state.service, state.notifier, state.hub, state.runner,
                                          now)


@on_both_databases
def test_a_process_killed_between_the_pairing_and_the_games(site, db_url, browsers):
    tournament, now = started_with_games(site, 4, rounds=2)
    notifier = site.app.state.notifier
    assert tournaments.start_due(site.service, notifier, now) == [tournament]
    assert tournaments.pair(site.service, notifier, tournament, 1, now)  # committed; then the process dies
    assert counts(site) == (1, 2, 0, 0)
    assert [t["game"] for t in detail(site.people["Ada"], tournament)["rounds"][0]["tables"]] == [None, None]
    with site.service.sessions() as session:
        chosen = list(session.scalars(select(TournamentTableRow.game_id).order_by(TournamentTableRow.table)))
    tick = restarted(site, db_url, browsers)
    assert tick(now) == chosen  # the games made with the ids chosen at pairing
    assert tick(now) == [] and site.tick(now) == []  # made once, whoever looks
    assert counts(site) == (1, 2, 0, 2)
    assert [t["game"] for t in detail(site.people["Ada"], tournament)["rounds"][0]["tables"]] == chosen
    with pytest.raises(IntegrityError):  # a second make of a table's game fails on its id
        site.service.create(2, "standard", [{"kind": "human"}, {"kind": "human"}], game_id=chosen[0])


@on_both_databases
def test_a_process_killed_after_counting_a_result_before_the_next_round(site, db_url, browsers):
    tournament, now = started_with_games(site, 4, rounds=2, rated=True, stand_in="beginner")
    made_games = site.tick(now)
    now += timedelta(days=14, seconds=1)
    assert sorted(site.tick(now)) == sorted(made_games)  # played out at the deadline
    for game_id in made_games:
        finished(site, game_id)
    def rated() -> bool:  # a rated tournament's games are rated as usual (just after their last move is stored)
        with site.service.sessions() as session:
            return session.scalar(select(func.count()).select_from(RatingChangeRow)) == 4

    wait_until(rated, "the games' rating changes")
    assert tournaments.count_results(site.service, now) == 2  # counted; then the process dies
    with site.service.sessions() as session:
        counted = list(session.scalars(select(TournamentTableRow.counted_at).order_by(TournamentTableRow.table)))
    assert counts(site) == (1, 2, 4, 2)
    tick = restarted(site, db_url, browsers)
    later = now + timedelta(minutes=1)
    assert len(tick(later)) == 2  # round 1 closed, round 2 paired and its games made
    assert tick(later) == [] and site.tick(later) == []
    assert tournaments.count_results(site.service, later) == 0  # nothing counted twice
    assert counts(site) == (2, 4, 4, 4)
    with site.service.sessions() as session:
        assert list(session.scalars(select(TournamentTableRow.counted_at).where(TournamentTableRow.round == 1)
                                    .order_by(TournamentTableRow.table))) == counted
    shown = detail(site.people["Ada"], tournament)
    assert shown["round"] == 2 and [r["finished_at"] is not None for r in shown["rounds"]] == [True, False]
    assert sum(s["points"] for s in shown["standings"]) == 4  # two games of 2 + 0 points


def test_those_who_withdraw_after_the_start_are_paired_no_more(site):
    tournament, now = started_with_games(site, 5, rounds=3, name="Spring\r\nSwiss\x07")
    assert detail(site.people["Ada"], tournament)["name"] == "Spring Swiss"  # one line: it is quoted in e-mails
    made_games = site.tick(now)  # 5 entrants: two tables and a bye
    assert site.people["Dot"].delete(f"/api/tournaments/{tournament}/entry", headers=JSON).status_code == 204
    assert site.people["Eve"].request("DELETE", "/api/account", json={"password": PASSWORD}).status_code == 200
    shown = detail(site.people["Ada"], tournament)
    withdrawn = sorted(e["name"] for e in shown["entrants"] if e["withdrawn"])
    assert shown["entrant_count"] == 3 and withdrawn[0] == "Dot" and withdrawn[1].startswith("anonymous-")
    now += timedelta(days=14, seconds=1)
    site.tick(now)  # their games go on: played out at the deadline with the others
    for game_id in made_games:
        finished(site, game_id)
    assert len(site.tick(now + timedelta(minutes=1))) == 1  # round 2: Ada, Bea and Cid, one table and a bye
    second = detail(site.people["Ada"], tournament)["rounds"][1]
    seated_names = sorted([s["name"] for t in second["tables"] for s in t["seats"]] + second["byes"])
    assert seated_names == ["Ada", "Bea", "Cid"]
    assert len(detail(site.people["Ada"], tournament)["standings"]) == 5  # the withdrawn keep their results


def test_a_served_process_killed_mid_round_loses_nothing(tmp_path, migrated_sqlite, monkeypatch):
    """A real `kingisdead serve` process runs the job (every 0.2 s here) and is killed with SIGKILL once round 1 is
    paired and its games made; the process started after it carries the tournament to its end: the round paired
    once, its games made once, each result counted once."""
    import httpx
    from webtools import Server

    from kingisdead.web.accounts import SESSION_COOKIE, create_account, start_session

    monkeypatch.setenv("KINGISDEAD_TOURNAMENT_EVERY", "0.2")
    database = tmp_path / "served.sqlite3"
    database.write_bytes(migrated_sqlite.read_bytes())
    database.chmod(0o600)
    service = GameService(f"sqlite:///{database}")  # the accounts and their sessions, made here (cheap hashes)
    cookies = {name: start_session(service, create_account(service, name, PASSWORD).id) for name in NAMES[:4]}
    service.close()
    server = Server(database).start()
    people = {name: httpx.Client(base_url=server.url, timeout=30, cookies={SESSION_COOKIE: secret})
              for name, secret in cookies.items()}
    try:
        starts = datetime.now(UTC) + timedelta(seconds=1)
        answer = people["Ada"].post("/api/tournaments", json=settings(rounds=1, starts_at=starts.isoformat()))
        assert answer.status_code == 201, answer.text
        tournament = answer.json()["id"]
        for http in people.values():
            assert http.post(f"/api/tournaments/{tournament}/entry", headers=JSON).status_code == 204

        def under_way() -> list[str]:
            shown = people["Ada"].get(f"/api/tournaments/{tournament}").json()
            games_made = [t["game"] for t in shown["rounds"][0]["tables"]] if shown["rounds"] else []
            return games_made if games_made and None not in games_made else []

        games_made = wait_until(under_way, "round 1 paired, its games made")
        server.kill()  # mid-round: its games running
        server.start()  # on another port
        for http in people.values():  # each person leaves their game: its stand-in finishes it
            http.base_url = httpx.URL(server.url)
            for game_id in games_made:
                http.post(f"/api/games/{game_id}/leave", headers=JSON)
        shown = wait_until(lambda: (view := people["Ada"].get(f"/api/tournaments/{tournament}").json())["status"]
                           == "finished" and view, "the tournament to finish")
    finally:
        for http in people.values():
            http.close()
        server.stop()
    assert [[t["game"] for t in r["tables"]] for r in shown["rounds"]] == [games_made]
    assert all(t["status"] == "finished" for t in shown["rounds"][0]["tables"])
    assert sum(s["points"] for s in shown["standings"]) == 4  # 2 games, 2 points each (won, or shared 1 + 1)
    service = GameService(f"sqlite:///{database}")
    with service.sessions() as session:
        assert [session.scalar(select(func.count()).select_from(model)) for model in (
            TournamentRoundRow, TournamentTableRow, TournamentResultRow, GameRow)] == [1, 2, 4, 2]
    service.close()
