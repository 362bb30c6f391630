"""What a case file, or ``pate campaign simulate --overrides``, may change of
a campaign: numbers of ``data/rules/*.toml`` and the winds of a turn
(docs/formats/cases.md, docs/formats/simulate.md).  One reader for both, so
that the two write these the same way."""

from __future__ import annotations

import re
from typing import Any

from pate.core.rules.context import TurnContext
from pate.core.world.fields import Problems, Table
from pate.core.world.geography import Direction, WindStrength, WorldMap
from pate.core.world.state import Wind

_ERROR_REPR = re.compile(r"\w+Error\((['\"])(.*)\1\)$")  # "ValueError('dice...')": its words
_DIRECTIONS = {d.value: d for d in Direction} | {d.value[0]: d for d in Direction}


def with_rules(changes: Table | None, ctx: TurnContext, problems: Problems) -> TurnContext:
    """``[rules.<file>]`` changes numbers of ``data/rules/<file>.toml`` (e.g.
    no storms, where they would blur a statement)."""
    from pate.core.ruledata import RulesDataError, parse_rules

    if changes is None:
        return ctx
    merged = _merge(ctx.rules.sections, changes.data, changes.path, problems)
    try:
        rules = parse_rules(merged)
    except RulesDataError as err:
        for item in err.problems:
            problems.add(changes.path, item)
        return ctx
    refused = _refused(rules)
    for why in refused:  # located at the changed table the message names, else at [rules]
        section = next((k for k in changes.data if why.startswith(f"{k}: ")), None)
        where = _first_key(changes.data[section], f"{changes.path}.{section}") if section else changes.path
        problems.add(where, f"the engine refuses these rule numbers: {why.removeprefix(f'{section}: ')}")
    return ctx if refused else TurnContext(map=ctx.map, rules=rules)


def _first_key(change: Any, path: str) -> str:
    """The path of the first number a change sets (its line names the problem)."""
    while isinstance(change, dict) and change:
        key = next(iter(change))
        change, path = change[key], f"{path}.{key}"
    return path


def _refused(rules: Any) -> list[str]:
    """What the rule areas, reading the changed numbers as the engine will
    when it first needs them (mid-run), refuse: a die of one face."""
    from pate.core.ruledata import RulesDataError
    from pate.core.rules.combat.params import CombatRules
    from pate.core.rules.commerce import CommerceRules
    from pate.core.rules.eia.params import EiaRules
    from pate.core.rules.eiaops.params import OpsRules
    from pate.core.rules.movement.params import MovementRules
    from pate.core.rules.seatime import SeaExperience
    from pate.core.rules.storms import StormRules
    from pate.core.rules.transport import SpaceRules
    from pate.core.rules.winds import WindRules

    readers = (
        OpsRules.from_rules,
        EiaRules.from_rules,
        CombatRules.from_rules,
        CommerceRules.of,
        MovementRules.of,
        SeaExperience.of,
        StormRules.of,
        SpaceRules.of,
        WindRules.of,
    )
    out = []
    for read in readers:
        try:
            read(rules)
        except RulesDataError as err:
            out += [_ERROR_REPR.sub(r"\2", p) for p in err.problems]
        except (KeyError, TypeError, ValueError) as err:
            out.append(f"{type(err).__name__}: {err}")
    return out


def _merge(base: Any, change: Any, path: str, problems: Problems) -> Any:
    """``base`` with the values of ``change``; only keys the shipped data has."""
    if not isinstance(change, dict):
        if type(change) is not type(base):
            problems.add(path, f"expected a value like {base!r}")
            return base
        return change
    if not isinstance(base, dict):
        problems.add(path, f"expected a value like {base!r}, not a table")
        return base
    out = dict(base)
    for key, value in change.items():
        if key not in base:
            problems.add(f"{path}.{key}", "no such rule number in data/rules")
            continue
        out[key] = _merge(base[key], value, f"{path}.{key}", problems)
    return out


def read_winds(table: Table | None, world_map: WorldMap) -> dict[str, Wind]:
    """``{ all = "east moderate", SOC = "north heavy" }``: ``all`` sets every
    sea area of the map; a sea area named sets its own."""
    if table is None:
        return {}
    out: dict[str, Wind] = {}
    given: dict[str, Wind] = {}
    for key in list(table.data):
        if key != "all" and key not in world_map.sea_areas:
            table.problems.add(table.where(key), "not a sea area code (or 'all')")
            continue
        wind = _wind(table, key)
        if wind is None:
            continue
        if key == "all":
            out.update(dict.fromkeys(world_map.sea_areas, wind))
        else:
            given[key] = wind
    return out | given


def _wind(table: Table, key: str) -> Wind | None:
    text = table.str_(key)
    if text is None:
        return None
    words = text.lower().split()
    ok = len(words) == 2 and words[0] in _DIRECTIONS and words[1] in WindStrength._value2member_map_
    if not ok:
        table.problems.add(
            table.where(key), f"write the wind as 'east moderate' (the direction it blows from), not {text!r}"
        )
        return None
    return Wind(_DIRECTIONS[words[0]], WindStrength(words[1]))
