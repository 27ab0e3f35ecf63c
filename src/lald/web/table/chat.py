"""The table chat and the laugh.

Seated people and spectators chat at a table (``{"type": "chat", "text": ...}``); a
spectator's lines are marked (``"spectator": true``, named "Spectator N"). A line is one
line of text of at most :data:`MAX_CHAT` characters, without control or bidirectional
characters; each page may say :data:`CHAT_BURST` lines at once and one every
``1 / CHAT_RATE`` seconds on average, beyond which a line is refused (``chat_flood``)
and the page stays connected. The host may mute a seat and close the spectators' chat
(:func:`mute`, :func:`spectators`, through the host's API); a muted seat's line is refused
(``muted``).

When someone lies down the others may laugh (``{"type": "laugh"}``): a seated person other
than the one who lay down, within :data:`LAUGH_WINDOW` seconds of it, once for each
lying down; shown at the table and in the log as "Ann laughs", in the reader's language.
Under the ``silent`` variant nobody laughs (``laugh_off``).

Every line and laugh is a log entry of the table, committed with the table's writes
before anyone is told (:class:`lald.store.NewChat`), stored with its deal and the number
of actions before it, so a replay of the deal shows it in its place
(:func:`deal_lines`). They carry only what their speaker typed and who spoke: the same
entry, rendered the same way, goes to every seat and spectator; no bot reads them (a bot is
given its seat's view and legal actions, nothing else).
"""

from __future__ import annotations

import json
import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ...i18n import Catalog
from ...store import NewChat, TableChange
from ..settings import Bucket
from ..wire import clean_text

if TYPE_CHECKING:
    from .conn import Conn

MAX_CHAT = 200
"""The longest chat line (characters)."""
CHAT_RATE = 0.5
"""Lines a second one page may say on average."""
CHAT_BURST = 5.0
"""Lines one page may say at once."""
LAUGH_WINDOW = 20.0
"""How long after someone lies down the others may laugh (seconds)."""
KINDS = frozenset({"chat", "laughs"})
"""The log entries of the chat: a line, a person's laugh."""


class Refused(Exception):
    """A chat line or laugh refused: ``code`` for programs, ``key`` the sentence in the
    page's language."""

    def __init__(self, code: str, key: str, **values: Any) -> None:
        super().__init__(code)
        self.code, self.key, self.values = code, key, values


def clean_line(text: Any) -> str:
    """A chat line as it is kept (trimmed), or :class:`Refused`."""
    if not isinstance(text, str):
        raise Refused("malformed", "web_error_chat_text", most=MAX_CHAT)
    line: str = text.strip()
    bad = None if "\n" in line or "\r" in line else forbidden(line)  # two lines: said as such
    if bad is not None:
        raise Refused("malformed", "web_error_chat_character", char=bad)
    if not line or len(line) > MAX_CHAT or not clean_text(line):
        raise Refused("malformed", "web_error_chat_text", most=MAX_CHAT)
    return line


def forbidden(text: str) -> str | None:
    """The first character of ``text`` that a line, a title or a name may not hold (a
    control, a bidirectional override, a lone surrogate: :func:`lald.web.wire.clean_text`), named
    as people can look it up (``U+202E``); None if there is none."""
    for c in text:
        if not clean_text(c):
            return f"U+{ord(c):04X}"
    return None


class Talk:
    """One table's chat lines and laughs, and its host's moderation."""

    def __init__(self, table: Any, config: dict[str, Any], entry: Callable[[str, int, int], Any]) -> None:
        self.table = table
        """The table (:class:`lald.web.table.tables.Table`)."""
        self.entry = entry
        """How the table makes a log entry (kind, deal, index)."""
        self.lines: list[NewChat] = []
        self.muted: set[int] = set(config.get("muted", ()))
        """The seats the host has muted."""
        self.spectators: bool = bool(config.get("spectator_chat", True))
        """Whether spectators may chat (the host may close their chat)."""
        self.buckets: weakref.WeakKeyDictionary[Conn[Any], Bucket] = weakref.WeakKeyDictionary()
        self.numbers: weakref.WeakKeyDictionary[Conn[Any], int] = weakref.WeakKeyDictionary()
        self.laid_at: tuple[int, int, int, float] | None = None
        """The last lying down: deal, its operation's index, its seat, when (monotonic)."""
        self.laughed: set[tuple[int, int, int]] = set()
        self._restoring: list[NewChat] = []

    # -- what the pages say -------------------------------------------------------------

    def say(self, conn: Conn[Any], text: Any) -> None:
        """A chat line from ``conn``'s page; raise :class:`Refused`."""
        line = clean_line(text)
        table, seat = self.table, conn.seat
        if seat is None and not self.spectators:
            raise Refused("chat_closed", "web_error_chat_closed")
        if seat is not None and seat in self.muted:
            raise Refused("muted", "web_error_muted")
        self._spend(conn)
        if seat is None:
            number = self.numbers.get(conn)
            if number is None:
                number = self.numbers[conn] = len(self.numbers) + 1
            name: str | None = f"#{number}"
        else:
            name = table.seats[seat].name
        self._add("chat", seat, name, line, self._account(seat))

    def laugh(self, conn: Conn[Any]) -> None:
        """``conn``'s person laughs at the last one who lay down; raise :class:`Refused`."""
        table, seat = self.table, conn.seat
        if not table.rules.laugh:
            raise Refused("laugh_off", "web_error_laugh_off")
        if seat is None or not table.seats[seat].human:
            raise Refused("not_now", "web_error_laugh_seated")
        last = self.laid_at
        if (last is None or last[0] != table.deal_index or last[2] == seat
                or self.table.clock.monotonic() - last[3] > LAUGH_WINDOW):
            raise Refused("not_now", "web_error_laugh_not_now")
        key = (last[0], last[1], seat)
        if key in self.laughed:
            raise Refused("not_now", "web_error_laugh_once")
        self._spend(conn)
        self.laughed.add(key)
        self._add("laugh", seat, table.seats[seat].name, "", self._account(seat))

    def laid_down(self, deal: int, index: int, seat: int) -> None:
        """Someone lay down (the table tells, as it applies the operation)."""
        self.laid_at = (deal, index, seat, self.table.clock.monotonic())

    def can_laugh(self, seat: int | None) -> bool:
        """Whether ``seat`` may laugh now (the page shows its Laugh button)."""
        last = self.laid_at
        table = self.table
        return (table.rules.laugh and seat is not None and table.seats[seat].human and last is not None
                and last[0] == table.deal_index and last[2] != seat
                and self.table.clock.monotonic() - last[3] <= LAUGH_WINDOW
                and (last[0], last[1], seat) not in self.laughed)

    def _spend(self, conn: Conn[Any]) -> None:
        bucket = self.buckets.get(conn)
        now = self.table.clock.monotonic()
        if bucket is None:
            bucket = self.buckets[conn] = Bucket(CHAT_RATE, CHAT_BURST, now)
        if not bucket.take(now):
            raise Refused("chat_flood", "web_error_chat_flood")

    def _account(self, seat: int | None) -> int | None:
        return None if seat is None else self.table.seats[seat].account

    def _add(self, kind: str, seat: int | None, name: str | None, text: str, account: int | None) -> None:
        table = self.table
        state = table.state
        deal = table.deal_index
        after = len(state.actions) if state is not None else 0
        line = NewChat(table.id, deal, after, seat, name, account, kind, text, self.table.clock.now())
        table.journal.add(line, table)
        self._enter(line)
        table.notify()

    def _enter(self, line: NewChat) -> None:
        self.lines.append(line)
        self.table.entries.append(self.entry("chat" if line.kind == "chat" else "laughs", line.deal,
                                             len(self.lines) - 1))

    # -- a restored table ---------------------------------------------------------------

    def restore(self, lines: list[NewChat]) -> None:
        """The lines of a table being restored, entered as its deals are replayed
        (:meth:`restore_until`)."""
        self._restoring = list(reversed(lines))

    def restore_until(self, deal: int, after: float) -> None:
        """Enter the restored lines said before action ``after`` of ``deal``."""
        while self._restoring:
            line = self._restoring[-1]
            if not (line.deal < deal or (line.deal == deal and line.after <= after)):
                break
            self._enter(self._restoring.pop())

    # -- what each page is sent ---------------------------------------------------------

    def render(self, entry: Any, catalog: Catalog, names: list[str]) -> dict[str, Any]:
        """A chat entry, the same for every recipient (in their language)."""
        line = self.lines[entry.ref]
        spectator = line.seat is None
        if spectator:
            shown = catalog.t("web_spectator_name", number=(line.name or "#?").lstrip("#"))
        else:
            shown = names[line.seat] if line.seat is not None else ""
        out: dict[str, Any] = {"kind": entry.kind, "deal": line.deal, "seat": line.seat,
                               "spectator": spectator, "name": shown}
        if line.kind == "laugh":
            return out | {"text": catalog.t("web_laughs", name=shown)}
        return out | {"text": line.text}

    def settings(self) -> dict[str, Any]:
        """What every page is told of the chat's rules at this table."""
        return {"muted": sorted(self.muted), "spectators": self.spectators, "most": MAX_CHAT,
                "laugh": self.table.rules.laugh}

    # -- the host's moderation ----------------------------------------------------------

    def _store_config(self) -> None:
        table = self.table
        table.config = table.config | {"muted": sorted(self.muted), "spectator_chat": self.spectators}
        table.journal.add(TableChange(table.id, {"config": json.dumps(table.config)}), table)
        table.notify()

    def mute(self, seat: int, muted: bool) -> None:
        """Mute a seat's chat (or let it speak again)."""
        (self.muted.add if muted else self.muted.discard)(seat)
        self._store_config()

    def open_spectators(self, open_: bool) -> None:
        """Open or close the spectators' chat."""
        self.spectators = open_
        self._store_config()


def deal_lines(table: Any, deal: int, catalog: Catalog) -> list[dict[str, Any]]:
    """The chat lines and laughs of a deal (of a :class:`lald.web.table.tables.Table`), for its
    replay: each with ``after``, the number of the deal's actions played before it."""
    talk: Talk = table.talk
    names = table.frames.names(catalog)
    out = []
    for i, line in enumerate(talk.lines):
        if line.deal == deal:
            kind = "chat" if line.kind == "chat" else "laughs"
            out.append(talk.render(talk.entry(kind, deal, i), catalog, names) | {"after": line.after})
    return out
