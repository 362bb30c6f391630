"""What an operator needs of the Kubernetes manifests: network policies (default deny, then
what each component needs), NATS with auth, TLS and a metrics exporter on a pinned image,
nightly backups, and the alert rules and scrape targets for the Prometheus operator."""

from __future__ import annotations

import copy
import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from pate.tools import k8scheck
from services.platform.bus.permissions import SERVICE_DURABLES, USERS, authorization_block, password_variable
from tests.unit.deploy.test_k8s import OVERLAYS, of_kind, rendered

ALERTS = Path(k8scheck.ROOT) / "deploy" / "prometheus" / "pate-alerts.yaml"
COMPONENTS = ("orders", "resolver", "intel", "reports", "web", "notifier", "admiral")


def _labels(r: dict[str, Any]) -> dict[str, str]:
    return dict(r["spec"]["template"]["metadata"]["labels"])


def _selects(policy: dict[str, Any], labels: dict[str, str]) -> bool:
    sel = policy["spec"]["podSelector"]
    if not (sel.get("matchLabels") or {}).items() <= labels.items():
        return False
    return all(labels.get(e["key"]) in e["values"] for e in sel.get("matchExpressions") or [])


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_everything_is_denied_and_each_component_has_its_own_allow(overlay: str) -> None:
    policies = of_kind(overlay, "NetworkPolicy")
    deny = policies["default-deny"]["spec"]
    assert deny["podSelector"] == {} and deny["policyTypes"] == ["Ingress", "Egress"]
    assert "ingress" not in deny and "egress" not in deny
    pods = [_labels(d) for d in of_kind(overlay, "Deployment").values()]
    pods += [_labels(s) for s in of_kind(overlay, "StatefulSet").values()]
    pods.append({"cnpg.io/cluster": "pate-db"})  # the operator's pods carry this label
    assert len(pods) == len(COMPONENTS) + 2
    for labels in pods:
        own = [n for n, p in policies.items() if p["spec"]["podSelector"] and _selects(p, labels)]
        assert own, labels


def _reloads_on_renewal(pod: dict[str, Any], containers: dict[str, dict[str, Any]], nats_conf: str) -> None:
    """nats-server reads its certificate at start and on SIGHUP: the reloader sidecar watches the
    config and every TLS file the config names, and signals the process the pid file names."""
    conf = "/etc/nats/nats.conf"
    (volume,) = [v for v in pod["volumes"] if v["name"] == "config"]
    assert volume["configMap"]["name"] == "pate-nats-config"  # the nats.conf given to the test
    assert containers["nats"]["args"] == ["-c", conf]
    reloader = containers["reloader"]
    assert reloader["image"].startswith("natsio/nats-server-config-reloader:")
    args = reloader["args"]
    watched = {args[i + 1] for i, a in enumerate(args) if a == "-config"}
    pid = args[args.index("-pid") + 1]
    assert pod["shareProcessNamespace"] is True  # the pid is nats-server's only in one namespace
    assert f"pid_file: {pid}" in nats_conf
    tls_files = set(re.findall(r"(?:cert|key|ca)_file: (\S+)", nats_conf))
    assert len(tls_files) == 3 and watched == {conf, *tls_files}
    mounts = {m["mountPath"]: m["name"] for m in containers["nats"]["volumeMounts"]}
    theirs = {m["mountPath"]: m["name"] for m in reloader["volumeMounts"]}
    for path in (conf, pid, *tls_files):
        folder = path.rpartition("/")[0]
        assert theirs[folder] == mounts[folder], path  # the same files as the server's
    assert reloader["securityContext"]["runAsUser"] == containers["nats"]["securityContext"]["runAsUser"]
    assert not any("subPath" in m for c in containers.values() for m in c.get("volumeMounts", []))


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_nats_asks_for_a_password_speaks_tls_on_clients_and_routes_and_exports_metrics(overlay: str) -> None:
    conf = of_kind(overlay, "ConfigMap")["pate-nats-config"]["data"]["nats.conf"]
    assert authorization_block(password_variable) in conf  # one user per service
    assert conf.count("tls {") == 2 and "verify: true" in conf  # clients, and mutual TLS on routes
    assert "nats://" not in conf  # the routes are tls://
    (nats,) = of_kind(overlay, "StatefulSet").values()
    containers = {c["name"]: c for c in nats["spec"]["template"]["spec"]["containers"]}
    for c in containers.values():
        assert re.fullmatch(r"[a-z/-]+:\d+\.\d+\.\d+(-alpine)?", c["image"]), c["image"]
    assert {p["name"] for p in containers["metrics"]["ports"]} == {"metrics"}
    _reloads_on_renewal(nats["spec"]["template"]["spec"], containers, conf)
    for name, d in of_kind(overlay, "Deployment").items():
        if name in ("pate-web", "pate-admiral"):
            continue  # not NATS clients
        env = {e["name"]: e for e in d["spec"]["template"]["spec"]["containers"][0]["env"]}
        user = name.removeprefix("pate-")
        assert env["PATE_NATS_URL"]["value"].startswith(f"tls://{user}:$(PATE_NATS_PASSWORD)@"), name
        assert env["PATE_NATS_PASSWORD"]["valueFrom"]["secretKeyRef"] == {
            "name": "pate-nats-auth",
            "key": user,
        }
    server_env = {e["name"]: e for e in containers["nats"]["env"]}
    for user in USERS:  # every user's password reaches the server, from its own key
        ref = server_env[password_variable(user)[1:]]["valueFrom"]["secretKeyRef"]
        assert ref == {"name": "pate-nats-auth", "key": user}


def test_each_service_user_may_use_exactly_the_durables_its_stages_declare() -> None:
    import importlib

    def stages(service: str) -> set[str]:
        main = importlib.import_module(f"services.{service}.main")
        if service == "resolver":
            svc = main.service("gitm:50060")  # with GITM: the bridge's consumer too
        else:
            svc = main.build() if service == "notifier" else main.SERVICE
        return {st.durable for st in svc.stages}

    for service, durables in SERVICE_DURABLES.items():
        assert stages(service) == set(durables), service


def test_prod_backs_up_the_database_every_night_and_the_check_refuses_a_wrong_cluster() -> None:
    (backup,) = of_kind("prod", "ScheduledBackup").values()
    assert backup["spec"]["cluster"]["name"] == "pate-db"
    resources = list(rendered("prod"))
    assert k8scheck.shape_errors(backup, resources) == []
    wrong = copy.deepcopy(backup)
    wrong["spec"]["cluster"]["name"] = "elsewhere"
    wrong["spec"]["schedule"] = "0 3 * * *"
    assert k8scheck.shape_errors(wrong, resources) == [
        "spec.cluster.name: no Cluster 'elsewhere' in the rendering",
        "spec.schedule: six fields (seconds first)",
    ]


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_the_prometheus_rule_is_the_alert_file_and_every_pod_with_metrics_is_scraped(overlay: str) -> None:
    rule = of_kind(overlay, "PrometheusRule")["pate-alerts"]
    assert rule["spec"]["groups"] == yaml.safe_load(ALERTS.read_text())["groups"]
    resources = list(rendered(overlay))
    monitors = of_kind(overlay, "PodMonitor")
    for monitor in monitors.values():
        assert k8scheck.shape_errors(monitor, resources) == []
    broken = copy.deepcopy(monitors["pate"])
    broken["spec"]["podMetricsEndpoints"][0]["port"] = "prom"
    assert k8scheck.shape_errors(broken, resources) == [
        "spec.podMetricsEndpoints: no selected pod has a port 'prom'"
    ]


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_the_admiral_reaches_the_order_desk_and_the_reports_only_and_they_let_it_in(overlay: str) -> None:
    """The bot admiral is a gRPC client of orders and reports (docs/bots.md): no database, no
    NATS, nothing outside; orders and reports take its calls on their gRPC ports."""
    policies = of_kind(overlay, "NetworkPolicy")
    admiral = _labels(of_kind(overlay, "Deployment")["pate-admiral"])
    mine = [
        p["spec"]
        for name, p in policies.items()
        # spans to the collector, as every PATE pod in production (test_k8s_shutdown.py)
        if p["spec"]["podSelector"] and _selects(p, admiral) and name != "pate-traces-out"
    ]
    egress = [rule for spec in mine for rule in spec.get("egress", [])]
    reached = {
        (peer["podSelector"]["matchLabels"].get("app.kubernetes.io/component"), port["port"])
        for rule in egress
        for peer in rule["to"]
        for port in rule["ports"]
    }
    assert reached == {("orders", 50051), ("reports", 50054)}
    for target, port in (("orders", 50051), ("reports", 50054)):
        labels = _labels(of_kind(overlay, "Deployment")[f"pate-{target}"])
        allowed = [
            rule
            for p in policies.values()
            if p["spec"]["podSelector"] and _selects(p, labels)
            for rule in p["spec"].get("ingress", [])
            if any(
                peer.get("podSelector", {}).get("matchLabels", {}).items() <= admiral.items()
                and peer.get("podSelector")
                for peer in rule["from"]
            )
        ]
        assert any(port in {x["port"] for x in rule["ports"]} for rule in allowed), target
