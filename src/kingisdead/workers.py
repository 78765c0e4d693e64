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
from concurrent.futures import ProcessPoolExecutor

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
