"""One deal as a state machine (docs/rules.md#2-the-deal to docs/rules.md#6-the-end-of-a-deal).

>>> from lald.core import Rules
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

from ..actions import (
    Action,
    Capture,
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
    last_taker,
)
from ..cards import (
    NUM_CARDS,
    NUM_RANKS,
    Card,
    cards_of,
    format_cards,
    mask_of,
)
from ..rng import PortableRandom
from ..rules import DeadClaims, HandSetTiming, NoCapture, PrizeRule, Rules
from ..scoring import DealResult, settle
from .checks import Checks, IllegalActionError, LayoutError, layout_masks
from .moves import (
    CAPTURE_TABLES,
    CLAIMS,
    ONES,
    CaptureInfo,
    at_least_three,
    captures_of,
    claims_of,
    nonzero,
)
from .view import PlayerView, view

__all__ = ["IllegalActionError", "LayoutError", "State"]


class State(Checks):
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
    _capture_ids: dict[int, CaptureInfo]
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
        state = cls.deal_from(rules, PortableRandom(seed), dealer, pot, balances)
        state.seed = seed
        return state

    @classmethod
    def deal_from(
        cls,
        rules: Rules,
        rng: PortableRandom,
        dealer: int = 0,
        pot: int = 0,
        balances: Sequence[int] | None = None,
    ) -> State:
        """Shuffle with ``rng`` (a :class:`KeyedRandom`, say) and deal as :meth:`deal` does;
        the state has no seed."""
        deck = list(range(NUM_CARDS))
        rng.shuffle(deck)
        n = rules.players
        hands = [0] * n
        dealt = n * rules.hand_size
        for k in range(n):  # one card at a time clockwise: the k-th seat from the eldest
            hands[(dealer + 1 + k) % n] = mask_of(deck[k:dealt:n])
        table = mask_of(deck[dealt:])
        return cls._start(rules, tuple(hands), table, dealer, pot, balances)

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
        masks = layout_masks(rules, hands, table)
        return cls._start(rules, tuple(masks[:-1]), masks[-1], dealer, pot, balances)

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
        s._capture_table, s._capture_ids = CAPTURE_TABLES.setdefault(key, ({}, {}))
        own_sets = rules.hand_set_timing is HandSetTiming.FOREPLAY_OR_OWN_TURN
        s._claim_flags = (
            rules.hand_sets and own_sets,
            rules.dead_claims is DeadClaims.ANY_TIME,
            rules.dead_claims is not DeadClaims.OFF,
            rules.spotter_claims,
        )
        if rules.table_mournival_to_dealer:
            fours = table & table >> 1 & table >> 2 & table >> 3 & ONES
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
        live_nz = nonzero(live)
        self._spotted = nonzero(self.table_mask) & ~nonzero(live & ~self.table_mask)
        dead = 0
        for h in self.hands:
            dead |= live_nz & ~nonzero(h ^ live)
        self._dead = dead

    def _rescan(self, cards: int) -> None:
        """Recompute which ranks are dead in a hand or spotted on the table, for the
        ranks of ``cards`` (the ranks an action touched)."""
        flags = cards | cards >> 1
        flags = (flags | flags >> 2) & ONES
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
        """Ranks whose live cards all lie in one place, a hand or the table
        (docs/rules.md#3-live-ranks-and-dead-ranks)."""
        flags = self._dead | self._spotted
        return [r for r in range(NUM_RANKS) if flags >> 4 * r & 1]

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
        flags = (h | h >> 2) & (t | t >> 2) & ONES
        known = self._capture_table
        while flags:
            low = flags & -flags
            flags ^= low
            shift = low.bit_length() - 1
            key = seat << 16 | shift << 8 | ((hand >> shift) & 15) << 4 | (table >> shift) & 15
            caps = known.get(key)
            if caps is None:
                h, t = (hand >> shift) & 15, (table >> shift) & 15
                caps = known[key] = captures_of(seat, shift >> 2, h, t, rules.single_takes_three,
                                              rules.pair_on_pair, rules.prial_on_single)
                for c in caps:
                    self._capture_ids[id(c)] = (mask_of(c.play), mask_of(c.take), shift, h, t)
            out.extend(caps)
        if out:
            return out
        if rules.no_capture is NoCapture.LIE_DOWN:
            return [LieDown(seat)]
        return [Trail(seat, c) for c in cards_of(hand)]

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
            flags |= at_least_three(hand)
        if dead:
            flags |= nonzero(hand) & ~nonzero(hand ^ live)
        out: list[Claim] = []
        while flags:
            low = flags & -flags
            flags ^= low
            shift = low.bit_length() - 1
            out.extend(claims_of(seat, shift >> 2, (hand >> shift) & 15))
        return out

    def _spotter_claims(self, seat: int, live: int) -> list[Claim]:
        table = self.table_mask
        flags = nonzero(table) & ~nonzero(live & ~table)
        out = []
        while flags:
            low = flags & -flags
            flags ^= low
            shift = low.bit_length() - 1
            out.append(claims_of(seat, shift >> 2, (table >> shift) & 15)[0])
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
                    dead and nonzero(hands[mover]) & dead
                    or own_sets and at_least_three(hands[mover])):
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
                    flags[seat] |= at_least_three(hand)
        elif own_sets:
            assert mover is not None
            flags[mover] |= at_least_three(hands[mover])
        if not spot and not any(flags):
            return []
        out: list[Claim] = []
        first = self.eldest if self.last_actor is None else self.last_actor + 1
        for i in range(first, first + n):
            seat = i % n
            f = flags[seat]
            hand = hands[seat]
            claims = CLAIMS[seat]
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
            face_down = (kind is ClaimKind.HAND_SET and self.rules.hand_sets_face_down
                         and not (self.rules.prials_face_up and m.bit_count() == 2))
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
        took = last_taker(self.history) if self.rules.prize_rule is PrizeRule.LAST_CARD else None
        self.result = settle(self.rules, tuple(w.bit_count() for w in self.won), self.dealer,
                             survivor, self.last_capture, self.pot_before, took)

    def view(self, seat: int | None) -> PlayerView:
        """What ``seat`` may know now (``None``: a spectator); see :mod:`lald.core.view`."""
        return view(self, seat)

    def __repr__(self) -> str:
        hands = " / ".join(format_cards(self.hand(s)) for s in range(self.n))
        return (f"<State dealer={self.dealer} to_move={self.to_move} over={self.over} "
                f"hands=[{hands}] table=[{format_cards(self.table)}]>")
