"""``lald worker``: one server of several over one PostgreSQL database, behind the proxy
(``lald serve --print-proxy-config``; docs/deploy.md has the systemd units)."""

from __future__ import annotations

import argparse
import asyncio
import sys
from typing import Any

from ..args import in_range
from .serve import (
    DB_HELP,
    add_logging,
    add_proxy_options,
    add_settings,
    check_database,
    postgresql,
    settings_of,
    shown_url,
)


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``worker`` sub-command."""
    p = subparsers.add_parser("worker", help="one server of several over one PostgreSQL database, "
                                             "behind nginx (docs/deploy.md)")
    p.add_argument("--name", required=True, metavar="NAME",
                   help="this server's name in the proxy's configuration (w1, w2, ...)")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=in_range(int, 1, 65535, "a port number"), required=True,
                   help="port, 1 to 65535: the one the proxy's configuration gives this server's name")
    p.add_argument("--db", required=True, help=DB_HELP.replace("default sqlite:///lald.db; ", ""))
    p.add_argument("--upgrade", action="store_true",
                   help="upgrade a database of an older schema before serving (as lald db upgrade does)")
    p.add_argument("--lease-seconds", type=in_range(float, 1, 3600, "a number of seconds"), default=10.0,
                   metavar="SECONDS",
                   help="how long a table waits for a server that hangs before another takes it "
                        "(default 10; a server that dies gives its tables up at once)")
    add_proxy_options(p)
    add_settings(p)
    add_logging(p, "json")
    p.set_defaults(func=cmd_worker, parser=p)


def _fail(message: str) -> None:
    print(f"lald worker: {message}", file=sys.stderr)
    raise SystemExit(1)


def cmd_worker(args: argparse.Namespace) -> None:
    """Serve as one of several until stopped; on SIGTERM, hand the tables over first."""
    import uvicorn

    from ...web.server.app import create_app
    from ...web.site.cluster import ROUTE, ClusterConfig
    from .serve import server_process, uvicorn_options

    if not postgresql(args.db):
        _fail(f"{shown_url(args.db)} is not a PostgreSQL database: several servers share one "
              "PostgreSQL database (a SQLite file is one server's: use lald serve)")
    if not ROUTE.fullmatch(args.name):
        _fail(f"--name {args.name!r}: a server's name is lower-case letters and digits, a letter first (w1)")
    settings = settings_of(args)
    check_database(args.db, args.upgrade, "lald worker")
    app = create_app(args.db, settings, ClusterConfig(args.name, ttl=args.lease_seconds))

    class Server(uvicorn.Server):
        """uvicorn, handing the tables over before it closes its connections."""

        async def shutdown(self, sockets: Any = None) -> None:
            cluster = getattr(app.state, "cluster", None)
            if cluster is not None:
                try:
                    await asyncio.wait_for(cluster.drain(), 20)
                except Exception:  # stopping anyway: the leases end with the process
                    import logging

                    logging.getLogger("lald.web").exception("handing the tables over failed")
            await super().shutdown(sockets)

    config = uvicorn.Config(app, **uvicorn_options(args, args.name))  # type: ignore[arg-type]
    print(f"lald: server {args.name} on http://{args.host}:{args.port}/ (database {shown_url(args.db)})",
          flush=True)
    server_process()
    Server(config).run()
