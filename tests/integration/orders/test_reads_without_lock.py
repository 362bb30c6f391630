"""Read RPCs never take SQLite's write lock.

Another process holds the write lock (BEGIN IMMEDIATE) for the whole test; the
reads still answer while it is held, because they run in deferred transactions.
Before, GetReport and GetEffectiveOrders began with BEGIN IMMEDIATE and would
have waited for the lock (up to the 30 s busy timeout).
"""

from __future__ import annotations

import sqlite3

import pytest

from pate.v1 import orders_pb2, reports_pb2
from tests.e2e.flow import Client

pytestmark = pytest.mark.integration

CAMPAIGN = "reads"


def test_reads_answer_while_another_process_holds_the_write_lock(desk_cluster: tuple[Client, str]) -> None:
    client, url = desk_cluster
    if not url.startswith("sqlite"):
        pytest.skip("the write lock is SQLite's")
    client.create(CAMPAIGN)
    client.wait_open(CAMPAIGN, 1)
    # logged in before the lock is taken: a password check writes the shared throttle's row,
    # a session token is only read (docs/security.md)
    md = client.player_md(CAMPAIGN, "cornwallis")

    holder = sqlite3.connect(url.removeprefix("sqlite:///"), isolation_level=None, timeout=30)
    try:
        holder.execute("BEGIN IMMEDIATE")
        # every read answers before the lock is let go below: a read that needed it would wait
        # for it past its 10 s deadline and fail (no stopwatch: a loaded machine cannot fail it)
        report = client.reports.GetReport(
            reports_pb2.GetReportRequest(campaign_id=CAMPAIGN, turn=0, format="text"), metadata=md, timeout=10
        )
        listed = client.reports.ListReports(
            reports_pb2.ListReportsRequest(campaign_id=CAMPAIGN), metadata=md, timeout=10
        )
        effective = client.desk.GetEffectiveOrders(
            orders_pb2.GetEffectiveOrdersRequest(campaign_id=CAMPAIGN, turn=1), metadata=md, timeout=10
        )
        shown = client.campaign(CAMPAIGN)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert report.body and listed.reports and effective.orders and shown.id == CAMPAIGN
