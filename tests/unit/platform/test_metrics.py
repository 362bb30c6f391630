"""The metrics module: addresses, the served registry, and the Grafana dashboard's queries."""

from __future__ import annotations

import json
import re
import urllib.request
from pathlib import Path

import promql_parser
import pytest
from prometheus_client import REGISTRY, Counter

from services.platform.config import ConfigError, load_settings
from services.platform.telemetry import metrics

DASHBOARD = Path(__file__).resolve().parents[3] / "deploy" / "grafana" / "pate-dashboard.json"


def test_metrics_address_is_host_port_or_off() -> None:
    assert metrics.parse_addr("0.0.0.0:9464") == ("0.0.0.0", 9464)
    assert metrics.parse_addr("[::]:9464") == ("::", 9464)
    assert metrics.parse_addr("") is None
    assert metrics.parse_addr("0") is None
    with pytest.raises(ValueError, match="PATE_METRICS_ADDR"):
        metrics.parse_addr("9464")


def test_settings_read_the_metrics_and_otlp_variables() -> None:
    s = load_settings({"PATE_METRICS_ADDR": "127.0.0.1:0", "PATE_OTLP_ENDPOINT": "http://collector:4317"})
    assert (s.metrics_addr, s.otlp_endpoint) == ("127.0.0.1:0", "http://collector:4317")
    off = load_settings({"PATE_METRICS_ADDR": "0"})
    assert (off.metrics_addr, off.otlp_endpoint) == ("", "")
    with pytest.raises(ConfigError, match="PATE_METRICS_ADDR"):
        load_settings({"PATE_METRICS_ADDR": "nine"})
    with pytest.raises(ConfigError, match="PATE_OTLP_ENDPOINT"):
        load_settings({"PATE_OTLP_ENDPOINT": "collector:4317"})


def test_the_server_serves_the_default_registry_with_other_modules_metrics() -> None:
    other = Counter("pate_test_other_module_things", "a counter another module registered")
    try:
        other.inc(3)
        metrics.grpc_call("/x.Y/Z", "OK", 0.02)
        port = metrics.serve_metrics("127.0.0.1:0")
        assert port
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as resp:
            body = resp.read().decode()
        assert "pate_test_other_module_things_total 3.0" in body
        assert 'pate_grpc_server_calls_total{code="OK",method="/x.Y/Z"}' in body
        assert metrics.serve_metrics("") is None
    finally:
        REGISTRY.unregister(other)


def test_stage_timer_counts_failures_apart() -> None:
    def count(outcome: str) -> float:
        return (
            REGISTRY.get_sample_value(
                "pate_turn_stage_seconds_count", {"stage": "unit-stage", "outcome": outcome}
            )
            or 0.0
        )

    with metrics.stage_timer("unit-stage"):
        pass
    with pytest.raises(RuntimeError), metrics.stage_timer("unit-stage"):
        raise RuntimeError("boom")
    assert (count("ok"), count("error")) == (1.0, 1.0)


def test_every_dashboard_query_parses_and_names_a_metric_the_services_export() -> None:
    dash = json.loads(DASHBOARD.read_text())
    exprs = [t["expr"] for p in dash["panels"] for t in p["targets"]]
    assert len(exprs) >= 12
    known = {
        m.name for m in REGISTRY.collect() if m.name.startswith("pate_") or m.name.startswith("process_")
    }
    for expr in exprs:
        promql_parser.parse(expr)  # raises ValueError on a syntax error
        # panels matching by name pattern cover counters other modules register (quarantine, poison)
        plain = re.sub(r'__name__=~"[^"]*"', "", expr)
        for name in re.findall(r"\b((?:pate|process)_[a-z_]+)\b", plain):
            base = re.sub(r"_(total|bucket|count|sum)$", "", name)
            assert base in known, (name, expr)


def test_every_alert_rule_is_complete_parses_and_names_exported_metrics() -> None:
    import yaml

    rules_file = DASHBOARD.parents[1] / "prometheus" / "pate-alerts.yaml"
    groups = yaml.safe_load(rules_file.read_text())["groups"]
    rules = [r for g in groups for r in g["rules"]]
    assert len(rules) >= 10
    known = {m.name for m in REGISTRY.collect()}
    for rule in rules:
        assert rule["alert"].startswith("Pate") and rule["labels"]["severity"] in ("warning", "critical")
        assert rule["annotations"]["summary"]
        promql_parser.parse(rule["expr"])
        plain = re.sub(r'__name__=~"[^"]*"', "", rule["expr"])
        for name in re.findall(r"\b(pate_[a-z_]+)\b", plain):
            base = re.sub(r"_(total|bucket|count|sum)$", "", name)
            assert base in known, (rule["alert"], name)


def test_the_promql_check_catches_a_broken_query() -> None:
    with pytest.raises(ValueError):
        promql_parser.parse("sum by (stage (rate(pate_turn_stage_seconds_count[5m]))")


def _slug(heading: str) -> str:
    """The anchor a Markdown renderer gives a heading (GitHub's rule)."""
    return re.sub(r"[^a-z0-9 _-]", "", heading.strip().lower()).replace(" ", "-")


def test_every_alert_has_a_runbook_whose_anchor_exists() -> None:
    import yaml

    root = DASHBOARD.parents[2]
    groups = yaml.safe_load((root / "deploy" / "prometheus" / "pate-alerts.yaml").read_text())["groups"]
    rules = {r["alert"]: r for g in groups for r in g["rules"]}
    # the not-after of the files each process presents, alerting under 14 days
    expiring = rules["PateCertificateExpiresSoon"]
    assert "pate_tls_certificate_expiry_timestamp_seconds" in expiring["expr"]
    assert "14 * 86400" in expiring["expr"]
    for name, rule in rules.items():
        url = rule["annotations"].get("runbook_url")
        assert url, f"{name} has no runbook_url"
        doc, _, anchor = url.partition("#")
        headings = re.findall(r"^#+ (.+)$", (root / doc).read_text(), flags=re.MULTILINE)
        assert anchor in {_slug(h) for h in headings}, (name, url)
    assert expiring["annotations"]["runbook_url"]
