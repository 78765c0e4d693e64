"""Helper processes that never outlive the process that started them.

Every pool of helper processes in the package starts them with ``spawn`` (a
fresh interpreter: no inherited listening socket, no copied threads or locks)
and runs :func:`exit_with_parent` in each, so that a helper exits on its own
when its parent dies, even by SIGKILL, when no shutdown code runs.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import TypeVar

Task = TypeVar("Task")
Result = TypeVar("Result")

CHECK_EVERY = 0.25
"""Seconds between two looks at the parent's pid."""


def exit_with_parent(parent: int) -> None:
    """Start a daemon thread that ends this process once ``parent`` is no longer its parent.

    A dead parent's children are adopted by init (or a subreaper), which changes ``os.getppid()``.
    """
    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(CHECK_EVERY)
        os._exit(0)

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()


def process_pool(workers: int) -> ProcessPoolExecutor:
    """A pool of ``workers`` spawned processes that exit with this one."""
    return ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"),
                               initializer=exit_with_parent, initargs=(os.getpid(),))


def stop_pool(pool: ProcessPoolExecutor) -> None:
    """Shut ``pool`` down now: queued jobs are cancelled, running ones are ended (SIGTERM, then SIGKILL)."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        if process.is_alive():
            process.terminate()
    for process in processes:
        process.join(5)
        if process.is_alive():
            process.kill()
            process.join(5)


def run_tasks(function: Callable[[Task], Result], work: Sequence[Task], jobs: int = 1, *,
              use_ray: bool = False, ray_address: str | None = None,
              on_result: Callable[[Result, int], None] | None = None) -> list[Result]:
    """``function(task)`` for every task: in this process (``jobs`` 1), in ``jobs`` spawned processes,
    or as Ray tasks (``use_ray``, or a cluster at ``ray_address``; a local Ray of ``jobs`` CPUs
    otherwise). Results come in the order they finish; ``on_result(result, len(work))`` is called as
    each arrives. ``function`` must be importable by name (it travels to the workers).

    Raises RuntimeError when Ray is asked for and the ``dist`` extra is not installed.
    """
    done: list[Result] = []

    def arrived(result: Result) -> None:
        done.append(result)
        if on_result:
            on_result(result, len(work))

    if use_ray or ray_address:
        _run_ray(function, work, jobs, ray_address, arrived)
    elif jobs <= 1:
        for task in work:
            arrived(function(task))
    else:
        with process_pool(min(jobs, len(work))) as pool:
            for future in as_completed([pool.submit(function, task) for task in work]):
                arrived(future.result())
    return done


def _run_ray(function: Callable[[Task], Result], work: Sequence[Task], jobs: int, address: str | None,
             arrived: Callable[[Result], None]) -> None:
    try:
        import ray
    except ImportError:
        raise RuntimeError("Ray needs the 'dist' extra: pip install 'kingisdead[dist]'") from None
    started = False
    if not ray.is_initialized():
        if address:
            ray.init(address=address, log_to_driver=False)
        else:
            ray.init(num_cpus=max(1, jobs), include_dashboard=False, log_to_driver=False)
        started = True
    try:
        remote = ray.remote(num_cpus=1)(function)
        pending = [remote.remote(task) for task in work]
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            arrived(ray.get(ready[0]))
    finally:
        if started:
            ray.shutdown()
