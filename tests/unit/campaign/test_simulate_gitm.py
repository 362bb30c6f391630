"""`pate campaign simulate --gitm reference`: a headless landing with the reference GITM land
model in process, through the same bridge code the services run (docs/gitm.md)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pate.cli.main import main


def test_a_headless_landing_is_told_to_the_reference_land_model(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    orders = tmp_path / "orders"
    orders.mkdir()
    (orders / "turn-1.txt").write_text("order BR1TR\n  unload units BR1IN\n  load units BR5IN supplies 4\n")
    out = tmp_path / "sim"
    args = ["campaign", "simulate", "--scenario", "training", "--turns", "2", "--orders", str(orders)]
    assert main([*args, "--out", str(out), "--no-reports", "--gitm", "reference"]) == 0
    events = json.loads((out / "turn-1" / "events.json").read_text())
    done = [(e["data"]["direction"], e["data"]["units"]) for e in events if e["kind"] == "transfer_completed"]
    assert done == [("unload", ["BR1IN"]), ("load", ["BR5IN"])]
    state = json.loads((out / "turn-2" / "state.json").read_text())
    assert "BR1IN" in state["ports"]["Portsmouth"]["garrison"]  # and GITM's report of turn 2 agrees
    printed = capsys.readouterr().out
    # BR5IN, aboard BR1TR in Portsmouth when the campaign closes, is landed there by the close
    # (docs/gitm.md A24: CloseCampaign names the laden transports and where they lie)
    assert (
        "GITM (reference land model, campaign simulated): BR1IN in Portsmouth, BR5IN in Portsmouth" in printed
    )


def test_a_divide_that_moves_a_unit_across_is_told_to_the_reference_land_model(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Rule 2.5: Decrès divides FR1TR (12,000, FR2IN aboard, space 5,000) leaving 4,000;
    FR2IN goes across to FR2TR, and the land model, told by ReportCargoMoves, agrees: the close
    lands FR2TR's cargo in Boulogne (A24), which it does only for what it holds aboard FR2TR."""
    orders = tmp_path / "orders"
    orders.mkdir()
    (orders / "turn-1.txt").write_text("order FR1TR\n  divide 8000\n")
    out = tmp_path / "sim"
    args = ["campaign", "simulate", "--scenario", "training", "--turns", "1", "--orders", str(orders)]
    assert main([*args, "--out", str(out), "--no-reports", "--gitm", "reference"]) == 0
    state = json.loads((out / "turn-1" / "state.json").read_text())
    assert state["ships"]["FR2TR"]["cargo"]["units"] == ["FR2IN"]
    assert "FR2IN in Boulogne" in capsys.readouterr().out


def test_a_headless_landing_against_a_land_service_over_grpc(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """--gitm HOST:PORT: the same landing against the reference service as a server, which PATE
    opens the campaign in, tells each turn and closes the campaign in after the last."""
    from tests.support.gitm_reference import LAND_TOKEN, reference_gitm

    orders = tmp_path / "orders"
    orders.mkdir()
    (orders / "turn-1.txt").write_text("order BR1TR\n  unload units BR1IN\n")
    out = tmp_path / "sim"
    monkeypatch.setenv("PATE_GITM_TOKEN", LAND_TOKEN)
    with reference_gitm(tmp_path) as ref:
        args = ["campaign", "simulate", "--scenario", "training", "--turns", "2", "--orders", str(orders)]
        assert main([*args, "--out", str(out), "--no-reports", "--gitm", ref.addr]) == 0
        printed = capsys.readouterr().out
        campaign = printed.rsplit("campaign ", 1)[1].split(")")[0]
        places = ref.places(campaign)
    assert places["BR1IN"] == "city:Portsmouth"
    state = json.loads((out / "turn-2" / "state.json").read_text())
    assert "BR1IN" in state["ports"]["Portsmouth"]["garrison"]
    assert f"land service at {ref.addr}, campaign simulated-" in printed


def test_a_bad_land_address_is_a_user_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["campaign", "simulate", "--scenario", "training", "--turns", "1", "--out", str(tmp_path)]
    assert main([*args, "--gitm", "nowhere"]) == 2
    assert "expected none, reference or HOST:PORT" in capsys.readouterr().err
