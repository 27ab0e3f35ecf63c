"""What each page is told of a live table: the state frame a connection is sent (its
seat's view and legal actions, the log lines new to it in its language, the session), the
table's summary for the host and the lobby's row.

A frame shows a seat only what the engine's view gives it (:func:`lald.core.censor` on
every logged operation, :meth:`lald.core.State.view` for the view); the parts the same for
several recipients are serialised once per change of the table
(:attr:`lald.web.table.tables.Table.epoch`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple, Protocol

from ...core import Rules, Session, State, censor
from ...i18n import Catalog
from ...narrate import describe, explain_settlement, join_names
from ...store import SeatData
from ..wire import Status, action_kinds, dumps, op_json, view_json
from .chat import KINDS as TALK_KINDS
from .chat import Talk
from .conn import Conn
from .lesson import Lesson, default_names, lesson_part


class Entry(NamedTuple):
    """One line of a table's log, rendered per recipient and language on sending."""

    kind: str
    """header, op, timer, away, laugh, settle, tie or winner."""
    deal: int
    ref: int
    """The operation's index in the deal's history (op), or a seat (timer, away, laugh)."""


class Framed(Protocol):
    """What the frames read of a live table (:class:`lald.web.table.tables.Table`)."""

    id: str
    created: float
    rules: Rules
    session: Session
    seats: list[SeatData]
    entries: list[Entry]
    epoch: int
    version: int
    status: Status
    lesson: Lesson | None
    talk: Talk
    practice: bool
    hints: bool
    public: bool
    rated: bool
    title: str | None
    lang: str
    turn_seconds: float
    fill_seconds: float
    open_seats: frozenset[int]

    @property
    def state(self) -> State | None:
        """The current deal, or None before the first."""

    @property
    def deal_index(self) -> int:
        """The current deal's index."""

    def fill_at(self) -> float | None:
        """When bots take a public table's empty seats, if they will."""

    def free_seats(self) -> list[int]:
        """The open seats still free."""

    def held(self) -> bool:
        """Whether a lesson stands still for its note to be read."""

    def online(self, seat: int) -> bool:
        """Whether a connection is open on ``seat``."""

    def absent(self) -> dict[str, Any]:
        """Whom the table waits for, and for whom a stand-in plays."""

    def deadline(self) -> float | None:
        """Seconds left on the clock of the seat to move, if any."""


def level_name(level: str, catalog: Catalog) -> str:
    """A bot level as people name it (``web_level_name_*``: medium, not heuristic), as the
    terminal's setup screen does; a level the catalog does not know, by its name."""
    key = f"web_level_name_{level}"
    return catalog.t(key) if catalog.has(key) else level


class Frames:
    """The frames, summary and lobby row of one :class:`~lald.web.table.tables.Table`."""

    def __init__(self, table: Framed, clock: Callable[[], float] = time.time) -> None:
        self.table = table
        self.clock = clock
        """The wall clock (seconds since the epoch) a frame says as ``now``: the page counts
        down to ``fill_at`` from it and its own clock (a test gives its own)."""
        self._parts: dict[tuple[Any, ...], str] = {}
        self._parts_epoch = 0
        self._spec: dict[str, Any] | None = None
        self._session: tuple[tuple[int, bool], str] | None = None
        self._names: dict[tuple[Any, ...], list[str]] = {}

    def names(self, catalog: Catalog) -> list[str]:
        """Seat names in ``catalog``'s language (a seat without a name is "Seat n"; at a
        lesson table, the catalog's names, as in the terminal's lesson)."""
        table = self.table
        key = (catalog.lang, table.lesson is not None, *((s.name, s.erased) for s in table.seats))
        names = self._names.get(key)
        if names is None:
            if len(self._names) > 16:
                self._names.clear()
            if table.lesson is not None:
                names = default_names(catalog, len(table.seats))
            else:
                names = [catalog.t("web_deleted_player") if s.erased
                         else s.name or catalog.t("seat_name", seat=s.seat) for s in table.seats]
            self._names[key] = names
        return list(names)

    def _rules_spec(self) -> dict[str, Any]:
        """The table's rules as the record says them (its rules never change: made once)."""
        if self._spec is None:
            self._spec = self.table.rules.spec()
        spec = self._spec
        return {**spec, "variants": list(spec["variants"]), "options": dict(spec["options"])}

    def render(self, entry: Entry, seat: int | None, catalog: Catalog,
               names: Sequence[str]) -> dict[str, Any]:
        """One log entry as ``seat`` may see it, in ``catalog``'s language."""
        table = self.table
        kind, d, index = entry
        if kind in TALK_KINDS:
            return table.talk.render(entry, catalog, list(names))
        state = table.session.deals[d]
        t = catalog.t
        if kind == "op":
            op = censor(state.history[index], seat)
            return {"kind": kind, "deal": d, "text": describe(op, names, catalog), "op": op_json(op)}
        if kind == "header":
            text = t("deal_header", number=d + 1, dealer=names[state.dealer],
                     eldest=names[state.eldest])
            return {"kind": kind, "deal": d, "text": text}
        if kind == "timer":
            return {"kind": kind, "deal": d, "seat": index,
                    "text": t("web_timer_expired", name=names[index],
                              level=level_name(table.seats[index].level, catalog))}
        if kind == "away":
            return {"kind": kind, "deal": d, "seat": index,
                    "text": t("web_away_played", name=names[index],
                              level=level_name(table.seats[index].level, catalog))}
        if kind == "laugh":
            return {"kind": kind, "deal": d, "seat": index, "text": t("laugh")}
        result = table.session.results[d]
        if kind == "settle":
            balances = [b + c for b, c in zip(state.balances_before, result.chips, strict=True)]
            lines = explain_settlement(table.rules, result, state.dealer, names, balances, catalog)
            return {"kind": kind, "deal": d, "text": "\n".join(lines), "lines": lines}
        if kind == "tie":
            leaders = table.session.schedule[len(table.session.results):]
            return {"kind": kind, "deal": d,
                    "text": t("tie_extra_deals", names=join_names([names[s] for s in leaders], catalog))}
        winners = table.session.winners
        key = "session_winner" if len(winners) == 1 else "session_shared"
        return {"kind": kind, "deal": d, "seats": list(winners),
                "text": t(key, names=join_names([names[s] for s in winners], catalog))}

    def summary(self) -> dict[str, Any]:
        """What the lobby lists: rules, seats and progress (no secrets)."""
        table = self.table
        return {
            "id": table.id,
            "rules": self._rules_spec(),
            "status": table.status,
            "deal": len(table.session.deals),
            "deals": len(table.session.schedule),
            "turn_seconds": table.turn_seconds,
            "practice": table.practice,
            "lesson": table.lesson is not None,
            "hints": table.hints,
            "seats": [self._seat_json(s) | {"online": table.online(s.seat)} for s in table.seats],
            "chat": table.talk.settings(),
        } | self._public_json()

    def _seat_json(self, s: SeatData) -> dict[str, Any]:
        return {"seat": s.seat, "name": s.name, "human": s.human, "level": s.level, "joined": s.joined,
                "open": s.seat in self.table.open_seats, "account": s.account is not None, "erased": s.erased}

    def _public_json(self) -> dict[str, Any]:
        table = self.table
        return {"public": table.public, "rated": table.rated, "title": table.title, "lang": table.lang,
                "fill_seconds": table.fill_seconds, "fill_at": table.fill_at(),
                "free": len(table.free_seats())}

    def listing(self) -> dict[str, Any]:
        """The lobby's row for this table (:mod:`lald.web.people.lobby`): what :meth:`summary` says but who
        is connected, which changes too often to be worth telling every lobby page."""
        table = self.table
        return {"id": table.id, "created": table.created, "rules": self._rules_spec(), "status": table.status,
                "deal": len(table.session.deals), "deals": len(table.session.schedule),
                "turn_seconds": table.turn_seconds, "practice": table.practice, "hints": table.hints,
                "seats": [self._seat_json(s) for s in table.seats]} | self._public_json()

    def _part(self, key: tuple[Any, ...], make: Callable[[], Any]) -> str:
        """``make()`` as JSON, built once per epoch and ``key`` (shared by recipients)."""
        if self._parts_epoch != self.table.epoch:
            self._parts.clear()
            self._parts_epoch = self.table.epoch
        text = self._parts.get(key)
        if text is None:
            text = self._parts[key] = dumps(make())
        return text

    def _session_part(self) -> str:
        """The session as JSON: it changes only when a deal ends (its results, pot and
        balances), so it is made once per deal ended."""
        session = self.table.session
        key = (len(session.results), session.over)
        if self._session is None or self._session[0] != key:
            self._session = (key, dumps(self._session_json()))
        return self._session[1]

    def _session_json(self) -> dict[str, Any]:
        table = self.table
        session = table.session
        results = [{"deal": i, "dealer": session.deals[i].dealer, "won": list(r.won),
                    "chips": list(r.chips), "pot_after": r.pot_after, "survivor": r.survivor,
                    "prize_to": r.prize_to, "winners": list(r.winners), "antes": list(r.antes),
                    "pairs": None if r.pairs is None else list(r.pairs),
                    "prize": r.prize_paid}
                   for i, r in enumerate(session.results)]
        return {"pot": session.pot, "balances": list(session.balances), "results": results,
                "over": session.over, "winners": list(session.winners), "laugh": table.rules.laugh}

    def frame(self, conn: Conn[Any]) -> str:
        """The state frame for ``conn``: its own view, its legal actions, new log lines.

        The parts that are the same for several recipients (the table's summary per
        language, each seat's view and legal actions, the session) are serialised once per
        change of the table; only the new log lines are rendered per recipient.
        """
        table = self.table
        catalog = Catalog(conn.lang)
        names = self.names(catalog)
        seat = conn.seat
        state = table.state
        reset = conn.cursor == 0
        entries = table.entries[conn.cursor:]
        conn.cursor = len(table.entries)
        human = seat is not None and table.seats[seat].human
        head = dumps({
            "type": "state",
            "v": table.version,
            "you": seat,
            "deal": table.deal_index,
            "can_next": (human and table.status == Status.PLAYING and state is not None and state.over
                         and not table.session.over),
            "turn_deadline": table.deadline(),
            "now": self.clock(),
            **table.absent(),
            "reset": reset,
            "log": [self.render(e, seat, catalog, names) for e in entries],
        })
        summary = self._part(("table", conn.lang), lambda: self.summary() | {"names": names})
        view = ("null" if state is None else
                self._part(("view", seat), lambda: view_json(state.view(seat))))
        legal = kinds = "[]"
        if seat is not None and human and state is not None and table.status == Status.PLAYING:
            legal = self._part(("legal", seat),
                               lambda: [a.to_json() for a in state.legal_actions(seat)])
            kinds = self._part(("kinds", seat),
                               lambda: action_kinds(state, state.legal_actions(seat)))
        session = self._session_part()
        lesson = "null"
        if table.lesson is not None and seat == table.lesson.learner and state is not None:
            lesson = self._part(("lesson", conn.lang), lambda: self._lesson_json(state, catalog, names))
        return (f'{head[:-1]}, "table": {summary}, "view": {view}, "legal": {legal}, "kinds": {kinds}, '
                f'"session": {session}, "lesson": {lesson}}}')

    def _lesson_json(self, state: State, catalog: Catalog, names: Sequence[str]) -> dict[str, Any]:
        table = self.table
        assert table.lesson is not None
        learner = table.lesson.learner
        legal = state.legal_actions(learner) if table.status == Status.PLAYING else []
        return lesson_part(table.lesson, state, catalog, names, legal, table.held())
