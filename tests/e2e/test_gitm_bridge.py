"""The resolver asks the reference GITM land service, as its own process (`pate serve
gitm-reference`), for the units in its ports once per turn, stores the answer with the turn's
inputs, and a replay reproduces the turn without asking again; the bridge tells it the turn's
sightings (rule 5.3)."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from pate.core.world.state import LandUnit
from pate.v1 import orders_pb2
from services.platform.runtime.cluster import Cluster
from services.platform.store import tables
from services.platform.store.db import make_engine
from tests.e2e.flow import Client
from tests.support.gitm_reference import LAND_TOKEN, Reference, reference_process

pytestmark = pytest.mark.e2e

GUARDS = LandUnit("BR7IN", "BR", infantry=2400)


def _told(ref: Reference, campaign: str, reports: int) -> None:
    deadline = time.monotonic() + 30
    while ref.snapshot(campaign).sighting_reports < reports:
        assert time.monotonic() < deadline, f"{campaign}: GITM never got {reports} sighting reports"
        time.sleep(0.2)


def test_land_reports_are_inputs_of_the_turn(tmp_path: Path, nats_url: str, database_url: str) -> None:
    with reference_process(tmp_path) as ref:
        cluster = Cluster(
            workdir=tmp_path,
            nats_url=nats_url,
            database_url=database_url,
            extra_env={"PATE_GITM_ADDR": ref.addr, "PATE_GITM_TOKEN": LAND_TOKEN},
        )
        client = None
        try:
            cluster.start_all()
            client = Client(cluster)
            client.create("e2e-gitm")
            client.wait_open("e2e-gitm", 1)
            _told(ref, "e2e-gitm", 1)  # turn 0: OpenCampaign with the scenario's land, then sightings
            ref.station("e2e-gitm", "Portsmouth", [GUARDS])  # the land side's own move since
            client.close_turn("e2e-gitm", 1)
            client.wait_open("e2e-gitm", 2)
            _told(ref, "e2e-gitm", 2)  # the bridge runs after the commit
        finally:
            if client is not None:
                client.close()
            cluster.stop()

    stored, after = _resolution_and_next_world(database_url)
    ports = {r["port"]: r for r in stored["land_reports"]}
    assert "Portsmouth" in ports
    assert "BR7IN" in after["ports"]["Portsmouth"]["garrison"]  # GITM's answer was applied
    assert after["land_units"]["BR7IN"]["infantry"] == 2400

    # GITM is gone now: the replay uses the stored answer.
    replay = _replay_turn_1(database_url)
    assert replay.returncode == 0, replay.stdout + replay.stderr
    assert "identical" in replay.stdout


def _resolution_and_next_world(database_url: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The stored resolution of turn 1 and the world of turn 2, as JSON."""
    engine = make_engine(database_url)
    try:
        with engine.connect() as conn:
            res = tables.metadata.tables["resolutions"]
            stored = json.loads(conn.execute(select(res.c.orders_json)).scalar_one())
            states = tables.metadata.tables["world_states"]
            after = json.loads(
                conn.execute(select(states.c.state_json).where(states.c.turn == 2)).scalar_one()
            )
    finally:
        engine.dispose()
    return stored, after


def _replay_turn_1(database_url: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "pate.cli.main",
            "turn",
            "replay",
            "e2e-gitm",
            "1",
            "--database",
            database_url,
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_gitm_down_the_turn_resolves_on_time_and_the_landing_is_deferred(
    tmp_path: Path, nats_url: str, database_url: str
) -> None:
    """The reference service answers UNAVAILABLE to everything (PATE_GITM_FAULTS): the turn still
    resolves, Lord Barham's landing is refused as deferred in his report, nothing moves in GITM."""
    with reference_process(tmp_path, scenario="training", faults="down_calls=1000000") as ref:
        cluster = Cluster(
            workdir=tmp_path,
            nats_url=nats_url,
            database_url=database_url,
            extra_env={"PATE_GITM_ADDR": ref.addr, "PATE_GITM_TOKEN": LAND_TOKEN},
        )
        client = None
        try:
            cluster.start_all()
            client = Client(cluster)
            client.create("e2e-down")
            client.wait_open("e2e-down", 1)
            md = client.player_md("e2e-down", "barham")
            client.desk.SubmitOrders(
                orders_pb2.SubmitOrdersRequest(
                    campaign_id="e2e-down",
                    turn=1,
                    orders_text="order BR1TR\n  unload units BR1IN\n",
                    client_request_id="e2e-down-1",
                ),
                metadata=md,
                timeout=30,
            )
            client.close_turn("e2e-down", 1)
            client.wait_open("e2e-down", 2)  # resolved without GITM: its calls gave up, the turn went on
            text = client.report("e2e-down", 1, "barham", fmt="text").body
            ref.faults()  # GITM is back
            _told(ref, "e2e-down", 2)  # the bridge's retries get through: turn 0, then turn 1
            places = ref.places("e2e-down")
        finally:
            if client is not None:
                client.close()
            cluster.stop()
    assert "has not answered in time" in text
    assert places["BR1IN"] == "aboard:BR1TR"  # nothing moved on either side
