"""Reading the ``[[turn]]`` and ``[[expect]]`` entries of a case file
(docs/formats/cases.md), every problem recorded with its path, and locating
those problems by line in the file."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace

from pate.core.orders.lexer import OrderSyntaxError, Problem
from pate.core.orders.model import ShipOrder, StoresMove
from pate.core.world.fields import Problems, Table, type_name
from pate.core.world.geography import WorldMap
from pate.core.world.ships import Quality
from pate.core.world.state import TurnKind, Wind
from pate.engine.case_checks import Check, CountCheck, RefusalCheck, SequenceCheck
from pate.engine.case_dice import read_dice
from pate.engine.case_event_read import known_kinds, read_event, unknown_kind
from pate.engine.case_moves import read_moves
from pate.engine.case_orders import TurnOrders, read_orders
from pate.engine.case_state import (
    INT_ATTRIBUTES,
    NAME_ATTRIBUTES,
    PORT_ATTRIBUTES,
    SHIP_ATTRIBUTES,
    PortCheck,
    ReportCheck,
    ShipCheck,
)
from pate.engine.overrides import read_winds

_TURN_KEYS = ("orders", "winds", "kind", "note", "stores", "refusals", "dice")
_COMMON_KEYS = ("turn", "runs", "chance_between", "note")
_SHIP_KEYS = (
    "ship",
    "at",
    "tactical",
    "port",
    "harbor",
    "atlantic",
    "with",
    "near",
    "exists",
    "not",
    "created",
    "prize_of",
    "divided_from",
    *SHIP_ATTRIBUTES,
)
_PORT_KEYS = ("port", "not", *PORT_ATTRIBUTES)
_SEQUENCE_KEYS = ("sequence", "ships", "absent")
_REFUSAL_KEYS = ("ship", "store_move", "refused_rule", "field", "message")
_COUNT_KEYS = ("count", "of")
MAX_COUNTED = 20  # statements in one count
_REPORT_KEYS = ("report", "contains", "lacks", "format")
REPORT_FORMATS = ("text", "html", "json")
MAX_RUNS = 10_000

OrderProblems = Callable[[int, OrderSyntaxError], list[tuple[str, str]]]


@dataclass(frozen=True, slots=True)
class TurnSpec:
    orders: list[ShipOrder] = field(default_factory=list)
    winds: dict[str, Wind] = field(default_factory=dict)
    kind: TurnKind | None = None  # None: as the scenario says
    stores_moves: list[StoresMove] = field(default_factory=list)  # rule 3.5, the ministers'
    refusals_allowed: bool = False  # the turn's refusals need no refused_rule statement
    dice: dict[str, tuple[int, ...]] = field(default_factory=dict)  # fixed, by purpose
    unreadable: dict[str, list[Problem]] = field(default_factory=dict)  # ship -> its block's syntax problems


@dataclass(frozen=True, slots=True)
class Expectation:
    index: int  # position among the [[expect]] entries
    turn: int  # checked after this turn (0: the start of the campaign)
    check: Check
    runs: int = 0  # 0: one run with the case's seed; else seeds seed .. seed+runs-1
    chance: tuple[float, float] = (1.0, 1.0)  # share of the runs in which it holds
    note: str = ""

    def name(self) -> str:
        runs = f", {self.runs} runs" if self.runs else ""
        return f"expect[{self.index}] (turn {self.turn}{runs})"


# -- [[turn]] ----------------------------------------------------------------------
def read_turns(
    top: Table, world_map: WorldMap, problems: Problems, on_syntax: OrderProblems, faces: dict[str, int]
) -> list[TurnSpec]:
    out = []
    for i, t in top.array_of_tables("turn"):
        t.check_keys(_TURN_KEYS)
        t.opt_str("note")
        read = TurnOrders()
        text = t.data.get("orders", "")
        if not isinstance(text, str):
            problems.add(t.where("orders"), f"expected a string of orders, found {type_name(text)}")
        else:
            read = read_orders(text)
            if read.problems:
                for path, message in on_syntax(i, OrderSyntaxError(read.problems)):
                    problems.add(path, message)
        kind = t.opt_str("kind")
        if kind is not None and kind not in TurnKind._value2member_map_:
            problems.add(t.where("kind"), f"{kind!r} is not one of: campaign, peace")
            kind = None
        winds = read_winds(t.table("winds"), world_map)
        moves = read_moves(t, world_map)
        allowed = t.str_("refusals", "stated", choices=("stated", "allowed")) == "allowed"
        dice = read_dice(t, faces)
        spec = TurnSpec(read.orders, winds, TurnKind(kind) if kind else None, moves, allowed, dice)
        out.append(replace(spec, unreadable=read.unreadable))
    return out


# -- [[expect]] --------------------------------------------------------------------
def read_expectations(
    top: Table, world_map: WorldMap, problems: Problems, turns: int = 1
) -> list[Expectation]:
    """When the case plays more than one turn (``[[turn]]``s, or a statement
    naming a later turn) every statement names its turn: a default would
    move when a turn is added."""
    out = []
    unnamed: list[str] = []
    for i, t in top.array_of_tables("expect"):
        check = _check(t, world_map)
        if "turn" not in t:
            unnamed.append(t.path)
        turn = t.int_("turn", -1, lo=0)
        runs = t.int_("runs", 0, lo=1, hi=MAX_RUNS)
        chance = _chance(t, runs)
        note = t.opt_str("note") or ""
        if check is not None and turn is not None and runs is not None and chance is not None:
            out.append(Expectation(i, turn, check, runs, chance, note))
    played = max([turns, 1, *(e.turn for e in out)])
    if played > 1:
        for path in unnamed:
            problems.add(path, f"say after which turn (turn = 0 to {played}): the case plays {played} turns")
    return [e if e.turn >= 0 else _at(e, played) for e in out]


def _at(e: Expectation, turn: int) -> Expectation:
    """An expectation without ``turn`` is checked after the last turn."""
    return Expectation(e.index, max(turn, 1), e.check, e.runs, e.chance, e.note)


def _chance(t: Table, runs: int | None) -> tuple[float, float] | None:
    if "chance_between" not in t:
        return (1.0, 1.0)
    value = t.data["chance_between"]
    ok = (
        isinstance(value, list)
        and len(value) == 2
        and all(isinstance(v, int | float) and not isinstance(v, bool) for v in value)
        and 0 <= value[0] <= value[1] <= 1
    )
    if not ok:
        t.problems.add(t.where("chance_between"), "give [low, high], shares from 0 to 1, low <= high")
        return None
    if not runs:
        t.problems.add(t.where("chance_between"), "a chance needs runs = N (the number of seeds to try)")
        return None
    return (float(value[0]), float(value[1]))


def _check(t: Table, world_map: WorldMap) -> Check | None:
    if "refused_rule" in t:
        t.check_keys((*_REFUSAL_KEYS, *_COMMON_KEYS))
        if "store_move" in t:
            n = t.int_("store_move", lo=0)
            ship = None if n is None else f"stores[{n}]"
        else:
            ship = t.str_("ship")
        rule, fld = t.str_("refused_rule"), t.opt_str("field")
        return RefusalCheck(ship, rule, fld, t.opt_str("message")) if ship and rule else None
    if "count" in t:
        return _count(t, world_map)
    if "event" in t:
        return read_event(t, world_map, _COMMON_KEYS)
    if "sequence" in t:
        t.check_keys((*_SEQUENCE_KEYS, *_COMMON_KEYS))
        steps = t.str_list("sequence", required=True)
        for path, step in steps:
            kind = step.split()[0] if step.split() else ""
            if kind not in known_kinds():
                t.problems.add(path, unknown_kind(kind))
        ships = tuple(s for _, s in t.str_list("ships"))
        kinds = tuple(k for _, k in steps)
        return SequenceCheck(kinds, ships, bool(t.bool_("absent", False))) if kinds else None
    if "ship" in t or "prize_of" in t or "divided_from" in t:
        return _ship(t, world_map)
    if "port" in t:
        return _port(t, world_map)
    if "report" in t:
        return _report(t)
    t.problems.add(t.path, "say what to expect: ship, port, event, sequence, report or refused_rule")
    return None


def _count(t: Table, world_map: WorldMap) -> CountCheck | None:
    """``count = [low, high]`` with ``of = [{statement}, ...]``: between low
    and high of the statements hold ("at most 2 of the 3", "either ... or")."""
    t.check_keys((*_COUNT_KEYS, *_COMMON_KEYS))
    bounds = t.data.get("count")
    items = t.data.get("of")
    if not isinstance(items, list) or not 1 <= len(items) <= MAX_COUNTED:
        t.problems.add(t.where("of"), f"give a list of 1 to {MAX_COUNTED} statements (inline tables)")
        return None
    ok = (
        isinstance(bounds, list)
        and len(bounds) == 2
        and all(isinstance(b, int) and not isinstance(b, bool) for b in bounds)
        and 0 <= bounds[0] <= bounds[1] <= len(items)
    )
    if not ok:
        t.problems.add(t.where("count"), f"give [low, high], whole numbers, 0 <= low <= high <= {len(items)}")
        return None
    checks = []
    for i, item in enumerate(items):
        sub = Table.at(item, f"{t.path}.of[{i}]", t.problems)
        if sub is None:
            continue
        if "turn" in sub.data or "runs" in sub.data or "count" in sub.data:
            t.problems.add(f"{t.path}.of[{i}]", "turn, runs and count belong to the counting statement")
            continue
        check = _check(sub, world_map)
        if check is not None:
            checks.append(check)
    if len(checks) != len(items):
        return None
    assert isinstance(bounds, list)
    return CountCheck(tuple(checks), (int(bounds[0]), int(bounds[1])))


def _port(t: Table, world_map: WorldMap) -> PortCheck | None:
    t.check_keys((*_PORT_KEYS, *_COMMON_KEYS))
    port = t.str_("port")
    if port is not None and port not in world_map.ports:
        t.problems.add(t.where("port"), f"no port named {port!r}")
    attributes: dict[str, object] = {}
    for key in PORT_ATTRIBUTES:
        if key not in t:
            continue
        if key in ("garrison", "strategic_units"):
            attributes[key] = sorted(v for _, v in t.str_list(key))
        elif key == "battery_damaged":
            attributes[key] = t.bool_(key)
        elif key == "controller":
            attributes[key] = t.str_(key)
        else:
            attributes[key] = t.int_(key, lo=0)
    if not attributes:
        t.problems.add(t.path, f"say what of the port: {', '.join(PORT_ATTRIBUTES)}")
    if port is None or not attributes:
        return None
    return PortCheck(port, attributes, bool(t.bool_("not", False)))


def _report(t: Table) -> ReportCheck | None:
    t.check_keys((*_REPORT_KEYS, *_COMMON_KEYS))
    player = t.str_("report")
    fmt = t.opt_str("format") or "text"
    if fmt not in REPORT_FORMATS:
        t.problems.add(t.where("format"), f"one of: {', '.join(REPORT_FORMATS)}")
    contains = _texts(t, "contains")
    lacks = _texts(t, "lacks")
    if not contains and not lacks:
        t.problems.add(t.path, "say what the report contains (contains = ...) or lacks (lacks = ...)")
    if player is None or not (contains or lacks):
        return None
    return ReportCheck(player, contains, lacks, fmt)


def _texts(t: Table, key: str) -> tuple[str, ...]:
    if key not in t:
        return ()
    if isinstance(t.data[key], str):
        one = t.str_(key)
        return (one,) if one else ()
    return tuple(v for _, v in t.str_list(key))


def _ship(t: Table, world_map: WorldMap) -> ShipCheck | None:
    t.check_keys((*_SHIP_KEYS, *_COMMON_KEYS))
    made = [k for k in ("prize_of", "divided_from") if k in t]
    made_from = None
    ship: str | None
    if made:
        if len(made) > 1 or "ship" in t or "created" in t:
            t.problems.add(t.path, "name the ship one way: ship, prize_of or divided_from")
        original = t.str_(made[0])
        made_from = (made[0], original) if original else None
        words = "the prize of" if made[0] == "prize_of" else "the group divided from"
        ship = f"{words} {original}"
    else:
        ship = t.str_("ship")
    at, port, atlantic = t.opt_str("at"), t.opt_str("port"), t.opt_str("atlantic")
    for key, code in (("at", at), ("atlantic", atlantic)):
        if code is not None and code not in world_map.sea_areas:
            t.problems.add(t.where(key), f"no sea area coded {code!r}")
    if port is not None and port not in world_map.ports:
        t.problems.add(t.where("port"), f"no port named {port!r}")
    if sum(x is not None for x in (at, port, atlantic)) > 1:
        t.problems.add(t.path, "give at most one of at, port and atlantic")
    tactical = t.int_("tactical", lo=1) if "tactical" in t else None
    if tactical is not None and at is None:
        t.problems.add(t.where("tactical"), "tactical needs at = SEA AREA")
    harbor = t.bool_("harbor") if "harbor" in t else None
    if harbor is not None and port is None:
        t.problems.add(t.where("harbor"), "harbor needs port = NAME")
    attributes = {k: _attribute(t, k) for k in SHIP_ATTRIBUTES if k in t}
    exists = t.bool_("exists") if "exists" in t else None
    negated = bool(t.bool_("not", False))
    if negated and exists is not None:
        t.problems.add(t.where("not"), "not = true with exists: say exists = true or false instead")
    t.bool_("created", False)  # read by the name check (pate/engine/cases.py)
    if ship is None:
        return None
    return ShipCheck(
        ship,
        at,
        tactical,
        port,
        harbor,
        atlantic,
        t.opt_str("with"),
        t.opt_str("near"),
        exists,
        attributes,
        negated,
        made_from,
    )


def _attribute(t: Table, key: str) -> object:
    if key == "active":
        return t.bool_(key)
    if key in NAME_ATTRIBUTES:
        return "" if t.data[key] == "" else t.str_(key)  # "" means none
    if key == "quality":
        return t.str_(key, choices=[q.label for q in Quality])  # as scenario files write it
    if key == "cargo_units":
        return sorted(v for _, v in t.str_list(key))
    assert key in INT_ATTRIBUTES or key == "cargo_supplies"
    return t.int_(key, lo=0)
