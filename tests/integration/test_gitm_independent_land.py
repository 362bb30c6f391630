"""A second, independent land service (`examples/gitm_land`, written from docs/gitm.md and the
proto alone) keeps every obligation of `pate gitm check`, across real restarts of its process, and
plays a headless campaign with a landing (`pate campaign simulate --gitm HOST:PORT`): evidence
that the document, not PATE's reference service, is what a land team needs."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest

from gitm.v1 import land_pb2, land_pb2_grpc
from pate.cli.gitm import restarter
from pate.cli.main import main
from pate.gitmkit.check import NAMES, passed, run_suite

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "independent-land-token"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _command(tmp: Path, addr: str, verb: str) -> list[str]:
    return [
        sys.executable, "-m", "examples.gitm_land", verb, "--addr", addr, "--db", str(tmp / "land.db"),
        "--pidfile", str(tmp / "land.pid"), "--log", str(tmp / "land.log"),
    ]  # fmt: skip


@pytest.fixture
def land(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """The independent service as its own process, with PATE's caller token."""
    monkeypatch.setenv("PATE_GITM_TOKEN", TOKEN)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    addr = f"127.0.0.1:{_free_port()}"
    subprocess.run(_command(tmp_path, addr, "start"), cwd=ROOT, env=env, check=True, timeout=60)
    with grpc.insecure_channel(addr) as channel:
        grpc.channel_ready_future(channel).result(timeout=60)
    monkeypatch.setenv("PYTHONPATH", str(ROOT))  # for the restart command the kit runs
    try:
        yield addr
    finally:
        subprocess.run(_command(tmp_path, addr, "stop"), cwd=ROOT, env=env, check=False, timeout=60)


def test_the_kit_passes_against_the_independent_land_service(land: str, tmp_path: Path) -> None:
    restart = restarter(" ".join(_command(tmp_path, land, "restart")), land)
    rows = run_suite(land, "independent", "Portsmouth", token=TOKEN, restart=restart)
    assert passed(rows), [(r.name, r.detail) for r in rows if not r.passed]
    # L16 across two real restarts, L23 with the token; the service is of edition 3, so the rows of
    # edition 4's calls (L26, L27) and holds (L28) are skipped, as the kit skips them for any service
    # not listing them, and so are edition 4's error details and refusal codes (L29-L31) and its
    # fields (L32, L33); L21 reads the field from the status message, as for any service before
    # edition 4
    assert sorted(r.obligation for r in rows if r.skipped) == [
        "L26",
        "L27",
        "L28",
        "L29",
        "L30",
        "L31",
        "L32",
        "L33",
    ]
    assert len(rows) == len(NAMES)


def test_a_headless_landing_against_the_independent_land_service(
    land: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    orders = tmp_path / "orders"
    orders.mkdir()
    (orders / "turn-1.txt").write_text("order BR1TR\n  unload units BR1IN\n  load units BR5IN supplies 4\n")
    out = tmp_path / "sim"
    args = ["campaign", "simulate", "--scenario", "training", "--turns", "2", "--orders", str(orders)]
    assert main([*args, "--out", str(out), "--no-reports", "--gitm", land]) == 0
    printed = capsys.readouterr().out
    assert f"land service at {land}, campaign simulated-" in printed
    assert "calls answered" in printed and "refused" not in printed
    campaign = printed.rsplit("campaign ", 1)[1].split(")")[0]
    with grpc.insecure_channel(land) as channel:
        near = land_pb2_grpc.LandBridgeStub(channel).UnitsNear(
            land_pb2.UnitsNearRequest(campaign_id=campaign, turn=3, port="Portsmouth"),
            metadata=[("x-pate-gitm-token", TOKEN)],
            timeout=10,
        )
    state = json.loads((out / "turn-2" / "state.json").read_text())
    portsmouth = state["ports"]["Portsmouth"]
    assert {u.id for u in near.units if u.tactical_square} == set(portsmouth["garrison"]) == {"BR1IN"}
    assert near.supplies == portsmouth["supplies"] == 6  # the quay agrees: 10 less the 4 loaded
    assert not json.loads((out / "turn-1" / "refusals.json").read_text())
