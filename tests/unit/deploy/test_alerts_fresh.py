"""The alert rules are written once: the Kubernetes PrometheusRule is generated from the rule file."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from pate.tools import genalerts


def test_the_committed_prometheus_rule_is_generated_from_the_alert_file() -> None:
    fresh = genalerts.render(genalerts.SOURCE.read_text(encoding="utf-8"))
    assert genalerts.TARGET.read_text(encoding="utf-8") == fresh, "stale: run make alerts"
    assert genalerts.main(["--check"]) == 0


def test_a_rule_changed_in_the_file_makes_the_check_fail(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = yaml.safe_load(genalerts.SOURCE.read_text(encoding="utf-8"))
    source["groups"][0]["rules"][0]["for"] = "1m"
    edited = tmp_path / "pate-alerts.yaml"
    edited.write_text(yaml.safe_dump(source), encoding="utf-8")
    monkeypatch.setattr(genalerts, "SOURCE", edited)
    assert genalerts.main(["--check"]) == 1
    rule = yaml.safe_load(genalerts.render(edited.read_text(encoding="utf-8")))
    assert rule["kind"] == "PrometheusRule" and rule["spec"]["groups"] == source["groups"]
