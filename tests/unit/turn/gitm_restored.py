"""A campaign against the reference land service kept in a SQLite file, so that either side can
be restored from a backup (a copy of GITM's file; a copy of PATE's campaign record), for the
reconciliation and land-event tests (docs/gitm.md "Reconciliation", "Land events")."""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import create_engine
from sqlalchemy.pool import NullPool

from services.gitm_reference.inprocess import InProcessStub
from services.gitm_reference.store import LandStore
from services.resolver import bridge
from services.resolver.reconcile_diff import PateSide
from tests.cases.turn.turn_world import CTX
from tests.unit.turn.gitm_fault_campaign import Campaign, start_world

CAMPAIGN = "saga"


@dataclass
class Restorable:
    """The campaign and GITM's file; ``backup_gitm``/``restore_gitm`` copy the file as an
    operator's backup and restore would, ``backup_pate``/``restore_pate`` PATE's record."""

    campaign: Campaign
    path: Path

    def backup_gitm(self) -> Path:
        saved = self.path.with_suffix(".backup")
        shutil.copy(self.path, saved)
        return saved

    def restore_gitm(self, saved: Path) -> None:
        shutil.copy(saved, self.path)
        self.campaign.store.reopen()  # the service restarts on the restored file

    def backup_pate(self) -> Campaign:
        return _snapshot(self.campaign)

    def restore_pate(self, saved: Campaign) -> None:
        c = self.campaign
        c.world, c.events, c.starts = saved.world, dict(saved.events), dict(saved.starts)
        c.pending, c.delivered = dict(saved.pending), set(saved.delivered)

    def side(self) -> PateSide:
        return pate_side(self.campaign)


def _snapshot(c: Campaign) -> Campaign:
    return Campaign(
        c.store, c.stub, c.world, events=dict(c.events), starts=dict(c.starts),
        pending=dict(c.pending), delivered=set(c.delivered),
    )  # fmt: skip


def restorable(tmp: Path) -> Restorable:
    path = tmp / "land.db"
    store = LandStore(create_engine(f"sqlite:///{path}", poolclass=NullPool))
    c = Campaign(store, InProcessStub(store), start_world(CAMPAIGN))
    c.open()
    return Restorable(c, path)


def pate_side(c: Campaign) -> PateSide:
    """PATE's side as ``services.resolver.reconcile.pate_side`` builds it from PATE's store (each
    begin naming the hold its close was given, as the bridge sends it)."""
    name = c.world.campaign
    calls: dict[int, list[bridge.Call]] = {
        0: [bridge.open_call(c.starts[0], CTX.map, "test", 99), bridge.sightings_call(name, 0, (), None)]
    }
    for turn, events in sorted(c.events.items()):
        if turn:
            end = c.starts.get(turn + 1, c.world)
            calls[turn] = bridge.calls_of(name, turn, events, c.starts[turn], end, c.holds.get(turn))
    undone = {str(e.data["transfer"]) for es in c.events.values() for e in es if e.kind == "transfer_undone"}
    return PateSide(name, c.world, calls, frozenset(c.delivered), frozenset(undone))
