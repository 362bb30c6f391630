"""The reference GITM land side in process for ``pate campaign simulate
--gitm reference``: the reference service's store (in memory) behind the
same bridge code the resolver runs, so a headless campaign lands and loads
units as the services do (docs/gitm.md)."""

from __future__ import annotations

from collections.abc import Sequence

from pate.core.events import Event
from pate.core.rules.context import TurnContext
from pate.core.rules.landsaga import LandTransfer, LandWord
from pate.core.rules.landsync import PortLandReport
from pate.core.rules.turn import TurnResult
from pate.core.world.geography import WorldMap
from pate.core.world.state import WorldState
from services.gitm_reference import tables
from services.gitm_reference.inprocess import InProcessStub, memory_store
from services.gitm_reference.seed import seed_world
from services.resolver import bridge
from services.resolver.gitm import GitmClient


class ReferenceLand:
    """Seeded from the scenario's world: its on-map garrisons, city supplies and cargo."""

    def __init__(self, wmap: WorldMap, scenario_world: WorldState, campaign: str) -> None:
        self.store = memory_store()
        with self.store.engine.begin() as conn:
            conn.execute(tables.campaigns.insert().values(campaign=campaign, seeded_from="scenario"))
            seed_world(
                conn, campaign, scenario_world, lambda p: p in wmap.ports and wmap.ports[p].on_gitm_map
            )
        self.client = GitmClient("in-process", stub=InProcessStub(self.store))
        self.campaign = campaign
        self._pending: tuple[LandTransfer, ...] = ()
        self._last: tuple[Event, ...] = ()

    def before(self, ctx: TurnContext, world: WorldState) -> tuple[Sequence[PortLandReport], LandWord | None]:
        earlier = [*self._pending, *bridge.begun_on_map(self._last)]
        reports, word = bridge.land_inputs(self.client, world, ctx.map, earlier)
        self._pending = word.pending
        return reports, word

    def after(self, start: WorldState, result: TurnResult) -> None:
        calls = bridge.calls_of(start.campaign, start.turn, result.events, start, result.state)
        bridge.deliver(self.client, calls)
        self._last = result.events

    def places(self) -> list[str]:
        snap = self.store.snapshot(self.campaign)
        return [
            f"{u.id} {u.fate or ('aboard ' + u.transport_id if u.transport_id else 'in ' + u.city)}"
            for u in snap.units
        ]
