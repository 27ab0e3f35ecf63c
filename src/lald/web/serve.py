"""``lald serve``: run the web service under uvicorn."""

from __future__ import annotations

import argparse


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``serve`` sub-command."""
    p = subparsers.add_parser("serve", help="play online: run the web service (lobby, tables, bots)")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    p.add_argument("--db", default="sqlite:///lald.db",
                   help="SQLAlchemy database URL (default sqlite:///lald.db; "
                        "PostgreSQL: postgresql+psycopg://user@host/db)")
    p.add_argument("--bot-delay", type=float, default=0.6, metavar="SECONDS",
                   help="how long a bot waits before it acts (default 0.6)")
    p.add_argument("--claim-window", type=float, default=1.5, metavar="SECONDS",
                   help="how long bots hold back when a person has a new claim (default 1.5)")
    p.add_argument("--deal-pause", type=float, default=4.0, metavar="SECONDS",
                   help="pause between deals at a table of bots only (default 4)")
    p.add_argument("--log-level", default="info", help="uvicorn's log level (default info)")
    p.set_defaults(func=cmd_serve)


def cmd_serve(args: argparse.Namespace) -> None:
    """Run the service until interrupted."""
    import uvicorn

    from .app import create_app
    from .tables import Settings

    settings = Settings(bot_delay=args.bot_delay, claim_window=args.claim_window,
                        deal_pause=args.deal_pause)
    app = create_app(args.db, settings)
    print(f"lald: serving on http://{args.host}:{args.port}/ (database {args.db})", flush=True)
    uvicorn.run(app, host=args.host, port=args.port, log_level=args.log_level,
                ws="websockets-sansio", ws_ping_interval=20, ws_ping_timeout=20,
                # Frames are small; compressing each one costs more CPU than it saves.
                ws_per_message_deflate=False)
