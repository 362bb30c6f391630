"""The field limits of services/platform/security/limits.py, and their documentation."""

from __future__ import annotations

from pathlib import Path

import pytest

from pate.core.orders.refusal import INVALID, Refusal
from pate.core.world.fields import DataError
from pate.datafiles import load_shipped_scenario, parse_scenario_text
from pate.v1 import admin_pb2, common_pb2, desk_pb2, orders_pb2, reports_pb2
from services.orders.intake import orders_of
from services.orders.servicer import refusals_bin
from services.platform.errors import DeskError
from services.platform.security import field_shapes, limits
from services.platform.security.limits import LimitError, check_metadata, check_request

DOC = Path(__file__).resolve().parents[3] / "docs" / "security.md"


def _refused(message: object) -> str:
    with pytest.raises(LimitError) as err:
        check_request(message)  # type: ignore[arg-type]
    return str(err.value)


def test_ids_are_matched_whole_a_final_newline_is_refused() -> None:
    assert _refused(admin_pb2.CreateCampaignRequest(id="nl\n", scenario="training")).startswith("id:")
    check_request(admin_pb2.CreateCampaignRequest(id="nl", scenario="training"))


@pytest.mark.parametrize("bad", ["a\x00b", "\x1b[31m", "a\u2028b", "\u202eevil"])
def test_control_and_format_characters_are_refused_in_text(bad: str) -> None:
    order = common_pb2.ShipOrder(ship_id="BR1FL", movement=common_pb2.Movement(port=bad))
    req = orders_pb2.SubmitOrdersRequest(campaign_id="c", client_request_id="r", orders=[order])
    assert _refused(req).startswith("orders[0].movement.port:")


def test_order_files_keep_their_newlines_but_not_nul() -> None:
    ok = orders_pb2.SubmitOrdersRequest(
        campaign_id="c", client_request_id="r", orders_text="order BR1FL\n\tx\r\n"
    )
    check_request(ok)
    ok.orders_text = "order\x00"
    assert _refused(ok).startswith("orders_text: control character U+0000")


@pytest.mark.parametrize(
    ("bad", "code"),
    [("Gibraltar\u202e", "U+202E"), ("line\u2028From: Nelson", "U+2028"), ("a\u2066b\u2069", "U+2066")],
)
def test_a_message_cannot_turn_its_text_round_or_draw_a_false_header(bad: str, code: str) -> None:
    """Multi-line text keeps its newlines and any script (accents, Greek, emoji), but not the
    bidirectional controls nor the line and paragraph separators."""
    ok = desk_pb2.SendMessageRequest(campaign_id="c", body="Cap Fréhel\n\tΑθήνα 🌊 l\u2019amiral")
    check_request(ok)
    ok.body = bad
    assert _refused(ok) == f"body: control character {code} refused"


def test_an_error_quotes_only_an_excerpt() -> None:
    message = _refused(reports_pb2.GetReportRequest(campaign_id="c", player_id="é" * 50))
    assert "é" * 10 in message and len(message) < 200
    huge = _refused(admin_pb2.CreateCampaignRequest(id="x" * 100_000))
    assert "100000" in huge and len(huge) < 100


@pytest.mark.parametrize(
    ("seconds", "nanos"), [(-62135596801, 0), (253402300800, 0), (2**62, 0), (1_800_000_000, -1), (0, 0)]
)
def test_timestamps_out_of_range_are_refused(seconds: int, nanos: int) -> None:
    req = admin_pb2.SetDeadlineRequest(campaign_id="c", turn=1)
    req.deadline.seconds, req.deadline.nanos = seconds, nanos
    assert _refused(req).startswith("deadline:")


def test_numbers_have_ranges() -> None:
    assert _refused(orders_pb2.GetEffectiveOrdersRequest(campaign_id="c", turn=-1)).startswith("turn:")
    assert _refused(admin_pb2.CreateCampaignRequest(id="c", turn_seconds=2**40)).startswith("turn_seconds:")
    assert field_shapes.MAX_TURN_SECONDS < 2**31  # fits PostgreSQL's INTEGER column
    assert _refused(admin_pb2.CreateCampaignRequest(id="c", seed=2**63)).startswith("seed:")


def test_repeated_fields_are_counted() -> None:
    req = orders_pb2.GetEffectiveOrdersRequest(campaign_id="c", ship_ids=["BR1FL"] * 501)
    assert _refused(req) == "ship_ids: at most 500 items (got 501)"


def test_passwords_longer_than_any_accepted_are_refused_before_hashing() -> None:
    req = admin_pb2.SetPlayerPasswordRequest(campaign_id="c", player_id="p", password="p" * 2000)
    assert _refused(req).startswith("password: at most 1024")


def test_metadata_is_bounded_before_any_lookup() -> None:
    check_metadata(
        [("x-pate-player", "cornwallis"), ("x-pate-password", "secret"), ("user-agent", "x" * 9000)]
    )
    for key, value in [
        ("x-pate-player", "x" * 3_000_000),
        ("x-pate-player", "a b"),
        ("x-pate-password", "p" * 2000),
        ("x-pate-session", "t" * 2000),
        ("x-trace-id", "not a trace id"),
    ]:
        with pytest.raises(LimitError, match=f"metadata {key}"):
            check_metadata([(key, value)])


@pytest.mark.parametrize(
    "toml",
    [
        "a = " + "[" * 5000 + "]" * 5000,
        "a = " + "{b = " * 3000 + "1" + "}" * 3000,
        ".".join(["k"] * 5000) + " = 1",
    ],
)
def test_deep_scenario_toml_is_refused_without_recursion_error(toml: str) -> None:
    with pytest.raises(DataError, match="nested deeper than 32"):
        parse_scenario_text(toml)


@pytest.mark.parametrize("name", ["training.toml", "../data/scenarios/training", "/etc/passwd", "pyproject"])
def test_scenarios_come_only_from_the_data_folder_by_name(name: str) -> None:
    with pytest.raises(DataError):
        load_shipped_scenario(name)


def test_every_limited_field_and_number_is_documented() -> None:
    text = DOC.read_text()
    section = text.split("## Limits and hostile input", 1)[1]
    for field in limits.documented_fields():
        message, _, name = field.removeprefix("pate.v1.").rpartition(".")
        assert f"{message}.{name}" in section, f"docs/security.md does not name {field}"
    for number in (
        "4 MiB",
        "16 KiB",
        "80 characters",
        "1,000 characters",
        "31,622,400",
        "1,048,576",
        "262,144",
    ):
        assert number in section, number


def test_a_field_added_later_takes_the_rule_of_its_name_or_of_its_type() -> None:
    """LandBridge's requests have no rules of their own: they show how a new RPC is held."""
    from gitm.v1 import land_pb2

    descriptor = land_pb2.DESCRIPTOR
    messages = [descriptor.message_types_by_name[n] for n in descriptor.message_types_by_name]
    has_campaign = [m for m in messages if "campaign_id" in m.fields_by_name]
    assert has_campaign, "gitm.v1 has a message with a campaign_id"
    cls = land_pb2.__dict__[has_campaign[0].name]
    assert _refused(cls(campaign_id="nl\n")).startswith("campaign_id:")
    texts = [
        (m, f)
        for m in messages
        for f in m.fields
        if f.type == f.TYPE_STRING and not f.is_repeated and f.name not in limits.BY_NAME
    ]
    message, field = texts[0]
    request = land_pb2.__dict__[message.name](**{field.name: "x" * 201})
    assert f"{field.name}: at most 200 characters" in _refused(request)


def test_orders_written_as_text_keep_the_limits_of_the_same_fields() -> None:
    """A port name of 20,000 characters pasted as text is refused as the same field sent as a
    message would be, naming it and quoting an excerpt: before, the refusal quoted it whole and,
    past 16 KiB, broke gRPC's trailer (a raw transport error reached the player)."""
    text = "order BR1FR\n  move BIS port " + "X" * 20_000 + "\n"
    with pytest.raises(DeskError) as err:
        orders_of(orders_pb2.SubmitOrdersRequest(campaign_id="c", client_request_id="r", orders_text=text))
    assert err.value.message.startswith("orders[0].movement.port: at most 64 characters")
    assert len(err.value.message) < 200


def test_the_refusals_trailer_stays_under_the_metadata_limit() -> None:
    many = tuple(
        Refusal(f"orders[{i}].movement.port", "1.4", "no port named " + "Y" * 5000, INVALID)
        for i in range(500)
    )
    assert len(refusals_bin(many)) < 16_384
