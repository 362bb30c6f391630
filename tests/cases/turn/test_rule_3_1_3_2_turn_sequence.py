"""Rule cases for rules 3.1 and 3.2 as the phases of this area fill them: the
administrative pre-step of the repair phase, the end-of-turn step of the
final amphibious phase, and a whole turn of the training scenario."""

from __future__ import annotations

from dataclasses import replace

from pate.core.events import PHASE_ORDER, Phase
from pate.core.orders.model import AdminKind, Combat, CombatStance, Contact, ContactMode, ShipOrder
from pate.core.rules.turn import PHASES, resolve_turn
from pate.core.world.ships import Cargo
from pate.core.world.state import TurnKind
from pate.datafiles import load_scenario
from pate.engine.context import turn_context
from tests.cases.turn.turn_world import (
    admin,
    coastal,
    events,
    harbor,
    infantry,
    load,
    run,
    ship,
    unload,
    world,
)


def test_rule_3_1_each_turn_advances_the_campaign_and_takes_the_next_turns_kind() -> None:
    """3.1: "PATE is played as a sequence of turns. A campaign consists of 15 turns"."""
    kinds = (TurnKind.CAMPAIGN,) * 14 + (TurnKind.PEACE,)
    w = world([ship("FR1SL", harbor("Brest"))], turn=14, turn_kinds=kinds)
    after = run(w).state
    assert (after.turn, after.kind, after.turns) == (15, TurnKind.PEACE, 15)


def test_rule_3_2_phases_keep_the_book_order_with_the_administrative_steps_inside() -> None:
    """3.2: "the repair phase, supply phase, initial amphibious phase, combat phase, movement phase,
    final amphibious phase, and intelligence phase." The start-of-turn administrative orders are
    a pre-step of the repair phase, the end-of-turn ones a post-step of the final amphibious
    phase (docs/rules/turn.md); no phase is added or moved."""
    assert [p for p, _ in PHASES] == list(PHASE_ORDER)
    ships = [
        ship("FR1SL", harbor("Brest"), rigging=2),
        ship("FR2SL", harbor("Brest"), crew=500),
        ship("FR1TR", harbor("Brest")),
        ship("FR2TR", harbor("Brest")),
    ]
    w = world(ships, ports={"Brest": {"garrison": ("FR1IN",)}}, units=[infantry("FR1IN", 1000)])
    orders = (
        admin("FR1SL", AdminKind.TRANSFER_CREW, target="FR2SL", amount=10),
        load("FR1TR", "FR1IN"),
        admin("FR2TR", AdminKind.COMBINE, target="FR1TR"),
    )
    r = run(w, *orders)
    kinds = [(e.phase, e.kind) for e in r.events]
    assert kinds.index((Phase.REPAIR, "crew_transferred")) < kinds.index((Phase.REPAIR, "repaired"))
    assert kinds.index((Phase.FINAL_AMPHIBIOUS, "transfer_completed")) < kinds.index(
        (Phase.FINAL_AMPHIBIOUS, "groups_combined")
    )
    order = [PHASE_ORDER.index(e.phase) for e in r.events]
    assert order == sorted(order)
    assert r.state.ships["FR1TR"].cargo.units == ("FR1IN",)


def test_rule_3_6_3_9_the_training_scenario_unloads_at_portsmouth() -> None:
    """3.6, 3.9 and 1.5 on the training scenario: the Portsmouth transports put BR1IN back into
    GITM; the turn resolves the same way twice."""
    ctx = turn_context()
    w = load_scenario("training").world
    orders = {"BR1TR": unload("BR1TR", "BR1IN")}
    first, second = resolve_turn(ctx, w, orders), resolve_turn(ctx, w, orders)
    assert first == second
    assert first.state.ships["BR1TR"].cargo == Cargo()
    assert "BR1IN" in first.state.ports["Portsmouth"].garrison
    done = [e for e in first.events if e.kind == "transfer_completed"]
    assert [(e.data["transfer"], e.data["gitm"], e.data["cancelled"]) for e in done] == [
        (f"{w.campaign}:{w.turn}:BR1TR:1", True, False)
    ]


def test_rule_6_12_no_battle_on_a_peace_or_truce_turn() -> None:
    """6.12: "During peace and truce turns, a ship can move to any sea area or port it
    desires"; decided (docs/rules/combat.md): on such a turn no state fights another, so hostile
    ships that would fight on a campaign turn (both engage, in the same coastal waters) do not."""

    engage = Combat(stance=CombatStance.ENGAGE)
    pursue = Contact(mode=ContactMode.PURSUE)
    w = world([ship("FR1FL", coastal("Brest")), ship("BR1SL", coastal("Brest"))])
    orders = [ShipOrder(s, combat=engage, contact=pursue) for s in ("FR1FL", "BR1SL")]
    assert events(run(w, *orders), "battle")  # a campaign turn: they fight
    peace = run(replace(w, kind=TurnKind.PEACE), *orders)
    assert not [e for e in peace.events if e.phase is Phase.COMBAT]
    assert set(peace.state.ships) == {"FR1FL", "BR1SL"}
