"""`pate gitm check`: the gitm.v1 conformance suite passes against the reference land service and
fails, with the right rows, against the same service told to misbehave (docs/gitm.md)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from pate.cli.main import main
from pate.gitmkit import supplies as gitm_supplies
from pate.gitmkit.check import NAMES, run_suite
from tests.support.gitm_reference import reference_gitm, reference_process

ALL_PASSED = f"{len(NAMES)} of {len(NAMES)} checks passed"
SUPPLY_ROWS = set(gitm_supplies.NAMES)


def _failed(addr: str, campaign: str, port: str = "Portsmouth") -> set[str]:
    rows = run_suite(addr, campaign, port, timeout=5)
    assert [r.name for r in rows] == list(NAMES)
    return {r.name for r in rows if not r.passed}


def test_the_suite_passes_against_the_reference_service(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with reference_gitm(tmp_path, scenario="training") as ref:
        assert main(["gitm", "check", "--addr", ref.addr, "--campaign", "conf1"]) == 0
        places = ref.places("conf1")
        snap = ref.snapshot("conf1")
    out = capsys.readouterr().out
    assert ALL_PASSED in out and "FAIL" not in out
    assert "10 free supplies in Portsmouth" in out  # the training scenario's, measured by probing
    assert places["BR5IN"] == "lost"  # the suite's unit, lost once by its last check
    # the supplies as the service's own books have them: 2 of Portsmouth's 10 lost, nothing
    # left aboard the suite's transports, every probing load cancelled
    stocks = {s.city or s.transport_id: s.supplies for s in snap.supplies}
    assert (stocks["Portsmouth"], stocks["CHECK1TR"], stocks["CHECK1TRS"], snap.supplies_lost) == (8, 0, 0, 2)


@pytest.mark.parametrize(
    ("faults", "failing"),
    [
        ({"forget": True}, {"idempotent begin", "cancellation", "concurrent duplicates", "cargo moves"}),
        (
            {"no_refusals": True},
            # and a lost unit landed again
            {
                "refusal: a unit of another state",
                "refusal: not in that city",
                "refusal: already embarked",
                "cargo loss",
            }
            | SUPPLY_ROWS,  # no load of supplies refused: the stock cannot be measured
        ),
        ({"ignore_sightings": True}, {"sightings delivery"}),
        (
            {"lose_supplies": True},  # a completed transfer's supplies vanish on the way
            {
                "supplies: loaded, moved and landed",
                "supplies: lost with a transport",
                "supplies conservation",
            },
        ),
        ({"down_calls": 10_000}, set(NAMES)),
    ],
)
def test_the_suite_fails_the_right_rows_against_a_broken_service(
    tmp_path: Path, faults: dict[str, object], failing: set[str]
) -> None:
    with reference_gitm(tmp_path, scenario="training") as ref:
        ref.faults(**faults)
        failed = _failed(ref.addr, "broken")
    assert failing <= failed
    if faults.get("no_refusals") or faults.get("ignore_sightings") or faults.get("lose_supplies"):
        assert failed == failing  # a fault shows where it is, not everywhere


def test_a_city_without_supplies_fails_the_supply_rows_and_says_why(tmp_path: Path) -> None:
    """Brest (training scenario) has a unit but no supplies: the unit rows pass, the supply rows
    cannot run, and the table says so rather than passing them."""
    with reference_gitm(tmp_path, scenario="training") as ref:
        rows = run_suite(ref.addr, "dry", "Brest", timeout=5)
    failed = {r.name: r.detail for r in rows if not r.passed}
    assert set(failed) == SUPPLY_ROWS
    assert "no free supplies in Brest" in failed["supplies: the city's free stock"]
    assert failed["supplies conservation"].startswith("not run")


def test_the_exit_status_is_1_when_a_check_fails(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with reference_gitm(tmp_path, scenario="training") as ref:
        ref.faults(ignore_sightings=True)
        assert main(["gitm", "check", "--addr", ref.addr]) == 1
    assert re.search(r"^sightings delivery +FAIL ", capsys.readouterr().out, re.M)


def test_the_suite_against_the_reference_service_as_its_own_process(tmp_path: Path) -> None:
    with reference_process(tmp_path, scenario="training") as ref:
        done = subprocess.run(
            [sys.executable, "-m", "pate.cli.main", "gitm", "check", "--addr", ref.addr],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
    assert done.returncode == 0, done.stdout + done.stderr
    assert ALL_PASSED in done.stdout


def test_a_bad_address_is_a_user_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["gitm", "check", "--addr", "nowhere"]) == 2
    assert "expected HOST:PORT" in capsys.readouterr().err
