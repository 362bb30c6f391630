"""Format checks of the requests ("Ids", "Limits of the other fields", "Answers" B6)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from examples.gitm_land4.errors import invalid
from gitm.v1 import land_pb2 as pb

OPAQUE = re.compile(r"[A-Za-z0-9_.:\-]{1,256}")
STATE = re.compile(r"[A-Z]{2}")
NAME_CHARS = 256  # a unit id, transport id or city beyond this is malformed (B6)
MAX_TURN = 100_000
MAX_SUPPLIES = 1_000_000
MAX_UNITS_MOVED = 500
MAX_OPEN_ENTRIES = 5_000
MAX_LADEN = 5_000
MAX_SIGHTINGS = 1_000
MAX_SHIPS = 100
SHIP_ID_CHARS = 24
CODE_CHARS = 2
PORT_CHARS = 64
HEADQUARTERS_CHARS = 32
SCENARIO_CHARS = 256
HOLD_REQUEST_CHARS = 512
EVENT_PAGE = 500


def opaque(field: str, value: str, *, required: bool = True) -> None:
    """An opaque id: 1 to 256 of A-Z a-z 0-9 _ . : - (empty only when not required)."""
    if not value and not required:
        return
    if not value:
        raise invalid(field, "is required")
    if not OPAQUE.fullmatch(value):
        raise invalid(field, "must be 1 to 256 characters of A-Z a-z 0-9 _ . : -")


def name(field: str, value: str) -> None:
    """A unit id, transport id or city: present and at most 256 characters.

    A name of 1 to 256 characters that breaks its own form names nothing GITM holds
    and is answered as an unknown thing, not as an error (B6).
    """
    if not value:
        raise invalid(field, "is required")
    if len(value) > NAME_CHARS:
        raise invalid(field, f"must be at most {NAME_CHARS} characters")
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in value):
        raise invalid(field, "must not hold control characters")


def names(field: str, values: Sequence[str], limit: int = MAX_UNITS_MOVED) -> None:
    if len(values) > limit:
        raise invalid(field, f"must name at most {limit} entries")
    for index, value in enumerate(values):
        name(f"{field}[{index}]", value)


def state(field: str, value: str) -> None:
    if not STATE.fullmatch(value):
        raise invalid(field, "must be a state's two-letter code (two capital letters)")


def turn(field: str, value: int) -> None:
    if not 0 <= value <= MAX_TURN:
        raise invalid(field, f"must be 0 to {MAX_TURN}")


def supplies(field: str, value: int) -> None:
    if not 0 <= value <= MAX_SUPPLIES:
        raise invalid(field, f"must be 0 to {MAX_SUPPLIES}")


def short(field: str, value: str, limit: int) -> None:
    if len(value) > limit:
        raise invalid(field, f"must be at most {limit} characters")


def unit(field: str, value: pb.Unit) -> None:
    """A unit as the open gives it: its id, its state and a size that is never negative."""
    name(f"{field}.id", value.id)
    state(f"{field}.state", value.state)
    for arm in ("infantry", "cavalry", "artillery", "batteries"):
        if getattr(value, arm) < 0:
            raise invalid(f"{field}.{arm}", "must not be negative")
    short(f"{field}.headquarters", value.headquarters, HEADQUARTERS_CHARS)
    supplies(f"{field}.supplies", value.supplies)
    if value.reserved:
        raise invalid(f"{field}.reserved", "is not set in an open")


def direction(value: int) -> None:
    if value not in (pb.DIRECTION_LOAD, pb.DIRECTION_UNLOAD):
        raise invalid("direction", "must be DIRECTION_LOAD or DIRECTION_UNLOAD")


def begin(request: pb.BeginTransferRequest) -> None:
    opaque("transfer_id", request.transfer_id)
    opaque("campaign_id", request.campaign_id)
    turn("turn", request.turn)
    name("port", request.port)
    name("transport_id", request.transport_id)
    direction(request.direction)
    names("units", request.units)
    supplies("supplies", request.supplies)
    if not request.units and request.supplies == 0:
        raise invalid("units", "and supplies are both empty: a transfer of nothing")
    state("state", request.state)
    short("hold_id", request.hold_id, NAME_CHARS)


def sightings(request: pb.ReportSightingsRequest) -> None:
    opaque("report_id", request.report_id)
    opaque("campaign_id", request.campaign_id)
    turn("turn", request.turn)
    if len(request.sightings) > MAX_SIGHTINGS:
        raise invalid("sightings", f"must hold at most {MAX_SIGHTINGS} entries")
    for index, entry in enumerate(request.sightings):
        at = f"sightings[{index}]"
        short(f"{at}.port", entry.port, PORT_CHARS)
        short(f"{at}.for_state", entry.for_state, CODE_CHARS)
        if len(entry.ships) > MAX_SHIPS:
            raise invalid(f"{at}.ships", f"must hold at most {MAX_SHIPS} ships")
        for number, ship in enumerate(entry.ships):
            short(f"{at}.ships[{number}].id", ship.id, SHIP_ID_CHARS)
            short(f"{at}.ships[{number}].state", ship.state, CODE_CHARS)
            short(f"{at}.ships[{number}].type", ship.type, CODE_CHARS)


def loss(request: pb.ReportCargoLossRequest) -> None:
    opaque("loss_id", request.loss_id)
    opaque("campaign_id", request.campaign_id)
    turn("turn", request.turn)
    name("transport_id", request.transport_id)
    if request.fate not in (pb.CARGO_FATE_LOST, pb.CARGO_FATE_CAPTURED):
        raise invalid("fate", "must be CARGO_FATE_LOST or CARGO_FATE_CAPTURED")
    if request.fate == pb.CARGO_FATE_CAPTURED and not request.captor:
        raise invalid("captor", "is required when the fate is CARGO_FATE_CAPTURED")
    short("captor", request.captor, CODE_CHARS)
    names("units", request.units)
    supplies("supplies", request.supplies)


def moves(request: pb.ReportCargoMovesRequest) -> None:
    opaque("move_id", request.move_id)
    opaque("campaign_id", request.campaign_id)
    turn("turn", request.turn)
    if len(request.moves) > MAX_UNITS_MOVED:
        raise invalid("moves", f"must hold at most {MAX_UNITS_MOVED} moves")
    for index, move in enumerate(request.moves):
        at = f"moves[{index}]"
        name(f"{at}.from_transport", move.from_transport)
        name(f"{at}.to_transport", move.to_transport)
        if move.to_transport == move.from_transport:
            raise invalid(f"{at}.to_transport", f"must differ from {at}.from_transport")
        names(f"{at}.units", move.units)
        supplies(f"{at}.supplies", move.supplies)


def close(request: pb.CloseCampaignRequest) -> None:
    opaque("campaign_id", request.campaign_id)
    turn("last_turn", request.last_turn)
    if len(request.laden) > MAX_LADEN:
        raise invalid("laden", f"must hold at most {MAX_LADEN} transports")
    for index, laden in enumerate(request.laden):
        at = f"laden[{index}]"
        name(f"{at}.transport_id", laden.transport_id)
        short(f"{at}.city", laden.city, NAME_CHARS)
        names(f"{at}.units", laden.units)
        supplies(f"{at}.supplies", laden.supplies)


def units_near(request: pb.UnitsNearRequest) -> None:
    opaque("campaign_id", request.campaign_id)
    turn("turn", request.turn)
    name("port", request.port)
    short("hold_request_id", request.hold_request_id, HOLD_REQUEST_CHARS)


def events(request: pb.ListLandEventsRequest) -> None:
    opaque("campaign_id", request.campaign_id)
    turn("turn", request.turn)
    if request.after_sequence < 0:
        raise invalid("after_sequence", "must be 0 or more")
    if request.limit < 0:
        raise invalid("limit", f"must be 0 to {EVENT_PAGE}")
