"""Open the service's database, or say in one line which setting to change.

In the container image ``/app`` belongs to root and the services run as
another user, so the default SQLite file under the working directory cannot be
created there; an operator must read which variable to set, not a
``PermissionError`` traceback from deep in the engine.
"""

from __future__ import annotations

import os
from pathlib import Path

from sqlalchemy import Engine
from sqlalchemy.engine import make_url

from services.platform.config import ConfigError, Settings
from services.platform.store.db import make_engine, normalize_url
from services.platform.store.pooling import engine_options, pool_for


def sqlite_path(url: str) -> Path | None:
    """The file of a SQLite URL (None for PostgreSQL or an in-memory database)."""
    parsed = make_url(normalize_url(url))
    database = parsed.database or ""
    if parsed.get_backend_name() != "sqlite" or database in ("", ":memory:") or database.startswith("file:"):
        return None
    return Path(database).expanduser()


def check_writable(url: str) -> None:
    """Raise ConfigError naming PATE_DATABASE_URL when its SQLite file cannot be written."""
    path = sqlite_path(url)
    if path is None:
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise ConfigError(_refusal(path, err.strerror or type(err).__name__)) from None
    # SQLite writes the file and, beside it, its -wal and -shm files
    if not os.access(path.parent, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise ConfigError(_refusal(path, "Permission denied"))


def open_engine(url: str, process: str = "cli", settings: Settings | None = None) -> Engine:
    """The engine of ``process`` (its connections named after it, its pool: pooling.py, with
    the settings' PATE_DB_POOL_SIZE and PATE_DB_MAX_OVERFLOW over the process's defaults)."""
    check_writable(url)
    return service_engine(url, process, settings)


def service_engine(url: str, process: str, settings: Settings | None = None) -> Engine:
    if settings is None:
        return make_engine(url, **engine_options(process, pool_for(process)))
    pool = pool_for(process, settings.db_pool_size, settings.db_max_overflow)
    return make_engine(url, **engine_options(process, pool, settings.db_prepared_statements))


def _refusal(path: Path, why: str) -> str:
    return (
        f"PATE_DATABASE_URL: the SQLite database {path} cannot be written ({why}); set"
        " PATE_DATABASE_URL to a writable file (e.g. sqlite:////data/pate.db) or to a PostgreSQL URL"
    )
