"""The database on Kubernetes: one migration Job per release that every service waits for, the
services through PgBouncer in transaction mode within PostgreSQL's max_connections, backups
through the Barman Cloud plugin, and CloudNativePG's metrics through PodMonitors."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from pate.tools import k8scheck, k8sdb
from services.platform.store.pooling import pool_for
from tests.unit.deploy.test_k8s import OVERLAYS, of_kind, rendered

# connections PostgreSQL keeps beside PgBouncer's: superuser_reserved_connections (3), the
# operator's instance manager and exporter, the migration Job, the init containers waiting, a psql
DIRECT_MARGIN = 20


def _pod(resource: dict[str, Any]) -> dict[str, Any]:
    return dict(resource["spec"]["template"]["spec"])


def _database_users(overlay: str) -> dict[str, dict[str, Any]]:
    return {
        name: d
        for name, d in of_kind(overlay, "Deployment").items()
        if any(e["name"] == "PATE_DATABASE_URL" for c in _pod(d)["containers"] for e in c.get("env") or [])
    }


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_one_job_per_release_migrates_and_every_database_user_waits_for_it(overlay: str) -> None:
    (job,) = of_kind(overlay, "Job").values()
    (migrate,) = _pod(job)["containers"]
    assert migrate["args"] == ["db", "migrate"]
    image = migrate["image"]
    assert job["metadata"]["name"] == "pate-migrate-" + image.rpartition(":")[2].replace(".", "-")
    users = _database_users(overlay)
    assert set(users) == {f"pate-{n}" for n in ("orders", "resolver", "intel", "reports", "notifier")}
    for name, deployment in users.items():
        (wait,) = _pod(deployment)["initContainers"]
        assert wait["args"][:2] == ["db", "wait-current"], name
        assert wait["image"] == image == _pod(deployment)["containers"][0]["image"]
        assert wait["securityContext"]["readOnlyRootFilesystem"] is True
    config = of_kind(overlay, "ConfigMap")["pate-config"]["data"]
    assert config["PATE_MIGRATE_AT_START"] == "0" and config["PATE_DB_PREPARED_STATEMENTS"] == "0"
    assert k8sdb.migration_errors(list(rendered(overlay))) == []


def test_the_check_refuses_a_job_of_another_release_and_a_pod_that_does_not_wait() -> None:
    resources = copy.deepcopy(list(rendered("prod")))
    job = next(r for r in resources if r["kind"] == "Job")
    job["metadata"]["name"] = "pate-migrate-0-0-9"
    orders = next(
        r for r in resources if r["kind"] == "Deployment" and r["metadata"]["name"] == "pate-orders"
    )
    del orders["spec"]["template"]["spec"]["initContainers"]
    config = next(r for r in resources if r["kind"] == "ConfigMap" and r["metadata"]["name"] == "pate-config")
    config["data"]["PATE_MIGRATE_AT_START"] = "1"
    assert k8sdb.migration_errors(resources) == [
        "Job/pate-migrate-0-0-9: name it 'pate-migrate-0-1-0', after the release of its image "
        "'registry.example.org/pate:0.1.0'",
        'ConfigMap/pate-config: PATE_MIGRATE_AT_START must be "0" (the Job migrates)',
        "Deployment/pate-orders: no init container running `pate db wait-current`",
    ]


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_the_services_fit_pgbouncer_and_pgbouncer_fits_max_connections(overlay: str) -> None:
    """At the most pods KEDA may run, every process's whole pool (pooling.py's defaults) fits the
    poolers' client slots, and the poolers' server connections fit max_connections."""
    pooler = of_kind(overlay, "Pooler")["pate-db-pooler-rw"]["spec"]
    assert pooler["pgbouncer"]["poolMode"] == "transaction" and pooler["type"] == "rw"
    params = pooler["pgbouncer"]["parameters"]
    scaled = {
        s["spec"]["scaleTargetRef"]["name"]: s["spec"] for s in of_kind(overlay, "ScaledObject").values()
    }
    clients = 0
    for name, deployment in _database_users(overlay).items():
        pods = scaled[name]["maxReplicaCount"] if name in scaled else deployment["spec"]["replicas"]
        pool = pool_for(name.removeprefix("pate-"))
        clients += pods * (pool.size + pool.overflow)
    # the Service spreads connections over the poolers, unevenly: each could take them all
    assert clients <= int(params["max_client_conn"])
    servers = pooler["instances"] * (int(params["default_pool_size"]) + int(params["reserve_pool_size"]))
    max_connections = int(
        of_kind(overlay, "Cluster")["pate-db"]["spec"]["postgresql"]["parameters"]["max_connections"]
    )
    assert servers + DIRECT_MARGIN <= max_connections, (servers, max_connections)


def test_the_check_knows_the_fields_of_a_pooler_an_object_store_and_a_cluster() -> None:
    resources = list(rendered("prod"))
    pooler = copy.deepcopy(of_kind("prod", "Pooler")["pate-db-pooler-rw"])
    pooler["spec"]["pgbouncer"]["parameters"]["pool_mode"] = "statement"
    pooler["spec"]["pgbouncer"]["poolMode"] = "statement"
    assert k8scheck.shape_errors(pooler, resources) == [
        "spec.pgbouncer.poolMode: expected session or transaction",
        "spec.pgbouncer.parameters.pool_mode: not a parameter CloudNativePG lets a Pooler set",
    ]
    store = copy.deepcopy(of_kind("prod", "ObjectStore")["pate-backups"])
    assert k8scheck.shape_errors(store, resources) == []
    store["spec"]["configuration"]["destinationPth"] = store["spec"]["configuration"].pop("destinationPath")
    store["spec"]["retentionPolicy"] = "30 days"
    assert k8scheck.shape_errors(store, resources) == [
        "spec.configuration.destinationPth: unknown",
        "spec.configuration.destinationPath: expected s3://, gs:// or https://",
        "spec.retentionPolicy: expected days, weeks or months, e.g. 30d",
    ]
    cluster = copy.deepcopy(of_kind("prod", "Cluster")["pate-db"])
    cluster["spec"]["backup"] = {"barmanObjectStore": {"destinationPath": "s3://x"}}
    cluster["spec"]["monitoring"] = {"enablePodMonitor": True}
    cluster["spec"]["plugins"][0]["parameters"]["barmanObjectName"] = "nowhere"
    assert k8scheck.shape_errors(cluster, resources) == [
        "spec.backup.barmanObjectStore: deprecated, use the barman-cloud.cloudnative-pg.io plugin "
        "and an ObjectStore",
        "spec.monitoring.enablePodMonitor: deprecated, use a PodMonitor",
        "spec.plugins[barman-cloud.cloudnative-pg.io]: no ObjectStore 'nowhere' in the rendering",
    ]


def test_the_nightly_backup_goes_through_the_plugin_of_its_cluster() -> None:
    resources = copy.deepcopy(list(rendered("prod")))
    (backup,) = of_kind("prod", "ScheduledBackup").values()
    assert backup["spec"]["method"] == "plugin"
    assert backup["spec"]["pluginConfiguration"]["name"] == "barman-cloud.cloudnative-pg.io"
    cluster = next(r for r in resources if r["kind"] == "Cluster")
    cluster["spec"]["plugins"] = []
    assert k8scheck.shape_errors(backup, resources) == [
        "spec.pluginConfiguration.name: the Cluster 'pate-db' has no plugin 'barman-cloud.cloudnative-pg.io'"
    ]


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_postgresql_and_pgbouncer_are_scraped_through_pod_monitors(overlay: str) -> None:
    resources = list(rendered(overlay))
    monitors = of_kind(overlay, "PodMonitor")
    assert monitors["pate-db"]["spec"]["selector"]["matchLabels"]["cnpg.io/cluster"] == "pate-db"
    assert monitors["pate-db-pooler"]["spec"]["selector"]["matchLabels"] == {
        "cnpg.io/poolerName": "pate-db-pooler-rw"
    }
    wrong = copy.deepcopy(monitors["pate-db"])
    wrong["spec"]["selector"]["matchLabels"]["cnpg.io/cluster"] = "other-db"
    wrong["spec"]["podMetricsEndpoints"][0]["port"] = "exporter"
    assert k8scheck.shape_errors(wrong, resources) == [
        "spec.selector: no Cluster 'other-db' in the rendering",
        "spec.podMetricsEndpoints: CloudNativePG's pods name their port metrics, not 'exporter'",
    ]


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_the_network_lets_the_services_reach_pgbouncer_and_the_job_only_the_primary(overlay: str) -> None:
    policies = of_kind(overlay, "NetworkPolicy")
    job = policies["pate-migrate"]["spec"]
    assert [rule["to"] for rule in job["egress"]] == [
        [{"podSelector": {"matchLabels": {"cnpg.io/cluster": "pate-db"}}}]
    ]
    assert "ingress" not in job
    services = [p for rule in policies["pate-services"]["spec"]["egress"] for p in rule["to"]]
    assert {"podSelector": {"matchLabels": {"cnpg.io/poolerName": "pate-db-pooler-rw"}}} in services
    pooler = policies["pate-db-pooler"]["spec"]
    assert pooler["ingress"][0]["from"] == [
        {"podSelector": {"matchLabels": {"app.kubernetes.io/name": "pate"}}}
    ]


def test_production_commits_wait_for_a_synchronous_standby() -> None:
    """RPO 0 (docs/operations.md, "Database failover"): one of the standbys has every commit."""
    (cluster,) = of_kind("prod", "Cluster").values()
    spec = cluster["spec"]
    assert spec["instances"] >= 3  # one standby may be lost while another stays in step
    assert spec["postgresql"]["synchronous"] == {"method": "any", "number": 1, "dataDurability": "required"}
    assert spec["postgresql"]["parameters"]["max_connections"] == "200"  # the base's, kept by the patch
