"""The registry of live tables, the lobby's table factory, and the websocket protocol.

Messages are JSON objects with a ``type``. From the page:

- ``{"type": "join", "token": T}``: take the seat whose secret invitation token is T.
- ``{"type": "watch", "table": ID}``: watch a table as a spectator (no hand is shown).
- ``{"type": "act", "v": V, "action": {...}}``: an action in the record's form (RECORD.md),
  built on version V of the table; a claim may be sent at any moment.
- ``{"type": "next_deal"}``, ``{"type": "take"}`` (a person takes the seat back from its
  bot), ``{"type": "leave"}`` (the seat's bot plays on), ``{"type": "lang", "lang": L}``,
  ``{"type": "ping"}``.

To the page: ``welcome``, ``state`` frames (the recipient's own view, its legal actions,
the new log lines), ``error`` (with a ``code``; nothing changed), ``pong``.
"""

from __future__ import annotations

import json
import secrets
import time
from typing import Any

from ..bots import LEVELS
from ..core import ActionSyntaxError, IllegalActionError, Rules, RulesError, action_from_json
from ..i18n import LANGUAGES
from ..store import NewTable, SeatData, Store, TableData
from .journal import Journal
from .tables import Conn, Settings, Table

#: Levels never offered to people: the oracle sees every hand.
HIDDEN_LEVELS = frozenset({"oracle"})
MAX_NAME = 40
MAX_MESSAGE = 8192


class LobbyError(ValueError):
    """A table request the lobby refuses; the message says why."""


def levels() -> list[str]:
    """The bot levels a table may seat, as registered in :data:`lald.bots.LEVELS`."""
    return [name for name in LEVELS if name not in HIDDEN_LEVELS]


class Hub:
    """Every live table, found by id or by a seat's secret token."""

    def __init__(self, store: Store, settings: Settings) -> None:
        self.store = store
        self.journal = Journal(store, threaded=not store.memory)
        self.settings = settings
        self.tables: dict[str, Table] = {}
        self.tokens: dict[str, tuple[str, int]] = {}

    # -- tables -------------------------------------------------------------------------

    def restore(self) -> int:
        """Load every table not yet over from the store and start its driver."""
        self.journal.start()
        count = 0
        for data in self.store.load_tables(statuses=("waiting", "playing")):
            self._add(Table(data, self.journal, self.settings))
            count += 1
        return count

    def _add(self, table: Table) -> Table:
        self.tables[table.id] = table
        for s in table.seats:
            self.tokens[s.token] = (table.id, s.seat)
        table.start()
        return table

    async def close(self) -> None:
        """Stop every driver, then commit what is queued."""
        for table in list(self.tables.values()):
            await table.stop()
        await self.journal.close()

    def table(self, table_id: str) -> Table | None:
        """The table with this id (a finished one is loaded from the store on demand)."""
        table = self.tables.get(table_id)
        if table is None and isinstance(table_id, str) and len(table_id) <= 32:
            found = self.store.load_tables(ids=[table_id])
            if found:
                table = self._add(Table(found[0], self.journal, self.settings))
        return table

    def seat_of(self, token: str) -> tuple[Table, int] | None:
        """The table and seat of a secret token."""
        hit = self.tokens.get(token)
        if hit is None:
            table_id = self.store.table_of_token(token)
            if table_id is None or self.table(table_id) is None:
                return None
            hit = self.tokens.get(token)
            if hit is None:
                return None
        table = self.tables[hit[0]]
        return table, hit[1]

    async def open_tables(self) -> list[dict[str, Any]]:
        """Tables not over, newest first, as the lobby lists them (each as committed)."""
        out = []
        for table in sorted(self.tables.values(), key=lambda t: -t.created):
            await table.until_saved()
            if table.status != "over":
                out.append(table.summary())
        return out

    def create(self, request: Any) -> Table:
        """A new table from the lobby's request; raise :class:`LobbyError`.

        Its write is queued: await ``table.until_saved()`` before handing out its links.
        """
        if not isinstance(request, dict):
            raise LobbyError("send a JSON object")
        unknown = set(request) - {"preset", "players", "variants", "options", "seats",
                                  "turn_seconds", "seed"}
        if unknown:
            raise LobbyError(f"unknown field {sorted(unknown)[0]!r}")
        players = request.get("players", 5)
        variants = request.get("variants", [])
        options = request.get("options", {})
        if not isinstance(variants, list) or not isinstance(options, dict):
            raise LobbyError("'variants' must be a list and 'options' an object")
        try:
            rules = Rules.make(request.get("preset", "survivor"), players, variants, options)
        except (RulesError, TypeError) as e:
            raise LobbyError(str(e)) from None
        seats = self._seats(request.get("seats"), rules.players)
        turn = request.get("turn_seconds", 0)
        if isinstance(turn, bool) or not isinstance(turn, int | float) or not 0 <= turn <= 3600:
            raise LobbyError("'turn_seconds' must be a number of seconds from 0 (no timer) to 3600")
        seed = request.get("seed")
        if seed is None:
            seed = secrets.randbits(62)
        elif isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 1 << 62:
            raise LobbyError("'seed' must be a whole number from 0 to 2**62 - 1")
        data = TableData(
            id=secrets.token_urlsafe(6), created=time.time(),
            config={"rules": rules.spec(), "turn_seconds": turn}, seed=seed,
            deals_started=0, status="waiting", seats=seats)
        table = Table(data, self.journal, self.settings)
        self.journal.add(NewTable(data), table)
        return self._add(table)

    @staticmethod
    def _seats(raw: Any, players: int) -> list[SeatData]:
        if raw is None:
            raw = [{"human": s == 0} for s in range(players)]
        if not isinstance(raw, list) or len(raw) != players:
            raise LobbyError(f"'seats' must list the {players} seats")
        allowed = levels()
        out = []
        for i, s in enumerate(raw):
            if not isinstance(s, dict) or set(s) - {"human", "level", "name"}:
                raise LobbyError(f"seat {i}: give 'human', 'level' and 'name'")
            human = s.get("human", False)
            level = s.get("level", allowed[0])
            name = s.get("name") or None
            if not isinstance(human, bool):
                raise LobbyError(f"seat {i}: 'human' must be true or false")
            if level not in allowed:
                raise LobbyError(f"seat {i}: unknown bot level {level!r}: choose {', '.join(allowed)}")
            if name is not None and (not isinstance(name, str) or len(name.strip()) > MAX_NAME):
                raise LobbyError(f"seat {i}: a name is text of at most {MAX_NAME} characters")
            out.append(SeatData(i, secrets.token_urlsafe(24), human, level,
                                name.strip() if name else None, False))
        return out

    # -- the websocket protocol ---------------------------------------------------------

    def attach(self, conn: Conn, table: Table, seat: int | None) -> None:
        """Bind ``conn`` to a table (and seat) and send it everything from the start."""
        self.detach(conn)
        conn.table, conn.seat, conn.cursor = table, seat, 0
        table.conns.add(conn)
        role = "spectator" if seat is None else "seat"
        conn.send({"type": "welcome", "table": table.id, "seat": seat, "role": role,
                   "rules": table.rules.spec(), "levels": levels()})
        table.notify()

    def detach(self, conn: Conn) -> None:
        """Unbind ``conn`` from its table (the seat stays; its page may come back)."""
        if conn.table is not None:
            table = conn.table
            table.conns.discard(conn)
            conn.table, conn.seat = None, None
            table.notify()

    def handle(self, conn: Conn, text: str) -> None:
        """One message from a page; every refusal is an ``error`` message to it alone."""
        if len(text) > MAX_MESSAGE:
            return _error(conn, "malformed", "the message is too long")
        try:
            msg = json.loads(text)
        except ValueError:
            return _error(conn, "malformed", "the message is not JSON")
        if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
            return _error(conn, "malformed", "a message is a JSON object with a 'type'")
        kind = msg["type"]
        handler = _HANDLERS.get(kind)
        if handler is None:
            return _error(conn, "unknown_type", f"unknown message type {kind!r}")
        try:
            handler(self, conn, msg)
        except IllegalActionError as e:
            _error(conn, "illegal", str(e))
        except ActionSyntaxError as e:
            _error(conn, "malformed", str(e))


def _error(conn: Conn, code: str, message: str, **extra: Any) -> None:
    conn.send({"type": "error", "code": code, "message": message} | extra)


def _seated(conn: Conn) -> tuple[Table, int] | None:
    if conn.table is None:
        _error(conn, "not_joined", "join a seat or watch a table first")
        return None
    if conn.seat is None:
        _error(conn, "spectator", "spectators watch; they cannot act")
        return None
    return conn.table, conn.seat


def _on_join(hub: Hub, conn: Conn, msg: dict[str, Any]) -> None:
    token = msg.get("token")
    hit = hub.seat_of(token) if isinstance(token, str) and len(token) <= 64 else None
    if hit is None:
        return _error(conn, "bad_token", "this invitation link is not valid")
    table, seat = hit
    _lang(conn, msg)
    hub.attach(conn, table, seat)
    if table.seats[seat].human and not table.seats[seat].joined:
        table.set_seat(seat, joined=True)


def _on_watch(hub: Hub, conn: Conn, msg: dict[str, Any]) -> None:
    table_id = msg.get("table")
    table = hub.table(table_id) if isinstance(table_id, str) else None
    if table is None:
        return _error(conn, "no_table", "there is no such table")
    _lang(conn, msg)
    hub.attach(conn, table, None)


def _on_act(hub: Hub, conn: Conn, msg: dict[str, Any]) -> None:
    seated = _seated(conn)
    if seated is None:
        return
    table, seat = seated
    if set(msg) != {"type", "v", "action"}:
        return _error(conn, "malformed", "an act message has 'v' and 'action'")
    action = action_from_json(msg["action"])
    if action.seat != seat:
        return _error(conn, "wrong_seat", f"you play seat {seat}, not seat {action.seat}")
    if not table.seats[seat].human:
        return _error(conn, "bot_seat", "a bot plays this seat now: take it back first")
    version = msg["v"]
    if isinstance(version, bool) or not isinstance(version, int):
        return _error(conn, "malformed", "'v' must be the version of the table you saw")
    if version != table.version:
        return _error(conn, "stale", "the table has changed since you chose: look again",
                      v=table.version)
    table.submit(action, "human")


def _on_next_deal(hub: Hub, conn: Conn, msg: dict[str, Any]) -> None:
    seated = _seated(conn)
    if seated is None:
        return
    table, seat = seated
    if not table.seats[seat].human:
        return _error(conn, "bot_seat", "a bot plays this seat now: take it back first")
    if table.status == "waiting":
        return _error(conn, "not_now", "the table waits for every player to join")
    table.next_deal()


def _on_take(hub: Hub, conn: Conn, msg: dict[str, Any]) -> None:
    seated = _seated(conn)
    if seated is not None:
        table, seat = seated
        table.set_seat(seat, human=True, joined=True)


def _on_leave(hub: Hub, conn: Conn, msg: dict[str, Any]) -> None:
    seated = _seated(conn)
    if seated is not None:
        table, seat = seated
        table.set_seat(seat, human=False)


def _lang(conn: Conn, msg: dict[str, Any]) -> None:
    lang = msg.get("lang")
    if lang in LANGUAGES:
        conn.lang = lang


def _on_lang(hub: Hub, conn: Conn, msg: dict[str, Any]) -> None:
    if msg.get("lang") not in LANGUAGES:
        return _error(conn, "malformed", f"choose a language of {', '.join(LANGUAGES)}")
    _lang(conn, msg)
    conn.cursor = 0
    conn.touch()


def _on_ping(hub: Hub, conn: Conn, msg: dict[str, Any]) -> None:
    conn.send({"type": "pong"})


_HANDLERS = {
    "join": _on_join, "watch": _on_watch, "act": _on_act, "next_deal": _on_next_deal,
    "take": _on_take, "leave": _on_leave, "lang": _on_lang, "ping": _on_ping,
}


def seat_links(base: str, table: Table) -> list[dict[str, Any]]:
    """One secret invitation link per seat, and the table's public spectator link."""
    return [{"seat": s.seat, "human": s.human, "level": s.level, "name": s.name,
             "token": s.token, "url": f"{base}play#t={s.token}"} for s in table.seats]
