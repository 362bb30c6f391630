"""The land service as the conformance suite calls it: the campaign it opens
(its own units and supplies in one city and aboard its own transports), the
gitm.v1 calls PATE makes, each with PATE's caller token, and a fresh id for
every new piece of work.  The rows (pate/gitmkit/*_rows.py) use only this."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import grpc

from gitm.v1 import land_pb2

CALLER_TOKEN = "x-pate-gitm-token"  # docs/gitm.md "Security"
LOAD, UNLOAD = land_pb2.DIRECTION_LOAD, land_pb2.DIRECTION_UNLOAD
CITY_SUPPLIES = 10
CARGO_SUPPLIES = 3
NO_CITY = "No-Such-City-Of-The-Suite"  # a name no map holds


@dataclass(frozen=True)
class Layout:
    """The suite's campaign: every unit id begins with its state, as PATE's do."""

    state: str = "BR"
    other: str = "FR"  # another state, whose unit stands in the same city
    ship: str = "CHECK1TR"  # empty at the start
    carrier: str = "CHECK2TR"  # holds ``aboard`` and CARGO_SUPPLIES at the start
    spare: str = "CHECK3TR"  # empty: for a second transfer at the same time

    @property
    def a(self) -> str:
        return f"{self.state}91IN"

    @property
    def b(self) -> str:
        return f"{self.state}92IN"

    @property
    def near(self) -> str:  # only in the strategic square, not in the city
        return f"{self.state}93IN"

    @property
    def aboard(self) -> str:
        return f"{self.state}94IN"

    @property
    def foreign(self) -> str:
        return f"{self.other}91IN"

    def city_units(self) -> set[str]:
        return {self.a, self.b, self.foreign}


@dataclass
class Land:
    stub: Any  # LandBridgeStub or anything with its methods
    campaign: str
    port: str
    token: str = ""
    timeout: float = 5.0
    layout: Layout = field(default_factory=Layout)
    restart: Callable[[], None] | None = None  # restarts the land service (the durability row)
    health: Any = None  # a grpc.health.v1 HealthStub on the same channel
    opened: bool = False  # the first OpenCampaign was answered OK (whatever L2 found next)
    _n: int = 0
    _edition: int = 0

    def edition(self) -> int:
        """The service's edition by its capabilities (1 without GetCapabilities), asked once: the
        rows check the details of edition 4 only of a service that says it is of edition 4."""
        if not self._edition:
            try:
                self._edition = max(
                    1, int(self.call("GetCapabilities", land_pb2.GetCapabilitiesRequest()).edition)
                )
            except grpc.RpcError as exc:
                if not (isinstance(exc, grpc.Call) and exc.code() == grpc.StatusCode.UNIMPLEMENTED):
                    raise
                self._edition = 1
        return self._edition

    def other_campaign(self, what: str) -> str:
        """A campaign id of the suite's that is never opened (an opaque id of at most 256)."""
        return f"{self.campaign[:200]}.{what}"

    def new_id(self, what: str) -> str:
        self._n += 1
        return f"{self.campaign}:check:{what}:{self._n}"

    def md(self, token: str | None = None) -> list[tuple[str, str]]:
        token = self.token if token is None else token
        return [(CALLER_TOKEN, token)] if token else []

    def call(self, method: str, request: Any, token: str | None = None) -> Any:
        return getattr(self.stub, method)(request, timeout=self.timeout, metadata=self.md(token))

    # ---------------------------------------------------------------- the campaign
    def open_request(self, extra_supplies: int = 0) -> land_pb2.OpenCampaignRequest:
        lay = self.layout

        def unit(uid: str, state: str, tactical: bool, men: int) -> land_pb2.Unit:
            return land_pb2.Unit(id=uid, state=state, tactical_square=tactical, infantry=men)

        units = [
            land_pb2.InitialUnit(unit=unit(lay.a, lay.state, True, 900), city=self.port),
            land_pb2.InitialUnit(unit=unit(lay.b, lay.state, True, 800), city=self.port),
            land_pb2.InitialUnit(unit=unit(lay.foreign, lay.other, True, 700), city=self.port),
            land_pb2.InitialUnit(unit=unit(lay.near, lay.state, False, 600), city=self.port),
            land_pb2.InitialUnit(unit=unit(lay.aboard, lay.state, False, 500), transport_id=lay.carrier),
        ]
        stocks = [
            land_pb2.InitialStock(city=self.port, supplies=CITY_SUPPLIES + extra_supplies),
            land_pb2.InitialStock(transport_id=lay.ship),
            land_pb2.InitialStock(transport_id=lay.carrier, supplies=CARGO_SUPPLIES),
            land_pb2.InitialStock(transport_id=lay.spare),
        ]
        return land_pb2.OpenCampaignRequest(
            campaign_id=self.campaign,
            scenario="conformance",
            turns=2,
            units=units,
            stocks=stocks,
            holders=[land_pb2.PortHolder(port=self.port, state=lay.state)],  # edition 3
        )

    # ---------------------------------------------------------------- transfers
    def begin(
        self,
        tid: str,
        direction: land_pb2.Direction.ValueType,
        units: list[str],
        supplies: int = 0,
        *,
        transport: str = "",
        port: str = "",
        state: str = "",
        hold: str = "",
    ) -> Any:
        request = land_pb2.BeginTransferRequest(
            transfer_id=tid,
            campaign_id=self.campaign,
            turn=1,
            port=port or self.port,
            transport_id=transport or self.layout.ship,
            direction=direction,
            units=units,
            supplies=supplies,
            state=state or self.layout.state,
            hold_id=hold,
        )
        return self.call("BeginTransfer", request)

    def complete(self, tid: str, cancelled: bool = False, campaign: str | None = None) -> Any:
        """``campaign``: the campaign named (edition 4, P7); default the suite's own, "" none."""
        named = self.campaign if campaign is None else campaign
        request = land_pb2.CompleteTransferRequest(transfer_id=tid, cancelled=cancelled, campaign_id=named)
        return self.call("CompleteTransfer", request)

    def get(self, tid: str, campaign: str | None = None) -> Any:
        named = self.campaign if campaign is None else campaign
        return self.call("GetTransfer", land_pb2.GetTransferRequest(transfer_id=tid, campaign_id=named))

    def move(self, units: list[str], supplies: int = 0, direction: Any = LOAD, transport: str = "") -> Any:
        """One whole transfer, begun and completed: the completion's answer."""
        tid = self.new_id("move")
        begun = self.begin(tid, direction, units, supplies, transport=transport)
        if not begun.accepted:
            return begun
        return self.complete(tid)

    # ---------------------------------------------------------------- reads
    def near(self, port: str = "", campaign: str = "") -> Any:
        request = land_pb2.UnitsNearRequest(
            campaign_id=campaign or self.campaign, turn=1, port=port or self.port
        )
        return self.call("UnitsNear", request)

    def city(self) -> dict[str, Any]:
        """The units in the city itself (tactical square), by id."""
        return {u.id: u for u in self.near().units if u.tactical_square}

    def free(self) -> int:
        answer = self.near()
        return int(answer.supplies - answer.reserved_supplies)

    # ---------------------------------------------------------------- reports
    def loss(self, lid: str, transport: str, units: list[str], supplies: int, captor: str = "") -> Any:
        fate = land_pb2.CARGO_FATE_CAPTURED if captor else land_pb2.CARGO_FATE_LOST
        request = land_pb2.ReportCargoLossRequest(
            loss_id=lid,
            campaign_id=self.campaign,
            turn=1,
            transport_id=transport,
            fate=fate,
            units=units,
            supplies=supplies,
            captor=captor,
        )
        return self.call("ReportCargoLoss", request)

    def moves(self, mid: str, src: str, dst: str, units: list[str], supplies: int = 0) -> Any:
        move = land_pb2.CargoMove(from_transport=src, to_transport=dst, units=units, supplies=supplies)
        request = land_pb2.ReportCargoMovesRequest(
            move_id=mid, campaign_id=self.campaign, turn=1, moves=[move]
        )
        return self.call("ReportCargoMoves", request)

    def sightings(self, rid: str, ships: list[tuple[str, str, str]], states: tuple[str, ...]) -> Any:
        seen = [land_pb2.SightedShip(id=i, state=s, type=k) for i, s, k in ships]
        request = land_pb2.ReportSightingsRequest(
            report_id=rid,
            campaign_id=self.campaign,
            turn=1,
            sightings=[land_pb2.ShoreSighting(port=self.port, for_state=st, ships=seen) for st in states],
        )
        return self.call("ReportSightings", request)
