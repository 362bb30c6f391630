"""A campaign played through the real services (orders, resolver, intel, reports as processes,
over NATS and a database) against the reference GITM land service as its own process, with the
levers the divergence tests pull: orders as a player writes them, closes by command, GITM's own
game acting through its administration, either side restored from a backup, and
``pate gitm reconcile`` run as the operator runs it (tests/e2e/test_gitm_divergence*.py)."""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from gitm.v1 import land_pb2, reference_admin_pb2
from pate.core.world.state import WorldState
from pate.v1 import orders_pb2
from services.platform.runtime.cluster import Cluster
from services.platform.store import repository as repo
from services.platform.store.db import make_engine
from services.resolver import bridge
from tests.e2e.flow import Client
from tests.support.gitm_reference import LAND_TOKEN, Reference, reference_process

PORT = "Portsmouth"  # on the GITM map; BR1TR lies there with BR1IN aboard, BR5IN waits ashore
MINISTER = "barham"  # BR's naval minister, whose transport group it is


@dataclass
class Play:
    cluster: Cluster
    ref: Reference
    campaign: str
    client: Client

    def orders(self, turn: int, text: str, player: str = MINISTER) -> None:
        req = orders_pb2.SubmitOrdersRequest(
            campaign_id=self.campaign,
            turn=turn,
            orders_text=text,
            client_request_id=f"{self.campaign}-{turn}",
        )
        answer = self.client.desk.SubmitOrders(
            req, metadata=self.client.player_md(self.campaign, player), timeout=30
        )
        assert answer.accepted, answer

    def close(self, turn: int) -> None:
        """Close the turn by command and wait for the next one to open."""
        self.client.close_turn(self.campaign, turn)
        self.client.wait_open(self.campaign, turn + 1)

    def delivered(self, turn: int) -> None:
        """Until the bridge has delivered ``turn`` to GITM (its claim of the turn's message, committed
        once GITM answered every call of the turn, is in PATE's store)."""
        deadline = time.monotonic() + 60
        engine = make_engine(self.cluster.database_url)
        try:
            while True:
                with engine.connect() as conn:
                    if bridge.delivered_turns(conn, self.campaign, [turn]):
                        return
                assert time.monotonic() < deadline, f"{self.campaign}: turn {turn} never reached GITM"
                time.sleep(0.2)
        finally:
            engine.dispose()

    def report(self, turn: int, player: str = MINISTER) -> str:
        """The player's report of the turn as text, read from the reports service as the player."""
        deadline = time.monotonic() + 30
        while True:
            body = str(self.client.report(self.campaign, turn, player, fmt="text").body)
            if body or time.monotonic() > deadline:
                return body
            time.sleep(0.2)

    def world(self) -> WorldState:
        """PATE's world at the start of its open turn, from its store."""
        engine = make_engine(self.cluster.database_url)
        try:
            with engine.connect() as conn:
                turn = self.client.campaign(self.campaign).turn
                return repo.load_world(conn, self.campaign, turn)
        finally:
            engine.dispose()

    def reconcile(self, repair: bool = False) -> subprocess.CompletedProcess[str]:
        """``pate gitm reconcile CAMPAIGN [--repair]`` as the operator runs it."""
        args = ["gitm", "reconcile", self.campaign, "--addr", self.ref.addr]
        args += ["--database", self.cluster.database_url, *(["--repair"] if repair else [])]
        return pate(self.cluster, *args)

    def stuck(self, calls: str = "", clock_ahead: float = 0.0) -> None:
        """GITM answers UNAVAILABLE to the LandBridge methods named (joined by "+"), doing
        nothing, and runs its holds' clock ahead; no argument: GITM is well again."""
        self.ref.faults(unavailable_calls=calls, clock_ahead_seconds=clock_ahead)

    def inject(self, kind: land_pb2.LandEventKind.ValueType, **fields: object) -> land_pb2.LandEvent:
        """GITM's own game acts (its stand-in, ReferenceAdmin.InjectLandEvent)."""
        req = reference_admin_pb2.InjectLandEventRequest(
            campaign_id=self.campaign,
            event=land_pb2.LandEvent(kind=kind, **fields),  # type: ignore[arg-type]
        )
        event: land_pb2.LandEvent = self.ref.admin.InjectLandEvent(req, timeout=10)
        return event

    def reserved(self, unit: str) -> str:
        """The open transfer that reserves the unit in GITM ("" none)."""
        return next((u.reserved_by for u in self.ref.snapshot(self.campaign).units if u.id == unit), "")

    def wait_gitm(self, what: str, check: Callable[[], bool]) -> None:
        deadline = time.monotonic() + 60
        while not check():
            assert time.monotonic() < deadline, f"{self.campaign}: GITM never showed {what}"
            time.sleep(0.2)

    def restart_pate(self, while_down: Callable[[], None] | None = None) -> None:
        """Stop every PATE service, run ``while_down`` (a restore), start them again."""
        self.client.close()
        self.cluster.stop()
        if while_down is not None:
            while_down()
        self.cluster.start_all()
        # the passwords the campaign was created with; sessions are logged in afresh
        self.client = Client(self.cluster, passwords=self.client.passwords)


def pate(cluster: Cluster, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pate.cli.main", *args],
        env=cluster.env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@contextmanager
def playing(tmp_path: Path, nats_url: str, database_url: str, campaign: str) -> Iterator[Play]:
    """The training scenario played with GITM; turn 1 open and turn 0 delivered."""
    with reference_process(tmp_path, scenario="none") as ref:
        cluster = Cluster(
            workdir=tmp_path,
            nats_url=nats_url,
            database_url=database_url,
            extra_env={"PATE_GITM_ADDR": ref.addr, "PATE_GITM_TOKEN": LAND_TOKEN},
        )
        play = None
        try:
            cluster.start_all()
            play = Play(cluster, ref, campaign, Client(cluster))
            play.client.create(campaign)
            play.client.wait_open(campaign, 1)
            play.delivered(0)
            yield play
        finally:
            if play is not None:
                play.client.close()
            cluster.stop()


def backup_sqlite(url: str, to: Path) -> None:
    """An operator's online backup of a SQLite store (consistent while its process runs)."""
    src = sqlite3.connect(url.removeprefix("sqlite:///"))
    dst = sqlite3.connect(to)
    try:
        src.backup(dst)
    finally:
        src.close()
        dst.close()


def restore_sqlite(backup: Path, url: str) -> None:
    """The store replaced by its backup, its process stopped (its journal files go with it)."""
    path = Path(url.removeprefix("sqlite:///"))
    for extra in (path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        extra.unlink(missing_ok=True)
    shutil.copy(backup, path)


def gitm_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'gitm-reference.db'}"


def doubled(world: WorldState) -> set[str]:
    """Units PATE has both aboard a ship and ashore in a port."""
    aboard = {u for s in world.ships.values() for u in s.cargo.units}
    ashore = {u for p in world.ports.values() for u in p.garrison}
    return aboard & ashore


def disagreements(out: str) -> list[str]:
    """The lines a reconcile's output lists after its last count (what is left)."""
    lines = out.splitlines()
    starts = [i for i, line in enumerate(lines) if "disagreement(s) found" in line or " left" in line]
    tail = lines[starts[-1] + 1 :] if starts else []
    return [x.strip() for x in tail if x.startswith("  ") and "[" in x]
