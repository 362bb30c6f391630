"""Reading the land units of a scenario (rule 1.5; lost section 9).

``[land_units.<ID>]`` tables give the GITM units PATE holds at the start of a
campaign their state and size, so that transport groups can load them before
the GITM bridge first reports (``pate.core.rules.landsync``).  Where a unit
stands is said elsewhere: a port's ``garrison`` or a group's ``units``.

Decisions (docs/formats/scenario.md):
- a unit named in a garrison or aboard but not declared is allowed: its size
  is unknown until GITM reports it, and no group can load it till then;
- a declared unit must stand somewhere (a garrison or aboard a group):
  PATE keeps the sizes only of the units in its places;
- a unit aboard a group is of the group's state (loading takes only those);
- a group with a declared unit aboard has the ``space`` its cargo takes:
  equal to it when every unit aboard is declared, at least the known part
  otherwise (groups carrying no declared unit are left as written).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from typing import Any

from pate.core.ruledata import RuleData
from pate.core.rules.transport import SpaceRules, unit_space
from pate.core.world.fields import Problems, Table, join
from pate.core.world.ships import Ship, ShipType
from pate.core.world.state import Headquarters, LandUnit, PortState

LAND_UNIT_KEYS = ("state", "infantry", "cavalry", "artillery", "batteries", "headquarters", "supplies")
UNIT_ID = re.compile(r"[A-Z]{2}[A-Za-z0-9_-]{0,30}")
# any unit a scenario places must be one an order can name (pate.core.rules.validation.orders: 1 to 32
# characters) and GITM can hold (docs/gitm.md "Ids": at most 64)
PLACED_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,31}")
# ids with an underscore after the state's code are the ones GITM gives the units it creates
# (docs/gitm.md, "Answers to the land team's review", A6): a scenario never takes one
GITM_MADE = re.compile(r"[A-Z]{2}_")
GITM_MADE_WHY = "an underscore after the state's code marks a unit GITM created (FR_12IN): choose another id"
_HEADQUARTERS = tuple(h.value for h in Headquarters)


def read_land_units(top: Table, states: Collection[str]) -> tuple[dict[str, LandUnit], dict[str, str]]:
    """Valid land units by id, and the path of every unit declared."""
    units: dict[str, LandUnit] = {}
    paths: dict[str, str] = {}
    for uid, t in top.tables("land_units"):
        paths[uid] = t.path
        unit = _read_unit(uid, t, states)
        if unit is not None:
            units[uid] = unit
    return dict(sorted(units.items())), paths


def _read_unit(uid: str, t: Table, states: Collection[str]) -> LandUnit | None:
    t.check_keys(LAND_UNIT_KEYS)
    before = t.problems.count
    if not UNIT_ID.fullmatch(uid):
        t.problems.add(t.path, "a land unit id starts with its state's code, e.g. FR1IN (at most 32)")
    elif GITM_MADE.match(uid):
        t.problems.add(t.path, GITM_MADE_WHY)
    state = t.str_("state", uid[:2] if uid[:2] in states else None)
    if state is not None and state not in states:
        t.problems.add(t.where("state"), f"unknown state {state!r}")
    men = {arm: t.int_(arm, 0, lo=0) for arm in ("infantry", "cavalry", "artillery", "batteries")}
    hq = t.str_("headquarters", Headquarters.NONE.value, choices=_HEADQUARTERS)
    supplies = t.int_("supplies", 0, lo=0)
    if t.problems.count > before or state is None or hq is None or supplies is None:
        return None
    inf, cav, art, bat = (int(men[k] or 0) for k in ("infantry", "cavalry", "artillery", "batteries"))
    headquarters = Headquarters(hq)
    if bat and not inf + cav:
        t.problems.add(t.where("batteries"), "batteries are attached to infantry or cavalry (section 9)")
    if supplies and headquarters is not Headquarters.CORPS:
        t.problems.add(t.where("supplies"), "only a corps headquarters carries supplies (section 9)")
    if not inf + cav + art and headquarters is Headquarters.NONE:
        t.problems.add(t.path, "a land unit has men or is a headquarters")
    if t.problems.count > before:
        return None
    return LandUnit(uid, state, inf, cav, art, bat, headquarters, supplies)


def named_aboard(raw: Mapping[str, Any]) -> set[str]:
    """Every unit id the file's ships name, read or not (a ship with a problem
    of its own still places its units: no second problem for them)."""
    tables = _tables(raw.get("ships"))
    for sq in _tables(raw.get("squadrons")):
        tables += _tables(sq.get("ships"))
    return {u for t in tables for u in _items(t.get("units")) if isinstance(u, str)}


def _items(value: object) -> list[object]:
    return list(value) if isinstance(value, list) else []


def _tables(value: object) -> list[Mapping[str, Any]]:
    return [v for v in _items(value) if isinstance(v, Mapping)]


def check_land_units(
    units: Mapping[str, LandUnit],
    paths: Mapping[str, str],
    ships: Mapping[str, tuple[str, Ship]],
    ports: Mapping[str, PortState],
    rules: RuleData,
    problems: Problems,
    aboard: Collection[str] = (),
) -> None:
    """Cross-checks of the declared units against garrisons and cargoes;
    ``aboard``: the units the file's ships name (:func:`named_aboard`)."""
    placed = {u for p in ports.values() for u in p.garrison} | set(aboard)
    placed |= {u for _, s in ships.values() for u in s.cargo.units}
    where = [(f"ports.{name}.garrison", p.garrison) for name, p in sorted(ports.items())]
    where += [(f"{path}.units", s.cargo.units) for path, s in ships.values()]
    for at, ids in where:
        for i, uid in enumerate(ids):
            if not PLACED_ID.fullmatch(uid):
                problems.add(join(at, i), "a unit id is 1 to 32 of A-Z a-z 0-9 _ -")
            elif GITM_MADE.match(uid):
                problems.add(join(at, i), GITM_MADE_WHY)
    for uid in sorted(set(paths) - placed):
        problems.add(paths[uid], f"{uid} is in no port's garrison and aboard no transport group")
    space = SpaceRules.of(rules)
    for sid in sorted(ships):
        path, ship = ships[sid]
        if ship.type is ShipType.TR:
            _check_cargo(path, ship, units, paths, space, problems)


def _check_cargo(
    path: str,
    ship: Ship,
    units: Mapping[str, LandUnit],
    paths: Mapping[str, str],
    space: SpaceRules,
    problems: Problems,
) -> None:
    for i, uid in enumerate(ship.cargo.units):
        unit = units.get(uid)
        if unit is not None and unit.state != ship.state:
            problems.add(join(f"{path}.units", i), f"{uid} is a unit of {unit.state}, not of {ship.state}")
    if any(u in paths and u not in units for u in ship.cargo.units) or not any(
        u in units for u in ship.cargo.units
    ):
        return  # a broken declaration is reported on its own; nothing known, nothing to check
    known = sum(unit_space(units[u], space) for u in ship.cargo.units if u in units)
    known += ship.cargo.supplies * space.per_supply
    every = all(u in units for u in ship.cargo.units)
    if (every and ship.cargo.space != known) or ship.cargo.space < known:
        need = "" if every else "at least "
        problems.add(
            f"{path}.space",
            f"{ship.cargo.space}, but the units and supplies aboard take {need}{known} (section 9)",
        )
