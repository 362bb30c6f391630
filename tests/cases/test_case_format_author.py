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
    case = _load(tmp_path, OPS_WORLD + 'combat_rules = "eia-advanced"\n' + admirals + NS)
    assert case.world.naval_rules == "eia-operations" and case.world.combat_rules == "eia-advanced"
    assert "nelson" in case.world.admirals
    bad = _problems(tmp_path, OPS_WORLD.replace('"eia-operations"', '"eia-ops"') + NS)
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
