"""The readable order format: parsing, problems, formatting, round trips."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pate.core.orders import model as m
from pate.core.orders.text import OrderSyntaxError, format_order, format_orders, parse_orders
from tests.support.order_strategies import orders

BRIEF_EXAMPLE = """\
order BR1FL
  move NOS ECH port Brest harbor
  contact pursue min 2 max 10 join-allies gauge windward
  combat engage close break aim hull flee harbor
  commerce raid
  stores 24
  attach BR2SL
"""


def _problems(text: str) -> list[tuple[int, int, str]]:
    with pytest.raises(OrderSyntaxError) as err:
        parse_orders(text)
    return [(p.line, p.column, p.message) for p in err.value.problems]


def test_the_example_of_the_brief() -> None:
    (o,) = parse_orders(BRIEF_EXAMPLE)
    assert o == m.ShipOrder(
        "BR1FL",
        attach_to="BR2SL",
        movement=m.Movement(("NOS", "ECH"), port="Brest", harbor=True),
        contact=m.Contact(m.ContactMode.PURSUE, 2, 10, True, m.Gauge.WINDWARD),
        combat=m.Combat(m.CombatStance.ENGAGE, m.Range.CLOSE, m.Line.BREAK, m.Aim.HULL, m.FleeTo.HARBOR),
        commerce=m.Commerce.RAID,
        stores=24,
    )


def test_keywords_ignore_case_and_underscores_ids_are_upper_cased() -> None:
    (o,) = parse_orders("ORDER br1fl\nMove nos Port Brest HARBOUR\nCombat Run_Past\nCONTACT Evade\n")
    assert o.ship_id == "BR1FL"
    assert o.movement == m.Movement(("NOS",), port="Brest", harbor=True)
    assert o.combat.stance is m.CombatStance.RUN_PAST
    assert o.contact == m.Contact(m.ContactMode.EVADE, join_allies=False)  # evade does not join allies


def test_empty_block_is_an_explicit_default_order_and_comments_are_ignored() -> None:
    text = "# my fleet\n\norder BR1FL   # flagship\n\n   # nothing\norder BR2SL\n  stores 3 # three\n"
    assert parse_orders(text) == [m.ShipOrder("BR1FL"), m.ShipOrder("BR2SL", stores=3)]
    assert parse_orders("") == []
    assert parse_orders("# only a comment\r\n") == []


def test_port_names_with_spaces_bare_or_quoted() -> None:
    (a, b, c) = parse_orders(
        "order FR1SL\n move WCA port Port au Prince harbor\n"
        'order FR2SL\n move port "Port au Prince" alone\n'
        'order FR3SL\n move port "Harbor \\"X\\" \\\\ #1"\n'
    )
    assert a.movement == m.Movement(("WCA",), port="Port au Prince", harbor=True)
    assert b.movement == m.Movement((), port="Port au Prince", sail_alone=True)
    assert c.movement.port == 'Harbor "X" \\ #1'


def test_admin_and_cargo_lines() -> None:
    text = (
        "order BR1TR\n load units BR1IN BR2IN supplies 4\n unload supplies 2\n"
        " divide 2500\n combine BR2TR\n transfer-crew 10 to BR3SL\n inactivate\n reactivate\n scuttle\n"
    )
    (o,) = parse_orders(text)
    assert o.amphibious == m.Amphibious(("BR1IN", "BR2IN"), (), 4, 2)
    assert [a.kind for a in o.admin] == [
        m.AdminKind.DIVIDE,
        m.AdminKind.COMBINE,
        m.AdminKind.TRANSFER_CREW,
        m.AdminKind.INACTIVATE,
        m.AdminKind.REACTIVATE,
        m.AdminKind.SCUTTLE,
    ]
    assert o.admin[2] == m.AdminOrder(m.AdminKind.TRANSFER_CREW, "BR3SL", 10)


def test_every_problem_is_listed_with_line_and_column() -> None:
    text = (
        "stores 3\n"  # 1: before any order
        "order BR1\n"  # 2: bad id
        "order BR2SL\n"
        "  move NOS port\n"  # 4: no port name
        "  contact evade min -1 frob\n"  # 5: two problems
        "  move NOS\n"  # 6: second move
        "  stores 99999999999999\n"  # 7: too large
        "  sail away\n"  # 8: unknown line
        '  combat "engage\n'  # 9: unterminated quote
        "order BR2SL\n"  # 10: second order for BR2SL
    )
    got = _problems(text)
    assert [(line, col) for line, col, _ in got] == [
        (1, 1),
        (2, 7),
        (4, 16),
        (5, 21),
        (5, 24),
        (6, 3),
        (7, 10),
        (8, 3),
        (9, 10),
        (10, 1),
    ]
    assert "first is on line 3" in got[-1][2]
    assert "a second move line" in got[5][2]


def test_problems_name_what_is_expected() -> None:
    (p,) = _problems("order BR1FL\n commerce plunder\n")
    assert "raid" in p[2] and "'plunder'" in p[2]
    (p,) = _problems("order BR1FL\n move NOS harbor coastal\n")
    assert "twice" in p[2]
    (p,) = _problems("order BR1FL\n transfer-crew 10 BR2SL\n")
    assert "transfer-crew N to SHIP" in p[2]
    (p,) = _problems("order BR1FL\n load\n")
    assert "load what" in p[2]
    (p,) = _problems("order BR1FL\n detach now\n")
    assert "'now'" in p[2]


def test_format_writes_only_what_differs_from_the_defaults() -> None:
    assert format_order(m.ShipOrder("BR1FL")) == "order BR1FL\n"
    o = m.ShipOrder(
        "BR1FL", contact=m.Contact(m.ContactMode.EVADE, join_allies=False), combat=m.Combat(aim=m.Aim.HULL)
    )
    assert format_order(o) == "order BR1FL\n  contact evade\n  combat aim hull\n"
    assert parse_orders(format_orders([o, m.ShipOrder("BR2SL")])) == [o, m.ShipOrder("BR2SL")]


def test_format_quotes_port_names_that_would_read_back_differently() -> None:
    for name in (
        "Port au Prince",
        "Harbor Town",
        "any-enemy",
        " Lead",
        "A  B",
        "x#y",
        'say "hi"',
        "",
        "a\nb",
    ):
        o = m.ShipOrder("BR1FL", movement=m.Movement(port=name))
        assert parse_orders(format_order(o)) == [o], name
    assert "Port au Prince\n" in format_order(
        m.ShipOrder("BR1FL", movement=m.Movement(port="Port au Prince"))
    )


def test_format_refuses_what_the_format_cannot_carry() -> None:
    for bad in (
        m.ShipOrder("Victory"),
        m.ShipOrder("BR1FL", stores=-1),
        m.ShipOrder("BR1FL", movement=m.Movement(("ab",))),
        m.ShipOrder("BR1FL", admin=(m.AdminOrder(m.AdminKind.SCUTTLE, "BR2SL"),)),
        m.ShipOrder("BR1FL", amphibious=m.Amphibious(load_units=("two words",))),
    ):
        with pytest.raises(ValueError, match=r"\S"):
            format_order(bad)


# Hypothesis: any order the format can carry reads back unchanged.

KNOWN_FIELDS = {
    "ShipOrder": {
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
        "operation",
    },
    "Movement": {"sea_areas", "port", "any_enemy_port", "harbor", "sail_alone"},
    "Contact": {"mode", "minimum", "maximum", "join_allies", "gauge", "pursue_into_ports"},
    "Combat": {"stance", "range", "line", "aim", "flee_to", "closing_shift"},
    "Amphibious": {"load_units", "unload_units", "load_supplies", "unload_supplies"},
    "AdminOrder": {"kind", "target", "amount"},
}


def test_the_format_knows_every_field_of_the_order_form() -> None:
    """A new field in the model must be added to the text format (and here)."""
    for cls in (m.ShipOrder, m.Movement, m.Contact, m.Combat, m.Amphibious, m.AdminOrder):
        assert {f.name for f in dataclasses.fields(cls)} == KNOWN_FIELDS[cls.__name__], cls.__name__


@given(st.lists(orders, max_size=4, unique_by=lambda o: o.ship_id))
@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
def test_round_trip_parse_of_format(batch: list[m.ShipOrder]) -> None:
    assert parse_orders(format_orders(batch)) == batch


LINE_WORDS = st.sampled_from(
    [
        "order",
        "BR1FL",
        "move",
        "port",
        "NOS",
        "harbor",
        "contact",
        "pursue",
        "min",
        "max",
        "combat",
        "aim",
        "flee",
        "commerce",
        "stores",
        "load",
        "units",
        "supplies",
        "transfer-crew",
        "to",
        "divide",
        "combine",
        "attach",
        "detach",
        "any-enemy",
        "gauge",
        "windward",
        "12",
        "-3",
        "#",
        '"',
        "\\",
        "\t",
        " ",
        "\n",
        "\r",
        "x",
        "ß",
        "\u2028",
    ]
)


@given(st.one_of(st.text(max_size=300), st.lists(LINE_WORDS, max_size=60).map(" ".join)))
@settings(max_examples=500)
def test_any_text_gives_orders_or_located_problems(text: str) -> None:
    try:
        result = parse_orders(text)
    except OrderSyntaxError as err:
        assert err.problems
        lines = text.split("\n")
        for p in err.problems:
            assert 1 <= p.line <= len(lines) and p.column >= 1 and p.message
        return
    # whatever parses also formats and reads back the same
    assert parse_orders(format_orders(result)) == result
