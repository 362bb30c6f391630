"""deploy/grafana as ConfigMaps for Grafana's dashboard sidecar: rendered and checked by
make deploy-lint with the overlays (pate.tools.k8scheck.dashboard_errors)."""

from __future__ import annotations

import copy
import json

from pate.tools import k8scheck


def test_every_dashboard_renders_into_a_labelled_configmap_of_its_own() -> None:
    report = k8scheck.validate(k8scheck.DASHBOARDS)
    assert report.errors == [] and report.custom == []
    resources = k8scheck.render(k8scheck.DASHBOARDS)
    files = sorted(p.name for p in k8scheck.DASHBOARDS.glob("*.json"))
    assert sorted(k for r in resources for k in r["data"]) == files
    for r in resources:
        assert r["kind"] == "ConfigMap" and r["metadata"]["labels"]["grafana_dashboard"] == "1"
        (text,) = r["data"].values()
        assert json.loads(text)["panels"]
    assert k8scheck.main([str(k8scheck.DASHBOARDS)]) == 0


def test_the_dashboard_check_finds_a_missing_label_file_or_a_shared_uid() -> None:
    resources = [copy.deepcopy(r) for r in k8scheck.render(k8scheck.DASHBOARDS)]
    assert k8scheck.dashboard_errors(resources) == []
    first, second = resources[0], resources[1]
    del first["metadata"]["labels"]["grafana_dashboard"]
    (key,) = second["data"]
    dashboard = json.loads(second["data"][key])
    dashboard["uid"] = json.loads(next(iter(first["data"].values())))["uid"]
    second["data"][key] = json.dumps(dashboard)
    errors = k8scheck.dashboard_errors(resources)
    assert errors == [
        f'ConfigMap/{first["metadata"]["name"]}: no label grafana_dashboard: "1"',
        f"dashboard uid {dashboard['uid']!r} used twice",
    ]
    (gone,) = resources.pop()["data"]
    assert f"deploy/grafana/{gone}: in no ConfigMap" in k8scheck.dashboard_errors(resources)
