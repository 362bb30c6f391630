"""A NATS JetStream cluster of several nats-servers on 127.0.0.1 (tests, ``make chaos``).

Each node has its own client, cluster and monitoring port and its own storage folder, and
fsyncs every JetStream write before acknowledging it (``sync_interval: always``, see
docs/operations.md).  ``url`` lists every node, so a client starts on whichever answers.
Nodes can be killed (SIGKILL) and restarted on the same ports with their data.
"""

from __future__ import annotations

import time
import urllib.error
import urllib.request
from pathlib import Path
from types import TracebackType

from services.platform.bus.natsserver import NatsServer, free_port

CLUSTER_NAME = "pate"


def node_config(
    name: str, port: int, cluster_port: int, http_port: int, store: Path, routes: list[int]
) -> str:
    route_urls = ", ".join(f"nats://127.0.0.1:{p}" for p in routes)
    return f"""server_name: {name}
listen: 127.0.0.1:{port}
http: 127.0.0.1:{http_port}
jetstream {{
  store_dir: "{store}"
  sync_interval: always
}}
cluster {{
  name: {CLUSTER_NAME}
  listen: 127.0.0.1:{cluster_port}
  routes: [{route_urls}]
}}
"""


class NatsCluster:
    """``with NatsCluster(base_dir, size=3) as c: ... c.url``; ``c.kill(i)``, ``c.start_node(i)``."""

    def __init__(self, base_dir: Path, size: int = 3, *, ready_timeout: float = 60.0) -> None:
        self.base_dir = base_dir
        self.ready_timeout = ready_timeout
        ports = [(free_port(), free_port(), free_port()) for _ in range(size)]
        cluster_ports = [c for _p, c, _h in ports]
        self.http_ports = [h for _p, _c, h in ports]
        self.names = [f"n{i + 1}" for i in range(size)]
        self.nodes: list[NatsServer] = []
        for i, (port, cport, hport) in enumerate(ports):
            data = base_dir / self.names[i]
            data.mkdir(parents=True, exist_ok=True)
            routes = [p for p in cluster_ports if p != cport]
            conf = node_config(self.names[i], port, cport, hport, data / "js", routes)
            self.nodes.append(NatsServer(port=port, data_dir=data, config=conf, start_timeout=30))

    @property
    def url(self) -> str:
        return ",".join(n.url for n in self.nodes)

    def start(self) -> NatsCluster:
        for node in self.nodes:
            node.start()
        self.wait_healthy()
        return self

    def wait_healthy(self, timeout: float | None = None) -> None:
        """Until every running node answers /healthz: JetStream up and the cluster's meta leader known."""
        deadline = time.monotonic() + (timeout or self.ready_timeout)
        for i, node in enumerate(self.nodes):
            while node.running and not self._healthy(i):
                if time.monotonic() > deadline:
                    raise TimeoutError(f"NATS node {self.names[i]} not healthy; see {node.log_path}")
                time.sleep(0.2)

    def _healthy(self, i: int) -> bool:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.http_ports[i]}/healthz", timeout=2) as r:
                return bool(r.status == 200)
        except (urllib.error.URLError, OSError):
            return False

    def kill(self, i: int) -> None:
        self.nodes[i].kill()

    def start_node(self, i: int) -> None:
        self.nodes[i].start()

    def index_of(self, name: str) -> int:
        return self.names.index(name)

    def close(self) -> None:
        for node in self.nodes:
            node.close()

    def __enter__(self) -> NatsCluster:
        return self.start()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()
