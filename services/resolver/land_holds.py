"""Holds (gitm.v1 edition 4, docs/gitm.md "Holds"; docs/rules/turn.md "Holds at the close"): the
close asks ``UnitsNear`` with a hold per port, so that GITM's own game leaves what it reported
alone until the turn's ``BeginTransfer`` calls, which name the hold; the bridge then releases
it.  A hold is stored with the turn's land inputs; a service that gives none (``hold_id`` "")
leaves PATE as it was before holds.  When PATE's commit outlasts a hold (its expiry, less
:data:`MARGIN`, has passed on PATE's clock) the bridge asks again for a fresh hold before the
begin, so a landing planned against the land is not refused for a hold that merely timed out:
its begin waits for GITM's fresh answer (deferred while GITM does not answer), never undone for it."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import grpc

from services.resolver.gitm import Begin, Complete, GitmClient

# the contract's numbers (docs/gitm.md "Holds"; proto/gitm/v1/contract.toml [holds]): how long a hold
# lasts unless confirmed, and the reason codes of a begin naming a hold that no longer holds
HOLD_SECONDS = 600
CODES = ("hold_expired", "hold_released", "hold_unknown")
# seconds before a hold's end at which PATE no longer names it: more than a begin's round trip
# and a clock drift PATE tolerates between the two services
MARGIN = 60
AGAIN = 3  # fresh holds asked for one begin at most (each lasts ten minutes)
REFUSED_FOR_GOOD = {
    grpc.StatusCode.INVALID_ARGUMENT,
    grpc.StatusCode.NOT_FOUND,
    grpc.StatusCode.UNIMPLEMENTED,
}


@dataclass(frozen=True, slots=True)
class ReleaseHold:
    """ReleaseHold (edition 4): the turn's begins at ``port`` are made; what the hold of the
    close kept and no begin reserved is GITM's again."""

    campaign: str
    turn: int
    port: str
    hold_id: str


Holds = Mapping[str, tuple[str, int]]  # port -> (hold id, expires at, seconds since 1970)


def stored_holds(reports: Sequence[Mapping[str, Any]]) -> dict[str, tuple[str, int]]:
    """The holds of a turn's stored land reports (``land_reports`` of its stored inputs)."""
    return {
        str(r["port"]): (str(r["hold"]), int(r.get("hold_expires_at", 0))) for r in reports if r.get("hold")
    }


def holds_of_inputs(orders_json: str) -> dict[str, tuple[str, int]]:
    return stored_holds(json.loads(orders_json).get("land_reports", []))


def with_holds(campaign: str, turn: int, calls: Sequence[Begin | Complete], holds: Holds) -> list[Any]:
    """The turn's transfer calls, each begin naming its port's hold, then one ``ReleaseHold`` per
    hold of the close (in port order), whether or not a begin named it."""
    out: list[Any] = [
        replace(c, hold_id=holds[c.port][0], hold_expires_at=holds[c.port][1])
        if isinstance(c, Begin) and c.port in holds
        else c
        for c in calls
    ]
    out += [ReleaseHold(campaign, turn, port, hold) for port, (hold, _) in sorted(holds.items())]
    return out


def live_hold(client: GitmClient, call: Begin) -> Begin:
    """``call`` naming a hold that has not ended: the close's, or one asked again for its port when
    the close's has ended (PATE's commit outlasted it).  GITM answering the question again without
    a hold, or refusing it: the begin names none, as before holds.  GITM unreachable: the
    RpcError is raised and the bridge retries the turn later (the begin waits)."""
    if not call.hold_id:
        return call
    hold, expires = client.fresh_holds.get(call.hold_id, (call.hold_id, call.hold_expires_at))
    for _ in range(AGAIN):
        if client.wall() < expires - MARGIN:
            return replace(call, hold_id=hold, hold_expires_at=expires)
        # an id is opaque, of A-Za-z0-9_.:- (docs/gitm.md "Ids"): a city's spaces as underscores
        request = f"{call.campaign}:{call.turn}:{call.port.replace(' ', '_')}:hold:after-{expires}"
        try:
            answer = client.units_near(call.campaign, call.turn, call.port, request)
        except grpc.RpcError as exc:
            if isinstance(exc, grpc.Call) and exc.code() in REFUSED_FOR_GOOD:
                return replace(call, hold_id="", hold_expires_at=0)
            raise
        if not answer.hold_id:
            return replace(call, hold_id="", hold_expires_at=0)
        hold, expires = answer.hold_id, int(answer.hold_expires_at)
        client.fresh_holds[call.hold_id] = (hold, expires)
    return replace(call, hold_id=hold, hold_expires_at=expires)


def release(client: GitmClient, call: ReleaseHold) -> tuple[bool, str]:
    """Release the close's hold and the one asked again in its place, if any."""
    fresh = client.fresh_holds.pop(call.hold_id, None)
    for hold in (call.hold_id, *((fresh[0],) if fresh else ())):
        client.release_hold(call.campaign, hold)
    return True, ""
