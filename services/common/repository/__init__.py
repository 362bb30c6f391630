"""Reading and writing campaigns, world states, orders, events and reports.

Every function takes a SQLAlchemy connection inside the caller's transaction,
so that a stage's work, its outbox row and its processed-message record commit
together or not at all.  World states and events are stored as the core's
canonical JSON, so a replayed turn can be compared byte for byte.
"""

from services.common.repository.base import now, sha256
from services.common.repository.campaigns import (
    STATUSES,
    CampaignRow,
    audit,
    due_campaigns,
    get_campaign,
    get_player,
    insert_campaign,
    insert_players,
    list_campaigns,
    set_password,
    set_status,
)
from services.common.repository.orders import (
    add_order,
    add_stores_moves,
    find_request,
    next_order_seq,
    save_request,
    stores_moves,
    submitted_orders,
)
from services.common.repository.turns import (
    events_json,
    list_reports,
    load_events,
    load_knowledge,
    load_report,
    load_resolution,
    load_world,
    load_world_cached,
    load_world_json,
    save_events,
    save_knowledge,
    save_report,
    save_resolution,
    save_world,
    world_exists,
    world_from_json,
)

__all__ = [
    "STATUSES",
    "CampaignRow",
    "add_order",
    "add_stores_moves",
    "audit",
    "due_campaigns",
    "events_json",
    "find_request",
    "get_campaign",
    "get_player",
    "insert_campaign",
    "insert_players",
    "list_campaigns",
    "list_reports",
    "load_events",
    "load_knowledge",
    "load_report",
    "load_resolution",
    "load_world",
    "load_world_cached",
    "load_world_json",
    "next_order_seq",
    "now",
    "save_events",
    "save_knowledge",
    "save_report",
    "save_request",
    "save_resolution",
    "save_world",
    "set_password",
    "set_status",
    "sha256",
    "stores_moves",
    "submitted_orders",
    "world_exists",
    "world_from_json",
]
