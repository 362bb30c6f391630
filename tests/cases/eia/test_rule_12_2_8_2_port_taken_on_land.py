"""12.2.8.2 for a port taken on land: GITM's land game reports the city held by another state
(docs/gitm.md "Port holders", edition 3), and at the initial amphibious phase the port passes to
it through ``garrison.capture_port``, the one entry for a port changing hands: "If any enemy land
force occupies a port with hulks in it, all such are destroyed"; else one die per hulk."""

from __future__ import annotations

from dataclasses import replace

from pate.core.campaign import resolve_effective
from pate.core.codec import from_plain, to_plain
from pate.core.events import Phase
from pate.core.rules.captures import LandCapture
from pate.core.rules.landsaga import LandWord
from pate.core.rules.turn import resolve_turn
from tests.cases.eia.eia_world import eia_world, fleet
from tests.unit.combat.combat_world import CTX, HARBOR


def _hulks() -> list:  # type: ignore[type-arg]
    return [replace(s, hulk=True, active=False) for s in fleet("FR", 2, HARBOR)]


def test_rule_12_2_8_2_a_city_occupied_on_land_destroys_the_hulks() -> None:
    ctx = replace(CTX, land_captures=(LandCapture("Brest", "BR", occupied=True),))
    result = resolve_turn(ctx, eia_world(*_hulks()), {})
    assert result.state.ports["Brest"].controller == "BR"
    (taken,) = [e for e in result.events if e.kind == "port_captured"]
    assert taken.phase == Phase.INITIAL_AMPHIBIOUS and taken.data == {
        "port": "Brest",
        "from": "FR",
        "to": "BR",
    }
    fates = [e.data["fate"] for e in result.events if e.kind == "hulk_port_changed"]
    assert fates == ["destroyed", "destroyed"]
    assert not any(s.hulk for s in result.state.ships.values())


def test_rule_12_2_8_2_a_city_ceded_on_land_rolls_for_each_hulk_from_the_seeded_stream() -> None:
    ctx = replace(CTX, land_captures=(LandCapture("Brest", "BR", occupied=False),))
    first = resolve_turn(ctx, eia_world(*_hulks()), {})
    again = resolve_turn(ctx, eia_world(*_hulks()), {})
    fates = [e.data["fate"] for e in first.events if e.kind == "hulk_port_changed"]
    assert len(fates) == 2 and set(fates) <= {"destroyed", "transferred"}
    assert fates == [e.data["fate"] for e in again.events if e.kind == "hulk_port_changed"]
    kept = [s for s in first.state.ships.values() if s.hulk]
    assert all(s.state == "BR" for s in kept) and len(kept) == fates.count("transferred")


def test_a_city_gitm_gives_to_its_present_holder_changes_nothing() -> None:
    ctx = replace(CTX, land_captures=(LandCapture("Brest", "FR", occupied=True),))
    result = resolve_turn(ctx, eia_world(*_hulks()), {})
    assert not [e for e in result.events if e.kind in ("port_captured", "hulk_port_changed")]


def test_the_land_word_carries_the_captures_into_the_turn_and_through_a_replay() -> None:
    word = LandWord(captures=(LandCapture("Brest", "BR", occupied=True),))
    assert from_plain(LandWord, to_plain(word)) == word  # stored with the turn's inputs
    result = resolve_effective(CTX, eia_world(*_hulks()), {}, land_word=word)
    assert result.state.ports["Brest"].controller == "BR"
