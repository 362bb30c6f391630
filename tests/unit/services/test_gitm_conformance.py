"""`pate gitm check`: the gitm.v1 conformance suite passes against the reference land service and
catches every broken variant of it by the row of the obligation it breaks (docs/gitm.md
"Obligations"), with the service in another process, over gRPC."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from pate.cli.main import main
from pate.gitmkit.check import NAMES, passed, run_suite
from pate.gitmkit.obligations import OBLIGATIONS
from services.gitm_reference.mutants import MUTANTS
from tests.support.gitm_reference import LAND_TOKEN, reference_gitm, reference_process

ALL_KEPT = f"{len(NAMES)} of {len(NAMES)} obligations checked and kept"


def test_every_obligation_has_a_mutant_and_a_row() -> None:
    assert sorted({ob for ob, _ in MUTANTS.values()}) == sorted(OBLIGATIONS)
    assert sorted(n.split()[0] for n in NAMES) == sorted(OBLIGATIONS)


def test_the_kit_catches_every_mutant_by_the_row_of_its_obligation(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The mutation test: one reference service as its own process, switched to each broken variant
    in turn (services/gitm_reference/mutants.py); the unbroken service keeps every obligation."""
    caught, missed = [], []
    with reference_process(tmp_path) as ref:
        rows = run_suite(ref.addr, "unbroken", "Portsmouth", token=LAND_TOKEN, restart=ref.reopen)
        assert passed(rows) and not any(r.skipped for r in rows), [r for r in rows if not r.passed]
        for i, (mutant, (obligation, _)) in enumerate(MUTANTS.items()):
            ref.faults(mutant=mutant)
            rows = run_suite(ref.addr, f"mutant-{i}", "Portsmouth", token=LAND_TOKEN, restart=ref.reopen)
            failed = {r.obligation: r.detail for r in rows if not r.passed}
            (caught if obligation in failed else missed).append(f"{mutant} ({obligation})")
        ref.faults()
    with capsys.disabled():
        print(
            f"\nmutation score: {len(caught)} caught of {len(MUTANTS)} mutants, "
            f"{len({MUTANTS[m.split()[0]][0] for m in caught})} of {len(OBLIGATIONS)} obligations"
        )
    assert missed == []


def test_durability_across_a_real_restart_of_the_process(tmp_path: Path) -> None:
    """L16 with the process stopped and started again between two calls with the same ids; the
    service that keeps its answers only in memory is caught."""
    with reference_process(tmp_path) as ref:
        assert ref.restart is not None
        rows = run_suite(ref.addr, "restarted", "Portsmouth", token=LAND_TOKEN, restart=ref.restart)
        assert passed(rows), [r for r in rows if not r.passed]
    forgetful = tmp_path / "volatile"
    forgetful.mkdir()
    with reference_process(forgetful, faults="mutant=volatile") as ref:
        assert ref.restart is not None
        rows = run_suite(ref.addr, "forgetful", "Portsmouth", token=LAND_TOKEN, restart=ref.restart)
    failed = {r.obligation for r in rows if not r.passed}
    assert "L16" in failed


def test_the_command_passes_against_the_reference_service(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with reference_gitm(tmp_path) as ref:
        assert main(["gitm", "check", "--addr", ref.addr, "--campaign", "conf1", "--token", LAND_TOKEN]) == 0
        places = ref.places("conf1")
        snap = ref.snapshot("conf1")
    out = capsys.readouterr().out
    assert f"{len(NAMES) - 1} of {len(NAMES)} obligations checked and kept, 1 skipped" in out
    assert re.search(r"^L16 .* skip +skipped: give --restart-command", out, re.M)
    assert not re.search(r"  FAIL  ", out)
    assert places["BR94IN"] == "captured:FR"  # the suite's cargo, taken by its loss row
    stocks = {s.city or s.transport_id: s.supplies for s in snap.supplies}
    assert (stocks["Portsmouth"], stocks["CHECK1TR"], stocks["CHECK2TR"], snap.supplies_lost) == (10, 0, 0, 3)


def test_the_exit_status_is_1_when_an_obligation_is_broken(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with reference_gitm(tmp_path) as ref:
        ref.faults(ignore_sightings=True)
        assert main(["gitm", "check", "--addr", ref.addr, "--token", LAND_TOKEN]) == 1
    assert re.search(r"^L17 sightings .* FAIL ", capsys.readouterr().out, re.M)


def test_without_the_token_every_row_names_the_refusal(tmp_path: Path) -> None:
    with reference_gitm(tmp_path) as ref:
        rows = run_suite(ref.addr, "no-token", "Portsmouth")
    by = {r.obligation: r for r in rows}
    assert by["L23"].skipped and by["L24"].passed
    assert "UNAUTHENTICATED" in by["L1"].detail and by["L3"].detail.startswith("not run")


def test_the_command_against_the_reference_service_as_its_own_process(tmp_path: Path) -> None:
    with reference_process(tmp_path) as ref:
        done = subprocess.run(
            [sys.executable, "-m", "pate.cli.main", "gitm", "check", "--addr", ref.addr],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
            env={**os.environ, "PATE_GITM_TOKEN": LAND_TOKEN},
        )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "obligations checked and kept, 1 skipped" in done.stdout


def test_a_bad_address_is_a_user_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["gitm", "check", "--addr", "nowhere"]) == 2
    assert "expected HOST:PORT" in capsys.readouterr().err
