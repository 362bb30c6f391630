"""The naval ministers' store moves of a case's turn (rule 3.5,
docs/formats/cases.md ``[[turn]] stores``)."""

from __future__ import annotations

from pate.core.orders.model import StoresMove
from pate.core.world.fields import Table
from pate.core.world.geography import WorldMap

_MOVE_KEYS = ("state", "origin", "destination", "amount")


def read_moves(t: Table, world_map: WorldMap) -> list[StoresMove]:
    """``stores = [{ state, origin, destination, amount }]``: the naval
    ministers' store moves of the turn (rule 3.5), checked by the order desk
    like ships' orders (a refusal names ``store_move = i``)."""
    out: list[StoresMove] = []
    for _, m in t.array_of_tables("stores"):
        m.check_keys(_MOVE_KEYS)
        state, origin, dest = m.str_("state"), m.str_("origin"), m.str_("destination")
        amount = m.int_("amount", lo=0, hi=999_999_999)
        for key, port in (("origin", origin), ("destination", dest)):
            if port is not None and port not in world_map.ports:
                m.problems.add(m.where(key), f"no port named {port!r}")
        if state and origin and dest and amount is not None:
            out.append(StoresMove(state, origin, dest, amount))
    return out
