"""Leases: which server holds each live table, when several servers share one PostgreSQL
database (``lald serve --workers N``, ``lald worker``).

A server holds a table by a row of ``lald_leases``: its own id (``owner``, one per process,
so a restarted server is another owner), its name for the proxy (``route``), the key of
its *life lock* and when the lease ends (``expires``, by the database's clock). The
server renews its leases while it lives (:meth:`Leases.renew`). A lease is free

- when it has expired (a server that hangs, or lost its network), or
- as soon as its holder's life lock is gone: every server holds a session-level advisory
  lock (:meth:`Leases.life_lock`) on a connection of its own for as long as it runs, and
  PostgreSQL drops it the moment that connection ends, so a server killed with ``kill -9``
  frees its tables at once, not after ``expires``.

Taking a free lease is one statement (``INSERT ... ON CONFLICT DO UPDATE ... WHERE the
lease is free``): PostgreSQL locks the row, so of two servers racing for one expired
lease exactly one gets it; the other reads the winner's row and is told where the table
is. Every batch of writes a server commits for its tables first renews their leases in
the same transaction, with ``WHERE owner = me`` (:meth:`Leases.write`): a table whose
lease another server took meanwhile gets none of its writes (they were never told to
anyone: a page hears of a write only once it is committed), and the server learns it
has lost the table. The row lock orders that renewal against a taker's claim: the taker
loads the table after the last batch its former holder committed, or the former holder's
batch finds the lease gone. So a table is never played by two servers, and no action is
applied twice: an action is written at its place in its deal, ``(table, deal, seq)``,
which the database keeps unique.

A batch that holds an action at a place the database has filled already can never be
committed: its table was played by another server while this one could not tell (the
database restarted, both servers lost their life locks, and this one took the table back
without loading it). The batch is not retried for ever: its clashing tables are found,
their writes dropped and their leases given up in the batch's transaction, and the rest
is committed; the table is then loaded afresh from what was committed, by whichever
server takes it. Every statement that locks lease rows locks them in the order of their
tables (a claim by its ``ORDER BY``, the others through :data:`_MINE`), so that servers
renewing, writing under, giving up and taking overlapping leases at once never deadlock.

When a lease ends is read on the database's clock, the one clock every server of the
database shares; a test gives :class:`Leases` a clock of its own
(:class:`lald.clock.ManualClock`) and moves it, rather than waiting for a lease to expire.

The statements are PostgreSQL's (advisory locks, ``pg_locks``, ``ON CONFLICT``); one
server on SQLite needs no lease.
"""

from __future__ import annotations

import dataclasses
import math
import secrets
from collections.abc import Iterable, Sequence
from typing import Any

from sqlalchemy import text
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from ..clock import Clock
from . import NewTable, Store, Write

__all__ = ["LOCK_CLASS", "Holder", "Leases", "holder"]

#: The first key of every server's life lock ("lald" in ASCII); the second is its own.
LOCK_CLASS = 0x6C616C64

#: Now, in seconds since the epoch: the clock given as ``:now``, else the database's.
_NOW = "COALESCE(CAST(:now AS double precision), extract(epoch from clock_timestamp()))"

#: Whether the lease row ``l`` is held: not expired, its holder's life lock still there.
_HELD = f"""(l.expires >= {_NOW} AND EXISTS (
    SELECT 1 FROM pg_locks k WHERE k.locktype = 'advisory' AND k.granted AND k.database = (
        SELECT oid FROM pg_database WHERE datname = current_database())
      AND k.classid::bigint = :cls AND k.objid::bigint = l.lock_key AND k.objsubid = 2))"""

_CLAIM = text(f"""
INSERT INTO lald_leases AS l (table_id, owner, route, lock_key, expires)
SELECT t.id, :owner, :route, :key, {_NOW} + :ttl
  FROM lald_tables t WHERE t.id = ANY(:ids) ORDER BY t.id
ON CONFLICT (table_id) DO UPDATE
  SET owner = excluded.owner, route = excluded.route, lock_key = excluded.lock_key,
      expires = excluded.expires
  WHERE l.owner = excluded.owner OR NOT {_HELD}
RETURNING l.table_id""")

_OWNERS = text("""
SELECT table_id, owner FROM lald_leases WHERE table_id = ANY(:ids) ORDER BY table_id FOR UPDATE""")

_WHERE = text(f"""
SELECT l.table_id, l.owner, l.route, {_HELD} AS held FROM lald_leases l WHERE l.table_id = ANY(:ids)""")

#: This server's lease rows (of the tables ``:ids``, or all), locked in table order: every
#: statement that locks lease rows locks them in that one order, as :data:`_CLAIM` does, so
#: that two servers renewing, writing under, giving up and taking overlapping sets of leases
#: at once never deadlock.
_MINE = """WITH mine AS (SELECT table_id FROM lald_leases WHERE owner = :owner{ids}
                ORDER BY table_id FOR UPDATE)"""

_RENEW = text(_MINE.format(ids=" AND table_id = ANY(:ids)") + f"""
UPDATE lald_leases l SET expires = {_NOW} + :ttl
  FROM mine WHERE l.table_id = mine.table_id AND l.owner = :owner RETURNING l.table_id""")

_RENEW_ALL = text(_MINE.format(ids="") + f"""
UPDATE lald_leases l SET expires = {_NOW} + :ttl
  FROM mine WHERE l.table_id = mine.table_id AND l.owner = :owner RETURNING l.table_id""")

_RELEASE = text(_MINE.format(ids=" AND table_id = ANY(:ids)") + """
DELETE FROM lald_leases l USING mine WHERE l.table_id = mine.table_id AND l.owner = :owner""")

_RELEASE_ALL = text(_MINE.format(ids="") + """
DELETE FROM lald_leases l USING mine WHERE l.table_id = mine.table_id AND l.owner = :owner""")

_ORPHANS = text(f"""
SELECT t.id FROM lald_tables t LEFT JOIN lald_leases l ON l.table_id = t.id
 WHERE t.status IN ('waiting', 'playing') AND (l.table_id IS NULL OR NOT {_HELD})
 ORDER BY t.created LIMIT :limit""")

_HOLDER = text(f"""
SELECT t.status, l.owner, l.route, l.expires, l.expires - {_NOW} AS left,
       l.table_id IS NOT NULL AND {_HELD} AS held
  FROM lald_tables t LEFT JOIN lald_leases l ON l.table_id = t.id WHERE t.id = :id""")

_OPEN = text("SELECT count(*) FROM lald_tables WHERE status IN ('waiting', 'playing')")

_LIVE = text("""
SELECT count(*) FROM pg_locks k WHERE k.locktype = 'advisory' AND k.granted
   AND k.database = (SELECT oid FROM pg_database WHERE datname = current_database())
   AND k.classid::bigint = :cls AND k.objsubid = 2""")


@dataclasses.dataclass(frozen=True)
class Holder:
    """Who holds a table: the server's id and its name for the proxy, and whether the
    lease is live (a lease not live is free for the taking)."""

    owner: str
    route: str
    held: bool
    expires: float = 0.0
    """When the lease ends unless renewed (seconds since the epoch, the database's clock)."""
    left: float = 0.0
    """How long it has left then (seconds; negative once it has ended)."""


def holder(conn: Connection, table_id: str) -> tuple[str, Holder | None] | None:
    """The status of the table ``table_id`` and its lease (None: it has none), or None if
    there is no such table (``lald db where``)."""
    row = conn.execute(_HOLDER, {"id": table_id, "cls": LOCK_CLASS, "now": None}).one_or_none()
    if row is None:
        return None
    if row.owner is None:
        return row.status, None
    return row.status, Holder(row.owner, row.route, bool(row.held), row.expires, row.left)


class Leases:
    """One server's leases on a PostgreSQL store: take, renew, write under, release."""

    def __init__(self, store: Store, route: str, ttl: float = 10.0, clock: Clock | None = None) -> None:
        if store.engine.dialect.name != "postgresql":
            raise ValueError("leases need PostgreSQL: one server on SQLite needs none")
        self.store = store
        self.route = route
        """This server's name for the proxy (``w1``)."""
        self.owner = f"{route[:20]}-{secrets.token_hex(4)}"
        """This server's id: its route and a random part (another at every start)."""
        self.key = secrets.randbelow(2**31 - 1) + 1
        """The second key of this server's life lock."""
        self.ttl = ttl
        """How long a lease lasts unless renewed (seconds)."""
        self.clock = clock
        """The clock leases end by; None: the database's, which every server shares."""

    def _now(self) -> float | None:
        return None if self.clock is None else self.clock.now()

    # -- life --------------------------------------------------------------------------

    def life_lock(self) -> tuple[str, dict[str, int]]:
        """The statement that takes this server's life lock, and its parameters: run it on
        the connection that stays open while the server lives (psycopg's ``%(name)s``)."""
        return "SELECT pg_advisory_lock(%(cls)s, %(key)s)", {"cls": LOCK_CLASS, "key": self.key}

    def live_servers(self) -> int:
        """How many servers of this database hold their life lock now (this one included,
        once it does; PostgreSQL's locks are the whole server's, the count is this
        database's)."""
        with self.store.engine.connect() as conn:
            return int(conn.execute(_LIVE, {"cls": LOCK_CLASS}).scalar() or 0)

    # -- taking and finding ------------------------------------------------------------

    def _params(self, ids: Iterable[str]) -> dict[str, Any]:
        return {"ids": list(ids), "owner": self.owner, "route": self.route, "key": self.key,
                "ttl": self.ttl, "cls": LOCK_CLASS, "now": self._now()}

    def claim(self, ids: Sequence[str]) -> set[str]:
        """Take the leases of these tables that are free (or this server's already);
        returns the ids taken. A table that does not exist is not taken."""
        if not ids:
            return set()
        with self.store.engine.begin() as conn:
            return {r[0] for r in conn.execute(_CLAIM, self._params(ids))}

    def take(self, ids: Sequence[str]) -> dict[str, str | None]:
        """:meth:`claim`, and who held each table taken before (its owner, None if the
        table had no lease): a table this server has in memory but took from another is
        behind the database, played meanwhile elsewhere."""
        if not ids:
            return {}
        with self.store.engine.begin() as conn:
            before = {r.table_id: r.owner for r in conn.execute(_OWNERS, {"ids": sorted(ids)})}
            return {r[0]: before.get(r[0]) for r in conn.execute(_CLAIM, self._params(ids))}

    def where(self, ids: Sequence[str]) -> dict[str, Holder]:
        """Who holds each of these tables (a table without a lease row is absent)."""
        if not ids:
            return {}
        with self.store.engine.connect() as conn:
            return {r.table_id: Holder(r.owner, r.route, bool(r.held))
                    for r in conn.execute(_WHERE, {"ids": list(ids), "cls": LOCK_CLASS, "now": self._now()})}

    def orphans(self, limit: int = 100_000) -> list[str]:
        """Tables still to be played that no live server holds, oldest first."""
        with self.store.engine.connect() as conn:
            params = {"limit": limit, "cls": LOCK_CLASS, "now": self._now()}
            return [r[0] for r in conn.execute(_ORPHANS, params)]

    def open_tables(self) -> int:
        """How many tables are still to be played, whoever holds them."""
        with self.store.engine.connect() as conn:
            return int(conn.execute(_OPEN).scalar() or 0)

    def share(self, orphans: int) -> int:
        """How many of ``orphans`` free tables this server takes in one sweep: its share
        of them among the live servers, so that they spread."""
        return math.ceil(orphans / max(1, self.live_servers()))

    # -- keeping -----------------------------------------------------------------------

    def renew(self) -> set[str]:
        """Extend every lease this server holds; returns the tables it still holds."""
        with self.store.engine.begin() as conn:
            params = {"owner": self.owner, "ttl": self.ttl, "now": self._now()}
            return {r[0] for r in conn.execute(_RENEW_ALL, params)}

    def write(self, writes: Sequence[Write], mark: tuple[str, int] | None = None) -> set[str]:
        """Commit ``writes`` (:meth:`Store.write <lald.store.Store.write>`) but only those
        of tables this server still holds, renewing their leases in the same transaction;
        a new table's lease is taken with it. Returns the tables lost, their writes dropped:
        held by another server now, or played by another meanwhile (an action of the batch
        is at a place the database holds already: the batch could never be committed); the
        lease of such a table is given up with the batch, so that the table is loaded
        afresh, here or elsewhere, from what was committed."""
        clashed: set[str] = set()
        while True:
            try:
                return self._write(writes, mark, clashed)
            except IntegrityError:
                with self.store.engine.connect() as conn:
                    found = self.store.clashes(conn, writes) - clashed
                if not found:
                    raise
                clashed |= found

    def _write(self, writes: Sequence[Write], mark: tuple[str, int] | None, clashed: set[str]) -> set[str]:
        tables = {w.data.id if isinstance(w, NewTable) else w.table_id for w in writes}
        new = {w.data.id for w in writes if isinstance(w, NewTable)}
        with self.store.engine.begin() as conn:
            held = self._renew(conn, tables - new)
            lost = tables - new - held | clashed
            kept = [w for w in writes if (w.data.id if isinstance(w, NewTable) else w.table_id) not in lost]
            if not self.store.write_in(conn, kept, mark):
                return set()
            if clashed:
                conn.execute(_RELEASE, {"owner": self.owner, "ids": sorted(clashed)})
            if new:
                taken = {r[0] for r in conn.execute(_CLAIM, self._params(new))}
                if taken != new:  # a table id just made cannot be held by another: refuse it all
                    raise RuntimeError(f"new tables already leased: {sorted(new - taken)}")
        return lost

    def _renew(self, conn: Connection, ids: set[str]) -> set[str]:
        if not ids:
            return set()
        params = {"owner": self.owner, "ttl": self.ttl, "ids": sorted(ids), "now": self._now()}
        return {r[0] for r in conn.execute(_RENEW, params)}

    def release(self, ids: Sequence[str] | None = None) -> int:
        """Give up these leases (None: every one this server holds); returns how many."""
        if ids is not None and not ids:
            return 0
        with self.store.engine.begin() as conn:
            if ids is None:
                return conn.execute(_RELEASE_ALL, {"owner": self.owner}).rowcount
            return conn.execute(_RELEASE, {"owner": self.owner, "ids": sorted(ids)}).rowcount
