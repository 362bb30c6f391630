"""Running a service: the main loop every process shares (settings, logging, database, bus, gRPC
server, clean stop), gRPC server helpers and the authenticated-call helpers, the shared-state
gauges, the container health probe, and the local cluster of processes used by ``pate demo`` and
the end-to-end tests.

The top of the platform: may import every other platform package. No service imports another
service; services import from here.
"""
