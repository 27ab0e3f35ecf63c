"""The websocket protocol: what a page may say to a table, and how every message is
checked before anything is done with it.

Messages are JSON objects with a ``type``, each defined once in :mod:`lald.messages`
(shared with the terminal's online client, and made into the JSON Schema the page's
messages are tested against); a field a message's definition does not have is refused.
From the page:

- ``{"type": "join", "token": T}``: take the seat whose secret invitation token is T. A
  page already on that seat is told ``taken_over`` and closed: a seat is played from one
  device at a time.
- ``{"type": "watch", "table": ID}``: watch a table as a spectator (no hand is shown).
- ``{"type": "act", "v": V, "action": {...}}``: an action in the record's form (docs/record.md#actions),
  built on version V of the table; a claim may be sent at any moment.
- ``{"type": "next_deal"}``, ``{"type": "take"}`` (a person takes the seat back from its
  bot), ``{"type": "leave"}`` (the seat's bot plays on), ``{"type": "lang", "lang": L}``,
  ``{"type": "ping"}`` (with ``"id"``, a short text or number, echoed in the ``pong``).
- ``{"type": "go_on"}``: at a lesson table, the learner has read the lesson's note where
  play stood still for it (the frame's ``lesson.held``); play goes on.
- ``{"type": "hint", "v": V}``: at a table opened with hints on, the expert's hint for this
  seat's decision at version V (its turn, or a claim it may make): answered by a ``hint``
  message once made (:mod:`lald.web.table.hints`), or refused with an ``error``.
- ``{"type": "chat", "text": T}``: a line of the table chat; ``{"type": "laugh"}``: laugh
  at the one who just lay down (:mod:`lald.web.table.chat`).
- ``join`` and ``watch`` may carry ``"lang"``. A field a message does not have is an error.

To the page: ``welcome``, ``state`` frames (the recipient's own view, its legal actions,
the new log lines, ``waiting_for`` and ``stand_ins``: whom the table waits for, gone
without Leave, and for whom a stand-in plays, :class:`~lald.web.table.tables.Table`; at a
lesson table the learner's also carry ``lesson``, the lesson's words at that moment:
:func:`lald.web.table.lesson.lesson_part`), ``error`` (with a ``code`` and a ``message`` in the page's
language; nothing changed; a learner's move other than the lesson's is refused with code
``lesson`` and the lesson's sentence naming its move), ``pong``, ``hint``
(:mod:`lald.web.table.hints`). A message that cannot be read gets an ``error`` and the connection
stays open, except in three cases, each told by an ``error`` first: ``taken_over`` (the
seat was opened on another device, close code 4001), ``reissued`` (the host replaced the
seat's link, 4002) and ``flooding`` (more messages than :attr:`Settings.ws_rate` allows,
1008). A message longer than the server's frame limit closes the connection (1009)
before it is read.

Heartbeats: the ``welcome`` carries ``ping``, ``{"every": S, "wait": W}``: the page pings
every S seconds and counts its connection as lost (and reconnects) when a ``pong`` has not
come within W seconds. A page that has sent nothing at all for
:attr:`Settings.silent_seconds <lald.web.settings.Settings.silent_seconds>` is gone: its
connection is closed (:data:`SILENT`, no ``error`` first, since nothing reaches it), so its
seat shows offline to the host and counts as away at the table.

:func:`handle` reads one message: a refusal is an ``error`` to that page alone and
changes nothing; an action goes to :meth:`Table.submit <lald.web.table.tables.Table.submit>`,
where the engine decides.
"""

from __future__ import annotations

import logging
from typing import Any

from ...core import ActionSyntaxError, IllegalActionError, action_from_json
from ...i18n import LANGUAGES, Catalog
from ...messages import FIELDS
from ..people.hub import ELSEWHERE, Elsewhere, Hub
from ..table import chat
from ..table.conn import Conn
from ..table.hints import Refused
from ..table.tables import Table
from ..wire import MAX_DEPTH, RequestError, Status, TooDeep, parse_json, shown

log = logging.getLogger("lald.web")

SILENT = 4003
"""The close code of a page that sent nothing, not even its ping, for
:attr:`Settings.silent_seconds <lald.web.settings.Settings.silent_seconds>`."""

MAX_MESSAGE = 8192
"""The longest message read (characters); a longer one is refused with an error."""


def handle(hub: Hub, conn: Conn[Table], text: str) -> None:
    """One message from a page; every refusal is an ``error`` message to it alone."""
    if conn.ending is not None:
        return
    if not conn.bucket.take(conn.clock.monotonic()):
        conn.close_with("flooding", "web_error_flooding", 1008)
        return
    if len(text) > MAX_MESSAGE:
        return conn.refuse("malformed", "web_error_too_long")
    try:
        msg = parse_json(text)
    except TooDeep:
        return conn.refuse("malformed", "web_error_too_deep", depth=MAX_DEPTH)
    except RequestError:
        return conn.refuse("malformed", "web_error_not_json")
    if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
        return conn.refuse("malformed", "web_error_no_type")
    kind = msg["type"]
    handler = _HANDLERS.get(kind)
    if handler is None:
        return conn.refuse("unknown_type", "web_error_unknown_type", detail=shown(kind))
    unknown = set(msg) - _FIELDS[kind] - {"type"}
    if unknown:
        return conn.refuse("malformed", "web_error_fields", detail=shown(sorted(unknown)[0]))
    try:
        handler(hub, conn, msg)
    except Elsewhere as e:  # another server holds the table: the page goes there
        conn.send({"type": "elsewhere", "table": e.table_id})
        conn.end(ELSEWHERE)
    except IllegalActionError as e:
        conn.refuse("illegal", "web_error_illegal", detail=str(e))
    except ActionSyntaxError as e:
        conn.refuse("malformed", "web_error_bad_action", detail=str(e))
    except Exception:  # a defect: the table must not stop for it
        log.exception("a %s message failed", kind)
        conn.refuse("internal", "web_error_internal")


def _seated(conn: Conn[Table]) -> tuple[Table, int] | None:
    if conn.table is None:
        conn.refuse("not_joined", "web_error_not_joined")
        return None
    if conn.seat is None:
        conn.refuse("spectator", "web_error_spectator")
        return None
    return conn.table, conn.seat


def _on_join(hub: Hub, conn: Conn[Table], msg: dict[str, Any]) -> None:
    hit = hub.seat_of(msg.get("token"))
    _lang(conn, msg)
    if hit is None:
        return conn.refuse("bad_token", "web_error_bad_token")
    table, seat = hit
    for other in list(table.conns):
        if other.seat == seat and other is not conn:
            other.close_with("taken_over", "web_error_taken_over", 4001)
            hub.detach(other)
    hub.attach(conn, table, seat)
    if table.open and table.seats[seat].human and not table.seats[seat].joined:
        table.set_seat(seat, joined=True)


def _on_watch(hub: Hub, conn: Conn[Table], msg: dict[str, Any]) -> None:
    table = hub.table(msg.get("table"))
    _lang(conn, msg)
    if table is None:
        return conn.refuse("no_table", "web_error_no_table")
    hub.attach(conn, table, None)


def _on_act(hub: Hub, conn: Conn[Table], msg: dict[str, Any]) -> None:
    seated = _seated(conn)
    if seated is None:
        return
    table, seat = seated
    if set(msg) != {"type", "v", "action"}:
        return conn.refuse("malformed", "web_error_act_fields")
    version = msg["v"]
    if isinstance(version, bool) or not isinstance(version, int):
        return conn.refuse("malformed", "web_error_version")
    action = action_from_json(msg["action"])
    if action.seat != seat:
        return conn.refuse("wrong_seat", "web_error_wrong_seat", seat=seat)
    if not table.seats[seat].human:
        return conn.refuse("bot_seat", "web_error_bot_seat")
    if version != table.version:
        return conn.refuse("stale", "web_error_stale", version=table.version)
    refused = table.refusal(seat, action, Catalog(conn.lang))
    if refused is not None:
        return conn.refuse_in_words("lesson", refused)
    table.submit(action, "human")


def _on_next_deal(hub: Hub, conn: Conn[Table], msg: dict[str, Any]) -> None:
    seated = _seated(conn)
    if seated is None:
        return
    table, seat = seated
    if not table.seats[seat].human:
        return conn.refuse("bot_seat", "web_error_bot_seat")
    if table.status == Status.WAITING:
        return conn.refuse("not_now", "web_error_waiting")
    table.next_deal()


def _on_go_on(hub: Hub, conn: Conn[Table], msg: dict[str, Any]) -> None:
    seated = _seated(conn)
    if seated is None:
        return
    table, seat = seated
    if table.lesson is None or seat != table.lesson.learner:
        return conn.refuse("not_now", "web_error_no_lesson")
    if not table.held():
        return conn.refuse("not_now", "web_error_not_held")
    table.go_on()


def _on_hint(hub: Hub, conn: Conn[Table], msg: dict[str, Any]) -> None:
    seated = _seated(conn)
    if seated is None:
        return
    table, seat = seated
    if set(msg) != {"type", "v"}:
        return conn.refuse("malformed", "web_error_hint_fields")
    version = msg["v"]
    if isinstance(version, bool) or not isinstance(version, int):
        return conn.refuse("malformed", "web_error_version")
    if not table.hints:
        return conn.refuse("hints_off", "web_error_hints_off")
    if not table.seats[seat].human:
        return conn.refuse("bot_seat", "web_error_bot_seat")
    if version != table.version:
        return conn.refuse("stale", "web_error_stale", version=table.version)
    if table.decision(seat) is None:
        return conn.refuse("not_now", "web_error_no_decision")
    try:
        hub.hints.ask(conn, table, seat)
    except Refused as e:
        conn.refuse(e.code, e.key)


def _on_take(hub: Hub, conn: Conn[Table], msg: dict[str, Any]) -> None:
    seated = _seated(conn)
    if seated is not None:
        table, seat = seated
        if table.status == Status.CLOSED:
            return conn.refuse("not_now", "web_error_table_over")
        table.set_seat(seat, human=True, joined=True)


def _on_leave(hub: Hub, conn: Conn[Table], msg: dict[str, Any]) -> None:
    seated = _seated(conn)
    if seated is not None:
        table, seat = seated
        if table.status == Status.CLOSED:
            return conn.refuse("not_now", "web_error_table_over")
        table.set_seat(seat, human=False)


def _lang(conn: Conn[Table], msg: dict[str, Any]) -> None:
    lang = msg.get("lang")
    if isinstance(lang, str) and lang in LANGUAGES:
        conn.lang = lang


def _on_lang(hub: Hub, conn: Conn[Table], msg: dict[str, Any]) -> None:
    lang = msg.get("lang")
    if not isinstance(lang, str) or lang not in LANGUAGES:
        return conn.refuse("malformed", "web_error_lang", languages=", ".join(LANGUAGES))
    _lang(conn, msg)
    conn.cursor = 0
    conn.touch()


def _on_ping(hub: Hub, conn: Conn[Table], msg: dict[str, Any]) -> None:
    mark = msg.get("id")
    if mark is None:
        return conn.send({"type": "pong"})
    if isinstance(mark, bool) or not isinstance(mark, int | str) or len(str(mark)) > 32:
        return conn.refuse("malformed", "web_error_fields", detail="id")
    conn.send({"type": "pong", "id": mark})


def _on_chat(hub: Hub, conn: Conn[Table], msg: dict[str, Any]) -> None:
    if conn.table is None:
        return conn.refuse("not_joined", "web_error_not_joined")
    try:
        conn.table.talk.say(conn, msg.get("text"))
    except chat.Refused as e:
        conn.refuse(e.code, e.key, **e.values)


def _on_laugh(hub: Hub, conn: Conn[Table], msg: dict[str, Any]) -> None:
    if conn.table is None:
        return conn.refuse("not_joined", "web_error_not_joined")
    try:
        conn.table.talk.laugh(conn)
    except chat.Refused as e:
        conn.refuse(e.code, e.key, **e.values)


#: The fields each message may have besides its type: its definition's (:mod:`lald.messages`).
_FIELDS = FIELDS
_HANDLERS = {
    "join": _on_join, "watch": _on_watch, "act": _on_act, "next_deal": _on_next_deal,
    "take": _on_take, "leave": _on_leave, "lang": _on_lang, "ping": _on_ping, "go_on": _on_go_on,
    "hint": _on_hint, "chat": _on_chat, "laugh": _on_laugh,
}
