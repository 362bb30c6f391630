"""The data keys of docs/formats/cases.md's event table are the keys the
engine emits: short turns and phases that raise the kinds of the EiA combat
rules (12.2.6 to 12.2.9), commerce (4.8), storms ashore (lost section 8) and
the land saga's undone transfers, each event's ``data`` checked against the
table's row for its kind."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path

from pate.core.events import Event, Phase
from pate.core.orders.model import AdminKind, AdminOrder, CombatStance, Commerce, Movement, ShipOrder
from pate.core.rules.context import TurnState
from pate.core.rules.eia.hulks import destroy_taken_hulks, hulks_change_hands
from pate.core.rules.landsaga import LandTransfer, Refused, undo_refused
from pate.core.rules.turn import resolve_turn
from pate.core.world.state import Admiral, Player, Role, Wind
from tests.cases.eia import eia_world as eia
from tests.cases.turn import turn_world as tw
from tests.unit.combat.combat_world import COASTAL, CTX, HARBOR, order
from tests.unit.eia.scripted import ScriptedRng
from tests.unit.movement import maps

TAIL = [6] * 40
DOC = Path(__file__).resolve().parents[2] / "docs" / "formats" / "cases.md"


def documented() -> dict[str, set[str]]:
    """Each kind of the table with the words of its data column (keys, and
    the few words of the notes beside them)."""
    table = (
        DOC.read_text(encoding="utf-8").split("#### Event kinds and their data", 1)[1].split("\n### ", 1)[0]
    )
    rows: dict[str, set[str]] = {}
    for row in table.splitlines():
        if row.startswith("| `"):
            cells = row.split("|")
            for kind in re.findall(r"`(\w+)`", cells[1]):
                rows[kind] = set(re.findall(r"[a-z_]+", cells[2]))
    return rows


def _eia_events() -> list[Event]:
    out: list[Event] = []
    # 12.2.7: Nelson killed in a melee (the dice of the 12.2.7 case)
    w = eia.eia_world(*eia.fleet("BR", 3, commander="nelson"), *eia.fleet("FR", 3))
    w = replace(w, admirals={"nelson": Admiral("nelson", nelson=True)})
    orders = [eia.melee(f"BR{k}SL") for k in range(1, 4)] + [
        eia.linear_defense(f"FR{k}SL") for k in range(1, 4)
    ]
    out += eia.run(w, orders, dice=[1, 1, 6, 1, 1, 6, 1, 1, 6, 6, 6, *TAIL]).events
    # 12.2.6.1.6.3, 12.2.6.1.8: a victor's political points, the defeated retreat
    w = eia.eia_world(*eia.fleet("BR", 5), *eia.fleet("FR", 5))
    orders = [eia.melee(f"BR{k}SL") for k in range(1, 6)] + [
        eia.linear_defense(f"FR{k}SL") for k in range(1, 6)
    ]
    out += eia.run(w, orders, dice=[1, 1, 3, 1, 1, 1, 1, *TAIL]).events
    # 12.2.6.1.9: the disabled Spaniard a British hulk, or lost en route on a 1
    w = eia.eia_world(*eia.fleet("BR", 10), *eia.fleet("SP", 1, commander=None))
    orders = [eia.linear_attack(f"BR{k}SL") for k in range(1, 11)] + [eia.linear_attack("SP1SL")]
    out += eia.run(w, orders, dice=[6, 1, *TAIL]).events
    out += eia.run(w, orders, dice=[6, 1, 1, *TAIL]).events
    # 12.2.9: running the blockade, slipped past and caught
    for dice in ([1, *TAIL], [2, *TAIL]):
        runners = eia.fleet("FR", 2, HARBOR)
        w = eia.eia_world(*runners, *eia.fleet("BR", 3, COASTAL))
        run_past = [
            order(s.id, stance=CombatStance.RUN_PAST, movement=Movement(sea_areas=("ECH",))) for s in runners
        ]
        out += eia.run(
            w, [*run_past, *(eia.linear_attack(f"BR{k}SL") for k in range(1, 4))], dice=dice
        ).events
    # 12.2.6.2, 12.2.6.3.4: blockaded survivors go back into the harbor; raiders withdraw
    blockade = eia.eia_world(*eia.fleet("FR", 2, COASTAL), *eia.fleet("BR", 2, COASTAL))
    raid = eia.eia_world(*eia.fleet("FR", 2, HARBOR), *eia.fleet("BR", 3, HARBOR))
    fr = [eia.linear_defense(f"FR{k}SL") for k in (1, 2)]
    for seed in (1, 2, 3):
        out += eia.run(blockade, [eia.melee("BR1SL"), eia.melee("BR2SL"), *fr], seed=seed).events
        out += eia.run(raid, [*(eia.melee(f"BR{k}SL") for k in (1, 2, 3)), *fr], seed=seed).events
    # 12.2.8.2: hulks of a port taken, and of a port changing hands
    hulks = [replace(s, hulk=True, active=False) for s in eia.fleet("FR", 2, HARBOR)]
    ts = TurnState(world=eia.eia_world(*hulks), orders={})
    out += destroy_taken_hulks(ts, "Brest", "BR", Phase.FINAL_AMPHIBIOUS).events
    changed = hulks_change_hands(
        ts, eia.EIA_RULES, "Brest", "BR", friends_garrison=False, phase=Phase.COMBAT, rng=ScriptedRng([3, 4])
    )
    out += changed.events
    # 12.2.8.3: a refit begun and refused (no stores), then three turns to the refitted ship
    hulk = replace(eia.fleet("FR", 1, HARBOR)[0], hulk=True, active=False)
    refit = {"FR1SL": ShipOrder("FR1SL", admin=(AdminOrder(AdminKind.REACTIVATE),))}
    w = eia.eia_world(hulk)
    poor = replace(w, ports={**w.ports, "Brest": replace(w.ports["Brest"], stores=0)})
    out += resolve_turn(CTX, poor, refit).events
    result = resolve_turn(CTX, w, refit)
    out += result.events
    world = result.state
    for _ in range(3):
        result = resolve_turn(CTX, world, {})
        out += result.events
        world = result.state
    return out


def _commerce_events() -> list[Event]:
    """4.8: a French frigate raiding the Irish Sea, a British one convoying."""
    ministers = {
        f"{s.lower()}_min": Player(f"{s.lower()}_min", f"Minister {s}", s, frozenset({Role.NAVAL_MINISTER}))
        for s in ("BR", "FR")
    }
    w = replace(
        tw.world([tw.ship("FR1FR", maps.sea("IRS")), tw.ship("BR1FR", maps.sea("IRS", 2))]), players=ministers
    )
    raid = ShipOrder("FR1FR", commerce=Commerce.RAID)
    convoy = ShipOrder("BR1FR", commerce=Commerce.CONVOY)
    out: list[Event] = []
    for seed in range(40):
        out += tw.run(replace(w, seed=seed), raid, convoy).events
        if {"merchant_prizes", "trade_lost"} <= {e.kind for e in out}:
            break
    return out


def _storm_events() -> list[Event]:
    """Driven ashore under a hostile port: wrecked, stranded or refloated."""
    out: list[Event] = []
    for fate in ("wrecked", "stranded", "refloated"):
        table = [{"below": 100, "kind": fate, "hull": 1, "rigging": 1}]
        storms = {
            "chance": {"light": 100, "moderate": 100, "heavy": 100},
            "damage": {"bands": [{"below": 1000, "rigging": 0, "hull": 0}]},
            "scatter": {"driven_percent": 100, "ashore": table},
        }
        w = maps.world(
            [maps.ship("BR1SL", maps.port("Cadiz", False))], maps.winds(SOA=Wind(maps.W, maps.MODERATE))
        )
        out += maps.run(w, ctx=maps.variant(storms=storms)).events
    return out


def _land_saga_events() -> list[Event]:
    """A load GITM refused, undone with the transport in port and after she sank."""
    units = [tw.infantry("FR-inf-1", 1000)]
    sl = tw.ship("FR1TR", tw.harbor("Brest"))
    w = tw.world([sl], units=units)
    aboard = replace(sl, cargo=replace(sl.cargo, units=("FR-inf-1",), space=10))
    t = LandTransfer("t1", "FR1TR", "load", "Brest", units=("FR-inf-1",), space=10)
    refused = [Refused(t, "the corps is elsewhere")]
    _, undone = undo_refused(w.with_ships({sl.id: aboard}), refused)
    _, gone = undo_refused(w.with_ships({}, (sl.id,)), refused)
    return [*undone, *gone]


def _check(events: Iterable[Event], kinds: set[str]) -> None:
    table = documented()
    seen = set()
    for e in events:
        seen.add(e.kind)
        assert e.kind in table, f"{e.kind} is not in the table"
        extra = set(e.data) - table[e.kind]
        assert not extra, f"{e.kind}: data keys {sorted(extra)} are not in the table's row"
    assert kinds <= seen, f"not raised: {sorted(kinds - seen)}"


def test_eia_combat_events_carry_the_tables_keys() -> None:
    _check(
        _eia_events(),
        {
            "admiral_in_battle",
            "battle",
            "blockade_run_failed",
            "captured",
            "hulk",
            "hulk_port_changed",
            "lost_en_route",
            "political_points",
            "ran_blockade",
            "refit_begun",
            "refit_refused",
            "refitted",
            "retreated",
            "returned",
            "withdrawn",
        },
    )


def test_commerce_events_carry_the_tables_keys() -> None:
    _check(_commerce_events(), {"convoy_covered", "merchant_prizes", "trade_lost", "trade_summary"})


def test_storm_ashore_events_carry_the_tables_keys() -> None:
    _check(_storm_events(), {"driven_ashore", "refloated", "storm", "stranded", "wrecked"})


def test_undone_transfers_carry_the_tables_keys() -> None:
    _check(_land_saga_events(), {"transfer_undone"})


def test_the_keys_a_statement_may_name_are_the_tables() -> None:
    """pate/engine/event_keys.py, which the case reader checks statements
    against, says what the table says, kind by kind."""
    from pate.engine.event_keys import EVENT_KEYS

    rows = documented()
    assert set(EVENT_KEYS) == set(rows)
    assert {k: v for k, v in EVENT_KEYS.items() if v is not None} == {
        k: frozenset(rows[k]) for k, v in EVENT_KEYS.items() if v is not None
    }
