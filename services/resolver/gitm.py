"""Client of the GITM land service (``gitm.v1.LandBridge``, proto/gitm/v1/land.proto).

PATE is the client.  Calls are synchronous (the bridge runs in a consumer's
worker thread), carry the W3C ``traceparent`` metadata, the edition PATE speaks
(``x-pate-gitm-edition``) and PATE's caller
token (``x-pate-gitm-token`` = ``PATE_GITM_TOKEN``, or the file
``PATE_GITM_TOKEN_FILE`` read again when it changes, docs/gitm.md "Security"),
over TLS or mutual TLS when ``PATE_TLS_*`` and ``PATE_GITM_TLS_*`` say so, and have a
deadline (``PATE_GITM_TIMEOUT_SECONDS``, default 5).  Transfer ids are
deterministic, so GITM treats a repeated call as the same transfer: retrying
after a timeout is harmless.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from gitm.v1 import land_pb2, land_pb2_grpc
from services.platform.runtime.grpcutil import trace_metadata
from services.platform.security.redial import RotatingChannel
from services.resolver.editions import PATE_EDITION, Capabilities
from services.resolver.gitm_calls_log import with_call_ids
from services.resolver.gitm_messages import (
    Begin,
    CargoLoss,
    CargoMoves,
    CloseCampaign,
    Complete,
    Laden,
    OpenCampaign,
    Sightings,
)
from services.resolver.gitm_settings import (  # re-exported: the settings of this client
    DEFAULT_TIMEOUT,
    TIMEOUT_RANGE,
    caller_token,
    configured_timeout,
    gitm_tls,
)

if TYPE_CHECKING:
    from pate.core.world.state import LandUnit

DIRECTIONS = {"load": land_pb2.DIRECTION_LOAD, "unload": land_pb2.DIRECTION_UNLOAD}
CALLER_TOKEN = "x-pate-gitm-token"
# an open builds a whole campaign's land on GITM's side, once: four times a call's deadline, at
# most a minute (docs/gitm.md, A22)
OPEN_DEADLINE_FACTOR, OPEN_DEADLINE_MAX = 4, 60.0


def open_deadline(timeout: float) -> float:
    return min(OPEN_DEADLINE_MAX, OPEN_DEADLINE_FACTOR * timeout)


CALLER_EDITION = "x-pate-gitm-edition"
__all__ = [
    "DEFAULT_TIMEOUT",
    "TIMEOUT_RANGE",
    "Begin",
    "CargoLoss",
    "CargoMoves",
    "CloseCampaign",
    "Complete",
    "GitmClient",
    "Laden",
    "OpenCampaign",
    "Sightings",
    "caller_token",
    "client_for",
    "configured_timeout",
    "gitm_tls",
]


class GitmClient:
    def __init__(
        self, addr: str, *, timeout: float = DEFAULT_TIMEOUT, stub: Any = None, token: str | None = None
    ) -> None:
        """``stub``: anything with LandBridgeStub's methods (the tests drive an
        in-process land store through it); default a channel to ``addr``
        (TLS when PATE_GITM_TLS_CA or PATE_TLS_CA is set) carrying ``token`` (default
        :func:`caller_token`)."""
        self.addr = addr
        self._budget = threading.local()  # this thread's deadline while a second try spends the rest
        self.timeout = timeout
        self._token: Callable[[], str] = caller_token() if token is None else (lambda: token)
        # dialled again when the certificate files change, as the token file is read again
        self._channel = None if stub is not None else RotatingChannel(addr, gitm_tls())
        self._stub = stub if stub is not None else land_pb2_grpc.LandBridgeStub(with_call_ids(self._channel))
        # learnt on first need and asked again once older than editions.CAPABILITIES_TTL_SECONDS,
        # so an upgraded (or downgraded) land service is noticed without restarting PATE
        self.capabilities: Capabilities | None = None
        self.capabilities_at = 0.0
        self.clock: Callable[[], float] = time.monotonic
        # the holds' expiry is GITM's wall clock (seconds since 1970), not this process's monotonic one
        self.wall: Callable[[], float] = time.time
        # a hold the bridge asked again because the close's had ended: the close's id -> the new one
        self.fresh_holds: dict[str, tuple[str, int]] = {}
        # the wait before a question of the close is asked again (services/resolver/gitm_errors.py)
        self.pause: Callable[[float], None] = time.sleep

    @property
    def timeout(self) -> float:
        """The deadline of this thread's next call: the configured one, or what is left of it to
        a question asked again (:meth:`within`)."""
        left: float | None = getattr(self._budget, "seconds", None)
        return self._timeout if left is None else left

    @timeout.setter
    def timeout(self, seconds: float) -> None:
        self._timeout = seconds

    def within(self, seconds: float | None) -> None:
        """This thread's calls from now on get ``seconds`` (None: the configured deadline)."""
        self._budget.seconds = seconds

    def _md(self) -> list[tuple[str, str]]:
        md = [*trace_metadata(), (CALLER_EDITION, str(PATE_EDITION))]
        token = self._token()
        return [*md, (CALLER_TOKEN, token)] if token else md

    def begin(self, call: Begin) -> land_pb2.TransferStatus:
        request = land_pb2.BeginTransferRequest(
            transfer_id=call.transfer_id,
            campaign_id=call.campaign,
            turn=call.turn,
            port=call.port,
            transport_id=call.transport,
            direction=DIRECTIONS[call.direction],
            units=list(call.units),
            supplies=call.supplies,
            state=call.state,
            hold_id=call.hold_id,
        )
        status: land_pb2.TransferStatus = self._stub.BeginTransfer(
            request, timeout=self.timeout, metadata=self._md()
        )
        return status

    def complete(self, call: Complete) -> land_pb2.TransferStatus:
        request = land_pb2.CompleteTransferRequest(
            transfer_id=call.transfer_id, cancelled=call.cancelled, campaign_id=call.campaign
        )
        status: land_pb2.TransferStatus = self._stub.CompleteTransfer(
            request, timeout=self.timeout, metadata=self._md()
        )
        return status

    def get(self, transfer_id: str, campaign: str = "") -> land_pb2.TransferStatus:
        status: land_pb2.TransferStatus = self._stub.GetTransfer(
            land_pb2.GetTransferRequest(transfer_id=transfer_id, campaign_id=campaign),
            timeout=self.timeout,
            metadata=self._md(),
        )
        return status

    def report_cargo_loss(self, call: CargoLoss) -> land_pb2.ReportCargoLossResponse:
        fate = land_pb2.CARGO_FATE_CAPTURED if call.captured else land_pb2.CARGO_FATE_LOST
        request = land_pb2.ReportCargoLossRequest(
            loss_id=call.loss_id,
            campaign_id=call.campaign,
            turn=call.turn,
            transport_id=call.transport,
            fate=fate,
            units=list(call.units),
            supplies=call.supplies,
            captor=call.captor,
        )
        answer: land_pb2.ReportCargoLossResponse = self._stub.ReportCargoLoss(
            request, timeout=self.timeout, metadata=self._md()
        )
        return answer

    def report_cargo_moves(self, call: CargoMoves) -> land_pb2.ReportCargoMovesResponse:
        request = land_pb2.ReportCargoMovesRequest(
            move_id=call.move_id,
            campaign_id=call.campaign,
            turn=call.turn,
            moves=[
                land_pb2.CargoMove(from_transport=a, to_transport=b, units=list(u), supplies=n)
                for a, b, u, n in call.moves
            ],
        )
        answer: land_pb2.ReportCargoMovesResponse = self._stub.ReportCargoMoves(
            request, timeout=self.timeout, metadata=self._md()
        )
        return answer

    def report_sightings(self, call: Sightings) -> land_pb2.ReportSightingsResponse:
        request = land_pb2.ReportSightingsRequest(
            report_id=call.report_id,
            campaign_id=call.campaign,
            turn=call.turn,
            sightings=[
                land_pb2.ShoreSighting(
                    port=port,
                    for_state=state,
                    ships=[land_pb2.SightedShip(id=i, state=s, type=k) for i, s, k in ships],
                )
                for port, state, ships in call.reports
            ],
            next_close_unix=call.next_close,
        )
        answer: land_pb2.ReportSightingsResponse = self._stub.ReportSightings(
            request, timeout=self.timeout, metadata=self._md()
        )
        return answer

    def units_near(
        self, campaign: str, turn: int, port: str, hold_request: str = ""
    ) -> land_pb2.UnitsNearResponse:
        """``hold_request``: ask a hold (edition 4) idempotent by this id; "" asks none."""
        request = land_pb2.UnitsNearRequest(
            campaign_id=campaign, turn=turn, port=port, hold=bool(hold_request), hold_request_id=hold_request
        )
        answer: land_pb2.UnitsNearResponse = self._stub.UnitsNear(
            request, timeout=self.timeout, metadata=self._md()
        )
        return answer

    def release_hold(self, campaign: str, hold_id: str) -> land_pb2.ReleaseHoldResponse:
        request = land_pb2.ReleaseHoldRequest(campaign_id=campaign, hold_id=hold_id)
        answer: land_pb2.ReleaseHoldResponse = self._stub.ReleaseHold(
            request, timeout=self.timeout, metadata=self._md()
        )
        return answer

    def get_capabilities(self) -> land_pb2.Capabilities:
        answer: land_pb2.Capabilities = self._stub.GetCapabilities(
            land_pb2.GetCapabilitiesRequest(), timeout=self.timeout, metadata=self._md()
        )
        return answer

    def open_campaign(self, call: OpenCampaign) -> land_pb2.OpenCampaignResponse:
        request = land_pb2.OpenCampaignRequest(
            campaign_id=call.campaign,
            scenario=call.scenario,
            turns=call.turns,
            units=[
                land_pb2.InitialUnit(unit=unit_message(u, tactical), city=city, transport_id=ship)
                for u, city, ship, tactical in call.units
            ],
            stocks=[land_pb2.InitialStock(city=c, transport_id=s, supplies=n) for c, s, n in call.stocks],
            holders=[land_pb2.PortHolder(port=c, state=s) for c, s in call.holders],
            data_digest=call.data_digest,
        )
        answer: land_pb2.OpenCampaignResponse = self._stub.OpenCampaign(
            request, timeout=open_deadline(self.timeout), metadata=self._md()
        )
        return answer

    def port_holders(self, campaign: str, turn: int) -> land_pb2.PortHoldersResponse:
        answer: land_pb2.PortHoldersResponse = self._stub.PortHolders(
            land_pb2.PortHoldersRequest(campaign_id=campaign, turn=turn),
            timeout=self.timeout,
            metadata=self._md(),
        )
        return answer

    def land_snapshot(self, campaign: str) -> land_pb2.LandSnapshot:
        answer: land_pb2.LandSnapshot = self._stub.GetLandSnapshot(
            land_pb2.GetLandSnapshotRequest(campaign_id=campaign),
            timeout=self.timeout,
            metadata=self._md(),
        )
        return answer

    def land_events(self, campaign: str, turn: int, after: int) -> land_pb2.ListLandEventsResponse:
        answer: land_pb2.ListLandEventsResponse = self._stub.ListLandEvents(
            land_pb2.ListLandEventsRequest(campaign_id=campaign, turn=turn, after_sequence=after),
            timeout=self.timeout,
            metadata=self._md(),
        )
        return answer

    def close_campaign(self, call: CloseCampaign) -> land_pb2.CloseCampaignResponse:
        answer: land_pb2.CloseCampaignResponse = self._stub.CloseCampaign(
            land_pb2.CloseCampaignRequest(
                campaign_id=call.campaign,
                last_turn=call.last_turn,
                laden=[
                    land_pb2.LadenTransport(
                        transport_id=x.transport, city=x.city, units=x.units, supplies=x.supplies
                    )
                    for x in call.laden
                ],
            ),
            timeout=self.timeout,
            metadata=self._md(),
        )
        return answer

    def close(self) -> None:
        if self._channel is not None:
            self._channel.close()


_CLIENTS: dict[str, GitmClient] = {}
_LOCK = threading.Lock()


def client_for(addr: str) -> GitmClient:
    """One channel per address per process (gRPC channels are thread-safe)."""
    with _LOCK:
        client = _CLIENTS.get(addr)
        if client is None:
            client = _CLIENTS[addr] = GitmClient(addr, timeout=configured_timeout())
        return client


def close_clients() -> None:
    with _LOCK:
        for client in _CLIENTS.values():
            client.close()
        _CLIENTS.clear()


def unit_message(u: LandUnit, tactical: bool) -> land_pb2.Unit:
    return land_pb2.Unit(
        id=u.id,
        state=u.state,
        tactical_square=tactical,
        infantry=u.infantry,
        cavalry=u.cavalry,
        artillery=u.artillery,
        batteries=u.batteries,
        headquarters=u.headquarters.value,
        supplies=u.supplies,
    )
