"""Named admirals of a scenario (rule 12.2.7 of the optional EiA rules).

``[admirals.<player id>]`` names a commanding player who can be an admiral;
``nelson = true`` makes rule 12.2.7 (Nelson) apply to him.  He is present in a
battle when a ship he commands fights in it (docs/rules/eia.md).
"""

from __future__ import annotations

from collections.abc import Mapping

from pate.core.world.fields import Table
from pate.core.world.state import Admiral, Player

_KEYS = ("nelson", "closing_shift")


def read_admirals(top: Table, players: Mapping[str, Player]) -> dict[str, Admiral]:
    out: dict[str, Admiral] = {}
    for pid, t in top.tables("admirals"):
        t.check_keys(_KEYS)
        player = players.get(pid)
        if player is None or player.state is None:
            t.problems.add(t.path, f"{pid!r} is not a player of a state (an admiral commands ships)")
            continue
        shift = t.int_("closing_shift", lo=1, hi=2) if "closing_shift" in t else None
        out[pid] = Admiral(player=pid, nelson=bool(t.bool_("nelson", False)), closing_shift=shift)
    return dict(sorted(out.items()))
