"""``lald db``: the database's schema revision (``current``) and its upgrade (``upgrade``)."""

from __future__ import annotations

import argparse
import sys
from typing import NoReturn

from .args import SubcommandParser
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


def _fail(message: str) -> NoReturn:
    print(f"lald db: {' '.join(message.split())}", file=sys.stderr)
    raise SystemExit(1)


def _database_error(url: str, e: Exception) -> NoReturn:
    from sqlalchemy.exc import ArgumentError, NoSuchModuleError

    from ..store import StoreError

    shown = shown_url(url)
    if isinstance(e, ArgumentError | NoSuchModuleError):
        _fail(f"{shown!r} is not a database URL lald can use "
              "(sqlite:///FILE or postgresql+psycopg://user@host/db)")
    if isinstance(e, StoreError):
        _fail(f"cannot use the database {shown}: {e}")
    reason = str(getattr(e, "orig", None) or e).strip().splitlines()
    _fail(f"cannot open the database {shown}: {reason[0] if reason else type(e).__name__}")


def _errors() -> tuple[type[Exception], ...]:
    from sqlalchemy.exc import SQLAlchemyError

    from ..store import StoreError

    return (SQLAlchemyError, StoreError, OSError, ImportError, ValueError)


def cmd_current(args: argparse.Namespace) -> None:
    """Print the revision, changing nothing."""
    from ..store.migrate import status

    try:
        found = status(args.db)
    except _errors() as e:
        _database_error(args.db, e)
    print(f"{shown_url(args.db)}: {found.describe()}")


def cmd_upgrade(args: argparse.Namespace) -> None:
    """Upgrade (or create) the database."""
    from ..store import Store

    try:
        store = Store(args.db, upgrade=True)
    except _errors() as e:
        _database_error(args.db, e)
    store.close()
    shown = shown_url(args.db)
    if store.upgraded is None:
        from ..store import HEAD

        print(f"lald: the database {shown} is at revision {HEAD} already, the newest this lald knows")
    else:
        print(f"lald: {store.upgraded.describe(shown)}")
