"""The metrics module: addresses, the served registry, and the Grafana dashboard's queries."""

from __future__ import annotations

import json
import re
import urllib.request
from collections.abc import Iterator
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


# the expression nodes of promql_parser's tree; the walk collects the metric of every selector
_EXPR_NODES = frozenset(
    {"BinaryExpr", "AggregateExpr", "Call", "MatrixSelector", "ParenExpr", "UnaryExpr", "SubqueryExpr"}
)


def metric_names(expr: str) -> set[str]:
    """Every metric an expression selects by name (a ``{__name__=~...}`` pattern names none)."""

    def walk(node: object) -> Iterator[str]:
        if type(node).__name__ == "VectorSelector":
            name = getattr(node, "name", None)
            if name:
                yield name
            return
        for attr in dir(node):
            if attr.startswith("_"):
                continue
            value = getattr(node, attr)
            for child in value if isinstance(value, list | tuple) else [value]:
                if type(child).__name__ in _EXPR_NODES | {"VectorSelector"}:
                    yield from walk(child)

    return set(walk(promql_parser.parse(expr)))  # parse raises ValueError on a syntax error


def pate_registry() -> set[str]:
    """PATE's metric families, with the modules that register theirs outside metrics.py imported."""
    import services.orders.campaigns
    import services.platform.bus.consumer
    import services.platform.bus.relay
    import services.platform.telemetry.observe  # noqa: F401  (the web desk's)

    return {m.name for m in REGISTRY.collect() if m.name.startswith(("pate_", "process_"))}


def external_metrics() -> dict[str, str]:
    """deploy/grafana/external-metrics.yaml: every other exporter's metric a panel or rule may name."""
    import yaml

    listed = yaml.safe_load((DASHBOARD.parent / "external-metrics.yaml").read_text())["exporters"]
    names = [(name, exporter) for exporter, e in listed.items() for name in e["metrics"]]
    assert len(names) == len(dict(names)), "a metric listed twice"
    return dict(names)


def check_names(names: set[str], known: set[str], where: str) -> None:
    outside = external_metrics()
    for name in names:
        if name.startswith(("pate_", "process_")):
            assert re.sub(r"_(total|bucket|count|sum|created)$", "", name) in known, (where, name)
        else:
            assert name in outside, (where, f"{name} is neither PATE's nor in external-metrics.yaml")


DASHBOARDS = sorted(DASHBOARD.parent.glob("*.json"))


def test_every_dashboard_is_one_of_the_documented_four() -> None:
    assert [p.name for p in DASHBOARDS] == [
        "pate-dashboard.json",
        "pate-nats-dashboard.json",
        "pate-postgres-dashboard.json",
        "pate-web-dashboard.json",
    ]
    docs = (DASHBOARD.parents[2] / "docs" / "operations.md").read_text()
    uids = set()
    for path in DASHBOARDS:
        assert f"deploy/grafana/{path.name}" in docs, path.name
        uids.add(json.loads(path.read_text())["uid"])
    assert len(uids) == len(DASHBOARDS)  # importing one never replaces another


@pytest.mark.parametrize("path", DASHBOARDS, ids=lambda p: p.stem)
def test_every_dashboard_query_parses_and_names_a_metric_the_services_export(path: Path) -> None:
    dash = json.loads(path.read_text())
    exprs = [t["expr"] for p in dash["panels"] for t in p["targets"]]
    assert len(exprs) >= 12
    assert len({p["id"] for p in dash["panels"]}) == len(dash["panels"])
    variables = {v["name"] for v in dash["templating"]["list"]}
    known = pate_registry()
    for panel in dash["panels"]:
        assert panel["datasource"] == {"type": "prometheus", "uid": "${datasource}"}, panel["title"]
    for expr in exprs:
        check_names(metric_names(expr), known, f"{path.name}: {expr}")
        assert set(re.findall(r"\$(\w+)", expr)) <= variables, expr
    for variable in dash["templating"]["list"]:
        if variable["type"] == "query":
            (selector,) = re.findall(r"label_values\((.*), \w+\)", variable["query"])
            check_names(metric_names(selector), known, f"{path.name}: ${variable['name']}")


def test_the_name_walk_sees_every_selector_and_the_check_refuses_a_stranger() -> None:
    expr = (
        "sum by (pod) (rate(a_total[5m])) / on (pod) max by (pod) (b) or absent(c) "
        'unless histogram_quantile(0.9, sum by (le) (rate(d_bucket[5m]))) + {__name__=~"x.*"}'
    )
    assert metric_names(expr) == {"a_total", "b", "c", "d_bucket"}
    known = pate_registry()
    check_names({"pate_web_requests_total", "jetstream_consumer_num_pending"}, known, "fine")
    with pytest.raises(AssertionError, match="external-metrics"):
        check_names({"jetstream_consumer_num_pendin"}, known, "typo")
    with pytest.raises(AssertionError):
        check_names({"pate_web_request_total"}, known, "typo")


def test_the_alert_rules_and_the_dashboards_use_the_same_exporters_names() -> None:
    """Every NATS and PostgreSQL name an alert uses is listed, and shown on a dashboard."""
    import yaml

    rules_file = DASHBOARD.parents[1] / "prometheus" / "pate-alerts.yaml"
    groups = yaml.safe_load(rules_file.read_text())["groups"]
    known = pate_registry()
    in_alerts: set[str] = set()
    for rule in (r for g in groups for r in g["rules"]):
        names = metric_names(rule["expr"])
        check_names(names, known, rule["alert"])
        in_alerts |= {n for n in names if n.startswith(("gnatsd_", "jetstream_", "cnpg_"))}
    assert in_alerts  # the NATS and PostgreSQL rules are there
    shown = set().union(*(metric_names(t["expr"]) for p in DASHBOARDS for t in _targets(p)))
    assert in_alerts <= shown, in_alerts - shown


def _targets(path: Path) -> list[dict[str, str]]:
    return [t for p in json.loads(path.read_text())["panels"] for t in p["targets"]]


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
