"""The servers' channel: events between the servers of one site, carried by PostgreSQL's
LISTEN/NOTIFY (psycopg), so that what one server knows the others hear of.

An event is a kind and a JSON object, sent by one server to every other one
(``{"from": SERVER, "kind": KIND, "body": {...}}`` on the channel :data:`CHANNEL`).
Anything may ride on it: a part of the site registers a handler for its kinds
(:meth:`Channel.on`) and publishes its own (:meth:`Channel.publish`); today the lobby's
open tables and the host's view of who is connected (:mod:`.cluster`), later the
community's (chat, ratings). PostgreSQL delivers an event to every server listening,
after the publishing transaction, in the order each server published; a server that
was not listening misses it (a server that starts or comes back asks the others to tell
it everything again: the ``sync`` kind of :mod:`.cluster`). A payload is at most
:data:`MAX_PAYLOAD` bytes, PostgreSQL's limit less a margin.

The connection that listens also holds the server's *life lock*
(:meth:`lald.store.leases.Leases.life_lock`): while it is open, the server is alive to the
others; when the process dies, PostgreSQL drops it with the connection.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

log = logging.getLogger("lald.web")

#: The PostgreSQL channel of lald's events.
CHANNEL = "lald_events"
#: The longest payload sent (bytes): PostgreSQL refuses 8000 and more.
MAX_PAYLOAD = 7900

Handler = Callable[[str, dict[str, Any]], None]


def encoded(value: Any) -> bytes:
    """``value`` as JSON the way an event carries it (UTF-8, no spaces)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode()


class Channel:
    """One server's end of the channel: a connection that listens (and holds the life
    lock), one that publishes, and the handlers of each kind."""

    def __init__(self, conninfo: str, me: str, on_connect: tuple[str, dict[str, Any]] | None = None) -> None:
        self.conninfo = conninfo
        self.me = me
        """This server's id (its own events are not handed back to it)."""
        self.on_connect = on_connect
        """A statement run on the listening connection each time it is opened (the life lock)."""
        self.handlers: dict[str, list[Handler]] = {}
        self._out: asyncio.Queue[str] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []
        self.connected = asyncio.Event()
        """Set while the listening connection is open (and the life lock held)."""
        self.on_reconnect: Callable[[], Awaitable[None]] | None = None
        """Called when the listening connection was lost and is open again."""
        self.sent = 0
        self.received = 0

    def on(self, kind: str, handler: Handler) -> None:
        """Call ``handler(sender, body)`` for every event of ``kind`` from another server."""
        self.handlers.setdefault(kind, []).append(handler)

    def payload(self, kind: str, body: dict[str, Any]) -> bytes:
        """The event as it is sent (its length is what :data:`MAX_PAYLOAD` bounds)."""
        return encoded({"from": self.me, "kind": kind, "body": body})

    def publish(self, kind: str, body: dict[str, Any]) -> bool:
        """Send an event to the other servers (queued; sent in order). False if it is too
        long to send."""
        payload = self.payload(kind, body)
        if len(payload) > MAX_PAYLOAD:
            log.warning("a %s event of %d bytes is too long for the channel", kind, len(payload))
            return False
        self._out.put_nowait(payload.decode())
        return True

    async def start(self) -> None:
        """Connect (listening, the life lock taken) and start sending; returns once listening."""
        self._tasks = [asyncio.create_task(self._listen(), name="lald channel listen"),
                       asyncio.create_task(self._send(), name="lald channel send")]
        waiting = asyncio.create_task(self.connected.wait())
        done, _ = await asyncio.wait([waiting, self._tasks[0]], return_when=asyncio.FIRST_COMPLETED)
        if waiting not in done:
            waiting.cancel()
            self._tasks[0].result()  # the listener failed: raise its error
            raise RuntimeError("the channel stopped before it listened")

    async def close(self) -> None:
        """Send what is queued, then disconnect (the life lock goes with the connection)."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._drain(), 2.0)
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._tasks = []
        if self._conn is not None:
            with contextlib.suppress(Exception):
                await self._conn.close()
            self._conn = None

    async def _drain(self) -> None:
        while not self._out.empty():
            await asyncio.sleep(0.01)

    async def _listen(self) -> None:
        import psycopg

        first = True
        pause = 0.1
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(self.conninfo, autocommit=True) as conn:
                    if self.on_connect is not None:
                        await conn.execute(*self.on_connect)
                    await conn.execute(f"LISTEN {CHANNEL}")
                    self.connected.set()
                    pause = 0.1
                    if not first and self.on_reconnect is not None:
                        await self.on_reconnect()
                    first = False
                    async for note in conn.notifies():
                        self._dispatch(note.payload)
            except asyncio.CancelledError:
                self.connected.clear()
                raise
            except Exception as e:
                self.connected.clear()
                if first:
                    raise
                log.warning("the servers' channel was lost (%s); connecting again in %.1f s",
                            str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__, pause)
                await asyncio.sleep(pause)
                pause = min(pause * 2, 5.0)

    def _dispatch(self, payload: str) -> None:
        try:
            event = json.loads(payload)
            sender, kind, body = event["from"], event["kind"], event["body"]
        except (ValueError, KeyError, TypeError):
            log.warning("an event on the servers' channel could not be read")
            return
        if sender == self.me:
            return
        self.received += 1
        for handler in self.handlers.get(kind, ()):
            try:
                handler(sender, body)
            except Exception:
                log.exception("a %s event's handler failed", kind)

    async def _send(self) -> None:
        import psycopg

        pause = 0.1
        while True:
            payload = await self._out.get()
            batch = [payload]
            while not self._out.empty() and len(batch) < 500:
                batch.append(self._out.get_nowait())
            while True:
                try:
                    conn = await self._sender(psycopg)
                    async with conn.cursor() as cur:
                        await cur.executemany("SELECT pg_notify(%s, %s)", [(CHANNEL, p) for p in batch])
                    self.sent += len(batch)
                    pause = 0.1
                    break
                except asyncio.CancelledError:
                    raise
                except Exception as e:
                    log.warning("events could not be sent (%s); trying again in %.1f s",
                                type(e).__name__, pause)
                    self._conn = None
                    await asyncio.sleep(pause)
                    pause = min(pause * 2, 5.0)

    _conn: Any = None

    async def _sender(self, psycopg: Any) -> Any:
        if self._conn is None or self._conn.closed:
            self._conn = await psycopg.AsyncConnection.connect(self.conninfo, autocommit=True)
        return self._conn
