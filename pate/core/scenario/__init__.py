"""Scenarios: the start of a campaign, read from ``data/scenarios/*.toml``
(format in ``docs/formats/scenario.md``).  It sits above the world and the
rules, since a scenario is checked against the rule data and cargo space."""
