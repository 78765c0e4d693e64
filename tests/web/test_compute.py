"""The compute pool: queue limit (503), per-client quota (429), shared equal jobs, the Ray backend."""

from __future__ import annotations

import asyncio
import warnings
from collections.abc import Callable
from typing import Any

import pytest
from webtools import auth, bot, create, human, wait_for

from kingisdead.web.compute import ComputePool, Job, ProcessBackend, Refused


class HeldBackend:
    """Jobs that finish only when the test says so; counts what was submitted."""

    def __init__(self) -> None:
        self.submitted: list[tuple[Callable[..., Any], tuple[Any, ...]]] = []
        self.futures: list[asyncio.Future[Any]] = []
        self.closed = False

    def submit(self, call: Callable[..., Any], args: tuple[Any, ...]) -> asyncio.Future[Any]:
        self.submitted.append((call, args))
        self.futures.append(asyncio.get_running_loop().create_future())
        return self.futures[-1]

    def close(self) -> None:
        self.closed = True


def job(game: str, number: int = 0, kind: str = "hint", position: str | None = None) -> Job:
    return Job(kind, game, number, len, ((),), position=position)


def test_equal_jobs_share_one_run_and_different_ones_do_not():
    async def scenario() -> None:
        backend = HeldBackend()
        pool = ComputePool(backend, queue_limit=8, client_limit=8)
        first = asyncio.create_task(pool.run(job("g"), "a"))
        second = asyncio.create_task(pool.run(job("g"), "b"))
        other = asyncio.create_task(pool.run(job("g", 1), "a"))
        # a take-back then another move: the same move number, another position
        rewound = asyncio.create_task(pool.run(job("g", 0, position="after a take-back"), "a"))
        await asyncio.sleep(0)
        assert len(backend.submitted) == 3 and pool.in_flight == 3
        backend.futures[0].set_result({"moves": ["pass"]})
        backend.futures[1].set_result({"moves": []})
        backend.futures[2].set_result({"moves": ["Scots"]})
        assert await first == await second == {"moves": ["pass"]}
        assert await other == {"moves": []}
        assert await rewound == {"moves": ["Scots"]}
        assert pool.in_flight == 0

    asyncio.run(scenario())


def test_a_full_queue_refuses_with_503_and_frees_up_when_a_job_ends():
    async def scenario() -> None:
        backend = HeldBackend()
        pool = ComputePool(backend, queue_limit=2, client_limit=8)
        running = [asyncio.create_task(pool.run(job(g))) for g in ("a", "b")]
        await asyncio.sleep(0)
        with pytest.raises(Refused) as refused:
            await pool.run(job("c"))
        assert refused.value.status == 503 and refused.value.code == "busy" and refused.value.retry_after > 0
        assert len(backend.submitted) == 2  # the refused job never started
        backend.futures[0].set_result("done")
        await running[0]
        third = asyncio.create_task(pool.run(job("c")))
        await asyncio.sleep(0)
        assert len(backend.submitted) == 3
        backend.futures[1].set_result(1)
        backend.futures[2].set_result(2)
        assert await third == 2 and await running[1] == 1

    asyncio.run(scenario())


def test_a_client_over_its_quota_gets_429_others_do_not_and_a_failed_job_frees_the_quota():
    async def scenario() -> None:
        backend = HeldBackend()
        pool = ComputePool(backend, queue_limit=8, client_limit=1)
        mine = asyncio.create_task(pool.run(job("a"), "10.0.0.1"))
        await asyncio.sleep(0)
        with pytest.raises(Refused) as refused:
            await pool.run(job("b"), "10.0.0.1")
        assert refused.value.status == 429 and refused.value.code == "too_many_jobs"
        shared = asyncio.create_task(pool.run(job("a"), "10.0.0.1"))  # joining a job in flight costs nothing
        theirs = asyncio.create_task(pool.run(job("b"), "10.0.0.2"))
        await asyncio.sleep(0)
        assert len(backend.submitted) == 2
        backend.futures[0].set_exception(ValueError("search failed"))
        for task in (mine, shared):
            with pytest.raises(ValueError, match="search failed"):
                await task
        again = asyncio.create_task(pool.run(job("c"), "10.0.0.1"))
        await asyncio.sleep(0)
        assert len(backend.submitted) == 3
        backend.futures[1].set_result(None)
        backend.futures[2].set_result(None)
        await asyncio.gather(theirs, again)

    asyncio.run(scenario())


def app_client(db_url: str, pool: ComputePool) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient
    from kingisdead.web import create_app

    return TestClient(create_app(db_url, compute=pool))


@pytest.mark.parametrize(("queue", "quota", "status", "code"), [(0, 2, 503, "busy"), (8, 0, 429, "too_many_jobs")])
def test_refused_hints_and_analyses_answer_in_the_documented_format(db_url, queue, quota, status, code):
    backend = HeldBackend()
    with app_client(db_url, ComputePool(backend, queue_limit=queue, client_limit=quota)) as client:
        game = create(client, [human(), human()], seed=3, hints=True)
        response = client.post(f"/api/games/{game['id']}/hint", headers=auth(game["seats"][0]["token"]))
        assert response.status_code == status
        assert response.json()["error"] == code and response.json()["detail"]
        assert int(response.headers["Retry-After"]) > 0
        assert backend.submitted == []
    assert backend.closed  # the app's lifespan shut the pool down


def test_worker_processes_play_bots_and_answer_hints_and_analyses(db_url):
    with app_client(db_url, ComputePool(ProcessBackend(1))) as client:
        game = create(client, [human(), bot("greedy")], seed=4, hints=True, first_player=1)
        token = game["seats"][0]["token"]
        wait_for(lambda: client.get(f"/api/games/{game['id']}").json()["move_number"] == 1, what="the bot")
        hint = client.post(f"/api/games/{game['id']}/hint", headers=auth(token)).json()
        assert hint["move_number"] == 1 and hint["moves"]
        played = client.post(f"/api/games/{game['id']}/moves", json={"move": hint["moves"][0]["move"],
                                                                      "move_number": 1}, headers=auth(token))
        assert played.status_code == 200
        wait_for(lambda: client.get(f"/api/games/{game['id']}").json()["move_number"] == 3, what="the bot's reply")


def test_the_ray_backend_plays_a_bot_move(ray, db_url):
    from kingisdead.web.compute import RayBackend

    with app_client(db_url, ComputePool(RayBackend(num_cpus=1))) as client:
        game = create(client, [human(), bot("greedy")], seed=5, first_player=1)
        moved = wait_for(lambda: (v := client.get(f"/api/games/{game['id']}").json())["move_number"] == 1 and v,
                         what="the bot's move on Ray", timeout=120)
        assert moved["log"][0]["seat"] == 1


def test_an_evicted_game_reloads_identical_and_watched_or_busy_games_stay(db_url):
    with app_client(db_url, ComputePool(HeldBackend())) as client:
        service = client.app.state.service
        game = create(client, [human(), human()], seed=6)
        idle = create(client, [human(), human()], seed=7)
        kept = create(client, [human(), human()], seed=8)
        token = game["seats"][0]["token"]
        for number, move in enumerate(["pass", "pass"]):
            seat = game["seats"][number]["token"]
            assert client.post(f"/api/games/{game['id']}/moves", json={"move": move, "move_number": number},
                               headers=auth(seat)).status_code == 200
        before = client.get(f"/api/games/{game['id']}", headers=auth(token)).json()
        dropped = service.evict(lambda g: g == kept["id"], idle=0)
        assert sorted(dropped) == sorted([game["id"], idle["id"]])
        assert service.cached(game["id"]) is None and service.cached(kept["id"]) is not None
        assert client.get(f"/api/games/{game['id']}", headers=auth(token)).json() == before
        assert client.post(f"/api/games/{game['id']}/moves", json={"move": "pass", "move_number": 2},
                           headers=auth(token)).status_code == 200
        # over the cap, the least recently used goes first, idle or not
        assert service.evict(lambda g: False, idle=3600, most=1) == [kept["id"]]
        assert service.cached(game["id"]) is not None


def test_a_restart_loads_only_the_games_where_the_server_is_to_move(db_url):
    from kingisdead.web.service import GameService

    service = GameService(db_url)
    people = [service.create(2, "standard", [human(), human()], seed=s)[0].id for s in range(6)]
    waiting = service.create(2, "standard", [bot("greedy"), human()], seed=9)[0].id
    service.close()
    with app_client(db_url, ComputePool(ProcessBackend(1))) as client:
        loaded = client.app.state.service
        wait_for(lambda: loaded.cached(waiting) is not None and loaded.cached(waiting).snapshot.moves,
                 what="the waiting bot to move")
        assert all(loaded.cached(g) is None for g in people)


def test_the_environment_chooses_the_backend_and_limits(monkeypatch):
    monkeypatch.setenv("KINGISDEAD_COMPUTE_WORKERS", "3")
    monkeypatch.setenv("KINGISDEAD_COMPUTE_QUEUE", "5")
    monkeypatch.setenv("KINGISDEAD_COMPUTE_PER_CLIENT", "1")
    pool = ComputePool.from_env()
    assert isinstance(pool.backend, ProcessBackend) and pool.backend.workers == 3
    assert (pool.queue_limit, pool.client_limit) == (5, 1)
    monkeypatch.setenv("KINGISDEAD_COMPUTE", "threads")
    with pytest.raises(ValueError, match="KINGISDEAD_COMPUTE"):
        ComputePool.from_env()
