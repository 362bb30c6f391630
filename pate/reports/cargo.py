"""The rule book's words for what is carried at sea and lost with it: the
merchant trade taken by raiders or covered by convoys (rule 4.8), and the
land units and supplies aboard a transport group that is sunk, founders or is
taken (section 9).
"""

from __future__ import annotations

from pate.reports.phrases import Phrase
from pate.reports.telling import Telling
from pate.reports.words import adjective, and_list


def merchant_prizes(t: Telling) -> str:
    victim = adjective(t.k, str(t.get("victim"))) if t.get("victim") else "enemy"
    n = t.number("prizes")
    crew = (
        f", sending {t.number('prize_crew')} men away in prize crews"
        if t.ours and t.number("prize_crew")
        else ""
    )
    return f"{t.subject} took {n} {victim} merchant ship{'s' if n != 1 else ''} {t.at()}{crew} (rule 4.8)"


def trade_lost(t: Telling) -> str:
    by = and_list(adjective(t.k, str(b)) for b in t.get("by", ()) or ()) or "enemy"
    n, of = t.number("taken"), t.number("merchants")
    escorts = (
        f"; {t.number('escorts')} escort(s) were with them"
        if t.number("escorts")
        else "; they sailed unescorted"
    )
    return f"{by} raiders took {n} of our {of} merchant ships {t.at()}{escorts} (rule 4.8)"


def convoy_covered(t: Telling) -> str:
    lost = t.number("lost")
    fate = "none was taken" if not lost else f"{lost} of {t.number('merchants')} were taken nonetheless"
    raiders = t.number("raiders")
    return f"{t.subject} covered the merchant ships {t.at()} against {raiders} raider(s): {fate} (rule 4.8)"


def trade_summary(t: Telling) -> str:
    n, lost, prizes = t.number("merchants"), t.number("taken"), t.number("prizes")
    return (
        f"Trade this turn: {n} merchant ships at sea, {lost} taken by the enemy, {n - lost} safely arrived;"
        f" our raiders took {prizes} prize{'s' if prizes != 1 else ''} (rule 4.8)"
    )


def _cargo(t: Telling) -> str:
    """ "IN1 and 12 supplies", or "her cargo" when nothing is listed."""
    items = [str(u) for u in t.get("units", ()) or ()]
    if t.number("supplies"):
        items.append(f"{t.number('supplies')} supplies")
    return and_list(items) if items else f"{t.their} cargo"


def cargo_lost(t: Telling) -> str:
    return f"Lost with {t.subject} {t.at()}: {_cargo(t)} aboard (section 9)"


def cargo_captured(t: Telling) -> str:
    captor = t.get("captor")
    by = f" by the {adjective(t.k, str(captor))}" if captor else ""
    return (
        f"Taken{by} with {t.subject} {t.at()}: {_cargo(t)} aboard; "
        f"the troops are prisoners, the supplies the captor's (section 9)"
    )


PHRASES: dict[str, Phrase] = {
    "cargo_lost": cargo_lost,
    "merchant_prizes": merchant_prizes,
    "trade_lost": trade_lost,
    "convoy_covered": convoy_covered,
    "trade_summary": trade_summary,
    "cargo_captured": cargo_captured,
}
