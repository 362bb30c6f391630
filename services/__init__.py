"""Shared plumbing of the services: config, logging, store, bus, gRPC helpers."""
