"""Shared pytest setup: Hypothesis profiles sized for the 2-core CI budget."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from hypothesis import HealthCheck, settings

sys.path.insert(0, str(Path(__file__).parent))

settings.register_profile(
    "default", deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True,
)
settings.register_profile("thorough", deadline=None, suppress_health_check=[HealthCheck.too_slow], max_examples=500)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))
