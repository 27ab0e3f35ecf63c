"""A live table: its session, its seats, the bots that play server-side, and the
connections that watch it (each a :class:`~lald.web.table.conn.Conn`).

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
before each turn action the claim window (:class:`lald.core.ClaimWindow`, the one every
table drives) asks the bot seats for their open claims in claim order, then the seat to
move acts if a bot plays it; a human seat is waited for (or played by the bot of its level
when its turn timer runs out). People claim at will (the first claim to reach the server
wins): the window does not wait for them, but when one has just been given a claim the
bots hold back for :attr:`Settings.claim_window` seconds.

A person whose page is gone without Leave (a closed tab, a lost connection) keeps the
seat: after :attr:`Settings.away_seconds`, while another person is at the table, the bot
of the seat's level stands in for them (its moves' source is ``away``) until a page of
theirs is back, which gives them the seat at once. The frames say whom the table waits
for and for how long (``waiting_for``) and for whom a stand-in plays (``stand_ins``).
"""

from __future__ import annotations

import asyncio
import collections
import logging
import math
import random
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from ...bots import Bot, make_bot
from ...clock import SYSTEM, Clock
from ...core import (
    Action,
    Claim,
    ClaimWindow,
    IllegalActionError,
    LaidDown,
    PlayerView,
    Rules,
    Session,
    State,
    action_from_json,
    keyed_number,
)
from ...i18n import Catalog
from ...store import NewAction, SeatChange, SeatData, TableChange, TableData
from ..ops import failpoint
from ..settings import Settings
from ..wire import Status
from .chat import Talk
from .conn import Conn
from .frames import Entry, Frames
from .journal import Journal, Saved
from .lesson import Lesson, LessonSession, held_moment, lesson_bots, note_words
from .seats import Seats

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


class Table(Seats, Saved):
    """One table: session, seats, bots, log, connections and the driver task."""

    def __init__(self, data: TableData, journal: Journal, settings: Settings, clock: Clock = SYSTEM) -> None:
        self.clock = clock
        """What the table's time is read on, and its timers set on (:mod:`lald.clock`)."""
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
        """Listed for strangers, whose seats are :attr:`open_seats` (:mod:`lald.web.people.lobby`)."""
        self.rated = bool(data.config.get("rated"))
        """Its sessions change its accounts' ratings (:mod:`lald.web.people.ratings`)."""
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
        action): the lobby's feed, :meth:`lald.web.people.lobby.LobbyFeed.touch`."""
        self.on_over: Callable[[Table], None] | None = None
        """Told when the session ends (the ratings, :meth:`lald.web.people.ratings.Ratings.session_over`)."""
        self.first_joined: float | None = (self.clock.now() if any(s.joined for s in data.seats if s.human)
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
        self.wake = asyncio.Event()
        self.task: asyncio.Task[None] | None = None
        self.changed_at = self.clock.monotonic()
        self.turn_started = self.changed_at
        self.gone: dict[int, float] = {s.seat: self.changed_at for s in self.seats}
        """When each seat's last page left (the clock's ``monotonic``); no entry while one is open."""
        self.window: ClaimWindow | None = None
        """The claim window of the deal in play (:mod:`lald.core.engine.window`)."""
        self.frames = Frames(self, clock.now)
        """What each page is sent of the table (:mod:`.frames`)."""
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
        if self.window is not None:  # after a restart every claim open counts as just given
            self.window.open(anew=True)
        self.status = (Status.CLOSED if data.status == Status.CLOSED else Status.OVER if self.session.over
                       else Status.PLAYING if data.deals_started else Status.WAITING)

    # -- the game -----------------------------------------------------------------------

    @property
    def deal_index(self) -> int:
        """The index of the current deal (0-based)."""
        return len(self.session.deals) - 1

    @property
    def open(self) -> bool:
        """Whether the table is still to be played (not over, not closed)."""
        return self.status.open

    def _bot_seed(self, seat: int, deal: int) -> int | str:
        if self.secret is None:
            return f"lald/practice/{self.seed}/bot/{seat}/{deal}"
        return keyed_number(self.secret, f"bot/{seat}", deal)

    def _begin_deal(self) -> None:
        state = self.session.start_deal()
        self.window = ClaimWindow(state)
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
        assert self.window is not None and self.window.state is state
        op = self.window.apply(action)
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
        self.changed_at = self.clock.monotonic()
        if new_turn:
            self.turn_started = self.changed_at

    def submit(self, action: Action, source: str) -> None:
        """Check ``action`` with the engine, queue its write, apply it, and tell everyone
        once it is committed (the connections wait for :meth:`until_saved`).

        Raises :class:`IllegalActionError` (nothing changed) if the engine refuses it.
        """
        state = self.state
        if self.status != Status.PLAYING or state is None or state.over:
            raise IllegalActionError("no deal is being played at this table")
        state.verify(action)
        self.journal.add(NewAction(self.id, self.deal_index, len(state.actions), action.to_json(),
                                   source, self.clock.now()), self)
        self._apply(action, source)
        if self.session.over:
            self.status = Status.OVER
            self.journal.add(TableChange(self.id, {"status": Status.OVER}), self)
            if self.on_over is not None:
                self.on_over(self)
        if state.over:  # the deal's end: the session's schedule and status may change
            self.listing_changed()
        self.notify()

    def next_deal(self) -> None:
        """Deal the next deal of the session (the first one starts the table)."""
        if self.status == Status.CLOSED:
            raise IllegalActionError("the table is closed")
        if self.session.over:
            raise IllegalActionError("the session is over")
        state = self.state
        if state is not None and not state.over:
            raise IllegalActionError("the deal is not over yet")
        self.journal.add(TableChange(self.id, {"deals_started": len(self.session.deals) + 1,
                                               "status": Status.PLAYING}), self)
        self.status = Status.PLAYING
        self._begin_deal()
        self.listing_changed()
        self.notify()

    def set_seat(self, seat: int, **values: Any) -> None:
        """Change who plays a seat, its name, or mark it joined (told once stored)."""
        self.journal.add(SeatChange(self.id, seat, values), self)
        if values.get("joined") and self.first_joined is None:
            self.first_joined = self.clock.now()
        taken = values.get("human", False) and not self.seats[seat].human
        for key, value in values.items():
            setattr(self.seats[seat], key, value)
        if taken and self.window is not None:  # the person is given the seat's open claims
            self.window.forget({seat})
        self.listing_changed()
        self.notify()

    def close(self) -> None:
        """Close the table for good: no deal is played on; finished records stay."""
        if self.status == Status.CLOSED:
            return
        self.journal.add(TableChange(self.id, {"status": Status.CLOSED}), self)
        self.status = Status.CLOSED
        self.listing_changed()
        self.notify()

    def seen(self) -> None:
        """A page connected or left: the table is not idle."""
        self.active_at = self.clock.now()
        self.journal.add(TableChange(self.id, {"active_at": self.active_at}), self)

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
                if delay > 0 and not await self._quiet_for(delay):
                    continue
                await step()
                await asyncio.sleep(0)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s stopped", self.id)

    async def _quiet_for(self, delay: float) -> bool:
        """Wait ``delay`` seconds or until the table changes (:meth:`notify`), whichever
        comes first; True if the time ran out with no change.

        A timer that sets :attr:`wake` rather than ``asyncio.wait_for``: this is the wait
        before every bot's move, and wait_for costs a task, a future and their cancelling
        each time (issue 31)."""
        epoch, rang = self.epoch, False

        def ring() -> None:
            nonlocal rang
            rang = True
            self.wake.set()

        timer = self.clock.call_later(delay, ring)
        try:
            await self.wake.wait()
        finally:
            timer.cancel()
        return rang and self.epoch == epoch

    def plan(self) -> tuple[float, Step | None]:
        """What the driver does next and in how many seconds (no step: wait for a change)."""
        if not self.open:
            return 0.0, None
        if self.status == Status.WAITING:
            if all(s.joined for s in self.seats if s.human):
                return 0.0, self._deal_step
            fill = self.fill_at()
            if fill is None:
                return 0.0, None
            return max(0.0, fill - self.clock.now()), self._fill_step
        state = self.state
        assert state is not None
        now = self.clock.monotonic()
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
        window = self.window
        assert window is not None
        mover = state.to_move
        assert mover is not None
        bot_claims = any(self.by_bot(seat, now) for seat, _ in window.unanswered())
        if bot_claims or self.by_bot(mover, now):
            wait = self.settings.bot_delay
            if window.fresh({s.seat for s in self.seats if s.human}):
                wait = max(wait, self.settings.claim_window)
            return max(0.0, self.changed_at + wait - now), self._bot_step
        plans: list[tuple[float, Step | None]] = [(0.0, None)]
        if self.turn_seconds > 0:
            plans.append((max(0.0, self.turn_started + self.turn_seconds - now), self._timer_step))
        stand_in = self.stand_in_in(mover, now)
        if stand_in is not None:
            plans.append((stand_in, self._bot_step))
        return min(plans[1:], key=lambda p: p[0], default=plans[0])

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
        if self.lesson is None or state is None or self.status != Status.PLAYING:
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
        if self.status != Status.WAITING or fill is None or fill > self.clock.now():
            return
        for s in self.seats:
            if s.human and not s.joined:
                self.set_seat(s.seat, human=False)

    async def _bot_step(self) -> None:
        """The bots' claims (each bot once a version), then the move of the seat to move
        if a bot decides for it. What a bot chose is dropped if the table moved on while
        it thought, or if a stand-in's person came back meanwhile."""
        state, version, window = self.state, self.version, self.window
        assert state is not None and window is not None
        now = self.clock.monotonic()
        people = {s.seat for s in self.seats if not self.by_bot(s.seat, now)}
        while (ask := window.asking(skip=people)) is not None:
            seat, claims = ask
            window.let_pass(seat)  # asked once at this moment, whatever it answers
            choice = await self._think(seat, self.bots[seat].claim, state.view(seat), claims)
            if self.version != version:
                return
            if choice is not None and self.by_bot(seat, self.clock.monotonic()):
                self._submit_bot(choice, self._bot_source(seat), claims)
                return
        mover = state.to_move
        if mover is not None and self.by_bot(mover, now):
            _, legal = window.turn()
            action = await self._think(mover, self.bots[mover].act, state.view(mover), legal)
            if self.version == version and self.by_bot(mover, self.clock.monotonic()):
                self._submit_bot(action, self._bot_source(mover), legal)

    def _bot_source(self, seat: int) -> str:
        """A bot's move's source: ``bot`` at a bot's seat, ``away`` standing in for a person."""
        return "away" if self.seats[seat].human else "bot"

    async def _timer_step(self) -> None:
        state, version, window = self.state, self.version, self.window
        assert state is not None and window is not None
        seat, legal = window.turn()
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

    def frame(self, conn: Conn[Table]) -> str:
        """The state frame for ``conn`` (:meth:`.frames.Frames.frame`)."""
        return self.frames.frame(conn)

    def summary(self) -> dict[str, Any]:
        """What the lobby and the host are told of the table (:meth:`.frames.Frames.summary`),
        as another server's table tells it too (:class:`lald.web.site.remote.RemoteTable`)."""
        return self.frames.summary()

    def refusal(self, seat: int, action: Action, catalog: Catalog) -> str | None:
        """At a lesson table, why the learner's ``action`` is not made (the lesson's
        sentence naming its move, or asking to wait); None if it is the lesson's move or
        the table is no lesson."""
        state = self.state
        if self.lesson is None or seat != self.lesson.learner or state is None or state.over:
            return None
        note = self.lesson.refusal(state, action)
        return None if note is None else note_words(note, state, self.frames.names(catalog), catalog)

    def decision(self, seat: int) -> tuple[PlayerView, list[Action]] | None:
        """What ``seat`` may decide now, if anything: its view and its legal actions (on its
        turn, its turn actions and claims; out of turn, the claims it may make)."""
        state = self.state
        if self.status != Status.PLAYING or state is None or state.over:
            return None
        legal = state.legal_actions(seat)
        return (state.view(seat), legal) if legal else None

    def record(self, deal: int) -> State:
        """Deal ``deal`` (0-based) once it is over; a deal in play is not disclosed."""
        if not 0 <= deal < len(self.session.deals) or not self.session.deals[deal].over:
            raise KeyError(deal)
        return self.session.deals[deal]
