"""Test campaigns deleted a while after their last call (docs/gitm.md A19): the kit's
``conformance-<8 hex>`` and ``pate campaign simulate``'s ``simulated-<8 hex>`` campaigns, 30
days after the last call that named them, at every start of the service (``main.py``) and on
demand.  Every other campaign is kept, whatever its age: PATE's next turn may come at any time."""

from __future__ import annotations

from sqlalchemy import Connection, delete, insert, or_, select, update

from services.gitm_reference import tables as t
from services.gitm_reference.checks import OPAQUE_ID
from services.gitm_reference.ledger import Ledger

TEST_PREFIXES = ("conformance-", "simulated-")
KEEP_SECONDS = 30 * 24 * 3600


class Pruning:
    def __init__(self, ledger: Ledger) -> None:
        self.ledger = ledger

    def touch(self, campaign: str) -> None:
        """Note a call naming ``campaign`` now (only a well-formed id: a bad one is refused anyway)."""
        if not campaign.startswith(TEST_PREFIXES) or not OPAQUE_ID.fullmatch(campaign):
            return
        now = int(self.ledger.clock())

        def write(conn: Connection) -> None:
            c = t.campaign_calls.c
            if conn.execute(
                update(t.campaign_calls).where(c.campaign == campaign).values(last_call_at=now)
            ).rowcount:
                return
            conn.execute(insert(t.campaign_calls).values(campaign=campaign, last_call_at=now))

        self.ledger.tx(write)

    def prune(self) -> list[str]:
        """Delete every test campaign whose last call is more than KEEP_SECONDS old; their ids."""
        cutoff = int(self.ledger.clock()) - KEEP_SECONDS

        def sweep(conn: Connection) -> list[str]:
            c = t.campaign_calls.c
            old = [str(r.campaign) for r in conn.execute(select(c.campaign).where(c.last_call_at < cutoff))]
            for campaign in old:
                _delete(conn, campaign)
            return old

        return self.ledger.tx(sweep)  # type: ignore[no-any-return]


def _delete(conn: Connection, campaign: str) -> None:
    """Every row of the campaign: its land, its answers by id, its own record."""
    for table in t.metadata.sorted_tables:
        if "campaign" in table.c:
            conn.execute(delete(table).where(table.c.campaign == campaign))
    r = t.request_shas.c
    conn.execute(
        delete(t.request_shas).where(or_(r.id == campaign, r.id.startswith(f"{campaign}:", autoescape=True)))
    )
