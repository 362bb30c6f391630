"""The database: SQLAlchemy engines for SQLite and PostgreSQL, the tables, Alembic migrations,
the repositories the services read and write through, and small portable write helpers.

May import: ``services.platform.telemetry``, ``config``, ``errors``, the pure core (``pate.core``)
for the values it stores. Knows nothing of gRPC or NATS.
"""

# The tables kept beside tables.py join the same metadata whenever the store is imported.
from services.platform.store import absence_tables as _absence_tables  # noqa: F401 (on the metadata)
from services.platform.store import account_tables as _account_tables  # noqa: F401 (on the metadata)
from services.platform.store import desk_tables as _desk_tables  # noqa: F401
from services.platform.store import lobby_tables as _lobby_tables  # noqa: F401 (on the metadata)
from services.platform.store import recovery_tables as _recovery_tables  # noqa: F401 (on the metadata)
from services.platform.store import solo_tables as _solo_tables  # noqa: F401 (on the metadata)
