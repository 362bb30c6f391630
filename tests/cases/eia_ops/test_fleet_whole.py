"""Rule cases of the EiA new naval rules where PATE's own rules meet them or
the text leaves the player a choice: storms and fleet markers, the orders of
"may", and the detachment an intercepted operation brings
(docs/rules/eia-operations.md)."""

from __future__ import annotations

from dataclasses import replace

from pate.core.orders.model import ShipOrder
from pate.core.orders.operation_text import format_operation
from pate.core.rules.context import TurnContext
from pate.core.rules.turn import TurnResult, resolve_turn
from pate.core.rules.validation.orders import validate_order
from pate.core.world.ships import InPort
from pate.core.world.state import WorldState
from tests.cases.eia_ops.ops_world import (
    CTX,
    MAP,
    QUIET,
    RULES,
    carrying,
    coastal,
    harbor,
    one,
    op,
    ops_world,
    revealed,
    run,
    sea,
    ship,
    with_corps,
)
from tests.support.orders_world import ADMIN

_STORMS = RULES.sections["storms"]
STORMY = TurnContext(
    MAP,
    replace(
        RULES,
        sections={
            **RULES.sections,
            "storms": {
                **_STORMS,
                "chance": {"light": 100, "moderate": 100, "heavy": 100},
                "damage": {**_STORMS.get("damage", {}), "bands": [{"below": 1000, "rigging": 0, "hull": 0}]},
                "scatter": {
                    **_STORMS.get("scatter", {}),
                    "at_sea_percent": 100,
                    "blown_out_percent": 100,
                    "driven_percent": 100,
                },
            },
        },
    ),
)


def _two_fleets(seed: int, rules: str) -> WorldState:
    """A British fleet of three at sea in BIS, another of three in Brest's
    blockade box, a storm in every sea area."""
    fleet = [ship(f"BR{k}SL", sea("BIS", 1), attached_to=None if k == 1 else "BR1SL") for k in (1, 2, 3)]
    fleet += [ship(f"BR{k}SL", coastal("Brest"), attached_to=None if k == 4 else "BR4SL") for k in (4, 5, 6)]
    return replace(ops_world(*fleet), seed=seed, naval_rules=rules)


def test_eia_ops_s02_a_storm_moves_a_fleet_marker_whole() -> None:
    """ "Each fleet is based in a port, sea zone or enemy blockade box."  A
    fleet has one base, so PATE's storms, which still strike, scatter the
    ships of a fleet together (at sea: one tactical area for all), blow them
    out or drive them in together; each ship takes her own damage and, driven
    ashore, her own fate.  Under PATE's rules the same storms part them."""
    for seed in range(1, 6):
        after = resolve_turn(STORMY, _two_fleets(seed, "eia-operations"), {})
        for fleet in (("BR1SL", "BR2SL", "BR3SL"), ("BR4SL", "BR5SL", "BR6SL")):
            places = {after.state.ships[s].location for s in fleet if s in after.state.ships}
            assert len(places) == 1, (seed, fleet, places)
        scattered = {s for e in after.events if e.kind == "scattered" for s in e.ships}
        assert scattered == {"BR1SL", "BR2SL", "BR3SL"}, seed
    parted = 0
    for seed in range(1, 6):
        after = resolve_turn(STORMY, _two_fleets(seed, "pate"), {})
        parted += len({after.state.ships[s].location for s in ("BR1SL", "BR2SL", "BR3SL")}) > 1
    assert parted


def _transport_fleet() -> WorldState:
    return with_corps(
        ops_world(ship("FR1SL", harbor("Brest")), carrying("FR1TR", harbor("Brest"), attached_to="FR1SL"))
    )


def _turn(w: WorldState, *orders: ShipOrder) -> TurnResult:
    """The whole turn, as the services run it."""
    return resolve_turn(CTX, w, {o.ship_id: o for o in orders})


def _refusals(w: WorldState, order: ShipOrder) -> list[str]:
    return [f"{r.field}: {r.message}" for r in validate_order(order, ADMIN, w, MAP, RULES)]


def test_eia_ops_s16_the_transporting_fleet_may_return_to_base() -> None:
    """ "The transporting fleet may stay in the receiving port."  It may, so it
    may also go home: `transport ... return` lands the corps in Cherbourg and
    the fleet is back in Brest at the end of the turn; without `return` it
    stays (the default).  Patrol and Raid send only a detachment and never
    leave port, so `return` is refused for them."""
    back = _turn(_transport_fleet(), op("FR1SL", "transport FR1IN to Cherbourg return"))
    assert {back.state.ships[s].location for s in ("FR1SL", "FR1TR")} == {InPort("Brest", True)}
    (done,) = [e.data for e in back.events if e.kind == "transfer_completed"]
    assert done["port"] == "Cherbourg" and done["cancelled"] is False
    (home,) = [e.data for e in back.events if e.kind == "returned_to_base"]
    assert (home["from"], home["to"]) == ("Cherbourg", "Brest")
    stays = _turn(_transport_fleet(), op("FR1SL", "transport FR1IN to Cherbourg"))
    assert {stays.state.ships[s].location for s in ("FR1SL", "FR1TR")} == {InPort("Cherbourg", True)}
    for kind in ("patrol", "raid"):
        assert any(
            r.startswith("operation.return_to_base")
            for r in _refusals(_transport_fleet(), op("FR1SL", f"{kind} return"))
        )


def test_eia_ops_s18_the_invading_fleet_may_return_to_base() -> None:
    """ "The transporting fleet may stay in the sea zone."  With `return` the
    fleet lands its corps at Plymouth and is back in Brest at the end of the
    turn, based in port again (any operation open to it next turn)."""
    w = _transport_fleet()
    after = _turn(w, op("FR1SL", "invasion FR1IN to Plymouth return"))
    assert {after.state.ships[s].location for s in ("FR1SL", "FR1TR")} == {InPort("Brest", True)}
    assert [e.data["port"] for e in after.events if e.kind == "transfer_completed"] == ["Plymouth"]
    assert _refusals(after.state, op("FR1SL", "patrol")) == []


def test_eia_ops_s28_britain_chooses_its_place_in_each_round() -> None:
    """ "This means that, Britain may choose when to declare, and"  Each
    British fleet's order may name its place in its round (`declare 1`: first);
    without it Britain declares last, as before.  Another state naming a place
    is refused, at the order desk and in the phase."""
    w = ops_world(
        *(ship(f"BR{k}SL", harbor("Plymouth")) for k in (1, 2)),
        *(ship(f"FR{k}SL", harbor("Brest")) for k in (1, 2)),
        ship("SP1SL", harbor("Ferrol")),
    )
    orders = [
        op("BR1SL", "rebase to Portsmouth declare 1"),
        op("BR2SL", "rebase to Portsmouth declare 2"),
        op("FR1SL", "rebase to St Malo"),
        op("FR2SL", "rebase to St Malo"),
        op("SP1SL", "rebase to Vigo"),
    ]
    ts = run(w, orders, dice=QUIET)
    assert [f for f, _ in revealed(ts)] == ["BR1SL", "FR1SL", "SP1SL", "FR2SL", "BR2SL"]
    default = [op("BR1SL", "rebase to Portsmouth"), *orders[2:]]
    assert [f for f, _ in revealed(run(w, default, dice=QUIET))] == ["FR1SL", "SP1SL", "BR1SL", "FR2SL"]
    french = op("FR1SL", "rebase to St Malo declare 1")
    assert any(r.startswith("operation.declare_at: only BR may choose") for r in _refusals(w, french))
    assert "only BR may choose" in one(run(w, [french], dice=QUIET), "operation_refused")["reason"]


def test_the_new_operation_fields_travel_as_text_and_as_protobuf() -> None:
    """`return` and `declare N` read back from the text as written, and
    through `pate.v1.Operation` (fields 6 and 7) as the desk receives them."""
    from services.orders.mapping import order_from_pb, order_to_pb

    for text in ("transport FR1IN to Cherbourg return declare 3", "naval-superiority declare 1"):
        order = op("BR1SL", text)
        assert order.operation is not None
        assert format_operation(order.operation) == "operation " + text
        assert order_from_pb(order_to_pb(order)) == order
