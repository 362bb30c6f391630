"""A player's standing instructions to the bot admiral (docs/formats/standing.md).

While the bot plays his seat (an absence he declared, or civil disorder) it
follows a few conditional orders of his own before its own judgement:

    if superior enemy sighted then return Plymouth for BR1FL BR1FR
    keep blockade Brest

This module parses the text into typed instructions (no I/O), checks them
against what the player knows (his ships, the map's ports and who holds
them), and replaces the bot's orders for the ships an instruction covers
when its condition holds by his own report.  The parser, the checks and the
application are the format document's statements, one for one.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from pate.core.world.geography import WorldMap
from pate.core.world.ships import parse_ship_id

MAX_TEXT_CHARS = 2000  # the whole text, comments and blank lines included
MAX_TEXT_LINES = 40  # lines of text, comments and blank lines included
MAX_INSTRUCTIONS = 10  # lines that say something
MAX_LINE_CHARS = 200  # room for 20 ship ids after "for"
MAX_SHIPS = 20  # ids after one "for"
MAX_PORT_CHARS = 40
MAX_REFUSALS = 10  # reported at once; the rest wait for the next try
ALL = "all"


class Condition(StrEnum):
    ALWAYS = ""
    ENEMY = "enemy sighted"
    SUPERIOR = "superior enemy sighted"


class Action(StrEnum):
    RETURN = "return"
    KEEP_IN_PORT = "keep in port"
    BLOCKADE = "keep blockade"


@dataclass(frozen=True, slots=True)
class Instruction:
    line: int  # its line in the text, from 1
    condition: Condition
    action: Action
    port: str | None  # return and keep blockade: the port named (the map's spelling once checked)
    ships: tuple[str, ...]  # the ship ids of "for"; empty: every ship of his ("for all", or none)

    def covers(self, ship: str) -> bool:
        return not self.ships or ship in self.ships


@dataclass(frozen=True, slots=True)
class Refusal:
    line: int
    field: str  # text | condition | action | port | for
    message: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.field}: {self.message}"


class StandingError(ValueError):
    def __init__(self, refusals: Sequence[Refusal]) -> None:
        self.refusals = tuple(refusals[:MAX_REFUSALS])
        super().__init__("; ".join(str(r) for r in self.refusals))


def parse_standing(text: str) -> tuple[Instruction, ...]:
    """The instructions of a text, or StandingError naming each bad line and field."""
    if len(text) > MAX_TEXT_CHARS:
        raise StandingError([Refusal(0, "text", f"at most {MAX_TEXT_CHARS} characters")])
    lines = text.splitlines()
    if len(lines) > MAX_TEXT_LINES:
        raise StandingError([Refusal(0, "text", f"at most {MAX_TEXT_LINES} lines")])
    out: list[Instruction] = []
    refusals: list[Refusal] = []
    for n, raw in enumerate(lines, start=1):
        try:
            found = _line(n, raw)
        except StandingError as err:
            refusals += err.refusals
            continue
        if found is not None:
            out.append(found)
    if len(out) > MAX_INSTRUCTIONS:
        refusals.append(
            Refusal(out[MAX_INSTRUCTIONS].line, "text", f"at most {MAX_INSTRUCTIONS} instructions")
        )
    if refusals:
        raise StandingError(refusals)
    return tuple(out)


def _line(n: int, raw: str) -> Instruction | None:
    if len(raw) > MAX_LINE_CHARS:
        raise StandingError([Refusal(n, "text", f"at most {MAX_LINE_CHARS} characters a line")])
    if any(not (c == "\t" or 32 <= ord(c) <= 126) for c in raw):
        raise StandingError([Refusal(n, "text", "printable ASCII characters only")])
    words = raw.split("#", 1)[0].split()
    if not words:
        return None  # blank or a comment
    ships: tuple[str, ...] = ()
    lowered = [w.lower() for w in words]
    if "for" in lowered:
        cut = lowered.index("for")
        ships = _scope(n, words[cut + 1 :])
        words, lowered = words[:cut], lowered[:cut]
    condition = Condition.ALWAYS
    if lowered and lowered[0] == "if":
        if "then" not in lowered:
            raise StandingError([Refusal(n, "condition", "'if <condition> then <action>': no 'then'")])
        cut = lowered.index("then")
        condition = _condition(n, " ".join(lowered[1:cut]))
        words, lowered = words[cut + 1 :], lowered[cut + 1 :]
    action, port = _action(n, words, lowered)
    return Instruction(n, condition, action, port, ships)


def _condition(n: int, said: str) -> Condition:
    for c in (Condition.ENEMY, Condition.SUPERIOR):
        if said == c.value:
            return c
    raise StandingError([Refusal(n, "condition", "'enemy sighted' or 'superior enemy sighted'")])


def _action(n: int, words: list[str], lowered: list[str]) -> tuple[Action, str | None]:
    if lowered == ["keep", "in", "port"]:
        return Action.KEEP_IN_PORT, None
    if lowered[:1] == ["return"]:
        return Action.RETURN, _port(n, words[1:])
    if lowered[:2] == ["keep", "blockade"]:
        return Action.BLOCKADE, _port(n, words[2:])
    raise StandingError([Refusal(n, "action", "'return <port>', 'keep in port' or 'keep blockade <port>'")])


def _port(n: int, words: list[str]) -> str:
    name = " ".join(words)
    if not name:
        raise StandingError([Refusal(n, "port", "name a port")])
    if len(name) > MAX_PORT_CHARS:
        raise StandingError([Refusal(n, "port", f"at most {MAX_PORT_CHARS} characters")])
    return name


def _scope(n: int, words: list[str]) -> tuple[str, ...]:
    if [w.lower() for w in words] == [ALL]:
        return ()
    if not words:
        raise StandingError([Refusal(n, "for", "name ship ids or 'all'")])
    if len(words) > MAX_SHIPS:
        raise StandingError([Refusal(n, "for", f"at most {MAX_SHIPS} ships")])
    ids = [w.upper() for w in words]
    for sid in ids:
        if parse_ship_id(sid) is None:
            raise StandingError([Refusal(n, "for", f"{sid[:16]!r} is not a ship id (e.g. BR1FL) nor 'all'")])
    if len(set(ids)) != len(ids):
        raise StandingError([Refusal(n, "for", "a ship named twice")])
    return tuple(ids)


def check_standing(
    instructions: Iterable[Instruction],
    own_ships: Collection[str],
    world_map: WorldMap,
    side: Collection[str],
) -> tuple[tuple[Instruction, ...], list[Refusal]]:
    """The instructions with the map's spelling of their ports, and the refusals: a ship that
    is not one he orders (whether it exists elsewhere is not said), a port not on the map, a
    return to a port his side (his state and its allies, ``side``) does not hold, a blockade
    of one it holds."""
    by_lower = {name.lower(): name for name in world_map.ports}
    out: list[Instruction] = []
    refusals: list[Refusal] = []
    for ins in instructions:
        port = ins.port
        if port is not None:
            port = by_lower.get(" ".join(port.lower().split()))
            if port is None:
                refusals.append(Refusal(ins.line, "port", f"no port {ins.port!r} on the map"))
                continue
            held = world_map.ports[port].controller in side
            if ins.action is Action.RETURN and not held:
                refusals.append(Refusal(ins.line, "port", f"{port} is not held by your side"))
                continue
            if ins.action is Action.BLOCKADE and held:
                refusals.append(Refusal(ins.line, "port", f"{port} is held by your side: blockade another"))
                continue
        strangers = [s for s in ins.ships if s not in own_ships]
        if strangers:
            refusals.append(Refusal(ins.line, "for", f"{strangers[0]} is not a ship you order"))
            continue
        out.append(Instruction(ins.line, ins.condition, ins.action, port, ins.ships))
    return tuple(out), refusals


def read_standing(
    text: str, own_ships: Collection[str], world_map: WorldMap, side: Collection[str]
) -> tuple[Instruction, ...]:
    """Parsed and checked, or StandingError with every refusal."""
    parsed = parse_standing(text)
    checked, refusals = check_standing(parsed, own_ships, world_map, side)
    if refusals:
        raise StandingError(refusals)
    return checked


def first_for(
    instructions: Iterable[Instruction], ship: str, holds: Mapping[Condition, bool]
) -> Instruction | None:
    """The instruction a ship follows: the first, in the text's order, that covers it and whose
    condition holds."""
    for ins in instructions:
        if ins.covers(ship) and holds[ins.condition]:
            return ins
    return None
