"""Subjects carry the campaign id as their last token; message ids are deterministic."""

from __future__ import annotations

import pytest

from services.common import bus
from services.common.logging import bind_context


def test_subjects_and_filters() -> None:
    assert bus.subject(bus.TURN_CLOSED, "c1") == "pate.turn_closed.c1"
    assert bus.subject(bus.TURN_CLOSED, "*") == bus.stage_filter(bus.TURN_CLOSED) == "pate.turn_closed.*"
    assert bus.campaign_of("pate.reports_ready.c-9") == "c-9"
    assert bus.campaign_of("other.subject") is None
    assert len(set(bus.STAGES)) == 7


@pytest.mark.parametrize("campaign", ["a.b", "a b", "", "a>"])
def test_a_campaign_id_that_would_break_the_subject_is_refused(campaign: str) -> None:
    with pytest.raises(ValueError, match="subject token"):
        bus.subject(bus.TURN_CLOSED, campaign)


def test_msg_ids_are_deterministic() -> None:
    assert bus.msg_id("c1", 3, bus.TURN_RESOLVED) == "c1:3:turn_resolved"
    assert bus.msg_id("c1", 3, bus.ORDERS_AUDIT, "p2", 7) == "c1:3:orders_audit:p2:7"


def test_trace_headers() -> None:
    with bind_context(trace_id="t1"):
        assert bus.event_headers("c1", 2) == {"Pate-Trace-Id": "t1", "Pate-Campaign": "c1", "Pate-Turn": "2"}
        assert bus.inject_trace({"A": "b"}) == {"A": "b", "Pate-Trace-Id": "t1"}
    assert bus.inject_trace({"Pate-Trace-Id": "kept"}, trace_id="other")["Pate-Trace-Id"] == "kept"
    fresh = bus.event_headers()[bus.TRACE_HEADER]
    assert len(fresh) == 32 and fresh != bus.event_headers()[bus.TRACE_HEADER]
    assert bus.extract_trace({"Pate-Trace-Id": "x"}) == "x"
    assert bus.extract_trace(None) is None


def test_logged_nats_urls_carry_no_credentials() -> None:
    assert bus.redact_url("nats://user:secret@bus:4222") == "nats://***@bus:4222"
    assert bus.redact_url("tls://a-token@bus:4222") == "tls://***@bus:4222"
    assert bus.redact_url("nats://127.0.0.1:4222") == "nats://127.0.0.1:4222"
