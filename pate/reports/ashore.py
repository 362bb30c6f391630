"""The rule book's words for what happens in port and on the ledgers: the
administrative orders (rules 2.5-2.7, 4.10), loading and unloading (3.6,
3.9), stores moved between ports (3.5), running out of stores (3.4), and
the fights for ports and their laid-up ships (2.6, the lost section 10).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from pate.reports.phrases import Phrase
from pate.reports.telling import Telling
from pate.reports.words import and_list, stores_text, supplies_text, the_peoples

ADMIN_ORDERS = {
    "inactivate": "lay up",
    "reactivate": "recommission",
    "transfer_crew": "transfer crew",
    "divide": "divide",
    "combine": "combine",
    "scuttle": "scuttle",
}


def _first(t: Telling) -> str:
    """The ship an order was given to (the others named are its partners)."""
    return t.ships_phrase(t.ships[:1]) if t.ships else "our ships"


def _reasons(items: Iterable[Any], key: str = "message") -> str:
    texts = []
    for r in items:
        if isinstance(r, Mapping):
            text = str(r.get(key, ""))
            rule = f" (rule {r['rule']})" if r.get("rule") else ""
            item = f"{r['item']}: " if r.get("item") else ""
            texts.append(f"{item}{text}{rule}")
    return "; ".join(x for x in texts if x)


# -- administrative orders (2.5-2.7, 4.10) -----------------------------------
def admin_refused(t: Telling) -> str:
    order = t.text("order", "")
    what = ADMIN_ORDERS.get(order, order.replace("_", " ")) or "act on"
    why = _reasons(t.get("reasons", ()))
    return f"The order to {what} {_first(t)} was not carried out" + (f": {why}" if why else "")


def crew_transferred(t: Telling) -> str:
    to = t.ships_phrase([str(t.get("to"))]) if t.get("to") else "another ship"
    return f"{_first(t)} transferred {t.number('crew')} crew to {to} (rule 2.7)"


def scuttled(t: Telling) -> str:
    lost = [str(u) for u in t.get("units", ())]
    if t.number("supplies"):
        lost.append(f"{t.number('supplies')} supplies")
    gone = f"; lost with {t.them}: {and_list(lost)}" if lost else ""
    return f"{t.subject} {t.was} scuttled {t.at()}{_scuttled_crew(t)}{gone} (rule 4.10)"


def _scuttled_crew(t: Telling) -> str:
    """Where the crew and Marines went (4.10: back to the manpower pool at the
    end of the season): aboard the friend that stays at sea, else ashore."""
    if "crew" in t.data:  # the owner's report: the numbers
        men = [f"{t.number('crew')} crew"]
        if t.number("marines"):
            men.append(f"{t.number('marines')} Marines")
        whose = "her" if t.single else "each ship's"
        people = f"{whose} {and_list(men)}"
    else:  # a witness cannot count them
        people = f"{t.their} crew{'' if t.single else 's'} and Marines"
    if t.get("aboard"):
        went = f"were taken aboard {t.ships_phrase([str(t.get('aboard'))])}"
    elif "(" in t.location and "tactical area" in t.location:
        went = "took to the boats"  # a transport group, which needs no friend to stay
    else:
        went = "went ashore"
    return f"; {people} {went}"


def inactivated(t: Telling) -> str:
    return f"{t.subject} {t.was} laid up in ordinary {t.at()} (rule 2.6)"


def reactivation_begun(t: Telling) -> str:
    ready = f"; ready at the start of turn {t.get('ready_turn')}" if t.get("ready_turn") else ""
    return f"{t.subject} began recommissioning {t.at()}{ready} (rule 2.6)"


def reactivated(t: Telling) -> str:
    back = "is" if t.single else "are"
    return f"{t.subject} {t.was} recommissioned {t.at()} and {back} back on the map (rule 2.6)"


def groups_combined(t: Telling) -> str:
    if not t.ships:
        return f"Transport groups were combined {t.at()} (rule 2.5)"
    capacity = f", of capacity {t.number('capacity')}" if t.number("capacity") else ""
    groups = and_list(t.ship_words(s) for s in t.ships)
    return f"The transport groups {groups} were combined into {t.ships[0]}{capacity} (rule 2.5)"


def group_divided(t: Telling) -> str:
    new = t.ship_words(str(t.get("new"))) if t.get("new") else "a new group"
    return (
        f"{_first(t)} was divided {t.at()}: {new} split off with capacity {t.number('capacity')} (rule 2.5)"
    )


# -- loading and unloading (3.6, 3.9) ----------------------------------------
def _items(t: Telling) -> list[str]:
    items = [str(u) for u in t.get("units", ())]
    if t.number("supplies"):
        items.append(supplies_text(t.number("supplies")))
    return items


def _cargo(t: Telling) -> str:
    return and_list(_items(t)) or "troops and supplies"


def _verb(t: Telling) -> str:
    return "unloading" if t.get("direction") == "unload" else "loading"


def transfer_begun(t: Telling) -> str:
    port = t.get("port") or t.place()
    return (
        f"{t.subject} began {_verb(t)} {_cargo(t) if t.ours else 'troops or supplies'} at {port} (rule 3.6)"
    )


def transfer_refused(t: Telling) -> str:
    if not t.ours:  # the event report leaves these out (events.UNSEEN): only for direct callers
        return f"{t.subject} lay {t.at()}"
    why = _reasons(t.get("refused", ()), "reason")
    return f"{t.subject} could not carry out all the {_verb(t)} ordered {t.at()}" + (
        f": {why}" if why else ""
    )


def transfer_completed(t: Telling) -> str:
    port = t.get("port") or t.place()
    done = "unloaded" if t.get("direction") == "unload" else "loaded"
    if t.get("cancelled"):
        why = f": {t.get('reason')}" if t.ours and t.get("reason") else ""
        return f"The {_verb(t)} of {t.subject} at {port} was abandoned{why} (rule 3.9)"
    return f"{t.subject} {done} {_cargo(t) if t.ours else 'troops or supplies'} at {port} (rule 3.9)"


def transfer_undone(t: Telling) -> str:
    if not t.ours:  # as transfer_refused
        return f"{t.subject} lay {t.at()}"
    one = len(_items(t)) == 1 and t.number("supplies") <= 1  # "FR2IN was", "12 supplies were"
    if t.get("lost"):
        back = f"lost with her, for {'it was' if one else 'they were'} still aboard"
    elif t.get("recovered"):
        back = f"never left the shore and {'is' if one else 'are'} not lost with her"
    else:
        back = "back aboard" if t.get("direction") == "unload" else "back ashore"
    why = f": {t.get('reason')}" if t.get("reason") else ""
    port = t.get("port") or t.place()
    return f"The land side refused the {_verb(t)} of {t.subject} at {port}{why}; {_cargo(t)} {back}"


_LAND_FATES = {"unit_destroyed": "destroyed on land", "unit_captured": "taken on land"}


def land_event(t: Telling) -> str:
    """GITM's land rules hit a unit or a city PATE relies on (docs/rules/turn.md, "Land events
    at the close"): the load or landing fails for that unit, or the city's stock is gone."""
    port = t.get("port") or t.place()
    why = f": {t.get('reason')}" if t.get("reason") else ""
    unit, kind = t.get("unit"), t.get("event")
    if kind in _LAND_FATES:
        fate = _LAND_FATES[kind] + (
            f" by {t.get('captor')}" if kind == "unit_captured" and t.get("captor") else ""
        )
        if t.get("aboard"):
            return (
                f"{unit} was {fate} before it embarked on {t.subject} at {port}{why}; the load failed for it"
            )
        if t.get("transfer"):
            return f"The landing of {unit} at {port} failed: {unit} was {fate}{why}"
        return f"{unit} was {fate} at {port}{why}"
    amount = supplies_text(t.number("supplies")) if t.number("supplies") else "no supplies"
    if kind == "city_taken":
        taken = f"{port} was taken on land by {t.get('captor')}{why}"
        return f"{taken}; its stock ({amount}) can no longer be loaded"
    return (
        f"{amount} of the stock at {port} {'was' if t.number('supplies') == 1 else 'were'} lost on land{why}"
    )


# -- stores (3.4, 3.5) -------------------------------------------------------
def _stores_move(t: Telling) -> str:
    amount = stores_text(t.number("amount")) if t.number("amount") else "Stores"
    return f"{amount} from {t.text('origin', t.location)} to {t.text('destination', 'another port')}"


def stores_moved(t: Telling) -> str:
    return f"{_stores_move(t)} {'was' if t.number('amount') == 1 else 'were'} moved (rule 3.5)"


def stores_move_refused(t: Telling) -> str:
    why = _reasons(t.get("reasons", ()))
    return f"{_stores_move(t)} could not be moved" + (f": {why}" if why else "") + " (rule 3.5)"


def out_of_stores(t: Telling) -> str:
    lost = f" and lost {t.number('crew_lost')} crew" if t.number("crew_lost") else ""
    crew = f" ({t.number('crew')} left)" if "crew" in t.data and lost else ""
    s = "s" if t.single else ""
    if t.get("homing", True):
        then = (
            f"; {t.they} no longer answer{s} orders and sail{s}"
            f" for the nearest friendly harbor that can replenish {t.them}"
        )
    elif "crew_lost" in t.data and not lost:
        # no crew lost: in a friendly harbor, and none better to sail for
        then = f"; no other friendly harbor can replenish {t.them}, and {t.they} wait{s} {t.at()}"
    else:
        then = ""
    return f"{t.subject} ran out of stores{lost}{crew}{then} (rule 3.4)"


# -- ports fought for (2.6, section 10) --------------------------------------
def garrison_battle(t: Telling) -> str:
    port = t.get("port") or t.place()
    attackers = and_list(str(u) for u in t.get("attackers", ())) or "the attackers"
    defenders = and_list(str(u) for u in t.get("defenders", ())) or "the garrison"
    won = "the attackers carried the port" if t.get("attackers_won") else "the attack was beaten off"
    gave_up = [str(u) for u in t.get("surrendered", ())]
    surrendered = f"; {and_list(gave_up)} surrendered" if gave_up else ""
    return f"Fighting ashore at {port}: {attackers} attacked {defenders}, and {won}{surrendered} (rule 3.9)"


def port_captured(t: Telling) -> str:
    port = t.get("port") or t.place()
    was = f" from {the_peoples(t.k, [str(t.get('from'))])}" if t.get("from") else ""
    return f"{port} was taken{was} by {the_peoples(t.k, [str(t.get('to'))] if t.get('to') else [])}"


def inactive_captured(t: Telling) -> str:
    old = t.ships[0] if t.ships else "a laid-up ship"
    new = t.ship_words(str(t.get("prize"))) if t.get("prize") else "a new id"
    by = the_peoples(t.k, [str(t.get("state"))] if t.get("state") else [])
    laid_up = f"{t.ships_phrase([old])}, laid up {t.at()},"
    return f"{laid_up} was taken by {by} with the port and is now {new} (rule 2.6)"


def inactive_destroyed(t: Telling) -> str:
    return f"{t.subject}, laid up {t.at()}, {t.was} destroyed by enemy ships in the harbor (rule 2.6)"


PHRASES: dict[str, Phrase] = {
    "admin_refused": admin_refused,
    "crew_transferred": crew_transferred,
    "scuttled": scuttled,
    "inactivated": inactivated,
    "reactivation_begun": reactivation_begun,
    "reactivated": reactivated,
    "groups_combined": groups_combined,
    "group_divided": group_divided,
    "transfer_begun": transfer_begun,
    "transfer_refused": transfer_refused,
    "transfer_completed": transfer_completed,
    "transfer_undone": transfer_undone,
    "land_event": land_event,
    "stores_moved": stores_moved,
    "stores_move_refused": stores_move_refused,
    "out_of_stores": out_of_stores,
    "garrison_battle": garrison_battle,
    "port_captured": port_captured,
    "inactive_captured": inactive_captured,
    "inactive_destroyed": inactive_destroyed,
}
