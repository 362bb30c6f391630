"""Sessions over gRPC: log in once, then the token, bound
to its campaign and player, carries OrderDesk and Reports calls."""

from __future__ import annotations

import uuid

import grpc
import pytest

from pate.v1 import admin_pb2, common_pb2, orders_pb2, reports_pb2, sessions_pb2
from tests.e2e.flow import Client, bearer

pytestmark = pytest.mark.integration

ONE, OTHER = "sessions-one", "sessions-two"


@pytest.fixture(scope="module")
def client(desk_cluster: tuple[Client, str]) -> Client:
    c, _ = desk_cluster
    c.create(ONE, passwords={"cornwallis": "cornwallis-secret"})
    c.create(OTHER)
    c.wait_open(ONE, 1)
    c.wait_open(OTHER, 1)
    return c


def submit(client: Client, md: tuple[tuple[str, str], ...], ship: str = "BR1FR", campaign: str = ONE) -> int:
    req = orders_pb2.SubmitOrdersRequest(
        campaign_id=campaign,
        turn=1,
        client_request_id=uuid.uuid4().hex,
        orders=[common_pb2.ShipOrder(ship_id=ship, combat=common_pb2.Combat(stance="engage"))],
    )
    return int(client.desk.SubmitOrders(req, metadata=md, timeout=30).accepted)


def code_of(call: object) -> grpc.StatusCode:
    with pytest.raises(grpc.RpcError) as err:
        call()  # type: ignore[operator]
    return err.value.code()  # type: ignore[no-any-return]


def test_create_returns_the_generated_passwords_once_and_keeps_the_given_ones(client: Client) -> None:
    c = client.admin.CreateCampaign(
        admin_pb2.CreateCampaignRequest(
            id="sessions-created", scenario="training", passwords={"barham": "x" * 12}
        ),
        metadata=client.admin_md,
        timeout=60,
    )
    generated = {login.player_id: login.password for login in c.logins}
    assert "barham" not in generated and {"cornwallis", "admin", "decres"} <= set(generated)
    assert all(len(p) >= 16 for p in generated.values())
    assert len(set(generated.values())) == len(generated)
    shown = client.admin.GetCampaign(
        admin_pb2.GetCampaignRequest(campaign_id="sessions-created"), metadata=client.admin_md, timeout=10
    )
    assert not shown.logins  # never again


def test_a_campaign_shows_the_rule_set_it_was_created_with(client: Client) -> None:
    """GetCampaign and ListCampaigns say which combat rules each campaign plays."""
    for cid, asked in (("rules-eia", "eia-advanced"), ("rules-default", "")):
        created = client.admin.CreateCampaign(
            admin_pb2.CreateCampaignRequest(id=cid, scenario="training", combat_rules=asked),
            metadata=client.admin_md,
            timeout=60,
        )
        assert created.combat_rules == (asked or "pate")
    shown = {
        cid: client.admin.GetCampaign(
            admin_pb2.GetCampaignRequest(campaign_id=cid), metadata=client.admin_md, timeout=10
        ).combat_rules
        for cid in ("rules-eia", "rules-default")
    }
    assert shown == {"rules-eia": "eia-advanced", "rules-default": "pate"}
    listed = client.admin.ListCampaigns(
        admin_pb2.ListCampaignsRequest(), metadata=client.admin_md, timeout=10
    )
    assert {c.id: c.combat_rules for c in listed.campaigns if c.id in shown} == shown


def test_create_refuses_bad_initial_passwords(client: Client) -> None:
    for passwords, field in (
        ({"nobody": "long enough"}, "passwords"),
        ({"barham": "short"}, "passwords[barham]"),
    ):
        req = admin_pb2.CreateCampaignRequest(id="sessions-bad", scenario="training", passwords=passwords)
        with pytest.raises(grpc.RpcError) as err:
            client.admin.CreateCampaign(req, metadata=client.admin_md, timeout=30)
        assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert (err.value.details() or "").startswith(field)


def test_the_shipped_grand_campaign_can_be_created(client: Client) -> None:
    c = client.create("sessions-grand", scenario="grand1805")
    assert c.turn == 1 and len(c.logins) >= 20


def test_login_gives_a_token_that_carries_orders_and_reports(client: Client) -> None:
    reply = client.login_reply(ONE, "cornwallis")
    assert len(reply.token) >= 43  # 256 random bits, URL-safe
    assert (reply.campaign_id, reply.player_id, reply.state, list(reply.roles)) == (
        ONE,
        "cornwallis",
        "BR",
        ["commander"],
    )
    assert reply.expires_at.seconds > 0
    assert submit(client, bearer(reply.token)) == 1
    req = reports_pb2.ListReportsRequest(campaign_id=ONE)
    assert client.reports.ListReports(req, metadata=bearer(reply.token), timeout=30).reports
    who = client.sessions.WhoAmI(sessions_pb2.WhoAmIRequest(), metadata=bearer(reply.token), timeout=10)
    assert (who.player_id, who.token) == ("cornwallis", "")


def test_wrong_password_or_unknown_player_is_unauthenticated_and_unknown_campaign_not_found(
    client: Client,
) -> None:
    assert code_of(lambda: client.login_reply(ONE, "cornwallis", password="wrong-guess")) == (
        grpc.StatusCode.UNAUTHENTICATED
    )
    assert code_of(lambda: client.login_reply(ONE, "nobody", password="whatever1")) == (
        grpc.StatusCode.UNAUTHENTICATED
    )
    assert code_of(lambda: client.login_reply("no-such", "cornwallis", password="whatever1")) == (
        grpc.StatusCode.NOT_FOUND
    )


@pytest.mark.parametrize(
    "md",
    [
        (("authorization", "Bearer " + "A" * 43),),
        (("authorization", "Bearer "),),
        (("authorization", "Basic Y29ybndhbGxpczp4"),),
        (("authorization", "Bearer " + "%$!;~" * 400),),
        (),
    ],
    ids=["unknown", "empty", "not-bearer", "garbled", "none"],
)
def test_a_wrong_or_garbled_token_is_unauthenticated(client: Client, md: tuple[tuple[str, str], ...]) -> None:
    assert code_of(lambda: submit(client, md)) == grpc.StatusCode.UNAUTHENTICATED
    req = reports_pb2.GetReportRequest(campaign_id=ONE, turn=0)
    assert code_of(lambda: client.reports.GetReport(req, metadata=md, timeout=10)) == (
        grpc.StatusCode.UNAUTHENTICATED
    )


def test_a_token_of_one_campaign_is_refused_in_another(client: Client) -> None:
    token = client.token(ONE, "cornwallis")
    assert code_of(lambda: submit(client, bearer(token), campaign=OTHER)) == grpc.StatusCode.UNAUTHENTICATED
    req = reports_pb2.GetReportRequest(campaign_id=OTHER, turn=0)
    assert code_of(lambda: client.reports.GetReport(req, metadata=bearer(token), timeout=10)) == (
        grpc.StatusCode.UNAUTHENTICATED
    )


def test_a_token_of_one_player_cannot_act_for_another(client: Client) -> None:
    token = client.token(ONE, "cornwallis")
    # Ganteaume's flagship is not Cornwallis's to order...
    assert code_of(lambda: submit(client, bearer(token), ship="FR1FL")) == grpc.StatusCode.PERMISSION_DENIED
    # ...claiming to be Ganteaume with Cornwallis's token does not work...
    md = (*bearer(token), ("x-pate-player", "ganteaume"))
    assert code_of(lambda: submit(client, md, ship="FR1FL")) == grpc.StatusCode.UNAUTHENTICATED
    # ...and neither are his reports to read.
    req = reports_pb2.GetReportRequest(campaign_id=ONE, turn=0, player_id="ganteaume")
    assert code_of(lambda: client.reports.GetReport(req, metadata=bearer(token), timeout=10)) == (
        grpc.StatusCode.PERMISSION_DENIED
    )


def test_logout_revokes_the_token_on_both_services(client: Client) -> None:
    token = client.login_reply(ONE, "cornwallis").token
    other = client.login_reply(ONE, "cornwallis").token
    assert submit(client, bearer(token)) == 1
    out = client.sessions.Logout(sessions_pb2.LogoutRequest(), metadata=bearer(token), timeout=10)
    assert out.revoked == 1
    assert code_of(lambda: submit(client, bearer(token))) == grpc.StatusCode.UNAUTHENTICATED
    req = reports_pb2.ListReportsRequest(campaign_id=ONE)
    assert code_of(lambda: client.reports.ListReports(req, metadata=bearer(token), timeout=10)) == (
        grpc.StatusCode.UNAUTHENTICATED
    )
    assert submit(client, bearer(other)) == 1  # another session of the same player lives on
    everywhere = client.sessions.Logout(
        sessions_pb2.LogoutRequest(all=True), metadata=bearer(other), timeout=10
    )
    assert everywhere.revoked >= 1
    assert code_of(lambda: submit(client, bearer(other))) == grpc.StatusCode.UNAUTHENTICATED


def test_the_administrator_revokes_a_players_sessions_and_a_new_password_ends_them(client: Client) -> None:
    token = client.login_reply(ONE, "cornwallis").token
    revoke = sessions_pb2.RevokeSessionsRequest(campaign_id=ONE, player_id="cornwallis")
    assert code_of(lambda: client.sessions.RevokeSessions(revoke, metadata=bearer(token), timeout=10)) == (
        grpc.StatusCode.PERMISSION_DENIED
    )
    assert submit(client, bearer(token)) == 1  # the order desk now holds the session in memory (2 s)
    assert client.sessions.RevokeSessions(revoke, metadata=client.admin_md, timeout=10).revoked >= 1
    assert code_of(lambda: submit(client, bearer(token))) == grpc.StatusCode.UNAUTHENTICATED

    token = client.login_reply(ONE, "cornwallis").token
    assert submit(client, bearer(token)) == 1
    client.admin.SetPlayerPassword(
        admin_pb2.SetPlayerPasswordRequest(
            campaign_id=ONE, player_id="cornwallis", password="a-new-password"
        ),
        metadata=client.admin_md,
        timeout=30,
    )
    assert code_of(lambda: submit(client, bearer(token))) == grpc.StatusCode.UNAUTHENTICATED
    client.passwords[ONE, "cornwallis"] = "a-new-password"
    assert submit(client, bearer(client.login_reply(ONE, "cornwallis").token)) == 1


def test_the_logs_never_contain_a_password_or_a_token(client: Client) -> None:
    """docs/security.md: passwords, tokens and the admin token are never logged."""
    token = client.login_reply(ONE, "cornwallis").token
    secret_guess = "a-guess-that-must-not-be-logged"
    with pytest.raises(grpc.RpcError):
        client.login_reply(ONE, "cornwallis", password=secret_guess)
    assert submit(client, bearer(token)) == 1
    client.sessions.Logout(sessions_pb2.LogoutRequest(), metadata=bearer(token), timeout=10)
    with pytest.raises(grpc.RpcError):
        submit(client, bearer(token))
    logs = "".join(p.read_text(errors="replace") for p in (client.cluster.workdir / "logs").glob("*.log"))
    assert "Sessions/Login" in logs  # the calls were logged...
    secrets = [token, secret_guess, client.cluster.admin_token, *client.passwords.values()]
    leaked = [s for s in secrets if s in logs]
    assert not leaked  # ...without any secret


@pytest.mark.parametrize(
    ("campaign", "player", "password", "field"),
    [
        ("nul\x00", "cornwallis", "whatever1", "campaign_id"),
        (ONE, "x" * 3_000_000, "whatever1", "player_id"),
        (ONE, "corn\nwallis", "whatever1", "player_id"),
        (ONE, "cornwallis", "p" * 2000, "password"),
    ],
    ids=["nul", "huge", "newline", "long-password"],
)
def test_hostile_login_fields_are_invalid_argument_naming_the_field(
    client: Client, campaign: str, player: str, password: str, field: str
) -> None:
    req = sessions_pb2.LoginRequest(campaign_id=campaign, player_id=player, password=password)
    with pytest.raises(grpc.RpcError) as err:
        client.sessions.Login(req, timeout=30)
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    details = err.value.details() or ""
    assert details.startswith(field) and len(details) < 200
