"""Scenarios: the start of a campaign (``data/scenarios/*.toml``).

A scenario names the states and their relations, the players and their roles,
every ship and transport group with its attributes and location (rules 2.2,
2.4), the ports' stores and garrisons, the campaign seed and its turns.  The
format is documented and versioned in ``docs/formats/scenario.md``.

:func:`parse_scenario` either returns a :class:`Scenario` or raises a
:class:`~pate.core.world.fields.DataError` listing every problem by its path in
the file; a scenario that validates always loads.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from pate.core.ruledata import RuleData
from pate.core.scenario.admirals import read_admirals
from pate.core.scenario.land import check_land_units, named_aboard, read_land_units
from pate.core.scenario.ships import (
    DEFAULT_KEYS,
    SQUADRON_KEYS,
    FleetContext,
    check_fleet,
    quality_labels,
    read_ship,
)
from pate.core.world.diplomacy import Diplomacy, State
from pate.core.world.fields import DataError, Problems, Table, join
from pate.core.world.geography import WorldMap
from pate.core.world.nations import Nations
from pate.core.world.ships import Ship
from pate.core.world.state import (
    COMBAT_RULESETS,
    NAVAL_RULESETS,
    Player,
    PortState,
    Role,
    TurnKind,
    WorldState,
)

FORMAT = 1  # version of the scenario file format (docs/formats/scenario.md)
MAX_TURNS = 99
NAME = re.compile(r"[a-z0-9][a-z0-9_-]*")
STATE_CODE = re.compile(r"[A-Z]{2}")

_TOP_KEYS = (
    "scenario",
    "states",
    "diplomacy",
    "players",
    "ports",
    "land_units",
    "ship_defaults",
    "ships",
    "squadrons",
    "admirals",
)
_HEADER_KEYS = (
    "format",
    "name",
    "title",
    "version",
    "description",
    "seed",
    "turns",
    "turn",
    "turn_kinds",
    "placement",
    "combat_rules",
    "naval_rules",
)
PLACEMENTS = ("random", "as_given")


@dataclass(frozen=True, slots=True)
class Scenario:
    name: str
    version: str
    description: str
    world: WorldState  # at its first turn; winds are drawn when a campaign is created
    title: str = ""
    format: int = FORMAT
    # rule 2.8: "random" places each ship at its station or its base when a
    # campaign starts; "as_given" keeps the positions written (teaching scenarios)
    placement: str = "random"


def parse_scenario(
    raw: Mapping[str, Any],
    world_map: WorldMap,
    rules: RuleData,
    nations: Nations | None = None,
) -> Scenario:
    """The scenario in ``raw`` (a parsed TOML file) on ``world_map``.

    ``nations`` supplies the states every scenario knows (``data/nations.toml``,
    ``pate.datafiles.load_nations()``); without it, the states are those
    controlling ports on the map plus the scenario's ``[states]`` table.
    """
    problems = Problems()
    top = Table(raw, "", problems)
    top.check_keys(_TOP_KEYS)
    header = _read_header(top)
    states = _read_states(top, nations, world_map)
    diplomacy = _read_diplomacy(top, states)
    players = _read_players(top, states)
    ports = _read_ports(top, world_map, states)
    turn = header.get("turn", 1) if isinstance(header.get("turn"), int) else 1
    ctx = FleetContext(
        world_map=world_map,
        rules=rules,
        states=frozenset(states),
        turn=turn,
        defaults=_read_defaults(top),
        nations=nations,
    )
    ships, declared = _read_ships(top, ctx, players)
    check_fleet(ships, declared, players, ports, ctx, problems=problems)
    land_units, unit_paths = read_land_units(top, frozenset(states))
    check_land_units(land_units, unit_paths, ships, ports, rules, problems, named_aboard(raw))
    admirals = read_admirals(top, players)
    problems.raise_if_any()
    assert diplomacy is not None
    kinds: tuple[TurnKind, ...] = header["turn_kinds"]
    world = WorldState(
        campaign=header["name"],
        turn=turn,
        turns=header["turns"],
        seed=header["seed"],
        kind=kinds[turn - 1] if kinds else TurnKind.CAMPAIGN,
        diplomacy=diplomacy,
        players=players,
        ships={sid: ship for sid, (_, ship) in sorted(ships.items())},
        ports=ports,
        winds={},
        turn_kinds=kinds,
        land_units=land_units,
        combat_rules=header["combat_rules"],
        naval_rules=header["naval_rules"],
        admirals=admirals,
    )
    return _scenario(header, world)


def _scenario(header: dict[str, Any], world: WorldState) -> Scenario:
    """The scenario as its header describes it, around its first world."""
    return Scenario(
        name=header["name"],
        version=header["version"],
        description=header["description"],
        title=header["title"],
        world=world,
        placement=header["placement"],
    )


def _read_header(top: Table) -> dict[str, Any]:
    t = top.table("scenario", required=True)
    if t is None:
        return {"turn_kinds": (), "combat_rules": "pate", "naval_rules": "pate"}
    t.check_keys(_HEADER_KEYS)
    fmt = t.int_("format")
    if fmt is not None and fmt != FORMAT:
        t.problems.add(t.where("format"), f"format {fmt} is not supported (this version reads {FORMAT})")
    name = t.str_("name")
    if name and not NAME.fullmatch(name):
        t.problems.add(t.where("name"), "use lower-case letters, digits, '-' and '_'")
    turns = t.int_("turns", 15, lo=1, hi=MAX_TURNS)  # rule 3.1: 15 turns
    kinds: list[TurnKind] = []
    items = t.str_list("turn_kinds")
    for path, kind in items:
        if kind in TurnKind._value2member_map_:
            kinds.append(TurnKind(kind))
        else:
            t.problems.add(path, f"{kind!r} is not one of: campaign, peace")
    if items and turns is not None and len(items) != turns:
        t.problems.add(t.where("turn_kinds"), f"{len(items)} turn kinds for {turns} turns")
    return {
        "name": name,
        "title": t.str_("title", name or ""),
        "version": t.str_("version", "1"),
        "description": t.str_("description", ""),
        "seed": t.int_("seed", lo=0, hi=2**63 - 1),
        "turns": turns,
        "turn": t.int_("turn", 1, lo=1, hi=turns or MAX_TURNS),
        "turn_kinds": tuple(kinds),
        "placement": _placement(t),
        "combat_rules": t.str_("combat_rules", "pate", choices=COMBAT_RULESETS) or "pate",
        "naval_rules": t.str_("naval_rules", "pate", choices=NAVAL_RULESETS) or "pate",
    }


def _placement(t: Table) -> str:
    return t.str_("placement", "random", choices=PLACEMENTS) or "random"


def _read_states(top: Table, nations: Nations | None, wmap: WorldMap) -> dict[str, State]:
    """Every state of ``data/nations.toml``, plus or overridden by ``[states]``.
    Without the nations, the states are those controlling ports on the map
    (each taken as its own nation)."""
    if nations is not None:
        states = dict(nations.states)
    else:
        codes = {p.controller for p in wmap.ports.values()}
        states = {c: State(code=c, nation=c, name=c) for c in codes}
    for code, t in top.tables("states"):
        t.check_keys(("nation", "name"))
        if not STATE_CODE.fullmatch(code):
            t.problems.add(t.path, "a state code is two capital letters (rule 2.2)")
            continue
        known = states.get(code)
        nation = t.str_("nation", known.nation if known else None)
        name = t.str_("name", known.name if known else None)
        if nations and nation and nation not in nations.nations:
            t.problems.add(t.where("nation"), f"unknown nation {nation!r}")
        elif nation and name:
            states[code] = State(code=code, nation=nation, name=name)
    return dict(sorted(states.items()))


def _read_diplomacy(top: Table, states: Mapping[str, State]) -> Diplomacy | None:
    t = top.table("diplomacy")
    pairs: dict[str, list[tuple[str, str]]] = {"wars": [], "alliances": []}
    if t is not None:
        t.check_keys(tuple(pairs))
        for key, out in pairs.items():
            for path, pair in _pairs(t, key):
                bad = [s for s in pair if s not in states]
                if bad:
                    t.problems.add(path, f"unknown state {bad[0]!r}")
                elif pair[0] == pair[1]:
                    t.problems.add(path, "a state cannot be at war or allied with itself")
                else:
                    out.append(pair)
        both = {frozenset(p) for p in pairs["wars"]} & {frozenset(p) for p in pairs["alliances"]}
        for pair_set in sorted(both, key=sorted):
            t.problems.add(
                t.where("alliances"), f"{' and '.join(sorted(pair_set))} are both at war and allied"
            )
    return Diplomacy.build(dict(states), wars=pairs["wars"], alliances=pairs["alliances"])


def _pairs(t: Table, key: str) -> list[tuple[str, tuple[str, str]]]:
    value = t.data.get(key, [])
    if not isinstance(value, list):
        t.problems.add(t.where(key), "expected an array of [state, state] pairs")
        return []
    out: list[tuple[str, tuple[str, str]]] = []
    for i, item in enumerate(value):
        path = join(t.where(key), i)
        if isinstance(item, list) and len(item) == 2 and all(isinstance(s, str) for s in item):
            out.append((path, (item[0], item[1])))
        else:
            t.problems.add(path, 'expected a pair of state codes, e.g. ["BR", "FR"]')
    return out


def _read_players(top: Table, states: Mapping[str, State]) -> dict[str, Player]:
    players: dict[str, Player] = {}
    ministers: dict[str, str] = {}
    for pid, t in top.tables("players"):
        t.check_keys(("name", "state", "roles", "password"))
        if "password" in t:
            # passwords are set when a campaign is created (CreateCampaign), never published
            t.problems.add(t.where("password"), "passwords do not belong in scenario files")
        name = t.str_("name")
        state = t.opt_str("state")
        if state is not None and state not in states:
            t.problems.add(t.where("state"), f"unknown state {state!r}")
        roles: set[Role] = set()
        for path, role in t.str_list("roles", required=True):
            if role in Role._value2member_map_:
                roles.add(Role(role))
            else:
                t.problems.add(path, f"{role!r} is not one of: {', '.join(r.value for r in Role)}")
        if state is None and roles - {Role.ADMIN}:
            t.problems.add(t.where("state"), "a player who is not only an admin needs a state")
        if Role.NAVAL_MINISTER in roles and state:
            if state in ministers:
                t.problems.add(
                    t.where("roles"), f"{state} already has a naval minister: {ministers[state]!r}"
                )
            ministers[state] = pid
        if name and roles:
            players[pid] = Player(id=pid, name=name, state=state, roles=frozenset(roles))
    return dict(sorted(players.items()))


def _read_ports(top: Table, wmap: WorldMap, states: Mapping[str, State]) -> dict[str, PortState]:
    """Every port of the map, with the scenario's changes (controller, stores,
    garrison, loose GITM supplies)."""
    ports = {
        name: PortState(name=name, controller=p.controller, stores=p.stores) for name, p in wmap.ports.items()
    }
    for name, t in top.tables("ports"):
        t.check_keys(("controller", "stores", "garrison", "supplies", "battery_damaged", "building"))
        port = wmap.ports.get(name)
        if port is None:
            t.problems.add(t.path, f"unknown port {name!r}")
            continue
        controller = t.str_("controller", port.controller, choices=states)
        stores = t.int_("stores", port.stores, lo=0)
        building = t.int_("building", 0, lo=0, hi=port.yard)
        damaged = t.bool_("battery_damaged", False)
        garrison = tuple(u for _, u in t.str_list("garrison"))
        supplies = t.int_("supplies", 0, lo=0)  # section 9: loadable by transport groups
        if stores is None or building is None or damaged is None or supplies is None:
            ports[name] = replace(ports[name], garrison=garrison)  # placed, for the land unit checks
            continue
        if controller:
            ports[name] = PortState(
                name=name,
                controller=controller,
                stores=stores,
                battery_damaged=damaged,
                building=building,
                garrison=garrison,
                supplies=supplies,
            )
    return ports


def _read_defaults(top: Table) -> dict[str, object]:
    t = top.table("ship_defaults")
    if t is None:
        return {}
    t.check_keys(DEFAULT_KEYS)
    t.str_("quality", "Average", choices=quality_labels())
    for key in ("experience", "morale", "stores"):
        t.int_(key, 0, lo=0)
    return dict(t.data)


def _read_ships(
    top: Table, ctx: FleetContext, players: Mapping[str, Player]
) -> tuple[dict[str, tuple[str, Ship]], frozenset[str]]:
    """Valid ships by id, each with its path, and every id declared (valid or
    not).  A ship without a commander gets its state's naval minister (the
    original game's default)."""
    ministers = {p.state: p.id for p in players.values() if Role.NAVAL_MINISTER in p.roles}
    ships: dict[str, tuple[str, Ship]] = {}
    first_path: dict[str, str] = {}
    for t in _ship_tables(top):
        sid = t.data.get("id")
        if isinstance(sid, str) and sid.strip():
            if sid in first_path:
                t.problems.add(t.where("id"), f"{sid} already defined at {first_path[sid]}")
                continue
            first_path[sid] = t.path
        ship = read_ship(t, ctx)
        if ship is None:
            continue
        if ship.commander is None and ship.state in ministers and "commander" not in t:
            ship = _with_commander(ship, ministers[ship.state])
        ships[ship.id] = (t.path, ship)
    return ships, frozenset(first_path)


def _ship_tables(top: Table) -> list[Table]:
    """The ``[[ships]]`` entries, then the ships of each ``[[squadrons]]`` entry
    with the squadron's keys as defaults (``attach = true``: every ship is
    attached to the squadron's first ship, rule 4.4)."""
    out = [t for _, t in top.array_of_tables("ships")]
    for _, sq in top.array_of_tables("squadrons"):
        sq.check_keys((*SQUADRON_KEYS, "attach", "ships"))
        attach = sq.bool_("attach", False)
        shared = {k: v for k, v in sq.data.items() if k in SQUADRON_KEYS}
        origins = {k: sq.where(k) for k in shared}
        members = list(sq.array_of_tables("ships"))
        if not members:
            sq.problems.add(sq.where("ships"), "a squadron needs at least one ship")
        lead = members[0][1].data.get("id") if members else None
        for j, (_, t) in enumerate(members):
            data = {**shared, **t.data}
            if attach and j > 0 and "attached_to" not in t.data and isinstance(lead, str):
                data["attached_to"] = lead
                origins_j = {**origins, "attached_to": sq.where("attach")}
            else:
                origins_j = origins
            out.append(
                Table(data, t.path, t.problems, {k: p for k, p in origins_j.items() if k not in t.data})
            )
    return out


def _with_commander(ship: Ship, pid: str) -> Ship:
    return replace(ship, commander=pid)


__all__ = ["FORMAT", "DataError", "Scenario", "parse_scenario"]
