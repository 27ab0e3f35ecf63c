"""The greedy and heuristic levels: rules of thumb over move codes.

The heuristic is a :class:`HeuristicPolicy`: a score per move, built from named habits
(:data:`HABITS`), each of which can be switched off for an ablation
(``HeuristicBot(..., off={"deny"})``).  The same policy plays the bot's own moves (read
from its view) and every seat's moves in the search bots' roll-outs (read from a
sampled world's :class:`~lald.core.fast.FastState`), so it reads only what a seat may
know: its own hand, the table, hand sizes, and per rank how many live cards lie
elsewhere.  The level (version 4) scores its captures by :data:`~lald.bots.kernel.TUNED`,
the scores tuned in duplicate play; ``heuristic:version=3`` plays the hand-chosen scores
of version 3 (:data:`~lald.bots.kernel.HEURISTIC`), to measure against.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from ..core import Action, Capture, CaptureKind, Claim, PlayerView, PrizeRule, Rules
from ..core.cards import NUM_RANKS, mask_of
from ..core.codes import (
    HAND_CLAIM,
    LIE,
    PAIR,
    PRIAL,
    RANKS_OF,
    SHAPES,
    SINGLE,
    TABLE_CLAIM,
    choose_action,
    code_of,
    presence,
)
from ..core.fast import FastState
from . import Bot
from .kernel import HEURISTIC, TUNED, Params, heuristic_outcome, score_of, tables
from .knowledge import fill, read, seat_counts

#: The habits of the heuristic, each a rule that can be switched off on its own.
HABITS: dict[str, str] = {
    "keep_sets": "keep pairs and prials together for the four-card captures",
    "set_aside": "set dealt prials and mournivals aside early",
    "deny": "deny rather than grab: take the last table cards of ranks others hold",
    "safe_keep": "keep a capture nobody else can take for later",
    "read_table": "count every card shown (won piles, claims) when judging who holds what",
    "survivor_hold": "under the survivor prize keep cards to outlast, and hold dead-rank claims",
    "last_capture_play": "under last-capture claim at once and play for the final capture",
    "spotter_now": "claim spotter pairs at once",
}


#: Habits ``lald tournament``'s ablation does not show to gain (docs/strength.md, 5,000
#: duplicate deals per preset): ``keep_sets`` loses chips, and ``survivor_hold``,
#: ``last_capture_play`` and ``spotter_now`` make no measurable difference where they act.
#: The ``heuristic`` level plays without them unless a spec switches one back on (``+habit``).
DROPPED = frozenset({"keep_sets", "survivor_hold", "last_capture_play", "spotter_now"})


def outside_counts(fs: FastState, seat: int, read_table: bool = True) -> list[int]:
    """Per rank, the live cards in other hands (``read_table`` off: every card not in
    ``seat``'s hand or on the table, as a player who counts nothing would think)."""
    hand, tc = fs.hc[seat], fs.tc
    if read_table:
        lc = fs.lc
        return [lc[r] - hand[r] - tc[r] for r in range(NUM_RANKS)]
    return [4 - hand[r] - tc[r] for r in range(NUM_RANKS)]


class HeuristicPolicy:
    """The heuristic's choices on a fast state, habits switched by name.  A capture is
    scored by :func:`~lald.bots.kernel.score_of` with ``params`` (default: version 3's
    :data:`~lald.bots.kernel.HEURISTIC`; the level plays :data:`~lald.bots.kernel.TUNED`);
    ``deny`` off drops its terms, ``safe_keep`` off the malus of a safe capture."""

    def __init__(self, rules: Rules, off: Iterable[str] = (), params: Params = HEURISTIC) -> None:
        off = frozenset(off)
        unknown = off - HABITS.keys()
        if unknown:
            raise ValueError(f"unknown habit {sorted(unknown)[0]!r}: choose {', '.join(HABITS)}")
        self.off = off
        self.rules = rules
        self.params = params
        on = {name: name not in off for name in HABITS}
        survivor = rules.prize_rule is PrizeRule.SURVIVOR and rules.prize > 0
        self.keep_sets = on["keep_sets"]
        self.set_aside = on["set_aside"]
        self.deny = on["deny"]
        self.safe_keep = on["safe_keep"]
        self.read_table = on["read_table"]
        self.survivor_hold = on["survivor_hold"] and survivor
        self.last_capture_play = on["last_capture_play"] and not survivor and rules.prize > 0
        self.spotter_now = on["spotter_now"]
        p = dict(params)
        if not self.deny:
            p["deny"] = p["spread"] = 0.0
        if not self.safe_keep:
            p["safe"] = 0.0
        elif self.last_capture_play:
            p["safe"] += 1.0  # keep the safe capture for the end all the more
        self.score = score_of(p)

    # -- turns --------------------------------------------------------------------------

    def turn_scores(self, fs: FastState | SeatState, codes: Sequence[int],
                    outside: Sequence[int]) -> list[float]:
        """A score per turn move of the seat to move (higher is better)."""
        seat = fs.to_move
        hand, tc = fs.hc[seat], fs.tc
        size = fs.hs[seat]
        last_two = fs.holding <= 2
        safe = [r for r in RANKS_OF[fs.hp[seat] & fs.tp] if outside[r] <= 0]
        scores: list[float] = []
        score_of_capture = self.score
        for code in codes:
            kind, r = code & 7, code >> 3 & 15
            if kind >= LIE:
                if kind == LIE:
                    scores.append(0.0)
                    continue
                score = -float(outside[r]) if self.deny else 0.0  # trail what nobody can take
                if self.keep_sets and hand[r] >= 2:
                    score -= 1.5
                scores.append(score)
                continue
            play, _ = SHAPES[kind]
            h = hand[r]
            score = score_of_capture(kind, h, tc[r], outside[r])
            if self.keep_sets:
                if kind == PAIR or kind == PRIAL:
                    score += 1.0
                elif kind == SINGLE and h >= 2:
                    score -= 1.0
            if self.survivor_hold:
                score -= 0.4 * (play - 1)
                if size == play:
                    score -= 6.0
            if self.last_capture_play:
                if last_two and size == play:
                    score += 5.0  # this capture ends the deal: it is the last one
                elif last_two and any(s != r for s in safe):
                    score += 1.0
            scores.append(score)
        return scores

    def turn(self, fs: FastState | SeatState, codes: list[int], outside: Sequence[int] | None = None,
             rng: random.Random | None = None) -> int:
        """The chosen turn move (ties: the first, or one at random given ``rng``)."""
        if len(codes) == 1:
            return codes[0]
        if outside is None:
            assert isinstance(fs, FastState), "a seat's state comes with its outside counts"
            outside = outside_counts(fs, fs.to_move, self.read_table)
        scores = self.turn_scores(fs, codes, outside)
        best = max(scores)
        if rng is None:
            return codes[scores.index(best)]
        return rng.choice([c for c, s in zip(codes, scores, strict=True) if s == best])

    # -- claims -------------------------------------------------------------------------

    def claim(self, fs: FastState | SeatState, seat: int, codes: list[int]) -> int | None:
        """The claim to make now, or None to hold."""
        hand = fs.hc[seat]
        for code in codes:
            kind, r = code & 7, code >> 3 & 15
            if kind == TABLE_CLAIM:
                if self.spotter_now or seat == fs.to_move:
                    return code
                continue
            assert kind == HAND_CLAIM
            held = hand[r]
            if held == 3 or held == 4 and fs.foreplay:  # a hand set
                if self.set_aside:
                    return code
                if held == 3:
                    continue
            if self._hold_dead(fs, seat, held):
                continue
            return code
        return None

    def _hold_dead(self, fs: FastState | SeatState, seat: int, count: int) -> bool:
        """Whether to keep a dead rank in hand for now."""
        if self.last_capture_play or not self.survivor_hold:
            return False
        if fs.hs[seat] == count:
            return True  # laying it down would empty the hand and leave the deal
        if fs.holding <= 2:
            return False  # the deal may end at any moment: bank it
        if seat == fs.to_move and not fs.hp[seat] & fs.tp:
            return False  # about to lie down: the cards would go to the table
        return True


def _view_state(view: PlayerView) -> tuple[FastState, list[int]]:
    k = read(view)
    return k.world(fill(k)), k.outside()


class SeatState:
    """What the heuristic's choices read of a deal (:class:`HeuristicPolicy`), made from
    one seat's view alone: for that seat the fields of the :class:`FastState` of that name
    that :func:`~lald.bots.knowledge.read` and :func:`~lald.bots.knowledge.fill` would
    give (its hand, the table, every hand's size, the seats still holding cards, whose
    turn, foreplay), without reading the history or filling in the other hands, which
    the heuristic does not read (they are empty here)."""

    __slots__ = ("to_move", "foreplay", "hc", "tc", "hs", "hp", "tp", "holding")

    def __init__(self, view: PlayerView, hand: list[int], table: list[int]) -> None:
        n, seat = view.players, view.seat
        self.to_move = -1 if view.to_move is None else view.to_move
        self.foreplay = view.foreplay
        self.hc = [hand if s == seat else [0] * NUM_RANKS for s in range(n)]
        self.tc = table
        self.hs = list(view.hand_sizes)
        self.hp = [presence(hand) if s == seat else 0 for s in range(n)]
        self.tp = presence(table)
        self.holding = sum(1 for size in self.hs if size)


def seat_state(view: PlayerView) -> tuple[SeatState, list[int]]:
    """The heuristic's reading of ``view`` (as :func:`_view_state` reads it, for what
    :class:`HeuristicPolicy` asks): the seat's state and the unknown cards per rank."""
    hand, table, unknown = seat_counts(view)
    return SeatState(view, hand, table), unknown


class GreedyBot(Bot):
    """The simple player: the capture that takes most table cards now, except that a
    single comes before a pair on a pair; claims at once.

    Captures are preferred by kind, best first (:data:`GREEDY_ORDER`): a sweep (one card
    takes three), a single (one takes one), a pair on a pair (two take two), a prial on a
    single (three take one); ties, and every choice without a capture (lying down, a
    trail), at random.  A single comes before a pair on a pair because two cards of a rank
    against two on the table are two turns' captures, and the pair spends both at once
    (docs/strength.md, §2)."""

    name = "greedy"
    version = "2"

    def act(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        """The first capture kind of :data:`GREEDY_ORDER` on offer, at random among its cards."""
        best = min(_greedy_rank(a) for a in legal)
        return self.rng.choice([a for a in legal if _greedy_rank(a) == best])

    def claim(self, view: PlayerView, claims: Sequence[Claim]) -> Claim | None:
        """The claim of most cards, at once."""
        return max(claims, key=lambda c: len(c.cards))


#: Greedy's capture kinds, best first; anything else (lying down, a trail) comes after.
GREEDY_ORDER: tuple[CaptureKind, ...] = (CaptureKind.SWEEP, CaptureKind.SINGLE, CaptureKind.PAIR,
                                         CaptureKind.PRIAL)


def _greedy_rank(action: Action) -> int:
    kind = action.kind if isinstance(action, Capture) else None
    return len(GREEDY_ORDER) if kind is None else GREEDY_ORDER.index(kind)


def level_params(rules: Rules, version: str = "4") -> Params:
    """The capture scores of the ``heuristic`` level's ``version``: 4 (the level now),
    :data:`~lald.bots.kernel.TUNED` for the prize rule; 3, :data:`~lald.bots.kernel.HEURISTIC`."""
    if version == "3":
        return HEURISTIC
    if version == "4":
        return TUNED[rules.prize_rule]
    raise ValueError(f"version={version}: choose 4 (the level) or 3 (the one before)")


class RolloutPolicy:
    """The heuristic as a roll-out policy on fast states: every seat plays it (habits
    ``off`` switched off, captures scored by ``params``)."""

    def __init__(self, rules: Rules, off: Iterable[str] = (), params: Params = HEURISTIC) -> None:
        self.policy = HeuristicPolicy(rules, off, params)
        #: the ``heuristic`` level's own habits play out on the fused kernel
        self.kernel = self.policy.off == DROPPED
        self.tables = tables(rules, params) if self.kernel else None

    def play(self, fs: FastState) -> FastState:
        """Play ``fs`` (changed) to the end of the deal, every seat by the heuristic
        (:func:`lald.bots.kernel.heuristic_outcome` when the habits are the level's own,
        the same moves without a call per move); return it."""
        if fs.over:
            return fs
        if self.tables is not None:
            return fs.finish_as(heuristic_outcome(fs, policy=self.tables))
        return fs.playout(self.turn, self.claim)

    def turn(self, fs: FastState, codes: list[int]) -> int:
        """The heuristic's turn move for the seat to move."""
        if len(codes) == 1:
            return codes[0]
        return self.policy.turn(fs, codes, outside_counts(fs, fs.to_move, self.policy.read_table))

    def claim(self, fs: FastState, seat: int, codes: list[int]) -> int | None:
        """The heuristic's claim for ``seat`` (or None)."""
        return self.policy.claim(fs, seat, codes)


class HeuristicBot(Bot):
    """The habits of :data:`HABITS` that gain, each switchable for an ablation: ``off``
    turns habits off, ``on`` turns habits on (the :data:`DROPPED` ones included).
    Captures are scored by the tuned scores (:func:`level_params`); ``version="3"``
    (spec ``heuristic:version=3``) plays the level before them, to measure against."""

    name = "heuristic"
    version = "4"

    def __init__(self, seat: int, rules: Rules, rng: random.Random, off: Iterable[str] = (),
                 on: Iterable[str] = (), version: str = "4") -> None:
        super().__init__(seat, rules, rng)
        on = frozenset(on)
        unknown = on - HABITS.keys()
        if unknown:
            raise ValueError(f"unknown habit {sorted(unknown)[0]!r}: choose {', '.join(HABITS)}")
        params = level_params(rules, str(version))
        self.policy = HeuristicPolicy(rules, (DROPPED - on) | frozenset(off), params)

    def act(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        """The best-scored turn move."""
        if len(legal) == 1:
            return legal[0]
        fs, outside = seat_state(view)
        table = mask_of(view.table)
        codes = list(dict.fromkeys(code_of(a, table) for a in legal))
        if not self.policy.read_table:  # every card not in this hand or on the table
            hand, tc = fs.hc[self.seat], fs.tc
            outside = [4 - hand[r] - tc[r] for r in range(NUM_RANKS)]
        code = self.policy.turn(fs, codes, outside, self.rng)
        return choose_action(code, legal, table)

    def claim(self, view: PlayerView, claims: Sequence[Claim]) -> Claim | None:
        """A claim the habits want now, or None."""
        fs, _ = seat_state(view)
        table = mask_of(view.table)
        codes = list(dict.fromkeys(code_of(a, table) for a in claims))
        code = self.policy.claim(fs, self.seat, codes)
        return None if code is None else choose_action(code, claims, table)  # type: ignore[return-value]
