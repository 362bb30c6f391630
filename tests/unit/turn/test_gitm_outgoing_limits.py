"""PATE never sends what its own contract refuses (docs/gitm.md "Limits"): every request PATE's
bridge makes in a headless campaign, checked against land.proto's ``buf.validate`` rules as it
leaves, before the land service sees it (the reference service would refuse it, but a refusal
there only defers a turn's transfers, so a bad request must fail here); and every answer of the
reference service, against the same rules."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import protovalidate
import pytest

from gitm.v1 import land_pb2
from pate.cli.main import main
from services.gitm_reference import inprocess

CALLS = [m.name for m in land_pb2.DESCRIPTOR.services_by_name["LandBridge"].methods]


def _said(v: Any) -> str:
    return f"{[e.field_name for e in v.proto.field.elements]} {v.proto.message}"


def _checked(monkeypatch: pytest.MonkeyPatch) -> tuple[Counter[str], list[str]]:
    """The in-process land service, each of whose calls first checks its request."""
    made: Counter[str] = Counter()
    faults: list[str] = []

    def checking(name: str) -> Any:
        base = getattr(inprocess.InProcessStub, name)

        def call(self: Any, r: Any, **kw: Any) -> Any:
            made[name] += 1
            faults.extend(f"{name}: {_said(v)}" for v in protovalidate.collect_violations(r))
            answer = base(self, r, **kw)
            # the reference service's answers keep to the same rules
            faults.extend(f"{name} answer: {_said(v)}" for v in protovalidate.collect_violations(answer))
            return answer

        return call

    stub = type("CheckingStub", (inprocess.InProcessStub,), {n: checking(n) for n in CALLS})
    monkeypatch.setattr(inprocess, "InProcessStub", stub)
    return made, faults


def _simulate(tmp: Path, scenario: str, turns: int, orders: dict[int, str], *extra: str) -> None:
    folder = tmp / "orders"
    folder.mkdir()
    for turn, text in orders.items():
        (folder / f"turn-{turn}.txt").write_text(text)
    args = ["campaign", "simulate", "--scenario", scenario, "--turns", str(turns), "--orders", str(folder)]
    assert main([*args, *extra, "--out", str(tmp / "sim"), "--no-reports", "--gitm", "reference"]) == 0


def test_every_call_of_a_grand_campaign_keeps_to_the_contract(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """grand1805, three turns, Spain and Russia played by bots: loads, the holds of every
    on-map city's question (names with spaces too: "La Coruna") and every turn's reports."""
    made, faults = _checked(monkeypatch)
    orders = {
        1: "order BR3TR\n  load units BR23IN supplies 2\norder FR3TR\n  load units FR1IN FR2IN\n",
        2: "order FR3TR\n  divide 10000\n",
    }
    _simulate(tmp_path, "grand1805", 3, orders, "--bots", "SP,RU")
    assert faults == []
    wanted = {"OpenCampaign", "UnitsNear", "ReleaseHold", "BeginTransfer", "CompleteTransfer"}
    wanted |= {"PortHolders", "ListLandEvents", "ReportSightings", "CloseCampaign"}
    assert wanted <= set(made), made


def test_a_cargo_move_keeps_to_the_contract(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Rule 2.5: a divide with a unit aboard is told by ReportCargoMoves; a laden close too."""
    made, faults = _checked(monkeypatch)
    _simulate(tmp_path, "training", 1, {1: "order FR1TR\n  divide 8000\n"})
    assert faults == []
    assert made["ReportCargoMoves"] == 1 and made["CloseCampaign"] == 1
