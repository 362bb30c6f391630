"""Render every Kubernetes overlay with kustomize and validate it (``make deploy-lint``).

``python -m pate.tools.k8scheck [OVERLAY_DIR ...]`` (default: every folder under
deploy/k8s/overlays, then deploy/grafana, the dashboards' ConfigMaps).  Rendering uses the
kustomize built into ``kubectl`` (``$PATE_KUBECTL``, else ``kubectl`` on PATH; Debian's
``kubernetes-client`` package provides one): no PyPI package ships kustomize itself.
Built-in kinds are validated by kubernetes-validate in strict mode (unknown fields are
errors).  The custom resources (KEDA, CloudNativePG, cert-manager, Prometheus operator) have
no schema there: they are
checked for apiVersion, kind, metadata.name and spec, and the ones PATE depends on for the
fields it relies on and their references inside the rendering (a ScaledObject's Deployment, a
Certificate's Issuer and a CA Issuer's Secret, every Secret volume of a PATE pod made by a
Certificate, a ScheduledBackup's Cluster and its backup store, a PrometheusRule's rules, a
PodMonitor's pods and ports; CloudNativePG's Cluster, Pooler and the Barman Cloud plugin's
ObjectStore against their documented fields, in pate.tools.k8sdb); the report says which were
checked for shape only.  Across the rendering: the migration Job is named after its release and
every Deployment using the database waits for it (k8sdb.migration_errors).  The dashboards'
ConfigMaps: each labelled for Grafana's sidecar, every dashboard in one, no uid twice.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from pate.tools import k8sdb

ROOT = Path(__file__).resolve().parents[2]
OVERLAYS = ROOT / "deploy" / "k8s" / "overlays"
DASHBOARDS = ROOT / "deploy" / "grafana"
KUBERNETES_VERSION = "1.37.0"
# API groups of custom resources, which kubernetes-validate has no schema for
CUSTOM_GROUPS = (
    "keda.sh",
    "postgresql.cnpg.io",
    "barmancloud.cnpg.io",
    "cert-manager.io",
    "monitoring.coreos.com",
)


class RenderError(RuntimeError):
    """kustomize could not render an overlay (or is not installed)."""


@dataclass
class Report:
    overlay: str
    strict: list[str] = field(default_factory=list)  # "Kind/name" validated strictly
    custom: list[str] = field(default_factory=list)  # "Kind/name" checked for shape only
    errors: list[str] = field(default_factory=list)


def kubectl() -> str:
    found = os.environ.get("PATE_KUBECTL") or shutil.which("kubectl")
    if not found:
        raise RenderError(
            "kubectl not found (its kustomize renders the overlays): "
            "apt-get install kubernetes-client, or set PATE_KUBECTL"
        )
    return found


def render(overlay: Path) -> list[dict[str, Any]]:
    """The resources ``kubectl kustomize`` makes of ``overlay``."""
    result = subprocess.run(
        [kubectl(), "kustomize", str(overlay)], capture_output=True, text=True, check=False, timeout=120
    )
    if result.returncode != 0:
        raise RenderError(f"{overlay}: kustomize failed: {result.stderr.strip()}")
    return [doc for doc in yaml.safe_load_all(result.stdout) if doc]


def is_custom(resource: dict[str, Any]) -> bool:
    group = str(resource.get("apiVersion", "")).partition("/")[0]
    return group in CUSTOM_GROUPS


def name_of(resource: dict[str, Any]) -> str:
    return f"{resource.get('kind')}/{(resource.get('metadata') or {}).get('name')}"


# the issuer kinds of cert-manager.io/v1; an Issuer has exactly one of them
ISSUER_TYPES = ("selfSigned", "ca", "acme", "vault", "venafi")


def _spec(resource: dict[str, Any]) -> dict[str, Any]:
    spec = resource.get("spec")
    return spec if isinstance(spec, dict) else {}


def _names(resources: list[dict[str, Any]], kind: str) -> set[str]:
    return {str((r.get("metadata") or {}).get("name")) for r in resources if r.get("kind") == kind}


def shape_errors(resource: dict[str, Any], resources: list[dict[str, Any]]) -> list[str]:
    """What a custom resource lacks: the common fields, then the fields of the kinds PATE uses."""
    missing = [k for k in ("apiVersion", "kind", "metadata", "spec") if not resource.get(k)]
    if missing or not resource["metadata"].get("name"):
        return [f"missing {', '.join(missing) or 'metadata.name'}"]
    kind, spec = resource.get("kind"), _spec(resource)
    errors: list[str] = []
    if kind == "ScaledObject":
        target = (spec.get("scaleTargetRef") or {}).get("name")
        if target not in _names(resources, "Deployment"):
            errors.append(f"spec.scaleTargetRef.name: no Deployment {target!r} in the rendering")
        if not spec.get("triggers"):
            errors.append("spec.triggers: empty")
    elif kind == "Issuer":
        types = [t for t in ISSUER_TYPES if t in spec]
        if len(types) != 1:
            errors.append(f"spec: expected exactly one of {', '.join(ISSUER_TYPES)}, found {types or 'none'}")
        elif types == ["ca"]:
            secret = (spec.get("ca") or {}).get("secretName")
            certificates = (_spec(c) for c in resources if c.get("kind") == "Certificate")
            cas = {c.get("secretName") for c in certificates if c.get("isCA")}
            if secret not in cas:
                errors.append(f"spec.ca.secretName: no CA Certificate makes the Secret {secret!r}")
    elif kind in _MORE_SHAPES:
        errors.extend(_MORE_SHAPES[kind](spec, resources))
    elif kind == "Certificate":
        if not spec.get("secretName"):
            errors.append("spec.secretName: missing")
        ref = spec.get("issuerRef") or {}
        if ref.get("kind", "Issuer") != "Issuer" or ref.get("name") not in _names(resources, "Issuer"):
            errors.append(f"spec.issuerRef: no Issuer {ref.get('name')!r} in the rendering")
        if not any(spec.get(k) for k in ("isCA", "commonName", "dnsNames", "ipAddresses")):
            errors.append("spec: a certificate needs commonName, dnsNames or ipAddresses")
    return errors


def _scheduled_backup(spec: dict[str, Any], resources: list[dict[str, Any]]) -> list[str]:
    """Its Cluster is in the rendering and has a backup target; CloudNativePG's cron has six fields."""
    errors = k8sdb.backup_target(spec, resources)
    if len(str(spec.get("schedule", "")).split()) != 6:
        errors.append("spec.schedule: six fields (seconds first)")
    return errors


def _prometheus_rule(spec: dict[str, Any], _resources: list[dict[str, Any]]) -> list[str]:
    errors = []
    groups = spec.get("groups") or []
    if not groups:
        errors.append("spec.groups: empty")
    for group in groups:
        for i, rule in enumerate(group.get("rules") or []):
            if not rule.get("expr") or not (rule.get("alert") or rule.get("record")):
                errors.append(f"spec.groups[{group.get('name')}].rules[{i}]: needs expr and alert or record")
    return errors


def _pod_monitor(spec: dict[str, Any], resources: list[dict[str, Any]]) -> list[str]:
    """Its selector picks some pod of the rendering, one of which has each port it scrapes."""
    cnpg = k8sdb.cnpg_pod_monitor(spec, resources)
    if cnpg is not None:
        return cnpg
    wanted = (spec.get("selector") or {}).get("matchLabels") or {}
    pods = [
        _spec(_spec(r).get("template") or {})
        for r in resources
        if r.get("kind") in ("Deployment", "StatefulSet")
        and wanted.items()
        <= ((_spec(r).get("template") or {}).get("metadata") or {}).get("labels", {}).items()
    ]
    if not pods:
        return [f"spec.selector: no pod template has the labels {wanted}"]
    ports = {p.get("name") for pod in pods for c in pod.get("containers") or [] for p in c.get("ports") or []}
    return [
        f"spec.podMetricsEndpoints: no selected pod has a port {e.get('port')!r}"
        for e in spec.get("podMetricsEndpoints") or []
        if e.get("port") not in ports
    ]


_MORE_SHAPES = {
    "ScheduledBackup": _scheduled_backup,
    "PrometheusRule": _prometheus_rule,
    "PodMonitor": _pod_monitor,
    "Cluster": k8sdb.cluster,
    "Pooler": k8sdb.pooler,
    "ObjectStore": k8sdb.object_store,
}


def secret_volume_errors(resources: list[dict[str, Any]]) -> list[str]:
    """Every Secret a PATE pod mounts whose name ends in -tls must be made by a Certificate."""
    made = {_spec(c).get("secretName") for c in resources if c.get("kind") == "Certificate"}
    errors = []
    for r in resources:
        if r.get("kind") not in ("Deployment", "StatefulSet", "Job"):
            continue
        pod = _spec(_spec(r).get("template") or {})
        for volume in pod.get("volumes") or []:
            secret = (volume.get("secret") or {}).get("secretName", "")
            if secret.endswith("-tls") and secret not in made:
                errors.append(f"{name_of(r)}: volume {volume.get('name')}: no Certificate makes {secret!r}")
    return errors


def dashboard_errors(resources: list[dict[str, Any]]) -> list[str]:
    """Each dashboard ConfigMap is labelled for Grafana's sidecar and holds one dashboard, every
    dashboard of deploy/grafana is in one, and no two share a uid (the sidecar keeps one)."""
    errors, uids = [], []
    for r in resources:
        if (r.get("metadata") or {}).get("labels", {}).get("grafana_dashboard") != "1":
            errors.append(f'{name_of(r)}: no label grafana_dashboard: "1"')
        for key, text in (r.get("data") or {}).items():
            try:
                uids.append(json.loads(text)["uid"])
            except (ValueError, KeyError, TypeError):
                errors.append(f"{name_of(r)}: {key} is no dashboard with a uid")
    files = {p.name for p in DASHBOARDS.glob("*.json")}
    packed = {k for r in resources for k in r.get("data") or {}}
    errors += [f"deploy/grafana/{f}: in no ConfigMap" for f in sorted(files - packed)]
    errors += [f"dashboard uid {u!r} used twice" for u in sorted({u for u in uids if uids.count(u) > 1})]
    return errors


def validate(overlay: Path) -> Report:
    import kubernetes_validate

    report = Report(overlay=overlay.name)
    resources = render(overlay)
    if overlay.resolve() == DASHBOARDS.resolve():
        report.errors.extend(dashboard_errors(resources))
    else:
        report.errors.extend(secret_volume_errors(resources))
        report.errors.extend(k8sdb.migration_errors(resources))
    for resource in resources:
        name = name_of(resource)
        if is_custom(resource):
            report.errors.extend(f"{name}: {e}" for e in shape_errors(resource, resources))
            report.custom.append(name)
            continue
        try:
            kubernetes_validate.validate(resource, KUBERNETES_VERSION, strict=True)
        except kubernetes_validate.ValidationError as err:
            path = "/".join(str(p) for p in err.path)
            report.errors.append(f"{name}: {path}: {err.message}")
        report.strict.append(name)
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("overlays", nargs="*", type=Path)
    args = parser.parse_args(argv)
    overlays = args.overlays or [
        *sorted(p for p in OVERLAYS.iterdir() if (p / "kustomization.yaml").exists()),
        DASHBOARDS,
    ]
    failed = False
    for overlay in overlays:
        try:
            report = validate(overlay)
        except RenderError as err:
            print(f"k8s: {err}", file=sys.stderr)
            return 2
        kinds = sorted({c.partition("/")[0] for c in report.custom})
        print(
            f"k8s {report.overlay}: {len(report.strict)} resources valid (kubernetes-validate "
            f"{KUBERNETES_VERSION}, strict); {len(report.custom)} custom resources checked for shape only "
            f"({', '.join(kinds)})"
        )
        for error in report.errors:
            print(f"  {error}", file=sys.stderr)
        failed = failed or bool(report.errors)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
