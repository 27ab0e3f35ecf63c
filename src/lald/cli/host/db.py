"""``lald db``: the database's schema revision (``current``), its upgrade (``upgrade``),
which server of a site holds a table (``where``), and the site's finished deals as a public
dataset (``export-games``, :mod:`.evidence`)."""

from __future__ import annotations

import argparse
import sys
from typing import NoReturn

from ..args import SubcommandParser
from .serve import DB_HELP, DEFAULT_DB, shown_url


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``db`` sub-command."""
    p = subparsers.add_parser("db", help="the server's database: its schema revision, its upgrade")
    sub = p.add_subparsers(dest="action", required=True, metavar="ACTION", parser_class=SubcommandParser)
    q = sub.add_parser("current", help="print the database's schema revision, changing nothing")
    q.add_argument("--db", default=DEFAULT_DB, help=DB_HELP)
    q.set_defaults(func=cmd_current)
    q = sub.add_parser("upgrade", help="bring the database to this lald's schema revision (an empty "
                                       "one is created; a SQLite file is copied beside it first)")
    q.add_argument("--db", default=DEFAULT_DB, help=DB_HELP)
    q.set_defaults(func=cmd_upgrade)
    q = sub.add_parser("where", help="which server of a site holds a table (its name for the proxy, its "
                                     "id, when its lease ends), read from the database's leases")
    q.add_argument("table", metavar="TABLE_ID", type=_table_id,
                   help="the table's id: the part of its address after /play?t= or /ws/")
    q.add_argument("--db", default=DEFAULT_DB, help=DB_HELP)
    q.set_defaults(func=cmd_where)
    from ..evidence import register_export

    register_export(sub, DEFAULT_DB, DB_HELP)


def _table_id(text: str) -> str:
    from ...web.people.hub import ID

    if not ID.fullmatch(text):
        raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a table's id "
                                         "(1 to 32 letters, digits, - or _)")
    return text


def _fail(message: str, command: str = "lald db") -> NoReturn:
    print(f"{command}: {' '.join(message.split())}", file=sys.stderr)
    raise SystemExit(1)


def _database_error(url: str, e: Exception, command: str = "lald db") -> NoReturn:
    from sqlalchemy.exc import ArgumentError, NoSuchModuleError

    from ...store import StoreError

    shown = shown_url(url)
    if isinstance(e, ArgumentError | NoSuchModuleError):
        _fail(f"{shown!r} is not a database URL lald can use "
              "(sqlite:///FILE or postgresql+psycopg://user@host/db)", command)
    if isinstance(e, StoreError):
        _fail(f"cannot use the database {shown}: {e}", command)
    reason = str(getattr(e, "orig", None) or e).strip().splitlines()
    _fail(f"cannot open the database {shown}: {reason[0] if reason else type(e).__name__}", command)


def _errors() -> tuple[type[Exception], ...]:
    from sqlalchemy.exc import SQLAlchemyError

    from ...store import StoreError

    return (SQLAlchemyError, StoreError, OSError, ImportError, ValueError)


def cmd_current(args: argparse.Namespace) -> None:
    """Print the revision, changing nothing."""
    from ...store.migrate import status

    try:
        found = status(args.db)
    except _errors() as e:
        _database_error(args.db, e)
    print(f"{shown_url(args.db)}: {found.describe()}")


def cmd_upgrade(args: argparse.Namespace) -> None:
    """Upgrade (or create) the database."""
    from ...store import Store

    try:
        store = Store(args.db, upgrade=True)
    except _errors() as e:
        _database_error(args.db, e)
    store.close()
    shown = shown_url(args.db)
    if store.upgraded is None:
        from ...store import HEAD

        print(f"lald: the database {shown} is at revision {HEAD} already, the newest this lald knows")
    else:
        print(f"lald: {store.upgraded.describe(shown)}")


WHERE = "lald db where"


def cmd_where(args: argparse.Namespace) -> None:
    """Print the server that holds the table, in one line; fail (1) if none does."""
    import datetime

    from sqlalchemy import create_engine

    from ...store.leases import holder
    from .serve import postgresql

    shown = shown_url(args.db)
    if not postgresql(args.db):
        _fail(f"{shown} is not a PostgreSQL database: leases are kept only there (several servers); "
              "the one server of this database holds every table", WHERE)
    try:
        engine = create_engine(args.db)
        try:
            with engine.connect() as conn:
                found = holder(conn, args.table)
        finally:
            engine.dispose()
    except _errors() as e:
        _database_error(args.db, e, WHERE)
    if found is None:
        _fail(f"there is no table {args.table} in the database {shown}", WHERE)
    status, lease = found
    if status not in ("waiting", "playing"):
        _fail(f"table {args.table} is {status}: no server holds it (any server shows it)", WHERE)
    if lease is None:
        _fail(f"no server holds table {args.table}: a running server takes it at its next sweep "
              "(within seconds) or when a page asks for it", WHERE)
    if not lease.held:
        _fail(f"no server holds table {args.table}: the lease of {lease.route} (server {lease.owner}) has "
              "ended (that server stopped, or did not renew it); a running server takes it at its next "
              "sweep", WHERE)
    until = datetime.datetime.fromtimestamp(lease.expires, datetime.UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
    print(f"table {args.table} is held by {lease.route} (server {lease.owner}), its lease running until "
          f"{until} ({max(0.0, lease.left):.0f} s from now, renewed while the server lives)")
