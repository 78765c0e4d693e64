"""The app's own routes, one module per concern: games, seats, moves, the live socket and the pages.

Each module's ``router(errors)`` gives an ``APIRouter``; ``errors(*statuses)``
gives a route's OpenAPI error answers (:func:`..errors.responses`). The app's
objects (the game service, the hub, the bot runner, the compute pool, the rate
limiter, the public URL) are read from ``app.state`` (see ``create_app``).
"""
