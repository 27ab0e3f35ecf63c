"""The server's settings, and the token buckets that hold pages and clients to their rates.

:class:`Settings` is everything ``lald serve`` may set: the bots' pace, the limits on
messages, tables and connections, the review's and the hint's budgets. A :class:`Bucket`
limits one page's messages; :class:`Buckets` one per client address, for the lobby.
"""

from __future__ import annotations

import collections
import dataclasses

from ..clock import SYSTEM, Clock


@dataclasses.dataclass
class Settings:
    """The pace of the server's bots (seconds)."""

    bot_delay: float = 0.6
    """How long a bot waits before it acts, so people can follow the play."""
    claim_window: float = 1.5
    """How long bots hold back when a human seat has just been given a new claim."""
    deal_pause: float = 4.0
    """The pause before the next deal at a table of bots only."""
    threaded_bots: bool = True
    """Let slow bots think in a worker thread, so they do not stall other tables (quick
    ones think inline either way: see :class:`ThinkTimes`)."""
    away_seconds: float = 30.0
    """How long a person's page may be gone (a closed tab, a lost connection) before the
    bot of the seat's level plays for them, while another person is at the table; their
    seat is theirs again the moment they are back."""
    ping_seconds: float = 10.0
    """How often a page pings the server (its welcome tells it), so that a silent loss of
    the network is noticed on both ends."""
    pong_seconds: float = 10.0
    """How long a page waits for the pong of its ping before it counts the connection as
    lost and reconnects (its welcome tells it)."""
    silent_seconds: float = 30.0
    """A page that has sent nothing (no message, no ping) for this long is gone: its
    connection is dropped, so the host sees it offline and its seat counts as away. Longer
    than :attr:`ping_seconds`, or a live page would be dropped between its pings."""
    max_backlog: int = 256
    """Messages queued for one connection before it is dropped (it reconnects)."""
    idle_seconds: float = 24 * 3600.0
    """A table no page has been connected to for this long is closed."""
    reap_every: float = 60.0
    """How often idle tables are looked for (seconds)."""
    ws_rate: float = 20.0
    """Messages a second one page may send on average; a page that sends more, beyond
    :attr:`ws_burst`, is flooding and is disconnected."""
    ws_burst: float = 100.0
    """Messages one page may send at once."""
    create_rate: float = 30 / 3600
    """Tables a second one client address may open on average (30 an hour)."""
    create_burst: float = 10.0
    """Tables one client address may open at once."""
    allow_origins: tuple[str, ...] = ()
    """Origins besides the server's own from which pages may post and connect."""
    review_worlds: int = 1000
    """Sampled deals per decision in the expert's review of a finished deal (docs/review.md)."""
    review_queue: int = 16
    """Reviews that may wait for the expert at once; more are refused until there is room."""
    hint_worlds: int = 1000
    """Sampled deals at most per hint (:mod:`lald.web.table.hints`): the review's, so the hint is
    the review's rating of the decision (:data:`lald.coach.review.HINT_WORLDS`)."""
    hint_seconds: float = 2.0
    """The expert's time budget per hint (seconds): past it, the worlds drawn so far."""
    fill_seconds: int = 60
    """How long a public table that Play now opens waits for people, once its first
    person has joined, before bots take its empty seats (seconds)."""
    sit_rate: float = 120 / 3600
    """Seats one client address may take from the lobby a second on average (120 an hour)."""
    sit_burst: float = 20.0
    """Seats one client address may take from the lobby at once."""
    session_days: float = 30.0
    """A login session unused for this many days ends (:mod:`lald.web.people.accounts`)."""
    password_memory: int | None = None
    """argon2id's memory per password hash, in KiB (None: argon2-cffi's default, 64 MiB);
    the tests lower it."""
    hint_queue: int = 8
    """Hints that may wait for the expert or be made at once in the whole server; more are
    refused until there is room (one per seat at a time in any case)."""
    lab_queue: int = 3
    """Comparisons of the readings laboratory (``/readings``) that may wait while one plays;
    more are refused as busy (:mod:`lald.web.readings`)."""
    lab_per_hour: int = 20_000
    """Deals one client address may ask the laboratory for in an hour."""
    lab_seconds: float = 600.0
    """How long one comparison may play before it is stopped (seconds)."""


class Bucket:
    """A token bucket: ``burst`` tokens, refilled at ``rate`` a second.

    >>> b = Bucket(1.0, 2.0, now=0.0)
    >>> [b.take(0.0), b.take(0.0), b.take(0.0), b.take(1.0)]
    [True, True, False, True]
    """

    __slots__ = ("rate", "burst", "tokens", "at")

    def __init__(self, rate: float, burst: float, now: float) -> None:
        self.rate, self.burst, self.tokens, self.at = rate, burst, burst, now

    def ready(self, now: float) -> bool:
        """Whether there is a token to take."""
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        return self.tokens >= 1

    def take(self, now: float) -> bool:
        """Take one token if there is one."""
        if self.ready(now):
            self.tokens -= 1
            return True
        return False


class Buckets:
    """One :class:`Bucket` per key (a client's address), at most ``size`` of them: when
    full, the least recently used is forgotten (it comes back full)."""

    def __init__(self, rate: float, burst: float, size: int = 10_000, clock: Clock = SYSTEM) -> None:
        self.rate, self.burst, self.size = rate, burst, size
        self.clock = clock
        """What ``now`` is when a call does not say (:mod:`lald.clock`)."""
        self.buckets: collections.OrderedDict[str, Bucket] = collections.OrderedDict()

    def ready(self, key: str, now: float | None = None) -> bool:
        """Whether ``key``'s bucket has a token (taking none: a request that turns out to
        be refused spends nothing)."""
        now = self.clock.monotonic() if now is None else now
        bucket = self.buckets.get(key)
        return bucket is None or bucket.ready(now)

    def wait(self, key: str, now: float | None = None) -> float:
        """Seconds until ``key``'s bucket has a token (0: it has one now)."""
        now = self.clock.monotonic() if now is None else now
        bucket = self.buckets.get(key)
        if bucket is None or bucket.ready(now):
            return 0.0
        return (1 - bucket.tokens) / bucket.rate

    def take(self, key: str, now: float | None = None) -> bool:
        """Take a token from ``key``'s bucket."""
        now = self.clock.monotonic() if now is None else now
        bucket = self.buckets.pop(key, None)
        if bucket is None:
            bucket = Bucket(self.rate, self.burst, now)
            while len(self.buckets) >= self.size:
                self.buckets.popitem(last=False)
        self.buckets[key] = bucket
        return bucket.take(now)
