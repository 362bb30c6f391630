"""The Kubernetes overlays: rendered by kustomize, valid in strict mode, and every PATE
container sized, probed, locked down, disruption-budgeted, scraped and balanced; every gRPC port
served with TLS from cert-manager (docs/security.md), the workers' with mutual TLS."""

from __future__ import annotations

import copy
import re
from functools import cache
from pathlib import Path
from typing import Any

import kubernetes_validate
import pytest

from pate.tools import k8scheck
from services.platform.runtime.grpcutil import LIVENESS

OVERLAYS = ("dev", "prod")
WORKERS = {"resolver": "resolver", "intel": "intel", "reports": "reports"}  # deployment -> durable
GRPC_PORTS = {
    "orders": 50051,
    "resolver": 50052,
    "intel": 50053,
    "reports": 50054,
    "notifier": 50055,
    "admiral": 50056,
}
MUTUAL_TLS = {
    "resolver",
    "intel",
    "notifier",
    "admiral",
}  # health ports only; orders and reports take players' clients


@cache
def rendered(overlay: str) -> tuple[dict[str, Any], ...]:
    return tuple(k8scheck.render(k8scheck.OVERLAYS / overlay))


def of_kind(overlay: str, kind: str) -> dict[str, dict[str, Any]]:
    return {r["metadata"]["name"]: r for r in rendered(overlay) if r["kind"] == kind}


def pate_deployments(overlay: str) -> dict[str, dict[str, Any]]:
    return {n[len("pate-") :]: d for n, d in of_kind(overlay, "Deployment").items() if n.startswith("pate-")}


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_every_overlay_renders_and_validates_strictly(overlay: str) -> None:
    report = k8scheck.validate(k8scheck.OVERLAYS / overlay)
    assert report.errors == []
    assert len(report.strict) >= 20
    assert {
        "Deployment/pate-orders",
        "StatefulSet/pate-nats",
        "Namespace/" + ("pate-dev" if overlay == "dev" else "pate"),
    } <= set(report.strict)
    assert sorted(report.custom) == [
        "Certificate/pate-admiral",
        "Certificate/pate-ca",
        *(["Certificate/pate-ingress"] if overlay == "prod" else []),  # the gRPC ingress's client
        "Certificate/pate-intel",
        "Certificate/pate-nats",
        "Certificate/pate-notifier",
        "Certificate/pate-orders",
        "Certificate/pate-reports",
        "Certificate/pate-resolver",
        "Cluster/pate-db",
        "Issuer/pate-ca",
        "Issuer/pate-selfsigned",
        *(["ObjectStore/pate-backups"] if overlay == "prod" else []),
        "PodMonitor/pate",
        "PodMonitor/pate-db",
        "PodMonitor/pate-db-pooler",
        "PodMonitor/pate-nats",
        "Pooler/pate-db-pooler-rw",
        "PrometheusRule/pate-alerts",
        "ScaledObject/pate-intel",
        "ScaledObject/pate-reports",
        "ScaledObject/pate-resolver",
        *(["ScheduledBackup/pate-db-nightly"] if overlay == "prod" else []),
    ]
    assert {"Deployment/pate-web", "Service/pate-web", "PodDisruptionBudget/pate-web"} <= set(report.strict)
    if overlay == "prod":
        assert {"Ingress/pate-web", "NetworkPolicy/pate-web"} <= set(report.strict)


def test_strict_validation_refuses_an_unknown_field() -> None:
    deployment = copy.deepcopy(pate_deployments("dev")["orders"])
    kubernetes_validate.validate(deployment, k8scheck.KUBERNETES_VERSION, strict=True)
    deployment["spec"]["template"]["spec"]["containers"][0]["livenessProbes"] = {}
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(deployment, k8scheck.KUBERNETES_VERSION, strict=True)


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_every_pate_container_is_sized_probed_and_locked_down(overlay: str) -> None:
    deployments = pate_deployments(overlay)
    assert set(deployments) == {"orders", "resolver", "intel", "reports", "web", "notifier", "admiral"}
    for name, d in deployments.items():
        pod = d["spec"]["template"]["spec"]
        assert pod["securityContext"]["runAsNonRoot"] is True
        assert (
            isinstance(pod["securityContext"]["runAsUser"], int) and pod["securityContext"]["runAsUser"] > 0
        )
        (c,) = pod["containers"]
        assert re.fullmatch(r"registry\.example\.org/pate:\d+\.\d+\.\d+", c["image"]), c["image"]
        for kind in ("requests", "limits"):
            assert {"cpu", "memory"} <= set(c["resources"][kind]), (name, kind)
        sc = c["securityContext"]
        assert sc["readOnlyRootFilesystem"] is True and sc["allowPrivilegeEscalation"] is False
        assert sc["capabilities"]["drop"] == ["ALL"]
        if name == "web":  # internet-facing: no administrator token (docs/security.md)
            assert "PATE_ADMIN_TOKEN" not in {e["name"] for e in c.get("env", [])}
            assert "pate-admin" not in str(c)
            continue  # HTTP, no metrics port, no database: test_the_web_desk_...
        grpc_port = next(p["containerPort"] for p in c["ports"] if p["name"] == "grpc")
        assert grpc_port == GRPC_PORTS[name]
        for probe in ("startupProbe", "readinessProbe", "livenessProbe"):
            # Kubernetes' own gRPC probe speaks no TLS
            assert "grpc" not in c[probe], (name, probe)
            asked = ["pate", "health", f"127.0.0.1:{grpc_port}"]
            if probe == "livenessProbe":  # the process only: an outage of a dependency restarts nothing
                asked += ["--service", LIVENESS]
            assert c[probe]["exec"]["command"] == asked, (name, probe)
            assert c[probe]["timeoutSeconds"] >= 3, (name, probe)  # a Python process starts each time
        annotations = d["spec"]["template"]["metadata"]["annotations"]
        assert annotations["prometheus.io/scrape"] == "true"
        assert int(annotations["prometheus.io/port"]) in {p["containerPort"] for p in c["ports"]}
        env = {e["name"]: e for e in c["env"]}
        if name == "admiral":  # a client of the platform: no database (docs/bots.md)
            assert "PATE_DATABASE_URL" not in env and "PATE_NATS_URL" not in env
            # its own narrower token, never the administrator's (docs/security.md, "Least privilege")
            assert "PATE_ADMIN_TOKEN" not in env
            assert env["PATE_ADMIRAL_TOKEN"]["valueFrom"]["secretKeyRef"] == {
                "name": "pate-admiral",
                "key": "token",
            }
            continue
        # through PgBouncer, with the credentials CloudNativePG keeps in pate-db-app
        assert env["PATE_DATABASE_URL"]["value"].endswith("@pate-db-pooler-rw:5432/pate")
        assert env["PATE_DB_PASSWORD"]["valueFrom"]["secretKeyRef"] == {
            "name": "pate-db-app",
            "key": "password",
        }
        # the administrator's token only where a call is checked against it
        assert ("PATE_ADMIN_TOKEN" in env) is (name in ("orders", "reports")), name


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_each_service_has_a_disruption_budget_and_a_headless_service(overlay: str) -> None:
    pdbs = of_kind(overlay, "PodDisruptionBudget")
    services = of_kind(overlay, "Service")
    for name, d in pate_deployments(overlay).items():
        labels = d["spec"]["template"]["metadata"]["labels"]
        assert pdbs[f"pate-{name}"]["spec"]["selector"]["matchLabels"].items() <= labels.items()
        svc = services[f"pate-{name}"]["spec"]
        assert svc["selector"].items() <= labels.items()
        # gRPC: headless, clients balance over the pods; the web's HTTP/1.1 is balanced per request
        assert (svc.get("clusterIP") == "None") is (name != "web"), name
    assert pdbs["pate-nats"]["spec"]["maxUnavailable"] == 1


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_workers_scale_on_the_lag_of_their_jetstream_consumer(overlay: str) -> None:
    scaled = of_kind(overlay, "ScaledObject")
    namespace = "pate-dev" if overlay == "dev" else "pate"
    for deployment, durable in WORKERS.items():
        spec = scaled[f"pate-{deployment}"]["spec"]
        assert spec["scaleTargetRef"]["name"] == f"pate-{deployment}"
        (trigger,) = spec["triggers"]
        assert trigger["type"] == "nats-jetstream"
        meta = trigger["metadata"]
        assert (meta["stream"], meta["consumer"]) == ("PATE", durable)
        assert meta["natsServerMonitoringEndpoint"] == f"pate-nats.{namespace}.svc.cluster.local:8222"


def test_nats_runs_three_nodes_with_fsync_before_ack_and_the_stream_at_three_replicas() -> None:
    for overlay in OVERLAYS:
        assert of_kind(overlay, "StatefulSet")["pate-nats"]["spec"]["replicas"] == 3
        conf = of_kind(overlay, "ConfigMap")["pate-nats-config"]["data"]["nats.conf"]
        assert "sync_interval: always" in conf and conf.count("tls://pate-nats-") == 3
        # the preStop hook signals lame-duck mode through the pid file
        pre_stop = of_kind(overlay, "StatefulSet")["pate-nats"]["spec"]["template"]["spec"]["containers"][0]
        assert "pid_file: /var/run/nats/nats.pid" in conf
        assert "ldm=/var/run/nats/nats.pid" in " ".join(pre_stop["lifecycle"]["preStop"]["exec"]["command"])
        assert of_kind(overlay, "ConfigMap")["pate-config"]["data"]["PATE_STREAM_REPLICAS"] == "3"
    assert of_kind("prod", "Cluster")["pate-db"]["spec"]["instances"] == 3
    # backups through the Barman Cloud plugin, not the deprecated barmanObjectStore
    cluster = of_kind("prod", "Cluster")["pate-db"]["spec"]
    assert "backup" not in cluster and "monitoring" not in cluster
    (plugin,) = cluster["plugins"]
    assert plugin["name"] == "barman-cloud.cloudnative-pg.io" and plugin["isWALArchiver"] is True
    assert plugin["parameters"]["barmanObjectName"] in of_kind("prod", "ObjectStore")


def test_the_overlays_are_the_only_ones_and_the_check_finds_them() -> None:
    found = sorted(p.name for p in Path(k8scheck.OVERLAYS).iterdir() if (p / "kustomization.yaml").exists())
    assert found == list(OVERLAYS)
    assert k8scheck.main([]) == 0
