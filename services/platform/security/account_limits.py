"""The field limits of the accounts' services: Accounts, the lobby, API tokens and the
public archive (docs/accounts.md, docs/lobby.md, docs/api.md), part of limits.RULES."""

from __future__ import annotations

from services.platform.security.field_rules import Many, Number, Text
from services.platform.security.field_shapes import (
    API_TOKEN_ID,
    ASK_ID,
    CAMPAIGN_ID,
    CAMPAIGN_RULE,
    EMAIL,
    EMAIL_RULE,
    GIVEN_PASSWORD_RULE,
    LINK_RULE,
    MAX_TURN_SECONDS,
    NEW_PASSWORD_RULE,
    PAGE_TOKEN,
    RULE_SET,
    SCENARIO_NAME,
    SEAT_RULE,
    SESSION_ID,
    SOLO_SCENARIO,
    TIME_ZONE,
    WORD_RULE,
    Rule,
)

ACCOUNT_RULES: dict[str, Rule] = {
    # pate.v1.Accounts (docs/accounts.md; services/platform/security/account_store.py checks more)
    "pate.v1.SignUpRequest.display_name": Text(100, required=True),
    "pate.v1.SignUpRequest.email": EMAIL_RULE,
    "pate.v1.SignUpRequest.password": NEW_PASSWORD_RULE,
    "pate.v1.SignUpRequest.time_zone": Text(64, TIME_ZONE, what="an IANA time zone name"),
    "pate.v1.VerifyRequest.token": LINK_RULE,
    "pate.v1.AccountLoginRequest.email": EMAIL_RULE,
    "pate.v1.AccountLoginRequest.password": GIVEN_PASSWORD_RULE,
    "pate.v1.ClaimSeatRequest.campaign_id": CAMPAIGN_RULE,
    "pate.v1.ClaimSeatRequest.player_id": SEAT_RULE,
    "pate.v1.ClaimSeatRequest.password": GIVEN_PASSWORD_RULE,
    "pate.v1.OpenSeatRequest.campaign_id": CAMPAIGN_RULE,
    "pate.v1.OpenSeatRequest.player_id": SEAT_RULE,
    "pate.v1.RevokeAccountSessionsRequest.session_id": Text(
        16, SESSION_ID, what="a session id (16 hex digits)"
    ),
    "pate.v1.RequestResetRequest.email": EMAIL_RULE,
    "pate.v1.ResetPasswordRequest.token": LINK_RULE,
    "pate.v1.ResetPasswordRequest.new_password": NEW_PASSWORD_RULE,
    "pate.v1.ChangePasswordRequest.password": GIVEN_PASSWORD_RULE,
    "pate.v1.ChangePasswordRequest.new_password": NEW_PASSWORD_RULE,
    "pate.v1.DeleteAccountRequest.password": GIVEN_PASSWORD_RULE,
    # pate.v1.Lobby (docs/lobby.md; services/orders/lobby checks the words and the numbers)
    "pate.v1.PublishRequest.campaign_id": CAMPAIGN_RULE,
    "pate.v1.PublishRequest.description": Text(2000, lines=True),
    "pate.v1.PublishRequest.time_zone": Text(64, TIME_ZONE, what="an IANA time zone name"),
    "pate.v1.PublishRequest.seat_policy": WORD_RULE,
    "pate.v1.PublishRequest.min_reliability": Number(0, 100),
    "pate.v1.PublishRequest.start": WORD_RULE,
    "pate.v1.PublishRequest.seats": Many(200),
    "pate.v1.PublishRequest.seats[]": SEAT_RULE,
    "pate.v1.LobbyCampaignRequest.campaign_id": CAMPAIGN_RULE,
    "pate.v1.LobbySeatRequest.campaign_id": CAMPAIGN_RULE,
    "pate.v1.LobbySeatRequest.player_id": SEAT_RULE,
    "pate.v1.BrowseRequest.scenario": Text(64, SCENARIO_NAME, what="a scenario name ([a-z0-9_]{1,64})"),
    "pate.v1.BrowseRequest.combat_rules": Text(64, RULE_SET, what="a rule set's name"),
    "pate.v1.BrowseRequest.naval_rules": Text(64, RULE_SET, what="a rule set's name"),
    "pate.v1.BrowseRequest.max_turn_hours": Number(0, MAX_TURN_SECONDS // 3600),
    "pate.v1.BrowseRequest.page_size": Number(0, 50),
    "pate.v1.BrowseRequest.page_token": Text(5, PAGE_TOKEN, what="a previous page's next_page_token"),
    "pate.v1.DecideRequest.campaign_id": CAMPAIGN_RULE,
    "pate.v1.DecideRequest.ask_id": Text(16, ASK_ID, required=True, what="an ask id (16 hex digits)"),
    "pate.v1.StartSoloRequest.campaign_id": CAMPAIGN_RULE,
    "pate.v1.StartSoloRequest.scenario": Text(40, SOLO_SCENARIO, required=True, what="a shipped scenario"),
    "pate.v1.StartSoloRequest.seat": SEAT_RULE,
    "pate.v1.StartSoloRequest.combat_rules": Text(64, RULE_SET, what="a rule set's name"),
    "pate.v1.StartSoloRequest.naval_rules": Text(64, RULE_SET, what="a rule set's name"),
    # API tokens and account edits (docs/api.md; api_tokens.py and account_edits.py check more)
    "pate.v1.CreateApiTokenRequest.name": Text(64, required=True),
    "pate.v1.CreateApiTokenRequest.read_only": Number(0, 1),
    "pate.v1.CreateApiTokenRequest.all_seats": Number(0, 1),
    "pate.v1.CreateApiTokenRequest.seats": Many(50),
    "pate.v1.CreateApiTokenRequest.expires_in_days": Number(0, 365),
    "pate.v1.ApiTokenSeat.campaign_id": CAMPAIGN_RULE,
    "pate.v1.ApiTokenSeat.player_id": SEAT_RULE,
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
    "pate.v1.GetArchivedRequest.campaign_id": CAMPAIGN_RULE,
}
