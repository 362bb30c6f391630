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
from tests.support.gitm_reference import LAND_TOKEN, Reference, reference_gitm, reference_process

ALL_KEPT = f"{len(NAMES)} of {len(NAMES)} obligations checked and kept"


def test_every_obligation_has_a_mutant_and_a_row() -> None:
    assert sorted({ob for ob, _ in MUTANTS.values()}) == sorted(OBLIGATIONS)
    assert sorted(n.split()[0] for n in NAMES) == sorted(OBLIGATIONS)


ROW = re.compile(r"^(L\d+) .*?  (pass|FAIL|skip)  ", re.M)
DETAIL = re.compile(r"^(L\d+) .*?  (?:pass|FAIL|skip) +(.*)$", re.M)
# what the row of each rule says when a variant breaks it (docs/gitm.md "Answers", "Opening and closing")
SAYS = {
    "near_unopened_ok": "never opened, answered OK, not NOT_FOUND",
    "twice_taken": "a unit named twice: accepted, a land game refuses it",
    "reason_names_holder": "the refusal names the other transfer",
    "refusal_holds_units": "a refused transfer holds none",
    "near_hides_reserved": "reserved by a begun load, is missing from UnitsNear",
    "open_unmapped_ok": "an OpenCampaign naming No-Such-City-Of-The-Suite answered OK",
}
SUMMARY = re.compile(r"^(\d+) of (\d+) obligations checked and kept.*$", re.M)


def _command(ref: Reference, campaign: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    """``pate gitm check`` as a land team runs it, restarts made by reopening the store."""
    args = ["gitm", "check", "--addr", ref.addr, "--campaign", campaign, "--token", LAND_TOKEN]
    status = main([*args, "--restart-command", "reopen the store"])
    printed = capsys.readouterr()
    return status, printed.out + printed.err


def test_the_kit_catches_every_mutant_by_the_row_of_its_obligation(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The mutation test: one reference service as its own process, switched to each broken variant
    in turn (services/gitm_reference/mutants.py), checked by the command itself. "Obligations of the
    land side": each obligation is one row; for every variant the command prints every row, in the
    order of their numbers, with its summary, fails the row of the obligation the variant breaks,
    and shows no traceback; the unbroken service keeps every obligation."""
    caught: list[str] = []
    missed: list[str] = []
    with reference_process(tmp_path) as ref:
        monkeypatch.setattr("pate.cli.gitm.restarter", lambda _command, _addr: ref.reopen)
        status, out = _command(ref, "unbroken", capsys)
        rows = dict(ROW.findall(out))
        assert status == 0 and set(rows.values()) == {"pass"}, out
        assert list(rows) == [n.split()[0] for n in NAMES] and len(rows) == len(OBLIGATIONS)
        for i, (mutant, (obligation, _)) in enumerate(MUTANTS.items()):
            ref.faults(mutant=mutant)
            status, out = _command(ref, f"mutant-{i}", capsys)
            rows = dict(ROW.findall(out))
            assert "Traceback" not in out, (mutant, out)
            assert list(rows) == [n.split()[0] for n in NAMES], (mutant, out)
            summary = SUMMARY.search(out)
            assert summary and summary.group(2) == str(len(NAMES)), (mutant, out)
            assert status == 1, (mutant, out)
            said = dict(DETAIL.findall(out))[obligation]
            assert SAYS.get(mutant, "") in said, (mutant, said)
            (caught if rows[obligation] == "FAIL" else missed).append(f"{mutant} ({obligation})")
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
