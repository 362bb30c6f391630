"""The rule book's words for the repair and supply phases: repairs, stores
taken aboard or returned ashore, and starving crews (rules 3.3, 3.4).
"""

from __future__ import annotations

from pate.reports.phrases import Phrase
from pate.reports.telling import Telling
from pate.reports.words import stores_text


# -- repair and supply (rules 3.3, 3.4) --------------------------------------
def _change(t: Telling, key: str) -> str:
    value = t.get(key)
    if isinstance(value, list | tuple) and len(value) == 2 and value[0] != value[1]:
        return f"{key} damage {value[0]} → {value[1]}"
    return ""


def repaired(t: Telling) -> str:
    changes = ", ".join(x for x in (_change(t, "hull"), _change(t, "rigging")) if x)
    detail = f": {changes}" if changes else ""
    if t.get("yard"):
        return f"{t.subject} {t.was} repaired in the dockyard {t.at()}{detail} (rule 3.3)"
    return f"The crew of {t.subject} repaired {t.their} rigging {t.at()}{detail} (rule 3.3)"


def loaded_stores(t: Telling) -> str:
    return f"{t.subject} took aboard {stores_text(t.number('stores'))} {t.at()} (rule 3.4)"


def unloaded_stores(t: Telling) -> str:
    n = stores_text(t.number("stores"))
    return f"{t.subject} returned {n} ashore {t.at()}, keeping what the orders ask for (rule 3.4)"


def not_reprovisioned(t: Telling) -> str:
    places = t.number("places")
    if t.get("reason") == "no_stores":
        why = "the port city had no stores left"
    elif places <= 0:
        why = "the port has no yard to reprovision ships"
    else:
        ships = "ship" if places == 1 else "ships"
        why = f"its yard reprovisions {places} {ships} a turn, and every place was taken"
    return f"{t.subject} could take no stores aboard {t.at()}: {why} (rule 3.4)"


def starving(t: Telling) -> str:
    crew = f", the crew is down to {t.number('crew')}" if "crew" in t.data else ""
    return (
        f"{t.subject} ran out of stores{crew}; {t.they} no longer answer{'s' if t.single else ''}"
        f" orders and sail{'s' if t.single else ''} for the nearest friendly harbor (rule 3.4)"
    )


PHRASES: dict[str, Phrase] = {
    "repaired": repaired,
    "loaded_stores": loaded_stores,
    "unloaded_stores": unloaded_stores,
    "not_reprovisioned": not_reprovisioned,
    "starving": starving,
}
