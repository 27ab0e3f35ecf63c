"""The database: tables, their seats, and every accepted action (SQLAlchemy).

A table is stored as its configuration, the secret its deals come from (or, at a practice
table, its seed), how many deals have been started and the list of actions of each deal.
Nothing derived is stored: loading a table rebuilds its session by replaying those
actions through the engine, so a restored table is exactly the table that was saved,
checked move by move. Seat and host tokens are stored only as their SHA-256 digests
(:func:`token_hash`): the database holds no link that lets anyone in.

It serves the web server, which is its only user, and imports nothing of lald: it keeps
what it is given (JSON configurations, action lists) and knows no rule.

The schema has a version (``schema`` in ``lald_meta``) and an Alembic revision
(:mod:`lald.store.migrate`, the revisions in ``migrations/versions``): opening an empty
database creates it at this lald's revision, :data:`HEAD`; one this lald is newer than is
upgraded only when asked (``upgrade=True``), or, a SQLite file, at once after a copy of the
file is kept beside it; a database newer than this lald is refused (:class:`StoreError`,
in one line). Version 1, from before the version was kept, had its tokens in the clear:
the upgrade replaces them by their digests, so the links already handed out keep
working, and its tables, dealt from seeds that their published records gave away, become
practice tables.

SQLite is the default (``sqlite:///lald.db``); any SQLAlchemy URL works, PostgreSQL
included (``postgresql+psycopg://user@host/db`` with its driver installed).

>>> store = Store("sqlite://")
>>> store.create_table(TableData("t1", 0.0, {"rules": {}}, 7, 0, "waiting",
...     [SeatData(0, token_hash("x" * 22), True, "random", None, False)]))
>>> store.add_action("t1", 0, 0, {"seat": 0, "type": "lie_down"}, "human")
>>> [t.actions for t in store.load_tables()]
[[[({'seat': 0, 'type': 'lie_down'}, 'human')]]]
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import sqlite3
import time
from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple, cast

from sqlalchemy import (
    BigInteger,
    Boolean,
    Float,
    ForeignKey,
    Integer,
    String,
    Table,
    Text,
    UniqueConstraint,
    create_engine,
    event,
    false,
    insert,
    select,
    tuple_,
    update,
)
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column
from sqlalchemy.pool import StaticPool

__all__ = ["HEAD", "REVISIONS", "SCHEMA", "NewAction", "NewChat", "NewTable", "SeatChange", "SeatData",
           "Store",
           "StoreError", "TableChange", "TableData", "Write", "token_hash"]

#: The version of the schema this code writes (see the module's text).
SCHEMA = 3

#: The Alembic revisions of the schema, oldest first, and the newest, the one this code
#: writes (``migrations/versions`` holds them).
REVISIONS: tuple[str, ...] = ("0001", "0002", "0003", "0004", "0005", "0006")
HEAD = REVISIONS[-1]


class StoreError(RuntimeError):
    """A database that cannot be used: its message says why, in one line."""


def token_hash(token: str) -> str:
    """What the database keeps of a secret token: its SHA-256 digest in hexadecimal."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


class _Base(DeclarativeBase):
    pass


class _Table(_Base):
    __tablename__ = "lald_tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    created: Mapped[float] = mapped_column(Float)
    config: Mapped[str] = mapped_column(Text)
    seed: Mapped[int] = mapped_column(BigInteger)
    """A practice table's seed; 0 at a table dealt from its secret."""
    deals_started: Mapped[int] = mapped_column(Integer, default=0)
    status: Mapped[str] = mapped_column(String(16), index=True)
    secret: Mapped[str | None] = mapped_column(String(64), nullable=True)
    """The key of every deal and bot (hexadecimal); none at a practice table."""
    host: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    """The digest of the host's token."""
    active_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    """When a page last connected to the table or left it (seconds since the epoch)."""


class _Seat(_Base):
    __tablename__ = "lald_seats"

    table_id: Mapped[str] = mapped_column(ForeignKey("lald_tables.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    token: Mapped[str] = mapped_column(String(64), unique=True)
    """The SHA-256 digest of the seat's token (:func:`token_hash`), never the token."""
    generation: Mapped[int] = mapped_column(Integer, default=0)
    """How many times the host has reissued the seat's link."""
    human: Mapped[bool] = mapped_column(Boolean)
    level: Mapped[str] = mapped_column(String(32))
    name: Mapped[str | None] = mapped_column(String(64), nullable=True)
    joined: Mapped[bool] = mapped_column(Boolean, default=False)
    account: Mapped[int | None] = mapped_column(Integer, nullable=True, index=True)
    """The account that plays the seat (None: a guest, or a bot's seat)."""
    erased: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    """Its account was deleted: the seat's records stay, under "deleted player"."""


class _Action(_Base):
    __tablename__ = "lald_actions"
    __table_args__ = (UniqueConstraint("table_id", "deal", "seq"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("lald_tables.id"), index=True)
    deal: Mapped[int] = mapped_column(Integer)
    seq: Mapped[int] = mapped_column(Integer)
    action: Mapped[str] = mapped_column(Text)
    source: Mapped[str] = mapped_column(String(16))
    at: Mapped[float] = mapped_column(Float)


class _Meta(_Base):
    __tablename__ = "lald_meta"

    key: Mapped[str] = mapped_column(String(32), primary_key=True)
    value: Mapped[str] = mapped_column(String(64))


class _Lease(_Base):
    """Which server holds a live table (several servers over one PostgreSQL database:
    :mod:`lald.store.leases`). A lease ends at ``expires`` (the database's clock, seconds
    since the epoch) unless its holder renews it, and at once when its holder's session
    ends (its advisory lock ``lock_key`` is gone)."""

    __tablename__ = "lald_leases"

    table_id: Mapped[str] = mapped_column(ForeignKey("lald_tables.id"), primary_key=True)
    owner: Mapped[str] = mapped_column(String(32), index=True)
    """The holding server's id (one per process: a restarted server is another)."""
    route: Mapped[str] = mapped_column(String(64))
    """The proxy's name for the holding server (``w1``): where its table's requests go."""
    lock_key: Mapped[int] = mapped_column(Integer)
    """The advisory lock the holder keeps for as long as it lives."""
    expires: Mapped[float] = mapped_column(Float)


class _Writer(_Base):
    """The last batch each writer (a server's journal) committed: a batch retried after
    an unconfirmed commit is recognised and not written twice."""

    __tablename__ = "lald_writers"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    batch: Mapped[int] = mapped_column(BigInteger)


#: One prepared Core statement: an action is written on every move, so skip the ORM.
_INSERT_ACTION = cast(Table, _Action.__table__).insert()

#: The statements of every batch (its actions and its writer's mark) in the driver's own
#: SQL, run on the driver's cursor: building, compiling and executing them through
#: SQLAlchemy cost several times the database's own work (issue 31). ``{p}`` is the
#: driver's placeholder.
_DRIVER_SQL = {
    "last": "SELECT batch FROM lald_writers WHERE id = {p}",
    "actions": "INSERT INTO lald_actions (table_id, deal, seq, action, source, at) "
               "VALUES ({p}, {p}, {p}, {p}, {p}, {p})",
    "mark_new": "INSERT INTO lald_writers (id, batch) VALUES ({p}, {p})",
    "mark": "UPDATE lald_writers SET batch = {p} WHERE id = {p} AND batch < {p}",
}
_PLACEHOLDERS = {"qmark": "?", "format": "%s", "pyformat": "%s"}


@dataclasses.dataclass
class SeatData:
    """One seat as stored: the digest of its secret token, who plays it, its bot level,
    its name, whether its person has joined, and how often its link was reissued."""

    seat: int
    token_hash: str
    human: bool
    level: str
    name: str | None
    joined: bool
    generation: int = 0
    account: int | None = None
    """The account that plays the seat (None: a guest, or a bot)."""
    erased: bool = False
    """The seat's account was deleted: shown as "deleted player"."""


@dataclasses.dataclass
class TableData:
    """One table as stored; ``actions[d]`` holds deal d's actions as (JSON, source)."""

    id: str
    created: float
    config: dict[str, Any]
    seed: int
    deals_started: int
    status: str
    seats: list[SeatData]
    actions: list[list[tuple[dict[str, Any], str]]] = dataclasses.field(default_factory=list)
    secret: str | None = None
    """The hexadecimal key of the deals and bots; None at a practice table (dealt from
    ``seed``)."""
    host_hash: str | None = None
    """The digest of the host's token (None: the table has no host)."""
    active_at: float | None = None
    """When a page last connected or left (None: when it was created)."""
    chat: list[NewChat] = dataclasses.field(default_factory=list)
    """Its chat lines and laughs, in the order said."""


class NewTable(NamedTuple):
    """A write: a new table and its seats."""

    data: TableData


class NewAction(NamedTuple):
    """A write: action ``seq`` of deal ``deal`` (its JSON form) and who chose it."""

    table_id: str
    deal: int
    seq: int
    action: dict[str, Any]
    source: str
    at: float = 0.0
    """When it was accepted (seconds since the epoch; 0: when it is written)."""


class TableChange(NamedTuple):
    """A write: new ``deals_started``, ``status`` or ``active_at`` of a table."""

    table_id: str
    values: dict[str, Any]


class NewChat(NamedTuple):
    """A write: a chat line or a laugh at a table (also how one is read back)."""

    table_id: str
    deal: int
    """The deal it was said in (-1: before the first)."""
    after: int
    """How many actions of that deal had been played."""
    seat: int | None
    """The speaker's seat (None: a spectator)."""
    name: str | None
    account: int | None
    kind: str
    """``chat`` or ``laugh``."""
    text: str
    at: float


class SeatChange(NamedTuple):
    """A write: a seat's new ``human``, ``joined``, ``name``, ``token_hash``,
    ``generation`` or ``account``."""

    table_id: str
    seat: int
    values: dict[str, Any]


#: Anything :meth:`Store.write` commits.
Write = NewTable | NewAction | TableChange | SeatChange | NewChat


def _json_text(value: Any) -> str:
    """An action as the database keeps it (``json.dumps``' text: what older lald wrote)."""
    return json.dumps(value)


def _seat_row(s: SeatData) -> dict[str, Any]:
    row = dataclasses.asdict(s)
    row["token"] = row.pop("token_hash")
    return row


#: How long opening a SQLite file waits for another process to let it switch the file to
#: WAL, in seconds.
WAL_WAIT = 120.0


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    # WAL with synchronous=NORMAL: a commit is durable against a killed process (the OS
    # holds the write), without an fsync per action.
    cursor = dbapi_connection.cursor()
    deadline = time.monotonic() + WAL_WAIT
    while True:
        try:
            cursor.execute("PRAGMA journal_mode=WAL")
            break
        except sqlite3.OperationalError as e:
            # A file still in the old journal mode that another process is writing (two
            # servers or migrations starting at once): SQLite refuses the switch at once,
            # without the wait of its busy timeout, so the wait is here.
            if "locked" not in str(e) or time.monotonic() > deadline:
                raise
            time.sleep(0.02)
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


class Store:
    """Synchronous persistence; every write is committed before it returns."""

    def __init__(self, url: str, upgrade: bool | None = None) -> None:
        """Open the database at the SQLAlchemy URL ``url``. An older schema is upgraded if
        ``upgrade`` is true, refused if it is false, and upgraded only in a SQLite file
        (after a backup beside it) if it is None."""
        self.url = url
        self.memory = url in ("sqlite://", "sqlite:///:memory:")
        """An in-memory SQLite database: one connection, to be used from one thread."""
        kwargs: dict[str, Any] = {}
        if url.startswith("sqlite"):
            kwargs["connect_args"] = {"check_same_thread": False}
            if self.memory:
                kwargs["poolclass"] = StaticPool
        self.engine: Engine = create_engine(url, **kwargs)
        if url.startswith("sqlite"):
            event.listen(self.engine, "connect", _sqlite_pragmas)
        p = _PLACEHOLDERS.get(self.engine.dialect.paramstyle)
        self._sql = None if p is None else {k: v.format(p=p) for k, v in _DRIVER_SQL.items()}
        """The batch's statements in the driver's SQL (None: a driver whose placeholder
        this does not know, which goes through SQLAlchemy's statements)."""
        try:
            self._prepare(upgrade)
        except BaseException:
            self.engine.dispose()
            raise

    def _prepare(self, upgrade: bool | None) -> None:
        """Create the schema, or bring an older one up to date (see the module's text)."""
        from .migrate import prepare

        self.upgraded = prepare(self.engine, self.url, upgrade)
        """What opening did to the database (None: nothing)."""

    def close(self) -> None:
        """Release the connections."""
        self.engine.dispose()

    # -- writing ------------------------------------------------------------------------

    def write(self, writes: Sequence[Write], mark: tuple[str, int] | None = None) -> None:
        """Commit ``writes`` in their order, in one transaction: all of them or none.

        Consecutive actions go to the database as one multi-row insert. ``mark``, a
        writer's id and the batch's number (increasing), makes a retry safe: if the
        database already holds that batch or a later one of that writer (the commit went
        through but its confirmation was lost), nothing is written again.
        """
        with self.engine.begin() as conn:
            self.write_in(conn, writes, mark)

    def write_in(self, conn: Connection, writes: Sequence[Write],
                 mark: tuple[str, int] | None = None) -> bool:
        """:meth:`write` on ``conn``, inside the caller's transaction; False if ``mark``
        says the batch is committed already (nothing is written)."""
        now = time.time()
        sql = self._sql
        last: int | None = None
        marked = mark is None
        if mark is not None:
            writer, number = mark
            # Most batches: the writer's row holds an earlier batch, moved on to this one here.
            marked = sql is not None and self._driver(conn, sql["mark"], (number, writer, number))[0] == 1
            if not marked:  # a new writer, or a batch retried: is it committed already?
                if sql is not None:
                    row = self._driver(conn, sql["last"], (writer,))[1]
                    last = None if row is None else row[0]
                else:
                    last = conn.execute(select(_Writer.batch).where(_Writer.id == writer)).scalar()
                if last is not None and last >= number:
                    return False
        rows: list[tuple[Any, ...]] = []
        for w in writes:
            if isinstance(w, NewAction):
                rows.append((w.table_id, w.deal, w.seq, _json_text(w.action), w.source, w.at or now))
                continue
            if rows:
                self._insert_actions(conn, rows)
                rows = []
            if isinstance(w, NewTable):
                d = w.data
                conn.execute(insert(_Table).values(
                    id=d.id, created=d.created, config=json.dumps(d.config), seed=d.seed,
                    deals_started=d.deals_started, status=d.status, secret=d.secret,
                    host=d.host_hash, active_at=d.active_at))
                conn.execute(insert(_Seat), [_seat_row(s) | {"table_id": d.id} for s in d.seats])
            elif isinstance(w, TableChange):
                conn.execute(update(_Table).where(_Table.id == w.table_id).values(**w.values))
            elif isinstance(w, NewChat):
                conn.execute(_accounts.chat_insert(w))
            else:
                values = {("token" if k == "token_hash" else k): v for k, v in w.values.items()}
                conn.execute(update(_Seat).where(_Seat.table_id == w.table_id,
                                                 _Seat.seat == w.seat).values(**values))
        if rows:
            self._insert_actions(conn, rows)
        if not marked:
            if sql is not None:
                self._driver(conn, *((sql["mark_new"], (writer, number)) if last is None
                                     else (sql["mark"], (number, writer, number))))
            elif last is None:
                conn.execute(insert(_Writer).values(id=writer, batch=number))
            else:
                conn.execute(update(_Writer).where(_Writer.id == writer).values(batch=number))
        return True

    def _insert_actions(self, conn: Connection, rows: list[tuple[Any, ...]]) -> None:
        if self._sql is None:
            keys = ("table_id", "deal", "seq", "action", "source", "at")
            conn.execute(_INSERT_ACTION, [dict(zip(keys, r, strict=True)) for r in rows])
        elif len(rows) == 1:
            self._driver(conn, self._sql["actions"], rows[0])
        else:
            self._driver(conn, self._sql["actions"], rows, many=True)

    def _driver(self, conn: Connection, sql: str, params: Any, many: bool = False) -> tuple[int, Any]:
        """Run ``sql`` on the driver's cursor of ``conn``, in its transaction; its row count
        and first row. A refusal raises as through SQLAlchemy (an IntegrityError stays
        one), and a connection found dropped is invalidated, as SQLAlchemy does."""
        dbapi = self.engine.dialect.loaded_dbapi
        raw = conn.connection.dbapi_connection
        assert raw is not None
        cursor = raw.cursor()
        try:
            if many:
                cursor.executemany(sql, params)
            else:
                cursor.execute(sql, params)
            return cursor.rowcount, cursor.fetchone() if cursor.description else None
        except dbapi.Error as e:
            gone = self.engine.dialect.is_disconnect(e, raw, cursor)
            if gone:
                conn.invalidate(e)
            raise DBAPIError.instance(sql, params, e, dbapi.Error, connection_invalidated=gone,
                                      dialect=self.engine.dialect) from e
        finally:
            cursor.close()

    def clashes(self, conn: Connection, writes: Sequence[Write]) -> set[str]:
        """The tables of ``writes`` with a new action at a place (table, deal, seq) the
        database holds already: a batch with it can never be committed (another writer
        played the table meanwhile)."""
        places = sorted({(w.table_id, w.deal, w.seq) for w in writes if isinstance(w, NewAction)})
        if not places:
            return set()
        found: set[str] = set()
        for i in range(0, len(places), 1000):
            query = select(_Action.table_id).distinct().where(
                tuple_(_Action.table_id, _Action.deal, _Action.seq).in_(places[i:i + 1000]))
            found.update(conn.execute(query).scalars())
        return found

    def create_table(self, data: TableData) -> None:
        """Store a new table and its seats."""
        self.write([NewTable(data)])

    def add_action(self, table_id: str, deal: int, seq: int, action: dict[str, Any],
                   source: str) -> None:
        """Commit action ``seq`` of deal ``deal``; a duplicate raises (the pair is unique)."""
        self.write([NewAction(table_id, deal, seq, action, source)])

    def update_table(self, table_id: str, **values: Any) -> None:
        """Change ``deals_started`` or ``status``."""
        self.write([TableChange(table_id, values)])

    def update_seat(self, table_id: str, seat: int, **values: Any) -> None:
        """Change a seat's ``human``, ``joined`` or ``name``."""
        self.write([SeatChange(table_id, seat, values)])

    # -- reading ------------------------------------------------------------------------

    def table_of_token(self, digest: str) -> str | None:
        """The id of the table of the seat whose token has this digest."""
        with self.engine.connect() as conn:
            return conn.execute(select(_Seat.table_id).where(_Seat.token == digest)).scalar()

    def table_of_host(self, digest: str) -> str | None:
        """The id of the table whose host token has this digest."""
        with self.engine.connect() as conn:
            return conn.execute(select(_Table.id).where(_Table.host == digest)).scalar()

    def load_tables(self, statuses: Iterable[str] | None = None,
                    ids: Iterable[str] | None = None) -> list[TableData]:
        """Every table (or those with one of ``statuses``, or these ``ids``) with its seats
        and actions."""
        with self.engine.connect() as conn:
            query = select(_Table).order_by(_Table.created)
            if statuses is not None:
                query = query.where(_Table.status.in_(list(statuses)))
            if ids is not None:
                query = query.where(_Table.id.in_(list(ids)))
            tables = {row.id: TableData(row.id, row.created, json.loads(row.config), row.seed,
                                        row.deals_started, row.status, [], secret=row.secret,
                                        host_hash=row.host, active_at=row.active_at)
                      for row in conn.execute(query)}
            if not tables:
                return []
            ids = list(tables)
            for s in conn.execute(select(_Seat).where(_Seat.table_id.in_(ids))
                                  .order_by(_Seat.table_id, _Seat.seat)):
                tables[s.table_id].seats.append(
                    SeatData(s.seat, s.token, s.human, s.level, s.name, s.joined, s.generation,
                             s.account, s.erased))
            for t in tables.values():
                t.actions = [[] for _ in range(t.deals_started)]
            for line in _accounts.chat_rows(conn, ids):
                tables[line.table_id].chat.append(line)
            for a in conn.execute(select(_Action).where(_Action.table_id.in_(ids))
                                  .order_by(_Action.table_id, _Action.deal, _Action.seq)):
                deals = tables[a.table_id].actions
                while len(deals) <= a.deal:
                    deals.append([])
                if a.seq != len(deals[a.deal]):
                    raise ValueError(f"table {a.table_id}, deal {a.deal}: action {a.seq} is "
                                     f"stored after {len(deals[a.deal])} actions")
                deals[a.deal].append((json.loads(a.action), a.source))
        return list(tables.values())


# The community's tables (accounts, sessions, chat, ratings) are declared in their own
# module; importing it here puts them in the declaration every database is made from.
from . import accounts as _accounts  # noqa: E402,F401
