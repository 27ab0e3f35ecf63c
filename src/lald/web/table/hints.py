"""Hints at a web table: the expert's recommended move for a person's own seat, asked for
with the page's Hint button (``{"type": "hint", "v": V}``), at a table opened with hints on.

The hint is :mod:`lald.coach.hints`' (the terminal's too), made from the seat's
:class:`~lald.core.PlayerView` and legal actions as they were at version V: frozen
values copied on the event loop, so the worker thread never touches the live table. It is
bounded three ways (:class:`Hints`): one hint per seat at a time, at most
:attr:`~lald.web.settings.Settings.hint_queue` waiting or being made in the whole server
(more are refused: the expert is busy), and a time budget per hint (the expert's own time
limit, :attr:`~lald.web.settings.Settings.hint_seconds`). Hints are made one at a time in a
thread of their own (a review, seconds long, never holds one up) and kept for the
version they were made at, so asking again (another language, a reloaded page) is instant.

The page is sent ``{"type": "hint", "v", "deal", "index", "text", "hint"}``: the version
and deal it was made for, the move's place in that version's legal actions (None: let
the claims pass), the sentence in the page's language, and the hint as data
(:func:`lald.coach.hints.hint_json`). A hint names only the seat's own cards and the
table's: nothing the seat's frames have not shown it.
"""

from __future__ import annotations

import asyncio
import collections
import concurrent.futures
import contextlib
import dataclasses
import logging
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from ...coach.hints import Hint, advise, hint_json, hint_text
from ...core import Action, Card, PlayerView
from ...i18n import Catalog
from ...messages import HintAnswer
from ..wire import action_kinds, action_words

if TYPE_CHECKING:
    from ..settings import Settings
    from .conn import Conn
    from .tables import Table

__all__ = ["Hints", "Made", "Refused", "advise"]

log = logging.getLogger("lald.web")

Key = tuple[str, int]
"""A seat: the table and the seat."""


@dataclasses.dataclass(frozen=True, slots=True)
class Made:
    """A hint made at one version of a table, with what is needed to word it."""

    version: int
    deal: int
    hint: Hint
    index: int | None
    kind: str | None
    hand: tuple[Card, ...]

    def message(self, catalog: Catalog) -> HintAnswer:
        """The page's ``hint`` message in ``catalog``'s language."""
        action = self.hint.action
        what = "" if action is None else action_words(action, self.kind, self.hand, catalog)
        return {"type": "hint", "v": self.version, "deal": self.deal, "index": self.index,
                "text": hint_text(self.hint, what, catalog), "hint": hint_json(self.hint)}


class Refused(Exception):
    """A hint not asked for now: ``code`` and the catalog ``key`` of the sentence."""

    def __init__(self, code: str, key: str) -> None:
        super().__init__(key)
        self.code, self.key = code, key


class Hints:
    """Every hint being made or kept, for the whole server."""

    def __init__(self, settings: Settings, keep: int = 256) -> None:
        self.worlds, self.seconds = settings.hint_worlds, settings.hint_seconds
        self.size, self.keep = settings.hint_queue, keep
        self.made: collections.OrderedDict[Key, Made] = collections.OrderedDict()
        self.working: dict[Key, asyncio.Task[None]] = {}
        self.asked_at: dict[Key, int] = {}
        """The table version each hint being made is for."""
        self.again: dict[Key, Conn[Table]] = {}
        """Seats asking at a newer version while a hint is made for an older one: asked
        again once it is done (a bot's claim moves the table on during a seat's turn)."""
        self.executor: concurrent.futures.ThreadPoolExecutor | None = None
        self.closed = False

    def ask(self, conn: Conn[Table], table: Table, seat: int) -> None:
        """Start the hint for ``seat`` at the table's current version, or send the one
        made for it; while one is made for an older version, this one is started once
        that is done. Raise :class:`Refused` when one is already being made for the seat
        at this version or the server has as many as it makes at once. The caller has checked that the
        seat has a decision now (:meth:`~lald.web.table.tables.Table.decision`)."""
        key = (table.id, seat)
        made = self.made.get(key)
        if made is not None and made.version == table.version:
            self.made.move_to_end(key)
            conn.send(made.message(Catalog(conn.lang)))
            return
        if key in self.working:
            if self.asked_at[key] != table.version:
                self.again[key] = conn
                return
            raise Refused("hint_pending", "web_error_hint_pending")
        if len(self.working) >= self.size or self.closed:
            raise Refused("busy", "web_error_hint_busy")
        found = table.decision(seat)
        assert found is not None
        view, legal = found
        version, deal = table.version, table.deal_index
        kinds = action_kinds(table.state, legal) if table.state is not None else []
        job = _job(view, legal, self.worlds, self.seconds)

        def done(hint: Hint) -> Made:
            index = None if hint.action is None else legal.index(hint.action)
            kind = None if index is None else kinds[index]
            return Made(version, deal, hint, index, kind, view.hand)

        self.asked_at[key] = version
        self.working[key] = asyncio.create_task(self._make(key, conn, table, job, done),
                                                name=f"hint {table.id}/{seat}")

    async def _make(self, key: Key, conn: Conn[Table], table: Table, job: Callable[[], Hint],
                    done: Callable[[Hint], Made]) -> None:
        try:
            if self.executor is None:
                self.executor = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="lald-hint")
            future = asyncio.get_running_loop().run_in_executor(self.executor, job)
            try:
                # The expert keeps to its time limit (once for a claim, once for the turn);
                # this is the guard should it not.
                hint = await asyncio.wait_for(asyncio.shield(future), max(1.0, 4 * self.seconds))
            except TimeoutError:
                log.error("a hint at table %s took too long", key[0])
                _tell(conn, table, key[1], "hint_failed", "web_error_hint_failed")
                with contextlib.suppress(Exception):
                    await future  # the seat's turn and the server's count wait for the thread
                return
            made = done(hint)
            self.made[key] = made
            while len(self.made) > self.keep:
                self.made.popitem(last=False)
            if conn.table is table and conn.seat == key[1]:
                conn.send(made.message(Catalog(conn.lang)))
        except asyncio.CancelledError:
            raise
        except Exception:  # a defect: say so to the page, keep serving
            log.exception("a hint at table %s failed", key[0])
            _tell(conn, table, key[1], "hint_failed", "web_error_hint_failed")
        finally:
            self.working.pop(key, None)
            self.asked_at.pop(key, None)
            again = self.again.pop(key, None)
            if (again is not None and not self.closed and again.table is table and again.seat == key[1]
                    and table.decision(key[1]) is not None):
                try:
                    self.ask(again, table, key[1])
                except Refused as e:
                    _tell(again, table, key[1], e.code, e.key)

    async def close(self) -> None:
        """Stop: hints being made are dropped (their thread ends within its time limit)."""
        self.closed = True
        for task in list(self.working.values()):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        if self.executor is not None:
            self.executor.shutdown(wait=False, cancel_futures=True)


def _job(view: PlayerView, legal: Sequence[Action], worlds: int, seconds: float) -> Callable[[], Hint]:
    """The work of one hint, from frozen values only (the view, the legal actions), with
    the review's seed (the table's reviews rate the decision from the same worlds)."""
    frozen = tuple(legal)

    def job() -> Hint:
        return advise(view, frozen, worlds=worlds, time_limit=seconds)

    return job


def _tell(conn: Conn[Table], table: Table, seat: int, code: str, key: str) -> None:
    if conn.table is table and conn.seat == seat:
        conn.send({"type": "error", "code": code, "message": Catalog(conn.lang).t(key)})
