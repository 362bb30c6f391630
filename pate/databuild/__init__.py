"""Builders of shipped data files, run by a developer when their sources change: the grand
campaign's fleet tables (``grand_fleets``) and the scenario written from them
(``python -m pate.databuild.grand_scenario`` writes data/scenarios/grand1805.toml)."""
