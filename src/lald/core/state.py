"""One deal as a state machine (RULES.md §2–§6).

>>> from .rules import Rules
>>> s = State.deal(Rules.make(), seed=1)
>>> s.to_move == s.eldest == 1, len(s.hand(1)), len(s.table)
(True, 8, 12)
>>> while not s.over:
...     _ = s.apply(s.turn_actions()[0])
>>> sum(s.result.won), s.result.pot_after
(52, 0)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache
from itertools import combinations
from typing import TYPE_CHECKING

from .actions import (
    Action,
    Capture,
    CaptureKind,
    Claim,
    Claimed,
    ClaimKind,
    DealEnded,
    LaidDown,
    LieDown,
    Operation,
    Status,
    TableMournival,
    Trail,
)
from .cards import (
    CARDS,
    NIBBLE_COUNT,
    NUM_CARDS,
    NUM_RANKS,
    RANK_NAMES,
    RANK_PLURALS,
    Card,
    cards_of,
    format_cards,
    mask_of,
)
from .rng import PortableRandom
from .rules import LAYOUTS, DeadClaims, HandSetTiming, NoCapture, Rules, SingleTakesThree
from .scoring import DealResult, settle

if TYPE_CHECKING:
    from .view import PlayerView


class IllegalActionError(ValueError):
    """An action the rules do not allow now; the message is a sentence for a player."""


class LayoutError(ValueError):
    """A deal layout (hands and table) that is not a deal of these rules."""


@cache
def _nibble_cards(rank: int, nibble: int) -> tuple[Card, ...]:
    return tuple(CARDS[4 * rank + i] for i in range(4) if nibble >> i & 1)


def _captures(
    seat: int, rank: int, h: int, t: int, sweep: SingleTakesThree, pairs: bool, prials: bool
) -> tuple[Capture, ...]:
    """Every capture of ``rank`` with hand nibble ``h`` and table nibble ``t``."""
    hand, table = _nibble_cards(rank, h), _nibble_cards(rank, t)
    out: list[Capture] = []
    if not (len(table) == 3 and sweep is SingleTakesThree.FORCED):
        out += [Capture(seat, (x,), (y,)) for x in hand for y in table]
    if len(table) == 3 and sweep is not SingleTakesThree.OFF:
        out += [Capture(seat, (x,), table) for x in hand]
    if pairs and len(hand) >= 2 and len(table) >= 2:
        out += [Capture(seat, p, q) for p in combinations(hand, 2) for q in combinations(table, 2)]
    if prials and len(hand) >= 3:
        out += [Capture(seat, p, (y,)) for p in combinations(hand, 3) for y in table]
    return tuple(out)


def _claim_set(seat: int, rank: int, nibble: int) -> tuple[Claim, ...]:
    """The claims of the cards ``nibble`` of ``rank``: two of a prial (three ways), else all."""
    cards = _nibble_cards(rank, nibble)
    if len(cards) == 3:
        return tuple(Claim(seat, p) for p in combinations(cards, 2))
    return (Claim(seat, cards),)


#: ``_CLAIMS[seat][4 * rank + nibble]``: the claims of those cards, made once.
_CLAIMS = [[_claim_set(seat, i >> 4, i & 15) if i & 15 else () for i in range(16 * NUM_RANKS)]
           for seat in range(max(LAYOUTS))]


def _claims_of(seat: int, rank: int, nibble: int) -> tuple[Claim, ...]:
    return _CLAIMS[seat][rank << 4 | nibble]


_ONES = int("1" * NUM_RANKS, 16)  # bit 0 of every rank's nibble


def _nonzero(m: int) -> int:
    """Bit 4r set where rank r's nibble of ``m`` is not empty."""
    m |= m >> 1
    m |= m >> 2
    return m & _ONES


def _at_least_three(m: int) -> int:
    """Bit 4r set where rank r's nibble of ``m`` holds three or four cards."""
    c = m - ((m >> 1) & (_ONES * 5))
    c = (c & (_ONES * 3)) + ((c >> 2) & (_ONES * 3))
    return ((c >> 2) | (c >> 1 & c)) & _ONES


def _plural(rank: int) -> str:
    return RANK_PLURALS[rank]


#: Captures by (seat, rank, hand nibble, table nibble), one table per capture options; and
#: for each capture in it, by ``id``: its card sets and the nibbles that make it legal (the
#: table keeps those objects alive, so their ids stay theirs).
_CaptureInfo = tuple[int, int, int, int, int]
_CAPTURE_TABLES: dict[tuple[SingleTakesThree, bool, bool],
                      tuple[dict[int, tuple[Capture, ...]], dict[int, _CaptureInfo]]] = {}


class State:
    """One deal: hands, table, won piles, whose turn, and the history of operations.

    Build it with :meth:`deal` (from a seed) or :meth:`from_layout`; ask it for
    :meth:`turn_actions`, :meth:`claims`, :meth:`legal_actions`; change it only with
    :meth:`apply`, which checks the action and leaves the state untouched if it is illegal.
    Card sets are 52-bit masks (see :mod:`lald.core.cards`).
    """

    __slots__ = (
        "rules", "n", "dealer", "eldest", "hands", "table_mask", "won", "face_down",
        "lain", "to_move", "foreplay", "over", "last_capture", "last_actor", "pot_before",
        "balances_before", "history", "actions", "dealt_hands", "dealt_table", "result",
        "seed", "holding", "_capture_table", "_claim_flags", "_dead", "_spotted", "_live", "_capture_ids",
    )

    rules: Rules
    n: int
    dealer: int
    eldest: int
    hands: list[int]
    table_mask: int
    won: list[int]
    face_down: list[int]
    lain: list[bool]
    to_move: int | None
    foreplay: bool
    over: bool
    last_capture: int | None
    last_actor: int | None
    pot_before: int
    balances_before: tuple[int, ...]
    history: list[Operation]
    actions: list[Action]
    dealt_hands: tuple[int, ...]
    dealt_table: int
    result: DealResult | None
    seed: int | None
    holding: int
    _capture_table: dict[int, tuple[Capture, ...]]
    _capture_ids: dict[int, _CaptureInfo]
    _claim_flags: tuple[bool, bool, bool, bool]
    _dead: int
    """Bit 4r set while rank r's live cards all lie in one hand."""
    _spotted: int
    """Bit 4r set while rank r's live cards all lie on the table."""
    _live: int
    """The live cards: in a hand or on the table."""

    # -- construction -------------------------------------------------------------------

    @classmethod
    def deal(
        cls,
        rules: Rules,
        seed: int,
        dealer: int = 0,
        pot: int = 0,
        balances: Sequence[int] | None = None,
    ) -> State:
        """Shuffle with the portable generator and deal, one card at a time from the eldest."""
        deck = list(range(NUM_CARDS))
        PortableRandom(seed).shuffle(deck)
        n = rules.players
        hands = [0] * n
        dealt = n * rules.hand_size
        for k in range(n):  # one card at a time clockwise: the k-th seat from the eldest
            hands[(dealer + 1 + k) % n] = mask_of(deck[k:dealt:n])
        table = mask_of(deck[dealt:])
        state = cls._start(rules, tuple(hands), table, dealer, pot, balances)
        state.seed = seed
        return state

    @classmethod
    def from_layout(
        cls,
        rules: Rules,
        hands: Sequence[Iterable[Card]],
        table: Iterable[Card],
        dealer: int = 0,
        pot: int = 0,
        balances: Sequence[int] | None = None,
    ) -> State:
        """Start from an explicit layout as dealt (before the table-mournival automation)."""
        n = rules.players
        if len(hands) != n:
            raise LayoutError(f"the layout has {len(hands)} hands; {n} players need {n}")
        masks = []
        seen = 0
        for seat, hand in enumerate([*hands, table]):
            cards = list(hand)
            m = mask_of(cards)
            where = f"hand {seat}" if seat < n else "the table"
            if m.bit_count() != len(cards) or m & seen:
                dup = next(c for i, c in enumerate(cards) if c in cards[:i] or seen >> c & 1)
                raise LayoutError(f"card {dup} is dealt twice (in {where})")
            want = rules.hand_size if seat < n else rules.table_size
            if len(cards) != want:
                raise LayoutError(f"{where} has {len(cards)} cards; it must have {want}")
            seen |= m
            masks.append(m)
        return cls._start(rules, tuple(masks[:n]), masks[n], dealer, pot, balances)

    @classmethod
    def _start(
        cls,
        rules: Rules,
        hands: tuple[int, ...],
        table: int,
        dealer: int,
        pot: int,
        balances: Sequence[int] | None,
    ) -> State:
        n = rules.players
        if not 0 <= dealer < n:
            raise LayoutError(f"there is no seat {dealer} to deal: seats are 0 to {n - 1}")
        s = cls.__new__(cls)
        s.rules, s.n, s.dealer, s.eldest = rules, n, dealer, (dealer + 1) % n
        s.dealt_hands, s.dealt_table = hands, table
        s.hands, s.table_mask = list(hands), table
        s.won, s.face_down, s.lain = [0] * n, [0] * n, [False] * n
        s.to_move, s.foreplay, s.over = s.eldest, True, False
        s.last_capture = s.last_actor = None
        s.pot_before = pot
        s.balances_before = tuple(balances) if balances is not None else (0,) * n
        if len(s.balances_before) != n:
            raise LayoutError(f"{len(s.balances_before)} balances given for {n} players")
        s.history, s.actions, s.result, s.seed = [], [], None, None
        s.holding = n
        s._dead = s._spotted = 0
        key = (rules.single_takes_three, rules.pair_on_pair, rules.prial_on_single)
        s._capture_table, s._capture_ids = _CAPTURE_TABLES.setdefault(key, ({}, {}))
        own_sets = rules.hand_set_timing is HandSetTiming.FOREPLAY_OR_OWN_TURN
        s._claim_flags = (
            rules.hand_sets and own_sets,
            rules.dead_claims is DeadClaims.ANY_TIME,
            rules.dead_claims is not DeadClaims.OFF,
            rules.spotter_claims,
        )
        if rules.table_mournival_to_dealer:
            fours = table & table >> 1 & table >> 2 & table >> 3 & _ONES
            while fours:
                low = fours & -fours
                fours ^= low
                m = low * 15
                s.table_mask ^= m
                s.won[dealer] |= m
                s.history.append(TableMournival(dealer, cards_of(m)))
        s._recount()
        return s

    def clone(self) -> State:
        """An independent copy."""
        c = State.__new__(State)
        c.rules, c.n, c.dealer, c.eldest = self.rules, self.n, self.dealer, self.eldest
        c.hands, c.table_mask, c.won, c.face_down, c.lain = (
            self.hands[:], self.table_mask, self.won[:], self.face_down[:], self.lain[:])
        c.to_move, c.foreplay, c.over = self.to_move, self.foreplay, self.over
        c.last_capture, c.last_actor = self.last_capture, self.last_actor
        c.pot_before, c.balances_before = self.pot_before, self.balances_before
        c.history, c.actions = self.history[:], self.actions[:]
        c.dealt_hands, c.dealt_table = self.dealt_hands, self.dealt_table
        c.result, c.seed, c.holding = self.result, self.seed, self.holding
        c._capture_table, c._claim_flags = self._capture_table, self._claim_flags
        c._capture_ids = self._capture_ids
        c._dead, c._spotted, c._live = self._dead, self._spotted, self._live
        return c

    def _recount(self) -> None:
        """Recompute the live cards and the dead and spotted ranks from scratch."""
        live = self.table_mask
        for h in self.hands:
            live |= h
        self._live = live
        live_nz = _nonzero(live)
        self._spotted = _nonzero(self.table_mask) & ~_nonzero(live & ~self.table_mask)
        dead = 0
        for h in self.hands:
            dead |= live_nz & ~_nonzero(h ^ live)
        self._dead = dead

    def _rescan(self, cards: int) -> None:
        """Recompute which ranks are dead in a hand or spotted on the table, for the
        ranks of ``cards`` (the ranks an action touched)."""
        flags = cards | cards >> 1
        flags = (flags | flags >> 2) & _ONES
        if flags & (flags - 1):  # several ranks: all of them at once
            self._recount()
            return
        table, hands, all_live = self.table_mask, self.hands, self._live
        dead, spotted = self._dead & ~flags, self._spotted & ~flags
        while flags:
            low = flags & -flags
            flags ^= low
            shift = low.bit_length() - 1
            t = (table >> shift) & 15
            live = (all_live >> shift) & 15
            if not live:
                continue
            if t == live:
                spotted |= low
            elif not t:
                for h in hands:
                    if (h >> shift) & 15 == live:
                        dead |= low
                        break
        self._dead, self._spotted = dead, spotted

    # -- what is where ------------------------------------------------------------------

    def hand(self, seat: int) -> tuple[Card, ...]:
        """The cards in ``seat``'s hand."""
        return cards_of(self.hands[seat])

    @property
    def table(self) -> tuple[Card, ...]:
        """The face-up cards on the table."""
        return cards_of(self.table_mask)

    def won_cards(self, seat: int) -> tuple[Card, ...]:
        """The cards in ``seat``'s won pile."""
        return cards_of(self.won[seat])

    def status(self, seat: int) -> Status:
        """Playing, lain down, or out with an empty hand."""
        if self.lain[seat]:
            return Status.LAIN_DOWN
        return Status.PLAYING if self.hands[seat] else Status.EMPTY

    def live_mask(self) -> int:
        """All live cards: in a hand or on the table."""
        return self._live

    def dead_ranks(self) -> list[int]:
        """Ranks whose live cards all lie in one place (RULES.md §3)."""
        live = self.live_mask()
        out = []
        for r in range(NUM_RANKS):
            lv = (live >> 4 * r) & 15
            if lv and any((p >> 4 * r) & 15 == lv for p in (self.table_mask, *self.hands)):
                out.append(r)
        return out

    @property
    def pot(self) -> int:
        """The pot now: what was carried in, the antes, and the settlement once over."""
        if self.result is not None:
            return self.result.pot_after
        return self.pot_before + self.rules.antes

    def chips(self) -> tuple[int, ...]:
        """Each seat's change for this deal so far (antes now, settlement once over)."""
        if self.result is not None:
            return self.result.chips
        if not self.rules.antes:
            return (0,) * self.n
        r = self.rules
        return tuple(-(r.ante_dealer if s == self.dealer else r.ante_other) for s in range(self.n))

    def claim_order(self) -> list[int]:
        """The seats in the order open claims are offered: clockwise from the left of
        the seat that acted last (from the eldest before the first action)."""
        first = self.eldest if self.last_actor is None else (self.last_actor + 1) % self.n
        return [(first + i) % self.n for i in range(self.n)]

    # -- legal actions ------------------------------------------------------------------

    def turn_actions(self) -> list[Action]:
        """The turn actions of the seat to move (empty once the deal is over)."""
        if self.over or self.to_move is None:
            return []
        seat = self.to_move
        return self._turn_actions(seat)

    def _turn_actions(self, seat: int) -> list[Action]:
        hand, table, rules = self.hands[seat], self.table_mask, self.rules
        out: list[Action] = []
        h = hand | hand >> 1
        t = table | table >> 1
        flags = (h | h >> 2) & (t | t >> 2) & _ONES
        known = self._capture_table
        while flags:
            low = flags & -flags
            flags ^= low
            shift = low.bit_length() - 1
            key = seat << 16 | shift << 8 | ((hand >> shift) & 15) << 4 | (table >> shift) & 15
            caps = known.get(key)
            if caps is None:
                h, t = (hand >> shift) & 15, (table >> shift) & 15
                caps = known[key] = _captures(seat, shift >> 2, h, t, rules.single_takes_three,
                                              rules.pair_on_pair, rules.prial_on_single)
                for c in caps:
                    self._capture_ids[id(c)] = (mask_of(c.play), mask_of(c.take), shift, h, t)
            out.extend(caps)
        if out:
            return out
        if rules.no_capture is NoCapture.LIE_DOWN:
            return [LieDown(seat)]
        return [Trail(seat, c) for c in cards_of(hand)]

    def _windows(self, seat: int) -> tuple[bool, bool]:
        """Whether ``seat`` may now make hand sets, and dead-rank claims."""
        rules = self.rules
        own = seat == self.to_move
        hand_set = rules.hand_sets and (
            self.foreplay or (own and rules.hand_set_timing is HandSetTiming.FOREPLAY_OR_OWN_TURN))
        dead = rules.dead_claims is DeadClaims.ANY_TIME or (
            own and rules.dead_claims is DeadClaims.OWN_TURN)
        return hand_set, dead

    def claims(self, seat: int) -> list[Claim]:
        """Every claim ``seat`` may make now."""
        if self.over:
            return []
        live = self.live_mask()
        out = self._hand_claims(seat, live) if self.hands[seat] else []
        if self.rules.spotter_claims:
            out.extend(self._spotter_claims(seat, live))
        return out

    def _hand_claims(self, seat: int, live: int) -> list[Claim]:
        hand = self.hands[seat]
        hand_set, dead = self._windows(seat)
        flags = 0
        if hand_set:
            flags |= _at_least_three(hand)
        if dead:
            flags |= _nonzero(hand) & ~_nonzero(hand ^ live)
        out: list[Claim] = []
        while flags:
            low = flags & -flags
            flags ^= low
            shift = low.bit_length() - 1
            out.extend(_claims_of(seat, shift >> 2, (hand >> shift) & 15))
        return out

    def _spotter_claims(self, seat: int, live: int) -> list[Claim]:
        table = self.table_mask
        flags = _nonzero(table) & ~_nonzero(live & ~table)
        out = []
        while flags:
            low = flags & -flags
            flags ^= low
            shift = low.bit_length() - 1
            out.append(_claims_of(seat, shift >> 2, (table >> shift) & 15)[0])
        return out

    def open_claims(self) -> list[Claim]:
        """Every claim any seat may make now, seats in :meth:`claim_order`."""
        if self.over:
            return []
        hands, table, mover, n = self.hands, self.table_mask, self.to_move, self.n
        own_sets, dead_all, dead_own, spotter = self._claim_flags
        sets_all = self.foreplay and self.rules.hand_sets
        if not (spotter and self._spotted or sets_all):
            dead = self._dead if dead_all or dead_own else 0
            if not dead and not own_sets:
                return []
            assert mover is not None
            if not (dead and dead_all) and not (
                    dead and _nonzero(hands[mover]) & dead
                    or own_sets and _at_least_three(hands[mover])):
                return []
        spot = self._spotted if spotter else 0
        flags = [0] * n
        dead = self._dead if dead_all or dead_own else 0
        while dead:  # each dead rank lies in exactly one hand
            low = dead & -dead
            dead ^= low
            shift = low.bit_length() - 1
            for seat, hand in enumerate(hands):
                if (hand >> shift) & 15:
                    if dead_all or seat == mover:
                        flags[seat] |= low
                    break
        if sets_all:
            for seat, hand in enumerate(hands):
                if hand:
                    flags[seat] |= _at_least_three(hand)
        elif own_sets:
            assert mover is not None
            flags[mover] |= _at_least_three(hands[mover])
        if not spot and not any(flags):
            return []
        out: list[Claim] = []
        first = self.eldest if self.last_actor is None else self.last_actor + 1
        for i in range(first, first + n):
            seat = i % n
            f = flags[seat]
            hand = hands[seat]
            claims = _CLAIMS[seat]
            while f:
                low = f & -f
                f ^= low
                shift = low.bit_length() - 1
                out.extend(claims[shift << 2 | (hand >> shift) & 15])
            f = spot
            while f:
                low = f & -f
                f ^= low
                shift = low.bit_length() - 1
                out.append(claims[shift << 2 | (table >> shift) & 15][0])
        return out

    def legal_actions(self, seat: int) -> list[Action]:
        """Everything ``seat`` may do now: its turn actions if it is to move, then claims."""
        out: list[Action] = list(self.turn_actions()) if seat == self.to_move else []
        out.extend(self.claims(seat))
        return out

    def can_capture(self, seat: int) -> bool:
        """Whether ``seat`` holds a card whose rank is on the table."""
        return bool(_nonzero(self.hands[seat]) & _nonzero(self.table_mask))

    # -- checking -----------------------------------------------------------------------

    def can(self, action: Action) -> bool:
        """Whether ``action`` is legal now."""
        try:
            self.verify(action)
        except IllegalActionError:
            return False
        return True

    def verify(self, action: Action) -> None:
        """Raise :class:`IllegalActionError` with a sentence if ``action`` is illegal now."""
        self._check(action)

    def _check_seat(self, seat: int) -> None:
        if self.over:
            raise IllegalActionError("the deal is over")
        if type(seat) is not int or not 0 <= seat < self.n:
            raise IllegalActionError(f"there is no seat {seat}: seats are 0 to {self.n - 1}")

    def _check_turn(self, seat: int) -> None:
        self._check_seat(seat)
        if seat != self.to_move:
            raise IllegalActionError(f"it is seat {self.to_move}'s turn, not seat {seat}'s")

    def _check_cards(self, cards: tuple[Card, ...], what: str) -> int:
        if not cards:
            raise IllegalActionError(f"{what} names no cards")
        m = mask_of(cards)
        if m.bit_count() != len(cards):
            dup = next(c for i, c in enumerate(cards) if c in cards[:i])
            raise IllegalActionError(f"{what} names {dup} twice")
        if m & ~(15 << (cards[0] & ~3)):
            a, b = sorted({c for c in cards}, key=lambda c: c.rank)[::len(cards) - 1][:2]
            raise IllegalActionError(f"{what} takes cards of one rank only: {a} and {b} differ")
        return m

    def _check(self, action: Action) -> tuple[int, ...]:
        """Check ``action``; return what applying it needs to know."""
        if type(action) is Capture:
            return self._check_capture(action)
        if type(action) is Claim:
            return self._check_claim(action)
        if isinstance(action, LieDown):
            self._check_turn(action.seat)
            if self.rules.no_capture is not NoCapture.LIE_DOWN:
                raise IllegalActionError(
                    "under the modern laugh a seat that cannot capture trails a card instead")
            self._check_no_capture(action.seat, "lie down")
            return ()
        if isinstance(action, Trail):
            self._check_turn(action.seat)
            if self.rules.no_capture is not NoCapture.TRAIL:
                raise IllegalActionError(
                    "a seat that cannot capture lies down; trailing is the modern-laugh variant")
            self._check_no_capture(action.seat, "trail")
            if not self.hands[action.seat] >> action.card & 1:
                raise IllegalActionError(f"seat {action.seat} does not hold {action.card}")
            return ()
        raise IllegalActionError(f"{action!r} is not an action")

    def _check_no_capture(self, seat: int, what: str) -> None:
        if not self.can_capture(seat):
            return
        caps = self._turn_actions(seat)
        if caps and isinstance(caps[0], Capture):
            raise IllegalActionError(
                f"seat {seat} can capture ({format_cards(caps[0].play)} takes "
                f"{format_cards(caps[0].take)}), so it may not {what}")

    def _check_capture(self, a: Capture) -> tuple[int, ...]:
        info = self._capture_ids.get(id(a))
        if info is not None:  # one of the engine's own capture objects: check its nibbles
            play, take, shift, h, t = info
            seat = a.seat
            if (seat == self.to_move and (self.hands[seat] >> shift) & 15 == h
                    and (self.table_mask >> shift) & 15 == t):
                return (play, take)
        seat, play_cards, take_cards = a.seat, a.play, a.take
        if seat == self.to_move and play_cards and take_cards:
            play = take = 0
            for c in play_cards:
                play |= 1 << c
            for c in take_cards:
                take |= 1 << c
            rank = take_cards[0] >> 2
            table = self.table_mask
            if (play.bit_count() == len(play_cards) and take.bit_count() == len(take_cards)
                    and not (play | take) & ~(15 << 4 * rank)
                    and not play & ~self.hands[seat] and not take & ~table):
                kind = a.kind
                rules = self.rules
                if (kind is CaptureKind.SINGLE and not (
                        rules.single_takes_three is SingleTakesThree.FORCED
                        and NIBBLE_COUNT[(table >> 4 * rank) & 15] == 3)
                        or kind is CaptureKind.SWEEP
                        and rules.single_takes_three is not SingleTakesThree.OFF
                        or kind is CaptureKind.PAIR and rules.pair_on_pair
                        or kind is CaptureKind.PRIAL and rules.prial_on_single):
                    return (play, take)
        return self._diagnose_capture(a)

    def _diagnose_capture(self, a: Capture) -> tuple[int, ...]:
        """The slow path of :meth:`_check_capture`: find what is wrong and say it."""
        seat = a.seat
        self._check_turn(seat)
        play = self._check_cards(a.play, "a capture") if a.play else 0
        take = self._check_cards(a.take, "a capture") if a.take else 0
        if not a.play or not a.take:
            raise IllegalActionError("a capture plays cards from the hand and takes cards from the table")
        self._check_cards(a.play + a.take, "a capture")
        rank = a.take[0].rank
        hand, table = self.hands[seat], self.table_mask
        if not (hand >> 4 * rank) & 15:
            raise IllegalActionError(
                f"seat {seat} cannot take {a.take[0]}: seat {seat} holds no {RANK_NAMES[rank]}")
        for c in a.play:
            if not hand >> c & 1:
                raise IllegalActionError(f"seat {seat} does not hold {c}")
        for c in a.take:
            if not table >> c & 1:
                raise IllegalActionError(f"{c} is not on the table")
        kind = a.kind
        rules = self.rules
        on_table = NIBBLE_COUNT[(table >> 4 * rank) & 15]
        if kind is None:
            raise IllegalActionError(
                f"{len(a.play)} played for {len(a.take)} is no capture: one card takes one "
                "(or all three), two take two, three take one")
        if kind is CaptureKind.SWEEP and rules.single_takes_three is SingleTakesThree.OFF:
            raise IllegalActionError(
                f"one card may not take three {_plural(rank)} under these rules "
                "(single_takes_three is off)")
        if (kind is CaptureKind.SINGLE and on_table == 3
                and rules.single_takes_three is SingleTakesThree.FORCED):
            raise IllegalActionError(
                f"with three {_plural(rank)} on the table one {RANK_NAMES[rank]} must take all "
                "three (single_takes_three is forced)")
        if kind is CaptureKind.PAIR and not rules.pair_on_pair:
            raise IllegalActionError("two cards may not take two under these rules (pair_on_pair is off)")
        if kind is CaptureKind.PRIAL and not rules.prial_on_single:
            raise IllegalActionError(
                "three cards may not take one under these rules (prial_on_single is off)")
        return (play, take)

    def _check_claim(self, a: Claim) -> tuple[int, ...]:
        seat = a.seat
        self._check_seat(seat)
        m = self._check_cards(a.cards, "a claim")
        rank = a.cards[0].rank
        name, plural = RANK_NAMES[rank], _plural(rank)
        hand, table = self.hands[seat], self.table_mask
        in_hand, on_table = m & hand == m, m & table == m
        if not in_hand and not on_table:
            if m & (hand | table):
                raise IllegalActionError("a claim takes cards from the hand or from the table, not both")
            c = next(c for c in a.cards if not (hand | table) >> c & 1)
            raise IllegalActionError(f"seat {seat} does not hold {c} and it is not on the table")
        shift = 4 * rank
        live = (self.live_mask() >> shift) & 15
        k = len(a.cards)
        if on_table:
            if not self.rules.spotter_claims:
                raise IllegalActionError("spotter claims from the table are off under these rules")
            if live != (m >> shift) & 15:
                raise IllegalActionError(
                    f"a spotter claim takes the {plural} only when all their live cards lie on the "
                    f"table, and as many as there are: here {NIBBLE_COUNT[live]} are live and "
                    f"{NIBBLE_COUNT[(table >> shift) & 15]} lie on the table")
            return (m, 0)
        hc = NIBBLE_COUNT[(hand >> shift) & 15]
        hand_set, dead = self._windows(seat)
        if k == 1:
            raise IllegalActionError("a claim lays down two cards or four, never one")
        if hc == 4:
            if k != 4:
                raise IllegalActionError("a mournival is set aside whole: all four cards")
            if hand_set:
                return (m, 1)
            if dead:
                return (m, 0)
            raise IllegalActionError(self._closed_window(seat, plural))
        if hc == 3:
            if k != 2:
                raise IllegalActionError(f"from a prial two {plural} are set aside, the third kept")
            if hand_set:
                return (m, 1)
            if not self.rules.hand_sets:
                raise IllegalActionError("hand sets are off under these rules")
            raise IllegalActionError(self._closed_window(seat, plural))
        if live != (hand >> shift) & 15:
            raise IllegalActionError(
                f"the other {plural} are still live: seat {seat} may lay down its pair of "
                f"{plural} only once no other {name} is live")
        if dead:
            return (m, 0)
        if self.rules.dead_claims is DeadClaims.OFF:
            raise IllegalActionError("dead-rank claims are off under these rules")
        raise IllegalActionError(
            f"seat {seat} may lay down its dead {plural} only on its own turn")

    def _closed_window(self, seat: int, plural: str) -> str:
        if not self.rules.hand_sets and self.rules.dead_claims is DeadClaims.OFF:
            return "hand sets and dead-rank claims are off under these rules"
        when = ("before the first turn" if self.rules.hand_set_timing is HandSetTiming.FOREPLAY
                else "before the first turn or on its own turn")
        return f"seat {seat} may set aside its {plural} only {when}"

    # -- applying -----------------------------------------------------------------------

    def apply(self, action: Action) -> Operation:
        """Check and apply ``action``; return the operation it added to the history.

        An illegal action raises :class:`IllegalActionError` and changes nothing.
        """
        seat = action.seat
        hands = self.hands
        info = self._capture_ids.get(id(action))
        if info is not None and type(action) is Capture:  # the engine's own: made quick
            play, take, shift, h, t = info
            table = self.table_mask
            if (seat == self.to_move and (hands[seat] >> shift) & 15 == h
                    and (table >> shift) & 15 == t):
                hands[seat] ^= play
                self.table_mask = table ^ take
                self._live ^= play | take
                self.won[seat] |= play | take
                self.last_capture = seat
                self.foreplay = False
                self._rescan_rank(shift)
                self.actions.append(action)
                self.history.append(action)
                self.last_actor = seat
                self._next_turn(seat, not hands[seat])
                return action
        if type(seat) is not int or not 0 <= seat < self.n:
            self._check_seat(seat)
        had_cards = hands[seat] != 0
        op: Operation
        if type(action) is Capture:
            play, take = self._check_capture(action)
            touched = take
            self._live ^= play | take
            hands[seat] ^= play
            self.table_mask ^= take
            self.won[seat] |= play | take
            self.last_capture = seat
            self.foreplay = False
            op = action
        elif type(action) is Claim:
            m, is_set = self._check_claim(action)
            touched = m & -m
            self._live ^= m
            if self.table_mask & m == m and not hands[seat] & m:
                self.table_mask ^= m
                kind = ClaimKind.SPOTTER
            else:
                hands[seat] ^= m
                kind = ClaimKind.HAND_SET if is_set else ClaimKind.DEAD
            self.won[seat] |= m
            face_down = kind is ClaimKind.HAND_SET and self.rules.hand_sets_face_down
            if face_down:
                self.face_down[seat] |= m
            op = Claimed(seat, cards_of(m), len(action.cards), kind, face_down)
        else:
            self._check(action)
            if type(action) is LieDown:
                hand = touched = hands[seat]
                self.table_mask |= hand
                hands[seat] = 0
                self.lain[seat] = True
                op = LaidDown(seat, cards_of(hand))
            else:
                assert isinstance(action, Trail)
                touched = 1 << action.card
                hands[seat] ^= 1 << action.card
                self.table_mask |= 1 << action.card
                op = action
            self.foreplay = False
        self._rescan(touched)
        self.actions.append(action)
        self.history.append(op)
        self.last_actor = seat
        if type(action) is Claim:
            self._after_claim(seat, had_cards)
        else:
            self._next_turn(seat, had_cards and not hands[seat])
        return op

    def _next_turn(self, seat: int, emptied: bool) -> None:
        """After ``seat``'s turn action: the end rule, then the next seat holding cards."""
        hands = self.hands
        if emptied:
            self.holding -= 1
            if self.holding <= 1:
                self._end(next(s for s in range(self.n) if hands[s]))
                return
        n = self.n
        while True:
            seat = (seat + 1) % n
            if hands[seat]:
                self.to_move = seat
                return

    def _after_claim(self, seat: int, had_cards: bool) -> None:
        """After a claim: the end rule; the turn passes only if the mover's hand emptied."""
        hands = self.hands
        if had_cards and not hands[seat]:
            self.holding -= 1
            if self.holding <= 1:
                self._end(next(s for s in range(self.n) if hands[s]))
                return
        mover = self.to_move
        assert mover is not None
        while not hands[mover]:
            mover = (mover + 1) % self.n
        self.to_move = mover

    def _rescan_rank(self, shift: int) -> None:
        """:meth:`_rescan` for the one rank at bit ``shift``."""
        low = 1 << shift
        live = (self._live >> shift) & 15
        t = (self.table_mask >> shift) & 15
        self._dead &= ~low
        self._spotted &= ~low
        if not live:
            return
        if t == live:
            self._spotted |= low
        elif not t:
            for h in self.hands:
                if (h >> shift) & 15 == live:
                    self._dead |= low
                    return

    def _end(self, survivor: int) -> None:
        hand, table = self.hands[survivor], self.table_mask
        self.history.append(DealEnded(survivor, self.dealer, cards_of(hand), cards_of(table)))
        self.won[self.dealer] |= hand | table
        self.hands[survivor] = 0
        self.table_mask = self._live = self._dead = self._spotted = 0
        self.over = True
        self.to_move = None
        self.result = settle(self.rules, tuple(w.bit_count() for w in self.won), self.dealer,
                             survivor, self.last_capture, self.pot_before)

    def view(self, seat: int | None) -> PlayerView:
        """What ``seat`` may know now (``None``: a spectator); see :mod:`lald.core.view`."""
        from .view import view

        return view(self, seat)

    def __repr__(self) -> str:
        hands = " / ".join(format_cards(self.hand(s)) for s in range(self.n))
        return (f"<State dealer={self.dealer} to_move={self.to_move} over={self.over} "
                f"hands=[{hands}] table=[{format_cards(self.table)}]>")
