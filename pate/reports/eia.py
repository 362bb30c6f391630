"""The words for battles fought under the EiA advanced naval rules (12.2.6 to
12.2.9), in the rule book's language: tactical chits, rounds, broken forces,
disabled ships, hulks, the general chase, Nelson."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pate.core.rules.detection import ship_sort_key
from pate.reports.phrases import Phrase
from pate.reports.telling import Telling
from pate.reports.words import adjective, and_list, capital, counted, fleet_text, the_peoples

KIND_WORDS = {
    "open_sea": "Open sea combat (EiA rule 12.2.6.1)",
    "blockade": "Blockade battle (EiA rule 12.2.6.2)",
    "port_raid": "Port raid (EiA rule 12.2.6.3)",
}
CHIT_WORDS = {"melee": "melee", "linear_attack": "linear attack", "linear_defense": "linear defense"}


def _side_words(t: Telling, side: Mapping[str, Any], chits: bool) -> str:
    states = [str(s) for s in side.get("states", ())]
    friends = {*t.k.allies, *([t.k.state] if t.k.state else [])}
    who = "our side" if set(states) & friends else the_peoples(t.k, states)
    chit = CHIT_WORDS.get(str(side.get("chit")), "") if chits else ""
    return f"{who} ({chit})" if chit else who


def _side_ships(t: Telling, index: int) -> str:
    """Rule 3.11: the ships each side brought to the battle, as in a battle
    under the PATE rules (every ship in it is seen)."""
    ids = sorted(
        (str(e.get("id")) for e in t.get("ships", ()) if isinstance(e, Mapping) and e.get("side") == index),
        key=ship_sort_key,
    )
    return f" with {fleet_text(ids)} ({and_list(ids)})" if ids else ""


def _rounds(t: Telling, sides: list[Mapping[str, Any]]) -> list[str]:
    rounds = [r for r in t.get("rounds", ()) if isinstance(r, Mapping)]
    if not rounds:
        return []
    said = [f"{counted(len(rounds), 'round')} fought"]
    defences = t.get("harbor_defenses")
    for n, side in enumerate(sides):
        # "disabled" counts the ships each side disabled: the other side's losses; the raiders'
        # losses include what the harbor defences disabled before the rounds (12.2.6.3.1)
        lost = sum(int(r.get("disabled", (0, 0))[1 - n]) for r in rounds)
        if isinstance(defences, int) and t.get("attacker") == n:
            lost += defences
        broken = ", and broke" if side.get("broken") else ""
        said.append(f"{_side_words(t, side, False)} had {counted(lost, 'ship')} disabled{broken}")
    if any(r.get("closed") for r in rounds):
        said.append("the melee force closed with the enemy")
    return said


def eia_battle(t: Telling) -> str:
    """The head of a battle decided by the EiA rules: which rules, the chits,
    the rounds fought, who broke, who won."""
    sides = [s for s in t.get("sides", ()) if isinstance(s, Mapping)]
    kind = str(t.get("kind"))
    head = f"{KIND_WORDS.get(kind, 'Battle')} {t.at()}"
    middle: list[str] = []
    if len(sides) == 2:
        chits = kind == "open_sea"  # 12.2.6.2 and 12.2.6.3.2: no chits in blockade battles and raids
        middle.append(
            f"{_side_words(t, sides[0], chits)}{_side_ships(t, 0)}"
            f" against {_side_words(t, sides[1], chits)}{_side_ships(t, 1)}"
        )
    defences = t.get("harbor_defenses")
    if isinstance(defences, int):
        middle.append(f"the harbor defences disabled {defences} of the raiders")
    if len(sides) == 2:
        middle += _rounds(t, sides)
    chase = t.get("chase")
    if isinstance(chase, Mapping) and chase.get("disabled"):
        middle.append(f"the general chase disabled {chase.get('disabled')} more")
    said = [head]
    if middle:
        text = "; ".join(middle)
        said.append(text[:1].upper() + text[1:])
    winner = t.get("winner")
    if not winner:
        draw = (
            "Neither side could claim victory (EiA rule 12.2.6.3.2)"
            if kind == "port_raid"
            else "The battle ended inconclusively (EiA rule 12.2.6.1.6.2)"
        )
        said.append(draw)
    else:
        states = [str(s) for s in winner]
        friends = {*t.k.allies, *([t.k.state] if t.k.state else [])}
        theirs = f"{capital(the_peoples(t.k, states))} won the day"
        said.append("The day was ours" if set(states) & friends else theirs)
    return ". ".join(said)


def hulk(t: Telling) -> str:
    port = t.text("port", "port")
    hulks = "a hulk" if t.single else "hulks"
    return f"{t.subject} reached {port} disabled and {t.was} laid up as {hulks} (EiA rule 12.2.6.1.9.1)"


def lost_en_route(t: Telling) -> str:
    return f"{t.subject}, disabled, {t.was} lost on the way to port (EiA rule 12.2.6.1.9.1)"


def retreated(t: Telling) -> str:
    return f"{t.subject} retreated from the battle {t.at()} (EiA rule 12.2.6.1.8)"


def returned(t: Telling) -> str:
    return f"{t.subject} {t.was} driven back into port (EiA rule 12.2.6.2)"


def withdrawn(t: Telling) -> str:
    return f"{t.subject} withdrew to the coastal waters after the raid (EiA rule 12.2.6.3.4)"


def admiral_in_battle(t: Telling) -> str:
    fate = t.text("fate", "unhurt")
    words = {"unhurt": "came through the battle unhurt", "wounded": "was wounded", "killed": "was killed"}
    who = t.get("name") or t.get("admiral")  # the player's name; events before it was kept: the id
    name = f"Admiral {who}" if who else "The admiral"
    return f"{name} {words.get(fate, fate)} {t.at()} (EiA rule {t.text('rule', '12.2.7')})"


def political_points(t: Telling) -> str:
    gained = and_list(adjective(t.k, str(s)) for s in t.get("gained", ()))
    points = t.get("points")
    worth = counted(points, "political point") if isinstance(points, int) else "political points"
    victory = f"The {gained} victory" if gained else "The victory"
    return f"{victory} {t.at()} is worth {worth} (EiA rule 12.2.6.1.6.3)"


def refitted(t: Telling) -> str:
    return f"{t.subject} {t.was} refitted and is seaworthy again (EiA rule 12.2.8.3)"


def hulk_port_changed(t: Telling) -> str:
    fate = t.text("fate", "destroyed")
    what = "destroyed" if fate == "destroyed" else "taken over by the port's new owner"
    return f"{t.subject} {t.was} {what} (EiA rule 12.2.8.2)"


def refit_begun(t: Telling) -> str:
    ready = t.get("ready_turn")
    when = f", to be seaworthy on turn {ready}" if isinstance(ready, int) else ""
    return f"{t.subject} began refitting {t.at()}{when} (EiA rule 12.2.8.3)"


def refit_refused(t: Telling) -> str:
    reason = t.text("reason", "")
    return f"{t.subject} could not be refitted{': ' + reason if reason else ''} (EiA rule 12.2.8.3)"


def ran_blockade(t: Telling) -> str:
    return f"{t.subject} slipped past the blockading force {t.at()} (EiA rule 12.2.9.1)"


def blockade_run_failed(t: Telling) -> str:
    return f"{t.subject} tried to run the blockade {t.at()} and {t.was} intercepted (EiA rule 12.2.9.1)"


PHRASES: dict[str, Phrase] = {
    "refit_begun": refit_begun,
    "refit_refused": refit_refused,
    "ran_blockade": ran_blockade,
    "blockade_run_failed": blockade_run_failed,
    "hulk": hulk,
    "lost_en_route": lost_en_route,
    "retreated": retreated,
    "returned": returned,
    "withdrawn": withdrawn,
    "admiral_in_battle": admiral_in_battle,
    "political_points": political_points,
    "refitted": refitted,
    "hulk_port_changed": hulk_port_changed,
}
