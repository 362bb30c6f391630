"""Subjects carry the campaign id as their last token; message ids are deterministic."""

from __future__ import annotations

import pytest

from services.platform import bus
from services.platform.telemetry import tracing


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


def test_event_headers_carry_the_current_w3c_trace_context() -> None:
    tracing.configure_tracing("unit")
    with tracing.span("work") as current:
        ctx = current.get_span_context()
        headers = bus.event_headers("c1", 2)
    assert headers[bus.TRACE_HEADER].startswith(f"00-{ctx.trace_id:032x}-{ctx.span_id:016x}-")
    assert (headers[bus.CAMPAIGN_HEADER], headers[bus.TURN_HEADER]) == ("c1", "2")
    # outside any span the trace of the message being handled goes on; with none, there is none
    parent = {"traceparent": "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", "other": "x"}
    assert bus.event_headers("c1", 2, parent)[bus.TRACE_HEADER] == parent["traceparent"]
    assert "other" not in bus.event_headers("c1", 2, parent)
    assert bus.TRACE_HEADER not in bus.event_headers("c1", 2)


def test_a_span_continues_the_trace_its_parent_headers_carry() -> None:
    tracing.configure_tracing("unit")
    parent = {"traceparent": "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"}
    with tracing.span("child", parent=parent):
        assert tracing.current_ids() is not None
        trace_id, span_id = tracing.current_ids() or ("", "")
    assert trace_id == "4bf92f3577b34da6a3ce929d0e0e4736" and span_id != "00f067aa0ba902b7"
    assert tracing.current_ids() is None


def test_logged_nats_urls_carry_no_credentials() -> None:
    assert bus.redact_url("nats://user:secret@bus:4222") == "nats://***@bus:4222"
    assert bus.redact_url("tls://a-token@bus:4222") == "tls://***@bus:4222"
    assert bus.redact_url("nats://127.0.0.1:4222") == "nats://127.0.0.1:4222"
