"""What a seat knows, read from its :class:`~lald.core.PlayerView` alone.

The public history is replayed backwards from the table now, so that the table is known
at every moment; from it come the inferences a careful player makes: the cards seen go
out of play, a seat that trailed held no card of any rank then on the table, a face-down
set of two came from a prial.  Search bots draw their worlds from this (see
:mod:`lald.bots.sampler`); the heuristic reads the counts.
"""

from __future__ import annotations

import dataclasses

from ..core import (
    Capture,
    Claimed,
    DealEnded,
    LaidDown,
    Operation,
    PlayerView,
    Status,
    TableMournival,
    Trail,
)
from ..core.actions import last_taker
from ..core.cards import NUM_RANKS
from ..core.codes import RANKS_OF, counts, presence
from ..core.fast import FastState


@dataclasses.dataclass(frozen=True, slots=True)
class HiddenSet:
    """A face-down hand set the seat did not see: who, how many cards, when."""

    seat: int
    count: int
    index: int
    """Its place in the history."""


@dataclasses.dataclass(frozen=True, slots=True)
class Removal:
    """Cards of one rank a seat put out of its hand, in plain sight."""

    seat: int
    rank: int
    count: int
    index: int


@dataclasses.dataclass(frozen=True, slots=True)
class CaptureChoice:
    """A turn capture another seat made, with what it saw then: evidence of the cards it
    held (a seat playing by scores takes its best-scored capture)."""

    seat: int
    kind: int
    """The capture's kind (:data:`~lald.core.codes.SINGLE` ... :data:`~lald.core.codes.PRIAL`)."""
    rank: int
    table: tuple[int, ...]
    """Per rank, the table's cards just before it."""
    won: tuple[int, ...]
    """Per rank, the cards this seat had seen go to won piles before it."""
    since: tuple[int, ...]
    """Per rank, the cards the capturing seat has put out of its hand from then on, in
    plain sight (its hand then is its hand now plus these)."""


@dataclasses.dataclass(frozen=True, slots=True)
class Knowledge:
    """The seat's knowledge of the deal, in per-rank counts."""

    view: PlayerView
    seat: int
    hand: list[int]
    table: list[int]
    unknown: list[int]
    """Per rank: the cards whose place this seat does not know (other hands, and other
    seats' face-down sets)."""
    sizes: list[int]
    """Hand sizes."""
    hidden_sets: list[HiddenSet]
    forbidden: list[int]
    """Per seat: a 13-bit mask of ranks its hand cannot hold now (it trailed with them
    on the table)."""
    trail_tables: list[tuple[int, int, int]]
    """(seat, history index, 13-bit mask of the table's ranks) for every trail."""
    removals: list[Removal]
    """Every card that left a hand face up, by seat, rank and time."""
    last_actor: int
    keeps_dead: frozenset[int]
    """Seats seen keeping a dead rank in hand through a claim window (:func:`keepers`)."""
    keeps_sets: frozenset[int]
    """Seats seen holding three or four of a rank after foreplay (:func:`keepers`)."""
    choices: tuple[CaptureChoice, ...] = ()
    """The turn captures of the other seats that still hold cards, oldest first."""

    @property
    def others(self) -> list[int]:
        """The other seats that still hold cards."""
        return [s for s in range(self.view.players) if s != self.seat and self.sizes[s]]

    def world(self, hands: list[list[int]]) -> FastState:
        """The fast state of a world whose hands are ``hands`` (this seat's own included)."""
        v = self.view
        won = list(v.won_sizes)
        pot_before = v.pot - v.rules.antes if not v.over else v.pot
        return FastState.from_world(
            v.rules, hands, self.table, won, [st is Status.LAIN_DOWN for st in v.statuses],
            v.dealer, v.to_move, v.foreplay, v.last_capture, self.last_actor, pot_before, v.over,
            last_taker(v.history))

    def outside(self) -> list[int]:
        """Per rank: how many live cards lie in other hands, as far as this seat knows (the
        face-down sets it did not see are counted as if they were live)."""
        return list(self.unknown)


def last_actor(view: PlayerView) -> int:
    """The seat that acted last (-1 before the first action), read from the history."""
    for op in reversed(view.history):
        if isinstance(op, (Capture, Claimed, LaidDown, Trail)):
            return op.seat
    return -1


def seat_counts(view: PlayerView) -> tuple[list[int], list[int], list[int]]:
    """Per rank: the seat's hand, the table, and the cards whose place the seat does not
    know (:attr:`Knowledge.unknown`: neither in its hand nor on the table nor seen going
    to a won pile), read from ``view`` without its history."""
    hand = counts(_mask(view.hand))
    seen = [0] * NUM_RANKS
    for pile in view.won_seen:
        for c in pile:
            seen[c >> 2] += 1
    table = counts(_mask(view.table))
    return hand, table, [4 - hand[r] - table[r] - seen[r] for r in range(NUM_RANKS)]


def read(view: PlayerView) -> Knowledge:
    """Everything ``view`` tells about where the cards are."""
    seat, n = view.seat, view.players
    hand, table, unknown = seat_counts(view)
    table_now = _mask(view.table)
    hidden: list[HiddenSet] = []
    removals: list[Removal] = []
    trails: list[tuple[int, int, int]] = []
    before: dict[int, tuple[int, ...]] = {}  # the table before each capture by another seat holding cards
    # Walk back from the table now to know the table before every operation.
    t = table_now
    history = view.history
    for i in range(len(history) - 1, -1, -1):
        op = history[i]
        if isinstance(op, Capture):
            for c in op.take:
                t |= 1 << c
            removals.append(Removal(op.seat, op.play[0] >> 2, len(op.play), i))
            if op.seat != seat and view.hand_sizes[op.seat]:
                before[i] = tuple(counts(t))
        elif isinstance(op, Claimed):
            if op.cards is None:
                hidden.append(HiddenSet(op.seat, op.count, i))
            elif op.kind.value == "spotter":
                for c in op.cards:
                    t |= 1 << c
            else:
                removals.append(Removal(op.seat, op.cards[0] >> 2, len(op.cards), i))
        elif isinstance(op, LaidDown):
            for c in op.cards:
                t &= ~(1 << c)
            laid = counts(_mask(op.cards))
            removals.extend(Removal(op.seat, r, c, i) for r, c in enumerate(laid) if c)
        elif isinstance(op, Trail):
            t &= ~(1 << op.card)
            trails.append((op.seat, i, presence(counts(t))))
            removals.append(Removal(op.seat, op.card >> 2, 1, i))
        elif isinstance(op, DealEnded):
            t |= _mask(op.table)  # the residue left the table as the deal ended
        elif isinstance(op, TableMournival):
            continue
    forbidden = [0] * n
    for s, _, ranks in trails:
        forbidden[s] |= ranks
    keeps_dead, keeps_sets = keepers(view)
    removals.reverse()
    return Knowledge(
        view=view, seat=seat, hand=hand, table=table, unknown=unknown,
        sizes=list(view.hand_sizes), hidden_sets=hidden[::-1], forbidden=forbidden,
        trail_tables=trails[::-1], removals=removals, last_actor=last_actor(view),
        keeps_dead=keeps_dead, keeps_sets=keeps_sets, choices=_choices(view, before, removals))


_KIND_OF = {(1, 1): 0, (1, 3): 1, (2, 2): 2, (3, 1): 3}


def _count_won(op: Operation, won: list[int]) -> None:
    """Add the cards ``op`` moved into a won pile (a capture's, a claim's) to ``won``, by rank."""
    if isinstance(op, Capture):
        cards: tuple[int, ...] = (*op.play, *op.take)
    elif isinstance(op, Claimed) and op.cards is not None:
        cards = op.cards
    else:
        return
    for c in cards:
        won[c >> 2] += 1


def _choices(view: PlayerView, before: dict[int, tuple[int, ...]],
             removals: list[Removal]) -> tuple[CaptureChoice, ...]:
    """The :class:`CaptureChoice` of each capture in ``before`` (history index: table)."""
    out = []
    won = [0] * NUM_RANKS
    for i, op in enumerate(view.history):
        if i in before and isinstance(op, Capture):
            since = [0] * NUM_RANKS
            for x in removals:
                if x.seat == op.seat and x.index >= i:
                    since[x.rank] += x.count
            out.append(CaptureChoice(op.seat, _KIND_OF[len(op.play), len(op.take)], op.play[0] >> 2,
                                     before[i], tuple(won), tuple(since)))
        _count_won(op, won)
    return tuple(out)


TABLE = -1
"""A place in :func:`_moved`: the table (other places are seats' hands)."""


def _moved(op: Operation) -> list[tuple[int, int]]:
    """The (rank, place) pairs whose cards ``op`` moved, as far as a seat can see."""
    if isinstance(op, Capture):
        r = op.play[0] >> 2
        return [(r, op.seat), (r, TABLE)]
    if isinstance(op, Claimed):
        if op.cards is None:
            return []  # a face-down set: its rank is not seen
        r = op.cards[0] >> 2
        return [(r, TABLE if op.kind.value == "spotter" else op.seat)]
    if isinstance(op, LaidDown):
        ranks = RANKS_OF[presence(counts(_mask(op.cards)))]
        return [pair for r in ranks for pair in ((r, op.seat), (r, TABLE))]
    if isinstance(op, Trail):
        return [(op.card >> 2, op.seat), (op.card >> 2, TABLE)]
    if isinstance(op, TableMournival):
        return [(op.cards[0] >> 2, TABLE)]
    return []


def keepers(view: PlayerView) -> tuple[frozenset[int], frozenset[int]]:
    """The other seats the history shows keeping cards that a seat playing the heuristic
    would have laid aside: (a dead rank through a claim window, three or more of a rank
    after foreplay).

    Hands only shrink, so a seat that shows cards of its hand held them from the deal on.
    A rank is dead in a hand from the last moment a card of it moved anywhere else; a seat
    that lays it into its won pile after a turn action came in between, or throws it on
    the table as it lies down, let a claim window pass with it (every window is offered
    to every seat before the next turn action; only under ``dead_claims = any_time``,
    where that claim is open in every window).  A seat that shows three cards of one rank
    from its hand after foreplay held a prial when foreplay ended, where the heuristic sets
    every prial aside."""
    dead: set[int] = set()
    sets: set[int] = set()
    any_time = view.rules.dead_claims.value == "any_time"
    last_moved: dict[tuple[int, int], int] = {}  # (rank, place): the last operation that moved it
    won = [0] * NUM_RANKS  # cards of each rank seen going to a won pile so far
    shown: dict[tuple[int, int], int] = {}  # (seat, rank): cards shown leaving the hand after foreplay
    last_turn = -1
    foreplay = True
    me = view.seat

    def elsewhere(r: int, seat: int) -> int:
        """The last operation that moved a card of rank ``r`` outside ``seat``'s hand."""
        return max((i for (q, place), i in last_moved.items() if q == r and place != seat), default=-1)

    for i, op in enumerate(view.history):
        seat = getattr(op, "seat", me)
        if seat != me and any_time:
            if isinstance(op, Claimed) and op.kind.value == "dead" and op.cards is not None:
                if elsewhere(op.cards[0] >> 2, seat) < last_turn:
                    dead.add(seat)
            elif isinstance(op, LaidDown):
                for r, c in enumerate(counts(_mask(op.cards))):
                    if c and c + won[r] == 4:
                        dead.add(seat)  # it lay down holding every live card of r
        turn = isinstance(op, (Capture, LaidDown, Trail))
        if not foreplay and seat != me:
            cards: tuple[int, ...] = ()
            if isinstance(op, Capture):
                cards = op.play
            elif isinstance(op, (LaidDown, Claimed)) and op.cards is not None and (
                    not isinstance(op, Claimed) or op.kind.value != "spotter"):
                cards = op.cards
            elif isinstance(op, Trail):
                cards = (op.card,)
            for c in cards:
                key = (seat, c >> 2)
                shown[key] = shown.get(key, 0) + 1
                if shown[key] >= 3:
                    sets.add(seat)
        _count_won(op, won)
        for pair in _moved(op):
            last_moved[pair] = i
        if turn:
            last_turn = i
            foreplay = False
    return frozenset(dead), frozenset(sets)


def _mask(cards: tuple[int, ...]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def fill(k: Knowledge) -> list[list[int]]:
    """Hands for every seat with the unknown cards handed out in rank order, respecting
    sizes and forbidden ranks where it can (no randomness: for policies that read only
    their own hand and public counts, which is all the heuristic does)."""
    n = k.view.players
    pool = list(k.unknown)
    hands = [[0] * NUM_RANKS for _ in range(n)]
    hands[k.seat] = list(k.hand)
    for s in k.others:
        need = k.sizes[s]
        for strict in (True, False):
            for r in range(NUM_RANKS):
                if need and pool[r] and not (strict and k.forbidden[s] >> r & 1):
                    take = min(need, pool[r])
                    hands[s][r] += take
                    pool[r] -= take
                    need -= take
    return hands
