"""`pate gitm check`: the gitm.v1 conformance suite passes against the reference land service and
fails, with the right rows, against the same service told to misbehave (docs/gitm.md)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from pate.cli.main import main
from pate.tools.gitm_check import NAMES, run_suite
from tests.support.gitm_reference import reference_gitm, reference_process


def _failed(addr: str, campaign: str) -> set[str]:
    rows = run_suite(addr, campaign, "Portsmouth", timeout=5)
    assert [r.name for r in rows] == list(NAMES)
    return {r.name for r in rows if not r.passed}


def test_the_suite_passes_against_the_reference_service(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with reference_gitm(tmp_path, scenario="training") as ref:
        assert main(["gitm", "check", "--addr", ref.addr, "--campaign", "conf1"]) == 0
        places = ref.places("conf1")
    out = capsys.readouterr().out
    assert "13 of 13 checks passed" in out and "FAIL" not in out
    assert places["BR5IN"] == "lost"  # the suite's unit, lost once by its last check


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
            },
        ),
        ({"ignore_sightings": True}, {"sightings delivery"}),
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
    if faults.get("no_refusals") or faults.get("ignore_sightings"):
        assert failed == failing  # a fault shows where it is, not everywhere


def test_the_exit_status_is_1_when_a_check_fails(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with reference_gitm(tmp_path, scenario="training") as ref:
        ref.faults(ignore_sightings=True)
        assert main(["gitm", "check", "--addr", ref.addr]) == 1
    assert "sightings delivery                FAIL" in capsys.readouterr().out


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
    assert "13 of 13 checks passed" in done.stdout


def test_a_bad_address_is_a_user_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["gitm", "check", "--addr", "nowhere"]) == 2
    assert "expected HOST:PORT" in capsys.readouterr().err
