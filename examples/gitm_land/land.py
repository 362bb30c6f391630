"""What every call shares: the store, the map's cities, and the campaign's standing."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from google.protobuf.message import Message

from examples.gitm_land.errors import closed, not_found
from examples.gitm_land.store import Store
from gitm.v1 import land_pb2 as pb

LOAD = pb.DIRECTION_LOAD
UNLOAD = pb.DIRECTION_UNLOAD
BEGUN = pb.TRANSFER_STATE_BEGUN


@dataclass
class Land:
    store: Store
    cities: frozenset[str]

    def live_campaign(self, cid: str) -> None:
        """New work needs an opened campaign that is not closed (L22)."""
        row = self.store.campaign(cid)
        if row is None:
            raise not_found(f"campaign_id: campaign {cid!r} was never opened")
        if row[2] is not None:
            raise closed(cid)

    def opened_campaign(self, cid: str) -> None:
        """A question needs only an opened campaign, closed or not."""
        if self.store.campaign(cid) is None:
            raise not_found(f"campaign_id: campaign {cid!r} was never opened")

    def reserved_units(self, cid: str) -> dict[str, str]:
        """Unit id to the open transfer that holds it (L5, L8)."""
        held: dict[str, str] = {}
        for t in self.store.open_transfers(cid):
            for uid in t.units:
                held[uid] = t.id
        return held

    def reserved_city_supplies(self, cid: str, city: str) -> int:
        return sum(
            t.supplies for t in self.store.open_transfers(cid) if t.direction == LOAD and t.port == city
        )

    def reserved_aboard_supplies(self, cid: str, transport: str) -> int:
        return sum(
            t.supplies
            for t in self.store.open_transfers(cid)
            if t.direction == UNLOAD and t.transport == transport
        )


def digest(message: Message) -> str:
    """The content of a request, for "the same id with other content" (L12)."""
    return hashlib.sha256(message.SerializeToString(deterministic=True)).hexdigest()
