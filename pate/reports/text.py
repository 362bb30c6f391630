"""Plain-text reports (rule 3.11): the event report and the position report,
with ship reports laid out exactly as the samples of rules 2.3 and 2.4."""

from __future__ import annotations

from pate.core.intel.model import PlayerKnowledge, ShipReport
from pate.core.world.geography import Direction, WorldMap
from pate.core.world.ships import InAtlantic, ShipType
from pate.reports.events import event_lines
from pate.reports.intel import intelligence_items
from pate.reports.picture import AreaPicture, area_picture, areas_shown, icon_caption, spot_title
from pate.reports.words import (
    ids_text,
    location_text,
    map_area,
    report_title,
    state_name,
    visible_text,
)


def ship_report_lines(k: PlayerKnowledge, world_map: WorldMap, r: ShipReport) -> list[str]:
    """One ship or transport group report, line for line as samples 2.3/2.4."""
    transport = r.type is ShipType.TR
    lines = [
        f"Commander: {r.commander or 'none'}\t\tDeputy: {r.deputy or 'none'}",
        f"Location: {location_text(world_map, r.location)}\t\tBase: {r.base}",
        f"Quality: {r.quality}\tExperience: {r.experience}\tMorale: {r.morale}\tStores: {r.stores}",
        f"Crew: {r.crew}\t{f'Capacity: {r.capacity}' if transport else f'Marines: {r.marines}'}"
        f"\tHull Damage: {r.hull}\tRigging Damage: {r.rigging}",
    ]
    if transport:
        cargo = [*r.carrying, *([f"{r.supplies} supplies"] if r.supplies else [])]
        lines.append(f"Carrying: {', '.join(cargo) if cargo else 'nothing'}")
    if not r.active:
        lines.append("Status: inactive (laid up; no reports, rule 2.6)")
    if r.attached_to:
        lines.append(f"Attached To {r.attached_to}")
    if r.attached:
        lines.append(f"Attached Ships {ids_text(r.attached)}")
    if r.visible:
        lines.append(f"Ships Visible {visible_text(r)}")
    if r.land_units:
        lines.append(f"Land Units Visible {', '.join(r.land_units)}")
    return lines


def area_map_lines(k: PlayerKnowledge, pic: AreaPicture) -> list[str]:
    """The sea area map of rule 1.6, in words."""
    lines = [f"Sea Area map - {pic.name} ({pic.code})"]
    if pic.wind:
        lines.append(pic.wind)
    around = [f"{d.value.title()}: {', '.join(pic.neighbours[d])}" for d in Direction if pic.neighbours[d]]
    if around:
        lines.append("   ".join(around))
    if pic.ports:
        lines.append("Ports: " + ", ".join(name for name, _ in pic.ports))
    for spot in pic.spots:
        captions = "; ".join(icon_caption(k, icon, spot.place) for icon in spot.icons)
        lines.append(f"  {spot_title(spot)}: {captions}")
    return lines


def report_groups(k: PlayerKnowledge, world_map: WorldMap) -> list[tuple[str, list[ShipReport]]]:
    """Ship reports grouped under the map of their sea area, then the
    Atlantic crossings, then ships laid up."""
    by_area: dict[str, list[ShipReport]] = {a: [] for a in areas_shown(k, world_map)}
    atlantic: list[ShipReport] = []
    inactive: list[ShipReport] = []
    for r in k.ships:
        area = map_area(world_map, r.location) if r.active else None
        if area is not None:
            by_area[area].append(r)
        elif isinstance(r.location, InAtlantic):
            atlantic.append(r)
        else:
            inactive.append(r)
    out: list[tuple[str, list[ShipReport]]] = list(by_area.items())
    if atlantic:
        out.append(("atlantic", atlantic))
    if inactive:
        out.append(("inactive", inactive))
    return out


def intelligence_lines(k: PlayerKnowledge, world_map: WorldMap) -> list[str]:
    """Sightings (5.2), reports (5.4) and what the shore told (5.3)."""
    lines = [f"- {text}" for _, text in intelligence_items(k, world_map)]
    if k.lost:
        lines.append(f"- Ships lost during the turn: {ids_text(k.lost)}.")
    return lines


def header_line(k: PlayerKnowledge) -> str:
    role = ", Naval Minister" if k.naval_minister else ""
    return f"Campaign {k.campaign} - report for {k.player_name} ({state_name(k, k.state)}{role})"


def render_text(k: PlayerKnowledge, world_map: WorldMap) -> str:
    out = ["PLACED ALONGSIDE THE ENEMY", header_line(k), ""]
    if k.initial:
        out += [f"START OF CAMPAIGN - positions at the start of turn {k.next_turn}", ""]
    else:
        out += [f"EVENT REPORT - turn {k.turn}", *(event_lines(k, world_map) or ["No events observed."]), ""]
    out += [f"POSITION REPORT - start of turn {k.next_turn}", ""]
    for key, reports in report_groups(k, world_map):
        if key == "atlantic":
            out += ["Atlantic Ocean", ""]
        elif key == "inactive":
            out += ["Ships laid up", ""]
        else:
            out += [*area_map_lines(k, area_picture(k, world_map, key)), ""]
        for r in reports:
            out += [report_title(r), "", *ship_report_lines(k, world_map, r), ""]
    if not k.ships:
        out += ["You command no ships.", ""]
    intel = intelligence_lines(k, world_map)
    if intel:
        out += ["INTELLIGENCE", *intel, ""]
    return "\n".join(out).rstrip() + "\n"
