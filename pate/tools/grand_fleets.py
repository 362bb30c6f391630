"""The fleets, players and alliances of the grand campaign of 1805: the tables
:mod:`pate.tools.grand_scenario` turns into ``data/scenarios/grand1805.toml``.

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

# (id, name, state, roles)
PLAYERS: tuple[tuple[str, str, str | None, str], ...] = (
    ("admin", "Game Administrator", None, "admin"),
    ("barham", "Charles Middleton, Lord Barham", "BR", "naval_minister"),
    ("nelson", "Horatio Nelson", "BR", "commander"),
    ("cornwallis", "William Cornwallis", "BR", "commander"),
    ("collingwood", "Cuthbert Collingwood", "BR", "commander"),
    ("calder", "Robert Calder", "BR", "commander"),
    ("keith", "George Elphinstone, Lord Keith", "BR", "commander"),
    ("cochrane", "Alexander Cochrane", "BR", "commander"),
    ("decres", "Denis Decres", "FR", "naval_minister"),
    ("villeneuve", "Pierre Villeneuve", "FR", "commander"),
    ("ganteaume", "Honore Ganteaume", "FR", "commander"),
    ("allemand", "Zacharie Allemand", "FR", "commander"),
    ("grandallana", "Domingo Perez de Grandallana", "SP", "naval_minister"),
    ("gravina", "Federico Gravina", "SP", "commander"),
    ("salcedo", "Jose Justo Salcedo", "SP", "commander"),
    ("chichagov", "Pavel Chichagov", "RU", "naval_minister"),
    ("senyavin", "Dmitry Senyavin", "RU", "commander"),
    ("khanykov", "Peter Khanykov", "RU", "commander"),
    ("verhuell", "Carel Hendrik Ver Huell", "HO", "naval_minister"),
    ("kikkert", "Albert Kikkert", "HO", "commander"),
    ("krieger", "Johan Cornelius Krieger", "DK", "naval_minister"),
    ("bille", "Steen Andersen Bille", "DK", "commander"),
    ("puke", "Johan af Puke", "SW", "naval_minister"),
    ("cederstrom", "Rudolf Cederstrom", "SW", "commander"),
    ("anadia", "Joao Rodrigues de Sa e Melo, Viscount of Anadia", "PO", "naval_minister"),
    ("cunha", "Manuel da Cunha Souto Maior", "PO", "commander"),
    ("acton", "John Acton", "NE", "naval_minister"),
    ("forteguerri", "Bartolomeo Forteguerri", "NE", "commander"),
    ("archduke_charles", "Archduke Charles", "AU", "naval_minister"),
)

# The Third Coalition (Britain, Russia, Austria, Sweden) against France and her
# allies (Spain, Holland); the Bourbon French side with Britain.  Everyone else
# starts at peace.
COALITION = ("BR", "RU", "AU", "SW", "BF")
FRENCH_SIDE = ("FR", "SP", "HO")


@dataclass(frozen=True, slots=True)
class Unit:
    """A GITM land unit of 1805 in a port: men per arm (section 9) and whence."""

    port: str
    infantry: int = 0
    cavalry: int = 0
    artillery: int = 0
    batteries: int = 0
    headquarters: str = "none"
    supplies: int = 0
    note: str = ""
    source: str = ""


# The troops that stood in the ports of the scenario in autumn 1805, each
# with its men per arm (space aboard: infantry 1 a man, cavalry 3, artillery 2;
# docs/rules/turn.md).  Strengths are rounded from the sources named; where a
# source gives a corps, it is split into the units a transport group can lift.
# Sources: D. Chandler, The Campaigns of Napoleon (1966), order of battle of
# the Grande Armee, 1 Sept. 1805 (Boulogne camps, VII Corps at Brest);
# E. Desbriere, Projets et tentatives de debarquement aux iles Britanniques,
# vol. IV (1902) (the Army of England and the flotilla, the troops embarked at
# Toulon); J. W. Fortescue, A History of the British Army, vol. V (1910)
# (Gibraltar, Malta and Craig's expedition, Baird's Cape expedition from Cork,
# Cathcart's Hanover expedition); P. Mackesy, The War in the Mediterranean
# 1803-1810 (1957) (Craig, Lacy's Russians at Corfu); C. Oman, A History of
# the Peninsular War, vol. I (1902), appendix (the Spanish army's returns of
# 1808, used as an estimate for Cadiz in 1805).  The Dutch division
# (Dumonceau, in Marmont's II Corps, about 20,000 in Chandler) and the
# Martinique garrison (about 2,000) are estimates: no return was at hand.
LAND_UNITS: dict[str, Unit] = {
    "BR20IN": Unit(
        "Gibraltar",
        infantry=4000,
        artillery=400,
        note="the Gibraltar garrison: five battalions and gunners",
        source="Fortescue V",
    ),
    "BR21IN": Unit(
        "Malta",
        infantry=6000,
        cavalry=300,
        artillery=300,
        note="Craig's expedition, landed at Malta in July 1805 (about 7,000 with its gunners)",
        source="Fortescue V; Mackesy",
    ),
    "BR22IN": Unit(
        "Cork",
        infantry=6100,
        cavalry=200,
        artillery=300,
        note="Baird's Cape expedition, sailed from Cork in August 1805 (about 6,600)",
        source="Fortescue V",
    ),
    "BR23IN": Unit(
        "Portsmouth",
        infantry=8000,
        cavalry=600,
        artillery=400,
        note="the Southern District's brigades, the first wave of Cathcart's Hanover expedition",
        source="Fortescue V",
    ),
    "BR24IN": Unit(
        "Portsmouth",
        infantry=3000,
        cavalry=600,
        batteries=1,
        note="a King's German Legion brigade with a horse battery, also for Hanover",
        source="Fortescue V",
    ),
    "FR1IN": Unit(
        "Boulogne",
        infantry=17000,
        artillery=800,
        headquarters="corps",
        supplies=10,
        note="the Army of England: Soult's IV Corps, staff and two divisions (St-Hilaire, Vandamme)",
        source="Chandler (IV Corps 41,000 in Sept. 1805); Desbriere IV",
    ),
    "FR2IN": Unit(
        "Boulogne",
        infantry=9000,
        cavalry=1500,
        batteries=1,
        note="IV Corps: Legrand's division and Margaron's light cavalry with a horse battery",
        source="Chandler",
    ),
    "FR3IN": Unit(
        "Boulogne",
        infantry=5700,
        artillery=300,
        note="Oudinot's grenadier division of Lannes' V Corps, camped at Wimereux for the flotilla",
        source="Chandler; Desbriere IV",
    ),
    "FR30IN": Unit(
        "Martinique",
        infantry=1800,
        artillery=200,
        note="the Martinique garrison: colonial infantry and gunners",
        source="estimate",
    ),
    "FR31IN": Unit(
        "Toulon",
        infantry=3000,
        artillery=200,
        note="Lauriston's troops embarked with Villeneuve's fleet (3,000 to 4,000)",
        source="Desbriere IV",
    ),
    "FR32IN": Unit(
        "Brest",
        infantry=7000,
        artillery=300,
        note="Augereau's VII Corps: Desjardin's division, for Ireland",
        source="Chandler (VII Corps 14,850)",
    ),
    "FR33IN": Unit(
        "Brest",
        infantry=6800,
        cavalry=500,
        batteries=1,
        note="VII Corps: Mathieu's division with light cavalry",
        source="Chandler",
    ),
    "SP20IN": Unit(
        "Cadiz",
        infantry=4000,
        artillery=300,
        note="the Cadiz garrison of the Andalusian army",
        source="estimate from Oman I, appendix",
    ),
    "RU20IN": Unit(
        "Corfu",
        infantry=8000,
        artillery=400,
        note="Lacy's Russians at Corfu, for Naples (about 13,000 by November)",
        source="Mackesy",
    ),
    "HO20IN": Unit(
        "Vlissingen",
        infantry=5500,
        artillery=300,
        note="Dumonceau's Dutch division of Marmont's II Corps, on Walcheren for the flotilla",
        source="estimate; II Corps in Chandler",
    ),
}

# Each port's garrison: the units above that stand in it (one place each).
GARRISONS: dict[str, list[str]] = {}
for _uid, _unit in LAND_UNITS.items():
    GARRISONS.setdefault(_unit.port, []).append(_uid)
