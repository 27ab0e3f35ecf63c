"""One server of several over one PostgreSQL database, behind a proxy (``lald worker``,
``lald serve --workers N``; docs/deploy.md).

Each live table is held by one server at a time, by its lease (:mod:`lald.store.leases`):
a server takes a table's lease before it loads the table, renews its leases while it
lives, and commits a table's writes only while it still holds it. The proxy sends every
request that names a table (``/ws/{id}``, ``/api/tables/{id}/...``) to the server that
holds it: it asks any server first (``/_lald/route``, :meth:`Cluster.route`), which answers with
the holder's name, or, if no live server holds the table, takes it and answers its own.
A request that names no table (the lobby, a new table, the static pages) goes to the
server with the fewest connections; a new table is held by the server that made it.

A page that joins with its seat's token reaches any server: if another holds the table,
it is told so (``elsewhere``, close code 4005) and connects again to ``/ws/{id}``. The
host's requests name no table either: any server answers the host's view (from the
other servers' events, below), and sends a reissue or a close to the table's own address
(307).

Between the servers, PostgreSQL's LISTEN/NOTIFY (:mod:`.events`) carries each table's
summary as it changes (rules, progress, who has joined and who is connected), so that the
lobby lists every server's open tables and any server answers the host's view
(:mod:`.remote`). A server that starts asks the others for everything (``sync``).

When a server dies (``kill -9``), PostgreSQL drops its life lock with its connection: its
leases are free at once. The others sweep for free tables every second and take a share
each, loading them from the database (replaying their actions, as a restart does); a page
that reconnects takes its table to the server the proxy asked first. A server that holds well
over its share of the open tables gives some up, tables no page is at (:meth:`Cluster.balance`),
so that a server started again gets its share back. A server that stops
gracefully (SIGTERM) hands its tables over: it stops their bots, commits what it has
accepted, gives up its leases, tells the others (which take the tables at once), and sends
its pages to the tables' new servers; within a bound (:attr:`ClusterConfig.stop_seconds`),
whatever the database does: past it, the writes not yet committed are dropped (told to
nobody) and the leases end with the process.

A batch of writes that can never be committed (its table was played by another server
meanwhile, :meth:`Leases.write <lald.store.leases.Leases.write>`; :mod:`.leased`) is dropped with its
table, handed over and its lease given up; a table lost takes its queued writes with it.
A table still in memory that a sweep takes from another server's lease (both lost their
life locks while PostgreSQL restarted, and the other played it meanwhile) is loaded
afresh, not played on from behind. A server whose writes the database refuses, or leaves
waiting, says so on ``/readyz``.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import dataclasses
import json
import logging
import math
import random
import re
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from sqlalchemy import text
from sqlalchemy.engine import make_url

from ...clock import SYSTEM, Clock
from ...store import Store
from ...store.leases import Leases
from ..people.hub import Elsewhere, Hub
from ..settings import Settings
from .events import Channel
from .leased import ClusterJournal
from .remote import RemoteTable, SiteChannel, table_event

if TYPE_CHECKING:
    from ..ops import Metrics

log = logging.getLogger("lald.web")
T = TypeVar("T")


def _database_threads() -> concurrent.futures.ThreadPoolExecutor:
    """Where a server's loops ask the database (their calls run on though a loop is cancelled)."""
    return concurrent.futures.ThreadPoolExecutor(4, thread_name_prefix="lald-leases")


#: The most tables a server gives up in one sweep to even the load.
GIVE_AT_ONCE = 25
#: The tables a sweep replays at once before it lets the server's other work run (a
#: table's replay takes milliseconds; fifty at once kept a loaded server from answering for
#: seconds, /readyz included).
ADOPT_AT_ONCE = 4
#: How long a server leaves a table it gave up to the others (seconds), unless another
#: gives it up in turn.
GIVEN_SECONDS = 30.0
#: A route name (the proxy's name for a server): lower-case letters and digits.
ROUTE = re.compile(r"[a-z][a-z0-9]{0,19}")
#: The table a request's path names, if any.
TABLE_PATH = re.compile(r"^/(?:ws|api/tables)/([A-Za-z0-9_-]{1,32})(?:[/?]|$)")


@dataclasses.dataclass
class ClusterConfig:
    """One server's place in a site of several."""

    route: str
    """Its name for the proxy (``w1``): the proxy's configuration names the same."""
    ttl: float = 10.0
    """How long its leases last unless renewed (seconds): how long a table waits for a
    server that hangs (a server that dies frees its tables at once)."""
    sweep_every: float = 1.0
    """How often it looks for tables no live server holds (seconds)."""
    publish_every: float = 0.2
    """How often it tells the others of its tables' changes (seconds)."""
    stop_seconds: float = 10.0
    """How long a stop waits for the database to take the writes accepted, and then to
    give up the leases (seconds): past it, the writes still uncommitted are dropped (they
    were told to nobody) and the leases end with the process."""
    write_late: float = 5.0
    """How long a batch of writes may wait for the database before ``/readyz`` says the
    server cannot write (seconds)."""


def conninfo(url: str) -> str:
    """psycopg's connection string for a SQLAlchemy PostgreSQL URL."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


class Cluster:
    """This server's part in the site: its leases, its sweeps, its events, its handover."""

    def __init__(self, store: Store, settings: Settings, config: ClusterConfig,
                 clock: Clock = SYSTEM) -> None:
        if not ROUTE.fullmatch(config.route):
            raise ValueError(f"{config.route!r} is not a server's name: use lower-case letters and "
                             "digits, a letter first (w1)")
        self.config = config
        self.clock = clock
        """What this server's time is read on and its loops wait on (:mod:`lald.clock`): its
        tables', the writer's lateness, the leases' renewal and the sweeps; the leases end
        by the database's clock, which every server shares."""
        self.leases = Leases(store, config.route, config.ttl)
        self.me = self.leases.owner
        self.journal = ClusterJournal(store, self.leases, config.stop_seconds)
        self.journal.cluster = self
        self.channel = Channel(conninfo(store.url), self.me, self.leases.life_lock())
        self.hub = Hub(store, settings, self.journal, channel=SiteChannel(self.channel), clock=clock)
        self.hub.ownership = self
        self.metrics: Metrics | None = None
        self.leased: set[str] = set()
        """The tables this server holds a committed lease of."""
        self.remote: dict[str, tuple[str, RemoteTable]] = {}
        """The other servers' tables as their events told: id -> (server, table)."""
        self.remote_hosts: dict[str, str] = {}
        """Host digests of the other servers' tables: digest -> table id."""
        self.draining = False
        """Set once the server stops: it takes no table, makes none, and hands its own over."""
        self._published: dict[str, tuple[int, str]] = {}
        self._given: dict[str, float] = {}
        """Tables this server gave up to even the load, and when (it takes them back only later)."""
        self._sweep = asyncio.Event()
        self.adopted = asyncio.Event()
        """Set (then replaced) each time a sweep has loaded a slice of tables."""
        self._tasks: list[asyncio.Task[None]] = []
        self._db = _database_threads()
        """The threads that ask the database for this server's loops: :meth:`close` waits
        for the calls still running there (a cancelled loop's call runs on), so that none
        holds a connection when the store closes."""
        self.channel.on("table", self._on_table)
        self.channel.on("gone", self._on_gone)
        self.channel.on("bye", self._on_bye)
        self.channel.on("sync", lambda sender, body: self._published.clear())
        self.channel.on("sync", lambda sender, body: self.hub.lobby.republish())
        self.channel.on("released", self._on_released)
        self.channel.on_reconnect = self._reconnected

    # -- life ------------------------------------------------------------------------------

    async def start(self) -> None:
        """Listen to the others (the life lock taken), ask them for their tables, take a
        share of the tables nobody holds, and start the loops."""
        self.hub.restore()
        await self.channel.start()
        self.channel.publish("sync", {})
        await self.sweep()
        self._tasks = [asyncio.create_task(self._loop(self._renew, self.config.ttl / 4), name="lald renew"),
                       asyncio.create_task(self._sweep_loop(), name="lald sweep"),
                       asyncio.create_task(self._loop(self._publish, self.config.publish_every),
                                           name="lald publish")]

    async def _reconnected(self) -> None:
        self.channel.publish("sync", {})
        self._published.clear()
        self._sweep.set()

    async def drain(self) -> int:
        """Stop gracefully: take nothing more, stop the bots, commit what was accepted,
        give up every lease and tell the others, send the pages to the tables' new
        servers; within :attr:`ClusterConfig.stop_seconds` or so, whatever the database
        does. Returns how many tables were handed over."""
        if self.draining:
            return 0
        self.draining = True
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.config.stop_seconds
        tables = list(self.hub.tables.values())
        for table in tables:  # no bot moves, no page's message is taken from here on
            self.hub.hand_over(table)
        await self.journal.settle(self.config.stop_seconds)
        ids = sorted(self.leased)
        try:  # within the bound: if the database does not answer, they end with the process
            await asyncio.wait_for(self._in_thread(self.leases.release), max(1.0, deadline - loop.time()))
        except Exception:
            log.exception("giving up the leases failed: they end with this process")
        self.leased.clear()
        for i in range(0, len(ids), 200):
            self.channel.publish("released", {"ids": ids[i:i + 200]})
        self.channel.publish("bye", {})
        log.info("handed over %d tables", len(ids), extra={"event": {"tables": len(ids)}})
        return len(ids)

    async def _in_thread(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in one of this server's database threads."""
        return await asyncio.get_running_loop().run_in_executor(self._db, fn, *args)

    async def close(self) -> None:
        """Stop the loops, wait (within the stop's bound) for their database calls still
        running, and leave the channel (the life lock goes with it)."""
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._tasks = []
        running, self._db = self._db, _database_threads()  # (a server started again gets new ones)
        finished = asyncio.get_running_loop().run_in_executor(None, running.shutdown, True)
        try:  # a database that does not answer keeps its call: it ends with the process
            await asyncio.wait_for(asyncio.shield(finished), self.config.stop_seconds)
        except TimeoutError:
            log.warning("a call to the database still runs as the server stops")
        await self.channel.close()

    async def ready(self) -> str | None:
        """Why this server does not take new work now, or None (``/readyz``)."""
        if self.draining:
            return "the server is stopping"
        if not self.channel.connected.is_set():
            return "the server is not listening to the others"
        trouble = self.journal.trouble(self.clock.monotonic(), self.config.write_late)
        if trouble is not None:
            return trouble
        try:
            await asyncio.wait_for(self._in_thread(self._ping), 2.0)
        except Exception:
            return "the database does not answer"
        return None

    def _ping(self) -> None:
        with self.leases.store.engine.connect() as conn:
            conn.execute(text("SELECT 1"))

    # -- ownership (what the hub asks) --------------------------------------------------

    def claim(self, table_id: str) -> None:
        """Take the table's lease, or raise :class:`Elsewhere` (see :class:`~.hub.Ownership`)."""
        if self.draining or self._giving(table_id):
            raise Elsewhere(table_id)
        if table_id in self.leases.claim([table_id]):
            self._taken([table_id])
            return
        if table_id in self.leases.where([table_id]):
            raise Elsewhere(table_id)

    def _giving(self, table_id: str) -> bool:
        """Whether this server gave the table up lately, to even the load."""
        at = self._given.get(table_id)
        return at is not None and self.clock.monotonic() - at < GIVEN_SECONDS

    def forget(self, table_id: str) -> None:
        """Give up the lease of a table this server dropped from memory."""
        if table_id in self.leased:
            self.leased.discard(table_id)
            self.leases.release([table_id])

    def listed(self) -> list[tuple[float, dict[str, Any]]]:
        """The other servers' open tables (lessons are never listed)."""
        return [(t.created, t.summary()) for _, t in self.remote.values()
                if t.open and not t.summary().get("lesson")]

    def hosted(self, digest: str) -> RemoteTable | None:
        """Another server's table whose host's token has this digest, as last told."""
        table_id = self.remote_hosts.get(digest)
        found = self.remote.get(table_id or "")
        return found[1] if found is not None and found[1].host_hash == digest else None

    def _taken(self, ids: Sequence[str]) -> None:
        self.leased.update(ids)
        if self.metrics is not None:
            self.metrics.claimed.inc(len(ids))
        for table_id in ids:
            self._drop_remote(table_id)

    def committed(self, new: Sequence[str], lost: set[str]) -> None:
        """A batch was committed: its new tables are leased; its lost tables are handed
        over (before anyone is told of the batch), and the others told to look for them
        (a table whose writes clashed is free now)."""
        self.leased.update(t for t in new if t not in lost)
        self.lose(lost)
        ids = sorted(lost)
        for i in range(0, len(ids), 200):
            self.channel.publish("released", {"ids": ids[i:i + 200]})

    def lose(self, ids: set[str]) -> None:
        """These tables are not this server's to play: another took their lease, or played
        them meanwhile. Hand them over, their writes still queued dropped."""
        for table_id in ids:
            self.leased.discard(table_id)
            table = self.hub.tables.get(table_id)
            if table is None:
                continue
            log.warning("table %s: another server holds it or played it meanwhile; its uncommitted "
                        "writes are dropped (told to nobody) and its pages go to its holder", table_id,
                        extra={"event": {"table": table_id}})
            if self.metrics is not None:
                self.metrics.lost.inc()
            self.journal.discard(table)
            self.hub.hand_over(table)

    # -- loops ----------------------------------------------------------------------------

    async def _loop(self, step: Any, every: float) -> None:
        while True:
            await self.clock.sleep(every)
            try:
                await step()
            except Exception:
                log.exception("%s failed", getattr(step, "__name__", "a loop"))

    async def _renew(self) -> None:
        """Renew every lease; hand over the tables whose lease another server took; drop
        the other servers' tables whose holder has changed."""
        before = set(self.leased)
        held = await self._in_thread(self.leases.renew)
        self.lose(before - held)
        if self.remote:
            ids = list(self.remote)
            holders = await self._in_thread(self.leases.where, ids)
            for table_id in ids:
                found, holder = self.remote.get(table_id), holders.get(table_id)
                if found is not None and (holder is None or not holder.held or holder.owner != found[0]):
                    self._drop_remote(table_id)

    async def _sweep_loop(self) -> None:
        while True:
            with contextlib.suppress(TimeoutError):
                await self.clock.wait_for(self._sweep.wait(), self.config.sweep_every)
            self._sweep.clear()
            try:
                await self.sweep()
                await self.balance()
            except Exception:
                log.exception("looking for tables nobody holds failed")

    async def sweep(self) -> int:
        """Take a share of the open tables no live server holds, and play them from here
        (loaded from the database: their actions replayed). Returns how many."""
        if self.draining:
            return 0
        orphans = await self._in_thread(self.leases.orphans)
        if not orphans:
            return 0
        orphans = [t for t in orphans if not self._giving(t)]
        random.shuffle(orphans)
        share = await self._in_thread(self.leases.share, len(orphans))
        if share < len(orphans):  # up to this server's fair share, if it holds less
            live = await self._in_thread(self.leases.live_servers)
            fair = math.ceil(await self._in_thread(self.leases.open_tables) / max(1, live))
            share = max(share, min(len(orphans), fair - sum(t.open for t in self.hub.tables.values())))
        before = await self._in_thread(self.leases.take, orphans[:share])
        taken = sorted(before)
        for table_id in taken:  # here, but another server held it since: played there meanwhile
            table = self.hub.tables.get(table_id)
            if table is not None and before[table_id] != self.me:
                log.warning("table %s: taken back from another server; loaded again from the database",
                            table_id, extra={"event": {"table": table_id}})
                self.journal.discard(table)
                self.hub.hand_over(table)
        fresh = [t for t in taken if t not in self.hub.tables]
        self._taken(taken)
        start = time.perf_counter()
        for i in range(0, len(fresh), 50):  # in slices: the tables here play on meanwhile
            chunk = [t for t in fresh[i:i + 50] if t not in self.hub.tables]
            datas = await self._in_thread(self.hub.store.load_tables, None, chunk)
            if self.draining:
                break
            for j in range(0, len(datas), ADOPT_AT_ONCE):
                if self.draining:
                    break
                self.hub.adopt([d for d in datas[j:j + ADOPT_AT_ONCE]
                                if d.id not in self.hub.tables and d.id in self.leased])
                self.adopted.set()  # the pages' requests waiting for these tables go on
                self.adopted = asyncio.Event()
                await asyncio.sleep(0)  # the server answers between a few tables and the next
        if fresh:
            log.info("took %d tables nobody held (%.2f s)", len(fresh), time.perf_counter() - start,
                     extra={"event": {"tables": len(fresh)}})
        return len(fresh)

    async def balance(self) -> int:
        """Give up some tables if this server holds well over its share of the open tables
        (after another server started, say): at most :data:`GIVE_AT_ONCE` a sweep, and only
        tables no page is connected to. Each is handed over (its pages sent on, its writes committed),
        then its lease given up; the others take them at once. Returns how many."""
        if self.draining:
            return 0
        live = await self._in_thread(self.leases.live_servers)
        if live < 2:
            return 0
        total = await self._in_thread(self.leases.open_tables)
        mine = [t for t in self.hub.tables.values() if t.open and t.id in self.leased]
        fair = math.ceil(total / live)
        excess = len(mine) - fair
        if excess <= max(5, fair // 10):
            return 0
        # Only tables no page is at: a person at play is not moved (new tables even the load).
        chosen = [t for t in mine if not t.conns][:min(excess, GIVE_AT_ONCE)]
        if not chosen:
            return 0
        now = self.clock.monotonic()
        for table in chosen:
            self._given[table.id] = now
            self.hub.hand_over(table)
        await self.journal.flush()  # their last writes committed before the others load them
        ids = [t.id for t in chosen]
        self.leased.difference_update(ids)
        await self._in_thread(self.leases.release, ids)
        self.channel.publish("released", {"ids": ids})
        for table_id in [t for t, at in self._given.items() if now - at > GIVEN_SECONDS]:
            del self._given[table_id]
        log.info("gave up %d tables to even the load (%d held, %d open, %d servers)", len(ids),
                 len(mine) - len(ids), total, live, extra={"event": {"tables": len(ids)}})
        return len(ids)

    async def _publish(self) -> None:
        """Tell the others of the changes of this server's tables (their summaries, as
        the lobby and the host see them), and of the tables it no longer holds."""
        tables = self.hub.tables
        for table in list(tables.values()):
            if table.lesson is not None:
                continue
            last = self._published.get(table.id)
            if last is not None and last[0] == table.epoch:
                continue
            # What the summary shows changes far less often than the table (every action):
            # build it only when its parts do.
            key = json.dumps([table.status, len(table.session.deals), len(table.session.schedule),
                              [[s.human, s.joined, s.name, s.level, s.generation, table.online(s.seat)]
                               for s in table.seats]])
            if last is None or last[1] != key:
                self.channel.publish("table", table_event(table))
            self._published[table.id] = (table.epoch, key)
        gone = [t for t in self._published if t not in tables]
        for i in range(0, len(gone), 100):
            self.channel.publish("gone", {"ids": gone[i:i + 100]})
        for table_id in gone:
            del self._published[table_id]

    # -- the other servers' events --------------------------------------------------------

    def _on_table(self, sender: str, body: dict[str, Any]) -> None:
        if body["id"] in self.hub.tables:
            return
        table = RemoteTable(body)
        self._drop_remote(table.id)
        self.remote[table.id] = (sender, table)
        if table.host_hash is not None:
            self.remote_hosts[table.host_hash] = table.id

    def _drop_remote(self, table_id: str, sender: str | None = None) -> None:
        found = self.remote.get(table_id)
        if found is None or (sender is not None and found[0] != sender):
            return
        del self.remote[table_id]
        if found[1].host_hash is not None:
            self.remote_hosts.pop(found[1].host_hash, None)

    def _on_gone(self, sender: str, body: dict[str, Any]) -> None:
        for table_id in body.get("ids", []):
            self._drop_remote(table_id, sender)

    def _on_bye(self, sender: str, body: dict[str, Any]) -> None:
        for table_id in [t for t, (s, _) in self.remote.items() if s == sender]:
            self._drop_remote(table_id, sender)
        self._sweep.set()

    def _on_released(self, sender: str, body: dict[str, Any]) -> None:
        self._on_gone(sender, body)
        for table_id in body.get("ids", []):  # another gave it up since: this server may take it
            self._given.pop(table_id, None)
        self._sweep.set()

    # -- the proxy's question -----------------------------------------------------------------

    async def route(self, path: str) -> str | None:
        """Which server holds the table named by the request path ``path`` (the proxy's
        question, ``/_lald/route``): a server's name, or ``any`` (the path names no table, or
        no such table exists); None while the table is being given to another or this
        server stops (the proxy asks another). A table no live server holds is taken here."""
        found = TABLE_PATH.match(path)
        if found is None:
            return "any"
        table_id = found.group(1)
        me = self.config.route
        if table_id in self.hub.tables:
            return me
        if self._giving(table_id):  # being given to another: ask another
            return None
        if table_id in self.leased:  # taken by a sweep, being loaded: wait for it, not load it twice
            deadline = time.monotonic() + 10
            while (table_id in self.leased and table_id not in self.hub.tables
                   and time.monotonic() < deadline):
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.adopted.wait(), max(0.01, deadline - time.monotonic()))
            if table_id in self.hub.tables:
                return me
        holder = (await self._in_thread(self.leases.where, [table_id])).get(table_id)
        if holder is not None and holder.held and holder.owner != self.me:
            return holder.route
        if self.draining:
            return None
        # Free: take it here (its holder died, or it was never held), without holding up the
        # tables here meanwhile; the others of a dead server are swept at once.
        if table_id in await self._in_thread(self.leases.claim, [table_id]):
            self._taken([table_id])
            self._sweep.set()
            if table_id not in self.hub.tables:
                datas = await self._in_thread(self.hub.store.load_tables, None, [table_id])
                if table_id not in self.hub.tables and table_id in self.leased:
                    self.hub.adopt(datas)
            return me
        holder = (await self._in_thread(self.leases.where, [table_id])).get(table_id)
        if holder is None:
            return "any"  # no such table: any server says so
        if not holder.held:
            return None
        return holder.route
