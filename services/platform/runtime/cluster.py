"""Start the four services (and the web desk) as separate processes on one machine.

Used by ``pate demo`` (``make run``) and by the end-to-end tests: it starts an
embedded nats-server unless one is given, gives every process the same
environment (database, bus, addresses, administrator token), waits until the
gRPC services report SERVING, and stops everything with SIGTERM (then SIGKILL
after a grace period).
"""

from __future__ import annotations

import os
import secrets
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from services.platform.bus.natsserver import free_port
from services.platform.processes import launcher_env
from services.platform.security.tls import TlsSettings, load_tls
from services.platform.security.tls import channel as tls_channel

SERVICES = ("orders", "resolver", "intel", "reports")
GITM = "gitm_reference"  # services/gitm_reference: not a PATE service, the land side


@dataclass
class Cluster:
    workdir: Path
    nats_url: str
    database_url: str
    admin_token: str = field(default_factory=lambda: secrets.token_hex(16))
    # the bot admiral plays with its own narrower token, as in production
    admiral_token: str = field(default_factory=lambda: secrets.token_hex(16))
    orders_addr: str = field(default_factory=lambda: f"127.0.0.1:{free_port()}")
    reports_addr: str = field(default_factory=lambda: f"127.0.0.1:{free_port()}")
    web: bool = False  # also start the web Ship Order Desk (services/web)
    notifier: bool = False  # also start the notifier worker (services/notifier)
    web_addr: str = field(default_factory=lambda: f"127.0.0.1:{free_port()}")
    extra_env: Mapping[str, str] = field(default_factory=dict)
    # a service's own NATS URL (its own user, as in production); the others take nats_url
    nats_urls: Mapping[str, str] = field(default_factory=dict)
    # set: the reference GITM land service is started there first (docs/gitm.md)
    gitm_addr: str = ""
    # PATE's caller token between the resolver and the land service (docs/gitm.md "Security")
    gitm_token: str = field(default_factory=lambda: secrets.token_hex(16))
    procs: dict[str, list[subprocess.Popen[bytes]]] = field(default_factory=dict)
    health: dict[int, str] = field(default_factory=dict)  # pid -> gRPC health address
    metrics: dict[int, str] = field(default_factory=dict)  # pid -> Prometheus /metrics address
    logs: dict[int, Path] = field(default_factory=dict)  # pid -> its log file

    @property
    def env(self) -> dict[str, str]:
        env = dict(os.environ)
        env.update(
            PATE_DATABASE_URL=self.database_url,
            PATE_NATS_URL=self.nats_url,
            PATE_ORDERS_ADDR=self.orders_addr,
            PATE_REPORTS_ADDR=self.reports_addr,
            PATE_WEB_ADDR=self.web_addr,
            PATE_ADMIN_TOKEN=self.admin_token,
            PATE_ADMIRAL_TOKEN=self.admiral_token,
            PATE_DEADLINE_POLL_SECONDS=env.get("PATE_DEADLINE_POLL_SECONDS", "1"),
            PYTHONUNBUFFERED="1",
            **launcher_env(),  # each service ends with this launcher, even one killed outright
        )
        if self.gitm_addr:
            env.update(
                PATE_GITM_ADDR=self.gitm_addr,
                PATE_GITM_DATABASE_URL=f"sqlite:///{self.workdir.resolve() / 'gitm-reference.db'}",
                PATE_GITM_TOKEN=self.gitm_token,
            )
        env.update(self.extra_env)
        return env

    @property
    def tls(self) -> TlsSettings:
        """The client side of the TLS settings the processes get (PATE_TLS_CA ...)."""
        return load_tls(self.env)

    def channel(self, addr: str) -> grpc.Channel:
        """A client channel to one of the services, TLS when the cluster uses it."""
        return tls_channel(addr, self.tls)

    def start(self, service: str) -> subprocess.Popen[bytes]:
        logs = self.workdir / "logs"
        logs.mkdir(parents=True, exist_ok=True)
        n = len(self.procs.get(service, []))
        log_path = logs / f"{service}{'-' + str(n) if n else ''}.log"
        out = log_path.open("ab")
        env = self.env
        addrs = {"orders": self.orders_addr, "reports": self.reports_addr, "web": self.web_addr}
        addr = {**addrs, GITM: self.gitm_addr}.get(service)
        if addr is None:  # a worker: its own port for health checks
            addr = f"127.0.0.1:{free_port()}"
            env[f"PATE_{service.upper()}_ADDR"] = addr
        if service in self.nats_urls:
            env["PATE_NATS_URL"] = self.nats_urls[service]
        if "PATE_METRICS_ADDR" not in self.extra_env:  # each process its own metrics port
            env["PATE_METRICS_ADDR"] = f"127.0.0.1:{free_port()}"
        proc = subprocess.Popen(
            [sys.executable, "-m", f"services.{service}.main"],
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # Ctrl-C in the terminal reaches only the launcher
        )
        self.procs.setdefault(service, []).append(proc)
        self.logs[proc.pid] = log_path
        self.health[proc.pid] = addr
        if env.get("PATE_METRICS_ADDR", "0") not in ("", "0"):
            self.metrics[proc.pid] = env["PATE_METRICS_ADDR"]
        return proc

    def start_all(self, timeout: float = 60) -> None:
        """Start every service and wait until each serves; on failure stop those started.

        A half-started cluster must not outlive its failure: its workers would go on taking
        messages from the stream's durable consumers, which every cluster on the same NATS
        shares, and another cluster's campaigns would stall behind them."""
        self.migrate()
        try:
            if self.gitm_addr:
                self.start(GITM)
            for service in SERVICES:
                self.start(service)
            if self.notifier:
                self.start("notifier")
            if self.web:
                self.start("web")
            self.wait_serving(timeout)
        except BaseException:
            self.stop()
            raise

    @property
    def web_url(self) -> str:
        return f"http://{self.web_addr}"

    def migrate(self) -> None:
        subprocess.run(
            [sys.executable, "-m", "pate.cli.main", "db", "migrate"],
            env=self.env,
            check=True,
            stdout=subprocess.DEVNULL,
        )

    def wait_serving(self, timeout: float = 60) -> None:
        """Until every running process answers its gRPC health check."""
        tls = self.tls
        deadline = time.monotonic() + timeout
        running = [
            (self.health[p.pid], name) for name, ps in self.procs.items() for p in ps if p.poll() is None
        ]
        for addr, name in running:
            while True:
                self._check_alive()
                if _web_serving(addr) if name == "web" else _serving(addr, tls):
                    break
                if time.monotonic() > deadline:
                    raise TimeoutError(f"the {name} service did not start; see {self.workdir / 'logs'}")
                time.sleep(0.2)

    def check_alive(self) -> None:
        """Raise naming the first service that exited (and reap it: no defunct child stays)."""
        self._check_alive()

    def _check_alive(self) -> None:
        for name, procs in self.procs.items():
            for p in procs:
                if p.poll() is not None:
                    raise RuntimeError(
                        f"the {name} service exited ({p.returncode}); see {self.workdir / 'logs'}; "
                        f"its last lines:\n{_tail(self.logs.get(p.pid))}"
                    )

    def kill(self, service: str) -> None:
        """SIGKILL every process of a service (fault-injection tests)."""
        for p in self.procs.pop(service, []):
            p.kill()
            p.wait()

    def stop(self, grace: float = 10) -> None:
        procs = [p for ps in self.procs.values() for p in ps if p.poll() is None]
        for p in procs:
            p.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + grace
        for p in procs:
            try:
                p.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
        self.procs.clear()


def _serving(addr: str, tls: TlsSettings) -> bool:
    try:
        with tls_channel(addr, tls) as ch:
            resp = health_pb2_grpc.HealthStub(ch).Check(health_pb2.HealthCheckRequest(service=""), timeout=1)
            return bool(resp.status == health_pb2.HealthCheckResponse.SERVING)
    except grpc.RpcError:
        return False


def _tail(path: Path | None, lines: int = 15) -> str:
    """The end of a service's log, so that a failure read far from this machine (CI) says why."""
    if path is None or not path.exists():
        return "(no log)"
    with path.open("rb") as f:
        f.seek(max(0, path.stat().st_size - 8192))
        text = f.read().decode("utf-8", "replace")
    return "\n".join(text.splitlines()[-lines:])


def _web_serving(addr: str) -> bool:
    """The web desk answers HTTP, not gRPC: its /healthz."""
    try:
        with urllib.request.urlopen(f"http://{addr}/healthz", timeout=1) as resp:
            return bool(resp.status == 200)
    except OSError:
        return False


@contextmanager
def running_cluster(workdir: Path, nats_url: str, database_url: str, **kw: object) -> Iterator[Cluster]:
    cluster = Cluster(workdir=workdir, nats_url=nats_url, database_url=database_url, **kw)  # type: ignore[arg-type]
    try:
        cluster.start_all()
        yield cluster
    finally:
        cluster.stop()
