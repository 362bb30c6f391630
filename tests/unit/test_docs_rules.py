"""docs/rules.md maps every numbered rule to code and tests, and is up to date."""

from pate.tools import rulemap


def test_every_numbered_rule_has_a_row() -> None:
    rows = rulemap.read_rows()
    missing = [r for r in rulemap.RULES if r not in rulemap.covered(rows)]
    assert not missing, f"rules with no row in docs/rules/*.md: {missing}"


def test_docs_rules_md_is_generated_from_the_area_tables() -> None:
    assert rulemap.TARGET.read_text() == rulemap.render(rulemap.read_rows()), (
        "run python -m pate.tools.rulemap"
    )
