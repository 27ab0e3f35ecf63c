"""Schema migrations: what revision a database is at, and bringing it to this lald's.

The revisions are Alembic's, in ``migrations/versions`` (configured here, without an
``alembic.ini``); their ids are :data:`~lald.store.REVISIONS`, newest last. A database is
recognised whatever its age:

- empty: created at the newest revision (from the store's own declaration, stamped);
- from before Alembic: ``lald_tables`` without ``lald_meta`` is revision 0001 (schema
  version 1), ``lald_meta`` with ``schema`` = 2 is revision 0002; it is stamped so, then
  upgraded if it is older;
- stamped (in :data:`VERSION_TABLE`): at that revision. A revision this lald does not know,
  or a ``schema`` in ``lald_meta`` above :data:`~lald.store.SCHEMA`, is a database newer
  than this lald, which it refuses.

Whoever migrates holds a lock for the whole of it, so two servers starting on one old
database at the same instant upgrade it once: on PostgreSQL a transaction-scoped advisory
lock (``pg_advisory_xact_lock``), on SQLite an immediate transaction (the write lock); each reads the
database's revision again once it holds the lock. PostgreSQL and SQLite both change their
schema inside a transaction: a migration that fails leaves the database as it was.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import sqlite3
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, event, inspect, text
from sqlalchemy.engine import Connection, Engine, make_url
from sqlalchemy.pool import NullPool

from . import HEAD, REVISIONS, SCHEMA, StoreError, _Base

__all__ = ["LOCK_KEY", "VERSION_TABLE", "NewerDatabase", "OlderDatabase", "Status", "Upgrade",
           "alembic_config", "prepare", "status", "status_of"]

log = logging.getLogger("lald.store")

#: Alembic's table of the database's revision (named for lald, in a database it may share).
VERSION_TABLE = "lald_alembic_version"

#: The PostgreSQL advisory lock held while migrating ("lald" in ASCII, then "migr").
LOCK_KEY = 0x6C616C64_6D696772

#: The schema version of each revision.
SCHEMAS: dict[str, int] = {"0001": 1, "0002": 2, "0003": 2, "0004": 3, "0005": 3, "0006": 3}

#: How long to wait for another process's migration (SQLite) before giving up, in seconds.
SQLITE_WAIT = 120.0


class OlderDatabase(StoreError):
    """The database is older than this lald, and was not to be upgraded."""


class NewerDatabase(StoreError):
    """The database is newer than this lald: it was written by a later one."""


@dataclasses.dataclass(frozen=True)
class Status:
    """Where a database stands."""

    revision: str | None
    """Its revision (None: it is empty); for a database from before Alembic, the one
    recognised from its tables."""
    stamped: bool
    """Whether the revision is recorded in :data:`VERSION_TABLE`."""
    schema: int | None = None
    """The ``schema`` in ``lald_meta`` (None: there is none)."""

    @property
    def state(self) -> str:
        """``empty``, ``current``, ``older`` or ``newer``."""
        if self.revision is None:
            return "empty"
        if self.revision not in REVISIONS or (self.schema or 0) > SCHEMA:
            return "newer"
        return "current" if self.revision == HEAD else "older"

    def describe(self) -> str:
        """One line for a person."""
        if self.revision is None:
            return f"an empty database (this lald creates it at revision {HEAD}, schema version {SCHEMA})"
        name = f"revision {self.revision}"
        if self.revision in SCHEMAS:
            name += f" (schema version {SCHEMAS[self.revision]})"
        if not self.stamped:
            name += ", from before migrations were recorded"
        state = self.state
        if state == "newer":
            return self.newer()
        if state == "current":
            return f"{name}: the newest this lald knows"
        return (f"{name}: older than this lald's {HEAD} (schema version {SCHEMA}); "
                "lald db upgrade brings it there")

    def newer(self) -> str:
        """Why the database is newer than this lald, in one line."""
        knows = f"this lald knows revisions up to {HEAD} (schema version {SCHEMA})"
        if self.revision in REVISIONS:
            return (f"the database has schema version {self.schema} (revision {self.revision}), newer "
                    f"than this lald: {knows}; use the lald that wrote it")
        return (f"the database is at revision {self.revision}, newer than this lald: {knows}; "
                f"use the lald that wrote it")


@dataclasses.dataclass(frozen=True)
class Upgrade:
    """What :func:`prepare` did to a database."""

    before: str | None
    """Its revision before (None: it was empty, and was created)."""
    after: str
    backup: Path | None = None
    """The copy of the SQLite file as it was before the upgrade."""

    def describe(self, shown: str) -> str:
        """One line for a person, naming the database as ``shown``."""
        if self.before is None:
            return f"created the database {shown} at revision {self.after}"
        if self.before == self.after:
            return f"recorded the database {shown} as revision {self.after}"
        line = f"upgraded the database {shown} from revision {self.before} to {self.after}"
        if self.backup is not None:
            line += f"; the file as it was is kept as {self.backup}"
        return line


def status_of(conn: Connection) -> Status:
    """The status of the database on ``conn``."""
    names = set(inspect(conn).get_table_names())
    schema = None
    if "lald_meta" in names:
        value = conn.execute(text("SELECT value FROM lald_meta WHERE key = 'schema'")).scalar()
        schema = int(value) if value is not None and str(value).isdigit() else None
    if VERSION_TABLE in names:
        revisions = [r for (r,) in conn.execute(text(f"SELECT version_num FROM {VERSION_TABLE}"))]
        if revisions:
            known = [r for r in revisions if r in REVISIONS]
            unknown = [r for r in revisions if r not in REVISIONS]
            revision = unknown[0] if unknown else max(known, key=REVISIONS.index)
            return Status(revision, True, schema)
    if "lald_tables" not in names:
        return Status(None, False, schema)
    if schema is None:
        return Status("0001", False, None)
    revision = next((r for r, v in SCHEMAS.items() if v == schema), None)
    if revision is None:  # a schema version past every revision this lald has
        return Status(REVISIONS[-1], False, schema)
    return Status(revision, False, schema)


def alembic_config(conn: Connection) -> Any:
    """Alembic's configuration, on ``conn`` (in a transaction, under the lock)."""
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(Path(__file__).with_name("migrations")))
    config.attributes["connection"] = conn
    return config


def _sqlite_file(url: str) -> str | None:
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite" or parsed.database in (None, "", ":memory:"):
        return None
    return parsed.database


@contextlib.contextmanager
def _locked(engine: Engine, url: str) -> Iterator[Connection]:
    """A connection in a transaction that holds the migration lock."""
    if engine.dialect.name == "postgresql":
        with engine.begin() as conn:
            conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": LOCK_KEY})
            yield conn
        return
    if _sqlite_file(url) is None:  # in memory (one connection) or another database
        with engine.begin() as conn:
            yield conn
        return
    # SQLite: the driver's own transactions do not cover DDL; begin one here, taking the write lock at once.
    locker = create_engine(url, poolclass=NullPool, connect_args={"timeout": SQLITE_WAIT,
                                                                   "check_same_thread": False})

    def no_driver_transactions(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None

    def begin_immediate(conn: Connection) -> None:
        # The write lock, at once: a second migrator waits here; readers do not (the backup).
        conn.exec_driver_sql("BEGIN IMMEDIATE")

    event.listen(locker, "connect", no_driver_transactions)
    event.listen(locker, "begin", begin_immediate)
    try:
        with locker.begin() as conn:
            yield conn
    finally:
        locker.dispose()


def _backup(path: str, revision: str) -> Path:
    """Copy the SQLite database to a file beside it, through a connection of its own (the
    migrating one holds the write lock and has written nothing yet: this one reads)."""
    stamp = time.strftime("%Y%m%dT%H%M%S")
    target = Path(f"{path}.{revision}-{stamp}.bak")
    n = 1
    while target.exists():
        n += 1
        target = Path(f"{path}.{revision}-{stamp}-{n}.bak")
    with contextlib.closing(sqlite3.connect(path)) as source, \
            contextlib.closing(sqlite3.connect(target)) as copy:
        source.backup(copy)
    return target


def prepare(engine: Engine, url: str, upgrade: bool | None = None,
            before_migrating: Callable[[], None] | None = None) -> Upgrade | None:
    """Bring the database of ``engine`` (at ``url``) to this lald's revision, or refuse it.

    An empty database is created; one from before Alembic at this revision is stamped. An
    older one is upgraded if ``upgrade`` is true, or if it is None and the database is a
    SQLite file (after copying the file beside it); otherwise :class:`OlderDatabase`. A
    newer one is :class:`NewerDatabase`. Returns what was done (None: nothing).
    ``before_migrating`` is called once the lock is held (the tests use it).
    """
    with engine.connect() as conn:
        found = status_of(conn)
    if found.state == "current" and found.stamped:
        return None
    sqlite_file = _sqlite_file(url)
    allowed = upgrade if upgrade is not None else sqlite_file is not None
    _check(found, allowed)
    from alembic import command

    with _locked(engine, url) as conn:
        if before_migrating is not None:
            before_migrating()
        found = status_of(conn)  # again: another process may have migrated meanwhile
        _check(found, allowed)
        if found.state == "current" and found.stamped:
            return None
        config = alembic_config(conn)
        if found.revision is None:
            _Base.metadata.create_all(conn)
            conn.execute(text("INSERT INTO lald_meta (key, value) VALUES ('schema', :v)"), {"v": str(SCHEMA)})
            command.stamp(config, HEAD)
            return Upgrade(None, HEAD)
        backup = None
        if found.revision != HEAD and sqlite_file is not None:
            backup = _backup(sqlite_file, found.revision)  # before anything is written
        if not found.stamped:
            command.stamp(config, found.revision)
        if found.revision == HEAD:
            return Upgrade(HEAD, HEAD)
        command.upgrade(config, HEAD)
        done = Upgrade(found.revision, HEAD, backup)
    log.info("lald: %s", done.describe(make_url(url).render_as_string(hide_password=True)))
    return done


def _check(found: Status, allowed: bool) -> None:
    if found.state == "newer":
        raise NewerDatabase(found.newer())
    if found.state == "older" and not allowed:
        raise OlderDatabase(
            f"the database is at revision {found.revision} (schema version {SCHEMAS[found.revision or '']}), "
            f"older than this lald's {HEAD} (schema version {SCHEMA}): upgrade it first "
            f"(lald db upgrade, or lald serve --upgrade)")


def status(url: str) -> Status:
    """The status of the database at ``url``, changing nothing (a SQLite file that does
    not exist is not created)."""
    path = _sqlite_file(url)
    if path is not None and not Path(path).exists():
        return Status(None, False)
    engine = create_engine(url, poolclass=NullPool)
    try:
        with engine.connect() as conn:
            return status_of(conn)
    finally:
        engine.dispose()
