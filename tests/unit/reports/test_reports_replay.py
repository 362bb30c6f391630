"""One turn of the replay viewer, through the same knowledge the reports
are made of: a player's frame shows nothing his knowledge lacks (the fog of
war), the game master's shows every side, and an event seen by several
players is told once."""

from __future__ import annotations

import re
from dataclasses import replace

from pate.core.campaign import start_campaign
from pate.core.intel.knowledge import knowledge_for
from pate.core.intel.model import PlayerKnowledge
from pate.core.orders.model import Amphibious, ShipOrder
from pate.core.rules.turn import resolve_turn
from pate.core.world.geography import MapName
from pate.core.world.ships import InPort
from pate.datafiles import load_scenario
from pate.engine.context import turn_context
from pate.reports.events import told_events
from pate.reports.replay import ReplayEvent, all_sides_frame, player_frame

SHIP_ID = re.compile(r"\b[A-Z]{2}\d+[A-Z]{2}\b")


def _knowledge() -> list[PlayerKnowledge]:
    ctx = turn_context()
    scenario = load_scenario("trafalgar")
    w = start_campaign(ctx, scenario.world, "replay", scenario.world.seed, 15, place=True)
    return [knowledge_for(pid, w, w, (), ctx.map, ctx.rules) for pid in sorted(w.players)]


def _ids(k: PlayerKnowledge) -> set[str]:
    own = {r.id for r in k.ships}
    return own | {v.id for r in k.ships for v in r.visible}


def test_a_players_frame_shows_only_what_his_knowledge_holds() -> None:
    ctx = turn_context()
    for k in _knowledge():
        frame = player_frame(k, ctx.map)
        shown = {i for _, svg in frame.maps for i in SHIP_ID.findall(svg)}
        assert shown <= _ids(k), k.player
        if k.ships:
            assert frame.maps and all(which in MapName for which, _ in frame.maps)


def test_the_game_masters_frame_shows_every_side_and_tells_each_event_once() -> None:
    ctx = turn_context()
    ks = _knowledge()
    frame = all_sides_frame(ks, ctx.map)
    shown = {i for _, svg in frame.maps for i in SHIP_ID.findall(svg)}
    states = {i[:2] for i in shown}
    assert {"BR", "FR"} <= states
    assert shown == {r.id for k in ks for r in k.ships}
    texts = [(e.phase, e.text) for e in frame.events]
    assert len(texts) == len(set(texts))
    assert all(isinstance(e, ReplayEvent) and e.who for e in frame.events)
    # each event names the states whose players were told it, not a row of full names
    states_of = {k.state for k in ks if k.state}
    assert all(set(e.who.split(", ")) <= states_of for e in frame.events)


def _unloading_at_brest() -> list[PlayerKnowledge]:
    """The training scenario played one turn, with FR1TR in Brest unloading its division
    (FR2IN): its commander's report tells what it landed; another French player's ships
    there saw it land "troops or supplies" (5.1)."""
    ctx = turn_context()
    scenario = load_scenario("training")
    w = start_campaign(ctx, scenario.world, "replay", scenario.world.seed, 3, place=True)
    ships = {**w.ships, "FR1TR": replace(w.ships["FR1TR"], location=InPort("Brest", harbor=True))}
    w = replace(w, ships=ships)
    order = ShipOrder("FR1TR", amphibious=Amphibious(unload_units=("FR2IN",)))
    r = resolve_turn(ctx, w, {"FR1TR": order}, ())
    return [knowledge_for(p, w, r.state, r.events, ctx.map, ctx.rules) for p in sorted(w.players)]


def test_an_unloading_seen_by_several_players_is_told_once_in_its_own_words() -> None:
    ctx = turn_context()
    ks = _unloading_at_brest()
    worded = {t.text for k in ks for t in told_events(k, ctx.map) if t.kind == "transfer_completed"}
    assert len(worded) == 2  # its commander's words and a bystander's
    frame = all_sides_frame(ks, ctx.map)
    told = [e for e in frame.events if "FR1TR" in e.text]
    assert [(e.phase, e.text) for e in told] == [
        ("initial_amphibious", "FR1TR Boulogne flotilla began unloading FR2IN at Brest (rule 3.6)."),
        ("final_amphibious", "FR1TR Boulogne flotilla unloaded FR2IN at Brest (rule 3.9)."),
    ]
    assert all(e.who == "FR" for e in told)
    # each player's own replay keeps his own words: what his ships could see, no more
    mine = {k.player: player_frame(k, ctx.map) for k in ks if k.player in ("decres", "ganteaume")}
    assert any("unloaded troops or supplies at Brest" in e.text for e in mine["ganteaume"].events)
    assert not any("FR2IN" in e.text for e in mine["ganteaume"].events)
