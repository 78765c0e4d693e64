"""Reinforcement-learning environments for The King Is Dead (needs ``pip install kingisdead[rl]``).

>>> from kingisdead.env import aec_env
>>> env = aec_env(players=3, variant="mordred")
>>> env.reset(seed=1)

``aec_env`` is a PettingZoo AEC environment, ``gym_env`` a Gymnasium
single-agent one (the other seats played by a bot), ``vector_env`` N games
stepped at once in the compiled core (a Gymnasium vector environment). OpenSpiel registers the
game as "kingisdead" once :mod:`kingisdead.interfaces.openspiel_game` is
imported. The encodings are described in docs/rl.md. Each takes ``edition``
("first", the default, or "second") and ``mode`` ("advanced": the second
edition's secret Cunning cards, each agent observing its own seat's view; the
vector environment refuses it: the core's batched environment knows only the standard game).
"""

from __future__ import annotations

try:
    import gymnasium  # noqa: F401
    import numpy  # noqa: F401
    import pettingzoo  # noqa: F401
except ImportError as exc:  # pragma: no cover - exercised in a subprocess by the tests
    raise ImportError(
        f"kingisdead.env needs the RL libraries ({exc.name} is missing): pip install kingisdead[rl]"
    ) from exc

from .interfaces.gym_env import KingIsDeadGym, gym_env
from .interfaces.pettingzoo_env import KingIsDeadAEC, aec_env, raw_env
from .interfaces.vector import KingIsDeadVectorEnv, vector_env

env = aec_env
"""PettingZoo's naming convention: ``env(...)`` is the wrapped AEC environment."""

__all__ = ["KingIsDeadAEC", "KingIsDeadGym", "KingIsDeadVectorEnv", "aec_env", "env", "gym_env", "raw_env",
           "vector_env"]
