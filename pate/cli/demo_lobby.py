"""The demo's lobby (docs/lobby.md): a campaign published with open seats, so that a new user
of ``make run`` finds a game in the lobby at once, and a local mailbox, so that the sign-up's
verification link reaches him with no mail server of his own.

The mailbox is a small SMTP server on 127.0.0.1 (aiosmtpd, installed with the development
dependencies) that writes each mail the notifier sends into ``<workdir>/mail`` as an ``.eml``
file; its verification and reset links point at the demo's web desk.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from pate.v1 import admin_pb2, admin_pb2_grpc, lobby_pb2, lobby_pb2_grpc
from services.platform.runtime.cluster import Cluster

LOBBY_CAMPAIGN = "demo-lobby"
TURN_HOURS = 24


class _Mailbox:
    """aiosmtpd's handler: each mail a file, numbered in the order they came."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.count = 0

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802 (aiosmtpd)
        self.count += 1
        to = "_".join(envelope.rcpt_tos)[:80].replace("/", "_")
        (self.folder / f"{self.count:03d}-{to}.eml").write_bytes(envelope.content)
        return "250 OK"


@contextmanager
def mailbox(folder: Path, port: int) -> Iterator[str | None]:
    """``smtp://127.0.0.1:<port>`` while the mailbox runs; None when aiosmtpd is not installed
    (an image built without the development dependencies): mail is then not sent."""
    try:
        from aiosmtpd.controller import Controller
    except ImportError:
        yield None
        return
    folder.mkdir(parents=True, exist_ok=True)
    controller = Controller(_Mailbox(folder), hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield f"smtp://127.0.0.1:{port}?from=desk@pate.localhost"
    finally:
        controller.stop()


def publish_demo_campaign(cluster: Cluster) -> list[str]:
    """A new training campaign, published with every seat of both sides offered, first come,
    starting when full; what a new user reads about it."""
    md = (("x-pate-admin-token", cluster.admin_token),)
    with cluster.channel(cluster.orders_addr) as ch:
        create = admin_pb2.CreateCampaignRequest(
            id=LOBBY_CAMPAIGN, scenario="training", turn_seconds=TURN_HOURS * 3600
        )
        admin_pb2_grpc.CampaignAdminStub(ch).CreateCampaign(create, metadata=md, timeout=60)
        publish = lobby_pb2.PublishRequest(
            campaign_id=LOBBY_CAMPAIGN,
            description=(
                "The training waters, for a first campaign: take any seat; it starts when every "
                f"seat is taken, one turn every {TURN_HOURS} hours."
            ),
            time_zone="UTC",
            seat_policy="first_come",
            start="when_full",
        )
        listing = lobby_pb2_grpc.LobbyStub(ch).Publish(publish, metadata=md, timeout=30)
    return [
        f"the lobby: {LOBBY_CAMPAIGN} is published with {listing.free_seats} open seats, first come",
        f"  sign up at {cluster.web_url}/account, then take a seat at {cluster.web_url}/lobby",
    ]
