"""The gitm.v1 calls a committed turn asks for, read off its stored events
(docs/gitm.md "A turn, call by call"): the transfers of the amphibious phases
(rules 3.6, 3.9), the cargo of transports lost or taken, and the shore
sightings of rule 5.3.  Every call carries a deterministic id made of the
campaign, the turn and what it is about, so a repeated call is the same call."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from pate.core.events import Event
from pate.core.world.geography import WorldMap
from pate.core.world.ships import ShipType
from pate.core.world.state import LandUnit, WorldState
from pate.gitmkit import limits
from pate.gitmkit.contract_data import data_digest
from services.platform.telemetry.logging import get_logger
from services.resolver.gitm import (
    Begin,
    CargoLoss,
    CargoMoves,
    CloseCampaign,
    Complete,
    OpenCampaign,
    Sightings,
)
from services.resolver.land_holds import ReleaseHold

log = get_logger("gitm-bridge")

BEGUN, COMPLETED = "transfer_begun", "transfer_completed"
# fixed for every helper (BRIEF): the core emits these when a transport group
# sinks, founders (lost) or is taken (captured) with cargo aboard
CARGO_LOST, CARGO_CAPTURED = "cargo_lost", "cargo_captured"
SCUTTLED = "scuttled"  # rule 2.7: a transport scuttled with cargo loses it too
SHORE = "shore_report"  # pate.core.rules.gathering.SHORE, rule 5.3
UNDONE = "transfer_undone"  # pate.core.rules.landsaga: "lost" when its transport is gone

# rule 2.5: groups divided or combined; their data["cargo_moves"] says what changed group
REGROUPED = ("group_divided", "groups_combined")

Call = Begin | Complete | ReleaseHold | CargoLoss | CargoMoves | Sightings | OpenCampaign | CloseCampaign


def open_call(
    world: WorldState, wmap: WorldMap, scenario: str, turns: int, campaign: str = ""
) -> OpenCampaign:
    """The campaign's land as it starts (docs/gitm.md "A campaign"): every unit
    in an on-GITM-map port's city or strategic square (rule 1.5) and aboard a
    transport group, and the stock of every such city and transport group, 0 too."""
    known = world.land_units
    units: list[tuple[LandUnit, str, str, bool]] = []
    stocks: list[tuple[str, str, int]] = []
    holders: list[tuple[str, str]] = []
    for name, port in sorted(world.ports.items()):
        if name not in wmap.ports or not wmap.ports[name].on_gitm_map:
            continue
        for uid, tactical in [(u, True) for u in port.garrison] + [(u, False) for u in port.strategic_units]:
            units.append((known.get(uid) or LandUnit(uid, uid[:2]), name, "", tactical))
        stocks.append((name, "", port.supplies))
        holders.append((name, port.controller))
    for ship in sorted(world.ships.values(), key=lambda s: s.id):
        for uid in ship.cargo.units:
            units.append((known.get(uid) or LandUnit(uid, uid[:2]), "", ship.id, False))
        if ship.type is ShipType.TR or ship.cargo.supplies:
            stocks.append(("", ship.id, ship.cargo.supplies))
    return OpenCampaign(
        campaign or world.campaign,
        scenario,
        turns,
        tuple(units),
        tuple(stocks),
        tuple(holders),
        data_digest(),
    )


def _state_of(ship: str, states: Mapping[str, str]) -> str:
    """Ship ids begin with their state's code (BR1TR) when PATE no longer has the ship."""
    return states.get(ship) or ship[:2]


def transfer_calls(
    campaign: str, turn: int, events: Iterable[Event], states: Mapping[str, str] | None = None
) -> list[Begin | Complete]:
    """The transfers at on-GITM-map ports (rule 1.5), in event order: every
    begin precedes its completion (the phases run in the order of rule 3.2)."""
    states = states or {}
    calls: list[Begin | Complete] = []
    for e in events:
        d = e.data
        if e.kind not in (BEGUN, COMPLETED) or not d.get("gitm"):
            continue
        if e.kind == BEGUN:
            units = tuple(str(u) for u in d["units"])
            transport = str(d["transport"])
            calls.append(
                Begin(
                    d["transfer"],
                    campaign,
                    turn,
                    d["port"],
                    transport,
                    d["direction"],
                    units,
                    int(d["supplies"]),
                    _state_of(transport, states),
                )
            )
        else:
            calls.append(Complete(d["transfer"], bool(d["cancelled"]), campaign))
    return calls


def loss_id(campaign: str, turn: int, transport: str) -> str:
    return f"{campaign}:{turn}:{transport}:cargo"


def cargo_calls(campaign: str, turn: int, events: Iterable[Event]) -> list[CargoLoss]:
    """One ReportCargoLoss per transport lost or taken with cargo aboard."""
    out: list[CargoLoss] = []
    seen: set[str] = set()
    for e in events:
        lost_undone = e.kind == UNDONE and bool(e.data.get("lost"))
        if (e.kind not in (CARGO_LOST, CARGO_CAPTURED, SCUTTLED) and not lost_undone) or not e.ships:
            continue
        d = e.data
        transport = str(d.get("transport") or e.ships[0])
        lid = f"{d['transfer']}:cargo" if lost_undone else loss_id(campaign, turn, transport)
        if lid in seen:  # one transport is lost once a turn
            continue
        units = tuple(str(u) for u in d.get("units", ()))
        supplies = max(0, int(d.get("supplies", 0)))
        if not units and not supplies:
            continue
        captured = e.kind == CARGO_CAPTURED
        captor = str(d.get("captor") or "") if captured else ""
        seen.add(lid)
        out.append(
            CargoLoss(
                lid,  # docs/gitm.md: an undone landing lost with its transport is told as <transfer_id>:cargo
                campaign,
                turn,
                transport,
                captured,
                units,
                supplies,
                captor,
            )
        )
    return out


def cargo_moves_call(campaign: str, turn: int, events: Iterable[Event]) -> CargoMoves | None:
    """One ReportCargoMoves for a turn whose divides and combines (rule 2.5)
    moved units or supplies between transport groups; None when none did."""
    moves = []
    for e in events:
        m = e.data.get("cargo_moves") if e.kind in REGROUPED else None
        if not isinstance(m, dict):
            continue
        units = tuple(str(u) for u in m.get("units", ()))
        supplies = max(0, int(m.get("supplies", 0)))
        if units or supplies:
            moves.append((str(m["from"]), str(m["to"]), units, supplies))
    if not moves:
        return None
    return CargoMoves(f"{campaign}:{turn}:cargo-moves", campaign, turn, tuple(moves))


def sightings_call(campaign: str, turn: int, events: Iterable[Event], world: WorldState | None) -> Sightings:
    """Rule 5.3: "Units in the strategic square (whether in the city tactical
    square or not) will receive reports of the ships in the port." One call a
    turn, even when nothing was seen (GITM then knows the turn was reported)."""
    ships = world.ships if world is not None else {}
    reports = []
    for e in events:
        if e.kind != SHORE:
            continue
        d = e.data
        seen = []
        for sid in sorted(str(s) for s in d.get("ships", ())):
            ship = ships.get(sid)
            seen.append((sid, ship.state if ship else sid[:2], ship.type.value if ship else ""))
        reports.append((str(d["port"]), str(d["for_state"]), tuple(seen)))
    return Sightings(f"{campaign}:{turn}:sightings", campaign, turn, within_limits(campaign, turn, reports))


Report = tuple[str, str, tuple[tuple[str, str, str], ...]]


def within_limits(campaign: str, turn: int, reports: Iterable[Report]) -> tuple[Report, ...]:
    """docs/gitm.md A17: an entry holds at most ``SHIPS_PER_ENTRY`` ships, the rest going in
    further entries of the same port and state, and a report at most ``SIGHTING_ENTRIES``
    entries; what lies beyond (more ships in port than any scenario has) is left out, with a
    warning, so that the report always fits in 4 MiB."""
    n = limits.SHIPS_PER_ENTRY
    split = [
        (port, state, ships[i : i + n])
        for port, state, ships in reports
        for i in range(0, max(len(ships), 1), n)
    ]
    if len(split) > limits.SIGHTING_ENTRIES:
        log.warning("gitm_sightings_capped", campaign=campaign, turn=turn, entries=len(split))
    return tuple(split[: limits.SIGHTING_ENTRIES])
