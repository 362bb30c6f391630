"""One turn of the replay viewer, through the same knowledge the reports
are made of: a player's frame shows nothing his knowledge lacks (the fog of
war), the game master's shows every side, and an event seen by several
players is told once."""

from __future__ import annotations

import re

from pate.core.campaign import start_campaign
from pate.core.intel.knowledge import knowledge_for
from pate.core.intel.model import PlayerKnowledge
from pate.core.world.geography import MapName
from pate.datafiles import load_scenario
from pate.engine.context import turn_context
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
