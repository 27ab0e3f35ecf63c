"""``lald serve``: run the web service under uvicorn; with ``--workers N``, N servers over
one PostgreSQL database behind nginx (docs/deploy.md)."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from ..args import in_range

if TYPE_CHECKING:
    from ...web.settings import Settings

#: The database of ``lald serve`` and ``lald db`` unless ``--db`` names another.
DEFAULT_DB = "sqlite:///lald.db"
DB_HELP = ("SQLAlchemy database URL (default sqlite:///lald.db; "
           "PostgreSQL: postgresql+psycopg://user@host/db)")

#: The largest websocket message uvicorn reads; a longer one closes the socket (1009).
MAX_WS_MESSAGE = 64 * 1024


def _origin(text: str) -> str:
    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.path not in ("", "/"):
        raise argparse.ArgumentTypeError(f"{text!r} is not an origin like https://cards.example.org")
    return text.rstrip("/")


def _upstream(text: str) -> tuple[str, str]:
    from ...web.site.cluster import ROUTE

    name, eq, address = text.partition("=")
    if not eq:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a server's name and address like w1=127.0.0.1:8001")
    if not ROUTE.fullmatch(name):
        raise argparse.ArgumentTypeError(
            f"{name!r}: a server's name is lower-case letters and digits, a letter first (w1)")
    host, colon, port = address.rpartition(":")
    if not colon or not host or not port.isdigit():
        raise argparse.ArgumentTypeError(f"{address!r} is not an address and port like 127.0.0.1:8001")
    in_range(int, 1, 65535, "a port number")(port)
    return name, f"{host}:{int(port)}"


def _trusted(text: str) -> str:
    """``--forwarded-allow-ips``: comma-separated IP addresses and networks, or ``*``."""
    import ipaddress

    if text.strip() == "*":
        return "*"
    items = [item.strip() for item in text.split(",")]
    for item in items:
        try:
            ipaddress.ip_network(item) if "/" in item else ipaddress.ip_address(item)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"{item!r} is not an IP address or network (10.0.0.5, 10.0.0.0/8; * for any)") from None
    return ",".join(items)


def add_proxy_options(p: argparse.ArgumentParser) -> None:
    """``--forwarded-allow-ips``: whose X-Forwarded-For a server believes."""
    p.add_argument("--forwarded-allow-ips", type=_trusted, metavar="ADDRESSES",
                   help="the proxies whose X-Forwarded-For and X-Forwarded-Proto headers say who the "
                        "client is: IP addresses and networks, comma-separated, * for any (default "
                        "127.0.0.1,::1, nginx on this machine, or $FORWARDED_ALLOW_IPS if set)")


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``serve`` sub-command."""
    p = subparsers.add_parser("serve", help="play online: run the web service (lobby, tables, bots)")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=in_range(int, 1, 65535, "a port number"), default=8000,
                   help="port, 1 to 65535 (default 8000)")
    p.add_argument("--db", default=DEFAULT_DB, help=DB_HELP)
    p.add_argument("--upgrade", action="store_true",
                   help="upgrade a database of an older schema before serving (as lald db upgrade "
                        "does; a SQLite file is upgraded anyway, after a backup beside it)")
    p.add_argument("--workers", type=in_range(int, 1, 64, "a number of servers"), metavar="N",
                   help="run N servers over one PostgreSQL database behind nginx, which listens on "
                        "--port; the servers listen on 127.0.0.1 at the next N ports (default 1: one "
                        "server, no proxy; docs/deploy.md)")
    p.add_argument("--print-proxy-config", action="store_true",
                   help="print nginx's configuration for the servers given by --upstream (or else for "
                        "--workers N servers at the next N ports, as lald serve --workers runs them), "
                        "nginx listening on --host and --port, and exit (docs/deploy.md)")
    p.add_argument("--upstream", action="append", default=[], type=_upstream, metavar="NAME=HOST:PORT",
                   help="with --print-proxy-config: a server behind the proxy, its name (lald worker "
                        "--name) and the address it listens on (repeatable: one for each server; "
                        "w1=127.0.0.1:8001)")
    add_proxy_options(p)
    add_settings(p)
    add_logging(p, "text")
    p.set_defaults(func=cmd_serve, parser=p)


#: The options of :func:`add_settings`, passed on as they are to each ``lald worker``.
SETTINGS_OPTIONS: list[str] = []


def add_logging(p: argparse.ArgumentParser, fmt: str) -> None:
    """``--log-level`` and ``--log-format``."""
    p.add_argument("--log-level", default="info",
                   choices=["critical", "error", "warning", "info", "debug", "trace"],
                   help="the log's level (default info)")
    p.add_argument("--log-format", default=fmt, choices=["text", "json"],
                   help=f"the log's form: uvicorn's text, or one JSON object a line with no token "
                        f"in it (default {fmt})")


def add_settings(p: argparse.ArgumentParser) -> None:
    """The server's settings (the bots' pace, the limits, the budgets): one server's and
    each of several's alike."""
    first = len(p._actions)
    _settings(p)
    if not SETTINGS_OPTIONS:
        SETTINGS_OPTIONS.extend(a.option_strings[0] for a in p._actions[first:])


def _settings(p: argparse.ArgumentParser) -> None:
    p.add_argument("--bot-delay", type=in_range(float, 0, 60, "a number of seconds"), default=0.6,
                   metavar="SECONDS", help="how long a bot waits before it acts (default 0.6)")
    p.add_argument("--claim-window", type=in_range(float, 0, 60, "a number of seconds"), default=1.5,
                   metavar="SECONDS",
                   help="how long bots hold back when a person has a new claim (default 1.5)")
    p.add_argument("--deal-pause", type=in_range(float, 0, 600, "a number of seconds"), default=4.0,
                   metavar="SECONDS", help="pause between deals at a table of bots only (default 4)")
    p.add_argument("--away-seconds", type=in_range(float, 1, 3600, "a number of seconds"), default=30.0,
                   metavar="SECONDS",
                   help="how long a person may be gone without Leave (a closed tab, a lost "
                        "connection) before their seat's bot plays for them until they are back "
                        "(default 30)")
    p.add_argument("--ping-seconds", type=in_range(float, 0.5, 600, "a number of seconds"), default=10.0,
                   metavar="SECONDS", help="how often a page pings the server (default 10)")
    p.add_argument("--pong-seconds", type=in_range(float, 0.5, 600, "a number of seconds"), default=10.0,
                   metavar="SECONDS",
                   help="how long a page waits for the answer to its ping before it counts the "
                        "connection as lost and reconnects (default 10)")
    p.add_argument("--silent-seconds", type=in_range(float, 1, 3600, "a number of seconds"), default=30.0,
                   metavar="SECONDS",
                   help="drop a page that has sent nothing, not even its ping, for this long: it "
                        "shows as offline and its seat as away (default 30; more than --ping-seconds)")
    p.add_argument("--idle-hours", type=in_range(float, 0.01, 24 * 365, "a number of hours"), default=24.0,
                   metavar="HOURS",
                   help="close a table no page has been connected to for this long (default 24)")
    p.add_argument("--allow-origin", action="append", default=[], type=_origin, metavar="ORIGIN",
                   help="also accept posts and websockets from pages of this origin (repeatable; "
                        "by default only the server's own pages)")
    p.add_argument("--tables-per-hour", type=in_range(float, 1, 1e6, "a number of tables"), default=30.0,
                   metavar="N", help="tables one client address may open an hour (default 30)")
    p.add_argument("--tables-at-once", type=in_range(int, 1, 1_000_000, "a number of tables"), default=10,
                   metavar="N", help="tables one client address may open in a burst (default 10)")
    p.add_argument("--review-worlds", type=in_range(int, 1, 20_000, "a number of deals"), default=1000,
                   metavar="N", help="sampled deals per decision in the expert's review of a deal "
                                     "(default 1000; fewer is faster and rougher)")
    p.add_argument("--hint-seconds", type=in_range(float, 0.05, 10, "a number of seconds"), default=2.0,
                   metavar="SECONDS", help="the expert's time for one hint at a table with hints on "
                                           "(default 2; less is quicker and rougher)")
    p.add_argument("--hint-worlds", type=in_range(int, 1, 20_000, "a number of deals"), default=1000,
                   metavar="N", help="sampled deals at most per hint (default 1000, the review's)")
    p.add_argument("--hints-at-once", type=in_range(int, 1, 1000, "a number of hints"), default=8,
                   metavar="N", help="hints being made or waiting in the whole server; more are "
                                     "refused as busy until there is room (default 8)")
    p.add_argument("--lab-queue", type=in_range(int, 0, 100, "a number of comparisons"), default=3,
                   metavar="N", help="comparisons of the readings laboratory (/readings) that may wait "
                                     "while one plays; more are refused as busy (default 3)")
    p.add_argument("--lab-deals-per-hour", type=in_range(int, 1, 10_000_000, "a number of deals"),
                   default=20_000, metavar="N",
                   help="deals one client address may ask the laboratory for in an hour (default 20000)")
    p.add_argument("--lab-seconds", type=in_range(float, 1, 86_400, "a number of seconds"), default=600.0,
                   metavar="SECONDS", help="stop a comparison of the laboratory that plays longer "
                                           "(default 600)")
    p.add_argument("--session-days", type=in_range(float, 0.01, 3650, "a number of days"), default=30.0,
                   metavar="DAYS", help="end a login session unused for this long (default 30)")
    p.add_argument("--fill-seconds", type=in_range(int, 5, 3600, "a number of seconds"), default=60,
                   metavar="SECONDS",
                   help="how long a public table that Play now opens waits for people, once one has "
                        "joined, before bots take its empty seats (default 60)")


def _fail(message: str, command: str = "lald serve") -> None:
    print(f"{command}: {message}", file=sys.stderr)
    raise SystemExit(1)


def command_of(args: argparse.Namespace) -> str:
    """The command's name as its messages begin (``lald serve``, ``lald worker``)."""
    parser = getattr(args, "parser", None)
    return parser.prog if parser is not None and parser.prog.startswith("lald ") else "lald serve"


def shown_url(url: str) -> str:
    """A database URL to print: its password hidden."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        return make_url(url).render_as_string(hide_password=True)
    except (ArgumentError, ValueError):
        return url


def check_database(url: str, upgrade: bool = False, command: str = "lald serve") -> None:
    """Open the database once (creating it, or updating its schema: a shared database only
    if ``upgrade``, a SQLite file always, after a backup); say what was done in one line;
    a one-line error beginning with ``command`` and exit status 1 if it cannot be used."""
    from sqlalchemy.exc import ArgumentError, NoSuchModuleError, SQLAlchemyError

    from ...store import Store, StoreError

    shown = shown_url(url)
    try:
        store = Store(url, upgrade=True if upgrade else None)
    except (ArgumentError, NoSuchModuleError):
        _fail(f"{shown!r} is not a database URL this server can use "
              "(sqlite:///FILE or postgresql+psycopg://user@host/db)", command)
    except StoreError as e:
        _fail(f"cannot use the database {shown}: {e}", command)
    except (SQLAlchemyError, OSError, ImportError) as e:
        reason = str(getattr(e, "orig", None) or e).strip().splitlines()
        _fail(f"cannot open the database {shown}: {reason[0] if reason else type(e).__name__}", command)
    store.close()
    if store.upgraded is not None and store.upgraded.before is not None:
        print(f"lald: {store.upgraded.describe(shown)}", flush=True)


def settings_of(args: argparse.Namespace) -> Settings:
    """The server's settings from ``lald serve``'s arguments."""
    from ...web.settings import Settings

    if args.silent_seconds <= args.ping_seconds:
        _fail(f"--silent-seconds ({args.silent_seconds:g}) must be more than --ping-seconds "
              f"({args.ping_seconds:g}), or a page would be dropped between its pings", command_of(args))
    return Settings(bot_delay=args.bot_delay, claim_window=args.claim_window,
                    deal_pause=args.deal_pause, away_seconds=args.away_seconds,
                    ping_seconds=args.ping_seconds, pong_seconds=args.pong_seconds,
                    silent_seconds=args.silent_seconds,
                    idle_seconds=args.idle_hours * 3600,
                    allow_origins=tuple(args.allow_origin),
                    create_rate=args.tables_per_hour / 3600, create_burst=args.tables_at_once,
                    review_worlds=args.review_worlds, hint_seconds=args.hint_seconds,
                    hint_worlds=args.hint_worlds, hint_queue=args.hints_at_once,
                    session_days=args.session_days, fill_seconds=args.fill_seconds,
                    lab_queue=args.lab_queue, lab_per_hour=args.lab_deals_per_hour,
                    lab_seconds=args.lab_seconds)


def settings_argv(args: argparse.Namespace) -> list[str]:
    """The settings of ``args`` as command-line options again (for each ``lald worker``)."""
    parser: argparse.ArgumentParser = args.parser
    out: list[str] = []
    for action in parser._actions:
        if action.option_strings and action.option_strings[0] in SETTINGS_OPTIONS:
            value = getattr(args, action.dest)
            for v in value if isinstance(value, list) else [value]:
                out += [action.option_strings[0], str(v)]
    return out


def postgresql(url: str) -> bool:
    """Whether ``url`` names a PostgreSQL database."""
    return url.split(":", 1)[0].split("+", 1)[0] in ("postgresql", "postgres")


def uvicorn_options(args: argparse.Namespace, route: str | None = None) -> dict[str, object]:
    """uvicorn's options for lald (the websocket's limits, the log)."""
    from ...web.ops import log_config

    options: dict[str, object] = {
        "host": args.host, "port": args.port, "log_level": args.log_level,
        "log_config": log_config(args.log_format, args.log_level, route),
        "ws": "websockets-sansio", "ws_ping_interval": 20, "ws_ping_timeout": 20,
        "ws_max_size": MAX_WS_MESSAGE,
        # Frames are small; compressing each one costs more CPU than it saves.
        "ws_per_message_deflate": False}
    if args.forwarded_allow_ips is not None:  # else uvicorn's: 127.0.0.1,::1 or $FORWARDED_ALLOW_IPS
        options["forwarded_allow_ips"] = args.forwarded_allow_ips
    return options


#: The collector's thresholds in a server process (Python's: 700, 10, 10). A server holds
#: every live table's deals and allocates on every action; at Python's thresholds the
#: young-generation collections ran ~20 times a second under bench/serve.py's load, each
#: older one re-examining the tables' objects, and a collection inside a bot's move sent
#: that kind of bot to a worker thread (:class:`lald.web.table.tables.ThinkTimes`). What the
#: server frees is almost all freed by reference counting, not by the collector.
GC_THRESHOLDS = (10_000, 50, 100)


def server_process() -> None:
    """Tune this process to be a server: the collector's thresholds, and the objects of
    the start (modules, the catalogs) kept out of its collections."""
    import gc

    gc.set_threshold(*GC_THRESHOLDS)
    gc.freeze()


def cmd_serve(args: argparse.Namespace) -> None:
    """Run the service until interrupted."""
    import uvicorn

    from ...web.server.app import create_app

    if args.upstream and not args.print_proxy_config:
        args.parser.error("--upstream is for --print-proxy-config (lald serve --workers N starts its "
                          "servers at the ports after --port)")
    if args.upstream:
        names, addresses = [n for n, _ in args.upstream], [a for _, a in args.upstream]
        for what in (names, addresses):
            twice = next((x for i, x in enumerate(what) if x in what[:i]), None)
            if twice is not None:
                args.parser.error(f"--upstream: {twice} is {'named' if what is names else 'given'} twice")
        if args.workers is not None and args.workers != len(args.upstream):
            args.parser.error(f"--workers {args.workers} but {len(args.upstream)} --upstream: give "
                              "one --upstream for each server")
    args.workers = args.workers or len(args.upstream) or 1
    if args.workers > 1 or args.print_proxy_config:
        from ...web.site.proxy import nginx_site
        from .site import run_site, site_servers

        if args.print_proxy_config:
            servers = args.upstream or site_servers(args)
            print(nginx_site(servers, f"{args.host}:{args.port}"), end="")
            return
        if not postgresql(args.db):
            _fail(f"--workers {args.workers} needs a PostgreSQL database (--db "
                  "postgresql+psycopg://user@host/db): a SQLite file is one server's")
        settings_of(args)  # its refusals, once, before any server starts
        check_database(args.db, args.upgrade)
        trusted = [] if args.forwarded_allow_ips is None else [
            "--forwarded-allow-ips", args.forwarded_allow_ips]
        run_site(args, ["--log-level", args.log_level, "--log-format", args.log_format, *trusted,
                        *settings_argv(args)], shown_url(args.db))
        return
    settings = settings_of(args)
    check_database(args.db, args.upgrade)
    app = create_app(args.db, settings)
    print(f"lald: serving on http://{args.host}:{args.port}/ (database {shown_url(args.db)})", flush=True)
    server_process()
    uvicorn.run(app, **uvicorn_options(args))  # type: ignore[arg-type]
