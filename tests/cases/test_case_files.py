"""Rule cases written as case files (docs/formats/cases.md).

Every ``tests/cases/files/*.toml`` runs as its own test, named after the file,
through the same runner as ``pate case run``; a case marked ``xfail`` in its
file is expected to fail (strictly: if it passes, the mark must go).  The
tests below the collection check the runner itself: a wrong statement fails,
naming expected and actual, and a malformed file is refused with its lines.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from pate.engine.cases import CaseFileError, is_scenario_file, load_case, run_case

FILES = sorted(p for p in (Path(__file__).parent / "files").glob("*.toml") if not is_scenario_file(p))


def _param(path: Path) -> object:
    try:
        reason = tomllib.loads(path.read_text(encoding="utf-8")).get("case", {}).get("xfail")
    except tomllib.TOMLDecodeError:
        reason = None  # the test itself reports the malformed file
    marks = [pytest.mark.xfail(reason=" ".join(str(reason).split()), strict=True)] if reason else []
    return pytest.param(path, id=path.stem, marks=marks)


@pytest.mark.parametrize("path", [_param(p) for p in FILES])
def test_case_file(path: Path) -> None:
    """The case file's statements hold when its turns are played through
    ``pate.engine.simulate`` (the engine of ``pate campaign simulate``)."""
    case = load_case(path)
    result = run_case(case)
    assert not result.failures, f"{path.name} (rule {case.rule}):\n" + "\n".join(result.failures)


def test_every_case_file_quotes_its_rule() -> None:
    assert len(FILES) >= 20
    for path in FILES:
        case = load_case(path)
        assert case.quote.strip() and case.rule and path.stem.startswith("rule_")


# -- the runner ------------------------------------------------------------------
CASE = """
[case]
rule = "6.2"
title = "one frigate"
quote = "A ship in the Southern Caribbean may move to the Northern Caribbean"

[world]
ships = [{ id = "BR1FR", sea_area = "SOC", base = "Barbados" }]

[[turn]]
winds = { all = "east moderate" }
orders = \"\"\"
order BR1FR
  move NOC
\"\"\"

[[expect]]
ship = "BR1FR"
at = "AT"
"""


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "case.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_runner_passes_a_true_statement(tmp_path: Path) -> None:
    result = run_case(load_case(_write(tmp_path, CASE.replace('"AT"', '"NOC"'))))
    assert result.status == "PASS" and not result.failures


def test_runner_names_expected_and_actual_of_a_false_statement(tmp_path: Path) -> None:
    result = run_case(load_case(_write(tmp_path, CASE.replace('"AT"', '"PAN"'))))
    assert result.status == "FAIL"
    (failure,) = result.failures
    assert "expect[0]" in failure and "BR1FR at PAN" in failure and "got BR1FR at NOC" in failure


def test_runner_checks_chances_over_seeds(tmp_path: Path) -> None:
    text = CASE.replace('"AT"', '"NOC"') + "runs = 20\nchance_between = [0.0, 0.5]\n"
    result = run_case(load_case(_write(tmp_path, text)))
    assert result.status == "FAIL" and "got 20 of 20 (1.000)" in result.failures[0]


def test_runner_reports_an_unforeseen_refusal(tmp_path: Path) -> None:
    text = CASE.replace("move NOC", "move WCA").replace('"AT"', '"SOC"')
    result = run_case(load_case(_write(tmp_path, text)))
    assert result.status == "FAIL"
    assert any("order refused" in f and "rule 6.2" in f for f in result.failures)


def test_runner_marks_a_known_failure_and_a_case_that_no_longer_fails(tmp_path: Path) -> None:
    known = CASE.replace("[case]\n", '[case]\nxfail = "not yet"\n')
    assert run_case(load_case(_write(tmp_path, known.replace('"AT"', '"PAN"')))).status == "XFAIL"
    fixed = run_case(load_case(_write(tmp_path, known.replace('"AT"', '"NOC"'))))
    assert fixed.status == "XPASS" and not fixed.ok


def test_a_malformed_case_file_is_refused_with_its_lines(tmp_path: Path) -> None:
    text = CASE.replace("  move NOC", "  sail NOC").replace('"AT"', '"XYZ"')
    with pytest.raises(CaseFileError) as err:
        load_case(_write(tmp_path, text))
    problems = err.value.problems
    assert any(p.startswith(f"{tmp_path / 'case.toml'}:14: turn[0].orders: column 3:") for p in problems)
    assert any(":19: expect[0].at: no sea area coded 'XYZ'" in p for p in problems)


def test_a_file_that_is_not_toml_is_refused(tmp_path: Path) -> None:
    with pytest.raises(CaseFileError, match="not valid TOML"):
        load_case(_write(tmp_path, "[case\n"))
