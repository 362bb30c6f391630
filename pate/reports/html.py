"""The HTML report: one self-contained page (inline CSS and SVG, no external
resources) with the event report and the position report of rule 3.11."""

from __future__ import annotations

from html import escape

from pate.core.intel.model import PlayerKnowledge, ShipReport
from pate.core.world.geography import WorldMap
from pate.core.world.ships import ShipType
from pate.reports.events import Told, told_events
from pate.reports.intel import intelligence_items
from pate.reports.minister import minister_sections
from pate.reports.picture import area_picture
from pate.reports.summary import summary_lines
from pate.reports.svg import area_legend, overview_maps, sea_area_svg, state_color
from pate.reports.text import header_line, report_groups
from pate.reports.words import (
    NEXT_PEACE,
    PEACE_TURN,
    ids_text,
    location_text,
    report_title,
    supplies_text,
    visible_text,
)

CSS = """
:root{--ink:#1d2733;--muted:#5f6b7a;--paper:#fbf8f1;--card:#fff;--line:#e3dccb;--sea:#d7e8f2;
--accent:#27569b}
*{box-sizing:border-box}
body{margin:0;background:var(--paper);color:var(--ink);font:16px/1.5 Georgia,"Times New Roman",serif}
header{background:#14263d;color:#f4efe2;padding:1.4rem 2rem}
header h1{margin:0;font-size:1.7rem;letter-spacing:.04em}
header p{margin:.3rem 0 0;color:#cdd6e2}
nav{display:flex;gap:1.2rem;padding:.6rem 2rem;background:#20364f}
nav a{color:#f4efe2;text-decoration:none;font:14px system-ui,sans-serif}
nav a:hover{text-decoration:underline}
main{max-width:1100px;margin:0 auto;padding:1rem 1.5rem 3rem}
h2{border-bottom:2px solid var(--line);padding-bottom:.3rem}
ol.events{list-style:none;padding:0;margin:0}
ol.events>li{display:grid;grid-template-columns:3.4rem 7.2rem 1fr;gap:0 .6rem;padding:.4rem .2rem;
border-bottom:1px solid var(--line)}
ol.events>li:last-child{border-bottom:0}
ol.events .n{text-align:right;color:var(--muted);font-variant-numeric:tabular-nums}
.phase{font:11px/2 system-ui,sans-serif;text-transform:uppercase;letter-spacing:.04em;color:var(--muted)}
ol.events>li[data-kind=battle]{background:#f6ece4;border-left:4px solid #b03a2e}
ol.events>li[data-kind=captured],ol.events>li[data-kind=sunk],ol.events>li[data-kind=foundered]{background:#fbf0ee}
ol.events ul.detail{grid-column:3;margin:.3rem 0 0;padding-left:1.1rem;font-size:.92rem;color:#33475b}
.area{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:1rem 1.2rem;
margin:1.2rem 0;box-shadow:0 1px 3px rgba(0,0,0,.05)}
.area h3{margin:.2rem 0}
.wind{font-style:italic;color:var(--muted);margin:.1rem 0 .6rem}
.mapwrap{display:flex;flex-wrap:wrap;gap:1rem;align-items:flex-start}
.growable{flex:1 1 420px;max-width:600px;display:block;cursor:zoom-in}
.growable svg{display:block;width:100%;height:auto}
.grow{position:absolute;opacity:0;width:1px;height:1px;margin:0}
.grow-hint{display:block;font-size:.85rem;color:var(--muted);margin:.2rem 0}
.grow:checked+.growable{flex-basis:100%;max-width:none;overflow-x:auto;cursor:zoom-out}
.grow:checked+.growable svg{width:max(100%,800px);max-width:none}
.overview .growable{max-width:none}
.overview .grow:checked+.growable svg{width:max(100%,1600px)}
.grow:focus-visible+.growable{outline:3px solid #1f618d;outline-offset:2px}
.grow+.growable .when-big,.grow:checked+.growable .when-small{display:none}
.grow:checked+.growable .when-big{display:block}
ol.legend{flex:1 1 260px;margin:0;padding-left:1.4rem;font-size:.93rem}
.ships{display:grid;grid-template-columns:repeat(auto-fill,minmax(330px,1fr));gap:.9rem;margin-top:.8rem}
.ship{border:1px solid var(--line);border-left:5px solid var(--flag,var(--accent));
border-radius:8px;padding:.7rem .9rem;background:#fffdf8}
.ship h4{margin:0 0 .4rem;font-size:1.02rem}
.ship dl{display:grid;grid-template-columns:auto 1fr auto 1fr;gap:.1rem .6rem;margin:0;font-size:.92rem}
.ship dt{color:var(--muted)}
.ship dd{margin:0}
.ship p{margin:.35rem 0 0;font-size:.92rem}
.ship p b{font-weight:600}
.inactive{opacity:.7}
.meter{display:inline-block;width:60px;height:8px;background:#eee;border-radius:4px;
vertical-align:middle;margin-left:4px}
.meter i{display:block;height:100%;border-radius:4px;background:#c0392b}
.seamap text{font-family:system-ui,sans-serif}
.overview svg{border:1px solid var(--line);border-radius:8px;margin:.5rem 0}
.seamap .sea{fill:var(--sea);stroke:#8fb3c9;stroke-width:2}
.seamap .code{font-size:64px;fill:#b5cfdf;font-weight:700}
.seamap .nb{font-size:13px;fill:#33475b}
.seamap .wind{font-size:13px;fill:#33475b;font-style:italic}
.seamap .port{fill:#d9c9a3;stroke:#8a7650;stroke-width:2}
.seamap .pl{font-size:12px;fill:#5b4a2b}
.seamap .ta{fill:rgba(255,255,255,.45);stroke:#9bbad0;stroke-dasharray:4 3}
.seamap .cnt{font-size:11px;fill:#1d2733;font-weight:600}
.seamap .ref{font-size:10px;fill:#5f6b7a}
.seamap .own path{stroke:#111;stroke-width:1.5}
.seamap .approx path{opacity:.55}
.seamap .windarrow line{stroke:#33475b;stroke-width:2}
.seamap .windarrow polygon{fill:#33475b}
ul.intel li{margin:.3rem 0}
footer{color:var(--muted);font-size:.85rem;text-align:center;padding:1rem}
body{overflow-wrap:anywhere}
svg{max-width:100%}
@media (max-width:600px){
header{padding:1rem}
nav{flex-wrap:wrap;gap:.3rem 1rem;padding:.5rem 1rem}
main{padding:.6rem .6rem 2rem}
.area{padding:.7rem .6rem}
.growable{flex:1 1 100%;min-width:0}
ol.legend{flex-basis:100%}
.ships{grid-template-columns:1fr}
.ship dl{grid-template-columns:auto 1fr}
ol.events>li{grid-template-columns:2rem 1fr}
ol.events .said,ol.events ul.detail{grid-column:2}
}
"""


def _meter(value: int) -> str:
    width = max(0, min(5, value)) * 20
    return f'<span class="meter" title="{value} of 5"><i style="width:{width}%"></i></span>'


def ship_card(k: PlayerKnowledge, world_map: WorldMap, r: ShipReport) -> str:
    """A ship report with the fields of samples 2.3 and 2.4."""
    transport = r.type is ShipType.TR
    cells = [
        ("Commander", r.commander or "none"),
        ("Deputy", r.deputy or "none"),
        ("Location", location_text(world_map, r.location)),
        ("Base", r.base),
        ("Quality", r.quality),
        ("Experience", str(r.experience)),
        ("Morale", str(r.morale)),
        ("Stores", str(r.stores)),
        ("Crew", str(r.crew)),
        ("Capacity" if transport else "Marines", str(r.capacity if transport else r.marines)),
    ]
    dl = "".join(f"<dt>{escape(a)}:</dt><dd>{escape(b)}</dd>" for a, b in cells)
    dl += f"<dt>Hull Damage:</dt><dd>{r.hull}{_meter(r.hull)}</dd>"
    dl += f"<dt>Rigging Damage:</dt><dd>{r.rigging}{_meter(r.rigging)}</dd>"
    extra: list[tuple[str, str]] = []
    if transport:
        cargo = [*r.carrying, *([supplies_text(r.supplies)] if r.supplies else [])]
        extra.append(("Carrying", ", ".join(cargo) or "nothing"))
    if not r.active:
        extra.append(("Status", "inactive (laid up)"))
    if r.attached_to:
        extra.append(("Attached To", r.attached_to))
    if r.attached:
        extra.append(("Attached Ships", ids_text(r.attached)))
    if r.visible:
        extra.append(("Ships Visible", visible_text(r)))
    if r.land_units:
        extra.append(("Land Units Visible", ", ".join(r.land_units)))
    paras = "".join(f"<p><b>{escape(a)}</b> {escape(b)}</p>" for a, b in extra)
    cls = "ship" if r.active else "ship inactive"
    return (
        f'<div class="{cls}" id="ship-{escape(r.id)}" data-ship="{escape(r.id)}"'
        f' style="--flag:{state_color(r.state)}">'
        f"<h4>{escape(report_title(r))}</h4><dl>{dl}</dl>{paras}</div>"
    )


def _area_section(k: PlayerKnowledge, world_map: WorldMap, key: str, reports: list[ShipReport]) -> str:
    cards = "".join(ship_card(k, world_map, r) for r in reports)
    if key in ("atlantic", "inactive"):
        title = "Atlantic Ocean" if key == "atlantic" else "Ships laid up"
        head = f'<article class="area" id="sea-{key}"><h3>{title}</h3>'
        return f'{head}<div class="ships">{cards}</div></article>'
    pic = area_picture(k, world_map, key)
    legend = "".join(
        f'<li id="icon-{escape(key)}-{n}">{escape(caption)}</li>' for n, _, _, caption in area_legend(k, pic)
    )
    wind = f'<p class="wind">{escape(pic.wind)}</p>' if pic.wind else ""
    return (
        f'<article class="area" id="sea-{escape(key)}" data-area="{escape(key)}">'
        f"<h3>Sea Area map - {escape(pic.name)} ({escape(key)})</h3>{wind}"
        f'<div class="mapwrap">{_growable(key, sea_area_svg(k, world_map, key))}'
        f'<ol class="legend">{legend}</ol></div>'
        f'<div class="ships">{cards}</div></article>'
    )


def _growable(key: str, svg: str) -> str:
    """A map a click (or Space) opens large, as wide as the page or wider, scrolling sideways in
    its box on a phone, and closes again: words 7 px tall on a 390 px screen become readable.
    A checkbox and its label, as the report runs no script (the desk shows it sandboxed)."""
    box = f"grow-{escape(key)}"
    return (
        f'<input type="checkbox" class="grow" id="{box}"><label class="growable" for="{box}">{svg}'
        '<span class="grow-hint when-small">Open the map large</span>'
        '<span class="grow-hint when-big">Make the map small again</span></label>'
    )


def _event_item(told: Told) -> str:
    sub = "".join(f"<li>{escape(line)}</li>" for line in told.details)
    return (
        f'<li data-kind="{escape(told.kind)}" data-phase="{escape(told.phase)}">'
        f'<span class="n">{escape(told.label)}.</span>'
        f'<span class="phase">{escape(told.phase.replace("_", " "))}</span>'
        f'<span class="said">{escape(told.text)}</span>'
        + (f'<ul class="detail">{sub}</ul>' if sub else "")
        + "</li>"
    )


def _events_section(k: PlayerKnowledge, world_map: WorldMap) -> str:
    if k.initial:
        return (
            '<section id="events"><h2>Start of the campaign</h2>'
            f"<p>Your ships at the start of turn {k.next_turn}.</p></section>"
        )
    items = "".join(_event_item(told) for told in told_events(k, world_map))
    return (
        f'<section id="events"><h2>Event report - turn {k.turn}</h2>'
        + (f"<p>Turn {k.turn} was {escape(PEACE_TURN)}.</p>" if k.peace else "")
        + (f'<ol class="events">{items}</ol>' if items else "<p>No events observed.</p>")
        + "</section>"
    )


def render_html(k: PlayerKnowledge, world_map: WorldMap) -> str:
    title = f"Start of campaign - {k.player_name}" if k.initial else f"Turn {k.turn} - {k.player_name}"
    body: list[str] = [
        f"<header><h1>Placed Alongside the Enemy</h1><p>{escape(header_line(k))}</p></header>",
        '<nav><a href="#summary">Summary</a><a href="#events">Events</a><a href="#positions">Positions</a>'
        '<a href="#intelligence">Intelligence</a><a href="#overview">Overview</a></nav><main>',
    ]
    summary = summary_lines(k, world_map)
    if summary:
        has_legend = len(summary) > 1 and summary[1].startswith("(")  # only with a squadron (4.2)
        rest = summary[2:] if has_legend else summary[1:]
        items = "".join(f"<li>{escape(line.strip())}</li>" for line in rest)
        legend = f'<p class="legend">{escape(summary[1])}</p>' if has_legend else ""
        body.append(
            f'<section id="summary"><h2>Summary</h2><p>{escape(summary[0].removeprefix("SUMMARY - "))}</p>'
            f'{legend}<ul class="summary">{items}</ul></section>'
        )
    body.append(_events_section(k, world_map))
    sections = minister_sections(k, world_map)
    if sections:
        parts = "".join(
            f"<h3>{escape(heading)}</h3><ul>{''.join(f'<li>{escape(x.strip())}</li>' for x in lines)}</ul>"
            for heading, lines in sections
        )
        body.append(f'<section id="minister"><h2>Naval minister\'s report</h2>{parts}</section>')
    body.append(f'<section id="positions"><h2>Position report - start of turn {k.next_turn}</h2>')
    if k.next_peace:
        body.append(f"<p>Turn {k.next_turn} {escape(NEXT_PEACE)}.</p>")
    body += [_area_section(k, world_map, key, reports) for key, reports in report_groups(k, world_map)]
    if not k.ships:
        body.append("<p>You command no ships.</p>")
    body.append("</section>")
    lis = "".join(
        f'<li data-kind="{escape(kind)}">{escape(text)}</li>'
        for kind, text in intelligence_items(k, world_map)
    )
    if k.lost:
        lis += f'<li class="lost">Lost during the turn: {escape(ids_text(k.lost))}.</li>'
    body.append(
        '<section id="intelligence"><h2>Intelligence</h2>'
        + (f'<ul class="intel">{lis}</ul>' if lis else "<p>No reports.</p>")
        + "</section>"
    )
    maps = "".join(
        f'<div class="overview">{_growable(which.value, svg)}</div>'
        for which, svg in overview_maps(k, world_map)
    )
    body.append(f'<section id="overview"><h2>Overview</h2>{maps or "<p>No ships on the maps.</p>"}</section>')
    body.append("</main><footer>PATE - Napoleonic Wars OnLine naval module</footer>")
    return (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(title)}</title><style>{CSS}</style></head><body>{''.join(body)}</body></html>\n"
    )
