"""The words for the EiA new naval rules' events (naval_rules "eia-operations",
docs/rules/eia-operations.md): declared operations, interceptions, contests,
column battles, trade routes and the state's account."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from pate.core.intel.model import PlayerKnowledge
from pate.reports.phrases import Phrase
from pate.reports.telling import Telling
from pate.reports.words import adjective, and_list, capital, counted, the_peoples

RULES = "EiA new naval rules"
OP_WORDS = {
    "naval_superiority": "Naval Superiority",
    "rebase": "Rebase",
    "patrol": "Patrol",
    "protect_trade": "Protect Trade",
    "transport": "Transport",
    "invasion": "Invasion",
    "raid": "Raid",
    "privateer": "Privateer",
    "supply": "Supply",
}


def _op(kind: object) -> str:
    return OP_WORDS.get(str(kind), str(kind)) if kind else "operation"


def _ids(items: Iterable[object]) -> str:
    return and_list(str(x) for x in items)


def operation_revealed(t: Telling) -> str:
    what = _op(t.get("operation"))
    if t.get("corps"):
        what += f" of {t.get('corps')}"
    if t.get("to"):
        what += f" to {'the blockade box of ' if t.get('blockade') else ''}{t.get('to')}"
    if t.get("chain"):
        what += f" through {_ids(t.get('chain', ()))}"
    joint = t.get("states") or []
    with_allies = f", jointly with {the_peoples(t.k, [str(s) for s in joint])}" if len(joint) > 1 else ""
    return (
        f"{t.subject} declared {what} (number {t.number('seq')} in the sequence,"
        f" Phase Number {t.number('phase_number')}"
        f"{with_allies}; {RULES})"
    )


def operation_refused(t: Telling) -> str:
    return (
        f"{t.subject}: the {_op(t.get('operation'))} operation was refused: {t.text('reason', 'not allowed')}"
    )


def returned_to_base(t: Telling) -> str:
    return (
        f"{t.subject}, the {_op(t.get('operation'))} done, returned from {t.text('from', 'its destination')}"
        f" to {t.text('to', 'its base')} ({RULES})"
    )


def interception(t: Telling) -> str:
    """The outcome of the manoeuvre, not its dice, which no report shows (docs/rules/intel.md 14):
    won, lost, or a tie, which the interceptor wins against a kind of operation it prefers."""
    result = _manoeuvre(t)
    back = " on its return to base" if t.get("return_to_base") else ""
    target = _op(t.get("target_operation"))
    if t.ours:
        return (
            f"{t.subject} ({_op(t.get('by_operation'))}) tried to intercept"
            f" the {target} of {t.text('target', 'an enemy fleet')}{back}: {result} ({RULES}, Interception)"
        )
    return (
        f"{t.subject} ({_op(t.get('by_operation'))}) tried to intercept our {target}{back}:"
        f" {result} ({RULES}, Interception)"
    )


def _manoeuvre(t: Telling) -> str:
    won = bool(t.get("succeeded"))
    tie = t.get("on_tie")
    if tie is True:
        outcome = "a tie, won on a preferred kind" if won else "a tie, and the kind was not one it prefers"
        return f"the manoeuvre was {outcome}: " + ("intercepted" if won else "failed")
    if tie is False:
        return "the interceptors won the manoeuvre: intercepted" if won else "they lost the manoeuvre: failed"
    return "intercepted" if won else "failed"  # told before the tie was recorded


def contest(t: Telling) -> str:
    if not t.get("joined"):
        reach = t.number("reach")
        against = t.text("against", "an enemy fleet")
        return (
            f"{t.subject} sought a Naval Superiority contest with {against}:"
            f" out of reach ({counted(reach, 'step')})"
        )
    apart = t.number("steps")
    against = t.text("against", "an enemy fleet")
    return (
        f"{t.subject} met {against} in a Naval Superiority contest, {counted(apart, 'step')} apart ({RULES})"
    )


def column_battle(t: Telling) -> str:
    columns = t.get("columns") or [[], []]
    disabled = set(str(x) for x in t.get("disabled", ()))
    ours = 0 if any(str(s) in t.own for col in columns[0] for s in col) else 1
    lost = [sum(1 for col in side for s in col if str(s) in disabled) for side in columns]
    winner = t.get("winner")
    outcome = "undecided" if winner is None else ("won" if winner == ours else "lost")
    why = {
        "interception": "an interception",
        "naval_superiority": "a Naval Superiority contest",
        "protect_trade": "a raid on protected trade",
    }.get(str(t.get("why")), "combat")
    return (
        f"Column battle {t.at()} ({why}): {t.subject};"
        f" {counted(len(columns[ours]), 'column')} of ours against"
        f" {len(columns[1 - ours])}; {lost[ours]} of ours and {lost[1 - ours]} of theirs disabled: {outcome}"
        f"{_our_choices(t.get('actions') or [], ours)} ({RULES}, Naval Combat)"
    )


_DID = {"attack": "attacked their column", "protect": "protected our column", "evade": "evaded their column"}


def _our_choices(actions: list[object], ours: int) -> str:
    """What our columns chose, and whether by our column orders' plans (a step) or by the
    default (docs/rules/eia-operations.md, "Column orders")."""
    said = []
    for a in actions:
        if not isinstance(a, list) or len(a) != 5 or a[0] != ours or str(a[2]) not in _DID:
            continue
        how = f"by step {a[4]} of its plan" if isinstance(a[4], int) and a[4] > 0 else "by default"
        said.append(f"column {int(str(a[1])) + 1} {_DID[str(a[2])]} {int(str(a[3])) + 1} {how}")
    return "; " + "; ".join(said) if said else ""


def supply_traced(t: Telling) -> str:
    reached = _ids(t.get("reached", ())) or "no land"
    chain = _ids(t.get("chain", ()))
    return f"{t.subject} traced sea supply through {chain}, reaching {reached} ({RULES}, Supply)"


def trade_interception(t: Telling) -> str:
    rolls = t.get("rolls") or [0, 0]
    result = "caught them" if t.get("succeeded") else "missed them"
    route = t.text("route", "a port")
    roll = f"roll {rolls[0]} against {rolls[1]}"
    return f"{t.subject} went for the trade ships on the route from {route}: {roll}, {result}"


def trade_ships_taken(t: Telling) -> str:
    n = t.number("taken")
    route = t.text("route", "a port")
    if t.k.state == t.get("state"):
        by = capital(t.flag("by"))
        return f"{by} raiders took {n} of our trade ships on the route from {route} ({RULES})"
    return f"{t.subject} took {counted(n, t.flag() + ' trade ship')} on the route from {route} ({RULES})"


def trade_route(t: Telling) -> str:
    ships = t.get("ships") or {}
    left = t.get("left") or {}
    guards = _ids(t.get("protected_by", ())) or "nobody"
    arrived = sum(int(v) for v in left.values())
    return (
        f"Trade route from {t.text('route', 'a port')}"
        f" (calling at {counted(len(t.get('ports', ())), 'port')}):"
        f" {trade_ships_held(t.k, ships)},"
        f" {arrived} arrived; protected by {guards} ({RULES}, Trade Ships)"
    )


def trade_ships_held(k: PlayerKnowledge, ships: Mapping[str, int]) -> str:
    """ "2 British and 1 Spanish trade ships"; "1 British trade ship"; "no trade ships"."""
    held = and_list(f"{n} {adjective(k, str(s))}" for s, n in sorted(ships.items())) or "no"
    return f"{held} trade {'ship' if sum(int(n) for n in ships.values()) == 1 else 'ships'}"


def treasury(t: Telling) -> str:
    return (
        f"Account: {counted(t.number('ships'), 'trade ship')} sailed, {t.number('taken')} taken,"
        f" {t.number('arrived')} arrived, {counted(t.number('prizes'), 'prize')};"
        f" income ${t.number('income')},"
        f" in the account ${t.number('money')} ({RULES})"
    )


PHRASES: dict[str, Phrase] = {
    "operation_revealed": operation_revealed,
    "operation_refused": operation_refused,
    "returned_to_base": returned_to_base,
    "interception": interception,
    "contest": contest,
    "column_battle": column_battle,
    "supply_traced": supply_traced,
    "trade_interception": trade_interception,
    "trade_ships_taken": trade_ships_taken,
    "trade_route": trade_route,
    "treasury": treasury,
}
