"""The platform every PATE service stands on, one package per concern.

- ``store``: the database (engines, tables, Alembic migrations, repositories).
- ``bus``: NATS JetStream (the stream, the outbox relay, idempotent consumers, a local nats-server).
- ``security``: identity, passwords, sessions, the login throttle, TLS and input limits.
- ``telemetry``: metrics, tracing and logging.
- ``runtime``: running a service (the main loop, gRPC helpers, health, the local process cluster).

Three small modules complete it: ``config`` (settings from the environment) and ``errors`` (the
refusal codes every service answers with) beneath everything, and ``faults`` (crash points for the
recovery tests, which log through telemetry). The layers run
runtime > bus | security > store > faults > telemetry > (config, errors); a package
imports only from those below it (import-linter contracts in pyproject.toml). Nothing here
imports a service package.
"""
