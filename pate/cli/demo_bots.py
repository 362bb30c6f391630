"""The demo's second turn: the French side played by the bot admiral
(docs/bots.md).  The game master hands every French player to the bot; the
admiral service, a client of the platform like a human, reads their reports
of turn 1 and sends their orders; the turn is closed once it has played
them all, and the French reports of turn 2 are fetched."""

from __future__ import annotations

import time

from pate.v1 import admin_pb2, admin_pb2_grpc, bots_pb2, bots_pb2_grpc
from services.platform.runtime.cluster import Cluster

BOT_SIDE = ("allemand", "decres", "ganteaume")  # the French players of the training scenario


def play_bot_turn(cluster: Cluster, campaign: str, turn: int = 2, timeout: float = 120) -> list[str]:
    from pate.cli.demo_turn import wait_for_turn

    md = (("x-pate-admin-token", cluster.admin_token),)
    with cluster.channel(cluster.orders_addr) as och:
        bots = bots_pb2_grpc.BotAdmiralsStub(och)
        admin = admin_pb2_grpc.CampaignAdminStub(och)
        for player in BOT_SIDE:
            bots.HandToBot(bots_pb2.BotSeatRequest(campaign_id=campaign, player_id=player), metadata=md)
        deadline = time.monotonic() + timeout
        while True:
            seats = bots.GetBotSeats(bots_pb2.GetBotSeatsRequest(campaign_id=campaign), metadata=md)
            played = {t.player_id for t in seats.bot_turns if t.turn == turn}
            if played >= set(BOT_SIDE):
                break
            if time.monotonic() > deadline:
                raise TimeoutError(f"the bot admiral did not play {sorted(set(BOT_SIDE) - played)}")
            time.sleep(0.3)
        admin.CloseTurn(admin_pb2.CloseTurnRequest(campaign_id=campaign, turn=turn), metadata=md)
        wait_for_turn(admin, md, campaign, turn + 1)
    return [
        f"turn {turn}: the French side ({', '.join(BOT_SIDE)}) played by the bot admiral, "
        f"closed, resolved and reported"
    ]
