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
from services.resolver.stage import handle_turn_closed
from tests.support.aio import unique
from tests.support.campaigns import close_first_turn
from tests.support.gitm_turns import bridged_reference, deliver


def test_the_command_reads_pates_store_and_fails_while_what_is_aboard_disagrees(
    engine: sa.Engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    campaign = unique()
    url = engine.url.render_as_string(hide_password=False)
    with bridged_reference(tmp_path, monkeypatch) as land:
        with engine.begin() as conn:
            close_first_turn(conn, campaign)
            deliver(conn, campaign, 0)  # the open
            closed = events_pb2.TurnClosed(campaign_id=campaign, turn=1).SerializeToString()
            handle_turn_closed(conn, closed, {})
            deliver(conn, campaign, 1)
        assert main(["gitm", "reconcile", campaign, "--database", url]) == 0
        out = capsys.readouterr().out
        assert "0 disagreement(s) found" in out and out.rstrip().endswith("settled")

        # GITM's game puts a unit aboard a transport PATE knows empty: no rule settles that
        land.aboard(campaign, "BR2TR", [LandUnit("BR77IN", "BR", infantry=500)])
        assert main(["gitm", "reconcile", campaign, "--repair", "--database", url]) == 1
        out = capsys.readouterr().out
        assert "aboard BR2TR: PATE nothing; GITM BR77IN [operator: R6" in out
        assert "NOT settled" in out


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
