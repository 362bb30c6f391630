"""The operators' commands beside the kit (docs/gitm.md "Export and audit", A5, A19, A23), on
PATE's own store with a GITM campaign played by the services' code and the reference land
service over gRPC: ``pate gitm end`` closes the campaign in GITM through the bridge's event,
``pate gitm export`` prints PATE's side, ``pate gitm audit`` PATE's rows about GITM."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import sqlalchemy as sa

from pate.cli.main import main
from pate.gitmkit.contract_data import data_digest
from pate.v1 import events_pb2
from services.platform.bus.consumer import TransientError
from services.platform.store import repository as repo
from services.platform.store import tables
from services.platform.store.writes import record_audit
from services.resolver import gitm_end
from services.resolver.gitm import GitmClient
from services.resolver.stage import handle_turn_closed
from tests.support.aio import unique
from tests.support.campaigns import close_first_turn
from tests.support.gitm_reference import LAND_TOKEN
from tests.support.gitm_turns import bridged_reference, played_to_turn_2


def _ended_event(conn: sa.Connection, campaign: str) -> bytes:
    o = tables.outbox.c
    rows = conn.execute(
        sa.select(o.subject, o.msg_id, o.payload).where(o.subject == f"pate.gitm_ended.{campaign}")
    ).all()
    assert [(r.subject, r.msg_id) for r in rows] == [
        (f"pate.gitm_ended.{campaign}", f"{campaign}:1:gitm_ended")
    ]
    return bytes(rows[0].payload)


def test_an_operator_ends_a_gitm_campaign_and_the_bridge_closes_it_in_gitm(
    engine: sa.Engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    campaign = unique()
    url = engine.url.render_as_string(hide_password=False)
    with bridged_reference(tmp_path, monkeypatch) as land:
        with engine.begin() as conn:
            played_to_turn_2(conn, campaign)
        assert main(["gitm", "end", campaign, "--turn", "2", "--database", url]) != 0
        assert "--turn 1 once turn 2 is OPEN" in capsys.readouterr().err
        for said in ("ended after turn 1", "already ended after turn 1"):
            assert main(["gitm", "end", campaign, "--turn", "1", "--database", url]) == 0
            assert said in capsys.readouterr().out
        with engine.begin() as conn:
            row = repo.get_campaign(conn, campaign)
            assert row is not None and (row.status, row.turns) == ("FINISHED", 3)
            payload = _ended_event(conn, campaign)  # once, however often the command ran
            for _ in range(2):  # a redelivery is a repeat: GITM answers duplicate
                gitm_end.handle_campaign_ended(conn, payload, {})
        client = GitmClient(land.addr, token=LAND_TOKEN)
        try:
            snap = client.land_snapshot(campaign)
        finally:
            client.close()
        assert snap.closed and snap.pate_turn == 1


def test_the_end_waits_for_the_last_turns_calls(engine: sa.Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    campaign = unique()
    monkeypatch.setenv("PATE_GITM_ADDR", "127.0.0.1:1")
    with engine.begin() as conn:
        close_first_turn(conn, campaign)
        handle_turn_closed(conn, events_pb2.TurnClosed(campaign_id=campaign, turn=1).SerializeToString(), {})
        row = repo.get_campaign(conn, campaign)
        assert row is not None and repo.set_status(
            conn, campaign, turn=1, expect=(row.status,), status="OPEN", new_turn=2
        )
        gitm_end.end_campaign(conn, campaign, 1)
        with pytest.raises(TransientError):
            gitm_end.handle_campaign_ended(conn, _ended_event(conn, campaign), {})
        # the players are told it is over, as at a last turn: the notifier's event is queued
        o = tables.outbox.c
        told = conn.execute(sa.select(o.subject).where(o.msg_id == f"{campaign}:1:finished")).scalar()
        assert told == f"pate.campaign_events.{campaign}"


def test_export_prints_pates_side_and_audit_its_rows_about_gitm(
    engine: sa.Engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    campaign = unique()
    url = engine.url.render_as_string(hide_password=False)
    with bridged_reference(tmp_path, monkeypatch), engine.begin() as conn:
        played_to_turn_2(conn, campaign)
        record_audit(conn, action="gitm_call_refused", accepted=False, campaign=campaign, turn=1,
                     detail={"call": "ReportCargoLoss", "reason": "NOT_FOUND: x"})  # fmt: skip
        record_audit(conn, action="poison_message", accepted=False, campaign=campaign, turn=1,
                     detail={"consumer": "intel", "error": "not GITM's"})  # fmt: skip
        record_audit(conn, action="gitm_call_skipped", accepted=False, campaign=campaign, turn=0,
                     detail={"call": "OpenCampaign"})  # fmt: skip
    capsys.readouterr()  # the services' logs so far
    assert main(["gitm", "export", campaign, "--database", url]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert (doc["format"], doc["version"], doc["campaign"], doc["turn"]) == (
        "pate-gitm-export",
        1,
        campaign,
        1,
    )
    assert doc["data_digest"] == data_digest() and doc["delivered_turns"] == [0, 1]
    assert {c["city"] for c in doc["cities"]} >= {"Portsmouth"}
    portsmouth = next(c for c in doc["cities"] if c["city"] == "Portsmouth")
    assert set(portsmouth) == {"city", "holder", "garrison", "strategic", "supplies"}
    assert all(set(t) == {"id", "state", "city", "units", "supplies"} for t in doc["transports"])
    assert main(["gitm", "audit", campaign, "--since-turn", "1", "--database", url]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [(x["action"], x["turn"]) for x in lines] == [("gitm_call_refused", 1)]
    assert main(["gitm", "audit", campaign, "--database", url]) == 0
    actions = [json.loads(x)["action"] for x in capsys.readouterr().out.splitlines()]
    assert actions == ["gitm_call_refused", "gitm_call_skipped"]
