"""Rule cases for scuttling in a sea area (rule 4.10, recovered): the
friendly ship that must stay, and where the crew of the scuttled ship goes
(decisions: docs/rules/turn.md, "The friend that stays", "The crew at sea")."""

from __future__ import annotations

from pate.core.orders.model import AdminKind
from pate.core.world.ships import AtSea
from tests.cases.turn.turn_world import admin, events, move, only, run, sea, ship, world

S = AdminKind.SCUTTLE


def _refusals(result: object) -> list[str]:
    return [r["message"] for e in events(result, "admin_refused") for r in e.data["reasons"]]  # type: ignore[arg-type]


def test_rule_4_10_a_friend_ordered_to_sail_away_does_not_stay() -> None:
    """Recovered 4.10: "A ship may not be removed in a sea area unless at least one friendly
    ship that is not being removed stays". FR2SL is ordered to Rochefort the same turn: FR1SL
    is not scuttled, and the refusal names the friend that sails away."""
    w = world([ship("FR1SL", sea("BIS")), ship("FR2SL", sea("BIS"))])
    r = run(w, admin("FR1SL", S), move("FR2SL", port="Rochefort", harbor=True))
    assert "FR1SL" in r.state.ships
    assert not events(r, "scuttled")
    assert _refusals(r) == [
        "a ship may be scuttled in the Bay of Biscay only if a friendly ship stays there;"
        " FR2SL sails away this turn"
    ]
    # an ally's ship, perhaps unseen in another tactical area (5.1), is not named
    w = world([*w.ships.values(), ship("SP1SL", sea("BIS", 2))])
    r = run(w, admin("FR1SL", S), move("FR2SL", "IBC"), move("SP1SL", "IBC"))
    assert _refusals(r) == [
        "a ship may be scuttled in the Bay of Biscay only if a friendly ship stays there;"
        " FR2SL and an allied ship sail away this turn"
    ]


def test_rule_4_10_of_two_scuttled_beside_a_friend_sailing_away_one_stays() -> None:
    """Recovered 4.10, the play-test's case: FR1SL and FR2SL ordered scuttled in the Bay of
    Biscay, FR3FL to Rochefort. FR1SL goes while FR2SL is still there; FR2SL's own scuttling
    then has no friend that stays, and is refused: FR2SL stays, with FR1SL's crew aboard."""
    w = world([ship("FR1SL", sea("BIS")), ship("FR2SL", sea("BIS")), ship("FR3FL", sea("BIS"))])
    r = run(w, admin("FR1SL", S), admin("FR2SL", S), move("FR3FL", port="Rochefort", harbor=True))
    assert "FR1SL" not in r.state.ships
    assert r.state.ships["FR2SL"].location == AtSea("BIS", 1)
    assert only(r, "scuttled").data["aboard"] == "FR2SL"
    assert _refusals(r) == [
        "a ship may be scuttled in the Bay of Biscay only if a friendly ship stays there;"
        " FR3FL sails away this turn"
    ]


def test_rule_4_10_the_crew_of_a_ship_scuttled_at_sea_goes_aboard_the_friend_that_stays() -> None:
    """Recovered 4.10: "Crews return to the manpower pool at the end of the season after the
    removal" (decision: at sea they are taken aboard the friend that stays, one in the same
    tactical area first, who witnesses it; they are not added to her crew). SP1SL stays in
    tactical area 2, FR2SL in FR1SL's own tactical area: FR2SL takes the 600 crew and 150
    Marines."""
    w = world([ship("FR1SL", sea("BIS")), ship("SP1SL", sea("BIS", 2)), ship("FR2SL", sea("BIS"))])
    r = run(w, admin("FR1SL", S))
    scuttled = only(r, "scuttled")
    assert scuttled.data == {"crew": 600, "marines": 150, "units": [], "supplies": 0, "aboard": "FR2SL"}
    assert scuttled.witnesses == ("FR2SL",)
    assert r.state.ships["FR2SL"].crew == 600


def test_rule_4_10_a_friend_forced_away_later_in_the_turn_does_not_undo_the_scuttling() -> None:
    """Recovered 4.10 (decision): the check is made when the ship is scuttled, at the start of
    the turn. FR2SL, ordered to stay, is out of stores and is sent to a harbor in the supply
    phase (3.4): FR1SL stays scuttled, and her crew sails with FR2SL."""
    w = world([ship("FR1SL", sea("BIS")), ship("FR2SL", sea("BIS"), stores=0)])
    r = run(w, admin("FR1SL", S))
    assert only(r, "scuttled").data["aboard"] == "FR2SL"
    assert "FR1SL" not in r.state.ships
    assert only(r, "out_of_stores").data["homing"] is True
