"""Who sits at a live table and who is there: the pages open on each seat, how long a
seat's person has been gone and when a bot stands in for them, whom the table waits for,
and the seats a stranger may still take at a public table.

:class:`Seats` is a base of :class:`lald.web.table.tables.Table`, which sets everything it
reads (each described there); the game and its driver stay in the table.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core import Session, State
from ...store import SeatData
from ..settings import Settings
from ..wire import Status

if TYPE_CHECKING:
    from ...clock import Clock
    from .conn import Conn
    from .lesson import Lesson


class Seats:
    """A live table's seats and the people at them."""

    seats: list[SeatData]
    conns: set[Conn[Any]]
    gone: dict[int, float]
    lesson: Lesson | None
    status: Status
    settings: Settings
    clock: Clock
    session: Session
    public: bool
    fill_seconds: float
    first_joined: float | None
    open_seats: frozenset[int]
    turn_seconds: float
    turn_started: float

    @property
    def state(self) -> State | None:
        """The current deal (the last one once it is over), or None before the first."""
        return self.session.deals[-1] if self.session.deals else None

    def connect(self, conn: Conn[Any]) -> None:
        """A page joined (or watches): a seat's person is back, at once."""
        self.conns.add(conn)
        if conn.seat is not None:
            self.gone.pop(conn.seat, None)

    def disconnect(self, conn: Conn[Any]) -> None:
        """A page left: its seat's person is gone from now if no other page of theirs is open."""
        self.conns.discard(conn)
        if conn.seat is not None and not self.online(conn.seat):
            self.gone.setdefault(conn.seat, self.clock.monotonic())

    def away(self, seat: int, now: float) -> float | None:
        """How long the person of ``seat`` has been gone during play (seconds); None if
        a page of theirs is open, the seat is a bot's, or no deal is being played."""
        since = self.gone.get(seat)
        if (since is None or not self.seats[seat].human or self.lesson is not None
                or self.status != Status.PLAYING or self.online(seat)):
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

    def fill_at(self) -> float | None:
        """When the bots take the empty seats of this public table (seconds since the
        epoch); None if they do not (a private table, no wait set, nobody joined yet, or
        play has begun)."""
        if (not self.public or self.fill_seconds <= 0 or self.status != Status.WAITING
                or self.first_joined is None):
            return None
        return self.first_joined + self.fill_seconds

    def free_seats(self) -> list[int]:
        """The open seats a stranger may still take: nobody has taken them, and no bot
        has (before the first deal)."""
        if not self.public or self.status != Status.WAITING:
            return []
        return [s.seat for s in self.seats
                if s.seat in self.open_seats and s.human and not s.joined and s.generation == 0]

    def accounts(self) -> set[int]:
        """The accounts seated here."""
        return {s.account for s in self.seats if s.account is not None}

    def online(self, seat: int) -> bool:
        """Whether a connection is open on ``seat``."""
        return any(c.seat == seat for c in self.conns)

    def absent(self) -> dict[str, Any]:
        """Whom the table waits for, gone, and for how long (``waiting_for``: the seat to
        move, seconds since their page left, seconds until their stand-in plays or None),
        and the seats a stand-in plays for now (``stand_ins``)."""
        state, now = self.state, self.clock.monotonic()
        if self.status != Status.PLAYING or state is None or state.over:
            return {"waiting_for": None, "stand_ins": []}
        stand_ins = [s.seat for s in self.seats if s.human and self.by_bot(s.seat, now)]
        mover, waiting = state.to_move, None
        gone = None if mover is None or mover in stand_ins else self.away(mover, now)
        if mover is not None and gone is not None:
            left = self.stand_in_in(mover, now)
            waiting = {"seat": mover, "away": round(gone, 1),
                       "stand_in": None if left is None else round(left, 1)}
        return {"waiting_for": waiting, "stand_ins": stand_ins}

    def deadline(self) -> float | None:
        """Seconds left on the clock of the seat to move, if the table has a timer."""
        state = self.state
        if self.turn_seconds <= 0 or state is None or state.over or state.to_move is None:
            return None
        if not self.seats[state.to_move].human:
            return None
        return round(max(0.0, self.turn_started + self.turn_seconds - self.clock.monotonic()), 1)
