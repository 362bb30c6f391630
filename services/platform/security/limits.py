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

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message

from pate.core.preview.model import MAX_RUNS
from pate.datafiles import MAX_SCENARIO_CHARS
from services.platform.security.field_rules import (
    LimitError,
    Many,
    Moment,
    Number,
    Text,
)

# The whole request, serialized: grpc.max_receive_message_length of every server.
MAX_MESSAGE_BYTES = 4 * 1024 * 1024
# All call metadata together (grpc.max_metadata_size).
MAX_METADATA_BYTES = 16 * 1024

MAX_TURN = 100  # campaigns have at most 100 turns (rule 3.1 says 15)
MAX_SCENARIO_TOML_CHARS = MAX_SCENARIO_CHARS  # 1 MiB; nested at most MAX_SCENARIO_NESTING (32) deep
MAX_ORDERS_TEXT_CHARS = 256 * 1024
MAX_TURN_SECONDS = 366 * 24 * 3600  # a turn lasts at most a (leap) year; fits a 32-bit column
MAX_AMOUNT = 1_000_000  # stores, supplies, crews: far above any fleet's
MAX_SEED = 2**63 - 1  # a campaign seed: a uint64 field kept within a signed 64-bit column

CAMPAIGN_ID = re.compile(r"[a-z0-9][a-z0-9-]{0,39}")
PLAYER_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")
SCENARIO_NAME = re.compile(r"[a-z0-9_]{1,64}")
TOKEN = re.compile(r"[A-Za-z0-9_-]{1,32}")  # ship, unit and admin-order targets
WORD = re.compile(r"[A-Za-z_]{1,32}")  # enumerated words (engage, leeward, ...)
SEA_AREA = re.compile(r"[A-Za-z]{1,8}")
REQUEST_ID = re.compile(r"[!-~]{1,100}")  # printable ASCII, no spaces
TRACE_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
EMAIL = re.compile(r"[^\s@<>,;]{1,64}@[^\s@<>,;]{1,189}")  # the outer bound; account_store checks more
TIME_ZONE = re.compile(r"[A-Za-z][A-Za-z0-9_+/-]{0,63}")  # the shape of an IANA name; the list decides
LINK_TOKEN = re.compile(r"[A-Za-z0-9_-]{1,100}")  # a mailed link's token (43 characters)
SESSION_ID = re.compile(r"[0-9a-f]{16}")
ASK_ID = re.compile(r"[0-9a-f]{16}")  # a lobby ask (docs/lobby.md)
RULE_SET = re.compile(r"[a-z0-9_-]{1,64}")
PAGE_TOKEN = re.compile(r"[0-9]{1,5}")
SOLO_SCENARIO = re.compile(r"[a-z0-9_-]{1,40}")  # a shipped scenario's file name (services/orders/solo.py)
API_TOKEN_ID = re.compile(r"(pate_at_)?[0-9a-f]{12}")


Rule = Text | Number | Many | Moment

_CAMPAIGN = Text(40, CAMPAIGN_ID, required=True, what="a campaign id ([a-z0-9][a-z0-9-]{0,39})")
_NEW_CAMPAIGN = _CAMPAIGN
_PLAYER = Text(64, PLAYER_ID, what="a player id ([A-Za-z0-9][A-Za-z0-9_.-]{0,63})")
_TURN = Number(0, MAX_TURN)
_TOKEN = Text(32, TOKEN, what="an id of letters, digits, '_' and '-'")
_WORD = Text(32, WORD, what="a word of letters and '_'")
_PLACE = Text(64)  # a port's name: any printable text
_AMOUNT = Number(0, MAX_AMOUNT)
_SEAT = Text(64, PLAYER_ID, required=True, what="a player id ([A-Za-z0-9][A-Za-z0-9_.-]{0,63})")
_EMAIL = Text(254, EMAIL, required=True, what="an email address")
_GIVEN_PASSWORD = Text(1024, required=True)
_NEW_PASSWORD = Text(1024, required=True, min_chars=10)  # account_store.MIN_PASSWORD_LENGTH
_LINK = Text(100, LINK_TOKEN, required=True, what="the token of a mailed link")

RULES: dict[str, Rule] = {
    # pate.v1.CampaignAdmin
    "pate.v1.CreateCampaignRequest.id": _NEW_CAMPAIGN,
    "pate.v1.CreateCampaignRequest.scenario": Text(
        64, SCENARIO_NAME, what="a scenario name ([a-z0-9_]{1,64})"
    ),
    "pate.v1.CreateCampaignRequest.scenario_toml": Text(MAX_SCENARIO_TOML_CHARS, lines=True),
    "pate.v1.CreateCampaignRequest.seed": Number(0, MAX_SEED),
    "pate.v1.CreateCampaignRequest.turns": _TURN,
    "pate.v1.CreateCampaignRequest.first_deadline": Moment(),
    "pate.v1.CreateCampaignRequest.turn_seconds": Number(0, MAX_TURN_SECONDS),
    "pate.v1.GetCampaignRequest.campaign_id": _CAMPAIGN,
    "pate.v1.CloseTurnRequest.campaign_id": _CAMPAIGN,
    "pate.v1.CloseTurnRequest.turn": _TURN,
    "pate.v1.SetDeadlineRequest.campaign_id": _CAMPAIGN,
    "pate.v1.SetDeadlineRequest.turn": _TURN,
    "pate.v1.SetDeadlineRequest.deadline": Moment(),
    "pate.v1.SetPlayerPasswordRequest.campaign_id": _CAMPAIGN,
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
    "pate.v1.SubmitOrdersRequest.campaign_id": _CAMPAIGN,
    "pate.v1.SubmitOrdersRequest.turn": _TURN,
    "pate.v1.SubmitOrdersRequest.client_request_id": Text(
        100, REQUEST_ID, required=True, what="1 to 100 printable ASCII characters without spaces"
    ),
    "pate.v1.SubmitOrdersRequest.orders": Many(500),
    "pate.v1.SubmitOrdersRequest.orders_text": Text(MAX_ORDERS_TEXT_CHARS, lines=True),
    "pate.v1.SubmitOrdersRequest.stores_moves": Many(100),
    "pate.v1.ShipOrder.ship_id": _TOKEN,
    "pate.v1.ShipOrder.attach_to": _TOKEN,
    "pate.v1.ShipOrder.commerce": _WORD,
    "pate.v1.ShipOrder.stores": _AMOUNT,
    "pate.v1.ShipOrder.admin": Many(16),
    "pate.v1.Movement.sea_areas": Many(4),
    "pate.v1.Movement.sea_areas[]": Text(8, SEA_AREA, what="a sea area code"),
    "pate.v1.Movement.port": _PLACE,
    "pate.v1.Contact.mode": _WORD,
    "pate.v1.Contact.minimum": Number(0, 1000),
    "pate.v1.Contact.maximum": Number(0, 1000),
    "pate.v1.Contact.gauge": _WORD,
    "pate.v1.Combat.stance": _WORD,
    "pate.v1.Combat.range": _WORD,
    "pate.v1.Combat.line": _WORD,
    "pate.v1.Combat.aim": _WORD,
    "pate.v1.Combat.flee_to": _WORD,
    "pate.v1.Amphibious.load_units": Many(64),
    "pate.v1.Amphibious.load_units[]": _TOKEN,
    "pate.v1.Amphibious.unload_units": Many(64),
    "pate.v1.Amphibious.unload_units[]": _TOKEN,
    "pate.v1.Amphibious.load_supplies": _AMOUNT,
    "pate.v1.Amphibious.unload_supplies": _AMOUNT,
    "pate.v1.AdminOrder.kind": _WORD,
    "pate.v1.AdminOrder.target": _TOKEN,
    "pate.v1.AdminOrder.amount": _AMOUNT,
    "pate.v1.StoresMoveOrder.origin": _PLACE,
    "pate.v1.StoresMoveOrder.destination": _PLACE,
    "pate.v1.StoresMoveOrder.amount": _AMOUNT,
    "pate.v1.GetEffectiveOrdersRequest.campaign_id": _CAMPAIGN,
    "pate.v1.GetEffectiveOrdersRequest.turn": _TURN,
    "pate.v1.GetEffectiveOrdersRequest.ship_ids": Many(500),
    "pate.v1.GetEffectiveOrdersRequest.ship_ids[]": _TOKEN,
    # a preview plays at most MAX_RUNS runs (pate.core.preview.model), of at most as many orders
    # as a player has ships in the grand campaign
    "pate.v1.PreviewOrdersRequest.campaign_id": _CAMPAIGN,
    "pate.v1.PreviewOrdersRequest.turn": _TURN,
    "pate.v1.PreviewOrdersRequest.orders": Many(500),
    "pate.v1.PreviewOrdersRequest.orders_text": Text(MAX_ORDERS_TEXT_CHARS, lines=True),
    "pate.v1.PreviewOrdersRequest.runs": Number(0, MAX_RUNS),
    "pate.v1.SendMessageRequest.body": Text(20_000, lines=True),  # data/messages.toml holds the real limit
    # pate.v1.Absences (docs/bots.md "Absence", docs/formats/standing.md: pate/admiral/standing.py)
    "pate.v1.DeclareAbsenceRequest.from_turn": _TURN,
    "pate.v1.DeclareAbsenceRequest.to_turn": _TURN,
    "pate.v1.CancelAbsenceRequest.from_turn": _TURN,
    "pate.v1.CancelAbsenceRequest.to_turn": _TURN,
    "pate.v1.SetStandingInstructionsRequest.text": Text(2000, lines=True),
    "pate.v1.SetAbsenceAllowanceRequest.allowance": Number(0, 15),
    # pate.v1.Reports
    "pate.v1.GetReportRequest.campaign_id": _CAMPAIGN,
    "pate.v1.GetReportRequest.turn": _TURN,
    "pate.v1.GetReportRequest.player_id": _PLAYER,
    "pate.v1.GetReportRequest.format": _WORD,
    "pate.v1.ListReportsRequest.campaign_id": _CAMPAIGN,
    "pate.v1.ListReportsRequest.player_id": _PLAYER,
    "pate.v1.GetTruthRequest.campaign_id": _CAMPAIGN,
    "pate.v1.GetTruthRequest.turn": _TURN,
    # pate.v1.Accounts (docs/accounts.md; services/platform/security/account_store.py checks more)
    "pate.v1.SignUpRequest.display_name": Text(100, required=True),
    "pate.v1.SignUpRequest.email": _EMAIL,
    "pate.v1.SignUpRequest.password": _NEW_PASSWORD,
    "pate.v1.SignUpRequest.time_zone": Text(64, TIME_ZONE, what="an IANA time zone name"),
    "pate.v1.VerifyRequest.token": _LINK,
    "pate.v1.AccountLoginRequest.email": _EMAIL,
    "pate.v1.AccountLoginRequest.password": _GIVEN_PASSWORD,
    "pate.v1.ClaimSeatRequest.campaign_id": _CAMPAIGN,
    "pate.v1.ClaimSeatRequest.player_id": _SEAT,
    "pate.v1.ClaimSeatRequest.password": _GIVEN_PASSWORD,
    "pate.v1.OpenSeatRequest.campaign_id": _CAMPAIGN,
    "pate.v1.OpenSeatRequest.player_id": _SEAT,
    "pate.v1.RevokeAccountSessionsRequest.session_id": Text(
        16, SESSION_ID, what="a session id (16 hex digits)"
    ),
    "pate.v1.RequestResetRequest.email": _EMAIL,
    "pate.v1.ResetPasswordRequest.token": _LINK,
    "pate.v1.ResetPasswordRequest.new_password": _NEW_PASSWORD,
    "pate.v1.ChangePasswordRequest.password": _GIVEN_PASSWORD,
    "pate.v1.ChangePasswordRequest.new_password": _NEW_PASSWORD,
    "pate.v1.DeleteAccountRequest.password": _GIVEN_PASSWORD,
    # pate.v1.Lobby (docs/lobby.md; services/orders/lobby checks the words and the numbers)
    "pate.v1.PublishRequest.campaign_id": _CAMPAIGN,
    "pate.v1.PublishRequest.description": Text(2000, lines=True),
    "pate.v1.PublishRequest.time_zone": Text(64, TIME_ZONE, what="an IANA time zone name"),
    "pate.v1.PublishRequest.seat_policy": _WORD,
    "pate.v1.PublishRequest.min_reliability": Number(0, 100),
    "pate.v1.PublishRequest.start": _WORD,
    "pate.v1.PublishRequest.seats": Many(200),
    "pate.v1.PublishRequest.seats[]": _SEAT,
    "pate.v1.LobbyCampaignRequest.campaign_id": _CAMPAIGN,
    "pate.v1.LobbySeatRequest.campaign_id": _CAMPAIGN,
    "pate.v1.LobbySeatRequest.player_id": _SEAT,
    "pate.v1.BrowseRequest.scenario": Text(64, SCENARIO_NAME, what="a scenario name ([a-z0-9_]{1,64})"),
    "pate.v1.BrowseRequest.combat_rules": Text(64, RULE_SET, what="a rule set's name"),
    "pate.v1.BrowseRequest.naval_rules": Text(64, RULE_SET, what="a rule set's name"),
    "pate.v1.BrowseRequest.max_turn_hours": Number(0, MAX_TURN_SECONDS // 3600),
    "pate.v1.BrowseRequest.page_size": Number(0, 50),
    "pate.v1.BrowseRequest.page_token": Text(5, PAGE_TOKEN, what="a previous page's next_page_token"),
    "pate.v1.DecideRequest.campaign_id": _CAMPAIGN,
    "pate.v1.DecideRequest.ask_id": Text(16, ASK_ID, required=True, what="an ask id (16 hex digits)"),
    "pate.v1.StartSoloRequest.campaign_id": _CAMPAIGN,
    "pate.v1.StartSoloRequest.scenario": Text(40, SOLO_SCENARIO, required=True, what="a shipped scenario"),
    "pate.v1.StartSoloRequest.seat": _SEAT,
    "pate.v1.StartSoloRequest.combat_rules": Text(64, RULE_SET, what="a rule set's name"),
    "pate.v1.StartSoloRequest.naval_rules": Text(64, RULE_SET, what="a rule set's name"),
    # API tokens and account edits (docs/api.md; api_tokens.py and account_edits.py check more)
    "pate.v1.CreateApiTokenRequest.name": Text(64, required=True),
    "pate.v1.CreateApiTokenRequest.read_only": Number(0, 1),
    "pate.v1.CreateApiTokenRequest.all_seats": Number(0, 1),
    "pate.v1.CreateApiTokenRequest.seats": Many(50),
    "pate.v1.CreateApiTokenRequest.expires_in_days": Number(0, 365),
    "pate.v1.ApiTokenSeat.campaign_id": _CAMPAIGN,
    "pate.v1.ApiTokenSeat.player_id": _SEAT,
    "pate.v1.RevokeApiTokenRequest.token_id": Text(
        20, API_TOKEN_ID, what="an API token's id (12 hex digits, or pate_at_ and them)"
    ),
    "pate.v1.UpdateAccountRequest.display_name": Text(100),
    "pate.v1.UpdateAccountRequest.time_zone": Text(64, TIME_ZONE, what="an IANA time zone name"),
    "pate.v1.UpdateAccountRequest.clear_time_zone": Number(0, 1),
    "pate.v1.UpdateAccountRequest.email": Text(254, EMAIL, what="an email address"),
    "pate.v1.UpdateAccountRequest.password": Text(1024),
    # the public archive (services/orders/archive.py)
    "pate.v1.ListArchiveRequest.page_size": Number(0, 50),
    "pate.v1.ListArchiveRequest.page_token": Text(
        40, CAMPAIGN_ID, what="the next_page_token of the last page"
    ),
    "pate.v1.GetArchivedRequest.campaign_id": _CAMPAIGN,
}

# Fields without a rule of their own (added later) but with a well-known name take
# that name's rule, so a new RPC's campaign_id or password is held like the others'.
BY_NAME: dict[str, Rule] = {
    "campaign_id": _CAMPAIGN,
    "player_id": _PLAYER,
    "password": Text(1024),
    "turn": _TURN,
    "client_request_id": RULES["pate.v1.SubmitOrdersRequest.client_request_id"],
    "ship_id": _TOKEN,
}

# Any other field without a rule of its own: the default of its type.
DEFAULT_TEXT = Text(200)
DEFAULT_BYTES_MAX = 64 * 1024
DEFAULT_MANY = Many(100)
DEFAULT_MOMENT = Moment()
MAX_DEPTH = 16  # messages inside messages

# Call metadata: every value is bounded before it keys any lookup or throttle.
METADATA: dict[str, Text] = {
    "x-pate-player": _PLAYER,
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
