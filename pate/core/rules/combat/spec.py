"""The battle simulator's spec file, read from already-parsed JSON.

Every problem raises :class:`SpecError` with the path of the field at fault,
e.g. ``sides.A.ships[2].quality``.  Missing ship fields take the class maximum
crew and Marines, Average quality, experience 0 and no damage; missing orders
take the default orders of rule 4.11.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, TypeVar

from pate.core.orders.model import Aim, CombatStance, FleeTo, Gauge, Line, Range
from pate.core.rules.combat.model import Battle, BattleShip, ShoreBattery, Where
from pate.core.rules.combat.params import CombatRules
from pate.core.world.geography import WindStrength
from pate.core.world.ships import Quality, ShipType

SIDES = ("A", "B")
_TOP_KEYS = {
    "name",
    "notes",
    "assumptions",
    "sources",
    "limits",
    "history",
    "location",
    "wind",
    "onshore",
    "shore_battery",
    "sides",
}
_SIDE_KEYS = {"state", "gauge", "orders", "ships", "notes"}
_ORDER_KEYS = {"combat", "range", "line", "aim", "flee_to"}
_SHIP_KEYS = {
    "type",
    "count",
    "crew",
    "marines",
    "quality",
    "experience",
    "hull_damage",
    "rigging_damage",
    "name",
    "orders",  # this entry's own orders, over its side's (a chase: the rear caught, the rest evading)
}
_BATTERY_KEYS = {"side", "defense_rating", "damaged"}

E = TypeVar("E", bound=Enum)


class SpecError(ValueError):
    """A bad spec; the message starts with the path of the field."""


@dataclass(frozen=True, slots=True)
class BattleSpec:
    name: str
    battle: Battle
    states: tuple[str, str]
    history: Mapping[str, Any] = field(default_factory=dict)  # calibration targets, if any


def parse_spec(raw: Any, rules: CombatRules) -> BattleSpec:
    top = _object(raw, "spec")
    _known(top, _TOP_KEYS, "")
    sides_raw = _object(top.get("sides"), "sides")
    _known(sides_raw, set(SIDES), "sides.")
    for s in SIDES:
        if s not in sides_raw:
            raise SpecError(f"sides.{s}: missing")
    where = _enum(Where, top.get("location", "sea"), "location")
    battery = _battery(top.get("shore_battery"), where)
    ships: list[BattleShip] = []
    states: list[str] = []
    gauges: list[Gauge | None] = []
    for n, s in enumerate(SIDES):
        side = _object(sides_raw[s], f"sides.{s}")
        _known(side, _SIDE_KEYS, f"sides.{s}.")
        states.append(_text(side.get("state", s), f"sides.{s}.state"))
        g = side.get("gauge")
        gauges.append(None if g is None else _enum(Gauge, g, f"sides.{s}.gauge"))
        ships.extend(_side_ships(side, n, s, rules))
    history = top.get("history", {})
    return BattleSpec(
        name=_text(top.get("name", ""), "name"),
        battle=Battle(
            ships=tuple(ships),
            where=where,
            wind=_enum(WindStrength, top.get("wind", "moderate"), "wind"),
            onshore=_flag(top.get("onshore", False), "onshore"),
            windward=_windward(gauges[0], gauges[1]),
            battery=battery,
        ),
        states=(states[0], states[1]),
        history=_object(history, "history"),
    )


def _windward(a: Gauge | None, b: Gauge | None) -> int | None:
    """The side to windward when the two requests agree; otherwise a die decides (6.9)."""
    if a is Gauge.WINDWARD and b is not Gauge.WINDWARD:
        return 0
    if b is Gauge.WINDWARD and a is not Gauge.WINDWARD:
        return 1
    if a is Gauge.LEEWARD and b is None:
        return 1
    if b is Gauge.LEEWARD and a is None:
        return 0
    return None


_Orders = tuple[CombatStance, Range, Line, Aim, FleeTo]


def _orders(raw: Any, path: str, base: Mapping[str, Any]) -> _Orders:
    """A side's orders, or a ship entry's own over its side's."""
    orders = {**base, **_object(raw, path)}
    _known(orders, _ORDER_KEYS, path + ".")
    return (
        _enum(CombatStance, orders.get("combat", "accept"), path + ".combat"),
        _enum(Range, orders.get("range", "range"), path + ".range"),
        _enum(Line, orders.get("line", "line_ahead"), path + ".line"),
        _enum(Aim, orders.get("aim", "rigging"), path + ".aim"),
        _enum(FleeTo, orders.get("flee_to", "harbor"), path + ".flee_to"),
    )


def _side_ships(side: Mapping[str, Any], n: int, s: str, rules: CombatRules) -> list[BattleShip]:
    side_orders = _object(side.get("orders", {}), f"sides.{s}.orders")
    _orders(side_orders, f"sides.{s}.orders", {})
    entries = side.get("ships")
    if not isinstance(entries, list) or not entries:
        raise SpecError(f"sides.{s}.ships: must be a non-empty list")
    out: list[BattleShip] = []
    for k, entry in enumerate(entries):
        path = f"sides.{s}.ships[{k}]"
        e = _object(entry, path)
        _known(e, _SHIP_KEYS, path + ".")
        stance, rng, line, aim, flee = _orders(e.get("orders", {}), path + ".orders", side_orders)
        type_ = _enum(ShipType, e.get("type"), path + ".type")
        count = _int(e.get("count", 1), path + ".count", 1, 1000)
        crew_max, marines_max = rules.max_crew[type_], rules.max_marines[type_]
        quality_raw = e.get("quality", "Average")
        try:
            quality = Quality.from_label(str(quality_raw))
        except KeyError:
            labels = ", ".join(q.label for q in Quality)
            raise SpecError(f"{path}.quality: {quality_raw!r} is not one of {labels}") from None
        crew = _int(e.get("crew", crew_max), path + ".crew", 0, crew_max)
        marines = _int(e.get("marines", marines_max), path + ".marines", 0, marines_max)
        experience = _int(e.get("experience", 0), path + ".experience", 0, 1000)
        hull = _int(e.get("hull_damage", 0), path + ".hull_damage", 0, 4)
        rigging = _int(e.get("rigging_damage", 0), path + ".rigging_damage", 0, 5)
        for _ in range(count):
            out.append(
                BattleShip(
                    key=f"{s}{len(out) + 1}",
                    side=n,
                    type=type_,
                    crew=crew,
                    marines=marines,
                    quality=quality,
                    experience=experience,
                    hull=hull,
                    rigging=rigging,
                    stance=stance,
                    range=rng,
                    line=line,
                    aim=aim,
                    flee_to=flee,
                )
            )
    return out


def _battery(raw: Any, where: Where) -> ShoreBattery | None:
    if raw is None:
        return None
    b = _object(raw, "shore_battery")
    _known(b, _BATTERY_KEYS, "shore_battery.")
    if where is not Where.HARBOR:
        raise SpecError("shore_battery: shore batteries fight only in a harbor (rule 7.1)")
    side = b.get("side")
    if side not in SIDES:
        raise SpecError(f"shore_battery.side: {side!r} is not A or B")
    return ShoreBattery(
        side=SIDES.index(side),
        defense=_int(b.get("defense_rating"), "shore_battery.defense_rating", 0, 100),
        damaged=_flag(b.get("damaged", False), "shore_battery.damaged"),
    )


def _object(raw: Any, path: str) -> Mapping[str, Any]:
    if not isinstance(raw, Mapping):
        raise SpecError(f"{path}: must be an object")
    return raw


def _known(raw: Mapping[str, Any], keys: set[str], prefix: str) -> None:
    for k in raw:
        if k not in keys:
            raise SpecError(f"{prefix}{k}: unknown field (expected one of {', '.join(sorted(keys))})")


def _enum(kind: type[E], raw: Any, path: str) -> E:
    if raw is None:
        raise SpecError(f"{path}: missing")
    try:
        return kind(raw)
    except ValueError:
        allowed = " | ".join(str(m.value) for m in kind)
        raise SpecError(f"{path}: {raw!r} is not one of {allowed}") from None


def _int(raw: Any, path: str, low: int, high: int) -> int:
    if raw is None:
        raise SpecError(f"{path}: missing")
    if isinstance(raw, bool) or not isinstance(raw, int):
        raise SpecError(f"{path}: {raw!r} is not a whole number")
    if not low <= raw <= high:
        raise SpecError(f"{path}: {raw} is outside {low}..{high}")
    return raw


def _flag(raw: Any, path: str) -> bool:
    if not isinstance(raw, bool):
        raise SpecError(f"{path}: {raw!r} is not true or false")
    return raw


def _text(raw: Any, path: str) -> str:
    if not isinstance(raw, str):
        raise SpecError(f"{path}: {raw!r} is not text")
    return raw
