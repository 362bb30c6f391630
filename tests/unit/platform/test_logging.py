"""One JSON object per line with service, campaign, turn and trace id from the context."""

from __future__ import annotations

import json
import logging

import pytest

from services.platform.config import load_settings
from services.platform.telemetry.logging import bind_context, configure_logging, current_trace_id, get_logger


def _lines(capfd: pytest.CaptureFixture[str]) -> list[dict[str, object]]:
    return [json.loads(line) for line in capfd.readouterr().err.splitlines() if line.startswith("{")]


def test_json_lines_carry_the_bound_context(capfd: pytest.CaptureFixture[str]) -> None:
    configure_logging("resolver", load_settings({"PATE_LOG_LEVEL": "info"}))
    log = get_logger("t")
    with bind_context(campaign="c1", turn=4, trace_id="abc", player=None):
        log.info("turn.resolved", ships=3)
        with bind_context(turn=5):
            log.info("inner")
        assert current_trace_id() == "abc"
    log.info("outside")
    logging.getLogger("alembic").warning("from the standard library")
    log.debug("hidden")
    first, inner, outside, stdlib = _lines(capfd)
    assert first["event"] == "turn.resolved"
    assert {k: first[k] for k in ("service", "campaign", "turn", "trace_id", "ships", "level")} == {
        "service": "resolver",
        "campaign": "c1",
        "turn": 4,
        "trace_id": "abc",
        "ships": 3,
        "level": "info",
    }
    assert "player" not in first
    assert inner["turn"] == 5
    assert "campaign" not in outside and current_trace_id() is None
    assert stdlib["service"] == "resolver" and stdlib["level"] == "warning"


def test_lines_inside_a_span_carry_its_trace_and_span_ids(capfd: pytest.CaptureFixture[str]) -> None:
    from services.platform.telemetry import tracing

    configure_logging("intel", load_settings({"PATE_LOG_LEVEL": "info"}))
    tracing.configure_tracing("intel")
    with tracing.span("stage") as current:
        get_logger("t").info("inside")
        ctx = current.get_span_context()
    (line,) = _lines(capfd)
    assert (line["trace_id"], line["span_id"]) == (f"{ctx.trace_id:032x}", f"{ctx.span_id:016x}")
