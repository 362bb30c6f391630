"""The table of docs/rules/eia-operations.md and the rule cases agree: every
row names cases that exist and quote its statement, and every case of
tests/cases/eia_ops has a row; every sentence of the rule text is in the table."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
DOC = ROOT / "docs" / "rules" / "eia-operations.md"
TEXT = ROOT.parent.parent / "shared" / "rules" / "eia-new-naval-rules-wip.txt"
CASES = Path(__file__).parent


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text.replace("\\|", "|")).strip()


def _rows() -> list[tuple[str, str, list[str]]]:
    out = []
    for line in DOC.read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
        if len(cells) >= 5 and re.fullmatch(r"N\d\d", cells[0]):
            out.append((cells[0], _norm(cells[2]), re.findall(r"`(test_\w+)`", cells[3])))
    return out


def _cases() -> dict[str, str]:
    found = {}
    for path in sorted(CASES.glob("test_*.py")):
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_eia_ops_"):
                found[node.name] = _norm(ast.get_docstring(node) or "")
    return found


def test_every_row_names_cases_that_quote_its_statement() -> None:
    cases = _cases()
    rows = _rows()
    assert len(rows) == 62
    for number, statement, names in rows:
        assert names, f"{number}: no case"
        for name in names:
            assert name in cases, f"{number}: no case {name}"
            assert statement in cases[name], f"{number}: {name} does not quote {statement!r}"


def test_every_case_has_a_row() -> None:
    named = {n for _, _, names in _rows() for n in names}
    assert set(_cases()) - named == set()


def test_every_sentence_of_the_text_is_in_the_table() -> None:
    """Sentences of the rule text (bullets and lines; headings, which end in
    no stop and stand alone, left out) each appear in a row."""
    if not TEXT.exists():  # the rule texts live beside the repository
        import pytest

        pytest.skip(f"{TEXT} not present")
    statements = " ".join(s for _, s, _ in _rows())
    lines = [_norm(x.strip().lstrip("•").strip()) for x in TEXT.read_text().splitlines()]
    headings = {
        "EIA:New Naval rules",
        "WIP",
        "Fleet markers",
        "Naval Operations",
        "Naval Superiority",
        "Rebase",
        "Patrol",
        "Protect Trade",
        "Transport",
        "Invasion",
        "Raid",
        "Privateer",
        "Supply",
        "Declaring Operations",
        "Resolving Operations",
        "Interception",
        "Combined Movement",
        "Trade Ships",
        "Spanish Gold Convoy",
        "Naval Combat",
        "This means that,",
    }
    missing = []
    for line in lines:
        if not line or line in headings:
            continue
        for sentence in re.split(r"(?<=[.])\s+", line):
            if sentence and sentence not in statements and sentence.rstrip(".") not in statements:
                missing.append(sentence)
    assert missing == []
