"""A cluster that fails to start stops what it started: its workers would otherwise keep
taking messages from the durable consumers that every cluster on one NATS shares, and the
next cluster's campaigns would wait behind them for ever."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from services.platform.runtime.cluster import Cluster

pytestmark = pytest.mark.e2e


def test_a_service_that_exits_at_start_takes_the_others_down_with_it(
    tmp_path: Path, nats_url: str, database_url: str
) -> None:
    # two token settings at once: the resolver refuses its configuration and exits at start
    bad = {
        "PATE_GITM_ADDR": "127.0.0.1:9",
        "PATE_GITM_TOKEN": "t",
        "PATE_GITM_TOKEN_FILE": str(tmp_path / "t"),
    }
    cluster = Cluster(workdir=tmp_path, nats_url=nats_url, database_url=database_url, extra_env=bad)
    started: list[subprocess.Popen[bytes]] = []
    start = cluster.start

    def recording(service: str) -> subprocess.Popen[bytes]:
        proc = start(service)
        started.append(proc)
        return proc

    cluster.start = recording  # type: ignore[method-assign]
    with pytest.raises(RuntimeError, match="resolver service exited") as excinfo:
        cluster.start_all(timeout=60)
    assert len(started) >= 4
    assert [p.args for p in started if p.poll() is None] == []
    assert cluster.procs == {}
    # the refusal itself reaches whoever reads the failure, not only a file on this machine
    assert "PATE_GITM_TOKEN and PATE_GITM_TOKEN_FILE" in str(excinfo.value)
