"""The standing instructions' text (docs/formats/standing.md, "The text" and "Limits"): what
the parser takes, and every hostile line it refuses, naming the line and the field."""

from __future__ import annotations

import pytest

from pate.admiral.standing import (
    MAX_INSTRUCTIONS,
    MAX_LINE_CHARS,
    MAX_PORT_CHARS,
    MAX_SHIPS,
    MAX_TEXT_CHARS,
    MAX_TEXT_LINES,
    Action,
    Condition,
    Instruction,
    StandingError,
    check_standing,
    parse_standing,
    read_standing,
)
from pate.engine.context import turn_context

MAP = turn_context().map
MINE = {"BR1FL", "BR1FR", "BR1SL"}


def refused(text: str) -> str:
    with pytest.raises(StandingError) as err:
        parse_standing(text)
    return str(err.value)


# docs/formats/standing.md, statement 1
def test_one_instruction_a_line_blank_lines_and_comments_ignored() -> None:
    text = (
        "# when I am away\n\n"
        "if superior enemy sighted then return Plymouth for BR1FL BR1FR  # run\n"
        "keep blockade Brest\n"
    )
    assert parse_standing(text) == (
        Instruction(3, Condition.SUPERIOR, Action.RETURN, "Plymouth", ("BR1FL", "BR1FR")),
        Instruction(4, Condition.ALWAYS, Action.BLOCKADE, "Brest", ()),
    )


# docs/formats/standing.md, statement 2
def test_keywords_in_any_case_ids_upper_cased_for_all_is_every_ship() -> None:
    (ins,) = parse_standing("IF Enemy Sighted THEN Keep In Port FOR br1fl")
    assert (ins.condition, ins.action, ins.ships) == (Condition.ENEMY, Action.KEEP_IN_PORT, ("BR1FL",))
    assert parse_standing("keep in port for ALL")[0].ships == ()


# docs/formats/standing.md, statement 3
def test_an_empty_text_is_no_instruction() -> None:
    assert parse_standing("") == () and parse_standing("  \n# nothing\n") == ()


# docs/formats/standing.md, statement 4
def test_port_names_of_several_words_are_matched_to_the_maps_spelling() -> None:
    got = read_standing("keep blockade  la   coruna", MINE, MAP, {"BR"})
    assert got[0].port == "La Coruna"


# docs/formats/standing.md, statement 5
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("sail to Brest", "line 1: action:"),
        ("keep in harbor", "line 1: action:"),
        ("if then return Plymouth", "line 1: condition:"),
        ("if enemy sighted return Plymouth", "line 1: condition: 'if <condition> then <action>'"),
        ("if pigs fly then keep in port", "line 1: condition:"),
        ("return", "line 1: port: name a port"),
        ("keep blockade", "line 1: port: name a port"),
        ("keep in port for", "line 1: for: name ship ids or 'all'"),
        ("keep in port for BR1FL BR1FL", "line 1: for: a ship named twice"),
        ("keep in port for BR1FL; DROP TABLE", "line 1: for:"),
        ("keep in port for ../../etc/passwd", "line 1: for:"),
        ("keep in port\x00", "line 1: text: printable ASCII"),
        ("keep in port\x1b[31m", "line 1: text: printable ASCII"),
        ("return Brest\u200b", "line 1: text: printable ASCII"),
        ("keep in port\nreturn\n", "line 2: port:"),
    ],
)
def test_hostile_lines_are_refused_naming_the_line_and_the_field(text: str, expected: str) -> None:
    assert refused(text).startswith(expected)


# docs/formats/standing.md, statement 5
def test_every_bad_line_is_named_at_once() -> None:
    message = refused("return\nkeep in port\nfly away\n")
    assert "line 1: port:" in message and "line 3: action:" in message and "line 2" not in message


# docs/formats/standing.md, statement 6
def test_the_limits() -> None:
    assert refused("x" * (MAX_TEXT_CHARS + 1)).startswith("line 0: text: at most 2000 characters")
    assert refused("\n" * (MAX_TEXT_LINES + 1)).startswith("line 0: text: at most 40 lines")
    eleven = "\n".join(["keep in port"] * (MAX_INSTRUCTIONS + 1))
    assert refused(eleven) == "line 11: text: at most 10 instructions"
    parse_standing("\n".join(["keep in port"] * MAX_INSTRUCTIONS))
    assert refused("keep in port #" + "x" * MAX_LINE_CHARS).startswith("line 1: text: at most 200")
    ids = " ".join(f"BR{n}SL" for n in range(1, MAX_SHIPS + 2))
    assert refused(f"keep in port for {ids}") == "line 1: for: at most 20 ships"
    assert refused("return " + "P" * (MAX_PORT_CHARS + 1)).startswith("line 1: port: at most 40")


# docs/formats/standing.md, statement 6
def test_checks_against_his_knowledge_name_the_line_and_field() -> None:
    parsed = parse_standing(
        "return Brest\nkeep blockade Plymouth\nreturn Atlantis\nkeep in port for FR1FL\nreturn plymouth"
    )
    checked, refusals = check_standing(parsed, MINE, MAP, {"BR"})
    assert [str(r) for r in refusals] == [
        "line 1: port: Brest is not held by your side",
        "line 2: port: Plymouth is held by your side: blockade another",
        "line 3: port: no port 'Atlantis' on the map",
        "line 4: for: FR1FL is not a ship you order",  # an enemy's ship: not said whether it exists
    ]
    assert [(i.line, i.port) for i in checked] == [(5, "Plymouth")]
    with pytest.raises(StandingError):
        read_standing("return Brest", MINE, MAP, {"BR"})
