"""A Transport and an Invasion of GITM corps under the EiA new naval rules,
headless through `pate campaign simulate --gitm reference`: the reference
GITM land model in process behind the same bridge code the resolver runs
(docs/gitm.md), so the corps land exactly once as PATE's own landings do."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pate.cli.main import main


def test_example_a_transport_and_an_invasion_land_their_corps_through_gitm(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Training: BR1TR carries BR1IN from Portsmouth to Plymouth (Transport,
    a friendly port two steps off); FR1TR carries FR2IN from Boulogne to the
    sea zone of Portsmouth and lands it there (Invasion).  The land model
    agrees where both are."""
    orders = tmp_path / "orders"
    orders.mkdir()
    (orders / "turn-1.txt").write_text(
        "order BR1TR\n  operation transport BR1IN to Plymouth\n"
        "order FR1TR\n  operation invasion FR2IN to Portsmouth\n"
    )
    out = tmp_path / "sim"
    args = ["campaign", "simulate", "--scenario", "training", "--turns", "2", "--orders", str(orders)]
    assert (
        main(
            [
                *args,
                "--naval-rules",
                "eia-operations",
                "--out",
                str(out),
                "--no-reports",
                "--gitm",
                "reference",
            ]
        )
        == 0
    )
    events = json.loads((out / "turn-1" / "events.json").read_text())
    revealed = [e["data"]["operation"] for e in events if e["kind"] == "operation_revealed"]
    assert revealed == ["invasion", "transport"]  # France declares before Britain
    done = [
        (e["data"]["port"], e["data"]["units"], e["data"]["cancelled"])
        for e in events
        if e["kind"] == "transfer_completed"
    ]
    assert done == [("Portsmouth", ["FR2IN"], False), ("Plymouth", ["BR1IN"], False)]
    state = json.loads((out / "turn-2" / "state.json").read_text())
    assert state["ships"]["BR1TR"]["location"] == {"kind": "InPort", "port": "Plymouth", "harbor": True}
    assert state["ships"]["FR1TR"]["location"] == {"kind": "InPort", "port": "Portsmouth", "harbor": False}
    assert "BR1IN" in state["ports"]["Plymouth"]["garrison"]
    told = capsys.readouterr().out
    assert "BR1IN in Plymouth" in told and "FR2IN in Portsmouth" in told
