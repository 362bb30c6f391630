"""Who each pod is and where it may go: one ServiceAccount per component, the resolver's way to
GITM and the notifier's to mail and webhooks narrowed, and players' programs let in through the
prod overlay's gRPC ingress only (docs/security.md "Least privilege", docs/api.md)."""

from __future__ import annotations

import ipaddress
import os
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from pate.tools import k8scheck
from tests.unit.deploy.test_k8s import GRPC_PORTS, OVERLAYS, of_kind, pate_deployments, rendered

ROOT = Path(k8scheck.ROOT)
POD_OWNERS = ("Deployment", "StatefulSet", "Job", "CronJob")
# what a player's program calls (docs/api.md), by the process that serves it
API_SERVICES = {"Sessions": "orders", "Accounts": "orders", "PlayerDesk": "orders", "OrderDesk": "orders"}
API_SERVICES["Reports"] = "reports"


def _pod(resource: dict[str, Any]) -> dict[str, Any]:
    spec = resource["spec"]
    if resource["kind"] == "CronJob":
        spec = spec["jobTemplate"]["spec"]
    return dict(spec["template"])


def _selects(selector: dict[str, Any], labels: dict[str, str]) -> bool:
    if not selector.get("matchLabels", {}).items() <= labels.items():
        return False
    for e in selector.get("matchExpressions", []):
        assert e["operator"] == "In", e  # the only operator the manifests use
        if labels.get(e["key"]) not in e["values"]:
            return False
    return True


def _egress_allows(overlay: str, labels: dict[str, str], address: str, port: int) -> bool:
    """Whether the rendered NetworkPolicies let a pod with ``labels`` open a TCP connection to an
    address outside the cluster (peers by ipBlock; a rule with no ``to`` goes anywhere)."""
    ip = ipaddress.ip_address(address)
    for policy in of_kind(overlay, "NetworkPolicy").values():
        spec = policy["spec"]
        if "Egress" not in spec.get("policyTypes", []) or not _selects(spec["podSelector"], labels):
            continue
        for rule in spec.get("egress", []):
            ports = rule.get("ports")
            if ports and not any(p.get("port") == port and p.get("protocol", "TCP") == "TCP" for p in ports):
                continue
            if "to" not in rule:
                return True
            for peer in rule["to"]:
                block = peer.get("ipBlock")
                if block is None or ip.version != ipaddress.ip_network(block["cidr"]).version:
                    continue
                if ip in ipaddress.ip_network(block["cidr"]) and not any(
                    ip in ipaddress.ip_network(e) for e in block.get("except", [])
                ):
                    return True
    return False


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_every_pod_runs_under_a_service_account_of_its_own_without_a_token(overlay: str) -> None:
    accounts = of_kind(overlay, "ServiceAccount")
    by_component: dict[str, set[str]] = {}
    for resource in rendered(overlay):
        if resource["kind"] not in POD_OWNERS:
            continue
        pod = _pod(resource)
        name = pod["spec"].get("serviceAccountName")
        assert name and name not in ("default", "pate"), k8scheck.name_of(resource)
        assert pod["spec"]["automountServiceAccountToken"] is False, k8scheck.name_of(resource)
        labels = pod["metadata"]["labels"]
        component = labels.get("app.kubernetes.io/component") or labels["app.kubernetes.io/instance"]
        if labels["app.kubernetes.io/name"] == "pate":
            assert name == f"pate-{component}", k8scheck.name_of(resource)
        by_component.setdefault(component, set()).add(name)
        assert accounts[name]["automountServiceAccountToken"] is False
    # the upkeep CronJobs share one; no account serves two components
    assert all(len(names) == 1 for names in by_component.values()), by_component
    used = [n for names in by_component.values() for n in names]
    assert len(used) == len(set(used)) == len(accounts)
    assert {
        "orders",
        "resolver",
        "intel",
        "reports",
        "web",
        "notifier",
        "admiral",
        "migrate",
        "upkeep",
    } <= set(by_component)
    # no account holds a role: nothing in the rendering binds one
    assert not [r for r in rendered(overlay) if r["kind"] in ("RoleBinding", "ClusterRoleBinding")]


def _gitm_patch(overlay: str) -> dict[str, Any]:
    ops = yaml.safe_load((k8scheck.OVERLAYS / overlay / "gitm-egress.yaml").read_text())
    return {op["path"].rsplit("/", 1)[-1]: op["value"] for op in ops}


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_the_resolver_reaches_gitm_only_in_the_namespace_and_on_the_port_the_overlay_sets(
    overlay: str,
) -> None:
    (rule,) = of_kind(overlay, "NetworkPolicy")["pate-resolver-to-gitm"]["spec"]["egress"]
    (peer,) = rule["to"]
    wanted = _gitm_patch(overlay)
    assert peer["namespaceSelector"] == {
        "matchLabels": {"kubernetes.io/metadata.name": wanted["kubernetes.io~1metadata.name"]}
    }
    assert peer["podSelector"] == {"matchLabels": {"app.kubernetes.io/name": "gitm"}}
    assert rule["ports"] == [{"port": wanted["port"], "protocol": "TCP"}]
    gitm_addr = of_kind(overlay, "ConfigMap")["pate-config"]["data"]["PATE_GITM_ADDR"]
    if gitm_addr:  # the policy opens the port PATE dials
        assert int(gitm_addr.rsplit(":", 1)[1]) == wanted["port"]
    # no policy of the rendering lets a pod out to any namespace, nor anywhere on any port
    for name, policy in of_kind(overlay, "NetworkPolicy").items():
        for out in policy["spec"].get("egress", []):
            assert out.get("to") or out.get("ports"), name
            assert all(p.get("namespaceSelector") != {} for p in out.get("to", [])), name


NOTIFIER = {"app.kubernetes.io/name": "pate", "app.kubernetes.io/component": "notifier"}
INSIDE = (
    "169.254.169.254",  # the clouds' metadata service
    "10.96.0.1",  # the usual service network (the Kubernetes API)
    "10.244.1.5",  # the usual pod network
    "172.16.4.4",
    "192.168.1.10",
    "127.0.0.1",
    "100.64.0.9",
    "fd00::5",
    "fe80::1",
    "::1",
    "::ffff:10.0.0.1",
)


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_the_notifier_reaches_mail_and_webhooks_on_public_addresses_only(overlay: str) -> None:
    for port in (25, 465, 587, 443):
        assert _egress_allows(overlay, NOTIFIER, "198.51.100.7", port), port
        assert _egress_allows(overlay, NOTIFIER, "2001:db8::25", port), port
        for address in INSIDE:
            assert not _egress_allows(overlay, NOTIFIER, address, port), (address, port)
    assert not _egress_allows(overlay, NOTIFIER, "198.51.100.7", 80)
    assert not _egress_allows(overlay, NOTIFIER, "198.51.100.7", 5432)
    # another component is not let out by the notifier's policy
    orders = {**NOTIFIER, "app.kubernetes.io/component": "orders"}
    assert not _egress_allows(overlay, orders, "198.51.100.7", 443)


def _documented_mail_patch() -> str:
    """The JSON patch docs/security.md gives to send mail to one relay only."""
    text = (ROOT / "docs" / "security.md").read_text()
    block = re.search(
        r"\n((?:    .*\n)*    - op: replace\n    +path: /spec/egress/0/to\n(?:    .*\n)*)", text
    )
    assert block, "docs/security.md lost the mail relay's patch"
    return "\n".join(line[4:] for line in block.group(1).splitlines()) + "\n"


def test_an_overlay_narrows_the_mail_rule_to_its_relay_with_the_documented_patch(tmp_path: Path) -> None:
    (tmp_path / "mail-egress.yaml").write_text(_documented_mail_patch())
    base = (k8scheck.OVERLAYS.parent / "base").resolve()
    (tmp_path / "kustomization.yaml").write_text(
        yaml.safe_dump(
            {
                "apiVersion": "kustomize.config.k8s.io/v1beta1",
                "kind": "Kustomization",
                "resources": [os.path.relpath(base, tmp_path)],  # kustomize takes no absolute root
                "patchesJson6902": [
                    {
                        "target": {
                            "group": "networking.k8s.io",
                            "version": "v1",
                            "kind": "NetworkPolicy",
                            "name": "pate-notifier-out",
                        },
                        "path": "mail-egress.yaml",
                    }
                ],
            }
        )
    )
    out = subprocess.run(
        [k8scheck.kubectl(), "kustomize", str(tmp_path)],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    ).stdout
    policy = next(
        d
        for d in yaml.safe_load_all(out)
        if d and d["kind"] == "NetworkPolicy" and d["metadata"]["name"] == "pate-notifier-out"
    )
    mail, webhooks = policy["spec"]["egress"]
    relays = [ipaddress.ip_network(p["ipBlock"]["cidr"]) for p in mail["to"]]
    assert relays and all(r.num_addresses <= 256 for r in relays)  # a relay, not the internet
    assert [p["port"] for p in webhooks["ports"]] == [443]
    assert webhooks["to"] == of_kind("prod", "NetworkPolicy")["pate-notifier-out"]["spec"]["egress"][1]["to"]


def _registered(process: str) -> set[str]:
    source = (ROOT / "services" / process / "main.py").read_text()
    return set(re.findall(r"add_(\w+)Servicer_to_server", source))


def test_prod_lets_players_programs_in_through_a_grpc_ingress_to_their_services_only() -> None:
    ingresses = {n: i for n, i in of_kind("prod", "Ingress").items() if n.startswith("pate-api-")}
    certificates = of_kind("prod", "Certificate")
    routed: dict[str, str] = {}
    for ingress in ingresses.values():
        notes = ingress["metadata"]["annotations"]
        prefix = "nginx.ingress.kubernetes.io/"
        assert notes[prefix + "backend-protocol"] == "GRPCS"  # TLS again to the pods
        assert notes[prefix + "proxy-ssl-verify"] == "on"
        (tls,) = ingress["spec"]["tls"]
        (rule,) = ingress["spec"]["rules"]
        assert rule["host"] in tls["hosts"] and tls["secretName"] == "pate-api-public"
        for path in rule["http"]["paths"]:
            service = path["backend"]["service"]
            process = service["name"].removeprefix("pate-")
            assert service["port"] == {"name": "grpc"}
            # the pod's certificate names what the controller checks
            assert notes[prefix + "proxy-ssl-name"] in certificates[service["name"]]["spec"]["dnsNames"]
            grpc_service = re.fullmatch(r"/pate\.v1\.(\w+)/", path["path"])
            assert grpc_service, path["path"]
            assert grpc_service.group(1) in _registered(process), path
            routed[grpc_service.group(1)] = process
        # the controller's own client certificate of the PATE CA: no component's key
        namespace, _, secret = notes[prefix + "proxy-ssl-secret"].partition("/")
        assert namespace == "pate"
        (made_by,) = [c for c in certificates.values() if c["spec"]["secretName"] == secret]
        assert made_by["spec"]["usages"] == ["client auth"]
        assert made_by["spec"]["issuerRef"]["name"] == "pate-ca"
    assert routed == API_SERVICES  # never CampaignAdmin, GameMaster, BotAdmirals...
    assert not {"CampaignAdmin", "GameMaster", "BotAdmirals"} & set(routed)
    # orders' and reports' gRPC ports from the controller's namespace, nothing else added
    policy = of_kind("prod", "NetworkPolicy")["pate-api-from-ingress"]["spec"]
    for name, d in pate_deployments("prod").items():
        labels = d["spec"]["template"]["metadata"]["labels"]
        assert _selects(policy["podSelector"], labels) == (name in ("orders", "reports")), name
    (allowed,) = policy["ingress"]
    assert allowed["from"] == [
        {"namespaceSelector": {"matchLabels": {"kubernetes.io/metadata.name": "ingress-nginx"}}}
    ]
    assert sorted(p["port"] for p in allowed["ports"]) == [GRPC_PORTS["orders"], GRPC_PORTS["reports"]]
    # development exposes nothing: kubectl port-forward
    assert not of_kind("dev", "Ingress") and "pate-api-from-ingress" not in of_kind("dev", "NetworkPolicy")
    api_doc = (ROOT / "docs" / "api.md").read_text()
    assert "api.pate.example.org:443" in api_doc


def test_the_postgres_podmonitors_give_the_series_the_labels_the_alerts_select_on() -> None:
    """CloudNativePG's exporters name no cluster nor pooler: the PodMonitors copy them from the
    pods' labels, so cluster="pate-db" in the alerts and dashboards matches something."""
    monitors = of_kind("prod", "PodMonitor")
    for name, pod_label, target in (
        ("pate-db", "cnpg.io/cluster", "cluster"),
        ("pate-db-pooler", "cnpg.io/poolerName", "pooler"),
    ):
        spec = monitors[name]["spec"]
        (endpoint,) = spec["podMetricsEndpoints"]
        source = "__meta_kubernetes_pod_label_" + re.sub(r"[^A-Za-z0-9_]", "_", pod_label)
        assert {"sourceLabels": [source], "targetLabel": target} in endpoint["relabelings"], name
        value = spec["selector"]["matchLabels"][pod_label]
        rules = (ROOT / "deploy" / "prometheus" / "pate-alerts.yaml").read_text()
        dashboard = (ROOT / "deploy" / "grafana" / "pate-postgres-dashboard.json").read_text()
        assert f'{target}=\\"{value}\\"' in dashboard, name
        if target == "cluster":
            assert f'cluster="{value}"' in rules
