"""Reports under the EiA new naval rules, as a player reads them (text): each
player's event report tells what his fleets declared and what they met; his
naval minister reads the account and the state's trade routes; nobody learns
of a declared operation his ships did not detect."""

from __future__ import annotations

from pathlib import Path

from pate.cli.main import main


def test_example_declarations_are_told_to_their_side_only(tmp_path: Path) -> None:
    orders = tmp_path / "orders"
    orders.mkdir()
    (orders / "turn-1.txt").write_text(
        "order BR1TR\n  operation transport BR1IN to Plymouth\n"
        "order FR1TR\n  operation invasion FR2IN to Portsmouth\n"
    )
    out = tmp_path / "sim"
    args = ["campaign", "simulate", "--scenario", "training", "--turns", "1", "--orders", str(orders)]
    assert main([*args, "--naval-rules", "eia-operations", "--out", str(out)]) == 0
    reports = out / "turn-1" / "reports"
    british = (reports / "barham.txt").read_text()  # Britain's naval minister
    french = (reports / "decres.txt").read_text()  # France's
    assert "BR1TR Portsmouth transports declared Transport of BR1IN to Plymouth" in british
    assert "declared Invasion of FR2IN to Portsmouth" in french
    assert "declared Invasion" not in british and "declared Transport" not in french
    assert "Account: 60 trade ships sailed" in british and "Trade route from" in british
    assert "60 trade ships" not in french  # the British account is Britain's
