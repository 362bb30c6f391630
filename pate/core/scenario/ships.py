"""Reading the ships and transport groups of a scenario (rule section 2).

Each ship is read on its own first (:func:`read_ship`), then checked against
the others (:func:`check_fleet`): attachments, commanders, inactive ships.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from pate.core.orders.limits import OrderLimits, extra_crew_space, extra_stores_space
from pate.core.ruledata import RuleData
from pate.core.world.fields import Problems, Table
from pate.core.world.geography import WorldMap
from pate.core.world.invariants import check_attachment, check_units_in_one_place
from pate.core.world.nations import Nations
from pate.core.world.ships import (
    AtSea,
    Cargo,
    InAtlantic,
    InPort,
    Location,
    Quality,
    Ship,
    ShipType,
    parse_ship_id,
)
from pate.core.world.state import Player, PortState

MAX_HULL = 4  # rule 2.2: a ship sinks when hull damage reaches 5
MAX_RIGGING = 5
MAX_MORALE = 9
TR_CAPACITY = (1000, 20000)  # recovered help page on transports (rule 2.5 says 2,000 for divided groups)

SHIP_KEYS = (
    "id",
    "name",
    "sea_area",
    "tactical",
    "port",
    "harbor",
    "crossing_to",
    "arrives_turn",
    "crossing_group",
    "base",
    "quality",
    "experience",
    "morale",
    "stores",
    "crew",
    "marines",
    "capacity",
    "hull",
    "rigging",
    "commander",
    "deputy",
    "attached_to",
    "active",
    "reactivates_turn",
    "station",
    "units",
    "supplies",
    "space",
)
DEFAULT_KEYS = ("quality", "experience", "morale", "stores")
# keys a squadron gives all its ships (each ship may override them)
SQUADRON_KEYS = (
    "sea_area",
    "tactical",
    "port",
    "harbor",
    "crossing_to",
    "arrives_turn",
    "crossing_group",
    "base",
    "quality",
    "experience",
    "morale",
    "stores",
    "commander",
    "deputy",
    "active",
)


@dataclass(frozen=True, slots=True)
class FleetContext:
    world_map: WorldMap
    rules: RuleData
    states: frozenset[str]
    turn: int
    defaults: Mapping[str, object]
    nations: Nations | None = None


@dataclass(frozen=True, slots=True)
class _Load:
    """What a ship carries: the attributes whose limits depend on its type."""

    crew: int
    marines: int
    stores: int
    capacity: int = 0
    cargo: Cargo = field(default_factory=Cargo)


def quality_labels() -> list[str]:
    return [q.label for q in Quality]


def read_ship(t: Table, ctx: FleetContext) -> Ship | None:
    """One ship or transport group; ``None`` (with problems recorded) if invalid."""
    t.check_keys(SHIP_KEYS)
    before = t.problems.count
    sid = t.str_("id")
    parsed = parse_ship_id(sid) if sid else None
    if sid and parsed is None:
        t.problems.add(t.where("id"), f"{sid!r} is not a ship id like BR1FL or NE4TR (rule 2.2)")
    if parsed and parsed[0] not in ctx.states:
        t.problems.add(t.where("id"), f"unknown state {parsed[0]!r}")
    name = t.str_("name")
    location = _read_location(t, ctx)
    base = t.str_("base")
    if base and base not in ctx.world_map.ports:
        t.problems.add(t.where("base"), f"unknown port {base!r}")
    inherited = {k: f"ship_defaults.{k}" for k in ctx.defaults if k not in t.data}
    merged = Table({**ctx.defaults, **t.data}, t.path, t.problems, {**inherited, **t.origins})
    quality = merged.str_("quality", Quality.AVERAGE.label, choices=quality_labels())
    experience = merged.int_("experience", 0, lo=0)
    morale = merged.int_("morale", 2, lo=0, hi=MAX_MORALE)
    hull = t.int_("hull", 0, lo=0, hi=MAX_HULL)
    rigging = t.int_("rigging", 0, lo=0, hi=MAX_RIGGING)
    station = t.int_("station", 0, lo=0)
    active = t.bool_("active", True)
    if parsed is None or t.problems.count > before:
        _read_rest(t, merged, ctx, None)  # still report problems in the other fields
        return None
    state, number, type_ = parsed
    rest = _read_rest(t, merged, ctx, type_)
    if rest is None or t.problems.count > before:
        return None
    assert sid and name and location and base and quality and active is not None
    assert experience is not None and morale is not None and hull is not None
    assert rigging is not None and station is not None
    return Ship(
        id=sid,
        state=state,
        type=type_,
        number=number,
        name=name,
        location=location,
        base=base,
        quality=Quality.from_label(quality),
        experience=experience,
        morale=morale,
        hull=hull,
        rigging=rigging,
        station=station,
        active=active,
        commander=t.opt_str("commander"),
        deputy=t.opt_str("deputy"),
        attached_to=t.opt_str("attached_to"),
        reactivates_turn=t.int_("reactivates_turn", 0, lo=ctx.turn) or None,
        crew=rest.crew,
        marines=rest.marines,
        stores=rest.stores,
        capacity=rest.capacity,
        cargo=rest.cargo,
    )


def _read_rest(t: Table, merged: Table, ctx: FleetContext, type_: ShipType | None) -> _Load | None:
    """Crew, marines, stores, capacity and cargo: limits depend on the type (rule 2.7)."""
    if type_ is None:
        for key in ("crew", "marines", "capacity", "supplies", "space"):
            t.int_(key, 0, lo=0)
        merged.int_("stores", 0, lo=0)
        return None
    cls = ctx.rules.ship_class(type_)
    if type_ is ShipType.TR:
        return _read_transport(t, merged, cls.stores_max, OrderLimits.from_rules(ctx.rules))
    for key in ("capacity", "units", "supplies", "space"):
        if key in t:
            t.problems.add(t.where(key), "only transport groups have capacity and cargo (rule 2.4)")
    crew = t.int_("crew", cls.max_crew, lo=0, hi=cls.max_crew)
    marines = t.int_("marines", cls.max_marines, lo=0, hi=cls.max_marines)
    stores = merged.int_("stores", cls.stores_max, lo=0, hi=cls.stores_max)
    if crew is None or marines is None or stores is None:
        return None
    return _Load(crew=crew, marines=marines, stores=stores)


def _read_transport(t: Table, merged: Table, stores_max: int, limits: OrderLimits) -> _Load | None:
    if "marines" in t:
        t.problems.add(t.where("marines"), "transport groups carry no Marines (rule 2.4)")
    capacity = t.int_("capacity", lo=TR_CAPACITY[0], hi=TR_CAPACITY[1])
    if capacity is None:
        return None
    crew = t.int_("crew", capacity // limits.capacity_per_crew, lo=0)
    stores = merged.int_("stores", stores_max, lo=0)
    units = tuple(u for _, u in t.str_list("units"))
    supplies = t.int_("supplies", 0, lo=0)
    space = t.int_("space", 0, lo=0)
    if crew is None or stores is None or supplies is None or space is None:
        return None
    # rule 2.7: crew above 1 per 10 capacity, and rule 3.4: stores above the
    # ship maximum, take room that units and supplies would otherwise use
    used = space + extra_crew_space(capacity, crew, limits) + extra_stores_space(stores, stores_max, limits)
    if used > capacity:
        t.problems.add(
            t.path,
            f"cargo space {space}, extra crew and extra stores need {used}, above the capacity {capacity}",
        )
        return None
    cargo = Cargo(units=units, supplies=supplies, space=space)
    return _Load(crew=crew, marines=0, stores=stores, capacity=capacity, cargo=cargo)


def _read_location(t: Table, ctx: FleetContext) -> Location | None:
    """Rule 1.2: a tactical area of a sea area, or the harbor or coastal waters
    of a port; or crossing the Atlantic (rule 6.11)."""
    kinds = [k for k in ("sea_area", "port", "crossing_to") if k in t]
    if len(kinds) != 1:
        t.problems.add(t.path, "give exactly one of sea_area, port or crossing_to")
        return None
    wmap = ctx.world_map
    if kinds[0] == "sea_area":
        code = t.str_("sea_area")
        if code is None:
            return None
        if code not in wmap.sea_areas:
            t.problems.add(t.where("sea_area"), f"unknown sea area {code!r}")
            return None
        tactical = t.int_("tactical", 1, lo=1, hi=wmap.sea_areas[code].tactical_areas)
        return AtSea(area=code, tactical=tactical) if tactical is not None else None
    if kinds[0] == "port":
        name = t.str_("port")
        harbor = t.bool_("harbor", True)
        if name is None or harbor is None:
            return None
        if name not in wmap.ports:
            t.problems.add(t.where("port"), f"unknown port {name!r}")
            return None
        return InPort(port=name, harbor=harbor)
    dest = t.str_("crossing_to")
    arrives = t.int_("arrives_turn", lo=ctx.turn)
    group = t.str_("crossing_group", "")
    if dest is None or arrives is None:
        return None
    if dest not in wmap.sea_areas:
        t.problems.add(t.where("crossing_to"), f"unknown sea area {dest!r}")
        return None
    return InAtlantic(destination=dest, arrives_turn=arrives, group=group or dest)


def check_fleet(
    ships: dict[str, tuple[str, Ship]],
    declared: frozenset[str],
    players: Mapping[str, Player],
    ports: Mapping[str, PortState],
    ctx: FleetContext,
    *,
    problems: Problems,
) -> None:
    """Cross-checks between ships, players and ports.  ``declared`` holds every
    ship id of the file, so that a broken ship is not reported twice."""
    for sid in sorted(ships):
        path, ship = ships[sid]
        _check_officers(path, ship, players, problems)
        if ship.attached_to not in declared or ship.attached_to in ships:
            check_attachment(path, ship, ships, problems)
        if not ship.active:
            _check_inactive(path, ship, ports, ctx, problems)
        elif ship.reactivates_turn is not None:
            problems.add(f"{path}.reactivates_turn", "only inactive ships reactivate (rule 2.6)")
    check_units_in_one_place(ships, ports, problems)


def _check_officers(path: str, ship: Ship, players: Mapping[str, Player], problems: Problems) -> None:
    """Rule 2.3: commander and deputy are players of the ship's state."""
    for role in ("commander", "deputy"):
        pid = getattr(ship, role)
        if pid is None:
            continue
        player = players.get(pid)
        if player is None:
            problems.add(f"{path}.{role}", f"{pid!r} is not a player")
        elif player.state != ship.state:
            problems.add(
                f"{path}.{role}", f"player {pid!r} plays {player.state}, not {ship.state} (rule 2.3)"
            )
    if ship.commander is not None and ship.commander == ship.deputy:
        problems.add(f"{path}.deputy", "the deputy must differ from the commander")


def _check_inactive(
    path: str,
    ship: Ship,
    ports: Mapping[str, PortState],
    ctx: FleetContext,
    problems: Problems,
) -> None:
    """Rule 2.6: only ships (not transport groups), in harbor of an on-map port
    of their home nation controlled by their own state."""
    where = f"{path}.active"
    if ship.type is ShipType.TR:
        problems.add(where, "transport groups cannot be inactivated (rule 2.6)")
        return
    loc = ship.location
    if not isinstance(loc, InPort) or not loc.harbor:
        problems.add(where, "inactive ships lie in the harbor of a port (rule 2.6)")
        return
    port = ctx.world_map.ports[loc.port]
    home = ctx.nations.nation_of(ship.state) if ctx.nations else None
    if home is not None and port.nation != home:
        problems.add(where, f"{loc.port} is not a port of the ship's home nation {home} (rule 2.6)")
    if ports[loc.port].controller != ship.state:
        problems.add(where, f"{loc.port} is not controlled by {ship.state} (rule 2.6)")
    if not port.on_gitm_map:
        problems.add(where, f"{loc.port} is an off-map port (rule 2.6)")
