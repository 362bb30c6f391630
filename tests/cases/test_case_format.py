"""The statements and checks of the case format (docs/formats/cases.md),
each through the runner of ``pate case run`` on a small case written here."""

from __future__ import annotations

from pathlib import Path

import pytest

from pate.cli.main import main
from pate.engine.cases import CaseFileError, is_scenario_file, load_case, run_case

HEAD = """
[case]
rule = "2.5"
title = "format"
quote = "a statement"
"""

WORLD = """
[world]
diplomacy = { wars = [["BR", "FR"]] }
ports = { Portsmouth = { stores = 40, garrison = ["BR5IN"] } }
ships = [
  { id = "BR1TR", port = "Portsmouth", harbor = true, base = "Portsmouth", capacity = 5000, units = ["BR1IN"], space = 900, commander = "nelson" },
  { id = "BR1FR", port = "Portsmouth", harbor = true, base = "Portsmouth", experience = 7, attached_to = "BR1TR" },
]

[world.land_units.BR1IN]
infantry = 900

[world.land_units.BR5IN]
infantry = 500

[world.players.nelson]
name = "Horatio Nelson"
state = "BR"
roles = ["commander"]
"""  # noqa: E501 (one inline table a line, as TOML needs)

DIVIDE = """
[[turn]]
orders = \"\"\"
order BR1TR
  divide 2000
\"\"\"
"""


def _case(tmp_path: Path, body: str, world: str = WORLD, turns: str = DIVIDE) -> Path:
    path = tmp_path / "case.toml"
    head, world = (world + HEAD, "") if world.startswith("scenario") else (HEAD, world)
    path.write_text(head + world + turns + body, encoding="utf-8")
    return path


def _run(tmp_path: Path, body: str, **kw: str) -> tuple[str, tuple[str, ...]]:
    result = run_case(load_case(_case(tmp_path, body, **kw)))
    return result.status, result.failures


def _problems(tmp_path: Path, body: str, **kw: str) -> list[str]:
    with pytest.raises(CaseFileError) as err:
        load_case(_case(tmp_path, body, **kw))
    return err.value.problems


def test_a_ship_statement_can_be_negated(tmp_path: Path) -> None:
    said = '[[expect]]\nship = "BR1FR"\nattached_to = "BR1TR"\nnot = true\n'
    status, failures = _run(tmp_path, said)
    assert status == "FAIL" and "not (BR1FR attached_to = 'BR1TR')" in failures[0]
    assert _run(tmp_path, said.replace('"BR1TR"\nnot', '"BR2TR"\nnot') + _created())[0] == "PASS"


def _created() -> str:
    return '[[expect]]\nship = "BR2TR"\ncreated = true\ncapacity = 2000\n'


def test_a_ship_made_in_play_is_named_with_created(tmp_path: Path) -> None:
    """Rule 2.5: the new group takes the next number (BR2TR)."""
    body = _created() + 'port = "Portsmouth"\ncommander = "nelson"\n'
    assert _run(tmp_path, body) == ("PASS", ())
    problems = _problems(tmp_path, body.replace("created = true\n", ""))
    assert any("expect[0].ship: no ship BR2TR in the world" in p for p in problems)
    problems = _problems(tmp_path, body.replace("BR2TR", "BR1TR"))
    assert any("created = true, but BR1TR is in the world" in p for p in problems)


def test_experience_commander_deputy_and_cargo(tmp_path: Path) -> None:
    body = (
        '[[expect]]\nship = "BR1TR"\ncommander = "nelson"\ndeputy = ""\n'
        'cargo_units = ["BR1IN"]\ncargo_supplies = 0\nexperience = 0\nquality = "Average"\n'
        '[[expect]]\nship = "BR1FR"\nexperience = 7\ncommander = ""\n'
    )
    assert _run(tmp_path, body) == ("PASS", ())
    status, failures = _run(tmp_path, body.replace('cargo_units = ["BR1IN"]', 'cargo_units = ["BR5IN"]'))
    assert status == "FAIL" and "got BR1TR cargo_units = ['BR1IN']" in failures[0]
    problems = _problems(tmp_path, body.replace('commander = "nelson"', 'commander = "hardy"'))
    assert any("expect[0].commander: no player hardy" in p for p in problems)


def test_port_stores_and_garrison(tmp_path: Path) -> None:
    body = '[[expect]]\nturn = 0\nport = "Portsmouth"\nstores = 40\ngarrison = ["BR5IN"]\ncontroller = "BR"\n'
    assert _run(tmp_path, body) == ("PASS", ())
    status, failures = _run(tmp_path, body.replace("stores = 40", "stores = 12"))
    assert status == "FAIL" and "Portsmouth stores = 40" in failures[0]
    assert _run(tmp_path, body.replace("stores = 40", "stores = 12\nnot = true"))[0] == "PASS"
    assert any(
        "no port named 'Portsmuth'" in p for p in _problems(tmp_path, body.replace("Portsmouth", "Portsmuth"))
    )


def test_the_text_of_a_players_report(tmp_path: Path) -> None:
    body = '[[expect]]\nturn = 1\nreport = "nelson"\ncontains = ["BR2TR"]\nlacks = "Trafalgar"\n'
    assert _run(tmp_path, body) == ("PASS", ())
    status, failures = _run(tmp_path, body.replace('lacks = "Trafalgar"', 'lacks = "BR1FR"'))
    assert status == "FAIL" and "has ['BR1FR']" in failures[0]
    assert any("no player hardy" in p for p in _problems(tmp_path, body.replace("nelson", "hardy")))


def test_event_kinds_and_attachment_targets_are_checked(tmp_path: Path) -> None:
    body = (
        '[[expect]]\nevent = "sailled"\nabsent = true\n'
        '[[expect]]\nsequence = ["group_divided", "sailled BR1FR"]\n'
        '[[expect]]\nship = "BR1FR"\nattached_to = "nobody"\n'
    )
    problems = _problems(tmp_path, body)
    assert any(":32: expect[0].event: no event kind 'sailled' (did you mean sailed" in p for p in problems)
    assert any("expect[1].sequence[1]: no event kind 'sailled'" in p for p in problems)
    assert any("expect[2].attached_to: no ship nobody in the world" in p for p in problems)


def test_an_event_at_a_place(tmp_path: Path) -> None:
    body = '[[expect]]\nevent = "group_divided"\nships = ["BR1TR"]\nat = "Portsmouth"\n'
    body += 'data = { new = "BR2TR" }\n'
    assert _run(tmp_path, body) == ("PASS", ())
    assert _run(tmp_path, body.replace('at = "Portsmouth"', 'at = "Brest"'))[0] == "FAIL"
    assert any(
        "no sea area coded or port named 'Nowhere'" in p
        for p in _problems(tmp_path, body.replace("Portsmouth", "Nowhere"))
    )


def test_with_several_turns_a_statement_names_its_turn(tmp_path: Path) -> None:
    body = '[[expect]]\nship = "BR1FR"\nport = "Portsmouth"\n'
    assert _run(tmp_path, body) == ("PASS", ())  # one turn: the last is the only one
    problems = _problems(tmp_path, body, turns=DIVIDE + "\n[[turn]]\n")
    assert any(
        "expect[0]: say after which turn (turn = 0 to 2): the case plays 2 turns" in p for p in problems
    )
    later = _problems(tmp_path, body + '[[expect]]\nturn = 3\nship = "BR1FR"\nport = "Portsmouth"\n')
    assert any("expect[0]: say after which turn (turn = 0 to 3)" in p for p in later)  # 3 turns played
    assert _run(tmp_path, body + "turn = 2\n", turns=DIVIDE + "\n[[turn]]\n") == ("PASS", ())


def test_problems_in_an_inline_ships_array_name_their_own_line(tmp_path: Path) -> None:
    world = WORLD.replace(
        'port = "Portsmouth", harbor = true, base = "Portsmouth", exp',
        'sea_area = "XXX", base = "Portsmouth", exp',
    )
    problems = _problems(tmp_path, "", world=world)
    assert any(p.endswith(":12: world.ships[1].sea_area: unknown sea area 'XXX'") for p in problems), problems


def test_problems_in_a_scenario_file_beside_the_case_name_its_lines(tmp_path: Path) -> None:
    (tmp_path / "w.toml").write_text(
        '[scenario]\nformat = 1\nname = "w"\nseed = 1\nturns = 1\n\n'
        '[players.nelson]\nname = "Nelson"\nstate = "ZZ"\nroles = ["commander"]\n',
        encoding="utf-8",
    )
    assert is_scenario_file(tmp_path / "w.toml")
    problems = _problems(tmp_path, "", world='scenario = "w.toml"\n', turns="")
    assert f"{tmp_path / 'w.toml'}:9: players.nelson.state: unknown state 'ZZ'" in problems


def test_a_refusals_words_can_be_stated_and_are_printed_with_v(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    turns = DIVIDE.replace("divide 2000", "divide 1000")
    body = '[[expect]]\nship = "BR1TR"\nrefused_rule = "2.5"\nmessage = "outside 2000 to 20000"\n'
    assert _run(tmp_path, body, turns=turns) == ("PASS", ())
    status, failures = _run(tmp_path, body.replace("outside 2000", "ten thousand"), turns=turns)
    assert status == "FAIL" and "saying 'ten thousand to 20000'" in failures[0]
    assert main(["case", "run", "-v", str(_case(tmp_path, body, turns=turns))]) == 0
    assert "turn 1: order refused: BR1TR.admin[0].amount:" in capsys.readouterr().out


def test_case_run_skips_scenario_files_beside_the_cases(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    case = _case(tmp_path, _created())
    scenario = tmp_path / "world.toml"
    scenario.write_text('[scenario]\nformat = 1\nname = "w"\n', encoding="utf-8")
    assert main(["case", "run", str(case), str(scenario)]) == 0
    out = capsys.readouterr().out
    assert f"skip  {scenario}" in out and "1 passed" in out and "0 unreadable" in out


def test_every_event_kind_is_in_the_table_of_cases_md() -> None:
    """docs/formats/cases.md lists every kind a statement may name, with its data."""
    import re

    from pate.engine.case_event_read import known_kinds

    doc = (Path(__file__).resolve().parents[2] / "docs" / "formats" / "cases.md").read_text(encoding="utf-8")
    table = doc.split("#### Event kinds and their data", 1)[1].split("\n### ", 1)[0]
    listed = {
        k
        for row in table.splitlines()
        if row.startswith("| `")
        for k in re.findall(r"`(\w+)`", row.split("|")[1])
    }
    assert known_kinds() - listed == set()
    assert listed - known_kinds() == set()  # and no kind the engine does not emit


def test_problems_nested_in_inline_tables_name_their_own_line(tmp_path: Path) -> None:
    world = """
[world]
players = { nelson = { name = "Nelson", state = "ZZ", roles = ["commander"] } }
squadrons = [
  { base = "Barbados", ships = [
    { id = "BR1FR", sea_area = "SOC" },
    { id = "BR2FR", sea_area = "QQQ" },
  ] },
]
"""
    problems = _problems(tmp_path, '[[expect]]\nship = "BR1FR"\nat = "SOC"\n', world=world, turns="")
    assert any(p.endswith(":8: world.players.nelson.state: unknown state 'ZZ'") for p in problems), problems
    assert any(":12: world.squadrons[0].ships[1].sea_area: unknown sea area 'QQQ'" in p for p in problems)


def test_a_data_key_no_event_of_the_kind_carries_is_a_problem_of_the_file(tmp_path: Path) -> None:
    """`port` for `to`: an absent statement must not pass by a misnamed key."""
    body = '[[expect]]\nevent = "group_divided"\ndata = { capacty = 3000 }\nabsent = true\n'
    problems = _problems(tmp_path, body)
    assert (
        "expect[0]: no group_divided event carries capacty (its keys: capacity, cargo_moves, new)"
        in problems[0]
    )
    assert _run(tmp_path, body.replace("capacty", "capacity"))[0] == "PASS"  # 2000, not 3000


def test_a_prize_and_a_divided_group_are_named_by_what_they_came_from(tmp_path: Path) -> None:
    """Rule 7.8: the prize takes a new id of the captor's state, found from the
    run's own events, whatever the seed made it; rule 2.5 likewise."""
    orders = (Path(__file__).resolve().parents[2] / "examples" / "campaign" / "turn-1.txt").read_text()
    case = tmp_path / "prize.toml"
    case.write_text(
        'scenario = "training"\n' + HEAD + '\n[[turn]]\norders = """\n' + orders + '"""\n'
        '[[expect]]\nprize_of = "BR1FL"\nattached_to = "FR1FL"\n'
        '[[expect]]\nprize_of = "BR2FR"\n',
        encoding="utf-8",
    )
    result = run_case(load_case(case))
    assert result.failures == (
        "expect[1] (turn 1): expected the prize of BR2FR exists; got BR2FR was not taken by turn 1",
    )
    assert "expect[0] (turn 1): the prize of BR1FL attached_to = 'FR1FL': yes" in result.measured
    body = '[[expect]]\ndivided_from = "BR1TR"\ncapacity = 2000\ncommander = "nelson"\n'
    assert _run(tmp_path, body) == ("PASS", ())
    assert any("name the ship one way" in p for p in _problems(tmp_path, body + 'ship = "BR1TR"\n'))
    assert any(
        "expect[0].divided_from: no ship BR9TR" in p
        for p in _problems(tmp_path, body.replace("BR1TR", "BR9TR"))
    )
