"""The fast, unchecked play-out path: one deal on per-rank counts, for search and roll-outs.

:class:`FastState` follows the rules of :class:`~lald.core.engine.state.State` exactly, but keeps
only what decides the outcome: how many cards of each rank each hand and the table hold
(suits never matter in play), the won-pile sizes, and whose turn it is.  Nothing is
checked and no object is made per move; a move is a small integer *code*
(:mod:`lald.core.codes`, which also translates codes to and from the engine's actions;
``tests/core/fast/test_fast.py`` plays thousands of deals both ways).  Random play-outs
(:meth:`FastState.random_outcome`, :meth:`FastState.random_playout`) run on a denser
encoding made for them, in :mod:`lald.core.fast.tables` and :mod:`lald.core.fast.playout`.

A hand or the table is a list of 13 counts (small integers, which Python shares, so a
move allocates nothing); 13-bit masks (bit ``r`` for rank ``r``) say which ranks a hand
or the table holds, and which ranks are dead on the table or in a hand.

>>> from lald.core import Rules, State
>>> import random
>>> fs = FastState.from_state(State.deal(Rules.make(), seed=1))
>>> fs.random_playout(random.Random(2)).over, sum(fs.won)
(True, 52)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from math import comb

from ..actions import last_taker
from ..cards import NUM_RANKS
from ..codes import (
    HAND_CLAIM,
    LIE,
    PAIR,
    PRIAL,
    RANKS_OF,
    SHAPES,
    SINGLE,
    SWEEP,
    TABLE_CLAIM,
    TRAIL,
    counts,
    presence,
)
from ..engine.state import State
from ..rules import (
    DeadClaims,
    HandSetTiming,
    NoCapture,
    PotRule,
    PrizeRule,
    Rounding,
    Rules,
    Scoring,
    SingleTakesThree,
)
from ..scoring import DealResult, settle
from .playout import random_outcome
from .tables import Outcome

CaptureOption = tuple[int, int, int, int]
"""(kind, number of concrete captures it stands for, cards played, cards taken)."""


def _capture_options(
    sweep: SingleTakesThree, pairs: bool, prials: bool
) -> tuple[tuple[CaptureOption, ...], ...]:
    """Per ``hand count * 5 + table count`` of one rank: the captures of that rank."""
    table: list[tuple[CaptureOption, ...]] = []
    for h in range(5):
        for t in range(5):
            out: list[CaptureOption] = []
            if h and t:
                if not (t == 3 and sweep is SingleTakesThree.FORCED):
                    out.append((SINGLE, h * t, 1, 1))
                if t == 3 and sweep is not SingleTakesThree.OFF:
                    out.append((SWEEP, h, 1, 3))
                if pairs and h >= 2 and t >= 2:
                    out.append((PAIR, comb(h, 2) * comb(t, 2), 2, 2))
                if prials and h >= 3:
                    out.append((PRIAL, comb(h, 3) * t, 3, 1))
            table.append(tuple(out))
    return tuple(table)


_OPTIONS: dict[tuple[SingleTakesThree, bool, bool], tuple[tuple[CaptureOption, ...], ...]] = {}


def _options_for(rules: Rules) -> tuple[tuple[CaptureOption, ...], ...]:
    key = (rules.single_takes_three, rules.pair_on_pair, rules.prial_on_single)
    opts = _OPTIONS.get(key)
    if opts is None:
        opts = _OPTIONS[key] = _capture_options(*key)
    return opts


class FastState:
    """One deal on per-rank counts: the unchecked twin of :class:`State`.

    Build it with :meth:`from_state` or :meth:`from_world`; :meth:`turn_options`,
    :meth:`claim_options` and :meth:`open_claim_options` list the moves, :meth:`apply`
    makes one without checking it, :meth:`random_playout` and :meth:`playout` finish the
    deal, and :meth:`result` settles it exactly as the engine does.

    Public fields (read them, change them only through :meth:`apply`): ``hc[seat][rank]``
    hand counts, ``tc[rank]`` table counts, ``lc[rank]`` live counts, ``hp[seat]`` and
    ``tp`` the ranks held (13-bit masks), ``hs[seat]`` hand sizes, ``won[seat]`` won-pile
    sizes, ``tdead`` the ranks dead on the table, ``hdead`` the ranks dead in some hand.
    """

    __slots__ = (
        "rules", "n", "dealer", "eldest", "hc", "tc", "lc", "hp", "tp", "h3", "hs", "won", "lain",
        "to_move", "foreplay", "over", "last_capture", "last_actor", "holding", "pot_before",
        "last_take",
        "survivor", "tdead", "hdead", "_opts", "_flags",
    )

    rules: Rules
    n: int
    dealer: int
    eldest: int
    hc: list[list[int]]
    tc: list[int]
    lc: list[int]
    hp: list[int]
    tp: int
    h3: list[int]
    hs: list[int]
    won: list[int]
    lain: list[bool]
    to_move: int
    foreplay: bool
    over: bool
    last_capture: int
    last_actor: int
    last_take: int
    holding: int
    pot_before: int
    survivor: int
    tdead: int
    hdead: int
    _opts: tuple[tuple[CaptureOption, ...], ...]
    _flags: tuple[bool, bool, bool, bool, bool, bool, bool]

    # -- construction -------------------------------------------------------------------

    @classmethod
    def from_state(cls, state: State) -> FastState:
        """The fast twin of ``state`` (which it does not change)."""
        last_actor = -1 if state.last_actor is None else state.last_actor
        return cls.from_world(
            state.rules, [counts(h) for h in state.hands], counts(state.table_mask),
            [w.bit_count() for w in state.won], state.lain, state.dealer, state.to_move,
            state.foreplay, state.last_capture, last_actor, state.pot_before, state.over,
            last_taker(state.history))

    @classmethod
    def from_world(
        cls,
        rules: Rules,
        hands: Sequence[Sequence[int]],
        table: Sequence[int],
        won: Sequence[int],
        lain: Sequence[bool],
        dealer: int,
        to_move: int | None,
        foreplay: bool,
        last_capture: int | None,
        last_actor: int,
        pot_before: int,
        over: bool = False,
        last_take: int | None = None,
    ) -> FastState:
        """A deal from per-rank counts: ``hands`` (13 counts per seat; a search bot's
        sampler fills in the hidden ones), ``table``, won-pile sizes, who lay down, whose
        turn, the last turn capture, the seat that acted last (-1 before any) and the seat
        that last took cards by a capture or a claim (:func:`lald.core.actions.last_taker`;
        None: none did).
"""
        s = cls.__new__(cls)
        n = rules.players
        s.rules, s.n, s.dealer, s.eldest = rules, n, dealer, (dealer + 1) % n
        s.hc = [list(h) for h in hands]
        s.tc = list(table)
        s.lc = [sum(h[r] for h in hands) + table[r] for r in range(NUM_RANKS)]
        s.hp = [presence(h) for h in hands]
        s.tp = presence(table)
        s.h3 = [presence([1 if c >= 3 else 0 for c in h]) for h in hands]
        s.hs = [sum(h) for h in hands]
        s.won, s.lain = list(won), list(lain)
        s.to_move = -1 if to_move is None else to_move
        s.foreplay, s.over = foreplay, over
        s.last_capture = -1 if last_capture is None else last_capture
        s.last_actor = last_actor
        s.last_take = -1 if last_take is None else last_take
        s.pot_before = pot_before
        s.holding = sum(1 for size in s.hs if size)
        s.survivor = -1
        s._opts = _options_for(rules)
        own_sets = rules.hand_set_timing is HandSetTiming.FOREPLAY_OR_OWN_TURN
        s._flags = (
            rules.hand_sets,
            rules.hand_sets and own_sets,
            rules.dead_claims is DeadClaims.ANY_TIME,
            rules.dead_claims is DeadClaims.OWN_TURN,
            rules.spotter_claims,
            rules.no_capture is NoCapture.LIE_DOWN,
            rules.prize_rule is PrizeRule.SURVIVOR,
        )
        s.tdead = s.hdead = 0
        for r in range(NUM_RANKS):
            live = s.lc[r]
            if live and s.tc[r] == live:
                s.tdead |= 1 << r
            elif live and any(h[r] == live for h in s.hc):
                s.hdead |= 1 << r
        return s

    def copy(self) -> FastState:
        """An independent copy."""
        c = FastState.__new__(FastState)
        c.rules, c.n, c.dealer, c.eldest = self.rules, self.n, self.dealer, self.eldest
        c.hc = [h[:] for h in self.hc]
        c.tc, c.lc, c.hp, c.tp = self.tc[:], self.lc[:], self.hp[:], self.tp
        c.h3, c.hs, c.won, c.lain = self.h3[:], self.hs[:], self.won[:], self.lain[:]
        c.to_move, c.foreplay, c.over = self.to_move, self.foreplay, self.over
        c.last_capture, c.last_actor, c.holding = self.last_capture, self.last_actor, self.holding
        c.last_take = self.last_take
        c.pot_before, c.survivor, c.tdead, c.hdead = self.pot_before, self.survivor, self.tdead, self.hdead
        c._opts, c._flags = self._opts, self._flags
        return c

    # -- moves --------------------------------------------------------------------------

    def capture_options(self, seat: int, rank: int) -> tuple[CaptureOption, ...]:
        """The captures of ``rank`` open to ``seat`` now (whoever's turn it is)."""
        return self._opts[self.hc[seat][rank] * 5 + self.tc[rank]]

    def turn_options(self) -> list[tuple[int, int]]:
        """The turn moves of the seat to move as ``(code, number of concrete actions)``."""
        if self.over:
            return []
        seat = self.to_move
        hand, tc, opts = self.hc[seat], self.tc, self._opts
        base = seat << 7
        out = [(base | r << 3 | kind, mult)
               for r in RANKS_OF[self.hp[seat] & self.tp]
               for kind, mult, _, _ in opts[hand[r] * 5 + tc[r]]]
        if out:
            return out
        if self._flags[5]:
            return [(base | LIE, 1)]
        return [(base | r << 3 | TRAIL, hand[r]) for r in RANKS_OF[self.hp[seat]]]

    def turn_codes(self) -> list[int]:
        """The turn moves of the seat to move."""
        return [code for code, _ in self.turn_options()]

    def claim_options(self, seat: int) -> list[tuple[int, int]]:
        """The claims ``seat`` may make now, as ``(code, number of concrete claims)``."""
        if self.over:
            return []
        sets_on, own_sets, dead_all, dead_own, spotter, _, _ = self._flags
        base = seat << 7
        out: list[tuple[int, int]] = []
        if self.hs[seat]:
            own = seat == self.to_move
            f = self.h3[seat] if sets_on and (self.foreplay or own and own_sets) else 0
            if dead_all or own and dead_own:
                f |= self.hdead & self.hp[seat]
            hand = self.hc[seat]
            out = [(base | r << 3 | HAND_CLAIM, 3 if hand[r] == 3 else 1) for r in RANKS_OF[f]]
        if spotter:
            out.extend((base | r << 3 | TABLE_CLAIM, 1) for r in RANKS_OF[self.tdead])
        return out

    def claim_codes(self, seat: int) -> list[int]:
        """The claims ``seat`` may make now."""
        return [code for code, _ in self.claim_options(seat)]

    def claim_order(self) -> list[int]:
        """Seats in the order open claims are offered (as :meth:`State.claim_order`)."""
        n = self.n
        first = self.eldest if self.last_actor < 0 else (self.last_actor + 1) % n
        return [(first + i) % n for i in range(n)]

    def any_claims(self) -> bool:
        """Whether any seat may claim now (cheap: read from the kept dead-rank flags)."""
        if self.over:
            return False
        sets_on, own_sets, dead_all, dead_own, spotter, _, _ = self._flags
        if spotter and self.tdead or dead_all and self.hdead:
            return True
        if sets_on and self.foreplay and any(self.h3):
            return True
        mover = self.to_move
        return bool(own_sets and self.h3[mover] or dead_own and self.hdead & self.hp[mover])

    def open_claim_options(self) -> list[tuple[int, int]]:
        """Every claim any seat may make now, seats in :meth:`claim_order`."""
        if not self.any_claims():
            return []
        sets_on, own_sets, dead_all, dead_own, spotter, _, _ = self._flags
        out: list[tuple[int, int]] = []
        table = [(r << 3 | TABLE_CLAIM, 1) for r in RANKS_OF[self.tdead]] if spotter else []
        hdead, foreplay, mover, hs = self.hdead, self.foreplay, self.to_move, self.hs
        for seat in self.claim_order():
            if hs[seat]:
                own = seat == mover
                f = self.h3[seat] if sets_on and (foreplay or own and own_sets) else 0
                if dead_all or own and dead_own:
                    f |= hdead & self.hp[seat]
                if f:
                    hand, base = self.hc[seat], seat << 7
                    out.extend((base | r << 3 | HAND_CLAIM, 3 if hand[r] == 3 else 1) for r in RANKS_OF[f])
            if table:
                base = seat << 7
                out.extend((base | code, w) for code, w in table)
        return out

    def open_claim_codes(self) -> list[int]:
        """Every claim any seat may make now, seats in :meth:`claim_order`."""
        return [code for code, _ in self.open_claim_options()]

    # -- applying -----------------------------------------------------------------------

    def apply(self, code: int) -> None:
        """Make the move ``code``, unchecked (it must be one the listings offer)."""
        kind, r, seat = code & 7, code >> 3 & 15, code >> 7
        bit = 1 << r
        hand = self.hc[seat]
        tc, lc = self.tc, self.lc
        if kind < LIE:
            play, take = SHAPES[kind]
            h = hand[r] = hand[r] - play
            t = tc[r] = tc[r] - take
            live = lc[r] = lc[r] - play - take
            self.hs[seat] -= play
            self.won[seat] += play + take
            if not h:
                self.hp[seat] &= ~bit
            if h < 3:
                self.h3[seat] &= ~bit
            if not t:
                self.tp &= ~bit
            self.last_capture = self.last_take = seat
            self.foreplay = False
            if live:  # the rank was not dead before a capture of it; is it now?
                if t == live:
                    self.tdead |= bit
                elif not t:
                    for other in self.hc:
                        if other[r] == live:
                            self.hdead |= bit
                            break
        elif kind == HAND_CLAIM:
            c = hand[r]
            if c == 3:
                c = 2
            h = hand[r] = hand[r] - c
            lc[r] -= c
            self.hs[seat] -= c
            self.won[seat] += c
            if not h:
                self.hp[seat] &= ~bit
            self.h3[seat] &= ~bit
            self.hdead &= ~bit
            self.last_take = seat
        elif kind == TABLE_CLAIM:
            c = tc[r]
            tc[r] = lc[r] = 0
            self.tp &= ~bit
            self.tdead &= ~bit
            self.won[seat] += c
            self.last_take = seat
        elif kind == LIE:
            held = self.hp[seat]
            tdead = self.tdead
            for q in RANKS_OF[held]:
                t = tc[q] = tc[q] + hand[q]
                hand[q] = 0
                if t == lc[q]:
                    tdead |= 1 << q
            self.tdead = tdead
            self.hdead &= ~held
            self.tp |= held
            self.hp[seat] = self.h3[seat] = self.hs[seat] = 0
            self.lain[seat] = True
            self.foreplay = False
        else:
            h = hand[r] = hand[r] - 1
            t = tc[r] = tc[r] + 1
            self.hs[seat] -= 1
            self.tp |= bit
            if not h:
                self.hp[seat] &= ~bit
            if h < 3:
                self.h3[seat] &= ~bit
            self.hdead &= ~bit
            if t == lc[r]:
                self.tdead |= bit
            self.foreplay = False
        self.last_actor = seat
        if kind != TABLE_CLAIM and not self.hs[seat]:
            self.holding -= 1
            if self.holding <= 1:
                self._end()
                return
        mover = self.to_move
        if seat == mover and (kind < HAND_CLAIM or not self.hs[seat]):
            n, hs = self.n, self.hs
            while True:
                mover = (mover + 1) % n
                if hs[mover]:
                    self.to_move = mover
                    break

    def _end(self) -> None:
        hs = self.hs
        survivor = next(s for s in range(self.n) if hs[s])
        self.won[self.dealer] += hs[survivor] + sum(self.tc)
        hs[survivor] = 0
        self.hc[survivor] = [0] * NUM_RANKS
        self.hp[survivor] = self.h3[survivor] = 0
        self.tc = [0] * NUM_RANKS
        self.lc = [0] * NUM_RANKS
        self.tp = self.tdead = self.hdead = 0
        self.survivor = survivor
        self.holding = 0
        self.over = True
        self.to_move = -1

    # -- the end ------------------------------------------------------------------------

    def result(self) -> DealResult:
        """The settlement of the finished deal, exactly as the engine makes it."""
        assert self.over
        last = None if self.last_capture < 0 else self.last_capture
        took = None if self.last_take < 0 else self.last_take
        return settle(self.rules, tuple(self.won), self.dealer, self.survivor, last, self.pot_before, took)

    def value(self, seat: int) -> float:
        """What the finished deal is worth to ``seat``: its chips for the deal (antes
        left out, since no move changes them); under card-count scoring, 1 for a win
        (shared wins split) plus a hundredth per won card.  A real pot pays what it
        holds, so there the settlement itself is asked."""
        rules = self.rules
        won = self.won
        if rules.scoring is Scoring.CARD_COUNT:
            best = max(won)
            share = 1.0 / won.count(best) if won[seat] == best else 0.0
            return share + won[seat] / 100
        if rules.pot_rule is PotRule.REAL:
            result = self.result()
            return float(result.chips[seat] + result.antes[seat])
        d = won[seat] - rules.hand_size
        pairs = d // 2 if d >= 0 or rules.rounding is Rounding.FLOOR else -((-d) // 2)
        return float(pairs + rules.prize) if self.prize_to() == seat else float(pairs)

    def prize_to(self) -> int:
        """The seat the prize goes to as things stand (docs/rules.md#6-the-end-of-a-deal): the
        survivor, the last to capture, or the last to take cards, as the rules say; -1
        for none yet."""
        if self._flags[6]:
            return self.survivor
        return self.last_take if self.rules.prize_rule is PrizeRule.LAST_CARD else self.last_capture

    def values(self) -> list[float]:
        """:meth:`value` for every seat."""
        return [self.value(s) for s in range(self.n)]

    # -- play-outs ----------------------------------------------------------------------

    def random_step(self, rng: random.Random, claim_p: float = 0.5) -> int:
        """Choose a move at random as :meth:`random_playout` does, apply it and return it."""
        rnd = rng.random
        if self.any_claims() and rnd() < claim_p:
            code = _pick(self.open_claim_options(), rnd)
        else:
            options = self.turn_options()
            kind = options[0][0] & 7
            if kind < LIE:
                ranks = RANKS_OF[self.hp[self.to_move] & self.tp]
                r = ranks[int(rnd() * len(ranks))]
                options = [o for o in options if o[0] >> 3 & 15 == r]
            code = _pick(options, rnd)
        self.apply(code)
        return code

    def random_playout(
        self, rng: random.Random, claim_p: float = 0.5, trace: list[int] | None = None
    ) -> FastState:
        """Play to the end at random and return this state, finished.  Each step: when
        claims are open, take one with probability ``claim_p``, uniformly among the
        concrete claims (every seat's, every choice of cards counting once, as
        :meth:`open_claim_options` weighs them); else the seat to move picks uniformly
        one of the ranks it can capture, then uniformly one of that rank's concrete
        captures (with no capture: it lies down, or trails a card of its hand chosen
        uniformly).  ``trace``, if given, receives every code played.
        """
        if not self.over:
            self.finish_as(random_outcome(self, rng, claim_p, trace))
        return self

    def random_outcome(
        self, rng: random.Random, claim_p: float = 0.5, trace: list[int] | None = None
    ) -> Outcome:
        """Play a copy of this deal to the end as :meth:`random_playout` does, leaving this
        state unchanged, and return the end: ``(won, survivor, last_capture, last_actor,
        foreplay, lain, last_take)``, the won-pile sizes with the residue, the survivor, the
        seat of the last turn capture (-1: none), the seat that acted last, whether the deal
        ended before any turn action, the seats that lay down on the way, and the seat that
        last took cards by a capture or a claim (-1: none).  It is the
        roll-out without the cost of copying the state; see :mod:`lald.core.fast.playout`."""
        if self.over:
            return (list(self.won), self.survivor, self.last_capture, self.last_actor, self.foreplay, [],
                    self.last_take)
        return random_outcome(self, rng, claim_p, trace)

    def finish_as(self, outcome: Outcome) -> FastState:
        """Make this state the finished deal ``outcome`` (of :meth:`random_outcome`, or
        another play-out of this state that returns its end the same way); return it."""
        won, survivor, last_capture, last_actor, foreplay, lain, last_take = outcome
        n = self.n
        self.won = won
        for seat in lain:
            self.lain[seat] = True
        self.hc = [[0] * NUM_RANKS for _ in range(n)]
        self.tc = [0] * NUM_RANKS
        self.lc = [0] * NUM_RANKS
        self.hp = [0] * n
        self.h3 = [0] * n
        self.hs = [0] * n
        self.tp = self.tdead = self.hdead = self.holding = 0
        self.survivor, self.last_capture, self.last_actor = survivor, last_capture, last_actor
        self.last_take = last_take
        self.foreplay = foreplay
        self.to_move = -1
        self.over = True
        return self

    def playout(self, turn: TurnPolicy, claim: ClaimPolicy | None = None) -> FastState:
        """Play to the end with a policy: ``claim(state, seat, codes)`` is offered each
        seat's open claims in claim order (None lets them pass), then ``turn(state,
        codes)`` picks the move of the seat to move."""
        while not self.over:
            if claim is not None and self.any_claims():
                made = False
                for seat in self.claim_order():
                    codes = self.claim_codes(seat)
                    if codes:
                        code = claim(self, seat, codes)
                        if code is not None:
                            self.apply(code)
                            made = True
                            break
                if made:
                    continue
            self.apply(turn(self, self.turn_codes()))
        return self


TurnPolicy = Callable[[FastState, list[int]], int]
"""Picks the move of the seat to move among the codes offered."""
ClaimPolicy = Callable[[FastState, int, list[int]], "int | None"]
"""Picks one of a seat's open claims, or None to let them pass."""


def _pick(weighted: list[tuple[int, int]], rnd: Callable[[], float]) -> int:
    total = 0
    for _, w in weighted:
        total += w
    x = rnd() * total
    for code, w in weighted:
        x -= w
        if x < 0:
            return code
    return weighted[-1][0]


__all__ = ["CaptureOption", "ClaimPolicy", "FastState", "TurnPolicy"]
