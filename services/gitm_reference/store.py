"""The reference land service's store: units and supplies in cities and
aboard transports, and every transfer, sighting report and cargo loss by its
id, so that a repeated call gets the first answer (docs/gitm.md).

The store speaks gitm.v1 messages.  :class:`LandStore` is the face the
servicer, the in-process stub and the tools use; it composes the parts along
their seams: the ledger (one transaction under one lock, shared rows), the
transfers, the reports of a turn and the administration.  Hostile input is
checked before any work against land.proto's rules (services/gitm_reference/checks.py).
"""

from __future__ import annotations

from sqlalchemy import Engine

from gitm.v1 import land_pb2, reference_admin_pb2
from services.gitm_reference import tables as t
from services.gitm_reference.admin import Administration
from services.gitm_reference.checks import (
    MAX_ID,
    MAX_SUPPLIES,
    MAX_UNITS,
    BadRequestError,
    ReusedIdError,
    StoreError,
    UnknownTransferError,
    check_request,
)
from services.gitm_reference.holders import Holders
from services.gitm_reference.holds import Holds
from services.gitm_reference.landevents import LandEvents
from services.gitm_reference.landsnap import LandSnapshots
from services.gitm_reference.ledger import Behaviour, Ledger, Seeder, station_unit
from services.gitm_reference.lifecycle import Lifecycle
from services.gitm_reference.moves import CargoMoves
from services.gitm_reference.pruning import Pruning
from services.gitm_reference.reports import TurnReports
from services.gitm_reference.transfers import STATES, Transfers

__all__ = [
    "MAX_ID",
    "MAX_SUPPLIES",
    "MAX_UNITS",
    "STATES",
    "BadRequestError",
    "Behaviour",
    "LandStore",
    "ReusedIdError",
    "Seeder",
    "StoreError",
    "UnknownTransferError",
    "station_unit",
]


class LandStore:
    def __init__(
        self, engine: Engine, seeder: Seeder | None = None, cities: frozenset[str] | None = None
    ) -> None:
        self._build(Ledger(engine, seeder, cities))

    def _build(self, ledger: Ledger) -> None:
        self.ledger = ledger
        self.transfers = Transfers(ledger)
        self.reports = TurnReports(ledger)
        self.moves = CargoMoves(ledger)
        self.lifecycle = Lifecycle(ledger)
        self.admin = Administration(ledger)
        self.holders = Holders(ledger)
        self.snapshots = LandSnapshots(ledger, self.holders)
        self.land_events = LandEvents(ledger)
        self.holds = Holds(ledger)
        self.pruning = Pruning(ledger)

    def reopen(self) -> None:
        """What a restart of the process leaves: the database, nothing held in memory."""
        old = self.ledger
        fresh = Ledger(old.engine, old.seeder, old.cities)
        fresh.behaviour = old.behaviour
        fresh.clock = old.clock
        if old.behaviour.broken("volatile"):  # its answers were only ever in memory
            with old.engine.begin() as conn:
                for table in (t.transfers, t.cargo_losses, t.cargo_moves, t.sighting_reports, t.request_shas):
                    conn.execute(table.delete())
        self._build(fresh)

    @property
    def engine(self) -> Engine:
        return self.ledger.engine

    @property
    def seeder(self) -> Seeder | None:
        return self.ledger.seeder

    @property
    def behaviour(self) -> Behaviour:
        return self.ledger.behaviour

    @behaviour.setter
    def behaviour(self, value: Behaviour) -> None:
        # the servicer swaps the whole Behaviour when faults are set; every part reads it here
        self.ledger.behaviour = value

    # ------------------------------------------------------------ transfers
    def begin(self, r: land_pb2.BeginTransferRequest) -> land_pb2.TransferStatus:
        check_request(r)  # docs/gitm.md "Limits": before any work
        self.pruning.touch(r.campaign_id)
        return self.transfers.begin(r)

    def complete(self, r: land_pb2.CompleteTransferRequest) -> land_pb2.TransferStatus:
        check_request(r)  # docs/gitm.md "Limits": before any work
        self.pruning.touch(r.campaign_id)
        return self.transfers.complete(r)

    def get(self, r: land_pb2.GetTransferRequest) -> land_pb2.TransferStatus:
        check_request(r)  # docs/gitm.md "Limits": before any work
        self.pruning.touch(r.campaign_id)
        return self.transfers.get(r)

    # ------------------------------------------------------------ a campaign's life
    def capabilities(self) -> land_pb2.Capabilities:
        return self.lifecycle.capabilities()

    def open_campaign(self, r: land_pb2.OpenCampaignRequest) -> land_pb2.OpenCampaignResponse:
        check_request(r)  # docs/gitm.md "Limits": before any work
        self.pruning.touch(r.campaign_id)
        return self.lifecycle.open(r)

    def close_campaign(self, r: land_pb2.CloseCampaignRequest) -> land_pb2.CloseCampaignResponse:
        check_request(r)  # docs/gitm.md "Limits": before any work
        self.pruning.touch(r.campaign_id)
        return self.lifecycle.close(r)

    # ------------------------------------------------------------ what units see and hold
    def port_holders(self, r: land_pb2.PortHoldersRequest) -> land_pb2.PortHoldersResponse:
        check_request(r)  # docs/gitm.md "Limits": before any work
        self.pruning.touch(r.campaign_id)
        return self.holders.answer(r)

    def units_near(self, r: land_pb2.UnitsNearRequest) -> land_pb2.UnitsNearResponse:
        check_request(r)  # docs/gitm.md "Limits": before any work
        self.pruning.touch(r.campaign_id)
        return self.reports.units_near(r)

    def report_sightings(self, r: land_pb2.ReportSightingsRequest) -> land_pb2.ReportSightingsResponse:
        check_request(r)  # docs/gitm.md "Limits": before any work
        self.pruning.touch(r.campaign_id)
        return self.reports.report_sightings(r)

    def report_cargo_loss(self, r: land_pb2.ReportCargoLossRequest) -> land_pb2.ReportCargoLossResponse:
        check_request(r)  # docs/gitm.md "Limits": before any work
        self.pruning.touch(r.campaign_id)
        return self.reports.report_cargo_loss(r)

    def report_cargo_moves(self, r: land_pb2.ReportCargoMovesRequest) -> land_pb2.ReportCargoMovesResponse:
        check_request(r)  # docs/gitm.md "Limits": before any work
        self.pruning.touch(r.campaign_id)
        return self.moves.report(r)

    # ------------------------------------------------------------ edition 4: reconciliation, land events
    def land_snapshot(self, r: land_pb2.GetLandSnapshotRequest) -> land_pb2.LandSnapshot:
        check_request(r)  # docs/gitm.md "Limits": before any work
        self.pruning.touch(r.campaign_id)
        return self.snapshots.answer(r)

    def list_land_events(self, r: land_pb2.ListLandEventsRequest) -> land_pb2.ListLandEventsResponse:
        check_request(r)  # docs/gitm.md "Limits": before any work
        self.pruning.touch(r.campaign_id)
        return self.land_events.list(r)

    def release_hold(self, r: land_pb2.ReleaseHoldRequest) -> land_pb2.ReleaseHoldResponse:
        check_request(r)  # docs/gitm.md "Limits": before any work
        self.pruning.touch(r.campaign_id)
        return self.holds.release(r)

    def inject_land_event(self, campaign: str, event: land_pb2.LandEvent) -> land_pb2.LandEvent:
        return self.land_events.inject(campaign, event)

    # ------------------------------------------------------------ administration
    def prune(self) -> list[str]:
        """docs/gitm.md A19: test campaigns 30 days after their last call (pruning.py)."""
        return self.pruning.prune()

    def station(self, r: reference_admin_pb2.StationRequest) -> reference_admin_pb2.StationResponse:
        return self.admin.station(r)

    def snapshot(self, campaign: str) -> reference_admin_pb2.SnapshotResponse:
        return self.admin.snapshot(campaign)
