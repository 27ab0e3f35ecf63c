"""The public lobby: the list of open tables kept live on every lobby page, and *Play
now*, which seats a person at the public table of their reading that most needs a player
(or opens one).

A table is *public* when its host says so (``"public": true``; private, link-only, stays
the default): its *open seats* are for strangers from the lobby, who take them with
:meth:`lald.web.people.hub.Hub.sit` (a link of their own, never derived from the host's, so the
host cannot open a stranger's seat). A public table waits ``fill_seconds`` for people
once someone has joined; then bots take the seats still empty and the first deal starts.

Live updates go through a :class:`Channel`, a small publish/subscribe seam: tables tell
the :class:`LobbyFeed` that they changed, the feed publishes each changed row (once its
writes are committed) on the topic :data:`TOPIC`, and every lobby page's socket is a
:class:`Subscription` to it. :class:`LocalChannel` carries messages within one process;
another channel (several workers' notifications through the database, say) can carry the
same messages by implementing :class:`Channel`: the feed keeps its rows from what the
channel delivers, not from what it published.

>>> channel = LocalChannel()
>>> sub = channel.subscribe("t")
>>> channel.publish("t", {"n": 1})
>>> sub.poll()
{'n': 1}
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, Protocol

from ...clock import SYSTEM, Clock

if TYPE_CHECKING:
    from ..table.tables import Table

log = logging.getLogger("lald.web")

TOPIC = "lobby"
"""The topic of the lobby's rows."""

BACKLOG = 256
"""Messages a subscription may hold unread; past that it is *lost* (it reads the whole
list again: :attr:`Subscription.lost`)."""


class Subscription:
    """What one subscriber is delivered, in order, until it is closed.

    A subscriber that falls :data:`BACKLOG` messages behind loses them and is marked
    :attr:`lost`: it should start again from the whole state (the lobby page is sent the
    whole list), never go on from a gap.
    """

    def __init__(self, channel: LocalChannel, topic: str) -> None:
        self.channel, self.topic = channel, topic
        self.queue: collections.deque[Any] = collections.deque()
        self.ready = asyncio.Event() if _loop_running() else None
        self.lost = False

    def deliver(self, message: Any) -> None:
        """Hand this subscriber a message (the channel calls it)."""
        if len(self.queue) >= BACKLOG:
            self.queue.clear()
            self.lost = True
        else:
            self.queue.append(message)
        if self.ready is not None:
            self.ready.set()

    def poll(self) -> Any:
        """The next message if one is waiting, else None."""
        return self.queue.popleft() if self.queue else None

    async def get(self) -> Any:
        """The next message, waiting for it."""
        if self.ready is None:
            self.ready = asyncio.Event()
        while not self.queue and not self.lost:
            self.ready.clear()
            await self.ready.wait()
        return self.queue.popleft() if self.queue else None

    def close(self) -> None:
        """Stop delivering to this subscriber."""
        self.channel.unsubscribe(self)


def _loop_running() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


class Channel(Protocol):
    """Publish and subscribe by topic: what the lobby needs of a message bus."""

    def publish(self, topic: str, message: Any) -> None:
        """Deliver ``message`` (JSON-able) to every subscriber of ``topic``, in order."""

    def subscribe(self, topic: str) -> Subscription:
        """A new subscriber of ``topic``, delivered every message published from now on."""


class LocalChannel:
    """A :class:`Channel` within one process: a message is delivered at once, to every
    subscriber of its topic."""

    def __init__(self) -> None:
        self.subscribers: dict[str, set[Subscription]] = collections.defaultdict(set)

    def publish(self, topic: str, message: Any) -> None:
        """Deliver ``message`` to each subscriber of ``topic``."""
        for sub in list(self.subscribers.get(topic, ())):
            sub.deliver(message)

    def subscribe(self, topic: str) -> Subscription:
        """A new subscriber of ``topic``."""
        sub = Subscription(self, topic)
        self.subscribers[topic].add(sub)
        return sub

    def unsubscribe(self, sub: Subscription) -> None:
        """Forget ``sub``."""
        self.subscribers.get(sub.topic, set()).discard(sub)


class LobbyFeed:
    """The lobby's rows, one per open table, kept live: :meth:`touch` a table when it
    changes; once its writes are committed its row is published if it differs from the
    last one (``{"put": [row, ...], "drop": [id, ...]}``); closed, finished and
    forgotten tables are dropped. Lessons are never listed.

    The rows the lobby pages are first sent (:attr:`rows`) are kept from what the channel
    delivers, so a channel that also carries other processes' rows lists their tables too.
    """

    def __init__(self, channel: Channel, clock: Clock = SYSTEM) -> None:
        self.channel = channel
        self.clock = clock
        """What the rows' ``now`` is read on (:mod:`lald.clock`)."""
        self.rows: dict[str, dict[str, Any]] = {}
        """The rows as the channel delivered them, by table id."""
        self._sent: dict[str, dict[str, Any]] = {}
        """The rows this process published last, by table id."""
        self._dirty: dict[str, Table] = {}
        self._live: set[str] = set()
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._own = channel.subscribe(TOPIC)
        self.published = 0
        """Messages published so far (the tests and the bench read it)."""

    def start(self) -> None:
        """Start publishing."""
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="lald lobby")

    async def close(self) -> None:
        """Stop publishing."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        self._own.close()

    def touch(self, table: Table) -> None:
        """``table`` changed: publish its row once its writes are committed."""
        if table.lesson is None:
            self._dirty[table.id] = table
            self._wake.set()

    def forget(self, table: Table) -> None:
        """``table`` left memory: drop its row."""
        self._live.discard(table.id)
        self._dirty[table.id] = table
        self._wake.set()

    def add(self, table: Table) -> None:
        """``table`` is in memory: list it while it is open."""
        if table.lesson is None:
            self._live.add(table.id)
            self.touch(table)

    def republish(self) -> None:
        """Publish every row this process lists again (a server that has just started, on
        a channel shared by several, asks for them)."""
        if self._sent:
            self.channel.publish(TOPIC, {"put": list(self._sent.values()), "drop": [],
                                         "now": self.clock.now()})

    def snapshot(self) -> list[dict[str, Any]]:
        """Every row, newest table first."""
        self._read_own()
        return sorted(self.rows.values(), key=lambda r: -r["created"])

    def _read_own(self) -> None:
        while (message := self._own.poll()) is not None:
            self.apply(message)
        if self._own.lost:  # cannot happen within a process; from another channel, start again
            self._own.lost = False
            self.rows = dict(self._sent)

    def apply(self, message: dict[str, Any]) -> None:
        """Bring :attr:`rows` up to date with one published message."""
        for row in message.get("put", ()):
            self.rows[row["id"]] = row
        for table_id in message.get("drop", ()):
            self.rows.pop(table_id, None)

    async def _run(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            try:
                await self.flush()
            except Exception:
                log.exception("the lobby's update failed")

    async def flush(self) -> None:
        """Publish the rows of the tables touched since the last flush."""
        dirty, self._dirty = self._dirty, {}
        for table in dirty.values():
            await table.until_saved()
        put: list[dict[str, Any]] = []
        drop: list[str] = []
        for table_id, table in dirty.items():
            listed = table.open and table.lesson is None and table.id in self._live
            row = table.frames.listing() if listed else None
            if row is None:
                if self._sent.pop(table_id, None) is not None:
                    drop.append(table_id)
            elif self._sent.get(table_id) != row:
                self._sent[table_id] = row
                put.append(row)
        if put or drop:
            self.published += 1
            self.channel.publish(TOPIC, {"put": put, "drop": drop, "now": self.clock.now()})
        self._read_own()


# -- Play now ---------------------------------------------------------------------------------


def reading_of(spec: dict[str, Any]) -> str:
    """A reading's name (the rules as a person picks them: preset, players, variants other
    than ``silent``, which changes nothing of the play), for matching tables and for
    ratings: ``survivor/5``, ``last-capture/4/modern-laugh``.

    >>> reading_of({"preset": "survivor", "players": 5, "variants": ["silent"], "options": {}})
    'survivor/5'
    """
    variants = [v for v in spec.get("variants", ()) if v != "silent"]
    return "/".join([spec["preset"], str(spec["players"]), *variants])


def best_table(tables: Iterable[Table], spec: dict[str, Any], rated: bool,
               account: int | None = None) -> Table | None:
    """The public table waiting for players under exactly these rules (and rated or not,
    as asked) that most needs a player: the fewest seats still free, then the one that has
    waited longest. A table where ``account`` already sits is passed over."""
    found: list[tuple[int, float, Table]] = []
    for table in tables:
        free = table.free_seats()
        if (not free or not table.public or table.status != "waiting" or table.rated != rated
                or table.rules.spec() != spec or table.lesson is not None):
            continue
        if account is not None and account in table.accounts():
            continue
        found.append((len(free), table.created, table))
    return min(found, key=lambda f: (f[0], f[1]))[2] if found else None


def remote_best(rows: Iterable[dict[str, Any]], spec: dict[str, Any], rated: bool,
                held: set[str]) -> str | None:
    """Of the lobby's rows of tables that another server holds (not in ``held``), the id of
    the one :func:`best_table` would choose, as far as the rows tell."""
    found = [(row["free"], row["created"], row["id"]) for row in rows
             if row["id"] not in held and row.get("public") and row["status"] == "waiting"
             and row.get("free", 0) > 0 and row.get("rated") == rated and row["rules"] == spec]
    return min(found)[2] if found else None


Touch = Callable[["Table"], None]
"""What a table calls when it changes (:meth:`LobbyFeed.touch`)."""
