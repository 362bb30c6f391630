"""The GITM land units that stood in the ports of the grand campaign in autumn 1805, written
into ``data/scenarios/grand1805.toml`` by :mod:`pate.databuild.grand_scenario`."""

from __future__ import annotations

from dataclasses import dataclass


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
