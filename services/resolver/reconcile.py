"""``pate gitm reconcile CAMPAIGN [--repair]`` (edition 4, docs/gitm.md "Reconciliation"):
PATE's world beside GITM's ``GetLandSnapshot``, every disagreement listed with the rule that
settles it (services/resolver/reconcile_diff.py), and, with ``repair``, the ones a rule lets
PATE settle itself settled through the contract's own calls, with their own ids, so that a
repair repeated does nothing more: the committed turns' calls sent again (R1), a completion sent
again (R2), an open transfer PATE never committed cancelled (R3).  Then a fresh snapshot, and
what is left.  Works after either side was restored from a backup."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import grpc
from sqlalchemy import Connection

from gitm.v1 import land_pb2
from pate.core.world.geography import WorldMap
from services.platform.bus.consumer import BusyError, TransientError
from services.platform.store import repository as repo
from services.platform.telemetry.logging import get_logger
from services.resolver import bridge
from services.resolver.data_check import DataMismatchError
from services.resolver.gitm import Begin, Complete, GitmClient
from services.resolver.land_holds import ReleaseHold
from services.resolver.reconcile_diff import OPERATOR, REPAIR, Disagreement, PateSide, compare

log = get_logger("gitm-reconcile")
UNDONE = "transfer_undone"


@dataclass
class Outcome:
    found: list[Disagreement]  # before any repair
    repairs: list[str] = field(default_factory=list)  # what was sent, and GITM's answer when not a yes
    left: list[Disagreement] = field(default_factory=list)  # after the repairs (without: as found)

    @property
    def settled(self) -> bool:
        """Nothing left that needs a repair not made or the operators."""
        return not any(d.settles in (REPAIR, OPERATOR) for d in self.left)


def pate_side(conn: Connection, campaign: str) -> PateSide:
    """PATE's side from its store: the world of its open turn, every committed turn's calls
    (as the bridge builds them), the turns delivered and the transfers PATE undid."""
    row = repo.get_campaign(conn, campaign)
    if row is None:
        raise LookupError(f"no campaign {campaign!r}")
    if not row.gitm:
        raise LookupError(f"campaign {campaign!r} is naval only: GITM never heard of it")
    committed = [t for t in range(0, row.turn + 1) if repo.world_exists(conn, campaign, t + 1)]
    latest = max(committed, default=0) + 1
    world = repo.load_world(conn, campaign, latest)
    calls = {t: bridge.turn_calls(conn, row, t) for t in committed}
    undone = {
        str(e.data["transfer"])
        for t in committed
        if t
        for e in repo.load_events(conn, campaign, t)
        if e.kind == UNDONE
    }
    return PateSide(
        campaign, world, calls, bridge.delivered_turns(conn, campaign, committed), frozenset(undone)
    )


def snapshot(client: GitmClient, campaign: str) -> land_pb2.LandSnapshot | None:
    """GITM's snapshot; None when GITM holds no such campaign (NOT_FOUND: it lost the campaign)."""
    try:
        return client.land_snapshot(campaign)
    except grpc.RpcError as exc:
        if bridge.status_code(exc) == grpc.StatusCode.NOT_FOUND:
            return None
        raise


def _lost(side: PateSide) -> Disagreement:
    return Disagreement(
        "campaign",
        side.campaign,
        "opened it",
        "does not hold it",
        REPAIR,
        "R1: opened and every turn sent again",
    )


def reconcile(client: GitmClient, side: PateSide, wmap: WorldMap, *, repair: bool = False) -> Outcome:
    snap = snapshot(client, side.campaign)
    found = [_lost(side)] if snap is None else compare(side, snap, wmap)
    outcome = Outcome(found, left=list(found))
    if not repair or not any(d.settles == REPAIR for d in found):
        return outcome
    outcome.repairs = _repair(client, side, found)
    snap = snapshot(client, side.campaign)
    outcome.left = [_lost(side)] if snap is None else compare(side, snap, wmap)
    log.info(
        "gitm_reconciled",
        campaign=side.campaign,
        found=len(found),
        repairs=len(outcome.repairs),
        left=len(outcome.left),
    )
    return outcome


def _repair(client: GitmClient, side: PateSide, found: Sequence[Disagreement]) -> list[str]:
    """R3 first (what an unknown transfer reserves may be what a transfer sent again needs),
    then R1 from the earliest turn GITM lacks, then R2."""
    done: list[str] = []
    ours = side.transfers()
    for d in found:
        if d.settles == REPAIR and d.rule.startswith("R3"):
            done.append(_send(client, [Complete(d.subject, True, side.campaign)], f"cancelled {d.subject}"))
    lacking = [ours[d.subject][0] for d in found if d.rule.startswith("R1") and d.subject in ours]
    if any(d.what == "campaign" for d in found):
        lacking.append(0)
    if lacking:
        for turn in sorted(t for t in side.delivered if t >= min(lacking)):
            done.append(_send(client, _without_holds(side.calls[turn]), f"turn {turn}'s calls sent again"))
    for d in found:
        if d.rule.startswith("R2") and d.subject in ours:
            _, _, completion = ours[d.subject]
            if completion is not None:
                done.append(_send(client, [completion], f"completion of {d.subject} sent again"))
    return done


def _without_holds(calls: Sequence[bridge.Call]) -> list[bridge.Call]:
    """A turn's calls sent again by R1 name no hold and release none: the holds of its close were
    lost with GITM's restore (a begin naming one would be refused ``hold_unknown``) or are long
    over. A begin GITM kept answers its stored answer whatever its hold (B5); one it lost is
    checked against the land as it stands now (L4 to L7), as a begin without a hold always is."""
    return [
        replace(c, hold_id="", hold_expires_at=0) if isinstance(c, Begin) else c
        for c in calls
        if not isinstance(c, ReleaseHold)
    ]


def _send(client: GitmClient, calls: Sequence[bridge.Call], what: str) -> str:
    try:
        refused = bridge.deliver(client, calls)
    except DataMismatchError as exc:  # docs/gitm.md A9: no open is sent to other contract data
        return f"{what}: not sent: {exc}"[:500]
    except (TransientError, BusyError) as exc:  # GITM away or busy: the repair waits for a later run
        return f"{what}: not sent, the land service did not answer ({exc}); run the repair again"[:500]
    if not refused:
        return what
    said = "; ".join(f"{type(c).__name__} {why}" for c, why in refused[:5])
    return f"{what}: GITM said no to {len(refused)} of {len(calls)}: {said}"[:500]
