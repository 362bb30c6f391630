"""The orders service: order desk and campaign administration over gRPC, the
deadline scheduler, and the opening of each next turn when reports are out."""

from __future__ import annotations

import asyncio
import sys
from datetime import UTC, datetime, timedelta
from functools import partial

from sqlalchemy import Connection, Engine

from pate.messaging import message_limits
from pate.v1 import (
    absence_pb2_grpc,
    accounts_pb2_grpc,
    admin_pb2_grpc,
    bots_pb2_grpc,
    desk_pb2_grpc,
    lobby_pb2_grpc,
    orders_pb2_grpc,
    result_pb2_grpc,
    sessions_pb2_grpc,
)
from services.orders import botwork, campaigns
from services.orders.absence_rpc import AbsencesServicer
from services.orders.accounts_rpc import AccountsServicer, accounts_for
from services.orders.admirals import BotAdmiralsServicer
from services.orders.campaign_admin import CampaignAdminServicer
from services.orders.lobby.rpc import LobbyServicer
from services.orders.login import SessionsServicer
from services.orders.pause import GameMasterServicer
from services.orders.result import CampaignResultsServicer
from services.orders.servicer import OrderDeskServicer, PlayerDeskServicer
from services.platform import bus
from services.platform.bus.outbox import prune_published
from services.platform.config import Settings, load_settings
from services.platform.runtime.rpc import in_transaction
from services.platform.runtime.runner import Service, Stage, run_service
from services.platform.security.auth import Authenticator, authenticator_for

PRUNE_EVERY_SECONDS = 3600.0


def _auth(engine: Engine, settings: Settings) -> Authenticator:
    return authenticator_for(engine, settings.session_ttl_seconds)


def _open_next_turn(conn: Connection, data: bytes, headers: dict[str, str]) -> None:
    campaigns.handle_reports_ready(conn, data, headers, at=datetime.now(UTC))


async def _close_due(engine: Engine) -> None:
    await in_transaction(engine, partial(campaigns.close_due_turns, at=datetime.now(UTC)))


async def _prune_outbox(engine: Engine) -> None:
    retention = timedelta(hours=load_settings().outbox_retention_hours)
    await asyncio.to_thread(prune_published, engine, retention)


SERVICE = Service(
    name="orders",
    # a turn opened (TurnOpened queued) wakes the bot admiral's long poll (services/orders/botwork.py)
    stages=(Stage("orders-turns", bus.REPORTS_READY, _open_next_turn, after_commit=botwork.BELL.ring),),
    grpc=(
        (
            admin_pb2_grpc.add_CampaignAdminServicer_to_server,
            lambda e, s: CampaignAdminServicer(e, s.admin_token, _auth(e, s), s.admiral_token),
        ),
        (
            orders_pb2_grpc.add_OrderDeskServicer_to_server,
            lambda e, s: OrderDeskServicer(e, _auth(e, s), s.trusted_proxies),
        ),
        (
            desk_pb2_grpc.add_GameMasterServicer_to_server,
            lambda e, s: GameMasterServicer(e, s.admin_token, _auth(e, s)),
        ),
        (
            bots_pb2_grpc.add_BotAdmiralsServicer_to_server,
            lambda e, s: BotAdmiralsServicer(
                e, s.admin_token, s.session_ttl_seconds, admiral_token=s.admiral_token, auth=_auth(e, s)
            ),
        ),
        (
            desk_pb2_grpc.add_PlayerDeskServicer_to_server,
            lambda e, s: PlayerDeskServicer(e, _auth(e, s), s.trusted_proxies),
        ),
        (
            sessions_pb2_grpc.add_SessionsServicer_to_server,
            lambda e, s: SessionsServicer(_auth(e, s), s.admin_token, s.trusted_proxies),
        ),
        (
            result_pb2_grpc.add_CampaignResultsServicer_to_server,
            lambda e, s: CampaignResultsServicer(e, _auth(e, s), s.admin_token, s.trusted_proxies),
        ),
        (
            accounts_pb2_grpc.add_AccountsServicer_to_server,
            lambda e, s: AccountsServicer(
                accounts_for(e, s.session_ttl_seconds, s.account_link_base), _auth(e, s), s.trusted_proxies
            ),
        ),
        (
            lobby_pb2_grpc.add_LobbyServicer_to_server,
            lambda e, s: LobbyServicer(
                e,
                s.admin_token,
                accounts_for(e, s.session_ttl_seconds, s.account_link_base),
                _auth(e, s),
                s.trusted_proxies,
            ),
        ),
        (
            absence_pb2_grpc.add_AbsencesServicer_to_server,
            lambda e, s: AbsencesServicer(e, _auth(e, s), s.admin_token, s.trusted_proxies),
        ),
    ),
    grpc_addr=lambda s: s.orders_addr,
    periodic=(
        (lambda s: s.deadline_poll_seconds, _close_due),
        (lambda s: PRUNE_EVERY_SECONDS, _prune_outbox),  # published rows past their retention
    ),
)


def main() -> int:
    message_limits()  # a bad data/messages.toml stops the service here, naming the key
    return asyncio.run(run_service(SERVICE))


if __name__ == "__main__":
    sys.exit(main())
