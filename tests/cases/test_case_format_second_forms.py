"""The forms the case format gained for rules it could not state (count,
data_includes, store moves, turns that allow refusals): each can fail, and
its mistakes are problems of the file."""

from __future__ import annotations

from pathlib import Path

from pate.engine.case_checks import contains
from tests.cases.test_case_format import _problems, _run

COUNT = """
[[expect]]
count = [{lo}, {hi}]
of = [
  {{ ship = "BR1FR", port = "Portsmouth" }},
  {{ ship = "BR1FR", at = "ECH" }},
  {{ port = "Portsmouth", stores = 40 }},
]
"""


def test_count_states_how_many_of_the_statements_hold(tmp_path: Path) -> None:
    # BR1FR stays in Portsmouth, not at sea; the ships in port draw on its 40 stores
    assert _run(tmp_path, COUNT.format(lo=1, hi=2))[0] == "PASS"
    status, failures = _run(tmp_path, COUNT.format(lo=0, hi=0))
    assert status == "FAIL" and "0 of:" in failures[0]


def test_count_mistakes_are_problems_of_the_file(tmp_path: Path) -> None:
    problems = _problems(tmp_path, COUNT.format(lo=2, hi=4))
    assert any("expect[0].count" in p and "high <= 3" in p for p in problems)
    nested = '[[expect]]\ncount = [1, 1]\nof = [{ ship = "BR1FR", port = "Portsmouth", turn = 1 }]\n'
    assert any("belong to the counting statement" in p for p in _problems(tmp_path, nested))


def test_data_includes_matches_one_element_and_can_fail(tmp_path: Path) -> None:
    said = '[[expect]]\nevent = "group_divided"\ndata_includes = {{ capacity = {v} }}\n'
    assert _run(tmp_path, said.format(v=2000))[0] == "PASS"
    assert _run(tmp_path, said.format(v=9))[0] == "FAIL"
    ships = [{"id": "A", "experience_gained": 5, "side": 0}, {"id": "B", "experience_gained": 2}]
    assert contains(ships, [{"id": "B", "experience_gained": 2}])
    assert not contains(ships, [{"id": "B", "experience_gained": 5}])
    assert not contains(ships, [{"id": "A"}, {"id": "A"}])  # one element a statement
    assert contains({"fights": [{"ships": ["X", "Y"]}]}, {"fights": [{"ships": ["Y"]}]})


def test_store_moves_and_refusals_allowed(tmp_path: Path) -> None:
    turns = """
[[turn]]
refusals = "allowed"
stores = [{ state = "BR", origin = "Portsmouth", destination = "Nowhere", amount = 5 }]
"""
    problems = _problems(tmp_path, "", turns=turns)
    assert any("destination" in p and "no port named 'Nowhere'" in p for p in problems)
    bad = turns.replace('"allowed"', '"sometimes"').replace("Nowhere", "Plymouth")
    assert any("refusals" in p for p in _problems(tmp_path, "", turns=bad))
    refused = turns.replace('refusals = "allowed"\n', "").replace("Nowhere", "Portsmouth")
    here = '[[expect]]\nship = "BR1FR"\nport = "Portsmouth"\n'
    status, failures = _run(tmp_path, here, turns=refused)
    assert status == "FAIL" and any("stores[0]" in f for f in failures)  # a refusal no statement foresaw
    allowed = turns.replace("Nowhere", "Portsmouth")
    assert _run(tmp_path, here, turns=allowed)[0] == "PASS"
