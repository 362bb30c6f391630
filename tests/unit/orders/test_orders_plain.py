"""Orders as plain data: every field round-trips, every bad value is located."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pate.core.orders import model as m
from pate.core.orders.plain import OrderDataError, order_from_dict, order_to_dict, orders_from_list
from tests.support.order_strategies import orders as order_strategy


def _paths(data: object) -> list[str]:
    with pytest.raises(OrderDataError) as err:
        order_from_dict(data)
    return [p.path for p in err.value.problems]


@given(order_strategy)
@settings(max_examples=200)
def test_round_trip_through_json(order: m.ShipOrder) -> None:
    data = json.loads(json.dumps(order_to_dict(order)))
    assert order_from_dict(data) == order


def test_left_out_fields_take_the_defaults() -> None:
    assert order_from_dict({"ship_id": "BR1FL"}) == m.ShipOrder("BR1FL")
    o = order_from_dict(
        {"ship_id": "BR1FL", "movement": {"sea_areas": ["NOS"]}, "contact": {"mode": "evade"}}
    )
    assert o.movement == m.Movement(("NOS",))
    assert o.contact == m.Contact(m.ContactMode.EVADE, join_allies=False)  # as in the text format
    o = order_from_dict({"ship_id": "BR1FL", "contact": {"mode": "evade", "join_allies": True}})
    assert o.contact.join_allies is True  # given explicitly: kept (and refused by validation)


def test_every_problem_is_reported_by_path() -> None:
    data: dict[str, Any] = {
        "ship_id": 7,
        "detach": "yes",
        "movement": {"sea_areas": ["NOS", 3], "port": ["Brest"], "harbour": True},
        "contact": {"mode": "chase", "minimum": 2.5, "maximum": True},
        "stores": None,
        "admin": [{"kind": "scuttle"}, {"amount": 3}],
        "extra": 1,
    }
    assert _paths(data) == [
        "ship_id",
        "detach",
        "movement.sea_areas[1]",
        "movement.port",
        "movement.harbour",
        "contact.mode",
        "contact.minimum",
        "contact.maximum",
        "admin[1].kind",
        "extra",
    ]


def test_messages_say_what_was_expected() -> None:
    with pytest.raises(OrderDataError) as err:
        order_from_dict({"ship_id": "BR1FL", "commerce": "plunder", "stores": "24"})
    text = str(err.value)
    assert "commerce: expected one of raid, convoy, ignore, got 'plunder'" in text
    assert "stores: expected a whole number, got a string" in text


def test_not_an_object_at_all() -> None:
    assert _paths([1, 2]) == [""]
    assert _paths(None) == [""]
    assert _paths({}) == ["ship_id"]


def test_a_list_of_orders_reports_the_index() -> None:
    assert orders_from_list([{"ship_id": "BR1FL"}]) == [m.ShipOrder("BR1FL")]
    with pytest.raises(OrderDataError) as err:
        orders_from_list([{"ship_id": "BR1FL"}, {"ship_id": "BR2SL", "stores": "x"}, 5])
    assert [p.path for p in err.value.problems] == ["orders[1].stores", "orders[2]"]
    with pytest.raises(OrderDataError):
        orders_from_list({"ship_id": "BR1FL"})


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=10),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=5),
    max_leaves=30,
)
field_names = st.sampled_from(
    [
        "ship_id",
        "attach_to",
        "detach",
        "movement",
        "contact",
        "combat",
        "commerce",
        "stores",
        "amphibious",
        "admin",
        "sea_areas",
        "port",
        "mode",
        "minimum",
        "kind",
        "target",
        "amount",
        "load_units",
    ]
)
order_like = st.dictionaries(field_names, json_values, max_size=8)


@given(st.one_of(json_values, order_like))
@settings(max_examples=500)
def test_any_data_gives_an_order_or_located_problems(data: object) -> None:
    try:
        order = order_from_dict(data)
    except OrderDataError as err:
        assert err.problems and all(p.message for p in err.problems)
        return
    assert isinstance(order, m.ShipOrder)
