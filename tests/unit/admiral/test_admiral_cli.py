"""``pate campaign simulate --bots``: the option, its files, and replay from a saved turn."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pate.cli.main import main as pate
from pate.core.orders.text import parse_orders

BASE = ["campaign", "simulate", "--scenario", "training", "--seed", "9"]


def test_a_campaign_taken_up_from_a_saved_turn_replays_byte_for_byte(tmp_path: Path) -> None:
    """Turn 3 played on from turn 1's folder (the bots reading the saved
    report JSON) is the turn 3 of the unbroken run: state, events and the
    bots' orders."""
    whole = tmp_path / "whole"
    assert pate([*BASE, "--turns", "3", "--bots", "BR,FR:cautious", "--out", str(whole)]) == 0
    again = tmp_path / "again"
    shutil.copytree(whole / "turn-1", again / "turn-1")
    assert pate(["campaign", "simulate", "--from", str(again / "turn-1"), "--bots", "BR,FR:cautious"]) == 0
    for name in ("state.json", "events.json"):
        assert (again / "turn-3" / name).read_bytes() == (whole / "turn-3" / name).read_bytes()
    for path in sorted((whole / "turn-3" / "bots").iterdir()):
        assert (again / "turn-3" / "bots" / path.name).read_text() == path.read_text()
        parse_orders(path.read_text())


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("BR:reckless", "'reckless' is not a level"),
        ("XX", "no player plays XX"),
        ("England", "is not a state code"),
    ],
)
def test_a_bad_bots_option_is_refused_saying_why(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], value: str, message: str
) -> None:
    assert pate([*BASE, "--turns", "1", "--bots", value, "--out", str(tmp_path)]) != 0
    assert message in capsys.readouterr().err
