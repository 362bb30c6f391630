"""The rule book's words for what is carried at sea and lost with it: the
merchant trade taken by raiders or covered by convoys (rule 4.8), and the
land units and supplies aboard a transport group that is sunk, founders or is
taken (section 9).
"""

from __future__ import annotations

from pate.reports.phrases import Phrase
from pate.reports.telling import Telling
from pate.reports.words import adjective, and_list, counted, supplies_text, the_peoples


def merchant_prizes(t: Telling) -> str:
    victim = adjective(t.k, str(t.get("victim"))) if t.get("victim") else "enemy"
    n = t.number("prizes")
    crew = (
        f", sending {t.number('prize_crew')} men away in {'a prize crew' if n == 1 else 'prize crews'}"
        if t.ours and t.number("prize_crew")
        else ""
    )
    return f"{t.subject} took {n} {victim} merchant ship{'s' if n != 1 else ''} {t.at()}{crew} (rule 4.8)"


def _taken_of(n: int, of: int) -> str:
    """ "1 of our 3 merchant ships"; one merchant ship is "our only merchant ship"."""
    if of == 1:
        return "our only merchant ship"
    if n == of:
        return f"all {of} of our merchant ships"
    return f"{n} of our {of} merchant ships"


def trade_lost(t: Telling) -> str:
    by = and_list(adjective(t.k, str(b)) for b in t.get("by", ()) or ()) or "enemy"
    n, of, escorts = t.number("taken"), t.number("merchants"), t.number("escorts")
    they, them = ("she", "her") if of == 1 else ("they", "them")
    with_them = f"{counted(escorts, 'escort')} {'was' if escorts == 1 else 'were'} with {them}"
    escorted = f"; {with_them}" if escorts else f"; {they} sailed unescorted"
    return f"{by} raiders took {_taken_of(n, of)} {t.at()}{escorted} (rule 4.8)"


def convoy_covered(t: Telling) -> str:
    lost, n = t.number("lost"), t.number("merchants")
    merchants = "the merchant ship" if n == 1 else "the merchant ships"
    if not lost:
        fate = "she was not taken" if n == 1 else "none was taken"
    elif n == 1:
        fate = "she was taken nonetheless"
    else:
        fate = f"{lost} of {n} {'was' if lost == 1 else 'were'} taken nonetheless"
    raiders = counted(t.number("raiders"), "raider")
    return f"{t.subject} covered {merchants} {t.at()} against {raiders}: {fate} (rule 4.8)"


def trade_summary(t: Telling) -> str:
    n, lost, prizes = t.number("merchants"), t.number("taken"), t.number("prizes")
    return (
        f"Trade this turn: {counted(n, 'merchant ship')} at sea, {lost} taken by the enemy,"
        f" {n - lost} safely arrived; our raiders took {counted(prizes, 'prize')} (rule 4.8)"
    )


def _cargo(t: Telling) -> str:
    """ "IN1 and 12 supplies", or "her cargo" when nothing is listed."""
    items = [str(u) for u in t.get("units", ()) or ()]
    if t.number("supplies"):
        items.append(supplies_text(t.number("supplies")))
    return and_list(items) if items else f"{t.their} cargo"


def cargo_lost(t: Telling) -> str:
    return f"Lost with {t.subject} {t.at()}: {_cargo(t)} aboard (section 9)"


def cargo_captured(t: Telling) -> str:
    captor = t.get("captor")
    by = f" by {the_peoples(t.k, [str(captor)])}" if captor else ""
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
