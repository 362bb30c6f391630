"""A worker tells how much of a turn's CPU its rules core took, in a metric and in the log
line of the turn, so an operator can set it against the process's whole CPU."""

from __future__ import annotations

import pytest
from prometheus_client import REGISTRY
from sqlalchemy import Engine
from structlog.testing import capture_logs

from pate.v1 import events_pb2
from services.intel.stage import handle_turn_resolved
from services.resolver.stage import handle_turn_closed
from tests.support.campaigns import close_first_turn


def _observed(stage: str) -> tuple[float, float]:
    count = REGISTRY.get_sample_value("pate_rules_cpu_seconds_count", {"stage": stage}) or 0.0
    total = REGISTRY.get_sample_value("pate_rules_cpu_seconds_sum", {"stage": stage}) or 0.0
    return count, total


def test_the_resolver_and_intel_observe_their_rules_cpu_and_log_it(engine: Engine) -> None:
    before = {stage: _observed(stage) for stage in ("resolver", "intel")}
    with engine.begin() as conn, capture_logs() as lines:
        close_first_turn(conn, "cpu-one", seed=5)
        handle_turn_closed(conn, events_pb2.TurnClosed(campaign_id="cpu-one", turn=1).SerializeToString(), {})
        resolved = events_pb2.TurnResolved(campaign_id="cpu-one", turn=1).SerializeToString()
        handle_turn_resolved(conn, resolved, {})
    for stage, event in (("resolver", "turn_resolved"), ("intel", "intel_ready")):
        count, total = _observed(stage)
        assert count == before[stage][0] + 1
        spent = total - before[stage][1]
        assert spent > 0
        (line,) = [x for x in lines if x["event"] == event]
        # the log line and the metric give the same measurement, in milliseconds
        assert line["rules_cpu_ms"] == pytest.approx(1000 * spent, abs=0.01)
