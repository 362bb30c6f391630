"""``pate campaign``: simulate a campaign headless, or administer one on a server."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from pate.cli.main import UserError
from pate.core.codec import canonical_json, to_plain
from pate.core.orders.model import ShipOrder


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("campaign", help="simulate or administer campaigns")
    cs = p.add_subparsers(dest="campaign_command", required=True)

    s = cs.add_parser("simulate", help="run a scenario for N turns in one process, writing JSON")
    s.add_argument("--scenario", required=True, help="a shipped scenario name or a scenario file")
    s.add_argument("--turns", type=int, default=0, help="turns to play (default: the scenario's)")
    s.add_argument("--seed", type=int, default=None, help="campaign seed (default: the scenario's)")
    s.add_argument("--orders", type=Path, default=None, help="folder of turn-<N>.txt order files")
    s.add_argument("--out", type=Path, required=True, help="output folder")
    s.add_argument("--no-reports", action="store_true", help="skip knowledge and reports (faster)")
    s.set_defaults(handler=_simulate)

    for name, helptext in (
        ("create", "create a campaign on the server"),
        ("show", "show a campaign"),
        ("list", "list campaigns"),
        ("close", "close the open turn now"),
    ):
        c = cs.add_parser(name, help=helptext)
        c.add_argument("--server", default=None, help="orders service address (PATE_ORDERS_ADDR)")
        c.add_argument("--admin-token", default=None)
        if name != "list":
            c.add_argument("campaign")
        if name == "close":
            # the turn meant: repeating the command never closes the next turn too (issue 10)
            c.add_argument("--turn", type=int, required=True, help="the open turn to close")
        if name == "create":
            c.add_argument("--scenario", required=True)
            c.add_argument("--seed", type=int, default=0)
            c.add_argument("--turns", type=int, default=0)
            c.add_argument("--turn-seconds", type=int, default=0)
        c.set_defaults(handler=_admin, admin_command=name)


def read_orders_folder(folder: Path | None) -> dict[int, list[ShipOrder]]:
    from pate.core.orders.text import OrderSyntaxError, parse_orders

    if folder is None:
        return {}
    if not folder.is_dir():
        raise UserError(f"--orders: {folder} is not a folder")
    out: dict[int, list[ShipOrder]] = {}
    for path in sorted(folder.glob("turn-*.txt")):
        try:
            turn = int(path.stem.split("-", 1)[1])
        except ValueError:
            raise UserError(f"{path}: name order files turn-<N>.txt") from None
        try:
            out[turn] = parse_orders(path.read_text())
        except OrderSyntaxError as err:
            raise UserError(f"{path}: {err}") from None
    return out


def _simulate(args: argparse.Namespace) -> int:
    from pate.core.world.fields import DataError
    from pate.datafiles import load_scenario
    from pate.engine.context import turn_context
    from pate.engine.simulate import OrdersRefusedError, simulate

    try:
        scenario = load_scenario(args.scenario)
        ctx = turn_context()
    except FileNotFoundError as err:
        raise UserError(f"--scenario: {err}") from None
    except DataError as err:
        raise UserError(f"--scenario: {err}") from None
    turns = args.turns or scenario.world.turns
    seed = scenario.world.seed if args.seed is None else args.seed
    orders = read_orders_folder(args.orders)
    args.out.mkdir(parents=True, exist_ok=True)
    try:
        for out in simulate(
            ctx,
            scenario.world,
            campaign="simulated",
            seed=seed,
            turns=turns,
            orders=orders,
            render=not args.no_reports,
            place=scenario.placement == "random",
        ):
            folder = args.out / f"turn-{out.turn}"
            (folder / "reports").mkdir(parents=True, exist_ok=True)
            (folder / "state.json").write_text(canonical_json(to_plain(out.world)))
            (folder / "events.json").write_text(canonical_json([to_plain(e) for e in out.events]))
            for player, formats in out.reports.items():
                for fmt, body in formats.items():
                    (folder / "reports" / f"{player}.{_EXT[fmt]}").write_text(body)
            print(f"turn {out.turn}: {len(out.events)} events, {len(out.world.ships)} ships", flush=True)
    except OrdersRefusedError as err:
        raise UserError(f"orders refused:\n{err}") from None
    return 0


_EXT = {"json": "json", "text": "txt", "html": "html"}


def _admin(args: argparse.Namespace) -> int:
    from pate.cli.client import admin_metadata, call, orders_channel
    from pate.v1 import admin_pb2, admin_pb2_grpc

    md = admin_metadata(args.admin_token)
    with orders_channel(args.server) as ch:
        stub = admin_pb2_grpc.CampaignAdminStub(ch)
        if args.admin_command == "list":
            resp = call(stub.ListCampaigns, admin_pb2.ListCampaignsRequest(), md)
            for c in resp.campaigns:
                print(_line(c))
            return 0
        if args.admin_command == "create":
            req = admin_pb2.CreateCampaignRequest(
                id=args.campaign,
                scenario=args.scenario,
                seed=args.seed,
                turns=args.turns,
                turn_seconds=args.turn_seconds,
            )
            print(_line(call(stub.CreateCampaign, req, md)))
        elif args.admin_command == "show":
            print(_line(call(stub.GetCampaign, admin_pb2.GetCampaignRequest(campaign_id=args.campaign), md)))
        else:
            if args.turn < 1:
                raise UserError("--turn: the number of the open turn (1 or more)")
            close = admin_pb2.CloseTurnRequest(campaign_id=args.campaign, turn=args.turn)
            print(_line(call(stub.CloseTurn, close, md)))
    return 0


def _line(c: object) -> str:
    from google.protobuf.json_format import MessageToDict

    return json.dumps(MessageToDict(c), sort_keys=True)  # type: ignore[arg-type]
