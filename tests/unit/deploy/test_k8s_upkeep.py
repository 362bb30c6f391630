"""The upkeep CronJobs of the runbooks (docs/operations.md, "Runbooks") in every rendered overlay:
claims pruned monthly, never younger than the stream's max age; the stream rebuilt only by hand;
each in the release's image, with the CA and never a key, and a NetworkPolicy to the database
and NATS alone."""

from __future__ import annotations

import pytest

from services.platform.runtime.upkeep import SHORTEST_KEEP_DAYS
from tests.unit.deploy.test_k8s import OVERLAYS, of_kind, pate_deployments


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_the_runbook_cronjobs_are_rendered(overlay: str) -> None:
    jobs = of_kind(overlay, "CronJob")
    prune, rebuild = jobs["pate-prune-claims"]["spec"], jobs["pate-stream-rebuild"]["spec"]
    assert not prune.get("suspend") and prune["schedule"] == "0 4 1 * *"
    assert rebuild["suspend"] is True  # never on its own: the services must be stopped first
    accounts = jobs["pate-prune-accounts"]["spec"]
    assert accounts["schedule"] == "30 3 * * *" and not accounts.get("suspend")
    (c,) = accounts["jobTemplate"]["spec"]["template"]["spec"]["containers"]
    assert c["args"] == ["account", "prune-unverified", "--days", "7"]
    image = next(iter(pate_deployments(overlay).values()))["spec"]["template"]["spec"]["containers"][0][
        "image"
    ]
    for spec, args in ((prune, ["stream", "prune-claims"]), (rebuild, ["stream", "rebuild", "--yes"])):
        pod = spec["jobTemplate"]["spec"]["template"]["spec"]
        (c,) = pod["containers"]
        assert c["args"][: len(args)] == args and c["image"] == image  # the release's own image
        assert pod["automountServiceAccountToken"] is False
        assert c["securityContext"]["readOnlyRootFilesystem"] is True
        for volume in pod["volumes"]:
            items = volume.get("secret", {}).get("items")
            if volume.get("secret"):
                assert [i["key"] for i in items] == ["ca.crt"], "the CA only, never a key"
    days = prune["jobTemplate"]["spec"]["template"]["spec"]["containers"][0]["args"][-1]
    assert int(days) >= SHORTEST_KEEP_DAYS


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_the_upkeep_pods_reach_the_database_and_nats_only(overlay: str) -> None:
    policy = of_kind(overlay, "NetworkPolicy")["pate-upkeep"]["spec"]
    assert policy["podSelector"]["matchLabels"]["app.kubernetes.io/component"] == "upkeep"
    ports = sorted(p["port"] for rule in policy["egress"] for p in rule["ports"])
    assert ports == [4222, 5432] and "ingress" not in policy
