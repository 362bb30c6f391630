"""The land side of ``pate campaign simulate --gitm``: the reference GITM land
service's store in this process (``reference``), or any land service over
gRPC (``HOST:PORT``), behind the same bridge code the resolver runs, so a
headless campaign opens, lands, loads and closes as the services do
(docs/gitm.md)."""

from __future__ import annotations

import uuid
from collections.abc import Sequence

from pate.cli.main import UserError
from pate.core.events import Event
from pate.core.rules.context import TurnContext
from pate.core.rules.landsaga import LandTransfer, LandWord
from pate.core.rules.landsync import PortLandReport
from pate.core.rules.turn import TurnResult
from pate.core.world.geography import WorldMap
from pate.core.world.state import WorldState
from services.platform.bus.consumer import BusyError, TransientError
from services.resolver import bridge, gitm_life, land_questions
from services.resolver.data_check import DataMismatchError
from services.resolver.gitm import CloseCampaign, GitmClient, configured_timeout


class BridgedLand:
    """A land side told what PATE's bridge tells it: opened with the scenario's land, each
    turn asked before and told after, closed after the last turn."""

    def __init__(
        self, client: GitmClient, wmap: WorldMap, world: WorldState, campaign: str, last: int
    ) -> None:
        self.client, self.campaign, self.last, self.wmap = client, campaign, last, wmap
        self._pending: tuple[LandTransfer, ...] = ()
        self._events_after = 0  # the last land event applied (edition 4)
        self._last: tuple[Event, ...] = ()
        self._holds: dict[str, tuple[str, int]] = {}
        opening: list[bridge.Call] = [
            bridge.open_call(world, wmap, "simulated", last, campaign),
            bridge.sightings_call(campaign, 0, (), world),
        ]
        self.refused = bridge.deliver(client, opening)
        self.calls = len(opening)

    def before(self, ctx: TurnContext, world: WorldState) -> tuple[Sequence[PortLandReport], LandWord | None]:
        earlier = [*self._pending, *land_questions.begun_on_map(self._last)]
        # every earlier turn's calls were made in after(), before this turn closed
        told = frozenset(range(world.turn))
        reports, word = land_questions.land_inputs(
            self.client, world, ctx.map, earlier, told, self._events_after
        )
        self._pending, self._events_after = word.pending, word.events_after
        # edition 4: the close's holds, named by the turn's begins and released after them
        self._holds = {r.port: (r.hold, r.hold_expires_at) for r in reports if r.hold}
        return reports, word

    def after(self, start: WorldState, result: TurnResult) -> None:
        holds, self._holds = self._holds, {}
        calls = bridge.calls_of(start.campaign, start.turn, result.events, start, result.state, holds)
        if start.turn >= self.last:
            calls.append(CloseCampaign(start.campaign, start.turn, gitm_life.laden(result.state, self.wmap)))
        try:
            self.refused += bridge.deliver(self.client, calls)
        except (TransientError, BusyError) as exc:  # one line, not a traceback
            raise UserError(
                f"--gitm: the land service did not answer turn {start.turn}'s calls ({exc})"
            ) from None
        self.calls += len(calls)
        self._last = result.events

    def places(self) -> list[str]:
        """What a remote land service made of the calls (its land is its own to show)."""
        if self.refused:
            return [f"{len(self.refused)} of {self.calls} calls refused or skipped"]
        return [f"all {self.calls} calls answered"]


class ReferenceLand(BridgedLand):
    """The reference service's store, in memory, opened by OpenCampaign like any land service."""

    def __init__(self, wmap: WorldMap, world: WorldState, campaign: str, last: int = 99) -> None:
        from services.gitm_reference.inprocess import InProcessStub, memory_store

        self.store = memory_store()
        super().__init__(
            GitmClient("in-process", stub=InProcessStub(self.store)), wmap, world, campaign, last
        )

    def places(self) -> list[str]:
        snap = self.store.snapshot(self.campaign)
        return [
            f"{u.id} {u.fate or ('aboard ' + u.transport_id if u.transport_id else 'in ' + u.city)}"
            for u in snap.units
        ]


def remote_land(addr: str, wmap: WorldMap, world: WorldState, last: int) -> BridgedLand:
    """A land service at ``addr`` (TLS and PATE's caller token from PATE_TLS_* and
    PATE_GITM_TOKEN, as the resolver dials it), in a campaign of its own."""
    campaign = f"simulated-{uuid.uuid4().hex[:8]}"
    client = GitmClient(addr, timeout=configured_timeout())
    try:
        return BridgedLand(client, wmap, world, campaign, last)
    except DataMismatchError as exc:  # docs/gitm.md A9: the two sides read different maps
        raise UserError(f"--gitm {addr}: {exc}") from None
    except (TransientError, BusyError) as exc:  # one line, not a traceback: the land is away
        raise UserError(f"--gitm {addr}: the land service did not answer the open ({exc})") from None
