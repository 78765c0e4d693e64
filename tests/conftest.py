"""Shared pytest setup: the test helpers on the path, and a reproducible Hypothesis profile."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from hypothesis import HealthCheck, settings

sys.path.insert(0, str(Path(__file__).parent))

# "kingisdead": the same examples on every run (the suite's default);
# "explore": fresh random examples each run, for hunting bugs locally.
for name, derandomize in (("kingisdead", True), ("explore", False)):
    settings.register_profile(
        name, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=derandomize,
    )
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "kingisdead"))
