"""A campaign row as the administrator's replies show it (admin.proto ``Campaign``)."""

from __future__ import annotations

from pate.v1 import admin_pb2
from services.platform.store import failures
from services.platform.store import repository as repo

_STATUS = {name: getattr(admin_pb2, f"TURN_STATUS_{name}") for name in repo.STATUSES}


def campaign_pb(
    row: repo.CampaignRow, failure: failures.TurnFailure | None = None, *, paused: bool = False
) -> admin_pb2.Campaign:
    """The campaign as the administrator sees it: a failed turn shows as FAILED, with why, and a
    paused one says so."""
    out = admin_pb2.Campaign(
        id=row.id,
        name=row.name,
        scenario=row.scenario,
        seed=row.seed,
        turn=row.turn,
        turns=row.turns,
        status=_STATUS[row.status],
        combat_rules=row.combat_rules,
        naval_rules=row.naval_rules,
        paused=paused,
    )
    if row.deadline is not None:
        out.deadline.FromDatetime(row.deadline)
    if failure is not None:
        out.status = admin_pb2.TURN_STATUS_FAILED
        out.failure.CopyFrom(failure_pb(failure, _STATUS[row.status]))
    return out


def failure_pb(failure: failures.TurnFailure, prior: int) -> admin_pb2.TurnFailure:
    out = admin_pb2.TurnFailure(
        turn=failure.turn,
        stage=failure.stage,
        reason=failure.reason,
        prior_status=prior,  # type: ignore[arg-type]
    )
    out.failed_at.FromDatetime(failure.failed_at)
    return out
