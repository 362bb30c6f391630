"""Who may do what: caller identity and authentication, passwords (argon2), sessions and their
cache, the per-account login throttle, TLS settings and the size limits of every request field.

May import: ``services.platform.store``, ``services.platform.telemetry``, ``config``, ``errors``,
and grpc (TLS credentials). Knows nothing of NATS or the bus.
"""
