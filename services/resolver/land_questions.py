"""The questions the resolver asks GITM when a turn closes, before resolving it (docs/gitm.md,
"A campaign, call by call" and "What PATE does when something fails"): where the earlier
transfers stand (``GetTransfer``), which units are in the ports where PATE's ships lie
(``UnitsNear``) and who holds the cities (``PortHolders``, services/resolver/holders.py).  The
answers are the turn's land inputs, stored with its orders so that a replay never asks again.
GITM unreachable, slow, or answering with an error code: GITM has not answered, and the turn
resolves on time without it; an outage or a busy service is asked once more first
(services/resolver/gitm_errors.py ``asked_twice``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from functools import partial

import grpc

from gitm.v1 import land_pb2
from pate.core.events import Event
from pate.core.rules.amphibious import transfer_turn
from pate.core.rules.landsaga import LandTransfer, LandWord, pending_after
from pate.core.rules.landsync import PortLandReport
from pate.core.world.geography import WorldMap
from pate.core.world.ships import InPort
from pate.core.world.state import Headquarters, LandUnit, WorldState
from services.platform.bus.consumer import BusyError, TransientError
from services.platform.telemetry.logging import get_logger
from services.resolver.bridge import OUTAGES, REFUSALS, capabilities, refusal_codes, status_code
from services.resolver.gitm import GitmClient
from services.resolver.gitm_calls import BEGUN, COMPLETED
from services.resolver.gitm_errors import asked_twice, plain
from services.resolver.holders import land_captures
from services.resolver.land_events import land_events
from services.resolver.land_holds import CODES as HOLD_CODES

log = get_logger("gitm-questions")


def land_reports(client: GitmClient, world: WorldState, wmap: WorldMap) -> list[PortLandReport]:
    """GITM's units in every on-GITM-map port where an active ship lies (the
    ports where transports may load and ships see the shore, 5.3), for
    :func:`pate.core.rules.landsync.apply_land_reports`, with each city
    unit's size as GITM gives it (a unit reported with no size keeps the one
    PATE knows)."""
    ports = sorted(
        {
            s.location.port
            for s in world.ships.values()
            if s.active and isinstance(s.location, InPort) and wmap.ports[s.location.port].on_gitm_map
        }
    )
    out: list[PortLandReport] = []
    stocks = capabilities(client).edition >= 2  # edition 1 answers carry no city stock
    for port in ports:
        try:
            ask = partial(client.units_near, world.campaign, world.turn, port, hold_request(world, port))
            answer = asked_twice(client, ask)
        except grpc.RpcError as exc:
            if isinstance(exc, grpc.Call) and exc.code() in OUTAGES:
                raise TransientError(f"GITM at {client.addr}: {exc.code()}") from exc
            if status_code(exc) == grpc.StatusCode.NOT_FOUND:
                # a campaign not yet opened (turn 0 not through) or a city GITM lacks: not an answer
                raise TransientError(f"GITM at {client.addr}: NOT_FOUND: {exc.details()}") from exc
            raise
        city = tuple(land_unit(u) for u in answer.units if u.tactical_square)
        near = tuple(u.id for u in answer.units if not u.tactical_square)
        report = PortLandReport(port, city, near, max(0, answer.supplies) if stocks else None)
        if answer.hold_id:  # edition 4: GITM keeps what it reported until the turn's begins
            report = replace(report, hold=answer.hold_id, hold_expires_at=answer.hold_expires_at)
        out.append(report)
    return out


def hold_request(world: WorldState, port: str) -> str:
    """The close's hold on ``port`` (docs/gitm.md "Holds"): one per campaign, turn and port, so a
    close asked again (the resolver retried) gets the same hold.  An id is opaque, of
    ``A-Za-z0-9_.:-`` (docs/gitm.md "Ids"): a city's spaces ("La Coruna") become underscores, which
    no city name holds, so two ports never share one."""
    return f"{world.campaign}:{world.turn}:{port.replace(' ', '_')}:hold"


_WORDS = {
    land_pb2.TRANSFER_STATE_BEGUN: "begun",
    land_pb2.TRANSFER_STATE_COMPLETED: "completed",
    land_pb2.TRANSFER_STATE_CANCELLED: "cancelled",
}


def transfer_word(
    client: GitmClient, transfer: LandTransfer, *, told: bool = False, campaign: str = ""
) -> str | None:
    """GITM's word on one earlier transfer for :func:`landsaga.pending_after`: None when GITM
    has not heard of it because the bridge is not yet through.  ``told``: the bridge has made
    the transfer's calls, so a GITM that still does not hold it (NOT_FOUND and the other codes
    of a refusal: its begin was answered with an error) refused it, and PATE undoes it.  A
    transfer GITM holds under the id with other units or supplies than PATE's is not PATE's
    (an id reused, answered ALREADY_EXISTS at its begin): refused, loudly, never adopted."""
    transfer_id = transfer.transfer
    try:
        status = asked_twice(client, lambda: client.get(transfer_id, campaign))
    except grpc.RpcError as exc:
        code = exc.code() if isinstance(exc, grpc.Call) else None
        if code in OUTAGES:
            raise TransientError(f"GITM at {client.addr}: {code}") from exc
        if code in REFUSALS:
            # the player reads the code only; the details' reason and fields go to the log
            log.info("gitm_transfer_not_held", transfer=transfer_id, told=told, **plain(exc))
            return f"refused: the land side does not hold the transfer ({_name(code)})" if told else None
        raise
    if not status.accepted or status.state == land_pb2.TRANSFER_STATE_REFUSED:
        # the player reads the reason as GITM gave it; the log groups the refusals by their codes
        log.info("gitm_transfer_refused", transfer=transfer_id, refusal_codes=refusal_codes(status.refusals))
        if _hold_lapsed(status):  # PATE's own words: GITM's names a clock and a call, not the land
            return f"refused: {HOLD_LAPSED.format(port=transfer.port)}"
        return f"refused: {status.reason or 'refused by GITM'}"
    if _other_content(status, transfer):
        log.error(
            "gitm_transfer_mismatch",
            transfer=transfer_id,
            pate_units=list(transfer.units),
            pate_supplies=transfer.supplies,
            gitm_units=list(status.units)[:50],
            gitm_supplies=status.supplies,
        )
        return f"refused: {MISMATCH}"
    # an implementation without the state field (before the kit) answers accepted only
    return _WORDS.get(status.state, "completed")


HOLD_LAPSED = (
    "the land around {port} changed before the transfer could be made (the land side's hold on what"
    " it had reported ran out); give the order again"
)


def _hold_lapsed(status: land_pb2.TransferStatus) -> bool:
    """A begin refused because the hold of the close no longer held ("Holds": item ``hold``,
    reason one of land_holds.CODES)."""
    return any(r.item == "hold" or r.reason.startswith(HOLD_CODES) for r in status.refusals) or (
        status.reason.startswith(HOLD_CODES)
    )


MISMATCH = "the land side holds other units or supplies under this transfer's id; the transfer is not made"


def _other_content(status: land_pb2.TransferStatus, transfer: LandTransfer) -> bool:
    """GITM's transfer under PATE's id moves other things than PATE's (docs/gitm.md "Answers to
    the land team's review", B19).  An answer that carries neither units nor supplies (a service
    older than the fields) tells nothing to compare."""
    if not status.units and not status.supplies:
        return False
    return set(status.units) != set(transfer.units) or status.supplies != transfer.supplies


def _name(code: grpc.StatusCode | None) -> str:
    return code.name if code is not None else "no status"


def land_inputs(
    client: GitmClient,
    world: WorldState,
    wmap: WorldMap,
    earlier: Sequence[LandTransfer],
    told: frozenset[int] = frozenset(),
    after: int = 0,
) -> tuple[list[PortLandReport], LandWord]:
    """What GITM says before a turn is resolved: the units in the ports (5.3)
    and where the earlier transfers stand (``told``: the turns the bridge has
    delivered), who holds the cities and GITM's land events after the sequence ``after``
    (edition 4).  GITM unreachable, slow, or answering any question with an
    error code: no report, and GITM has not answered (docs/gitm.md: the turn
    resolves on time; its on-GITM-map transfers are deferred)."""
    try:
        words = {
            t.transfer: transfer_word(
                client, t, told=transfer_turn(t.transfer) in told, campaign=world.campaign
            )
            for t in earlier
        }
        pending, refused = pending_after(earlier, words)
        # while an earlier transfer is unsettled GITM's cities are not yet what
        # PATE's world already shows: its report would count those units twice
        reports = [] if pending else land_reports(client, world, wmap)
        captures = land_captures(client, world, wmap, capabilities(client))
        hits, cursor = land_events(client, world, capabilities(client), after)
    except (TransientError, BusyError, grpc.RpcError) as exc:
        # an error code is GITM not answering this turn: the turn still resolves on time
        error = f"{status_code(exc)}: {exc.details()}" if isinstance(exc, grpc.Call) else str(exc)
        log.warning(
            "gitm_unanswered", campaign=world.campaign, turn=world.turn, error=error[:300], **plain(exc)
        )
        return [], LandWord(answered=False, pending=tuple(earlier), events_after=after)
    return reports, LandWord(
        answered=not pending,
        refused=refused,
        pending=pending,
        captures=captures,
        land_events=hits,
        events_after=cursor,
    )


def _in(t: LandTransfer, turns: frozenset[int]) -> bool:
    return transfer_turn(t.transfer) in turns


def begun_on_map(events: Sequence[Event]) -> list[LandTransfer]:
    """The turn's transfers at on-GITM-map ports, each marked cancelled when
    PATE's final amphibious phase abandoned it."""
    cancelled = {e.data["transfer"] for e in events if e.kind == COMPLETED and e.data.get("cancelled")}
    return [
        LandTransfer.from_event(e.data, e.data["transfer"] in cancelled)
        for e in events
        if e.kind == BEGUN and e.data.get("gitm")
    ]


_HEADQUARTERS = {h.value: h for h in Headquarters}


def land_unit(unit: land_pb2.Unit) -> LandUnit:
    """A reported unit as the core holds it (section 9).  An unknown
    headquarters kind counts as none and a negative size as 0: GITM's answer
    must not break a turn."""
    return LandUnit(
        id=unit.id,
        state=unit.state,
        infantry=max(0, unit.infantry),
        cavalry=max(0, unit.cavalry),
        artillery=max(0, unit.artillery),
        batteries=max(0, unit.batteries),
        headquarters=_HEADQUARTERS.get(unit.headquarters, Headquarters.NONE),
        supplies=max(0, unit.supplies),
    )
