"""Hostile requests built from the contracts' message descriptors with hypothesis.

Each field gets a hostile value (control characters, huge strings and numbers,
out-of-range timestamps, deep TOML, paths, SQL, unicode) or, more often, a
plausible one, so that attacks reach past the first check into the services.
Used by tests/integration/hostile/test_hostile_rpcs.py.
"""

from __future__ import annotations

import time
from typing import Any

from google.protobuf import message_factory
from google.protobuf.descriptor import Descriptor, FieldDescriptor
from google.protobuf.timestamp_pb2 import Timestamp
from hypothesis import strategies as st

from pate.datafiles import data_dir

CAMPAIGN = "hostile"
PASSWORD = "hostile-password"


def _deep(opening: str, closing: str, depth: int = 5000) -> str:
    return "a = " + opening * depth + "1" + closing * depth + "\n"


def _scenario_with(old: str, new: str) -> str:
    text = (data_dir() / "scenarios" / "training.toml").read_text()
    return text.replace(old, new, 1)


HOSTILE_TEXTS = [
    "",
    CAMPAIGN,
    "cornwallis",
    "ganteaume",
    "admin",
    "training",
    "BR1FL",
    "ECH",
    "Brest",
    "engage",
    "json",
    "nl\n",
    f"{CAMPAIGN}\n",
    "a\x00b",
    "\x00",
    "\x1b[31m",
    "\u202eevil",
    "é" * 300,
    "x" * 5000,
    "y" * 300_000,
    "z" * (5 * 1024 * 1024),  # over the server's message limit
    "training.toml",
    "pyproject.toml",
    "../../pyproject",
    "/etc/passwd",
    "'; DROP TABLE campaigns; --",
    # webhook URLs the red team aimed at the server itself (docs/security.md, threat model)
    "http://127.0.0.1:4222/",
    "http://user:pw@hooks.example.org/x",
    "http://169.254.169.254/latest/meta-data/",
    "http://0x7f000001/",
    "ftp://example.org/",
    "order BR1FL\n  combat engage\n",
    "order BR1FL\n" * 40_000,
    _deep("[", "]"),
    _deep("{b = ", "}"),
    ".".join(["k"] * 5000) + " = 1\n",
    _scenario_with("[players.cornwallis]", '[players."corn\\nwallis"]'),
    _scenario_with('name = "training"', 'name = "' + "n" * 500 + '"'),
]
texts = st.one_of(
    st.sampled_from(HOSTILE_TEXTS),
    st.text(st.characters(codec="utf-8"), max_size=40),
    st.text(st.sampled_from("\x00\n\r\t\x1b\x7f\u2028a-"), min_size=1, max_size=8),
)
SPECIAL_INTS = [0, 1, -1, 2, 15, 100, 101, 2**31 - 1, -(2**31), 2**40, 2**63 - 1, 2**63, 2**64 - 1]
INT_RANGES = {
    FieldDescriptor.TYPE_INT32: (-(2**31), 2**31 - 1),
    FieldDescriptor.TYPE_SINT32: (-(2**31), 2**31 - 1),
    FieldDescriptor.TYPE_UINT32: (0, 2**32 - 1),
    FieldDescriptor.TYPE_INT64: (-(2**63), 2**63 - 1),
    FieldDescriptor.TYPE_SINT64: (-(2**63), 2**63 - 1),
    FieldDescriptor.TYPE_UINT64: (0, 2**64 - 1),
}
timestamps = st.builds(
    Timestamp,
    seconds=st.sampled_from(
        [0, -1, -62135596801, 253402300800, 2**62, -(2**62), int(time.time()) + 3600, int(time.time()) - 60]
    ),
    nanos=st.sampled_from([0, 999_999_999, -1, 1_000_000_000]),
)


# Plausible values by field name: most fields of a request are sound and one or two
# hostile, so that the attack reaches past the first check into the services' code.
PLAUSIBLE: dict[str, list[Any]] = {
    "id": ["h-new1", "h-new2", CAMPAIGN],
    "campaign_id": [CAMPAIGN],
    "scenario": ["training"],
    "scenario_toml": [(data_dir() / "scenarios" / "training.toml").read_text()],
    "player_id": ["cornwallis", "ganteaume", ""],
    "password": [PASSWORD],
    "turn": [0, 1],
    "turns": [0, 3],
    "seed": [0, 7],
    "turn_seconds": [0, 3600],
    "client_request_id": ["r-1", "r-2", "r-3"],
    "orders_text": ["order BR1FL\n  combat engage\n", "order FR1FL\n  move ECH\n"],
    "ship_id": ["BR1FL", "BR1SL", "FR1FL"],
    "ship_ids": ["BR1FL"],
    "attach_to": ["BR1FL"],
    "sea_areas": ["ECH", "BIS"],
    "port": ["Brest", "Plymouth"],
    "format": ["json", "text", "html"],
    "mode": ["pursue", "evade"],
    "stance": ["engage"],
    "origin": ["Brest"],
    "destination": ["Plymouth"],
    "amount": [1, 5],
    "webhook": ["https://hooks.example.org/pate", "http://[::1]/", "http://localhost:8080/x"],
    "email": ["", "cornwallis@fleet.test"],
    "time_zone": ["Europe/Paris", "UTC", ""],
    "expires_in_days": [0, 1, 365],
    "page_size": [0, 1, 50],
    "page_token": ["", CAMPAIGN],
    "token_id": ["", "0123456789ab"],
}


CURRENT_TURN = [1]  # the hostile campaign's open turn, followed as accepted calls close turns


def _ints(kind: int) -> st.SearchStrategy[int]:
    lo, hi = INT_RANGES.get(kind, (-(2**31), 2**31 - 1))
    return st.sampled_from([i for i in SPECIAL_INTS if lo <= i <= hi]) | st.integers(lo, hi)


def _field(field: FieldDescriptor, depth: int) -> st.SearchStrategy[Any]:
    hostile = _hostile(field, depth)
    plausible = PLAUSIBLE.get(field.name)
    if plausible is None:
        return hostile
    sound = st.sampled_from(plausible)
    if field.name == "turn":
        sound = sound | st.builds(lambda: CURRENT_TURN[0])
    return st.integers(0, 3).flatmap(lambda i: hostile if i == 0 else sound)


def _hostile(field: FieldDescriptor, depth: int) -> st.SearchStrategy[Any]:
    if field.message_type is not None:
        if field.message_type.full_name == "google.protobuf.Timestamp":
            return timestamps
        return messages(field.message_type, depth + 1)
    if field.type == FieldDescriptor.TYPE_STRING:
        return texts
    if field.type == FieldDescriptor.TYPE_BYTES:
        return st.binary(max_size=64) | st.just(b"\x00" * 100_000)
    if field.type == FieldDescriptor.TYPE_BOOL:
        return st.booleans()
    if field.type == FieldDescriptor.TYPE_ENUM:
        return st.sampled_from([v.number for v in field.enum_type.values])
    if field.type in (FieldDescriptor.TYPE_DOUBLE, FieldDescriptor.TYPE_FLOAT):
        return st.floats(allow_nan=True, width=32 if field.type == FieldDescriptor.TYPE_FLOAT else 64)
    return _ints(field.type)


def _is_map(field: FieldDescriptor) -> bool:
    return field.message_type is not None and field.message_type.GetOptions().map_entry


def messages(descriptor: Descriptor, depth: int = 0) -> st.SearchStrategy[Any]:
    """A message of this type with any of its fields set to hostile values."""
    cls = message_factory.GetMessageClass(descriptor)
    fields = {}
    for field in descriptor.fields:
        if depth > 3 and field.message_type is not None:
            continue
        if _is_map(field):  # map<k, v>: hostile keys and values
            entry = field.message_type
            keys = _field(entry.fields_by_name["key"], depth)
            fields[field.name] = st.dictionaries(
                keys, _field(entry.fields_by_name["value"], depth), max_size=3
            )
            continue
        one = _field(field, depth)
        many: st.SearchStrategy[Any] = st.lists(one, max_size=3)
        if field.is_repeated:
            if field.message_type is None:
                short = (
                    st.sampled_from(["", "BR1FL", "a\x00"])
                    if field.type == FieldDescriptor.TYPE_STRING
                    else one
                )
                many = many | st.builds(lambda v: [v] * 600, short)
            fields[field.name] = many
        else:
            fields[field.name] = one
    # Fields with plausible values are always sent (the request gets past "is required"), others sometimes.
    chosen = st.fixed_dictionaries(
        {k: v for k, v in fields.items() if k in PLAUSIBLE},
        optional={k: v for k, v in fields.items() if k not in PLAUSIBLE},
    )

    def build(values: dict[str, Any]) -> Any:
        msg = cls()
        for name, value in values.items():
            if _is_map(descriptor.fields_by_name[name]):
                getattr(msg, name).update(value)
                continue
            target = getattr(msg, name) if descriptor.fields_by_name[name].is_repeated else None
            if target is not None:
                if descriptor.fields_by_name[name].message_type is not None:
                    for v in value:
                        target.add().CopyFrom(v)
                else:
                    target.extend(value)
            elif descriptor.fields_by_name[name].message_type is not None:
                getattr(msg, name).CopyFrom(value)
            else:
                setattr(msg, name, value)
        return msg

    return chosen.map(build)


def metadata(admin_token: str) -> st.SearchStrategy[tuple[tuple[str, str], ...]]:
    players = st.sampled_from(
        ["cornwallis", "cornwallis", "ganteaume", "admin", "", "nobody", "x" * 5000, "a b"]
    )
    passwords = st.sampled_from([PASSWORD, PASSWORD, PASSWORD, "", "wrong", "p" * 2000])
    tokens = st.sampled_from([admin_token, admin_token, "", "wrong"])
    # bearer tokens shaped as API tokens (docs/api.md), and broken ones: OpenSeat reads them
    bearers = st.sampled_from(
        [
            "",
            "",
            "",
            "Bearer pate_at_0123456789ab_" + "A" * 43,
            "Bearer pate_at_' OR 1=1 --",
            "Bearer pate_at_",
            "Bearer pate_at_" + "f" * 5000,
            "Bearer " + "x" * 101,
            "Basic abc",
        ]
    )
    return st.tuples(players, passwords, tokens, bearers).map(
        lambda t: tuple(
            (k, v)
            for k, v in (
                ("x-pate-player", t[0]),
                ("x-pate-password", t[1]),
                ("x-pate-admin-token", t[2]),
                ("authorization", t[3]),
            )
            if v
        )
    )
