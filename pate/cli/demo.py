"""``pate demo`` (``make run``): the whole system on embedded defaults.

Starts nats-server (JetStream, temporary folder, free port), the reference
GITM land service and the four services on a SQLite file, creates a campaign from the training scenario,
submits the demo orders of two hostile states, closes the turn, waits for the
reports and prints where to read them.  The services then keep running until
Ctrl-C or SIGTERM (or stop at once with --exit).
"""

from __future__ import annotations

import argparse
import shutil
import signal
import time
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING

from pate.cli.main import UserError

if TYPE_CHECKING:
    from services.platform.runtime.cluster import Cluster

DEMO_CAMPAIGN = "demo"


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("demo", help="start everything locally and play one demo turn")
    p.add_argument("--workdir", type=Path, default=Path("var/demo"), help="database, logs and reports")
    p.add_argument("--nats-url", default=None, help="use this NATS server instead of starting one")
    p.add_argument("--exit", action="store_true", help="stop once the demo turn is reported")
    p.set_defaults(handler=_demo)


def _demo(args: argparse.Namespace) -> int:
    from pate.cli.demo_lobby import mailbox, publish_demo_campaign
    from services.platform.bus.natsserver import NatsServer, free_port

    # a process manager, CI or `timeout` stops the demo with SIGTERM: the same clean
    # stop as Ctrl-C (the services and nats-server are stopped in the finally blocks)
    signal.signal(signal.SIGTERM, _interrupt)
    workdir: Path = args.workdir.resolve()
    if workdir.exists():
        shutil.rmtree(workdir)
    workdir.mkdir(parents=True)
    nats = None if args.nats_url else NatsServer(data_dir=workdir / "nats")
    web_addr = f"127.0.0.1:{free_port()}"
    with ExitStack() as closing:
        closing.callback(lambda: nats.stop() if nats is not None else None)
        if nats is not None:
            nats.start()
        url = args.nats_url or nats.url  # type: ignore[union-attr]
        print(f"NATS JetStream at {url}; database {workdir / 'pate.db'}", flush=True)
        smtp = closing.enter_context(mailbox(workdir / "mail", free_port()))
        cluster = _cluster(workdir, url, web_addr, smtp)
        try:
            cluster.start_all()
            cluster.start("admiral")  # the bot admiral service (docs/bots.md)
            cluster.wait_serving()
            print(
                f"services up: orders {cluster.orders_addr}, reports {cluster.reports_addr},"
                f" web desk {cluster.web_url}, GITM (reference land service) {cluster.gitm_addr}",
                flush=True,
            )
            from pate.cli.demo_turn import play_demo_turn

            summary = play_demo_turn(cluster, DEMO_CAMPAIGN, workdir / "reports")
            print(summary, flush=True)
            from pate.cli.demo_bots import play_bot_turn

            print("\n".join(play_bot_turn(cluster, DEMO_CAMPAIGN)), flush=True)
            print("\n".join(publish_demo_campaign(cluster)), flush=True)
            if smtp:
                print(f"  mail the server sends (the sign-up's link) is written to {workdir / 'mail'}")
            if not args.exit:
                _print_explore(cluster)
                while True:  # a service that dies is told at once, not left defunct
                    time.sleep(WATCH_SECONDS)
                    cluster.check_alive()
        except (KeyboardInterrupt, _Terminated):
            print("\nstopping...", flush=True)
        except (TimeoutError, RuntimeError) as err:
            raise UserError(str(err)) from None
        finally:
            cluster.stop()
    print("stopped cleanly", flush=True)
    return 0


WATCH_SECONDS = 2.0


def _cluster(workdir: Path, nats_url: str, web_addr: str, smtp: str | None) -> Cluster:
    """Every process on one machine: SQLite, the reference GITM land service, the web desk and
    the notifier, whose account mail goes to the demo's mailbox."""
    from services.platform.bus.natsserver import free_port
    from services.platform.runtime.cluster import Cluster

    env = {"PATE_ACCOUNT_LINK_BASE": f"http://{web_addr}/account"}
    if smtp:  # the accounts' mail (verification, reset) lands in <workdir>/mail
        env["PATE_SMTP_URL"] = smtp
    return Cluster(
        workdir=workdir,
        nats_url=nats_url,
        database_url=f"sqlite:///{workdir / 'pate.db'}",
        gitm_addr=f"127.0.0.1:{free_port()}",  # the reference GITM land service (docs/gitm.md)
        web=True,
        notifier=True,
        web_addr=web_addr,
        extra_env=env,
    )


class _Terminated(BaseException):
    """SIGTERM: unwinds like Ctrl-C, through the same clean stop."""


def _interrupt(_signum: int, _frame: object) -> None:
    signal.signal(signal.SIGTERM, signal.SIG_IGN)  # one stop at a time
    raise _Terminated


def _print_explore(cluster: object) -> None:
    from services.platform.runtime.cluster import Cluster

    assert isinstance(cluster, Cluster)
    print(
        "\nThe services keep running. In another terminal:\n"
        f"  export PATE_ORDERS_ADDR={cluster.orders_addr} PATE_REPORTS_ADDR={cluster.reports_addr}"
        f" PATE_ADMIN_TOKEN={cluster.admin_token} PATE_DATABASE_URL={cluster.database_url}\n"
        "  .venv/bin/pate campaign show demo\n"
        "  .venv/bin/pate turn replay demo 1\n"
        "  .venv/bin/pate login --campaign demo --player cornwallis   # asks for the password shown above\n"
        "  .venv/bin/pate reports get --campaign demo --turn 1\n"
        f"\nThe web Ship Order Desk: {cluster.web_url}/login?campaign={DEMO_CAMPAIGN}\n"
        "  log in there with a player and password shown above (the demo logins)\n"
        "Press Ctrl-C (or send SIGTERM) to stop everything.",
        flush=True,
    )
