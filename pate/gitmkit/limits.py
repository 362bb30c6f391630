"""The limits of a ``ReportSightings`` (edition 4, docs/gitm.md A17): a report at every limit
at once is under gRPC's 4 MiB message limit, so a land service that accepts 4 MiB accepts every
report PATE sends.  PATE's sender keeps to them (a port's ships beyond 100 go in further entries
of the same port and state); a land service MAY refuse a report beyond them, INVALID_ARGUMENT
naming the field."""

from __future__ import annotations

SIGHTING_ENTRIES = 1_000  # ShoreSighting entries in one report
SHIPS_PER_ENTRY = 100  # SightedShip in one entry
SHIP_ID_CHARS = 24  # SightedShip.id (PATE's ids: BR12TR, at most 9 characters today)
CODE_CHARS = 2  # SightedShip.state, .type, ShoreSighting.for_state: two-letter codes ("" type: unknown)
CITY_CHARS = 64  # ShoreSighting.port (docs/gitm.md A8: names up to 22 characters today)
MESSAGE_BYTES = 4 * 1024 * 1024  # gRPC's default receive limit, both ways
