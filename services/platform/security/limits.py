"""Limits on every field of every RPC, checked before any work (docs/security.md).

Each field of each request message of the PATE services has a rule here:
a length and a character set for text, a range for numbers, a count for
repeated fields, a range for timestamps.  ``check_request`` walks a request
by its descriptor and names the first field that breaks its rule; the server
answers INVALID_ARGUMENT with that field's name and at most ``quoting.EXCERPT_CHARS``
characters of the offending value.  A field with no rule of its own (one added
later) gets the default of its type.  docs/security.md ("Limits and hostile
input") lists the same numbers; a test keeps the two in step.

The rules are the outer bound of what any honest client sends; the rules of
the game (a ship id that exists, a port on the map) are checked afterwards by
the core, with its own refusals.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message

from pate.core.preview.model import MAX_RUNS
from services.platform.security.account_limits import ACCOUNT_RULES
from services.platform.security.field_rules import (
    LimitError,
    Many,
    Moment,
    Number,
    Text,
)
from services.platform.security.field_shapes import (
    AMOUNT_RULE,
    CAMPAIGN_RULE,
    MAX_ORDERS_TEXT_CHARS,
    MAX_SCENARIO_TOML_CHARS,
    MAX_SEED,
    MAX_TURN_SECONDS,
    NEW_CAMPAIGN_RULE,
    PLACE_RULE,
    PLAYER_ID,
    PLAYER_RULE,
    REQUEST_ID,
    SCENARIO_NAME,
    SEA_AREA,
    TOKEN_RULE,
    TRACE_ID,
    TURN_RULE,
    WORD_RULE,
    Rule,
)

# The whole request, serialized: grpc.max_receive_message_length of every server.
MAX_MESSAGE_BYTES = 4 * 1024 * 1024
# All call metadata together (grpc.max_metadata_size).
MAX_METADATA_BYTES = 16 * 1024

RULES: dict[str, Rule] = {
    # pate.v1.CampaignAdmin
    "pate.v1.CreateCampaignRequest.id": NEW_CAMPAIGN_RULE,
    "pate.v1.CreateCampaignRequest.scenario": Text(
        64, SCENARIO_NAME, what="a scenario name ([a-z0-9_]{1,64})"
    ),
    "pate.v1.CreateCampaignRequest.scenario_toml": Text(MAX_SCENARIO_TOML_CHARS, lines=True),
    "pate.v1.CreateCampaignRequest.seed": Number(0, MAX_SEED),
    "pate.v1.CreateCampaignRequest.turns": TURN_RULE,
    "pate.v1.CreateCampaignRequest.first_deadline": Moment(),
    "pate.v1.CreateCampaignRequest.turn_seconds": Number(0, MAX_TURN_SECONDS),
    "pate.v1.GetCampaignRequest.campaign_id": CAMPAIGN_RULE,
    "pate.v1.CloseTurnRequest.campaign_id": CAMPAIGN_RULE,
    "pate.v1.CloseTurnRequest.turn": TURN_RULE,
    "pate.v1.SetDeadlineRequest.campaign_id": CAMPAIGN_RULE,
    "pate.v1.SetDeadlineRequest.turn": TURN_RULE,
    "pate.v1.SetDeadlineRequest.deadline": Moment(),
    "pate.v1.SetPlayerPasswordRequest.campaign_id": CAMPAIGN_RULE,
    "pate.v1.SetPlayerPasswordRequest.player_id": Text(
        64, PLAYER_ID, required=True, what="a player id ([A-Za-z0-9][A-Za-z0-9_.-]{0,63})"
    ),
    "pate.v1.SetPlayerPasswordRequest.password": Text(1024, required=True, min_chars=8),
    "pate.v1.CreateCampaignRequest.passwords": Many(200),
    "pate.v1.CreateCampaignRequest.passwords{}": Text(
        64, PLAYER_ID, required=True, what="a player id ([A-Za-z0-9][A-Za-z0-9_.-]{0,63})"
    ),
    "pate.v1.CreateCampaignRequest.passwords[]": Text(1024, required=True, min_chars=8),
    # the notification choices: the lengths the desk's own checks and the web form allow
    # (services/platform/store/notifications.py)
    "pate.v1.Notifications.email": Text(320),
    "pate.v1.Notifications.webhook": Text(500),
    # pate.v1.OrderDesk
    "pate.v1.SubmitOrdersRequest.campaign_id": CAMPAIGN_RULE,
    "pate.v1.SubmitOrdersRequest.turn": TURN_RULE,
    "pate.v1.SubmitOrdersRequest.client_request_id": Text(
        100, REQUEST_ID, required=True, what="1 to 100 printable ASCII characters without spaces"
    ),
    "pate.v1.SubmitOrdersRequest.orders": Many(500),
    "pate.v1.SubmitOrdersRequest.orders_text": Text(MAX_ORDERS_TEXT_CHARS, lines=True),
    "pate.v1.SubmitOrdersRequest.stores_moves": Many(100),
    "pate.v1.ShipOrder.ship_id": TOKEN_RULE,
    "pate.v1.ShipOrder.attach_to": TOKEN_RULE,
    "pate.v1.ShipOrder.commerce": WORD_RULE,
    "pate.v1.ShipOrder.stores": AMOUNT_RULE,
    "pate.v1.ShipOrder.admin": Many(16),
    "pate.v1.Movement.sea_areas": Many(4),
    "pate.v1.Movement.sea_areas[]": Text(8, SEA_AREA, what="a sea area code"),
    "pate.v1.Movement.port": PLACE_RULE,
    "pate.v1.Contact.mode": WORD_RULE,
    "pate.v1.Contact.minimum": Number(0, 1000),
    "pate.v1.Contact.maximum": Number(0, 1000),
    "pate.v1.Contact.gauge": WORD_RULE,
    "pate.v1.Combat.stance": WORD_RULE,
    "pate.v1.Combat.range": WORD_RULE,
    "pate.v1.Combat.line": WORD_RULE,
    "pate.v1.Combat.aim": WORD_RULE,
    "pate.v1.Combat.flee_to": WORD_RULE,
    "pate.v1.Amphibious.load_units": Many(64),
    "pate.v1.Amphibious.load_units[]": TOKEN_RULE,
    "pate.v1.Amphibious.unload_units": Many(64),
    "pate.v1.Amphibious.unload_units[]": TOKEN_RULE,
    "pate.v1.Amphibious.load_supplies": AMOUNT_RULE,
    "pate.v1.Amphibious.unload_supplies": AMOUNT_RULE,
    "pate.v1.AdminOrder.kind": WORD_RULE,
    "pate.v1.AdminOrder.target": TOKEN_RULE,
    "pate.v1.AdminOrder.amount": AMOUNT_RULE,
    "pate.v1.StoresMoveOrder.origin": PLACE_RULE,
    "pate.v1.StoresMoveOrder.destination": PLACE_RULE,
    "pate.v1.StoresMoveOrder.amount": AMOUNT_RULE,
    "pate.v1.GetEffectiveOrdersRequest.campaign_id": CAMPAIGN_RULE,
    "pate.v1.GetEffectiveOrdersRequest.turn": TURN_RULE,
    "pate.v1.GetEffectiveOrdersRequest.ship_ids": Many(500),
    "pate.v1.GetEffectiveOrdersRequest.ship_ids[]": TOKEN_RULE,
    # a preview plays at most MAX_RUNS runs (pate.core.preview.model), of at most as many orders
    # as a player has ships in the grand campaign
    "pate.v1.PreviewOrdersRequest.campaign_id": CAMPAIGN_RULE,
    "pate.v1.PreviewOrdersRequest.turn": TURN_RULE,
    "pate.v1.PreviewOrdersRequest.orders": Many(500),
    "pate.v1.PreviewOrdersRequest.orders_text": Text(MAX_ORDERS_TEXT_CHARS, lines=True),
    "pate.v1.PreviewOrdersRequest.runs": Number(0, MAX_RUNS),
    "pate.v1.SendMessageRequest.body": Text(20_000, lines=True),  # data/messages.toml holds the real limit
    # pate.v1.Absences (docs/bots.md "Absence", docs/formats/standing.md: pate/admiral/standing.py)
    "pate.v1.DeclareAbsenceRequest.from_turn": TURN_RULE,
    "pate.v1.DeclareAbsenceRequest.to_turn": TURN_RULE,
    "pate.v1.CancelAbsenceRequest.from_turn": TURN_RULE,
    "pate.v1.CancelAbsenceRequest.to_turn": TURN_RULE,
    "pate.v1.SetStandingInstructionsRequest.text": Text(2000, lines=True),
    "pate.v1.SetAbsenceAllowanceRequest.allowance": Number(0, 15),
    # pate.v1.Reports
    "pate.v1.GetReportRequest.campaign_id": CAMPAIGN_RULE,
    "pate.v1.GetReportRequest.turn": TURN_RULE,
    "pate.v1.GetReportRequest.player_id": PLAYER_RULE,
    "pate.v1.GetReportRequest.format": WORD_RULE,
    "pate.v1.ListReportsRequest.campaign_id": CAMPAIGN_RULE,
    "pate.v1.ListReportsRequest.player_id": PLAYER_RULE,
    "pate.v1.GetTruthRequest.campaign_id": CAMPAIGN_RULE,
    "pate.v1.GetTruthRequest.turn": TURN_RULE,
    **ACCOUNT_RULES,  # accounts, the lobby, API tokens, the archive (account_limits.py)
}

# Fields without a rule of their own (added later) but with a well-known name take
# that name's rule, so a new RPC's campaign_id or password is held like the others'.
BY_NAME: dict[str, Rule] = {
    "campaign_id": CAMPAIGN_RULE,
    "player_id": PLAYER_RULE,
    "password": Text(1024),
    "turn": TURN_RULE,
    "client_request_id": RULES["pate.v1.SubmitOrdersRequest.client_request_id"],
    "ship_id": TOKEN_RULE,
}

# Any other field without a rule of its own: the default of its type.
DEFAULT_TEXT = Text(200)
DEFAULT_BYTES_MAX = 64 * 1024
DEFAULT_MANY = Many(100)
DEFAULT_MOMENT = Moment()
MAX_DEPTH = 16  # messages inside messages

# Call metadata: every value is bounded before it keys any lookup or throttle.
METADATA: dict[str, Text] = {
    "x-pate-player": PLAYER_RULE,
    "x-pate-password": Text(1024),
    "x-pate-admin-token": Text(256),
    "x-trace-id": Text(64, TRACE_ID, what="a trace id ([A-Za-z0-9_-]{1,64})"),
}
DEFAULT_METADATA = Text(1024)  # any other x-pate-* value (session tokens, ...)

_INTS = {
    FieldDescriptor.TYPE_INT32: (-(2**31), 2**31 - 1),
    FieldDescriptor.TYPE_SINT32: (-(2**31), 2**31 - 1),
    FieldDescriptor.TYPE_SFIXED32: (-(2**31), 2**31 - 1),
    FieldDescriptor.TYPE_UINT32: (0, 2**32 - 1),
    FieldDescriptor.TYPE_FIXED32: (0, 2**32 - 1),
    FieldDescriptor.TYPE_INT64: (-(2**63), 2**63 - 1),
    FieldDescriptor.TYPE_SINT64: (-(2**63), 2**63 - 1),
    FieldDescriptor.TYPE_SFIXED64: (-(2**63), 2**63 - 1),
    FieldDescriptor.TYPE_UINT64: (0, 2**64 - 1),
    FieldDescriptor.TYPE_FIXED64: (0, 2**64 - 1),
}
_TIMESTAMP = "google.protobuf.Timestamp"


def check_request(message: Message, prefix: str = "") -> None:
    """Raise LimitError naming the first field of ``message`` outside its limits (``prefix``:
    where the message lies in the request, "orders[2].")."""
    _check_message(message, prefix, 0)


@dataclass(frozen=True, slots=True)
class _FieldPlan:
    """What checking one field of one message type takes, worked out once."""

    field: Any
    name: str
    key: str
    kind: str  # "map", "repeated", "message" or "scalar"
    rule: Rule | None  # of the field, or of each item when repeated
    max_items: int


_PLANS: dict[str, tuple[_FieldPlan, ...]] = {}


def _plan(descriptor: Any) -> tuple[_FieldPlan, ...]:
    """The fields of a message type with their rules (descriptors and rules never change)."""
    plan = _PLANS.get(descriptor.full_name)
    if plan is None:
        plan = tuple(_field_plan(descriptor, field) for field in descriptor.fields)
        _PLANS[descriptor.full_name] = plan
    return plan


def _field_plan(descriptor: Any, field: Any) -> _FieldPlan:
    key = f"{descriptor.full_name}.{field.name}"
    many = RULES.get(key, DEFAULT_MANY)
    max_items = many.max_items if isinstance(many, Many) else DEFAULT_MANY.max_items
    if field.message_type is not None and field.message_type.GetOptions().map_entry:
        return _FieldPlan(field, field.name, key, "map", None, max_items)
    if field.is_repeated:
        return _FieldPlan(field, field.name, key, "repeated", RULES.get(f"{key}[]"), max_items)
    if field.message_type is not None:
        return _FieldPlan(field, field.name, key, "message", RULES.get(key), max_items)
    return _FieldPlan(field, field.name, key, "scalar", RULES.get(key) or BY_NAME.get(field.name), max_items)


def _check_message(message: Message, prefix: str, depth: int) -> None:
    if depth > MAX_DEPTH:
        raise LimitError(f"{prefix.rstrip('.') or 'request'}: nested too deep")
    for f in _plan(message.DESCRIPTOR):
        name = prefix + f.name
        if f.kind == "scalar":
            _check_value(f.field, f.rule, getattr(message, f.name), name, depth)
        elif f.kind == "repeated":
            items = getattr(message, f.name)
            if len(items) > f.max_items:
                raise LimitError(f"{name}: at most {f.max_items} items (got {len(items)})")
            for i, item in enumerate(items):
                _check_value(f.field, f.rule, item, f"{name}[{i}]", depth)
        elif f.kind == "message":
            if message.HasField(f.name):
                _check_value(f.field, f.rule, getattr(message, f.name), name, depth)
        else:
            _check_map(f.field, f.key, getattr(message, f.name), name, depth)


def _check_map(field: Any, key: str, entries: Mapping[Any, Any], name: str, depth: int) -> None:
    """A map field: its size, then each key (rule ``<field>{}``) and value (``<field>[]``)."""
    many = RULES.get(key, DEFAULT_MANY)
    limit = many.max_items if isinstance(many, Many) else DEFAULT_MANY.max_items
    if len(entries) > limit:
        raise LimitError(f"{name}: at most {limit} items (got {len(entries)})")
    key_field = field.message_type.fields_by_name["key"]
    value_field = field.message_type.fields_by_name["value"]
    for k in sorted(entries):
        _check_value(key_field, RULES.get(f"{key}{{}}"), k, f"{name}.key", depth)
        _check_value(value_field, RULES.get(f"{key}[]"), entries[k], f"{name}[{k}]", depth)


def _check_value(field: Any, rule: Rule | None, value: object, name: str, depth: int) -> None:
    if field.message_type is not None:
        assert isinstance(value, Message)
        if field.message_type.full_name == _TIMESTAMP:
            moment = rule if isinstance(rule, Moment) else DEFAULT_MOMENT
            moment.check(name, value.seconds, value.nanos)  # type: ignore[attr-defined]
        else:
            _check_message(value, f"{name}.", depth + 1)
    elif field.type == FieldDescriptor.TYPE_STRING:
        assert isinstance(value, str)
        (rule if isinstance(rule, Text) else DEFAULT_TEXT).check(name, value)
    elif field.type == FieldDescriptor.TYPE_BYTES:
        assert isinstance(value, bytes)
        if len(value) > DEFAULT_BYTES_MAX:
            raise LimitError(f"{name}: at most {DEFAULT_BYTES_MAX} bytes")
    elif field.type in _INTS:
        assert isinstance(value, int)
        lo, hi = _INTS[field.type]
        (rule if isinstance(rule, Number) else Number(lo, hi)).check(name, value)


def check_metadata(pairs: Iterable[tuple[str, object]]) -> None:
    """Raise LimitError naming the first x-pate-* (or trace) metadata value outside its limits."""
    for key, value in pairs:
        if not isinstance(value, str):
            continue
        rule = METADATA.get(key)
        if rule is None and key.startswith("x-pate-"):
            rule = DEFAULT_METADATA
        if rule is not None:
            rule.check(f"metadata {key}", value)


def documented_fields(rules: Mapping[str, Rule] = RULES) -> list[str]:
    """Every field with a rule of its own, as docs/security.md names it."""
    return sorted({k.removesuffix("[]").removesuffix("{}") for k in rules})
