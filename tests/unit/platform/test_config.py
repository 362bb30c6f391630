"""Settings come from the environment only, with documented defaults and clear errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from services.platform.config import ConfigError, Settings, load_settings


def test_defaults(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    s = load_settings({})
    assert s == Settings(
        database_url=f"sqlite:///{tmp_path.resolve()}/var/pate.db",
        nats_url="nats://127.0.0.1:4222",
        log_level="info",
        log_format="json",
        orders_addr="127.0.0.1:50051",
        reports_addr="127.0.0.1:50054",
        resolver_addr="127.0.0.1:0",
        intel_addr="127.0.0.1:0",
        gitm_addr=None,
        deadline_poll_seconds=5.0,
        worker_batch=8,
    )


def test_values_are_read_and_normalised() -> None:
    s = load_settings(
        {
            "PATE_DATABASE_URL": "postgresql://pate@db/pate",
            "PATE_NATS_URL": "nats://bus:4222",
            "PATE_LOG_LEVEL": "DEBUG",
            "PATE_LOG_FORMAT": "console",
            "PATE_ORDERS_ADDR": "0.0.0.0:6000",
            "PATE_REPORTS_ADDR": "[::]:6001",
            "PATE_GITM_ADDR": "gitm:7000",
            "PATE_DEADLINE_POLL_SECONDS": "0.5",
            "PATE_WORKER_BATCH": "10",
            "PATE_ADMIN_TOKEN": "s3cret",
        }
    )
    assert s.admin_token == "s3cret" and "s3cret" not in repr(s)
    assert s.database_url == "postgresql://pate@db/pate"
    assert (s.log_level, s.log_format, s.gitm_addr) == ("debug", "console", "gitm:7000")
    assert (s.reports_addr, s.deadline_poll_seconds, s.worker_batch) == ("[::]:6001", 0.5, 10)


def test_settings_are_frozen() -> None:
    s = load_settings({})
    with pytest.raises(AttributeError):
        s.worker_batch = 2  # type: ignore[misc]


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("PATE_DATABASE_URL", "mysql://x/y"),
        ("PATE_NATS_URL", "127.0.0.1:4222"),
        ("PATE_LOG_LEVEL", "loud"),
        ("PATE_LOG_FORMAT", "xml"),
        ("PATE_ORDERS_ADDR", "50051"),
        ("PATE_REPORTS_ADDR", "host:port"),
        ("PATE_GITM_ADDR", "gitm"),
        ("PATE_DEADLINE_POLL_SECONDS", "soon"),
        ("PATE_DEADLINE_POLL_SECONDS", "0"),
        ("PATE_DEADLINE_POLL_SECONDS", "nan"),
        ("PATE_WORKER_BATCH", "0"),
        ("PATE_WORKER_BATCH", "1.5"),
    ],
)
def test_a_bad_value_names_its_variable(name: str, value: str) -> None:
    with pytest.raises(ConfigError, match=name):
        load_settings({name: value})
