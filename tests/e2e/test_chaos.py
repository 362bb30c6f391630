"""A short ``make chaos`` run: services and NATS nodes killed in the middle of turns,
on the 3-node cluster and (when the tests have one) PostgreSQL; every turn whole."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy.engine import make_url

from benchmarks import chaos

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


def test_a_short_chaos_run_finds_every_turn_whole(
    tmp_path: Path, postgres_session_url: str | None, capsys: pytest.CaptureFixture[str]
) -> None:
    server = "sqlite"
    if postgres_session_url is not None:
        server = make_url(postgres_session_url).set(database="postgres").render_as_string(hide_password=False)
    code = chaos.main(["--trials", "2", "--seed", "11", "--database", server, "--workdir", str(tmp_path)])
    out = capsys.readouterr().out
    assert code == 0, out
    rows = [line for line in out.splitlines() if line.strip()[:1].isdigit() and "  ok" in line]
    assert len(rows) == 2, out
    assert "2 trials: 2 whole" in out and "trials losing an accepted order: 0" in out


def test_a_broken_turn_is_reported(tmp_path: Path) -> None:
    trial = chaos.Trial(1, "c", "resolver", problems=["turn 1: 2 resolutions"])
    assert "no" in chaos.table([trial]).splitlines()[-1]
    assert "1 trials: 0 whole" in chaos.summary([trial])
