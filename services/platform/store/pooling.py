"""How many PostgreSQL connections each PATE process keeps, and the name it gives them.

Every connection carries ``application_name`` = ``pate-<process>`` (``pg_stat_activity``,
PgBouncer's ``SHOW CLIENTS``), so an operator sees which service holds which connection.  The
pool sizes are per process (``PATE_DB_POOL_SIZE``, ``PATE_DB_MAX_OVERFLOW``) and default to what
each process can use at once: a worker runs one message at a time beside its relay, its health
probe and its gauges (four), the orders service serves calls concurrently (SQLAlchemy's own
default of 5 + 10, kept).  The sums at production replica counts are in docs/operations.md
("Database connections").  SQLite ignores all of it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Pool:
    size: int  # connections kept open
    overflow: int  # opened beyond them at a peak, closed when handed back


# what each process can use at once: gRPC calls (orders), or one message, the relay, the health
# probe and the gauges (a worker)
DEFAULTS = {
    "orders": Pool(5, 10),
    "resolver": Pool(2, 2),
    "intel": Pool(2, 2),
    "reports": Pool(2, 2),
    "notifier": Pool(2, 2),
}
OTHER = Pool(1, 1)  # the command line: pate db migrate, pate db wait-current, pate turn ...


def pool_for(process: str, size: int | None = None, overflow: int | None = None) -> Pool:
    """The process's pool, the settings' values (PATE_DB_*) over its defaults."""
    default = DEFAULTS.get(process, OTHER)
    return Pool(default.size if size is None else size, default.overflow if overflow is None else overflow)


def application_name(process: str) -> str:
    # PostgreSQL keeps 63 bytes of it; process names are PATE's own, short and plain
    return f"pate-{process}"[:63]


def engine_options(process: str, pool: Pool, prepared_statements: bool = True) -> dict[str, Any]:
    """make_engine's PostgreSQL keywords for ``process``."""
    return {
        "application_name": application_name(process),
        "pool_size": pool.size,
        "max_overflow": pool.overflow,
        "prepared_statements": prepared_statements,
    }
