"""The combat phase's bookkeeping: contact groups, sides, gauge, and carrying a
hand-made battle result into the world (prizes, escapes, sinking, batteries)."""

from __future__ import annotations

from pate.core.events import Phase
from pate.core.orders.model import FleeTo, Movement
from pate.core.rng import Rng
from pate.core.rules.combat import BattleResult, Engagement, LineResult, Outcome
from pate.core.rules.combat.apply import apply_result
from pate.core.rules.combat.phase import build_battle, contact_groups, sides_of, windward_side
from pate.core.rules.context import TurnState
from pate.core.world.ships import AtSea, InPort
from tests.unit.combat.combat_world import (
    COASTAL,
    CTX,
    DIPLOMACY,
    HARBOR,
    RULES,
    SEA,
    Gauge,
    order,
    ship,
    world,
)


def result(
    n: int, outcomes: list[Outcome], captor: dict[int, int] | None = None, **kw: object
) -> BattleResult:
    captor = captor or {}
    return BattleResult(
        winner=0,
        outcome=tuple(outcomes),
        strength=(100.0,) * n,
        close=(True,) * n,
        hull=tuple(kw.get("hull", (0,) * n)),  # type: ignore[arg-type]
        rigging=(1,) * n,
        crew_lost=(10,) * n,
        marines_lost=(2,) * n,
        experience_gained=(3,) * n,
        captor=tuple(captor.get(i) for i in range(n)),
        engagements=(
            Engagement("line", True, 0, 0, (500.0, 100.0), True, (LineResult.NONE, LineResult.NONE)),
        ),
        battery_damaged=kw.get("battery"),  # type: ignore[arg-type]
    )


def apply(ts: TurnState, ids: list[str], place: object, res: BattleResult) -> TurnState:
    ships = [ts.world.ships[i] for i in ids]
    battle = build_battle(CTX, ts, ships, ("BR", "PO"), place)  # type: ignore[arg-type]
    return apply_result(CTX, ts, RULES, battle, res, place=place, contact=tuple(ids), rng=Rng(3))  # type: ignore[arg-type]


def test_contact_groups_need_a_hostile_pair_in_the_same_tactical_area() -> None:
    w = world(
        ship("BR1SL"),
        ship("FR1SL"),
        ship("BR2SL", AtSea("ECH", 2)),
        ship("SP1SL", AtSea("ECH", 3)),
        ship("FR2SL", AtSea("ECH", 3)),
        ship("BR3SL", HARBOR),
        ship("FR3SL", COASTAL),
    )
    groups = contact_groups(w)
    assert groups == [
        (("port", "Brest", 0), ("BR3SL", "FR3SL")),
        (("sea", "ECH", 1), ("BR1SL", "FR1SL")),
    ]


def test_sides_are_the_alliances_present() -> None:
    assert sides_of(DIPLOMACY, ["BR", "DK", "FR", "PO", "SP"]) == [("BR", "PO"), ("DK",), ("FR", "SP")]


def test_windward_from_stations_then_from_requested_gauge() -> None:
    br, fr = ship("BR1SL", station=0), ship("FR1SL", station=1)
    ts = TurnState(world=world(br, fr), orders={})
    assert windward_side(ts, [br, fr], ("BR",)) == 0  # FR holds the group furthest to leeward
    br2, fr2 = ship("BR1SL", station=2), ship("FR1SL", station=0)
    assert windward_side(ts, [br2, fr2], ("BR",)) == 1
    same = [ship("BR1SL", station=1), ship("FR1SL", station=1)]
    assert windward_side(ts, same, ("BR",)) is None  # both ask leeward: a die decides
    asks = TurnState(world=world(*same), orders={"FR1SL": order("FR1SL", gauge=Gauge.WINDWARD)})
    assert windward_side(asks, same, ("BR",)) == 1


def test_prize_takes_lowest_free_id_commanders_attachment_and_orders() -> None:
    w = world(
        ship("BR1SL", attached_to="BR2SL"),
        ship("BR2SL"),
        ship("BR3SL"),
        ship("FR4SL", attached_to=None),
        ship("FR5SL", attached_to="FR4SL"),
    )
    captor_order = order("BR1SL", movement=Movement(sea_areas=("ECH",)))
    ts = TurnState(world=w, orders={"BR1SL": captor_order, "FR4SL": order("FR4SL")})
    ids = ["BR1SL", "BR2SL", "BR3SL", "FR4SL"]
    res = result(4, [Outcome.FOUGHT] * 3 + [Outcome.CAPTURED], captor={3: 0})
    out = apply(ts, ids, SEA, res)
    assert "FR4SL" not in out.world.ships
    prize = out.world.ships["BR4SL"]  # BR1SL..BR3SL are in use
    assert (prize.state, prize.number, prize.commander, prize.deputy) == ("BR", 4, "cmd-BR1SL", "dep-BR1SL")
    assert prize.attached_to == "BR2SL"  # the captor's attachment
    assert out.orders["BR4SL"].movement == captor_order.movement
    assert out.orders["BR4SL"].ship_id == "BR4SL"
    assert "FR4SL" not in out.orders
    assert out.world.ships["FR5SL"].attached_to is None  # its leader is gone
    assert prize.crew == (600 - 10) * RULES.prize_crew_pct // 100 and prize.marines == 0
    kinds = [e.kind for e in out.events]
    assert kinds == ["battle", "captured"]
    captured = out.events[1]
    assert captured.ships == ("FR4SL", "BR4SL", "BR1SL")
    assert set(captured.witnesses) == {"BR2SL", "BR3SL"}
    assert captured.phase is Phase.COMBAT


def test_prize_fills_a_gap_and_attaches_to_an_unattached_captor() -> None:
    w = world(ship("BR1SL"), ship("BR3SL"), ship("FR1SL"))
    ts = TurnState(world=w, orders={})
    out = apply(
        ts, ["BR1SL", "BR3SL", "FR1SL"], SEA, result(3, [Outcome.FOUGHT] * 2 + [Outcome.CAPTURED], {2: 1})
    )
    assert out.world.ships["BR2SL"].attached_to == "BR3SL"


def test_damage_crew_and_experience_are_applied() -> None:
    w = world(ship("BR1SL", experience=5), ship("FR1SL"))
    out = apply(TurnState(world=w, orders={}), ["BR1SL", "FR1SL"], SEA, result(2, [Outcome.FOUGHT] * 2))
    s = out.world.ships["BR1SL"]
    assert (s.rigging, s.crew, s.marines, s.experience) == (1, 590, 148, 8)


def test_sinking_removes_the_ship_and_its_orders() -> None:
    w = world(ship("BR1SL"), ship("FR1SL"))
    ts = TurnState(world=w, orders={"FR1SL": order("FR1SL")})
    out = apply(ts, ["BR1SL", "FR1SL"], SEA, result(2, [Outcome.FOUGHT, Outcome.SUNK], hull=(0, 5)))
    assert "FR1SL" not in out.world.ships and "FR1SL" not in out.orders
    assert [e.kind for e in out.events] == ["battle", "sunk"]


def test_escape_at_sea_goes_to_another_tactical_area() -> None:
    w = world(ship("BR1SL"), ship("FR1SL"))
    out = apply(
        TurnState(world=w, orders={}), ["BR1SL", "FR1SL"], SEA, result(2, [Outcome.FOUGHT, Outcome.ESCAPED])
    )
    loc = out.world.ships["FR1SL"].location
    assert isinstance(loc, AtSea) and loc.area == "ECH" and loc.tactical != 1
    assert out.events[-1].kind == "escaped"


def test_escape_from_a_port_to_sea_cancels_the_first_move_there() -> None:
    w = world(ship("BR1SL", HARBOR), ship("FR1SL", HARBOR))
    ts = TurnState(world=w, orders={"FR1SL": order("FR1SL", movement=Movement(sea_areas=("ECH", "NOS")))})
    out = apply(ts, ["BR1SL", "FR1SL"], HARBOR, result(2, [Outcome.FOUGHT, Outcome.ESCAPED]))
    loc = out.world.ships["FR1SL"].location
    assert isinstance(loc, AtSea) and loc.area == "ECH"
    assert out.orders["FR1SL"].movement.sea_areas == ("NOS",)


def test_losers_in_coastal_waters_run_to_harbor_or_sea_as_ordered() -> None:
    w = world(ship("BR1SL", COASTAL), ship("FR1SL", COASTAL), ship("FR2SL", COASTAL))
    ts = TurnState(
        world=w,
        orders={"FR1SL": order("FR1SL", flee_to=FleeTo.HARBOR), "FR2SL": order("FR2SL", flee_to=FleeTo.SEA)},
    )
    ids = ["BR1SL", "FR1SL", "FR2SL"]
    out = apply(ts, ids, COASTAL, result(3, [Outcome.FOUGHT, Outcome.ESCAPED, Outcome.ESCAPED]))
    assert out.world.ships["FR1SL"].location == InPort("Brest", harbor=True)
    assert isinstance(out.world.ships["FR2SL"].location, AtSea)


def test_no_refuge_in_a_hostile_harbor() -> None:
    w = world(ship("FR1SL", COASTAL), ship("BR1SL", COASTAL))
    ts = TurnState(world=w, orders={"BR1SL": order("BR1SL", flee_to=FleeTo.HARBOR)})
    out = apply(ts, ["BR1SL", "FR1SL"], COASTAL, result(2, [Outcome.ESCAPED, Outcome.FOUGHT]))
    assert isinstance(out.world.ships["BR1SL"].location, AtSea)  # Brest is French


def test_battery_damage_is_recorded_on_the_port() -> None:
    w = world(ship("BR1SL", HARBOR), ship("FR1SL", HARBOR))
    out = apply(
        TurnState(world=w, orders={}),
        ["BR1SL", "FR1SL"],
        HARBOR,
        result(2, [Outcome.FOUGHT] * 2, battery=True),
    )
    assert out.world.ports["Brest"].battery_damaged is True
