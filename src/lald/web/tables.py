"""A live table: its session, its seats, the bots that play server-side, and the
connections that watch it (each a :class:`~lald.web.conn.Conn`).

The engine is the only authority. Every action, whoever sends it, goes through
:meth:`Table.submit`: checked by the engine, applied, queued to the :class:`Journal`, and
told to the connections only once it is committed. A table's *version* counts the deals
started and the actions applied, so a message built on an older picture of the table is
refused as stale.

Every table deals from a secret of its own (:attr:`Table.secret`, 256 bits, kept in the
database and never sent): each deal's layout, the cut and every bot's choices come from
it through HMAC-SHA256 (:class:`lald.core.KeyedRandom`), so nothing a page is sent, a
finished deal's record included, tells anything of a deal not yet over. A table created
with a seed is a *practice* table: whoever chose the seed knows every hand, and every
page is told so.

A driver task per table runs the turn loop of :func:`lald.play.loop.step` in real time:
before each turn action the open claims are offered to the bot seats in
``state.claim_order()``, then the seat to move acts if a bot plays it; a human seat is
waited for (or played by the bot of its level when its turn timer runs out).

A person whose page is gone without Leave (a closed tab, a lost connection) keeps the
seat: after :attr:`Settings.away_seconds`, while another person is at the table, the bot
of the seat's level stands in for them (its moves' source is ``away``) until a page of
theirs is back, which gives them the seat at once. The frames say whom the table waits
for and for how long (``waiting_for``) and for whom a stand-in plays (``stand_ins``).
"""

from __future__ import annotations

import asyncio
import collections
import json
import logging
import math
import random
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar

from ..bots import Bot, make_bot
from ..core import (
    Action,
    Claim,
    IllegalActionError,
    LaidDown,
    PlayerView,
    Rules,
    Session,
    State,
    action_from_json,
    censor,
    keyed_number,
)
from ..i18n import Catalog
from ..narrate import describe, explain_settlement, join_names
from ..store import NewAction, SeatChange, SeatData, TableChange, TableData
from .chat import KINDS as TALK_KINDS
from .chat import Talk
from .conn import Conn
from .journal import Journal, Saved
from .lesson import Lesson, LessonSession, default_names, held_moment, lesson_bots, lesson_part, note_words
from .ops import failpoint
from .settings import Settings
from .wire import action_kinds, op_json, view_json

if TYPE_CHECKING:
    pass

log = logging.getLogger("lald.web")
T = TypeVar("T")
Step = Callable[[], Awaitable[None]]


class ThinkTimes:
    """How long each kind of bot thinks (CPU seconds), to choose where it thinks.

    Handing a call to a worker thread costs more than a quick bot's whole move, so a kind
    of bot whose recent moves all took under :attr:`QUICK` seconds thinks inline, on the
    event loop; any other (a searching bot, or one not yet measured) in a worker thread,
    so it never stalls the other tables. One slow move sends the kind back to the thread.
    """

    QUICK = 0.002
    """The longest move of a bot that may think on the event loop."""
    SAMPLE = 16
    """How many recent moves are judged."""

    def __init__(self) -> None:
        self.recent: dict[str, collections.deque[float]] = {}

    def quick(self, kind: str) -> bool:
        """Whether bots of ``kind`` have lately thought quickly enough to stay inline."""
        recent = self.recent.get(kind)
        return recent is not None and len(recent) == self.SAMPLE and max(recent) < self.QUICK

    def timed(self, kind: str, fn: Callable[[PlayerView, Sequence[T]], Any], view: PlayerView,
              options: Sequence[T]) -> Any:
        """Call ``fn(view, options)`` and note its CPU time under ``kind``."""
        start = time.thread_time()
        try:
            return fn(view, options)
        finally:
            spent = time.thread_time() - start
            recent = self.recent.get(kind)
            if recent is None:
                recent = self.recent[kind] = collections.deque(maxlen=self.SAMPLE)
            if spent >= self.QUICK:
                recent.clear()
            recent.append(spent)


#: Shared by every table of the process (they share its CPU).
THINK_TIMES = ThinkTimes()


class Entry(NamedTuple):
    """One line of a table's log, rendered per recipient and language on sending."""

    kind: str
    """header, op, timer, away, laugh, settle, tie or winner."""
    deal: int
    ref: int
    """The operation's index in the deal's history (op), or a seat (timer, away, laugh)."""


def level_name(level: str, catalog: Catalog) -> str:
    """A bot level as people name it (``web_level_name_*``: medium, not heuristic), as the
    terminal's setup screen does; a level the catalog does not know, by its name."""
    key = f"web_level_name_{level}"
    return catalog.t(key) if catalog.has(key) else level


class Table(Saved):
    """One table: session, seats, bots, log, connections and the driver task."""

    def __init__(self, data: TableData, journal: Journal, settings: Settings) -> None:
        super().__init__()
        self.id = data.id
        self.created = data.created
        self.journal = journal
        self.settings = settings
        self.config = data.config
        spec = data.config["rules"]
        self.rules = Rules.make(spec.get("preset", "survivor"), spec.get("players", 5),
                                spec.get("variants", ()), spec.get("options", {}))
        self.turn_seconds = float(data.config.get("turn_seconds", 0))
        self.seats: list[SeatData] = sorted(data.seats, key=lambda s: s.seat)
        self.secret = None if data.secret is None else bytes.fromhex(data.secret)
        """The key of the deals and the bots; None at a practice table and a lesson."""
        self.lesson = Lesson() if data.config.get("lesson") else None
        """The teaching deal, at a lesson table (:mod:`.lesson`): its prepared layout is
        public, its other seats play a script."""
        self.practice = self.secret is None and self.lesson is None
        """Dealt from a seed someone chose (or from before tables had secrets)."""
        self.hints = bool(data.config.get("hints")) and self.lesson is None
        """Whether the people at this table may ask for the expert's hint (:mod:`.hints`)."""
        self.public = bool(data.config.get("public"))
        """Listed for strangers, whose seats are :attr:`open_seats` (:mod:`.lobby`)."""
        self.rated = bool(data.config.get("rated"))
        """Its sessions change its accounts' ratings (:mod:`.ratings`)."""
        self.title: str | None = data.config.get("title")
        self.lang: str = data.config.get("lang", "en")
        """The language its people are expected to chat in (the lobby shows it)."""
        self.fill_seconds = float(data.config.get("fill_seconds", 0))
        """How long a public table waits for people, once one has joined, before bots
        take the seats still empty (0: it waits for people)."""
        self.open_seats: frozenset[int] = frozenset(data.config.get("open", ()))
        """The seats strangers from the lobby may take."""
        self.on_change: Callable[[Table], None] | None = None
        """Told of each change of what the lobby lists (seats, deals, status: not of every
        action): the lobby's feed, :meth:`lald.web.lobby.LobbyFeed.touch`."""
        self.on_over: Callable[[Table], None] | None = None
        """Told when the session ends (the ratings, :meth:`lald.web.ratings.Ratings.session_over`)."""
        self.first_joined: float | None = (time.time() if any(s.joined for s in data.seats if s.human)
                                           else None)
        """When the first person joined (a restart counts as now), from which a public
        table's wait for players runs."""
        self.seed = data.seed
        self.session: Session = (Session(self.rules, data.seed, secret=self.secret) if self.lesson is None
                                 else LessonSession(self.lesson))
        self.host_hash = data.host_hash
        self.active_at = data.active_at if data.active_at is not None else data.created
        """When a page last connected or left (seconds since the epoch)."""
        # Each bot's generator is seeded anew for every deal (see _begin_deal).
        if self.lesson is not None:
            self.bots: list[Bot] = lesson_bots(self.lesson)
        else:
            self.bots = [make_bot(s.level, s.seat, self.rules, random.Random(0)) for s in self.seats]
        self.read: set[int] = set()
        """At a lesson table, the moments the learner has read the lesson's note of (play
        stood still there until they said so)."""
        self.entries: list[Entry] = []
        self.sources: list[list[str]] = []
        self.version = 0
        self.conns: set[Conn[Table]] = set()
        self.epoch = 0
        """Counts the changes told to the connections; the frame parts cached are this epoch's."""
        self._parts: dict[tuple[Any, ...], str] = {}
        self._parts_epoch = 0
        self.wake = asyncio.Event()
        self.task: asyncio.Task[None] | None = None
        self.changed_at = time.monotonic()
        self.turn_started = self.changed_at
        self._offered = -1
        self._offered_to: set[int] = set()
        """The seats whose bot was offered the open claims at version :attr:`_offered`."""
        self.gone: dict[int, float] = {s.seat: self.changed_at for s in self.seats}
        """When each seat's last page left (``time.monotonic``); no entry while one is open."""
        self._claims_version = -1
        self._human_claims: frozenset[Claim] = frozenset()
        self._window = False
        self.talk = Talk(self, data.config, Entry)
        """The table's chat and laughs (:mod:`.chat`)."""
        self.talk.restore(data.chat)
        for d in range(data.deals_started):
            self.talk.restore_until(d - 1, math.inf)
            self._begin_deal()
            for i, (obj, source) in enumerate(data.actions[d] if d < len(data.actions) else []):
                self.talk.restore_until(d, i)
                self._apply(action_from_json(obj), source)
        self.talk.restore_until(data.deals_started, math.inf)
        self.status = ("closed" if data.status == "closed" else "over" if self.session.over else
                       "playing" if data.deals_started else "waiting")

    # -- the game -----------------------------------------------------------------------

    @property
    def state(self) -> State | None:
        """The current deal (the last one once it is over), or None before the first."""
        return self.session.deals[-1] if self.session.deals else None

    @property
    def deal_index(self) -> int:
        """The index of the current deal (0-based)."""
        return len(self.session.deals) - 1

    @property
    def open(self) -> bool:
        """Whether the table is still to be played (not over, not closed)."""
        return self.status in ("waiting", "playing")

    def _bot_seed(self, seat: int, deal: int) -> int | str:
        if self.secret is None:
            return f"lald/practice/{self.seed}/bot/{seat}/{deal}"
        return keyed_number(self.secret, f"bot/{seat}", deal)

    def _begin_deal(self) -> None:
        state = self.session.start_deal()
        d = self.deal_index
        for bot in self.bots:
            bot.rng.seed(self._bot_seed(bot.seat, d))
        self.sources.append([])
        self.entries.append(Entry("header", d, 0))
        self.entries.extend(Entry("op", d, i) for i in range(len(state.history)))
        self.version += 1
        self._changed()

    def _apply(self, action: Action, source: str) -> None:
        state = self.state
        assert state is not None
        d, before, mover = self.deal_index, len(state.history), state.to_move
        if source == "timer":
            self.entries.append(Entry("timer", d, action.seat))
        if source == "away" and self._last_source(action.seat) != "away":
            self.entries.append(Entry("away", d, action.seat))
        op = state.apply(action)
        self.sources[d].append(source)
        for i in range(before, len(state.history)):
            self.entries.append(Entry("op", d, i))
            if i == before and isinstance(op, LaidDown) and self.rules.laugh:
                self.entries.append(Entry("laugh", d, op.seat))
                self.talk.laid_down(d, i, op.seat)
        self.version += 1
        if state.over:
            planned = len(self.session.schedule)
            self.session.end_deal(state)
            self.entries.append(Entry("settle", d, 0))
            if self.session.over and self.lesson is None:
                self.entries.append(Entry("winner", d, 0))
            elif len(self.session.schedule) > planned:
                self.entries.append(Entry("tie", d, 0))
        self._changed(state.to_move != mover)

    def _last_source(self, seat: int) -> str | None:
        """Who made ``seat``'s last move of the deal in play (``human``, ``bot``, ...)."""
        state = self.state
        assert state is not None
        for action, source in zip(reversed(state.actions), reversed(self.sources[-1]), strict=True):
            if action.seat == seat:
                return source
        return None

    def _changed(self, new_turn: bool = True) -> None:
        self.epoch += 1
        self.changed_at = time.monotonic()
        if new_turn:
            self.turn_started = self.changed_at

    def submit(self, action: Action, source: str) -> None:
        """Check ``action`` with the engine, queue its write, apply it, and tell everyone
        once it is committed (the connections wait for :meth:`until_saved`).

        Raises :class:`IllegalActionError` (nothing changed) if the engine refuses it.
        """
        state = self.state
        if self.status != "playing" or state is None or state.over:
            raise IllegalActionError("no deal is being played at this table")
        state.verify(action)
        self.journal.add(NewAction(self.id, self.deal_index, len(state.actions), action.to_json(),
                                   source, time.time()), self)
        self._apply(action, source)
        if self.session.over:
            self.status = "over"
            self.journal.add(TableChange(self.id, {"status": "over"}), self)
            if self.on_over is not None:
                self.on_over(self)
        if state.over:  # the deal's end: the session's schedule and status may change
            self.listing_changed()
        self.notify()

    def next_deal(self) -> None:
        """Deal the next deal of the session (the first one starts the table)."""
        if self.status == "closed":
            raise IllegalActionError("the table is closed")
        if self.session.over:
            raise IllegalActionError("the session is over")
        state = self.state
        if state is not None and not state.over:
            raise IllegalActionError("the deal is not over yet")
        self.journal.add(TableChange(self.id, {"deals_started": len(self.session.deals) + 1,
                                               "status": "playing"}), self)
        self.status = "playing"
        self._begin_deal()
        self.listing_changed()
        self.notify()

    def set_seat(self, seat: int, **values: Any) -> None:
        """Change who plays a seat, its name, or mark it joined (told once stored)."""
        self.journal.add(SeatChange(self.id, seat, values), self)
        if values.get("joined") and self.first_joined is None:
            self.first_joined = time.time()
        for key, value in values.items():
            setattr(self.seats[seat], key, value)
        if "human" in values:
            self._claims_version = -1
        self.listing_changed()
        self.notify()

    def close(self) -> None:
        """Close the table for good: no deal is played on; finished records stay."""
        if self.status == "closed":
            return
        self.journal.add(TableChange(self.id, {"status": "closed"}), self)
        self.status = "closed"
        self.listing_changed()
        self.notify()

    def seen(self) -> None:
        """A page connected or left: the table is not idle."""
        self.active_at = time.time()
        self.journal.add(TableChange(self.id, {"active_at": self.active_at}), self)

    def connect(self, conn: Conn[Table]) -> None:
        """A page joined (or watches): a seat's person is back, at once."""
        self.conns.add(conn)
        if conn.seat is not None:
            self.gone.pop(conn.seat, None)

    def disconnect(self, conn: Conn[Table]) -> None:
        """A page left: its seat's person is gone from now if no other page of theirs is open."""
        self.conns.discard(conn)
        if conn.seat is not None and not self.online(conn.seat):
            self.gone.setdefault(conn.seat, time.monotonic())

    def away(self, seat: int, now: float) -> float | None:
        """How long the person of ``seat`` has been gone during play (seconds); None if
        a page of theirs is open, the seat is a bot's, or no deal is being played."""
        since = self.gone.get(seat)
        if (since is None or not self.seats[seat].human or self.lesson is not None
                or self.status != "playing" or self.online(seat)):
            return None
        return now - since

    def stand_in_in(self, seat: int, now: float) -> float | None:
        """In how many seconds the bot of ``seat``'s level plays for its absent person (0:
        it does now); None if it does not: their page is open, or nobody else is at the
        table (nobody waits for them)."""
        gone = self.away(seat, now)
        others = any(c.seat is not None and c.seat != seat and self.seats[c.seat].human for c in self.conns)
        if gone is None or not others:
            return None
        return max(0.0, self.settings.away_seconds - gone)

    def by_bot(self, seat: int, now: float) -> bool:
        """Whether a bot decides for ``seat`` now: a bot's seat, or an absent person's
        once their grace is over."""
        if not self.seats[seat].human:
            return True
        left = self.stand_in_in(seat, now)
        return left is not None and left <= 0

    def notify(self) -> None:
        """Tell every connection and the driver that the table changed."""
        self.epoch += 1
        for conn in self.conns:
            conn.touch()
        self.wake.set()

    def listing_changed(self) -> None:
        """What the lobby lists of this table changed (:meth:`listing`)."""
        if self.on_change is not None:
            self.on_change(self)

    # -- the driver ---------------------------------------------------------------------

    def start(self) -> None:
        """Start the driver task."""
        if self.task is None:
            self.task = asyncio.create_task(self.run(), name=f"table {self.id}")

    async def stop(self) -> None:
        """Stop the driver task."""
        if self.task is not None:
            self.task.cancel()
            try:
                await self.task
            except asyncio.CancelledError:
                pass
            self.task = None

    async def run(self) -> None:
        """The turn loop: wait for what the plan says, or for a change, then act."""
        try:
            while self.open:
                self.wake.clear()
                delay, step = self.plan()
                if step is None:
                    await self.wake.wait()
                    continue
                if delay > 0:
                    try:
                        await asyncio.wait_for(self.wake.wait(), delay)
                        continue
                    except TimeoutError:
                        pass
                await step()
                await asyncio.sleep(0)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s stopped", self.id)

    def plan(self) -> tuple[float, Step | None]:
        """What the driver does next and in how many seconds (no step: wait for a change)."""
        if not self.open:
            return 0.0, None
        if self.status == "waiting":
            if all(s.joined for s in self.seats if s.human):
                return 0.0, self._deal_step
            fill = self.fill_at()
            if fill is None:
                return 0.0, None
            return max(0.0, fill - time.time()), self._fill_step
        state = self.state
        assert state is not None
        now = time.monotonic()
        if state.over:
            if self.session.over:
                return 0.0, None
            if not any(s.human for s in self.seats):
                return max(0.0, self.changed_at + self.settings.deal_pause - now), self._deal_step
            if self.turn_seconds > 0:
                return max(0.0, self.changed_at + self.turn_seconds - now), self._deal_step
            return 0.0, None
        if self.lesson is not None:
            return self._lesson_plan(state, now)
        open_claims = state.open_claims()
        if self._claims_version != self.version:
            human = frozenset(c for c in open_claims if self.seats[c.seat].human)
            self._window = bool(human - self._human_claims)
            self._human_claims, self._claims_version = human, self.version
        mover = state.to_move
        assert mover is not None
        bot_claims = any(self._unoffered(c.seat) and self.by_bot(c.seat, now) for c in open_claims)
        if bot_claims or self.by_bot(mover, now):
            wait = self.settings.bot_delay
            if self._window:
                wait = max(wait, self.settings.claim_window)
            return max(0.0, self.changed_at + wait - now), self._bot_step
        plans: list[tuple[float, Step | None]] = [(0.0, None)]
        if self.turn_seconds > 0:
            plans.append((max(0.0, self.turn_started + self.turn_seconds - now), self._timer_step))
        stand_in = self.stand_in_in(mover, now)
        if stand_in is not None:
            plans.append((stand_in, self._bot_step))
        return min(plans[1:], key=lambda p: p[0], default=plans[0])

    def _unoffered(self, seat: int) -> bool:
        """Whether ``seat``'s bot is still to be offered the open claims at this version."""
        return self._offered != self.version or seat not in self._offered_to

    def _lesson_plan(self, state: State, now: float) -> tuple[float, Step | None]:
        """At a lesson table the bots act only when the script's next action is theirs, so
        a learner's claim out of turn is waited for; no timer runs. Play stands still
        where the lesson asks the learner to read (:meth:`held`)."""
        assert self.lesson is not None
        following = self.lesson.next_action(state)
        if following is None or self.seats[following.seat].human or self.held():
            return 0.0, None
        return max(0.0, self.changed_at + self.settings.bot_delay - now), self._bot_step

    def held(self) -> bool:
        """Whether a lesson table stands still for the learner to read its note (until
        the learner says to go on: :meth:`go_on`)."""
        state = self.state
        if self.lesson is None or state is None or self.status != "playing":
            return False
        return (self.seats[self.lesson.learner].human and len(state.actions) not in self.read
                and held_moment(self.lesson, state))

    def go_on(self) -> None:
        """The learner has read the lesson's note: play goes on. Raises
        :class:`IllegalActionError` if play does not stand still."""
        state = self.state
        if not self.held() or state is None:
            raise IllegalActionError("the lesson is not waiting for you to read")
        self.read.add(len(state.actions))
        self._changed()
        self.notify()

    async def _think(self, seat: int, fn: Callable[[PlayerView, Sequence[T]], Any],
                     view: PlayerView, options: Sequence[T]) -> Any:
        level = self.seats[seat].level
        failpoint("bot_move")
        if not self.settings.threaded_bots or THINK_TIMES.quick(level):
            return THINK_TIMES.timed(level, fn, view, options)
        return await asyncio.to_thread(THINK_TIMES.timed, level, fn, view, options)

    async def _deal_step(self) -> None:
        self.next_deal()

    async def _fill_step(self) -> None:
        """A public table's wait for players is over: the bots take the seats still empty."""
        fill = self.fill_at()
        if self.status != "waiting" or fill is None or fill > time.time():
            return
        for s in self.seats:
            if s.human and not s.joined:
                self.set_seat(s.seat, human=False)

    def fill_at(self) -> float | None:
        """When the bots take the empty seats of this public table (seconds since the
        epoch); None if they do not (a private table, no wait set, nobody joined yet, or
        play has begun)."""
        if (not self.public or self.fill_seconds <= 0 or self.status != "waiting"
                or self.first_joined is None):
            return None
        return self.first_joined + self.fill_seconds

    def free_seats(self) -> list[int]:
        """The open seats a stranger may still take: nobody has taken them, and no bot
        has (before the first deal)."""
        if not self.public or self.status != "waiting":
            return []
        return [s.seat for s in self.seats
                if s.seat in self.open_seats and s.human and not s.joined and s.generation == 0]

    def accounts(self) -> set[int]:
        """The accounts seated here."""
        return {s.account for s in self.seats if s.account is not None}

    async def _bot_step(self) -> None:
        """The bots' claims (each bot once a version), then the move of the seat to move
        if a bot decides for it. What a bot chose is dropped if the table moved on while
        it thought, or if a stand-in's person came back meanwhile."""
        state, version = self.state, self.version
        assert state is not None
        now = time.monotonic()
        if self._offered != version:
            self._offered, self._offered_to = version, set()
        for seat in state.claim_order():
            if not self._unoffered(seat) or not self.by_bot(seat, now):
                continue
            self._offered_to.add(seat)
            claims = state.claims(seat)
            if claims:
                choice = await self._think(seat, self.bots[seat].claim, state.view(seat), claims)
                if self.version != version:
                    return
                if choice is not None and self.by_bot(seat, time.monotonic()):
                    self._submit_bot(choice, self._bot_source(seat), claims)
                    return
        mover = state.to_move
        if mover is not None and self.by_bot(mover, now):
            legal = state.turn_actions()
            action = await self._think(mover, self.bots[mover].act, state.view(mover), legal)
            if self.version == version and self.by_bot(mover, time.monotonic()):
                self._submit_bot(action, self._bot_source(mover), legal)

    def _bot_source(self, seat: int) -> str:
        """A bot's move's source: ``bot`` at a bot's seat, ``away`` standing in for a person."""
        return "away" if self.seats[seat].human else "bot"

    async def _timer_step(self) -> None:
        state, version = self.state, self.version
        assert state is not None and state.to_move is not None
        seat = state.to_move
        legal = state.turn_actions()
        action = await self._think(seat, self.bots[seat].act, state.view(seat), legal)
        if self.version == version:
            self._submit_bot(action, "timer", legal)

    def _submit_bot(self, action: Action, source: str, legal: Sequence[Action]) -> None:
        try:
            self.submit(action, source)
        except IllegalActionError as e:
            # A bot that breaks the rules must not stop the table: play its first legal move.
            log.error("table %s: bot of seat %s chose %s: %s", self.id, action.seat, action, e)
            if not isinstance(action, Claim):
                self.submit(legal[0], source)

    # -- what each recipient is sent ----------------------------------------------------

    def names(self, catalog: Catalog) -> list[str]:
        """Seat names in ``catalog``'s language (a seat without a name is "Seat n"; at a
        lesson table, the catalog's names, as in the terminal's lesson)."""
        if self.lesson is not None:
            return default_names(catalog, len(self.seats))
        return [catalog.t("web_deleted_player") if s.erased else s.name or catalog.t("seat_name", seat=s.seat)
                for s in self.seats]

    def render(self, entry: Entry, seat: int | None, catalog: Catalog,
               names: Sequence[str]) -> dict[str, Any]:
        """One log entry as ``seat`` may see it, in ``catalog``'s language."""
        kind, d, index = entry
        if kind in TALK_KINDS:
            return self.talk.render(entry, catalog, list(names))
        state = self.session.deals[d]
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
                              level=level_name(self.seats[index].level, catalog))}
        if kind == "away":
            return {"kind": kind, "deal": d, "seat": index,
                    "text": t("web_away_played", name=names[index],
                              level=level_name(self.seats[index].level, catalog))}
        if kind == "laugh":
            return {"kind": kind, "deal": d, "seat": index, "text": t("laugh")}
        result = self.session.results[d]
        if kind == "settle":
            balances = [b + c for b, c in zip(state.balances_before, result.chips, strict=True)]
            lines = explain_settlement(self.rules, result, state.dealer, names, balances, catalog)
            return {"kind": kind, "deal": d, "text": "\n".join(lines), "lines": lines}
        if kind == "tie":
            leaders = self.session.schedule[len(self.session.results):]
            return {"kind": kind, "deal": d,
                    "text": t("tie_extra_deals", names=join_names([names[s] for s in leaders], catalog))}
        winners = self.session.winners
        key = "session_winner" if len(winners) == 1 else "session_shared"
        return {"kind": kind, "deal": d, "seats": list(winners),
                "text": t(key, names=join_names([names[s] for s in winners], catalog))}

    def summary(self) -> dict[str, Any]:
        """What the lobby lists: rules, seats and progress (no secrets)."""
        return {
            "id": self.id,
            "rules": self.rules.spec(),
            "status": self.status,
            "deal": len(self.session.deals),
            "deals": len(self.session.schedule),
            "turn_seconds": self.turn_seconds,
            "practice": self.practice,
            "lesson": self.lesson is not None,
            "hints": self.hints,
            "seats": [self._seat_json(s) | {"online": self.online(s.seat)} for s in self.seats],
            "chat": self.talk.settings(),
        } | self._public_json()

    def _seat_json(self, s: SeatData) -> dict[str, Any]:
        return {"seat": s.seat, "name": s.name, "human": s.human, "level": s.level, "joined": s.joined,
                "open": s.seat in self.open_seats, "account": s.account is not None, "erased": s.erased}

    def _public_json(self) -> dict[str, Any]:
        return {"public": self.public, "rated": self.rated, "title": self.title, "lang": self.lang,
                "fill_seconds": self.fill_seconds, "fill_at": self.fill_at(), "free": len(self.free_seats())}

    def listing(self) -> dict[str, Any]:
        """The lobby's row for this table (:mod:`.lobby`): what :meth:`summary` says but who
        is connected, which changes too often to be worth telling every lobby page."""
        return {"id": self.id, "created": self.created, "rules": self.rules.spec(), "status": self.status,
                "deal": len(self.session.deals), "deals": len(self.session.schedule),
                "turn_seconds": self.turn_seconds, "practice": self.practice, "hints": self.hints,
                "seats": [self._seat_json(s) for s in self.seats]} | self._public_json()

    def online(self, seat: int) -> bool:
        """Whether a connection is open on ``seat``."""
        return any(c.seat == seat for c in self.conns)

    def _part(self, key: tuple[Any, ...], make: Callable[[], Any]) -> str:
        """``make()`` as JSON, built once per epoch and ``key`` (shared by recipients)."""
        if self._parts_epoch != self.epoch:
            self._parts.clear()
            self._parts_epoch = self.epoch
        text = self._parts.get(key)
        if text is None:
            text = self._parts[key] = json.dumps(make(), ensure_ascii=False)
        return text

    def _session_json(self) -> dict[str, Any]:
        session = self.session
        results = [{"deal": i, "dealer": session.deals[i].dealer, "won": list(r.won),
                    "chips": list(r.chips), "pot_after": r.pot_after, "survivor": r.survivor,
                    "prize_to": r.prize_to, "winners": list(r.winners), "antes": list(r.antes),
                    "pairs": None if r.pairs is None else list(r.pairs),
                    "prize": self.rules.prize if r.prize_to is not None else 0}
                   for i, r in enumerate(session.results)]
        return {"pot": session.pot, "balances": list(session.balances), "results": results,
                "over": session.over, "winners": list(session.winners), "laugh": self.rules.laugh}

    def frame(self, conn: Conn[Table]) -> str:
        """The state frame for ``conn``: its own view, its legal actions, new log lines.

        The parts that are the same for several recipients (the table's summary per
        language, each seat's view and legal actions, the session) are serialised once per
        change of the table; only the new log lines are rendered per recipient.
        """
        catalog = Catalog(conn.lang)
        names = self.names(catalog)
        seat = conn.seat
        state = self.state
        reset = conn.cursor == 0
        entries = self.entries[conn.cursor:]
        conn.cursor = len(self.entries)
        human = seat is not None and self.seats[seat].human
        head = json.dumps({
            "type": "state",
            "v": self.version,
            "you": seat,
            "deal": self.deal_index,
            "can_next": (human and self.status == "playing" and state is not None and state.over
                         and not self.session.over),
            "turn_deadline": self._deadline(),
            **self._absent(),
            "reset": reset,
            "log": [self.render(e, seat, catalog, names) for e in entries],
        }, ensure_ascii=False)
        table = self._part(("table", conn.lang), lambda: self.summary() | {"names": names})
        view = ("null" if state is None else
                self._part(("view", seat), lambda: view_json(state.view(seat))))
        legal = kinds = "[]"
        if seat is not None and human and state is not None and self.status == "playing":
            legal = self._part(("legal", seat),
                               lambda: [a.to_json() for a in state.legal_actions(seat)])
            kinds = self._part(("kinds", seat),
                               lambda: action_kinds(state, state.legal_actions(seat)))
        session = self._part(("session",), self._session_json)
        lesson = "null"
        if self.lesson is not None and seat == self.lesson.learner and state is not None:
            lesson = self._part(("lesson", conn.lang), lambda: self._lesson_json(state, catalog, names))
        return (f'{head[:-1]}, "table": {table}, "view": {view}, "legal": {legal}, "kinds": {kinds}, '
                f'"session": {session}, "lesson": {lesson}}}')

    def _lesson_json(self, state: State, catalog: Catalog, names: Sequence[str]) -> dict[str, Any]:
        assert self.lesson is not None
        learner = self.lesson.learner
        legal = state.legal_actions(learner) if self.status == "playing" else []
        return lesson_part(self.lesson, state, catalog, names, legal, self.held())

    def refusal(self, seat: int, action: Action, catalog: Catalog) -> str | None:
        """At a lesson table, why the learner's ``action`` is not made (the lesson's
        sentence naming its move, or asking to wait); None if it is the lesson's move or
        the table is no lesson."""
        state = self.state
        if self.lesson is None or seat != self.lesson.learner or state is None or state.over:
            return None
        note = self.lesson.refusal(state, action)
        return None if note is None else note_words(note, state, self.names(catalog), catalog)

    def decision(self, seat: int) -> tuple[PlayerView, list[Action]] | None:
        """What ``seat`` may decide now, if anything: its view and its legal actions (on its
        turn, its turn actions and claims; out of turn, the claims it may make)."""
        state = self.state
        if self.status != "playing" or state is None or state.over:
            return None
        legal = state.legal_actions(seat)
        return (state.view(seat), legal) if legal else None

    def _absent(self) -> dict[str, Any]:
        """Whom the table waits for, gone, and for how long (``waiting_for``: the seat to
        move, seconds since their page left, seconds until their stand-in plays or None),
        and the seats a stand-in plays for now (``stand_ins``)."""
        state, now = self.state, time.monotonic()
        if self.status != "playing" or state is None or state.over:
            return {"waiting_for": None, "stand_ins": []}
        stand_ins = [s.seat for s in self.seats if s.human and self.by_bot(s.seat, now)]
        mover, waiting = state.to_move, None
        gone = None if mover is None or mover in stand_ins else self.away(mover, now)
        if mover is not None and gone is not None:
            left = self.stand_in_in(mover, now)
            waiting = {"seat": mover, "away": round(gone, 1),
                       "stand_in": None if left is None else round(left, 1)}
        return {"waiting_for": waiting, "stand_ins": stand_ins}

    def _deadline(self) -> float | None:
        """Seconds left on the clock of the seat to move, if the table has a timer."""
        state = self.state
        if self.turn_seconds <= 0 or state is None or state.over or state.to_move is None:
            return None
        if not self.seats[state.to_move].human:
            return None
        return round(max(0.0, self.turn_started + self.turn_seconds - time.monotonic()), 1)

    def record(self, deal: int) -> State:
        """Deal ``deal`` (0-based) once it is over; a deal in play is not disclosed."""
        if not 0 <= deal < len(self.session.deals) or not self.session.deals[deal].over:
            raise KeyError(deal)
        return self.session.deals[deal]
