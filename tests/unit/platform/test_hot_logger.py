"""The access line's logger binds once, yet writes what structlog's own logger writes and
follows every configure_logging call (level, format) and a swapped sys.stderr."""

from __future__ import annotations

import io
import json
import sys

import pytest

from services.platform.config import load_settings
from services.platform.telemetry.logging import HotLogger, bind_context, configure_logging, get_logger


def _lines(capfd: pytest.CaptureFixture[str]) -> list[dict[str, object]]:
    return [json.loads(line) for line in capfd.readouterr().err.splitlines() if line.startswith("{")]


def test_the_hot_logger_writes_the_lines_structlog_writes(capfd: pytest.CaptureFixture[str]) -> None:
    configure_logging("orders", load_settings({"PATE_LOG_LEVEL": "info"}))
    hot, plain = HotLogger("access"), get_logger("access")
    with bind_context(campaign="c1"):
        hot.info("grpc.call", method="/m", status="OK", ms=1.5)
        plain.info("grpc.call", method="/m", status="OK", ms=1.5)
    mine, theirs = _lines(capfd)
    assert mine.pop("timestamp") and theirs.pop("timestamp")
    assert mine == theirs and mine["logger"] == "access" and mine["campaign"] == "c1"


def test_the_hot_logger_follows_a_new_configuration_and_stream(capfd: pytest.CaptureFixture[str]) -> None:
    configure_logging("orders", load_settings({"PATE_LOG_LEVEL": "info"}))
    hot = HotLogger("access")
    hot.info("seen")
    configure_logging("orders", load_settings({"PATE_LOG_LEVEL": "error"}))
    hot.info("hidden")
    hot.error("shown")
    assert [line["event"] for line in _lines(capfd)] == ["seen", "shown"]
    swapped, saved = io.StringIO(), sys.stderr
    sys.stderr = swapped
    try:
        hot.error("to the new stream")
    finally:
        sys.stderr = saved
        configure_logging("orders", load_settings({"PATE_LOG_LEVEL": "info"}))
    assert json.loads(swapped.getvalue())["event"] == "to the new stream"
