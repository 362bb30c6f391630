"""Rule 3.11 for ships a storm moves (lost section 8, docs/rules/movement.md
"Storms"): the ships where a storm sets a ship down see her come, as they see
any arrival, for they are in contact with her (5.1)."""

from __future__ import annotations

from dataclasses import replace

from pate.core.intel.knowledge import knowledge_for
from pate.core.rules.context import TurnContext, TurnState
from pate.core.world.ships import AtSea, InPort
from pate.core.world.state import Player, Wind, WorldState
from pate.reports.events import event_lines
from tests.unit.movement.maps import (
    MODERATE,
    TOY_MAP,
    S,
    events_of,
    port,
    run,
    sea,
    ship,
    variant,
    winds,
    world,
)

PLAYERS = {
    "villeneuve": Player("villeneuve", "Pierre Villeneuve", "FR"),
    "nelson": Player("nelson", "Horatio Nelson", "BR"),
}


def _storm(tactical: int, *, at_sea: int = 0, blown_out: int = 0, driven: int = 0) -> TurnContext:
    """A storm in every sea area, harmless, moving ships as told; the
    Southern Caribbean has ``tactical`` tactical areas."""
    scatter = {"at_sea_percent": at_sea, "blown_out_percent": blown_out, "driven_percent": driven}
    storms = {
        "chance": {"light": 100, "moderate": 100, "heavy": 100},
        "damage": {"bands": [{"below": 1000, "rigging": 0, "hull": 0}]},
        "scatter": scatter,
    }
    return variant(tactical={"SOC": tactical}, storms=storms)


def _report(player: str, before: WorldState, ts: TurnState) -> str:
    after = replace(ts.world, turn=before.turn + 1, players=PLAYERS)
    k = knowledge_for(player, replace(before, players=PLAYERS), after, ts.events, TOY_MAP)
    return "\n".join(event_lines(k, TOY_MAP))


def test_rule_3_11_ships_see_a_ship_the_storm_blows_out_among_them() -> None:
    """3.11: "The first one contains a list of all events that happened during
    the turn that were observed by the player's ships".  A British ship off
    Martinique is blown out to sea into the tactical area where a French ship
    lies: the French ship sees her come, and her own report says whom she
    lies to leeward of, as the position report will (5.1)."""
    w = world(
        [
            ship("BR1SL", port("Martinique"), commander="nelson"),
            ship("FR1SL", sea("SOC"), commander="villeneuve"),
        ]
    )
    ts = run(w, ctx=_storm(1, blown_out=100))
    assert ts.world.ships["BR1SL"].location == AtSea("SOC", 1)
    (seen,) = events_of(ts, "storm_arrived")
    assert (
        seen.ships == ("BR1SL",) and seen.witnesses == ("FR1SL",) and seen.location == "SOC (tactical area 1)"
    )
    assert seen.data["enemies"] == ["FR1SL"] and seen.data["side"] == "leeward"
    assert (
        "The British ship of the line BR1SL was driven by the storm into the Southern Caribbean"
        " (tactical area 1), to leeward of FR1SL: she held the weather gauge (section 8)."
        in _report("villeneuve", w, ts)
    )
    # her own player reads the move and the arrival as one line (events 2 and 3)
    british = _report("nelson", w, ts)
    assert (
        "2-3. [movement] BR1SL was blown out to sea from the coastal waters off Martinique into the"
        " Southern Caribbean (tactical area 1), to leeward of the French ship of the line FR1SL: she held the"
        " weather gauge." in british
    )
    assert "driven by the storm" not in british


def test_rule_3_11_ships_see_a_ship_the_storm_scatters_among_them() -> None:
    """3.11 with 5.1: a ship scattered into another tactical area is seen
    there by the ships it holds (and the French ship, scattered in her turn,
    is seen leaving by the British one that has just come)."""
    w = world([ship("BR1SL", sea("SOC", 1)), ship("FR1SL", sea("SOC", 2))])
    ts = run(w, ctx=_storm(2, at_sea=100))
    (seen,) = events_of(ts, "storm_arrived")
    assert (
        seen.ships == ("BR1SL",) and seen.witnesses == ("FR1SL",) and seen.location == "SOC (tactical area 2)"
    )
    (left,) = [e for e in events_of(ts, "scattered") if e.ships == ("FR1SL",)]
    assert left.witnesses == ("BR1SL",)


def test_rule_3_11_her_own_player_reads_a_scattering_and_the_arrival_as_one_line() -> None:
    """3.11 with 5.1: the storm scatters BR1SL into tactical area 2, where FR1SL lies.  Her
    player learns it once: where she went, whom she fell in with, and that she lies to
    leeward (6.9: a ship arriving takes the leeward end), not a second line telling the
    same move as an arrival."""
    w = world(
        [
            ship("BR1SL", sea("SOC", 1), commander="nelson"),
            ship("FR1SL", sea("SOC", 2), commander="villeneuve"),
        ]
    )
    ts = run(w, ctx=_storm(2, at_sea=100))
    assert ts.world.ships["BR1SL"].location == AtSea("SOC", 2)
    british = _report("nelson", w, ts)
    lines = [line for line in british.splitlines() if "BR1SL" in line and "storm struck" not in line]
    assert len(lines) == 1, british
    assert lines[0].endswith(
        "BR1SL was scattered by the storm to tactical area 2, where she fell in with the French ship"
        " of the line FR1SL, to leeward of her: she held the weather gauge."
    ), british
    assert "driven by the storm" not in british


def test_rule_3_11_a_ship_the_storm_moves_into_empty_waters_is_seen_by_nobody() -> None:
    """3.11: nobody there, nothing observed; the storm's own event tells her
    player where she went."""
    w = world([ship("BR1SL", port("Martinique"))])
    ts = run(w, ctx=_storm(1, blown_out=100))
    assert ts.world.ships["BR1SL"].location == AtSea("SOC", 1)
    assert not events_of(ts, "storm_arrived")
    assert events_of(ts, "blown_out_to_sea")[0].data["to_tactical"] == 1


def test_rule_3_11_a_ship_driven_into_the_harbor_was_seen_by_the_whole_port() -> None:
    """3.11 with 5.1 ("the same port (even if one is in the harbor and the
    other is in the coastal waters)"): the ships in the harbor saw her driven
    in, in the storm's own event; no second sighting."""
    w = world(
        [ship("BR1SL", port("Dominica")), ship("BR2SL", port("Dominica", True))], winds(Wind(S, MODERATE))
    )
    ts = run(w, ctx=_storm(1, driven=100))
    assert ts.world.ships["BR1SL"].location == InPort("Dominica", True)
    assert events_of(ts, "driven_into_port")[0].witnesses == ("BR2SL",)
    assert not events_of(ts, "storm_arrived")
