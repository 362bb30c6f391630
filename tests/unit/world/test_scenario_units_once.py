"""A land unit stands in one place only (rule 1.5, section 9)."""

import pytest

from pate.core.world.fields import DataError
from pate.datafiles import load_scenario, parse_scenario_text, scenario_path


def test_a_unit_both_ashore_and_aboard_is_refused_with_its_place() -> None:
    text = scenario_path("training").read_text()
    assert load_scenario("training")  # as shipped: each unit in one place
    doubled = text.replace('garrison = ["FR3IN"]', 'garrison = ["FR2IN", "FR3IN"]', 1)
    assert doubled != text
    with pytest.raises(DataError) as err:
        parse_scenario_text(doubled)
    assert any("FR2IN is already in the garrison of Boulogne" in p for p in err.value.problems)
