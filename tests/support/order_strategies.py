"""Hypothesis strategies for orders the text format can carry."""

from __future__ import annotations

from hypothesis import strategies as st

from pate.core.orders import model as m
from pate.core.orders.operation import Operation, OpKind
from pate.core.orders.operation_text import BLOCKADE, DECLARE, RETURN

ids = st.builds(
    lambda s, n, t: f"{s}{n}{t}",
    st.sampled_from(["BR", "FR", "SP", "NE", "XY"]),
    st.integers(1, 999),
    st.sampled_from(["FL", "SL", "FR", "TR"]),
)
counts = st.integers(0, 999_999_999)
units = st.from_regex(r"[A-Z]{2}[0-9]{1,3}(IN|CA|AR|HQ)", fullmatch=True)
admins = st.one_of(
    st.builds(
        m.AdminOrder, st.sampled_from([m.AdminKind.INACTIVATE, m.AdminKind.REACTIVATE, m.AdminKind.SCUTTLE])
    ),
    st.builds(m.AdminOrder, st.just(m.AdminKind.TRANSFER_CREW), ids, counts),
    st.builds(m.AdminOrder, st.just(m.AdminKind.DIVIDE), st.none(), counts),
    st.builds(m.AdminOrder, st.just(m.AdminKind.COMBINE), ids, st.just(0)),
)
# A place's name as the map gives it: never one of the words that may follow it on an operation
# line (a port called "Return" would read as the order to return; the map has none).
_AFTER_THE_PLACE = {BLOCKADE, RETURN, DECLARE}
names = st.text(min_size=1, max_size=20).filter(
    lambda t: (
        t.strip() == t and "  " not in t and t != "" and not _AFTER_THE_PLACE & set(t.casefold().split())
    )
)
zones = st.lists(st.from_regex(r"[A-Z]{3}", fullmatch=True), min_size=1, max_size=5).map(tuple)
operations = st.one_of(
    st.builds(
        Operation,
        st.sampled_from([OpKind.NAVAL_SUPERIORITY, OpKind.PATROL, OpKind.RAID, OpKind.PRIVATEER]),
    ),
    st.builds(Operation, st.just(OpKind.REBASE), st.none(), names, st.booleans()),
    st.builds(Operation, st.sampled_from([OpKind.TRANSPORT, OpKind.INVASION]), units, names),
    st.builds(
        Operation,
        st.sampled_from([OpKind.PROTECT_TRADE, OpKind.SUPPLY]),
        st.none(),
        st.none(),
        st.just(False),
        zones,
    ),
)
orders = st.builds(
    m.ShipOrder,
    ship_id=ids,
    attach_to=st.none() | ids,
    detach=st.booleans(),
    movement=st.builds(
        m.Movement,
        sea_areas=st.lists(st.from_regex(r"[A-Z]{3}", fullmatch=True), max_size=3).map(tuple),
        port=st.none() | st.text(max_size=20),
        any_enemy_port=st.booleans(),
        harbor=st.booleans(),
        sail_alone=st.booleans(),
    ),
    contact=st.builds(
        m.Contact,
        mode=st.sampled_from(m.ContactMode),
        minimum=st.none() | counts,
        maximum=st.none() | counts,
        join_allies=st.booleans(),
        gauge=st.sampled_from(m.Gauge),
        pursue_into_ports=st.booleans(),
    ),
    combat=st.builds(
        m.Combat,
        st.sampled_from(m.CombatStance),
        st.sampled_from(m.Range),
        st.sampled_from(m.Line),
        st.sampled_from(m.Aim),
        st.sampled_from(m.FleeTo),
        st.none() | counts,  # Nelson's closing shift (the desk refuses all but 1 or 2)
    ),
    commerce=st.sampled_from(m.Commerce),
    stores=st.none() | counts,
    amphibious=st.builds(
        m.Amphibious,
        st.lists(units, max_size=3).map(tuple),
        st.lists(units, max_size=3).map(tuple),
        counts,
        counts,
    ),
    admin=st.lists(admins, max_size=3).map(tuple),
    operation=st.none() | operations,
)
