"""A pod that stops loses no call (docs/operations.md, "Shutdown"): the services behind a
Kubernetes Service wait 5 s in preStop, so their endpoint is gone before SIGTERM, and each pod's
grace period covers its documented worst case (preStop, 5 s for calls in flight, 30 s for the
stage workers where it runs them)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

BASE = Path(__file__).resolve().parents[3] / "deploy" / "k8s" / "base"
PRESTOP_S = 5
CALLS_S = 5  # runner.py: server.stop(grace=5); uvicorn's timeout_graceful_shutdown=5
WORKERS_S = 30  # docs/operations.md, Shutdown: the workers' wait


def _deployment(component: str) -> dict[str, Any]:
    for doc in yaml.safe_load_all((BASE / f"{component}.yaml").read_text()):
        if doc and doc.get("kind") == "Deployment":
            return doc
    raise AssertionError(f"no Deployment in {component}.yaml")


@pytest.mark.parametrize(("component", "workers"), [("orders", True), ("reports", True), ("web", False)])
def test_a_served_pod_leaves_its_service_before_it_stops(component: str, workers: bool) -> None:
    spec = _deployment(component)["spec"]["template"]["spec"]
    (container,) = [c for c in spec["containers"] if c["name"] == component]
    command = container["lifecycle"]["preStop"]["exec"]["command"]
    assert command == ["sleep", str(PRESTOP_S)]
    worst = PRESTOP_S + CALLS_S + (WORKERS_S if workers else 0)
    assert spec["terminationGracePeriodSeconds"] > worst


def test_spans_can_leave_for_the_collector_the_production_overlay_names() -> None:
    """The prod overlay sends spans to PATE_OTLP_ENDPOINT; the default deny must let them out."""
    from tests.unit.deploy.test_k8s import of_kind

    config = of_kind("prod", "ConfigMap")["pate-config"]["data"]
    endpoint = config["PATE_OTLP_ENDPOINT"]
    host, port = endpoint.split("://", 1)[1].rsplit(":", 1)
    namespace = host.split(".")[1]
    policy = of_kind("prod", "NetworkPolicy")["pate-traces-out"]["spec"]
    (rule,) = policy["egress"]
    assert rule["to"][0]["namespaceSelector"]["matchLabels"] == {"kubernetes.io/metadata.name": namespace}
    assert rule["ports"] == [{"port": int(port), "protocol": "TCP"}]
    selects = policy["podSelector"]["matchExpressions"]
    assert selects == [{"key": "app.kubernetes.io/name", "operator": "In", "values": ["pate"]}]
