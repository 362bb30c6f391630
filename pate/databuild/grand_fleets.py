"""The fleets, players and alliances of the grand campaign of 1805: the tables
:mod:`pate.databuild.grand_scenario` turns into ``data/scenarios/grand1805.toml``.

Strengths are ships of the line and frigates at roughly their 1805 numbers
(sources and totals in ``docs/rules/world.md``).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Fleet:
    """One squadron: where it lies and what it holds."""

    state: str
    where: dict[str, object]  # location keys: port/harbor or sea_area/tactical
    base: str
    fl: int = 0
    sl: int = 0
    fr: int = 0
    tr: tuple[int, ...] = ()  # capacity of each transport group
    quality: str = "Average"
    experience: int = 0
    commander: str | None = None
    active: bool = True
    attach: bool = True
    note: str = ""


def harbor(port: str) -> dict[str, object]:
    return {"port": port, "harbor": True}


def coast(port: str) -> dict[str, object]:
    return {"port": port, "harbor": False}


def sea(area: str, tactical: int = 1) -> dict[str, object]:
    return {"sea_area": area, "tactical": tactical}


B = "BR"
FLEETS: tuple[Fleet, ...] = (
    # --- Great Britain: about 125 of the line and 90 frigates (James, Naval History, 1805 lists)
    Fleet(
        B,
        sea("TYR", 1),
        "Malta",
        fl=3,
        sl=10,
        fr=5,
        quality="Very Good",
        experience=18,
        commander="nelson",
        note="Mediterranean fleet off Sardinia",
    ),
    Fleet(
        B,
        coast("Brest"),
        "Plymouth",
        fl=5,
        sl=16,
        fr=4,
        quality="Good",
        experience=14,
        commander="cornwallis",
        note="Channel fleet, close blockade of Brest",
    ),
    Fleet(
        B,
        sea("ECH", 2),
        "Plymouth",
        fr=4,
        quality="Very Good",
        experience=16,
        commander="cornwallis",
        attach=False,
        note="Channel frigates",
    ),
    Fleet(
        B,
        sea("NOS", 1),
        "Chatham",
        fl=1,
        sl=10,
        fr=6,
        quality="Good",
        experience=10,
        commander="keith",
        note="North Sea fleet watching the Texel",
    ),
    Fleet(
        B,
        coast("Boulogne"),
        "Chatham",
        sl=2,
        fr=6,
        quality="Good",
        experience=12,
        commander="keith",
        note="Downs squadron watching the Boulogne flotilla",
    ),
    Fleet(
        B,
        sea("IBC", 1),
        "Plymouth",
        fl=3,
        sl=10,
        fr=4,
        quality="Good",
        experience=12,
        commander="calder",
        note="off Ferrol",
    ),
    Fleet(
        B,
        sea("SOA", 1),
        "Gibraltar",
        fl=2,
        sl=6,
        fr=4,
        quality="Good",
        experience=12,
        commander="collingwood",
        note="off Cadiz",
    ),
    Fleet(
        B,
        sea("GOL", 1),
        "Malta",
        fr=3,
        quality="Very Good",
        experience=18,
        commander="nelson",
        attach=False,
        note="frigates watching Toulon",
    ),
    Fleet(B, harbor("Malta"), "Malta", sl=1, fr=3, quality="Good", experience=10, commander="nelson"),
    Fleet(
        B,
        harbor("Gibraltar"),
        "Gibraltar",
        sl=1,
        fr=3,
        tr=(4000,),
        quality="Good",
        experience=10,
        commander="collingwood",
    ),
    Fleet(
        B,
        harbor("Barbados"),
        "Antigua",
        sl=5,
        fr=6,
        quality="Good",
        experience=10,
        commander="cochrane",
        note="Leeward Islands station",
    ),
    Fleet(
        B,
        harbor("Port Royal"),
        "Port Royal",
        sl=3,
        fr=6,
        quality="Good",
        experience=10,
        commander="cochrane",
        note="Jamaica station",
    ),
    Fleet(B, harbor("Halifax"), "Halifax", sl=1, fr=6, quality="Good", experience=8, note="North America"),
    Fleet(B, harbor("Cork"), "Cork", sl=2, fr=7, tr=(5000,), quality="Good", experience=8, note="Ireland"),
    Fleet(B, harbor("Portsmouth"), "Portsmouth", fr=8, tr=(10000, 8000), quality="Good", experience=8),
    Fleet(B, harbor("Plymouth"), "Plymouth", fr=7, quality="Good", experience=8),
    Fleet(B, harbor("Chatham"), "Chatham", fr=7, quality="Good", experience=8),
    Fleet(B, harbor("Portsmouth"), "Portsmouth", fl=4, sl=10, active=False, note="in ordinary"),
    Fleet(B, harbor("Plymouth"), "Plymouth", fl=3, sl=8, active=False, note="in ordinary"),
    Fleet(B, harbor("Chatham"), "Chatham", fl=4, sl=10, active=False, note="in ordinary"),
    # --- France: about 46 of the line and 35 frigates
    Fleet(
        "FR",
        harbor("Toulon"),
        "Toulon",
        sl=11,
        fr=6,
        tr=(6000,),
        experience=3,
        commander="villeneuve",
        note="Toulon fleet",
    ),
    Fleet("FR", harbor("Toulon"), "Toulon", fl=1, active=False),
    Fleet(
        "FR",
        harbor("Brest"),
        "Brest",
        fl=2,
        sl=15,
        fr=5,
        tr=(8000,),
        experience=1,
        commander="ganteaume",
        note="Brest fleet",
    ),
    Fleet("FR", harbor("Brest"), "Brest", fl=1, sl=3, active=False),
    Fleet(
        "FR",
        coast("Rochefort"),
        "Rochefort",
        fl=1,
        sl=4,
        fr=3,
        experience=4,
        commander="allemand",
        note="Rochefort squadron",
    ),
    Fleet("FR", harbor("Ferrol"), "Rochefort", sl=5, fr=2, experience=3, note="Gourdon's division"),
    Fleet("FR", harbor("Lorient"), "Lorient", fl=1, active=False),
    Fleet("FR", harbor("Lorient"), "Lorient", fr=2, experience=2),
    Fleet("FR", harbor("Antwerp"), "Antwerp", sl=2, active=False, note="building"),
    Fleet(
        "FR",
        harbor("Boulogne"),
        "Boulogne",
        fr=4,
        tr=(20000, 20000, 20000),
        experience=1,
        attach=False,
        note="invasion flotilla",
    ),
    Fleet("FR", harbor("Cherbourg"), "Cherbourg", fr=2, experience=2, attach=False),
    Fleet("FR", harbor("Le Havre"), "Le Havre", fr=2, experience=2, attach=False),
    Fleet("FR", harbor("St Malo"), "St Malo", fr=2, experience=2, attach=False),
    Fleet("FR", harbor("Genoa"), "Toulon", fr=2, experience=2, attach=False),
    Fleet("FR", harbor("Martinique"), "Martinique", fr=2, experience=4, attach=False),
    Fleet("FR", harbor("Guadeloupe"), "Guadeloupe", fr=1, experience=4),
    Fleet("FR", harbor("Cap Francais"), "Cap Francais", fr=1, experience=4),
    Fleet("FR", harbor("Cayenne"), "Cayenne", fr=1, experience=4),
    # --- Spain: about 40 of the line and 20 frigates
    Fleet(
        "SP",
        harbor("Cadiz"),
        "Cadiz",
        fl=3,
        sl=10,
        fr=4,
        tr=(5000,),
        quality="Fair",
        experience=1,
        commander="gravina",
        note="Cadiz squadron",
    ),
    Fleet("SP", harbor("Cadiz"), "Cadiz", fl=2, sl=3, active=False),
    Fleet("SP", harbor("Ferrol"), "Ferrol", fl=1, sl=6, fr=2, quality="Fair", experience=1),
    Fleet("SP", harbor("Ferrol"), "Ferrol", fl=1, sl=2, active=False),
    Fleet(
        "SP",
        harbor("Cartagena"),
        "Cartagena",
        fl=2,
        sl=6,
        fr=3,
        quality="Poor",
        experience=1,
        commander="salcedo",
        note="Cartagena squadron",
    ),
    Fleet("SP", harbor("Port Mahon"), "Port Mahon", fr=2, quality="Fair", experience=1, attach=False),
    Fleet("SP", harbor("Havana"), "Havana", fl=1, sl=3, fr=3, quality="Fair", experience=2),
    Fleet("SP", harbor("Cartagena de Indias"), "Cartagena de Indias", fr=2, quality="Fair", experience=2),
    Fleet("SP", harbor("Veracruz"), "Veracruz", fr=2, quality="Fair", experience=2),
    Fleet("SP", harbor("San Juan"), "San Juan", fr=1, quality="Fair", experience=2),
    Fleet("SP", harbor("La Guaira"), "La Guaira", fr=1, quality="Fair", experience=2),
    # --- Russia: about 42 of the line (Baltic, Black Sea, Senyavin in the Mediterranean)
    Fleet(
        "RU",
        harbor("Kronstadt"),
        "Kronstadt",
        fl=3,
        sl=6,
        fr=5,
        experience=3,
        commander="khanykov",
        note="Baltic fleet",
    ),
    Fleet("RU", harbor("Kronstadt"), "Kronstadt", sl=6, active=False),
    Fleet("RU", harbor("Reval"), "Reval", sl=6, fr=3, experience=3),
    Fleet(
        "RU",
        harbor("Corfu"),
        "Sevastopol",
        fl=1,
        sl=6,
        fr=4,
        tr=(6000,),
        quality="Good",
        experience=6,
        commander="senyavin",
        note="Mediterranean squadron",
    ),
    Fleet("RU", harbor("Sevastopol"), "Sevastopol", fl=2, sl=8, fr=3, experience=2, note="Black Sea fleet"),
    Fleet("RU", harbor("Nikolayev"), "Nikolayev", sl=4, active=False),
    Fleet("RU", harbor("Nikolayev"), "Nikolayev", fr=1, experience=2),
    # --- Holland (Batavian Republic): about 16 of the line
    Fleet(
        "HO",
        harbor("Den Helder"),
        "Den Helder",
        sl=8,
        fr=4,
        experience=3,
        commander="kikkert",
        note="Texel squadron",
    ),
    Fleet("HO", harbor("Hellevoetsluis"), "Hellevoetsluis", sl=4, fr=3, experience=2),
    Fleet("HO", harbor("Amsterdam"), "Amsterdam", sl=4, active=False),
    Fleet("HO", harbor("Amsterdam"), "Amsterdam", fr=2, experience=2),
    Fleet("HO", harbor("Vlissingen"), "Vlissingen", fr=3, tr=(10000,), experience=2, attach=False),
    Fleet("HO", harbor("Curacao"), "Curacao", fr=2, experience=3),
    # --- Denmark-Norway: a large fleet kept in ordinary at Kobenhavn
    Fleet("DK", harbor("Kobenhavn"), "Kobenhavn", fl=1, sl=14, active=False, note="in ordinary"),
    Fleet(
        "DK", harbor("Kobenhavn"), "Kobenhavn", sl=4, fr=6, quality="Good", experience=2, commander="bille"
    ),
    Fleet("DK", harbor("Christiansand"), "Christiansand", fr=2, quality="Good", experience=2),
    Fleet("DK", harbor("Bergen"), "Bergen", fr=1, quality="Good", experience=2),
    Fleet("DK", harbor("Kiel"), "Kiel", fr=2, quality="Good", experience=2),
    Fleet("DK", harbor("St Thomas"), "St Thomas", fr=1, quality="Good", experience=2),
    # --- Sweden
    Fleet("SW", harbor("Karlskrona"), "Karlskrona", sl=4, fr=5, experience=3, commander="cederstrom"),
    Fleet("SW", harbor("Karlskrona"), "Karlskrona", sl=4, active=False),
    Fleet("SW", harbor("Goteborg"), "Goteborg", sl=2, fr=3, experience=3),
    Fleet("SW", harbor("Stockholm"), "Stockholm", sl=2, active=False),
    Fleet("SW", harbor("Stralsund"), "Stralsund", fr=2, experience=3),
    # --- Portugal
    Fleet(
        "PO", harbor("Lisbon"), "Lisbon", fl=1, sl=5, fr=6, quality="Fair", experience=2, commander="cunha"
    ),
    Fleet("PO", harbor("Lisbon"), "Lisbon", sl=3, active=False),
    Fleet("PO", harbor("Lagos"), "Lagos", sl=2, active=False),
    Fleet("PO", harbor("Oporto"), "Oporto", fr=2, quality="Fair", experience=2),
    Fleet("PO", harbor("Funchal"), "Funchal", fr=1, quality="Fair", experience=2),
    Fleet("PO", harbor("Ponta Delgada"), "Ponta Delgada", fr=1, quality="Fair", experience=2),
    # --- Naples
    Fleet("NE", harbor("Naples"), "Naples", sl=3, fr=3, experience=2, commander="forteguerri"),
    Fleet("NE", harbor("Palermo"), "Palermo", sl=1, fr=2, experience=2),
    # --- Austria: the former Venetian navy
    Fleet("AU", harbor("Venetzia"), "Venetzia", fr=4, quality="Fair", experience=1),
    # --- Italy
    Fleet("IT", harbor("Livorno"), "Livorno", fr=2, quality="Fair", experience=1),
    # --- powers outside NWOL (no players; default orders)
    Fleet("TU", harbor("Constantinople"), "Constantinople", fl=3, sl=12, fr=6, quality="Poor"),
    Fleet("TU", harbor("Alexandria"), "Alexandria", fr=2, quality="Poor"),
    Fleet("TU", harbor("Sinope"), "Sinope", sl=2, fr=2, quality="Poor"),
    Fleet(
        "US", coast("Syracuse"), "Boston", fr=3, quality="Good", experience=8, note="Mediterranean squadron"
    ),
    Fleet("US", harbor("Boston"), "Boston", fr=1, quality="Good", experience=4),
    Fleet("US", harbor("New York"), "New York", fr=1, quality="Good", experience=4),
    Fleet("US", harbor("Norfolk"), "Norfolk", fr=1, quality="Good", experience=4),
)
