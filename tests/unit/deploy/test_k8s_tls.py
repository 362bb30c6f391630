"""TLS in the Kubernetes overlays (docs/security.md, "TLS"): cert-manager makes one certificate per
component, every gRPC port serves its own (the workers' with mutual TLS), nothing allows plaintext,
the probes and the web desk dial with the PATE CA, and each certificate names its own Service."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from pate.tools import k8scheck
from tests.unit.deploy.test_k8s import GRPC_PORTS, MUTUAL_TLS, OVERLAYS, of_kind, pate_deployments, rendered

NAMESPACE = {"dev": "pate-dev", "prod": "pate"}


def containers(overlay: str) -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
    """(resource name, pod spec, container) of every container of every pod template."""
    out = []
    for r in rendered(overlay):
        pod = ((r.get("spec") or {}).get("template") or {}).get("spec")
        if pod:
            for c in pod.get("containers", []) + pod.get("initContainers", []):
                out.append((r["metadata"]["name"], pod, c))
    return out


def env_of(c: dict[str, Any]) -> dict[str, Any]:
    return {e["name"]: e.get("value") for e in c.get("env", [])}


def mounted_file(pod: dict[str, Any], c: dict[str, Any], path: str) -> tuple[str, str]:
    """(Secret name, key) that the file ``path`` of the container comes from."""
    folder, _, key = path.rpartition("/")
    (mount,) = [m for m in c["volumeMounts"] if m["mountPath"] == folder]
    assert mount.get("readOnly") is True, path
    (volume,) = [v for v in pod["volumes"] if v["name"] == mount["name"]]
    items = volume["secret"].get("items")
    assert items is None or key in {i["path"] for i in items}, path
    return volume["secret"]["secretName"], key


def certificates(overlay: str) -> dict[str, dict[str, Any]]:
    """secretName -> spec of every cert-manager Certificate."""
    return {c["spec"]["secretName"]: c["spec"] for c in of_kind(overlay, "Certificate").values()}


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_every_pate_grpc_container_serves_tls_and_none_allows_plaintext(overlay: str) -> None:
    configmaps = of_kind(overlay, "ConfigMap")
    made = certificates(overlay)
    served = set()
    for name, pod, c in containers(overlay):
        env = env_of(c)
        # services/platform/security/tls.py: without it a plaintext bind to 0.0.0.0 refuses to start
        assert "PATE_ALLOW_PLAINTEXT" not in env, name
        for source in c.get("envFrom", []):
            data = configmaps[source["configMapRef"]["name"]].get("data", {})
            assert "PATE_ALLOW_PLAINTEXT" not in data, (name, source)
        args = c.get("args", [])
        if c["image"].split(":")[0].endswith("/pate") and args[:1] == ["serve"] and args[1] in GRPC_PORTS:
            served.add(args[1])
            own = f"pate-{args[1]}-tls"  # its own certificate and key, no other component's
            for var in ("PATE_TLS_CERT", "PATE_TLS_KEY"):
                secret, key = mounted_file(pod, c, env[var])
                assert secret == own and secret in made, (name, var)
                assert key == ("tls.crt" if var == "PATE_TLS_CERT" else "tls.key")
            assert mounted_file(pod, c, env["PATE_TLS_CA"]) == (own, "ca.crt")
    assert served == set(GRPC_PORTS)


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_the_worker_ports_require_a_client_certificate_and_the_front_doors_do_not(overlay: str) -> None:
    made = certificates(overlay)
    for name in GRPC_PORTS:
        pod = pate_deployments(overlay)[name]["spec"]["template"]["spec"]
        (c,) = pod["containers"]
        env = env_of(c)
        own = f"pate-{name}-tls"
        if name in MUTUAL_TLS:
            assert mounted_file(pod, c, env["PATE_TLS_CLIENT_CA"]) == (own, "ca.crt")
            # the probe runs in the container with its environment: it presents the pod's own
            # certificate, which is for client auth too
            assert mounted_file(pod, c, env["PATE_TLS_CLIENT_CERT"]) == (own, "tls.crt")
            assert mounted_file(pod, c, env["PATE_TLS_CLIENT_KEY"]) == (own, "tls.key")
            assert made[own]["usages"] == ["server auth", "client auth"]
        else:
            assert not {"PATE_TLS_CLIENT_CA", "PATE_TLS_CLIENT_CERT"} & set(env), name
            assert made[own]["usages"] == ["server auth"]
        secrets = {v["secret"]["secretName"] for v in pod["volumes"] if v.get("secret")}
        assert not {s for s in secrets if s.endswith("-tls")} - {own}, name


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_each_certificate_names_its_own_service_and_the_probes_loopback_and_no_other(overlay: str) -> None:
    ns = NAMESPACE[overlay]
    made = certificates(overlay)
    services = {svc for svc in of_kind(overlay, "Service") if svc.removeprefix("pate-") in GRPC_PORTS}
    assert len(services) == len(GRPC_PORTS)
    for svc in services:
        spec = made[f"{svc}-tls"]
        names = set(spec["dnsNames"])
        assert {svc, f"{svc}.{ns}", f"{svc}.{ns}.svc", f"{svc}.{ns}.svc.cluster.local"} <= names, svc
        assert "127.0.0.1" in spec["ipAddresses"] and "localhost" in names
        # a component's key cannot pass for another component's Service
        assert not {n.split(".")[0] for n in names} & (services - {svc}), svc
        assert spec["commonName"] == svc
        assert spec["privateKey"]["rotationPolicy"] == "Always"
        assert spec["issuerRef"] == {"name": "pate-ca", "kind": "Issuer"}
        # renewed with a month to spare: the expiry alert (14 days) fires only when renewal failed
        assert spec["duration"] == "2160h" and spec["renewBefore"] == "720h"
    # the CA Issuer signs with the CA Certificate's Secret, bootstrapped by the self-signed Issuer
    assert of_kind(overlay, "Issuer")["pate-ca"]["spec"] == {"ca": {"secretName": "pate-ca"}}
    ca = made["pate-ca"]
    assert ca["isCA"] is True and ca["issuerRef"]["name"] == "pate-selfsigned"


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_no_certificate_is_mounted_with_subpath_which_the_kubelet_never_renews(overlay: str) -> None:
    for name, pod, c in containers(overlay):
        secrets = {v["name"] for v in pod.get("volumes", []) if v.get("secret")}
        for mount in c.get("volumeMounts", []):
            if mount["name"] in secrets:
                assert "subPath" not in mount, (name, mount)


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_the_web_desk_dials_the_front_doors_over_tls_and_holds_no_key(overlay: str) -> None:
    d = pate_deployments(overlay)["web"]
    pod = d["spec"]["template"]["spec"]
    (c,) = pod["containers"]
    env = env_of(c)
    assert c["args"] == ["serve", "web"]
    assert mounted_file(pod, c, env["PATE_TLS_CA"]) == ("pate-orders-tls", "ca.crt")
    (volume,) = [v for v in pod["volumes"] if v.get("secret")]
    assert volume["secret"]["items"] == [{"key": "ca.crt", "path": "ca.crt"}]  # not tls.key
    assert "PATE_TLS_CERT" not in env and "PATE_TLS_KEY" not in env  # it serves HTTP, not gRPC
    made = certificates(overlay)
    services = of_kind(overlay, "Service")
    for var, port in (("PATE_ORDERS_ADDR", 50051), ("PATE_REPORTS_ADDR", 50054)):
        host, _, dialled = env[var].rpartition(":")
        assert host in made[f"{host}-tls"]["dnsNames"] and host in services and int(dialled) == port, var
    assert env["PATE_WEB_ADDR"] == "0.0.0.0:8080"
    secret = next(e for e in c["env"] if e["name"] == "PATE_WEB_SECRET")
    assert secret["valueFrom"]["secretKeyRef"] == {"name": "pate-web", "key": "secret"}
    # the probes have a listener of their own, which players' connections cannot starve
    assert env["PATE_WEB_HEALTH_ADDR"] == "0.0.0.0:8081"
    paths = {"startupProbe": "/healthz", "readinessProbe": "/readyz", "livenessProbe": "/healthz"}
    for probe, path in paths.items():
        assert c[probe]["httpGet"] == {"path": path, "port": "health"}, probe
    assert c["ports"] == [
        {"name": "http", "containerPort": 8080, "protocol": "TCP"},
        {"name": "health", "containerPort": 8081, "protocol": "TCP"},
        {"name": "metrics", "containerPort": 9464, "protocol": "TCP"},  # /metrics, as every process
    ]
    assert [p["targetPort"] for p in services["pate-web"]["spec"]["ports"]] == ["http"]  # health not exposed
    assert of_kind(overlay, "PodDisruptionBudget")["pate-web"]["spec"]["selector"]["matchLabels"].items() <= (
        d["spec"]["template"]["metadata"]["labels"].items()
    )


def test_prod_exposes_the_web_desk_through_a_tls_ingress_only_from_the_controller() -> None:
    ingress = of_kind("prod", "Ingress")["pate-web"]
    (tls,) = ingress["spec"]["tls"]
    (rule,) = ingress["spec"]["rules"]
    assert rule["host"] in tls["hosts"] and tls["secretName"]
    (path,) = rule["http"]["paths"]
    assert path["backend"]["service"] == {"name": "pate-web", "port": {"name": "http"}}
    policy = of_kind("prod", "NetworkPolicy")["pate-web"]["spec"]
    web_labels = pate_deployments("prod")["web"]["spec"]["template"]["metadata"]["labels"]
    assert policy["podSelector"]["matchLabels"].items() <= web_labels.items()
    (allowed,) = policy["ingress"]
    assert [p["port"] for p in allowed["ports"]] == ["http"]
    # the forwarded headers are believed from PATE_TRUSTED_PROXIES only, never from any peer ("*")
    (c,) = pate_deployments("prod")["web"]["spec"]["template"]["spec"]["containers"]
    assert "FORWARDED_ALLOW_IPS" not in env_of(c)
    assert env_of(c)["PATE_TRUSTED_PROXIES"] == "10.244.0.0/16"
    assert "FORWARDED_ALLOW_IPS" not in env_of(
        pate_deployments("dev")["web"]["spec"]["template"]["spec"]["containers"][0]
    )
    assert not of_kind("dev", "Ingress") and "pate-web" not in of_kind("dev", "NetworkPolicy")


def test_the_shape_check_follows_the_references_of_the_cert_manager_resources() -> None:
    resources = [copy.deepcopy(r) for r in rendered("dev")]
    assert k8scheck.secret_volume_errors(resources) == []
    by_name = {k8scheck.name_of(r): r for r in resources}
    for r in resources:
        if k8scheck.is_custom(r):
            assert k8scheck.shape_errors(r, resources) == [], k8scheck.name_of(r)
    server = by_name["Certificate/pate-orders"]
    server["spec"]["issuerRef"]["name"] = "nobody"
    assert k8scheck.shape_errors(server, resources) == ["spec.issuerRef: no Issuer 'nobody' in the rendering"]
    issuer = by_name["Issuer/pate-ca"]
    issuer["spec"]["selfSigned"] = {}
    assert "exactly one of" in k8scheck.shape_errors(issuer, resources)[0]
    del issuer["spec"]["selfSigned"]
    issuer["spec"]["ca"]["secretName"] = "pate-orders-tls"  # not a CA's
    assert k8scheck.shape_errors(issuer, resources) == [
        "spec.ca.secretName: no CA Certificate makes the Secret 'pate-orders-tls'"
    ]
    scaled = by_name["ScaledObject/pate-intel"]
    scaled["spec"]["scaleTargetRef"]["name"] = "pate-gone"
    assert k8scheck.shape_errors(scaled, resources) == [
        "spec.scaleTargetRef.name: no Deployment 'pate-gone' in the rendering"
    ]
    resources.remove(by_name["Certificate/pate-orders"])
    assert sorted(k8scheck.secret_volume_errors(resources)) == [
        "Deployment/pate-orders: volume tls: no Certificate makes 'pate-orders-tls'",
        "Deployment/pate-web: volume tls-ca: no Certificate makes 'pate-orders-tls'",
    ]


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_orders_and_reports_believe_the_web_desks_forwarded_address(overlay: str) -> None:
    """The web's pods come from a network, not fixed addresses (PATE_TRUSTED_PROXIES takes both)."""
    from services.platform.config import load_settings

    config = of_kind(overlay, "ConfigMap")["pate-config"]["data"]
    trusted = load_settings({"PATE_TRUSTED_PROXIES": config["PATE_TRUSTED_PROXIES"]}).trusted_proxies
    assert trusted and all("/" in n for n in trusted)
    for name in ("orders", "reports", "web"):
        (c,) = pate_deployments(overlay)[name]["spec"]["template"]["spec"]["containers"]
        assert {"configMapRef": {"name": "pate-config"}} in c["envFrom"], name
