"""The limits of every field of pate.v1.Accounts (services/platform/security/limits.py), and
the finer checks of account_store: hostile input is refused naming its field, before any work."""

from __future__ import annotations

import pytest

from pate.v1 import accounts_pb2 as pb
from services.platform.errors import DeskError
from services.platform.security import account_store
from services.platform.security.limits import RULES, LimitError, check_request

OK = {"display_name": "Ann", "email": "ann@example.org", "password": "a fine password"}


def refused(message: object) -> str:
    with pytest.raises(LimitError) as err:
        check_request(message)  # type: ignore[arg-type]
    return str(err.value)


def test_every_field_of_every_accounts_request_has_a_rule_of_its_own() -> None:
    for message in pb.DESCRIPTOR.message_types_by_name.values():
        if message.name.endswith("Request"):
            for field in message.fields:
                assert f"pate.v1.{message.name}.{field.name}" in RULES, field.full_name


@pytest.mark.parametrize(
    ("message", "field"),
    [
        (pb.SignUpRequest(**{**OK, "display_name": "x" * 101}), "display_name"),
        (pb.SignUpRequest(**{**OK, "display_name": "evil\u202etxt.exe"}), "display_name"),
        (pb.SignUpRequest(**{**OK, "display_name": ""}), "display_name"),
        (pb.SignUpRequest(**{**OK, "email": "ann@example.org\nBcc: everyone@example.org"}), "email"),
        (pb.SignUpRequest(**{**OK, "email": "a" * 65 + "@example.org"}), "email"),
        (pb.SignUpRequest(**{**OK, "email": "no-at-sign"}), "email"),
        (pb.SignUpRequest(**{**OK, "password": "short"}), "password"),
        (pb.SignUpRequest(**{**OK, "password": "p" * 1025}), "password"),
        (pb.SignUpRequest(**OK, time_zone="../../../etc/shadow"), "time_zone"),
        (pb.SignUpRequest(**OK, time_zone="Europe/Paris\x00"), "time_zone"),
        (pb.VerifyRequest(token="abc'; DROP TABLE accounts; --"), "token"),
        (pb.VerifyRequest(token="t" * 101), "token"),
        (pb.AccountLoginRequest(email="ann@example.org", password="p" * 1025), "password"),
        (pb.ClaimSeatRequest(campaign_id="Nope!", player_id="barham", password="x"), "campaign_id"),
        (pb.ClaimSeatRequest(campaign_id="nl", player_id="", password="x"), "player_id"),
        (pb.OpenSeatRequest(campaign_id="nl", player_id="b" * 65), "player_id"),
        (pb.RevokeAccountSessionsRequest(session_id="%"), "session_id"),
        (pb.RequestResetRequest(email=""), "email"),
        (pb.ResetPasswordRequest(token="t" * 43, new_password="2short"), "new_password"),
        (pb.ChangePasswordRequest(password="", new_password="a fine password"), "password"),
        (pb.DeleteAccountRequest(password=""), "password"),
    ],
)
def test_hostile_fields_are_refused_by_name(message: object, field: str) -> None:
    assert refused(message).startswith(f"{field}:")


def test_honest_requests_pass() -> None:
    check_request(pb.SignUpRequest(**OK, time_zone="America/Argentina/Buenos_Aires"))
    check_request(pb.RevokeAccountSessionsRequest(session_id="0123456789abcdef"))
    check_request(pb.RevokeAccountSessionsRequest())  # every session


def test_the_stored_forms_are_checked_again_behind_the_limits() -> None:
    assert account_store.check_email("  Ann@Example.ORG ") == "ann@example.org"
    assert account_store.check_time_zone("Europe/Paris") == "Europe/Paris"
    assert account_store.check_time_zone("") is None
    for zone in ("Mars/Olympus", "posixrules/../UTC", "/etc/localtime"):
        with pytest.raises(DeskError):
            account_store.check_time_zone(zone)
    for name in ("zero\u200bwidth", "line\u2028break", " "):
        with pytest.raises(DeskError):
            account_store.check_display_name(name)
    assert account_store.check_display_name(" Cuthbert ") == "Cuthbert"
