"""Play The King Is Dead in the browser (the ``web`` extra: FastAPI, SQLAlchemy, uvicorn).

``create_app()`` builds the ASGI app; ``kingisdead serve`` runs it.
"""

from .app import create_app

__all__ = ["create_app"]
