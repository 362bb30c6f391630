"""The dice a case fixes (docs/formats/cases.md, a turn's ``dice``), as
DATC cases fix their situations: for a named purpose, the values its dice
show in order.  The core draws each such die all the same
(pate.core.rng.Rng.roll), so fixing one leaves every other as it was."""

from __future__ import annotations

from pate.core.ruledata import RuleData
from pate.core.world.fields import Table

MAX_FIXED = 100  # values for one purpose in one turn


def dice_faces(rules: RuleData) -> dict[str, int]:
    """The purposes a case may fix, each with its die's faces."""
    from pate.core.rules.eiaops.params import OpsRules

    ops = OpsRules.from_rules(rules)
    return {
        # the manoeuvre roll of an interception, the interceptor's die first, and of a
        # raid on a trade route, the raider's first (EiA new naval rules)
        "interception": ops.manoeuvre_die,
        # a column battle's dice in the order drawn: the initiative (side 0, then 1),
        # then each attack's contest and fire rolls (docs/rules/eia-operations.md)
        "column": ops.column_die,
    }


def read_dice(t: Table, faces: dict[str, int]) -> dict[str, tuple[int, ...]]:
    """``dice = { interception = [1, 6] }``: each purpose's values in order."""
    table = t.table("dice")
    if table is None:
        return {}
    out: dict[str, tuple[int, ...]] = {}
    for purpose, values in table.data.items():
        where = table.where(purpose)
        if purpose not in faces:
            table.problems.add(where, f"no dice named {purpose!r}; dice a case may fix: {', '.join(faces)}")
            continue
        n = faces[purpose]
        ok = (
            isinstance(values, list)
            and 1 <= len(values) <= MAX_FIXED
            and all(isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= n for v in values)
        )
        if not ok:
            table.problems.add(where, f"give a list of 1 to {MAX_FIXED} rolls, each 1 to {n} (a d{n})")
            continue
        out[purpose] = tuple(values)
    return out
