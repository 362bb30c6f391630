"""The reference land service's own tables (its own MetaData, never in PATE's
Alembic schema): created with ``create_all`` on start-up."""

from __future__ import annotations

from sqlalchemy import Boolean, Column, Integer, MetaData, String, Table, Text

metadata = MetaData()

campaigns = Table(
    "gitm_campaigns",
    metadata,
    Column("campaign", String(128), primary_key=True),
    Column("seeded_from", String(128), nullable=False),
)

# Where each unit is: in a city (tactical square or only its strategic
# square), aboard a transport, or gone (fate lost/captured).  reserved_by:
# the open (BEGUN) transfer that will move it.
units = Table(
    "gitm_units",
    metadata,
    Column("campaign", String(128), primary_key=True),
    Column("id", String(64), primary_key=True),
    Column("state", String(8), nullable=False),
    Column("infantry", Integer, nullable=False, default=0),
    Column("cavalry", Integer, nullable=False, default=0),
    Column("artillery", Integer, nullable=False, default=0),
    Column("batteries", Integer, nullable=False, default=0),
    Column("headquarters", String(8), nullable=False, default="none"),
    Column("hq_supplies", Integer, nullable=False, default=0),
    Column("city", String(64), nullable=False, default=""),
    Column("tactical", Boolean, nullable=False, default=True),
    Column("transport", String(64), nullable=False, default=""),
    Column("fate", String(16), nullable=False, default=""),
    Column("captor", String(8), nullable=False, default=""),
    Column("reserved_by", String(256), nullable=False, default=""),
)

# Who holds each city (edition 3): from OpenCampaign, changed by the land game.
holders = Table(
    "gitm_holders",
    metadata,
    Column("campaign", String(128), primary_key=True),
    Column("city", String(64), primary_key=True),
    Column("state", String(8), nullable=False),
)

# Supplies by place: kind "city" or "transport"; reserved by open transfers.
stocks = Table(
    "gitm_stocks",
    metadata,
    Column("campaign", String(128), primary_key=True),
    Column("kind", String(16), primary_key=True),
    Column("place", String(64), primary_key=True),
    Column("supplies", Integer, nullable=False, default=0),
    Column("reserved", Integer, nullable=False, default=0),
)

losses_total = Table(
    "gitm_supplies_lost",
    metadata,
    Column("campaign", String(128), primary_key=True),
    Column("supplies", Integer, nullable=False, default=0),
)

transfers = Table(
    "gitm_transfers",
    metadata,
    Column("transfer_id", String(256), primary_key=True),
    Column("campaign", String(128), nullable=False),
    Column("request_sha", String(64), nullable=False),
    Column("request_json", Text, nullable=False),
    Column("state", String(16), nullable=False),  # begun | completed | cancelled | refused
    Column("reason", Text, nullable=False, default=""),
    Column("refusals_json", Text, nullable=False, default="[]"),
)

sighting_reports = Table(
    "gitm_sighting_reports",
    metadata,
    Column("report_id", String(256), primary_key=True),
    Column("campaign", String(128), nullable=False),
    Column("turn", Integer, nullable=False),
    Column("sightings", Integer, nullable=False),
    Column("body_json", Text, nullable=False),
)

cargo_losses = Table(
    "gitm_cargo_losses",
    metadata,
    Column("loss_id", String(256), primary_key=True),
    Column("campaign", String(128), nullable=False),
    Column("answer_json", Text, nullable=False),
)

# ReportCargoMoves answers by move_id (rule 2.5 divides and combines)
cargo_moves = Table(
    "gitm_cargo_moves",
    metadata,
    Column("move_id", String(256), primary_key=True),
    Column("campaign", String(128), nullable=False),
    Column("answer_json", Text, nullable=False),
)

# The digest of each id-carrying request first received (loss, moves, sightings,
# open): a repeat with other content is ALREADY_EXISTS (docs/gitm.md, L12).
request_shas = Table(
    "gitm_request_shas",
    metadata,
    Column("kind", String(32), primary_key=True),
    Column("id", String(256), primary_key=True),
    Column("sha", String(64), nullable=False),
)

# Campaigns PATE closed (CloseCampaign): later calls naming them are refused.
closed_campaigns = Table(
    "gitm_closed_campaigns",
    metadata,
    Column("campaign", String(128), primary_key=True),
    Column("last_turn", Integer, nullable=False),
    Column("cancelled", Integer, nullable=False),
)

# What GITM's own rules did to units, cities and stocks PATE relies on (edition 4,
# ListLandEvents), numbered from 1 per campaign; a sequence is never reused.
land_events = Table(
    "gitm_land_events",
    metadata,
    Column("campaign", String(128), primary_key=True),
    Column("sequence", Integer, primary_key=True),
    Column("kind", Integer, nullable=False),
    Column("unit", String(64), nullable=False, default=""),
    Column("transfer_id", String(256), nullable=False, default=""),
    Column("city", String(64), nullable=False, default=""),
    Column("captor", String(8), nullable=False, default=""),
    Column("supplies", Integer, nullable=False, default=0),
    Column("land_turn", Integer, nullable=False, default=0),
    Column("reason", Text, nullable=False, default=""),
)

# Holds UnitsNear gave at a close (edition 4, docs/gitm.md "Holds"): what the answer reported,
# kept from GITM's own rules until a BeginTransfer naming the hold, ReleaseHold or the expiry.
holds = Table(
    "gitm_holds",
    metadata,
    Column("hold_id", String(64), primary_key=True),
    Column("campaign", String(128), nullable=False),
    Column("turn", Integer, nullable=False),
    Column("request_id", String(256), nullable=False),
    Column("port", String(64), nullable=False),
    Column("units_json", Text, nullable=False, default="[]"),
    Column("expires_at", Integer, nullable=False),
    Column("state", String(16), nullable=False),  # held | confirmed | released
)

# When each campaign was last named by a call (seconds since 1970): test campaigns
# (conformance-, simulated-) are deleted 30 days after it (docs/gitm.md A19, pruning.py)
campaign_calls = Table(
    "gitm_campaign_calls",
    metadata,
    Column("campaign", String(256), primary_key=True),
    Column("last_call_at", Integer, nullable=False),
)
