"""The database: SQLAlchemy engines for SQLite and PostgreSQL, the tables, Alembic migrations,
the repositories the services read and write through, and small portable write helpers.

May import: ``services.platform.telemetry``, ``config``, ``errors``, the pure core (``pate.core``)
for the values it stores. Knows nothing of gRPC or NATS.
"""
