"""``pate gitm reconcile`` on PATE's own store: a GITM campaign created and played by the
services' code (the resolver's stage, the bridge's consumer), the reference land service over
gRPC, and the command's exit status (docs/gitm.md "Reconciliation")."""

from __future__ import annotations

from pathlib import Path

import pytest
import sqlalchemy as sa

from pate.cli.main import main
from pate.core.world.state import LandUnit
from pate.v1 import events_pb2
from services.platform import bus
from services.platform.store import tables
from services.resolver import bridge
from services.resolver.gitm import close_clients
from services.resolver.stage import handle_turn_closed
from tests.support.aio import unique
from tests.support.campaigns import close_first_turn
from tests.support.gitm_reference import LAND_TOKEN, reference_gitm


def _deliver(conn: sa.Connection, campaign: str, turn: int) -> None:
    """The bridge's consumer delivers the turn and records it as done, as its claim would."""
    resolved = events_pb2.TurnResolved(campaign_id=campaign, turn=turn).SerializeToString()
    bridge.handle_turn_resolved(conn, resolved, {})
    msg = bus.msg_id(campaign, turn, bus.TURN_RESOLVED)
    conn.execute(sa.insert(tables.processed_messages).values(consumer=bridge.DURABLE, msg_id=msg))


def test_the_command_reads_pates_store_and_fails_while_what_is_aboard_disagrees(
    engine: sa.Engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    campaign = unique()
    url = engine.url.render_as_string(hide_password=False)
    with reference_gitm(tmp_path) as land:
        monkeypatch.setenv("PATE_GITM_ADDR", land.addr)
        monkeypatch.setenv("PATE_GITM_TOKEN", LAND_TOKEN)
        close_clients()
        try:
            with engine.begin() as conn:
                close_first_turn(conn, campaign)
                _deliver(conn, campaign, 0)  # the open
                closed = events_pb2.TurnClosed(campaign_id=campaign, turn=1).SerializeToString()
                handle_turn_closed(conn, closed, {})
                _deliver(conn, campaign, 1)
            assert main(["gitm", "reconcile", campaign, "--database", url]) == 0
            out = capsys.readouterr().out
            assert "0 disagreement(s) found" in out and out.rstrip().endswith("settled")

            # GITM's game puts a unit aboard a transport PATE knows empty: no rule settles that
            land.aboard(campaign, "BR2TR", [LandUnit("BR77IN", "BR", infantry=500)])
            assert main(["gitm", "reconcile", campaign, "--repair", "--database", url]) == 1
            out = capsys.readouterr().out
            assert "aboard BR2TR: PATE nothing; GITM BR77IN [operator: R6" in out
            assert "NOT settled" in out
        finally:
            close_clients()


def test_a_naval_only_campaign_is_a_user_error(
    engine: sa.Engine, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    campaign = unique()
    monkeypatch.setenv("PATE_GITM_ADDR", "")
    with engine.begin() as conn:
        close_first_turn(conn, campaign)
    url = engine.url.render_as_string(hide_password=False)
    assert main(["gitm", "reconcile", campaign, "--addr", "127.0.0.1:1", "--database", url]) != 0
    assert "naval only" in capsys.readouterr().err
