"""Shared pytest setup: the test helpers on the path, and a reproducible Hypothesis profile."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from kingisdead import core

sys.path.insert(0, str(Path(__file__).parent))

# "kingisdead": the same examples on every run (the suite's default);
# "explore": fresh random examples each run, for hunting bugs locally.
for name, derandomize in (("kingisdead", True), ("explore", False)):
    settings.register_profile(
        name, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=derandomize,
    )
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "kingisdead"))


@pytest.fixture(params=["core", "reference"])
def each_engine(request):
    """Run a test once on the compiled core and once on the pure-Python reference (kingisdead.core)."""
    if request.param == "core" and not core.available():
        pytest.skip("the compiled core is not built")
    with core.use_engine(request.param):
        yield request.param
