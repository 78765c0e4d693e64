"""Alembic migrations of the web app's database (see docs/web.md, "Database and several processes").

:func:`kingisdead.web.db.upgrade` applies them when the server starts; ``alembic.ini``
beside this file serves Alembic's command line for writing new ones.
"""
