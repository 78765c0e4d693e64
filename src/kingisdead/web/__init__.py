"""Play The King Is Dead in the browser (the ``web`` extra: FastAPI, SQLAlchemy, uvicorn).

``create_app()`` builds the ASGI app; ``kingisdead serve`` runs it. The app is imported on first use of
``create_app``, not with the package: a bot worker process (:mod:`.compute`) imports its jobs' module alone, and
loading the whole app there cost each worker about a second of CPU at its start.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .app import create_app

__all__ = ["create_app"]


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from .app import create_app

        return create_app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
