"""Plain-text reports (rule 3.11): the event report and the position report,
with ship reports laid out exactly as the samples of rules 2.3 and 2.4."""

from __future__ import annotations

import textwrap

from pate.core.intel.model import PlayerKnowledge, ShipReport
from pate.core.world.geography import Direction, WorldMap
from pate.core.world.ships import AtSea, InAtlantic, ShipType
from pate.reports.events import event_lines
from pate.reports.intel import intelligence_items
from pate.reports.minister import minister_sections
from pate.reports.picture import AreaPicture, area_picture, areas_shown, icon_caption, spot_title
from pate.reports.summary import summary_lines
from pate.reports.words import (
    NEXT_PEACE,
    PEACE_TURN,
    ids_text,
    location_text,
    map_area,
    report_title,
    state_name,
    supplies_text,
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
        cargo = [*r.carrying, *([supplies_text(r.supplies)] if r.supplies else [])]
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
        lines.append(f"- Lost during the turn: {ids_text(k.lost)}.")
    return lines


def header_line(k: PlayerKnowledge) -> str:
    role = ", Naval Minister" if k.naval_minister else ""
    return f"Campaign {k.campaign} - report for {k.player_name} ({state_name(k, k.state)}{role})"


WIDTH = 100  # summary lines longer than this are wrapped


def _wrapped(line: str) -> list[str]:
    if len(line) <= WIDTH:
        return [line]
    return textwrap.wrap(line, WIDTH, subsequent_indent="    ", break_on_hyphens=False)


def compact_ship_line(k: PlayerKnowledge, world_map: WorldMap, r: ShipReport) -> str:
    """One ship on one line (the compact report)."""
    parts = [f"{r.quality}", f"exp {r.experience}", f"stores {r.stores}", f"crew {r.crew}"]
    if r.type is ShipType.TR:
        cargo = [*r.carrying, *([supplies_text(r.supplies)] if r.supplies else [])]
        parts += [f"capacity {r.capacity}", f"carrying {', '.join(cargo) if cargo else 'nothing'}"]
    else:
        parts.append(f"marines {r.marines}")
    if r.hull or r.rigging:
        parts.append(f"damage hull {r.hull} rigging {r.rigging}")
    if r.attached_to:
        parts.append(f"attached to {r.attached_to}")
    if not r.active:
        parts.append("laid up")
    name = f" {r.name}" if r.name and r.name != r.id else ""
    return f"  {r.id}{name} ({_spot_words(world_map, r)}): " + ", ".join(parts)


def _spot_words(world_map: WorldMap, r: ShipReport) -> str:
    """Where in its sea area's map a ship is (the compact report's heading
    names the sea area)."""
    loc = r.location
    if isinstance(loc, AtSea):
        return f"tactical area {loc.tactical}"
    return location_text(world_map, loc)


def render_text(k: PlayerKnowledge, world_map: WorldMap, *, compact: bool = False) -> str:
    """The two reports as text.  ``compact``: the summary, the events, one
    line a place and one line a ship, in place of the samples' blocks."""
    out = ["PLACED ALONGSIDE THE ENEMY", header_line(k), ""]
    summary = summary_lines(k, world_map)
    if summary:
        out += [*(w for line in summary for w in _wrapped(line)), ""]
    if k.initial:
        out += [f"START OF CAMPAIGN - positions at the start of turn {k.next_turn}", ""]
    else:
        title = f"EVENT REPORT - turn {k.turn}" + (f", {PEACE_TURN}" if k.peace else "")
        out += [*_wrapped(title), *(event_lines(k, world_map) or ["No events observed."]), ""]
    sections = minister_sections(k, world_map)
    if sections:
        out.append("NAVAL MINISTER'S REPORT")
        for heading, lines in sections:
            out += [heading, *lines]
        out.append("")
    out += [f"POSITION REPORT - start of turn {k.next_turn}", ""]
    if k.next_peace:
        out += [*_wrapped(f"Turn {k.next_turn} {NEXT_PEACE}."), ""]
    if compact:
        return _compact_positions(k, world_map, out)
    for key, reports in report_groups(k, world_map):
        if key == "atlantic":
            out += ["Atlantic Ocean", ""]
        elif key == "inactive":
            out += ["Ships laid up", ""]
        else:
            out += [*area_map_lines(k, area_picture(k, world_map, key)), ""]
        for r in reports:
            out += [report_title(r), "", *ship_report_lines(k, world_map, r), ""]
    return _end(k, world_map, out)


def _end(k: PlayerKnowledge, world_map: WorldMap, out: list[str]) -> str:
    if not k.ships:
        out += ["You command no ships.", ""]
    intel = intelligence_lines(k, world_map)
    if intel:
        out += ["INTELLIGENCE", *intel, ""]
    return "\n".join(out).rstrip() + "\n"


def _compact_positions(k: PlayerKnowledge, world_map: WorldMap, out: list[str]) -> str:
    for key, reports in report_groups(k, world_map):
        if key == "atlantic":
            out.append("Atlantic Ocean")
        elif key == "inactive":
            out.append("Ships laid up")
        else:
            pic = area_picture(k, world_map, key)
            out.append(f"{pic.name} ({pic.code})" + (f" - {pic.wind}" if pic.wind else ""))
            for spot in pic.spots:
                others = [icon for icon in spot.icons if icon.side != "own"]
                if others:
                    captions = "; ".join(icon_caption(k, icon, spot.place) for icon in others)
                    out.append(f"  {spot_title(spot)}: {captions}")
        out += [compact_ship_line(k, world_map, r) for r in reports]
        out.append("")
    return _end(k, world_map, out)
