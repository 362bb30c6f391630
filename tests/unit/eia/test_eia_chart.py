"""The reconstructed tactical naval chart and the two EiA tables, cell by cell.

The chart text below is the transcription of the rule document
(shared/rules/eia-advanced-naval-rules.txt, "Advanced Naval Rules Combat
Table"), kept as it was found.  The test reads it in the order the
reconstruction of docs/rules/eia.md gives (nine blocks: defender chit
Melee, Linear Attack, Linear Defense; within each, attacker chit Melee, Linear
Attack, Linear Defense; the three columns are rounds 1 to 3) and checks that
``data/rules/eia_naval.toml`` holds exactly those tables in the right cells.
"""

from __future__ import annotations

import pytest

from pate.core.rules.eia import Chit, EiaRules
from pate.core.rules.eia.tables import casualties, fire
from pate.datafiles import load_rule_data

TRANSCRIPTION = """
A 1-1 4-2 5-2
D 1-1 4-2 5-2

1st A 2-1 3-2 4-3
1st D 1-1 1-1 1-1
2nd A - 2-1 2-1
2nd D - 3-3 4-4

1st A 3-2 4-2 5-3
1st D 1-1 1-1 1-1
2nd A - 1-1 1-1
2nd D - 4-4 4-4

1st A 1-1 1-1 1-1
1st D 2-1 3-2 4-3
2nd A - 3-3 4-4
2nd D - 2-1 2-1

A 2-2 3-2 4-2
D 2-2 3-2 4-2

A 2-2 3-2 4-2
D 1-2 2-2 3-3

1st A 1-1 1-1 1-1
1st D 3-2 4-2 5-3
2nd A - 4-4 4-4
2nd D - 1-1 1-1

A 1-2 2-2 3-3
D 2-2 3-2 4-2

A 1-1 2-1 3-1
D 1-1 2-1 3-1
"""

ORDER = (Chit.MELEE, Chit.LINEAR_ATTACK, Chit.LINEAR_DEFENSE)

# shared/rules/eia-combat-results-table.md, "casualty % / morale loss" at rolls 0..7
RESULTS = """
1-1:   0/0      0/0      0/0      0/0      0/.2     5/.4     5/.6     5/.8
2-1:   0/0      0/0      0/0      5/.2     5/.5     5/.8     10/1.1   10/1.4
3-1:   0/0      0/0      5/.2     5/.5     10/.8    10/1.1   10/1.5   15/1.9
4-1:   0/0      5/.2     5/.4     10/.7    10/1     15/1.4   15/1.9   15/2.4
5-1:   5/.1     5/.3     10/.6    10/1     15/1.4   15/1.8   15/2.2   20/2.6
1-2:   0/0      0/0      0/.2     0/.5     5/.8     5/1.1    5/1.5    10/1.9
2-2:   0/0      0/.2     5/.4     5/.7     5/1      10/1.4   10/1.9   10/2.4
3-2:   0/.1     5/.3     5/.6     5/1      10/1.4   10/1.8   15/2.2   15/2.6
4-2:   0/.4     5/.7     5/1      10/1.3   15/1.6   15/1.9   15/2.3   20/2.8
5-2:   5/.5     10/.8    10/1.1   10/1.4   15/1.8   15/2.3   20/2.8   20/3.3
1-3:   0/0      0/.3     0/.6     5/.9     5/1.3    5/1.8    10/2.3   10/2.8
2-3:   0/.3     0/.5     5/.8     5/1.1    10/1.5   10/2     10/2.6   15/3.2
3-3:   0/.5     5/.8     5/1.1    10/1.4   10/1.8   15/2.3   15/2.8   15/3.3
4-3:   5/.8     5/1      10/1.3   10/1.6   15/2     15/2.5   15/3.1   20/3.7
5-3:   5/.9     10/1.1   10/1.4   15/1.8   15/2.3   20/2.9   20/3.5   20/4.1
1-4:   0/.4     0/.6     5/.9     5/1.3    5/1.8    10/2.4   10/3     10/3.6
2-4:   0/.6     5/.9     5/1.2    5/1.6    10/2.1   10/2.6   15/3.2   15/3.8
3-4:   5/.9     5/1.1    5/1.4    10/1.8   10/2.3   15/2.9   15/3.5   20/4.1
4-4:   5/1.1    10/1.4   10/1.7   10/2.1   15/2.6   15/3.1   20/3.7   20/4.3
5-4:   5/1.3    10/1.6   15/2     15/2.4   15/2.9   20/3.4   20/3.9   25/4.5
1-5:   0/.9     5/1.1    5/1.4    5/1.8    5/2.3    10/2.9   10/3.5   15/4.1
2-5:   5/1.1    5/1.4    5/1.7    10/2.1   10/2.6   10/3.1   15/3.7   15/4.3
3-5:   5/1.4    5/1.6    10/1.9   10/2.3   15/2.8   15/3.4   15/4     20/4.6
4-5:   5/1.6    10/1.9   10/2.2   15/2.6   15/3.1   20/3.6   20/4.2   20/4.8
5-5:   5/1.8    10/2.1   15/2.5   15/2.9   20/3.4   20/3.9   25/4.4   25/5
"""

CASUALTIES = """
  5%:    0 0 0 0 0 0 1 1 1 1  1  1  1  1  1  1  1  1  1  1
 10%:    0 0 0 0 1 1 1 1 1 1  1  1  1  1  2  2  2  2  2  2
 15%:    0 0 0 1 1 1 1 1 1 2  2  2  2  2  2  2  3  3  3  3
 20%:    0 0 1 1 1 1 1 2 2 2  2  2  3  3  3  3  3  4  4  4
 25%:    0 1 1 1 1 2 2 2 2 3  3  3  3  4  4  4  4  5  5  5
"""


@pytest.fixture(scope="module")
def rules() -> EiaRules:
    return EiaRules.from_rules(load_rule_data())


def _blocks() -> list[dict[str, list[str | None]]]:
    out = []
    for block in TRANSCRIPTION.strip().split("\n\n"):
        rows: dict[str, list[str | None]] = {}
        for line in block.splitlines():
            *label, r1, r2, r3 = line.split()
            rows[" ".join(label)] = [None if x == "-" else x for x in (r1, r2, r3)]
        out.append(rows)
    return out


CELLS = [(a, d) for d in ORDER for a in ORDER]  # the transcription's order: row blocks by defender


@pytest.mark.parametrize(("n", "cell"), list(enumerate(CELLS)), ids=[f"{a}-vs-{d}" for a, d in CELLS])
def test_every_chart_cell_holds_its_transcribed_block(
    rules: EiaRules, n: int, cell: tuple[Chit, Chit]
) -> None:
    block = _blocks()[n]
    c = rules.chart[cell]
    first_a = block.get("A") or block["1st A"]
    first_d = block.get("D") or block["1st D"]
    assert list(c.attacker) == first_a
    assert list(c.defender) == first_d
    if "2nd A" in block:
        assert c.attacker_closed is not None and c.defender_closed is not None
        assert list(c.attacker_closed) == block["2nd A"]
        assert list(c.defender_closed) == block["2nd D"]
    else:
        assert c.attacker_closed is None and c.defender_closed is None


def test_the_reconstruction_is_symmetric_between_attacker_and_defender(rules: EiaRules) -> None:
    """The argument of docs/rules/eia.md: with this order, cell (a, d) seen from
    the attacker is cell (d, a) seen from the defender, for all nine cells."""
    for a in Chit:
        for d in Chit:
            one, other = rules.chart[(a, d)], rules.chart[(d, a)]
            assert one.attacker == other.defender and one.defender == other.attacker
            assert one.attacker_closed == other.defender_closed


def test_second_sets_exist_exactly_where_one_side_chose_melee(rules: EiaRules) -> None:
    for (a, d), cell in rules.chart.items():
        one_melee = (a is Chit.MELEE) != (d is Chit.MELEE)
        assert (cell.attacker_closed is not None) is one_melee
        if cell.attacker_closed is not None:
            assert cell.attacker_closed[0] is None  # no closing before round 1


def test_chart_lookup_switches_to_the_second_set_after_closing(rules: EiaRules) -> None:
    cell = rules.chart[(Chit.MELEE, Chit.LINEAR_DEFENSE)]
    assert [cell.table(0, r, closed=False) for r in (1, 2, 3)] == ["1-1", "1-1", "1-1"]
    assert [cell.table(0, r, closed=True) for r in (1, 2, 3)] == ["1-1", "4-4", "4-4"]
    assert [cell.table(1, r, closed=True) for r in (1, 2, 3)] == ["3-2", "1-1", "1-1"]


@pytest.mark.parametrize("line", RESULTS.strip().splitlines(), ids=lambda s: s.split(":")[0])
def test_every_row_of_the_combat_results_table(rules: EiaRules, line: str) -> None:
    name, rest = line.split(":")
    row = rules.row(name.strip())
    cells = [c.split("/") for c in rest.split()]
    assert list(row.casualties) == [int(p) for p in (c[0] for c in cells)]
    assert list(row.morale) == [float(m) for m in (c[1] for c in cells)]
    for roll in range(8):
        f = fire(rules, name.strip(), roll, 20)
        assert (f.percent, f.morale) == (row.casualties[roll], row.morale[roll])


@pytest.mark.parametrize("line", CASUALTIES.strip().splitlines(), ids=lambda s: s.split(":")[0])
def test_every_row_of_the_casualty_table(rules: EiaRules, line: str) -> None:
    pct, rest = line.split(":")
    figures = [int(x) for x in rest.split()]
    percent = int(pct.strip().rstrip("%"))
    assert [casualties(rules, percent, f) for f in range(1, 21)] == figures


def test_casualties_above_twenty_factors_add_the_remainder(rules: EiaRules) -> None:
    # 27 factors at 15%: the 20-factor figure (3) plus the 7-factor figure (1)
    assert casualties(rules, 15, 27) == 4
    assert casualties(rules, 25, 40) == 10
    assert casualties(rules, 0, 30) == 0
