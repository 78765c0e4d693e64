"""What counting rate limits in the database costs a request: RateLimiter.check (every request with a
seat token) and hit + refund (every sign-in), against the `limits` library's in-memory moving window
(what each process counted with before) as the reference, in the same process.

Usage: python benchmarks/bench_rate_limits.py [--calls 2000] [--database URL]

The default database is a fresh SQLite file in a temporary folder; the client addresses cycle over 50
so that each window holds a few hits, as on a live site.
"""

from __future__ import annotations

import argparse
import platform
import tempfile
import time
from pathlib import Path

from limits import parse
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

from kingisdead.web.db import make_engine
from kingisdead.web.security import RateLimiter, RateLimits


def per_call(action, calls: int) -> float:
    """Microseconds per call of ``action(i)``, i from 0."""
    start = time.perf_counter()
    for i in range(calls):
        action(i)
    return (time.perf_counter() - start) / calls * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--database", default=None)
    args = parser.parse_args()
    url = args.database or f"sqlite:///{Path(tempfile.mkdtemp(prefix='kingisdead-bench-')) / 'limits.sqlite3'}"
    limiter = RateLimiter(RateLimits(bad_token="1000000/minute", sign_in="1000000/minute").items(), make_engine(url))
    memory = MovingWindowRateLimiter(MemoryStorage())
    item = parse("1000000/minute")
    client = [f"10.0.0.{n}" for n in range(50)]

    reference = per_call(lambda i: memory.hit(item, "bad_token", client[i % 50]), args.calls)
    check = per_call(lambda i: limiter.check("bad_token", client[i % 50]), args.calls)
    hit = per_call(lambda i: limiter.refund(limiter.hit("sign_in", client[i % 50])), args.calls)
    print(f"{platform.python_implementation()} {platform.python_version()}, {url.split(':')[0]}, {args.calls} calls")
    print(f"in memory (limits, reference): {reference:8.1f} us a hit")
    print(f"database check:                {check:8.1f} us  ({check / reference:.0f}x the reference)")
    print(f"database hit + refund:         {hit:8.1f} us  ({hit / reference:.0f}x the reference)")


if __name__ == "__main__":
    main()
