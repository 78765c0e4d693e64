"""The files the server creates hold secrets (password and session hashes): readable by their owner only."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from sqlalchemy import text

from kingisdead.web.db import make_engine


def test_a_new_sqlite_database_and_its_wal_files_are_private(tmp_path: Path) -> None:
    old = os.umask(0o022)  # the usual umask, under which files are made readable by all
    try:
        path = tmp_path / "site.sqlite3"
        engine = make_engine(f"sqlite:///{path}")
        with engine.connect() as connection:  # WAL mode: the -wal and -shm files exist while it is open
            connection.execute(text("SELECT count(*) FROM games"))
            made = [path, Path(f"{path}-wal"), Path(f"{path}-shm"), Path(f"{path}.migrate-lock")]
            modes = {p.name: stat.S_IMODE(p.stat().st_mode) for p in made}
        engine.dispose()
    finally:
        os.umask(old)
    assert modes == {p.name: 0o600 for p in made}
