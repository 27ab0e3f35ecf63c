"""One page's websocket: who it is at which table, in which language, what it is still
to be sent, and the refusals it is told.

A connection writes nothing before the table's writes it could tell of are committed
(:class:`~lald.web.table.journal.Journal`), and builds frames lazily: a burst of actions
becomes one frame. It knows its table only as something that can be :class:`Watched`, so
that the table (:mod:`.tables`) can keep its connections without this module knowing it.
"""

from __future__ import annotations

import asyncio
import collections
import json
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

from ...clock import SYSTEM, Clock
from ...i18n import Catalog
from ...messages import Error, ToPage
from ..settings import Bucket, Settings

if TYPE_CHECKING:
    from starlette.websockets import WebSocket


class Watched(Protocol):
    """What a connection needs of the table it watches."""

    unsaved: int
    """Writes accepted but not yet committed."""

    async def until_saved(self) -> None:
        """Return once the writes accepted so far are committed."""

    def frame(self, conn: Any) -> str:
        """The next state frame for ``conn``: its view, legal actions and new log lines."""


W = TypeVar("W", bound=Watched)


class Conn(Generic[W]):
    """One websocket: who it is at which table, its language, and what it was sent.

    Frames are built lazily by :meth:`pump`: a burst of actions becomes one frame holding
    the latest view and every new log line, so a slow reader never makes work pile up.
    """

    def __init__(self, ws: WebSocket, settings: Settings, clock: Clock = SYSTEM) -> None:
        self.ws = ws
        self.clock = clock
        """What its rate limit is measured on (:mod:`lald.clock`)."""
        self.settings = settings
        self.table: W | None = None
        self.seat: int | None = None
        self.lang = "en"
        self.cursor = 0
        self.dirty = False
        self.outbox: collections.deque[str] = collections.deque()
        self.wake = asyncio.Event()
        self.closed = False
        self.ending: int | None = None
        """The close code once the connection is to end after its queued messages."""
        self.bucket = Bucket(settings.ws_rate, settings.ws_burst, clock.monotonic())

    def send(self, message: ToPage) -> None:
        """Queue a message (errors, replies: :data:`lald.messages.ToPage`) ahead of the next
        state frame."""
        if len(self.outbox) >= self.settings.max_backlog:
            self.closed = True
        self.outbox.append(json.dumps(message))
        self.wake.set()

    def touch(self) -> None:
        """The table changed: send a fresh frame when the socket is free."""
        self.dirty = True
        self.wake.set()

    def end(self, code: int) -> None:
        """Close with ``code`` once the messages queued so far are sent."""
        if self.ending is None:
            self.ending = code
        self.wake.set()

    def refuse(self, code: str, key: str, detail: str | None = None, version: int | None = None,
               **values: Any) -> None:
        """Tell this page why its message changed nothing, in its language (``version``:
        the table's, to a page whose message was built on an older one)."""
        words = Catalog(self.lang).t(key, **values)
        message = Error(type="error", code=code, message=words)
        if detail is not None:
            message["detail"] = detail[:300]
        if version is not None:
            message["v"] = version
        self.send(message)

    def refuse_in_words(self, code: str, message: str) -> None:
        """Tell this page why its message changed nothing, in words already made."""
        self.send({"type": "error", "code": code, "message": message})

    def close_with(self, code: str, key: str, close_code: int) -> None:
        """Tell this page why, then close its connection."""
        self.refuse(code, key)
        self.end(close_code)

    async def _until_saved(self) -> None:
        while self.table is not None and self.table.unsaved:
            await self.table.until_saved()

    async def pump(self) -> None:
        """Write queued messages and frames to the socket until it closes."""
        while not self.closed:
            await self.wake.wait()
            self.wake.clear()
            # Nothing leaves before the writes it could tell of are committed: wait, then
            # read the table and send without an ``await`` in between.
            while self.outbox and not self.closed:
                await self._until_saved()
                await self.ws.send_text(self.outbox.popleft())
            if self.ending is not None:
                break
            await self._until_saved()
            if self.dirty and self.table is not None and not self.closed:
                self.dirty = False
                await self.ws.send_text(self.table.frame(self))
        self.closed = True
        await self.ws.close(code=self.ending or 1013)
