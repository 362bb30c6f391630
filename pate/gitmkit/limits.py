"""The limits of gitm.v1 fields that PATE's own code sizes itself by, read from the
``(buf.validate.field)`` rules of proto/gitm/v1/land.proto (docs/gitm.md "Limits"): the proto is
the one declaration; these names only give its numbers to the sender and the tools.

A ``ReportSightings`` (edition 4, docs/gitm.md A17) at every limit at once is under gRPC's 4 MiB
message limit, so a land service that accepts 4 MiB accepts every report PATE sends.  PATE's
sender keeps to them (a port's ships beyond ``SHIPS_PER_ENTRY`` go in further entries of the same
port and state); a report beyond them is INVALID_ARGUMENT naming the field."""

from __future__ import annotations

import re
from typing import Any

from buf.validate import validate_pb2
from gitm.v1 import land_pb2


def rules(message: Any, name: str) -> Any:
    """The ``buf.validate.FieldRules`` of ``message``'s field ``name`` (empty when it has none)."""
    options = message.DESCRIPTOR.fields_by_name[name].GetOptions()
    return options.Extensions[validate_pb2.field]


def _fixed_length(pattern: str) -> int:
    """The length a pattern such as ``^[A-Z]{2}$`` fixes."""
    found = re.fullmatch(r"\^\[[^]]+\]\{(\d+)\}\$", pattern)
    if found is None:
        raise ValueError(f"not a fixed-length pattern: {pattern}")
    return int(found.group(1))


SIGHTING_ENTRIES = int(rules(land_pb2.ReportSightingsRequest, "sightings").repeated.max_items)
SHIPS_PER_ENTRY = int(rules(land_pb2.ShoreSighting, "ships").repeated.max_items)
SHIP_ID_CHARS = int(rules(land_pb2.SightedShip, "id").string.max_len)
# SightedShip.state, .type, ShoreSighting.for_state: two-letter codes ("" type: unknown)
CODE_CHARS = _fixed_length(rules(land_pb2.ShoreSighting, "for_state").string.pattern)
CITY_CHARS = int(rules(land_pb2.ShoreSighting, "port").string.max_len)
MESSAGE_BYTES = 4 * 1024 * 1024  # gRPC's default receive limit, both ways
