"""The database's part of ``make deploy-lint`` (pate.tools.k8scheck): CloudNativePG's Cluster,
Pooler and PodMonitors, the Barman Cloud plugin's ObjectStore, and the migration Job with the
init containers that wait for it.

kubernetes-validate has no schema for custom resources, so the fields PATE writes are checked
here against what CloudNativePG and the Barman Cloud plugin document for them (their CRDs are
not stored in the repository): an unknown field, a deprecated one, or a reference to a resource
the rendering lacks is an error.
"""

from __future__ import annotations

import re
from typing import Any

Resources = list[dict[str, Any]]
BARMAN_PLUGIN = "barman-cloud.cloudnative-pg.io"
# the PgBouncer parameters a Pooler may set (CloudNativePG's documented list; others are refused)
POOLER_PARAMETERS = frozenset(
    [
        "application_name_add_host",
        "autodb_idle_timeout",
        "client_idle_timeout",
        "client_login_timeout",
        "default_pool_size",
        "disable_pqexec",
        "idle_transaction_timeout",
        "ignore_startup_parameters",
        "log_connections",
        "log_disconnections",
        "log_pooler_errors",
        "log_stats",
        "max_client_conn",
        "max_db_connections",
        "max_user_connections",
        "min_pool_size",
        "query_timeout",
        "query_wait_timeout",
        "reserve_pool_size",
        "reserve_pool_timeout",
        "server_check_delay",
        "server_check_query",
        "server_connect_timeout",
        "server_fast_close",
        "server_idle_timeout",
        "server_lifetime",
        "server_login_retry",
        "server_reset_query",
        "server_reset_query_always",
        "server_round_robin",
        "stats_period",
        "verbose",
    ]
)
# ObjectStore (barmancloud.cnpg.io/v1): the fields of spec and of spec.configuration (the
# plugin's documented BarmanObjectStoreConfiguration)
OBJECT_STORE_SPEC = frozenset({"configuration", "retentionPolicy", "instanceSidecarConfiguration"})
OBJECT_STORE_CONFIGURATION = frozenset(
    {
        "destinationPath",
        "endpointURL",
        "endpointCA",
        "serverName",
        "s3Credentials",
        "azureCredentials",
        "googleCredentials",
        "wal",
        "data",
        "tags",
        "historyTags",
    }
)
COMPRESSIONS = frozenset({"gzip", "bzip2", "snappy", "lz4", "xz", "zstd"})
RETENTION = re.compile(r"[1-9][0-9]*[dwm]")


def _spec(resource: dict[str, Any]) -> dict[str, Any]:
    spec = resource.get("spec")
    return spec if isinstance(spec, dict) else {}


def _named(resources: Resources, kind: str, name: object) -> dict[str, Any] | None:
    for r in resources:
        if r.get("kind") == kind and (r.get("metadata") or {}).get("name") == name:
            return r
    return None


def cluster(spec: dict[str, Any], resources: Resources) -> list[str]:
    """No deprecated field; each Barman Cloud plugin entry names an ObjectStore of the rendering."""
    errors = []
    if "barmanObjectStore" in (spec.get("backup") or {}):
        errors.append(
            f"spec.backup.barmanObjectStore: deprecated, use the {BARMAN_PLUGIN} plugin and an ObjectStore"
        )
    if "enablePodMonitor" in (spec.get("monitoring") or {}):
        errors.append("spec.monitoring.enablePodMonitor: deprecated, use a PodMonitor")
    for plugin in spec.get("plugins") or []:
        if plugin.get("name") == BARMAN_PLUGIN:
            store = (plugin.get("parameters") or {}).get("barmanObjectName")
            if _named(resources, "ObjectStore", store) is None:
                errors.append(f"spec.plugins[{BARMAN_PLUGIN}]: no ObjectStore {store!r} in the rendering")
    return errors


def object_store(spec: dict[str, Any], _resources: Resources) -> list[str]:
    errors = [f"spec.{k}: not a field of ObjectStore" for k in sorted(set(spec) - OBJECT_STORE_SPEC)]
    config = spec.get("configuration") or {}
    errors += [f"spec.configuration.{k}: unknown" for k in sorted(set(config) - OBJECT_STORE_CONFIGURATION)]
    if not re.match(r"(s3|gs|https?)://", str(config.get("destinationPath", ""))):
        errors.append("spec.configuration.destinationPath: expected s3://, gs:// or https://")
    if not any(k in config for k in ("s3Credentials", "azureCredentials", "googleCredentials")):
        errors.append("spec.configuration: needs s3Credentials, azureCredentials or googleCredentials")
    for ref in (config.get("s3Credentials") or {}).values():
        if isinstance(ref, dict) and not (ref.get("name") and ref.get("key")):
            errors.append("spec.configuration.s3Credentials: each secret reference needs name and key")
    for part in ("wal", "data"):
        compression = (config.get(part) or {}).get("compression")
        if compression is not None and compression not in COMPRESSIONS:
            errors.append(f"spec.configuration.{part}.compression: {compression!r} unknown")
    if "retentionPolicy" in spec and not RETENTION.fullmatch(str(spec["retentionPolicy"])):
        errors.append("spec.retentionPolicy: expected days, weeks or months, e.g. 30d")
    return errors


def pooler(spec: dict[str, Any], resources: Resources) -> list[str]:
    errors = []
    name = (spec.get("cluster") or {}).get("name")
    if _named(resources, "Cluster", name) is None:
        errors.append(f"spec.cluster.name: no Cluster {name!r} in the rendering")
    if spec.get("type", "rw") not in ("rw", "ro", "r"):
        errors.append("spec.type: expected rw, ro or r")
    bouncer = spec.get("pgbouncer") or {}
    if bouncer.get("poolMode", "session") not in ("session", "transaction"):
        errors.append("spec.pgbouncer.poolMode: expected session or transaction")
    for key, value in (bouncer.get("parameters") or {}).items():
        if key not in POOLER_PARAMETERS:
            errors.append(f"spec.pgbouncer.parameters.{key}: not a parameter CloudNativePG lets a Pooler set")
        elif not isinstance(value, str):
            errors.append(f"spec.pgbouncer.parameters.{key}: a string")
    return errors


def backup_target(spec: dict[str, Any], resources: Resources) -> list[str]:
    """A ScheduledBackup's Cluster is in the rendering and has where to write it: the plugin the
    backup names (method: plugin), or a spec.backup of its own."""
    name = (spec.get("cluster") or {}).get("name")
    found = _named(resources, "Cluster", name)
    if found is None:
        return [f"spec.cluster.name: no Cluster {name!r} in the rendering"]
    if spec.get("method") == "plugin":
        plugin = (spec.get("pluginConfiguration") or {}).get("name")
        if plugin not in {p.get("name") for p in _spec(found).get("plugins") or []}:
            return [f"spec.pluginConfiguration.name: the Cluster {name!r} has no plugin {plugin!r}"]
        return []
    if not _spec(found).get("backup"):
        return [f"spec.cluster.name: the Cluster {name!r} has no spec.backup to write to"]
    return []


def cnpg_pod_monitor(spec: dict[str, Any], resources: Resources) -> list[str] | None:
    """A PodMonitor of CloudNativePG's pods (not in the rendering: the operator makes them):
    its Cluster or Pooler is, and it scrapes the port they name metrics.  None: not one."""
    labels = (spec.get("selector") or {}).get("matchLabels") or {}
    owner = next(((k, labels[k]) for k in ("cnpg.io/poolerName", "cnpg.io/cluster") if k in labels), None)
    if owner is None:
        return None
    kind = "Pooler" if owner[0] == "cnpg.io/poolerName" else "Cluster"
    errors = (
        []
        if _named(resources, kind, owner[1])
        else [f"spec.selector: no {kind} {owner[1]!r} in the rendering"]
    )
    errors += [
        f"spec.podMetricsEndpoints: CloudNativePG's pods name their port metrics, not {e.get('port')!r}"
        for e in spec.get("podMetricsEndpoints") or []
        if e.get("port") != "metrics"
    ]
    return errors


def _pod(resource: dict[str, Any]) -> dict[str, Any]:
    return _spec(_spec(resource).get("template") or {})


def _uses_database(pod: dict[str, Any]) -> bool:
    return any(
        e.get("name") == "PATE_DATABASE_URL" for c in pod.get("containers") or [] for e in c.get("env") or []
    )


def _args(container: dict[str, Any]) -> list[str]:
    return [str(a) for a in container.get("args") or []]


def migration_errors(resources: Resources) -> list[str]:
    """One migration Job, named after the release of its image; every Deployment using the
    database waits for it in an init container of the same image and does not migrate itself."""
    jobs = [
        r
        for r in resources
        if r.get("kind") == "Job"
        and any(_args(c)[:2] == ["db", "migrate"] for c in _pod(r).get("containers") or [])
    ]
    if len(jobs) != 1:
        return [f"expected one Job running `pate db migrate`, found {len(jobs)}"]
    (job,) = jobs
    image = str(_pod(job)["containers"][0].get("image", ""))
    tag = image.rpartition(":")[2] if ":" in image.rpartition("/")[2] else ""
    errors = []
    wanted = "pate-migrate-" + re.sub(r"[^a-z0-9-]", "-", tag.lower())
    if job["metadata"].get("name") != wanted:
        errors.append(
            f"Job/{job['metadata'].get('name')}: name it {wanted!r}, after the release of its image {image!r}"
        )
    config = _named(resources, "ConfigMap", "pate-config") or {}
    if (config.get("data") or {}).get("PATE_MIGRATE_AT_START") != "0":
        errors.append('ConfigMap/pate-config: PATE_MIGRATE_AT_START must be "0" (the Job migrates)')
    for r in resources:
        if r.get("kind") != "Deployment" or not _uses_database(_pod(r)):
            continue
        waits = [c for c in _pod(r).get("initContainers") or [] if _args(c)[:2] == ["db", "wait-current"]]
        if not waits:
            errors.append(
                f"Deployment/{r['metadata']['name']}: no init container running `pate db wait-current`"
            )
        elif any(c.get("image") != image for c in waits):
            errors.append(
                f"Deployment/{r['metadata']['name']}: its wait-current init container is not of {image!r}"
            )
    return errors
