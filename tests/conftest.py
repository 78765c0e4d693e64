"""Shared pytest setup: the test helpers on the path, and a reproducible Hypothesis profile."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from hypothesis import HealthCheck, settings

sys.path.insert(0, str(Path(__file__).parent))

settings.register_profile(
    "kingisdead", deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True,
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "kingisdead"))
