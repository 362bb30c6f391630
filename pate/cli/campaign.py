"""``pate campaign``: simulate a campaign headless, or administer one on a server."""

from __future__ import annotations

import argparse
import json
import re
import sys
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pate.cli import failed_turns, numbers
from pate.cli.main import UserError
from pate.cli.rulesets import with_combat_rules, with_naval_rules
from pate.core.codec import canonical_json, to_plain
from pate.core.orders.model import ShipOrder
from pate.core.world.state import Wind, WorldState

if TYPE_CHECKING:
    from pate.admiral.levels import Level
    from pate.core.rules.context import TurnContext
    from pate.engine.simulate import TurnOutput


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("campaign", help="simulate or administer campaigns")
    cs = p.add_subparsers(dest="campaign_command", required=True)
    _add_simulate_parser(cs)
    _add_admin_parsers(cs)
    failed_turns.add_parsers(cs)


def _add_simulate_parser(cs: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    s = cs.add_parser("simulate", help="run a scenario for N turns in one process, writing JSON")
    s.add_argument("--scenario", default=None, help="a shipped scenario name or a scenario file")
    s.add_argument(
        "--from",
        dest="resume",
        type=Path,
        default=None,
        help="go on from a saved turn, OUT/turn-K (instead of --scenario)",
    )
    s.add_argument("--turns", type=numbers.TURNS, default=None, help="turns to play (default: all)")
    s.add_argument("--seed", type=numbers.SEED, default=None, help="campaign seed (default: the scenario's)")
    s.add_argument("--orders", type=Path, default=None, help="folder of turn-<N>.txt order files")
    s.add_argument("--overrides", type=Path, default=None, help="TOML: [rules.<file>] numbers, [winds.<N>]")
    s.add_argument("--out", type=Path, default=None, help="output folder (default with --from: its parent)")
    s.add_argument("--strict", action="store_true", help="stop at the first turn with a refused order")
    s.add_argument("--no-reports", action="store_true", help="skip knowledge and reports (faster)")
    s.add_argument("--compact", action="store_true", help="text reports one line a ship (after the summary)")
    s.add_argument(
        "--combat-rules",
        default=None,
        help="combat rule set: pate | eia-advanced (default: the scenario's; docs/rules/eia.md)",
    )
    s.add_argument(
        "--bots",
        default=None,
        metavar="STATES",
        help="states played by the bot admiral, e.g. BR,FR or BR:cautious,FR:bold (docs/bots.md)",
    )
    s.add_argument(
        "--naval-rules",
        default=None,
        help="naval rule set: pate | eia-operations (default: the scenario's; docs/rules/eia-operations.md)",
    )
    s.add_argument(
        "--gitm",
        default="none",
        help="the land side: none, reference (the reference GITM land model in this process) or "
        "HOST:PORT (any GITM land service over gRPC; docs/gitm.md)",
    )
    s.set_defaults(handler=_simulate)


def _add_admin_parsers(cs: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The commands that ask the orders service, each with its own arguments."""
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
            # the turn meant: repeating the command never closes the next turn too
            c.add_argument("--turn", type=numbers.TURN, required=True, help="the open turn to close")
        if name == "create":
            c.add_argument("--scenario", required=True)
            c.add_argument("--seed", type=numbers.SEED, default=0)
            c.add_argument("--turns", type=numbers.TURNS, default=0)
            c.add_argument("--turn-seconds", type=numbers.TURN_SECONDS, default=0)
            c.add_argument(
                "--combat-rules", default=None, help="pate | eia-advanced (default: the scenario's)"
            )
            c.add_argument(
                "--naval-rules", default=None, help="pate | eia-operations (default: the scenario's)"
            )
            c.add_argument(
                "--passwords-file",
                type=Path,
                default=None,
                help="JSON object {player: password} of the passwords you choose; the server "
                "generates the others and they are printed once",
            )
        c.set_defaults(handler=_admin, admin_command=name)
    from pate.cli.gamemaster import add_commands

    add_commands(cs)  # pause, resume, deadline, password, revoke

    from pate.cli.bots import add_parsers

    add_parsers(cs)


_ORDER_FILE = re.compile(r"^turn-(\d+)\.txt$")


def read_orders_folder(folder: Path | None) -> dict[int, list[ShipOrder]]:
    """``turn-<N>.txt`` files (``turn-01.txt`` is turn 1); any other file in
    the folder, or two files for one turn, is an error, not ignored."""
    from pate.core.orders.text import OrderSyntaxError, parse_orders

    if folder is None:
        return {}
    if not folder.is_dir():
        raise UserError(f"--orders: {folder} is not a folder")
    out: dict[int, list[ShipOrder]] = {}
    names: dict[int, str] = {}
    for path in sorted(folder.iterdir()):
        if path.name.startswith("."):
            continue
        m = _ORDER_FILE.match(path.name)
        if m is None or not path.is_file() or int(m.group(1)) < 1:
            raise UserError(f"{path}: not an order file; name them turn-<N>.txt, N from 1")
        turn = int(m.group(1))
        if turn in names:
            raise UserError(f"{path}: turn {turn} already has its orders in {names[turn]}")
        names[turn] = path.name
        try:
            out[turn] = parse_orders(path.read_text(encoding="utf-8"))
        except OrderSyntaxError as err:
            raise UserError(f"{path}: {err}") from None
    return out


def read_overrides(path: Path | None, ctx: TurnContext) -> tuple[TurnContext, dict[int, dict[str, Wind]]]:
    """``--overrides FILE``: ``[rules.<file>]`` and ``[winds.<turn>]`` tables,
    written as in case files (docs/formats/simulate.md)."""
    import tomllib

    from pate.core.world.fields import Problems, Table
    from pate.engine.overrides import read_winds, with_rules

    if path is None:
        return ctx, {}
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as err:
        raise UserError(f"--overrides: cannot read {path}: {err.strerror}") from None
    except tomllib.TOMLDecodeError as err:
        raise UserError(f"--overrides: {path}: not valid TOML: {err}") from None
    problems = Problems()
    top = Table(raw, "", problems)
    top.check_keys(("rules", "winds"))
    ctx = with_rules(top.table("rules"), ctx, problems)
    winds: dict[int, dict[str, Wind]] = {}
    for name, table in top.tables("winds"):
        if not name.isdigit() or int(name) < 1:
            problems.add(table.path, "name the turn: [winds.<N>], N from 1")
            continue
        winds[int(name)] = read_winds(table, ctx.map)
    if problems:
        raise UserError(f"--overrides: {path}:\n" + "\n".join(problems.items))
    return ctx, winds


def _start(args: argparse.Namespace, ctx: TurnContext) -> tuple[WorldState, int, bool]:
    """The world to play from, the first turn's number and whether it is a
    new campaign (placed and winds drawn at the start)."""
    from pate.core.codec import from_plain
    from pate.core.world.fields import DataError
    from pate.datafiles import load_scenario

    if (args.scenario is None) == (args.resume is None):
        raise UserError("give either --scenario NAME or --from OUT/turn-K")
    if args.resume is not None:
        if args.seed is not None:
            raise UserError("--seed: a campaign taken up keeps its seed")
        if args.combat_rules is not None:
            raise UserError("--combat-rules: a campaign taken up keeps its rule set")
        if args.naval_rules is not None:
            raise UserError("--naval-rules: a campaign taken up keeps its rule set")
        state = args.resume / "state.json"
        try:
            world: WorldState = from_plain(WorldState, json.loads(state.read_text(encoding="utf-8")))
        except OSError as err:
            raise UserError(f"--from: cannot read {state}: {err.strerror}") from None
        except (ValueError, TypeError, KeyError) as err:
            raise UserError(f"--from: {state} is not a saved state: {err}") from None
        if world.turn > world.turns:
            raise UserError(f"--from: {args.resume} is the end of the campaign ({world.turns} turns)")
        return world, world.turn, False
    try:
        scenario = load_scenario(args.scenario)
    except (FileNotFoundError, DataError) as err:
        raise UserError(f"--scenario: {err}") from None
    world = with_naval_rules(with_combat_rules(scenario.world, args.combat_rules), args.naval_rules)
    if args.seed is not None:
        world = replace(world, seed=args.seed)
    return replace(world, turns=args.turns or world.turns), 1, scenario.placement == "random"


def _simulate(args: argparse.Namespace) -> int:
    from pate.engine.context import turn_context
    from pate.engine.simulate import OrdersRefusedError, refusal_text, resume, simulate

    if args.turns is not None and args.turns < 1:
        raise UserError("--turns: give 1 or more (leave it out to play to the campaign's end)")
    ctx, winds = read_overrides(args.overrides, turn_context())
    world, first, place = _start(args, ctx)
    out_dir = args.out or (args.resume.parent if args.resume is not None else None)
    if out_dir is None:
        raise UserError("--out: give the output folder")
    last = world.turns if args.resume is None or args.turns is None else first + args.turns - 1
    if last > world.turns:
        raise UserError(f"--turns: the campaign ends with turn {world.turns}; {args.turns} more go past it")
    orders = read_orders_folder(args.orders)
    late = sorted(t for t in orders if t > last)
    if late:
        raise UserError(f"--orders: orders for turn {late[0]}, but the run ends with turn {last}")
    late = sorted(t for t in winds if t > last)
    if late:
        raise UserError(f"--overrides: winds for turn {late[0]}, but the run ends with turn {last}")
    land = _land(args, ctx, world, last)
    bots = _bots(args, world)
    common = {
        "bots": bots,
        "orders": orders,
        "render": not args.no_reports,
        "winds": winds,
        "strict": args.strict,
        "compact": args.compact,
    }
    if args.resume is None:
        campaign = land.campaign if land is not None else "simulated"
        run = simulate(
            ctx, world, campaign=campaign, seed=world.seed, turns=last, place=place, land=land, **common
        )
    else:
        known = _saved_knowledge(args.resume, bots)
        run = resume(ctx, world, turns=last - first + 1, land=land, knowledge=known, **common)
    out_dir.mkdir(parents=True, exist_ok=True)
    try:
        for out in run:
            _write_turn(out_dir / f"turn-{out.turn}", out)
            for r in out.refusals:
                print(f"turn {out.turn}: order refused, left out: {refusal_text(r)}", file=sys.stderr)
            print(f"turn {out.turn}: {len(out.events)} events, {len(out.world.ships)} ships", flush=True)
    except OrdersRefusedError as err:
        raise UserError(f"orders refused (--strict):\n{err}") from None
    if land is not None:
        what = "reference land model" if args.gitm == "reference" else f"land service at {args.gitm}"
        print(
            f"GITM ({what}, campaign {land.campaign}): {', '.join(land.places()) or 'no units'}", flush=True
        )
    return 0


def _bots(args: argparse.Namespace, world: WorldState) -> dict[str, Level] | None:
    from pate.engine.bots import load_levels, parse_bots, seats

    if args.bots is None:
        return None
    try:
        return seats(world, parse_bots(args.bots, load_levels()))
    except ValueError as err:
        raise UserError(str(err)) from None


def _saved_knowledge(folder: Path, bots: dict[str, Level] | None) -> dict[str, str]:
    """Every player's knowledge saved with the turn taken up (its report JSON): the bots read
    it, and every player's picture of the enemy goes on from it."""
    out: dict[str, str] = {}
    for path in sorted((folder / "reports").glob("*.json")):
        out[path.stem] = path.read_text(encoding="utf-8")
    for player in bots or {}:
        if player not in out:
            path = folder / "reports" / f"{player}.json"
            raise UserError(f"--bots with --from: {path} is missing (run without --no-reports)")
    return out


def _land(args: argparse.Namespace, ctx: Any, world: Any, last: int) -> Any:
    """The land side --gitm names: none, the reference model in process, or HOST:PORT."""
    if args.gitm == "none":
        return None
    if args.resume is not None:
        raise UserError("--gitm: the land side starts with the campaign (no --from)")
    if args.gitm == "reference":
        from pate.cli.gitm_land import ReferenceLand

        return ReferenceLand(ctx.map, world, "simulated", last)
    host, sep, port = args.gitm.rpartition(":")
    if not sep or not host or not port.isdigit():
        raise UserError(f"--gitm {args.gitm[:64]!r}: expected none, reference or HOST:PORT")
    import grpc

    from pate.cli.gitm_land import remote_land
    from services.platform.bus.consumer import TransientError

    try:
        return remote_land(args.gitm, ctx.map, world, last)
    except (TransientError, grpc.RpcError) as exc:
        raise UserError(f"--gitm {args.gitm}: the land service did not answer ({exc})") from None


def _write_turn(folder: Path, out: TurnOutput) -> None:
    (folder / "reports").mkdir(parents=True, exist_ok=True)
    if out.bot_orders:
        (folder / "bots").mkdir(exist_ok=True)
        for player, text in out.bot_orders.items():
            (folder / "bots" / f"{player}.txt").write_text(text)
    (folder / "state.json").write_text(canonical_json(to_plain(out.world)))
    (folder / "events.json").write_text(canonical_json([to_plain(e) for e in out.events]))
    (folder / "refusals.json").write_text(canonical_json([to_plain(r) for r in out.refusals]))
    for player, formats in out.reports.items():
        for fmt, body in formats.items():
            (folder / "reports" / f"{player}.{_EXT[fmt]}").write_text(body)


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
                combat_rules=args.combat_rules or "",
                naval_rules=args.naval_rules or "",
                passwords=_passwords_file(args.passwords_file),
            )
            created = call(stub.CreateCampaign, req, md)
            logins = list(created.logins)
            del created.logins[:]
            print(_line(created))
            if logins:
                print("generated passwords (shown only now; give each player theirs):")
                for login in logins:
                    print(f"  {login.player_id:16} {login.password}")
        elif args.admin_command == "show":
            print(_line(call(stub.GetCampaign, admin_pb2.GetCampaignRequest(campaign_id=args.campaign), md)))
        else:
            if args.turn < 1:
                raise UserError("--turn: the number of the open turn (1 or more)")
            close = admin_pb2.CloseTurnRequest(campaign_id=args.campaign, turn=args.turn)
            print(_line(call(stub.CloseTurn, close, md)))
    return 0


def _passwords_file(path: Path | None) -> dict[str, str]:
    if path is None:
        return {}
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as err:
        raise UserError(
            f"--passwords-file {path}: cannot read it as JSON ({err.__class__.__name__})"
        ) from None
    if not isinstance(raw, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in raw.items()
    ):
        raise UserError(f"--passwords-file {path}: expected a JSON object of player id to password")
    return raw


def _line(c: object) -> str:
    from google.protobuf.json_format import MessageToDict

    return json.dumps(MessageToDict(c), sort_keys=True)  # type: ignore[arg-type]
