"""The registry of live tables, the lobby's table factory, and hosts. What a request for
a new table may say is checked in :mod:`lald.web.table.create`; the websocket protocol that the pages
speak to the tables is :mod:`lald.web.server.protocol`.

The creator of a table is its *host*: the host's token (its own secret, kept only as a
digest) lists the seats, who has joined and who is connected, brings back every seat's
link (a seat's token is derived from the host's: the host holds every link), reissues a
seat's link (the old one stops at once) and closes the table. Bot seats have no link.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import secrets
from typing import Any, Literal, Protocol

from ...clock import SYSTEM, Clock
from ...store import NewTable, SeatChange, Store, TableData, token_hash
from ...store.accounts import Accounts
from ..settings import Settings
from ..table.conn import Conn
from ..table.create import (
    MAX_NAME,
    LobbyError,
    lesson_data,
    levels,
    play_now_request,
    seat_token,
    table_data,
)
from ..table.hints import Hints
from ..table.journal import Journal
from ..table.tables import Table
from ..wire import clean_text, shown
from .lobby import Channel, LobbyFeed, LocalChannel, best_table, remote_best
from .names import lookalike_key
from .ratings import Ratings

log = logging.getLogger("lald.web")

DEFAULT_LEVEL = "heuristic"
"""The bot that stands in at a table Play now opens (the lobby's newcomer's level)."""
EMPTY_PUBLIC_SECONDS = 600.0
"""A public table still waiting for its first deal that no page has been connected to for
this long leaves the lobby (it is closed): nobody is coming back to it."""
ID = re.compile(r"[A-Za-z0-9_-]{1,32}")
TOKEN = re.compile(r"[A-Za-z0-9_-]{16,64}")
ELSEWHERE = 4005
"""The close code of a page whose table is held by another server now: it connects again,
to the table's own address (``/ws/{id}``), and the proxy takes it there."""


class Elsewhere(Exception):
    """The table is held by another server of the site (several servers over one
    database: :mod:`lald.web.site.cluster`); its requests go there, by its id, through the proxy."""

    def __init__(self, table_id: str) -> None:
        super().__init__(f"table {table_id} is held by another server")
        self.table_id = table_id


class Ownership(Protocol):
    """Which tables this server may hold, when several servers share one database
    (:class:`lald.web.site.cluster.Cluster`); one server alone holds every table."""

    def claim(self, table_id: str) -> None:
        """Take the table before it is loaded here; raise :class:`Elsewhere` if another
        server holds it (a table that does not exist is taken by nobody)."""

    def forget(self, table_id: str) -> None:
        """The table left this server's memory: give up its lease."""

    def listed(self) -> list[tuple[float, dict[str, Any]]]:
        """The other servers' open tables: when each was created, and its summary."""


class Hub:
    """Every live table, found by id, by a seat's token or by its host's token."""

    def __init__(self, store: Store, settings: Settings, journal: Journal | None = None,
                 channel: Channel | None = None, clock: Clock = SYSTEM) -> None:
        self.store = store
        self.clock = clock
        """What the tables' time is read on and their timers set on, the reaper's too
        (:mod:`lald.clock`; a test gives a :class:`~lald.clock.ManualClock` and moves it)."""
        self.accounts = Accounts(store)
        """Accounts, sessions, chat lines and ratings in the store (:mod:`lald.store.accounts`)."""
        self.ratings = Ratings(self.accounts)
        self.lobby = LobbyFeed(channel or LocalChannel(), clock)
        """The lobby's live rows (:mod:`.lobby`)."""
        self.journal = journal or Journal(store, threaded=not store.memory)
        self.settings = settings
        self.tables: dict[str, Table] = {}
        self.tokens: dict[str, tuple[str, int]] = {}
        """Seat token digests: table id and seat."""
        self.hosts: dict[str, str] = {}
        """Host token digests: table id."""
        self.hints = Hints(settings)
        self._reaper: asyncio.Task[None] | None = None
        self.ownership: Ownership | None = None
        """The site's leases when this server is one of several (None: it holds every table)."""

    # -- tables -------------------------------------------------------------------------

    def restore(self) -> int:
        """Load every table still to be played from the store and start its driver (one
        of several servers loads only the tables it takes: :mod:`lald.web.site.cluster`)."""
        self.journal.start()
        self.lobby.start()
        count = 0
        if self.ownership is None:
            count = len(self.adopt(self.store.load_tables(statuses=("waiting", "playing"))))
        self._reaper = asyncio.create_task(self._reap_loop(), name="lald reaper")
        self.rate_missed()
        return count

    def adopt(self, tables: list[TableData]) -> list[Table]:
        """Tables loaded from the store, played from here on."""
        return [self._add(Table(data, self.journal, self.settings, self.clock)) for data in tables]

    def rate_missed(self) -> int:
        """Rate the rated sessions that ended without being rated (the server stopped in
        between); returns how many."""
        done = 0
        for data in self.store.load_tables(ids=self.accounts.unrated_tables()):
            done += self.ratings.apply(Table(data, self.journal, self.settings, self.clock))
        return done

    def _add(self, table: Table) -> Table:
        self.tables[table.id] = table
        for s in table.seats:
            self.tokens[s.token_hash] = (table.id, s.seat)
        if table.host_hash is not None:
            self.hosts[table.host_hash] = table.id
        table.on_change = self.lobby.touch
        table.on_over = self.ratings.session_over
        self.lobby.add(table)
        table.start()
        return table

    async def _forget(self, table: Table) -> None:
        """Drop a table from memory (it stays in the store)."""
        self.tables.pop(table.id, None)
        for s in table.seats:
            self.tokens.pop(s.token_hash, None)
        if table.host_hash is not None:
            self.hosts.pop(table.host_hash, None)
        self.lobby.forget(table)
        await table.stop()
        if self.ownership is not None:
            self.ownership.forget(table.id)

    def hand_over(self, table: Table) -> None:
        """The table is another server's now (its lease was lost, or this server stops):
        drop it from memory at once, its driver stopped, and send its pages there (an
        ``elsewhere`` message naming the table, then close code :data:`ELSEWHERE`; they
        connect again through the proxy). Its writes still queued are committed, or
        dropped if its lease is gone; none was told to anyone."""
        if self.tables.get(table.id) is table:
            del self.tables[table.id]
        for s in table.seats:
            if self.tokens.get(s.token_hash, ("",))[0] == table.id:
                del self.tokens[s.token_hash]
        if table.host_hash is not None and self.hosts.get(table.host_hash) == table.id:
            del self.hosts[table.host_hash]
        if table.task is not None:
            table.task.cancel()
            table.task = None
        for conn in list(table.conns):
            conn.send({"type": "elsewhere", "table": table.id})
            conn.end(ELSEWHERE)
            table.conns.discard(conn)
            conn.table, conn.seat = None, None

    async def close(self) -> None:
        """Stop every driver, then commit what is queued."""
        if self._reaper is not None:
            self._reaper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._reaper
        await self.hints.close()
        await self.lobby.close()
        await self.ratings.close()
        for table in list(self.tables.values()):
            await table.stop()
        await self.journal.close()

    def table(self, table_id: Any) -> Table | None:
        """The table with this id (a finished one is loaded from the store on demand).
        Raises :class:`Elsewhere` if another server of the site holds it."""
        if not isinstance(table_id, str) or not ID.fullmatch(table_id):
            return None
        table = self.tables.get(table_id)
        if table is None:
            if self.ownership is not None:
                self.ownership.claim(table_id)
            found = self.store.load_tables(ids=[table_id])
            if found:
                table = self._add(Table(found[0], self.journal, self.settings, self.clock))
        return table

    def seat_of(self, token: Any) -> tuple[Table, int] | None:
        """The table and seat of a secret token."""
        if not isinstance(token, str) or not TOKEN.fullmatch(token):
            return None
        digest = token_hash(token)
        hit = self.tokens.get(digest)
        if hit is None:
            table_id = self.store.table_of_token(digest)
            if table_id is None or self.table(table_id) is None:
                return None
            hit = self.tokens.get(digest)
            if hit is None:
                return None
        return self.tables[hit[0]], hit[1]

    def hosted(self, token: Any) -> Table | None:
        """The table whose host holds ``token``."""
        if not isinstance(token, str) or not TOKEN.fullmatch(token):
            return None
        digest = token_hash(token)
        table_id = self.hosts.get(digest) or self.store.table_of_host(digest)
        table = self.table(table_id) if table_id is not None else None
        return table if table is not None and table.host_hash == digest else None

    async def open_tables(self) -> list[dict[str, Any]]:
        """Tables still to be played, newest first, as the lobby lists them (as committed),
        the other servers' too when this is one of several."""
        out = []
        for table in list(self.tables.values()):
            await table.until_saved()
            if table.open and table.lesson is None:  # a lesson is one person's: never listed
                out.append((table.created, table.summary()))
        if self.ownership is not None:
            out += [(created, s) for created, s in self.ownership.listed() if s["id"] not in self.tables]
        return [s for _, s in sorted(out, key=lambda p: -p[0])]

    def create(self, request: Any, account: tuple[int, str] | None = None) -> tuple[Table, str]:
        """A new table from the lobby's request (:func:`lald.web.table.create.table_data`), and its
        host's token; raise :class:`LobbyError`.

        Its write is queued: await ``table.until_saved()`` before handing out its links.
        """
        data, host = table_data(request, account, self.refuse_account_names, self.clock.now())
        table = Table(data, self.journal, self.settings, self.clock)
        self.journal.add(NewTable(data), table)
        return self._add(table), host

    def create_lesson(self, request: Any) -> tuple[Table, str]:
        """A new lesson table (:func:`lald.web.table.create.lesson_data`) and the learner's seat token;
        raise :class:`LobbyError`.

        Its write is queued: await ``table.until_saved()`` before handing out its link.
        """
        data, token = lesson_data(request, self.clock.now())
        table = Table(data, self.journal, self.settings, self.clock)
        self.journal.add(NewTable(data), table)
        return self._add(table), token

    # -- the public lobby ---------------------------------------------------------------

    def sit(self, table: Table, name: Any = None, account: tuple[int, str] | None = None) -> tuple[int, str]:
        """Seat a stranger from the lobby at an open seat of ``table`` (the first still
        free) and return the seat and its new secret token (random, not derived from the
        host's: the host cannot open it). ``account`` is the id and name of the person's
        account, if they are logged in; a guest may give a ``name``. Raise
        :class:`LobbyError`."""
        if not table.public:
            raise LobbyError("this table is private: its seats are taken by their links", "private_table")
        if table.rated and account is None:
            raise LobbyError("a rated table is for accounts: log in to sit there", "rated_login")
        if account is not None and account[0] in table.accounts():
            raise LobbyError("you already sit at this table", "seated")
        free = table.free_seats()
        if not free:
            raise LobbyError("no seat is free at this table", "no_free_seat")
        if account is None:
            name = self.guest_name(name)
        seat = free[0]
        token = secrets.token_urlsafe(24)
        digest = token_hash(token)
        data = table.seats[seat]
        self.tokens.pop(data.token_hash, None)
        self.tokens[digest] = (table.id, seat)
        table.set_seat(seat, token_hash=digest, generation=data.generation + 1,
                       name=account[1] if account is not None else name,
                       account=account[0] if account is not None else None)
        return seat, token

    def guest_name(self, name: Any) -> str | None:
        """A guest's name as given (trimmed; None for none); raise :class:`LobbyError`. A
        guest may not take the name of an account, nor one that looks like it."""
        if name is None:
            return None
        if not isinstance(name, str) or len(name.strip()) > MAX_NAME or not clean_text(name):
            raise LobbyError(f"a name is text of at most {MAX_NAME} characters (letters, digits, signs)",
                             "guest_name", most=MAX_NAME)
        self.refuse_account_names([name])
        return name.strip() or None

    def refuse_account_names(self, names: list[str], own: str | None = None) -> None:
        """Raise :class:`LobbyError` if one of ``names`` is an account's name or looks like
        one (but ``own``, the name of the account asking)."""
        keys = {lookalike_key(n): n for n in names if n and n.strip()}
        if own is not None:
            keys.pop(lookalike_key(own), None)
        taken = self.accounts.skeletons(keys)
        if taken:
            shown_name = keys[sorted(taken)[0]].strip()
            raise LobbyError(f"the name {shown(shown_name)} is an account's, or looks like one: "
                             "choose another",
                             "name_taken")

    def play_now(self, request: Any, account: tuple[int, str] | None = None,
                 at: str | None = None) -> tuple[Table, int, str, str | None]:
        """*Play now*: seat the person at the public table of the reading asked for (the
        rules, rated or not) that most needs a player (:func:`.lobby.best_table`), or open
        one with them in seat 0 and the other seats open, waiting
        :attr:`Settings.fill_seconds` for people. Returns the table, the seat, its token
        and, for a table just opened, the host's token (else None). Raise
        :class:`LobbyError`.

        One server of several also looks at the others' tables, as its lobby lists them:
        when one of those needs a player and none of its own does, it raises
        :class:`Elsewhere` naming it (the request goes to its server, which is called
        with ``at`` naming that table: it seats the person there if the table still needs
        them, else as one server alone would)."""
        rules, rated = play_now_request(request, account)
        name = request.get("name")
        if account is None:
            name = self.guest_name(name)
        who = account[0] if account else None
        here = self.tables.get(at) if at is not None else None
        table = (best_table([here], rules.spec(), rated, who) if here is not None else None) \
            or best_table(self.tables.values(), rules.spec(), rated, who)
        if table is None and at is None and self.ownership is not None:
            elsewhere = remote_best(self.lobby.snapshot(), rules.spec(), rated, set(self.tables))
            if elsewhere is not None:
                raise Elsewhere(elsewhere)
        if table is not None:
            seat, token = self.sit(table, name, account)
            return table, seat, token, None
        opening: dict[str, Any] = {
            "preset": rules.preset, "players": rules.players, "variants": list(rules.variants),
            "public": True, "lang": request.get("lang", "en"), "fill_seconds": self.settings.fill_seconds,
            "seats": [{"human": True, "level": DEFAULT_LEVEL}]
                     + [{"open": True, "level": DEFAULT_LEVEL} for _ in range(rules.players - 1)]}
        if rated:
            opening["rated"] = True
        table, host = self.create(opening, account)
        values: dict[str, Any] = {"name": account[1] if account else name}
        if account is not None:
            values["account"] = account[0]
        table.set_seat(0, **values)
        return table, 0, seat_token(host, 0, 0), host

    # -- hosts --------------------------------------------------------------------------

    def reissue(self, table: Table, host: str, seat: int) -> None:
        """Give ``seat`` a new link; the old one stops at once (its page is closed)."""
        if not table.open:
            raise LobbyError("the table is closed", "table_closed")
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(table.seats):
            raise LobbyError(f"there is no seat {shown(seat)}: seats are 0 to {len(table.seats) - 1}")
        data = table.seats[seat]
        if seat in table.open_seats:
            raise LobbyError(f"seat {seat} is open to strangers from the lobby: its link is theirs alone")
        if not self.linked(table, host, seat):
            raise LobbyError(f"seat {seat} is played by a bot: it has no link")
        generation = data.generation + 1
        digest = token_hash(seat_token(host, seat, generation))
        self.tokens.pop(data.token_hash, None)
        self.tokens[digest] = (table.id, seat)
        self.journal.add(SeatChange(table.id, seat, {"token_hash": digest, "generation": generation}), table)
        data.token_hash, data.generation = digest, generation
        for conn in list(table.conns):
            if conn.seat == seat:
                conn.close_with("reissued", "web_error_reissued", 4002)
                self.detach(conn)

    @staticmethod
    def linked(table: Table, host: str, seat: int) -> bool:
        """Whether ``seat`` has an invitation link (its token derives from the host's)."""
        data = table.seats[seat]
        return token_hash(seat_token(host, seat, data.generation)) == data.token_hash

    async def _reap_loop(self) -> None:
        while True:
            await self.clock.sleep(self.settings.reap_every)
            try:
                await self.reap()
            except Exception:
                log.exception("looking for idle tables failed")

    async def reap(self, now: float | None = None) -> int:
        """Close the tables no page has been connected to for ``idle_seconds``; forget
        the finished tables nobody watches (they stay in the store). Returns how many
        tables were closed."""
        now = self.clock.now() if now is None else now
        closed = 0
        for table in list(self.tables.values()):
            if table.conns:
                continue
            idle = now - table.active_at
            forsaken = table.public and table.status == "waiting" and idle >= EMPTY_PUBLIC_SECONDS
            if table.open and (idle >= self.settings.idle_seconds or forsaken):
                table.close()
                closed += 1
            if not table.open:
                await table.until_saved()
                if not table.conns:
                    await self._forget(table)
        return closed

    # -- the websocket protocol ---------------------------------------------------------

    def attach(self, conn: Conn[Table], table: Table, seat: int | None) -> None:
        """Bind ``conn`` to a table (and seat) and send it everything from the start."""
        self.detach(conn)
        conn.table, conn.seat, conn.cursor = table, seat, 0
        table.connect(conn)
        table.seen()
        role: Literal["seat", "spectator"] = "spectator" if seat is None else "seat"
        conn.send({"type": "welcome", "table": table.id, "seat": seat, "role": role,
                   "rules": table.rules.spec(), "levels": levels(), "practice": table.practice,
                   "lesson": table.lesson is not None, "hints": table.hints,
                   "ping": {"every": self.settings.ping_seconds, "wait": self.settings.pong_seconds}})
        table.notify()

    def detach(self, conn: Conn[Table]) -> None:
        """Unbind ``conn`` from its table (the seat stays; its page may come back, and
        meanwhile its stand-in may play: :meth:`Table.away`)."""
        if conn.table is not None:
            table = conn.table
            table.disconnect(conn)
            conn.table, conn.seat = None, None
            if table.open:
                table.seen()
            table.notify()


def seat_links(base: str, table: Table, host: str) -> list[dict[str, Any]]:
    """Every seat, and for each seat a person plays its secret invitation link (derived
    from the host's token); who has joined and who is connected."""
    out = []
    for s in table.seats:
        row: dict[str, Any] = {"seat": s.seat, "human": s.human, "level": s.level, "name": s.name,
                               "joined": s.joined, "online": table.online(s.seat),
                               "open": s.seat in table.open_seats}
        if Hub.linked(table, host, s.seat):
            token = seat_token(host, s.seat, s.generation)
            row |= {"token": token, "url": f"{base}play#t={token}"}
        out.append(row)
    return out


def host_answer(base: str, table: Table, host: str) -> dict[str, Any]:
    """What the host is shown: the table, the seats with their links, the host's own link."""
    return {"table": table.summary(), "seats": seat_links(base, table, host),
            "host": {"token": host, "url": f"{base}#host={host}"},
            "watch": f"{base}play#w={table.id}"}


def seated_answer(base: str, table: Table, seat: int, token: str, host: str | None = None) -> dict[str, Any]:
    """What a person just seated is given: the table, their seat and its link (the
    learner of a lesson, a stranger from the lobby), and the host's link if they opened
    the table."""
    answer: dict[str, Any] = {"table": table.summary(), "seat": seat, "token": token,
                              "url": f"{base}play#t={token}"}
    if host is not None:
        answer["host"] = {"token": host, "url": f"{base}#host={host}"}
    return answer
