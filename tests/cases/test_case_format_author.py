"""The case format as an author meets it (docs/formats/cases.md): worlds
under the operations rules written inline, the states' money, fixed dice,
refused orders that a statement states, ordered lists of event data."""

from __future__ import annotations

from pathlib import Path

import pytest

from pate.engine.cases import CaseFileError, load_case, run_case

HEAD = """
[case]
rule = "N07"
title = "author"
quote = "Naval Superiority costs 1$"
"""

OPS_WORLD = """
[world]
naval_rules = "eia-operations"
diplomacy = { wars = [["BR", "FR"]] }
ships = [
  { id = "FR1FR", port = "Brest", harbor = true, base = "Brest" },
]
"""

NS = '''
[[turn]]
orders = """
order FR1FR
  operation naval-superiority
"""
'''


TREASURY = '[[expect]]\nevent = "treasury"\n'


def _load(tmp_path: Path, text: str):  # type: ignore[no-untyped-def]
    path = tmp_path / "case.toml"
    path.write_text(HEAD + text, encoding="utf-8")
    return load_case(path)


def _problems(tmp_path: Path, text: str) -> list[str]:
    with pytest.raises(CaseFileError) as err:
        _load(tmp_path, text)
    return err.value.problems


def _failures(tmp_path: Path, text: str) -> tuple[str, ...]:
    return run_case(_load(tmp_path, text)).failures


def test_an_inline_world_takes_the_rule_sets_and_admirals(tmp_path: Path) -> None:
    admirals = '\n[world.players.nelson]\nname = "Nelson"\nstate = "BR"\nroles = ["commander"]\n'
    admirals += "\n[world.admirals.nelson]\nnelson = true\n"
    case = _load(tmp_path, OPS_WORLD + 'combat_rules = "eia-advanced"\n' + admirals + NS + TREASURY)
    assert case.world.naval_rules == "eia-operations" and case.world.combat_rules == "eia-advanced"
    assert "nelson" in case.world.admirals
    bad = _problems(tmp_path, OPS_WORLD.replace('"eia-operations"', '"eia-ops"') + NS + TREASURY)
    assert len(bad) == 1 and ":8: world.naval_rules:" in bad[0], bad


def test_a_state_without_a_player_trades_and_pays(tmp_path: Path) -> None:
    """No players: FR still has its account (one turn of trade) and its
    trade routes, so Naval Superiority is paid, not refused."""
    said = '[[expect]]\nevent = "treasury"\ndata_includes = { state = "FR" }\n'
    said += '[[expect]]\nevent = "trade_route"\ndata_includes = { states = ["FR"] }\n'
    said += '[[expect]]\nevent = "operation_refused"\nabsent = true\n'
    assert _failures(tmp_path, OPS_WORLD + NS + said) == ()


def test_treasury_sets_a_states_money(tmp_path: Path) -> None:
    refused = '[[expect]]\nship = "FR1FR"\nrefused_rule = "EiA new naval rules, Naval Superiority"\n'
    refused += 'message = "FR has 0$"\n'
    assert _failures(tmp_path, OPS_WORLD + "\n[treasury]\nFR = 0\n" + NS + refused) == ()
    assert _failures(tmp_path, OPS_WORLD + "\n[treasury]\nFR = 1\n" + NS + refused)  # paid: not refused
    bad = _problems(tmp_path, OPS_WORLD + "\n[treasury]\nZZ = 1\nFR = -1\n" + NS + refused)
    assert any("treasury.ZZ: no state 'ZZ'" in p for p in bad), bad
    assert any(":16: treasury.FR: -1 is below" in p for p in bad), bad


RAID = '''
[[turn]]
orders = """
order FR1FR
  operation raid
"""
dice = { interception = [ROLLS] }
'''


def test_a_turn_fixes_the_interception_dice(tmp_path: Path) -> None:
    """The raider's die first: 6 against 1 takes trade ships, 1 against 6 fails."""
    said = '[[expect]]\nevent = "trade_interception"\ndata = { rolls = [ROLLS], succeeded = OK }\n'
    for rolls, ok in (("6, 1", "true"), ("1, 6", "false")):
        text = OPS_WORLD + (RAID + said).replace("ROLLS", rolls).replace("OK", ok)
        assert _failures(tmp_path, text) == ()


def test_fixed_dice_are_checked(tmp_path: Path) -> None:
    bad = _problems(
        tmp_path, OPS_WORLD + RAID.replace("interception = [ROLLS]", "manoeuvre = [1], column = [7]")
    )
    assert any("turn[0].dice.manoeuvre: no dice named 'manoeuvre'" in p for p in bad), bad
    assert any("turn[0].dice.column: give a list of 1 to 100 rolls, each 1 to 6" in p for p in bad), bad


def test_a_die_the_rules_refuse_is_a_problem_of_the_file(tmp_path: Path) -> None:
    """A die of one face: a located problem, not the engine's error mid-run."""
    bad = _problems(tmp_path, OPS_WORLD + "\n[rules.eia_operations.interception]\ndie = 1\n" + NS + TREASURY)
    assert len(bad) == 1 and ":15: rules.eia_operations.interception.die: the engine refuses" in bad[0], bad
    assert "dice of at least 2 faces" in bad[0]


BATTLE_WORLD = """
[world]
naval_rules = "eia-operations"
diplomacy = { wars = [["BR", "FR"]] }
ships = [
  { id = "FR1FR", port = "Brest", harbor = true, base = "Brest" },
  { id = "FR2FR", port = "Brest", harbor = true, base = "Brest", attached_to = "FR1FR" },
  { id = "BR1FR", port = "Portsmouth", harbor = true, base = "Portsmouth" },
  { id = "BR2FR", port = "Portsmouth", harbor = true, base = "Portsmouth", attached_to = "BR1FR" },
]
"""

INTERCEPTION = '''
[[turn]]
orders = """
order FR1FR
  operation raid
order BR1FR
  operation protect-trade ECH
"""
dice = { interception = [6, 1] }
'''


def test_absent_holds_with_a_key_only_some_events_of_the_kind_carry(tmp_path: Path) -> None:
    """The raid intercepts the protecting fleet: a column battle about an
    interception, none about a raid (``raider``), and no statement fails
    for want of an event carrying ``raider``."""
    said = '[[expect]]\nevent = "column_battle"\ndata = { raider = "FR1FR" }\nabsent = true\n'
    said += '[[expect]]\nevent = "column_battle"\ndata = { why = "interception", interceptor = "FR1FR" }\n'
    assert _failures(tmp_path, BATTLE_WORLD + INTERCEPTION + said) == ()
    bad = _problems(tmp_path, BATTLE_WORLD + INTERCEPTION + said.replace("raider =", "raidr ="))
    assert len(bad) == 1 and "expect[0]: no column_battle event carries raidr (its keys: " in bad[0], bad


def test_data_at_states_an_item_at_its_place(tmp_path: Path) -> None:
    """Column positions, the order of the attacks and of their shots.  (Side 1,
    a ship down and none disabled, breaks off after the first attack: one
    attack, docs/rules/eia-operations.md N54.)"""
    at = (
        '"attacks[0].side" = 0, "attacks[-1].side" = 0, "columns[0][0]" = ["FR1FR", "FR2FR"], '
        '"attacks[0].shots[2]" = ["BR1FR", "FR1FR", 1, 5, false], "attacks[-1]" = { evaded = false }'
    )
    said = f'[[expect]]\nevent = "column_battle"\ndata_at = {{ {at} }}\n'
    assert _failures(tmp_path, BATTLE_WORLD + INTERCEPTION + said) == ()
    for wrong in ('"FR2FR", "FR1FR"]', '"FR1FR"]'):  # another order, or not the whole list
        text = BATTLE_WORLD + INTERCEPTION + said.replace('"FR1FR", "FR2FR"]', wrong)
        assert "got only: column_battle" in _failures(tmp_path, text)[0]
    bad = _problems(tmp_path, BATTLE_WORLD + INTERCEPTION + said.replace('"attacks[-1].side"', '"[1].side"'))
    assert any('data_at."[1].side": write a path as key' in p for p in bad), bad


UNREADABLE = '''
[[turn]]
orders = """
order FR1FR
  operation raid
  operation patrol
order FR2FR
  operation blockade
order BR1FR
  operation patrol
"""
'''


def test_an_order_not_in_the_format_is_a_refusal_a_statement_expects(tmp_path: Path) -> None:
    """A second operation line, an unknown kind: that ship's orders are
    refused (rule "syntax", with the parser's words); the others play."""
    said = '[[expect]]\nship = "FR1FR"\nrefused_rule = "syntax"\nfield = "orders"\n'
    said += 'message = "a second operation"\n'
    said += '[[expect]]\nship = "FR2FR"\nrefused_rule = "syntax"\nmessage = "not \'blockade\'"\n'
    said += '[[expect]]\nevent = "operation_revealed"\nships = ["BR1FR"]\ndata = { operation = "patrol" }\n'
    assert _failures(tmp_path, BATTLE_WORLD + UNREADABLE + said) == ()
    bad = _problems(tmp_path, BATTLE_WORLD + UNREADABLE + said.split('[[expect]]\nship = "FR2FR"')[0])
    assert len(bad) == 1 and ":23: turn[0].orders: column 13: operation: give one of" in bad[0], bad


def test_a_case_states_something_and_every_refusal(tmp_path: Path) -> None:
    """No statement: a problem of the file (it passed, refusals and all).
    A refusal no statement expects fails the case."""
    refused = OPS_WORLD + "\n[treasury]\nFR = 0\n" + NS
    bad = _problems(tmp_path, refused)
    assert len(bad) == 1 and "expect: state what must be true: give at least one [[expect]]" in bad[0], bad
    failures = _failures(tmp_path, refused + '[[expect]]\nevent = "treasury"\n')
    assert (
        len(failures) == 1
        and "order refused: FR1FR.operation.kind: Naval Superiority costs 1$" in failures[0]
    )
