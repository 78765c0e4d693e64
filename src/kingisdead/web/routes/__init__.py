"""The app's routes, one module per concern: games, seats, moves, the live socket, accounts, ratings, rematch,
clocks (return, leave, take back), the tutorial, notifications, languages, the pages and the installable app.

Each module's ``router(errors)`` gives an ``APIRouter`` (languages: ``router`` itself); ``errors(*statuses)``
gives a route's OpenAPI error answers (:func:`..errors.responses`). A route takes the app's objects as typed
dependencies (:mod:`.deps`: ``service: Service``, ``hub: LiveHub`` ...) and keeps to HTTP: what it does is the
logic modules' (``..accounts``, ``..clocks``, ``..rematch`` ...).
"""
