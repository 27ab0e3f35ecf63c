"""The ``expert``: determinized search with more than ``pimc`` on top (version 5).

Like ``pimc`` it draws hidden hands (:mod:`lald.bots.sampler`), shares every world among
all candidate moves (common random numbers), and judges a move by the value of the deal
played on to its end in each world, every seat playing the ``heuristic`` level on the
fused kernel (:mod:`lald.bots.kernel`).  On top of that:

- **Opponent model in the draw** (``model``): the other seats are assumed to claim as
  the heuristic does, so worlds that contradict a claim they let pass are drawn again.
  A seat that was offered the claim windows of foreplay with hand sets on set its prials
  and mournivals aside there (the heuristic always does), so after foreplay no other
  hand holds three of a rank; where the heuristic banks dead ranks at once (always,
  unless its ``survivor_hold`` habit is on: then under the survivor prize only once two
  seats hold cards), a seat that let a claim window pass holds no dead rank.  Uniform
  draws break one of these in roughly a tenth to a third of the worlds.
- **Evidence against the model**: a seat the history shows keeping a dead rank through
  a claim window, or holding three of a rank after foreplay
  (:func:`lald.bots.knowledge.keepers`), is not held to that part of the model: people
  and programs that keep dead ranks for later do not break the draw.
- **Every world, once few are left** (``exact``, default 48): when the unknown cards can
  be shared out among the other hands in at most that many ways (by rank), each is
  searched once, weighted by the card deals it stands for, instead of drawing worlds
  at random (:func:`enumerate_hands`).
- **Exact end positions** (``solve``): once few cards are left in the hands, each
  (world, move) is solved exactly instead of rolled out: every seat picks its turn moves
  to maximise its own value (max-n, perfect information in that world), claims as the
  heuristic makes them.  A solve that outgrows its node cap or the deadline falls back
  to the roll-out, and once the first world shows that solving would leave fewer than
  ``min_worlds`` (default 16) worlds in the time, the other worlds are rolled out.
- **Claims are searched** in every claim window it is offered (``claims=own``: only
  when it is the one to move, as version 4 did): each claim against letting them all
  pass, after which the seats later in the claim order may claim as the heuristic does.
- **The heuristic's move unless another is clearly better** (``prior``, default 1): the
  best mean value is played only if it beats the heuristic's own choice by more than
  that many standard errors of their paired difference over the worlds; most choices
  are near-ties, where the best of a few noisy means is often only the luckiest.
- **Look-ahead** (``look=N``, off by default): in each world, this seat's next ``N``
  choices are made by playing every choice on and keeping the best, instead of by the
  heuristic (it costs worlds and did not measurably win at the same budget).

``rollout=v3`` plays out with heuristic version 3 instead, ``rollout=plain`` with every
habit, and ``-habit`` / ``+habit`` choose them one by one.  The budget is a time limit
(``time_limit`` seconds, default 80 ms) and a cap on the worlds (``worlds``, default
160); both, and each feature (``model=0``, ``solve=0``, ``exact=0``, ``prior=0``,
``claims=own``), are bot spec parameters, e.g. ``expert:time_limit=0.05:solve=0``.
Where the compiled kernel is loaded, the worlds are drawn in it (:mod:`lald.bots.sampler`)
and each world is searched in it, candidates, solves and roll-outs together
(:func:`lald.bots.kernel.world_values`), with the same values as :meth:`Player.finish`.
``kernel=python`` makes this bot decide on the pure-Python path even where the compiled
kernel is loaded (:func:`lald.core.compiled.pure_path`): the same decisions at equal
worlds, fewer worlds in the same time.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable, Sequence
from contextlib import AbstractContextManager, nullcontext
from math import comb, exp, inf, log

from ..core import Action, Claim, PlayerView, Rules
from ..core.cards import NUM_RANKS, mask_of
from ..core.codes import choose_action, code_of
from ..core.compiled import pure_path
from ..core.fast import FastState
from ..core.fast.tables import tables_for
from . import Bot
from .heuristic import DROPPED, HABITS, HeuristicPolicy, RolloutPolicy, level_params
from .kernel import Params, compiled_draw_world, compiled_plausible, score_of, search_context, world_values
from .knowledge import Knowledge, fill, read
from .params import ExpertParams
from .sampler import World, sample

#: The habits the expert's roll-out policy plays without: those the ``heuristic`` level
#: drops, since its ablation (docs/strength.md) does not show them to gain.
TUNED_OFF = DROPPED

#: A code standing for "let the open claims pass and play the turn".
PASS = -1


class _Budget(Exception):
    """A solve ran past its node cap or the deadline."""


def kernel_path(kernel: str) -> Callable[[], AbstractContextManager[None]]:
    """What a search bot decides in for its ``kernel`` parameter: ``compiled`` (the
    default: the compiled kernel wherever it is loaded) or ``python`` (the pure path,
    :func:`~lald.core.compiled.pure_path`)."""
    if kernel == "compiled":
        return nullcontext
    if kernel == "python":
        return pure_path
    raise ValueError(f"kernel={kernel}: choose compiled or python")


class Player(RolloutPolicy):
    """Plays positions on to their end: the heuristic's roll-out (habits ``off``
    switched off), or an exact max-n solve when the hands are small enough
    (``solve_cards``, ``node_cap``)."""

    def __init__(self, rules: Rules, solve_cards: int = 12, node_cap: int = 1500,
                 off: Iterable[str] = (), lookahead: int = 0, params: Params | None = None) -> None:
        super().__init__(rules, off, level_params(rules) if params is None else params)
        self.lookahead = lookahead
        self.solve_cards = solve_cards
        self.node_cap = node_cap
        self.nodes = 0
        self.deadline = float("inf")

    def rollout(self, fs: FastState, seat: int) -> float:
        """``seat``'s value after the heuristic plays ``fs`` (changed) to its end."""
        return self.play(fs).value(seat)

    def finish(self, fs: FastState, seat: int, skip_claims: bool = False, looks: int | None = None,
               passed: int = -1) -> float:
        """``seat``'s value of ``fs`` (changed) played on: solved exactly once small, else
        rolled out, with ``seat``'s next ``looks`` (default :attr:`lookahead`) choices of
        turn move made by comparing the values of every choice played on in this world.
        ``skip_claims``: nobody claims before the first turn move.  ``passed``: that seat
        lets the open claims pass, so in this window only the seats after it in the claim
        order may claim (as the heuristic does); if none does, the turn comes next."""
        if passed >= 0 and not skip_claims:
            skip_claims = not self._claims(fs, after=passed)
        if looks is None:
            looks = self.lookahead
        while not fs.over:
            if self.solve_cards and sum(fs.hs) <= self.solve_cards:
                self.nodes = 0
                try:
                    return self._solve(fs.copy(), skip_claims)[seat]
                except _Budget:
                    pass
            if not looks:
                break
            if not skip_claims and fs.any_claims() and self._claims(fs):
                continue
            skip_claims = False
            codes = fs.turn_codes()
            if fs.to_move != seat or len(codes) == 1:
                fs.apply(self.turn(fs, codes))
                continue
            looks -= 1
            best, best_value = codes[0], float("-inf")
            for code in codes:
                child = fs.copy()
                child.apply(code)
                value = self.finish(child, seat, False, 0)
                if value > best_value:
                    best, best_value = code, value
            fs.apply(best)
        if skip_claims and not fs.over:
            fs.apply(self.turn(fs, fs.turn_codes()))
        return self.rollout(fs, seat)

    def _claims(self, fs: FastState, after: int = -1) -> bool:
        """Make the first claim the heuristic wants now (only by the seats after ``after``
        in the claim order, if given); whether one was made."""
        order = fs.claim_order()
        if after >= 0:
            order = order[order.index(after) + 1:]
        for s in order:
            codes = fs.claim_codes(s)
            if codes:
                code = self.claim(fs, s, codes)
                if code is not None:
                    fs.apply(code)
                    return True
        return False

    def _solve(self, fs: FastState, skip_claims: bool = False) -> list[float]:
        """Every seat's value under max-n play of turn moves (claims by the heuristic)."""
        self.nodes += 1
        if self.nodes > self.node_cap or self.nodes & 63 == 0 and time.perf_counter() > self.deadline:
            raise _Budget
        while not fs.over:
            if not skip_claims and fs.any_claims() and self._claims(fs):
                continue
            skip_claims = False
            codes = fs.turn_codes()
            if len(codes) == 1:
                fs.apply(codes[0])
                continue
            mover = fs.to_move
            best: list[float] | None = None
            for code in codes:
                child = fs.copy()
                child.apply(code)
                values = self._solve(child)
                if best is None or values[mover] > best[mover]:
                    best = values
            assert best is not None
            return best
        return fs.values()


class ExpertBot(Bot):
    """Determinized search with an opponent model in the draw, exact end positions and
    searched claims (see the module's text); ``worlds`` caps the worlds per decision,
    ``time_limit`` the seconds.  Its parameters are read once into :attr:`params`
    (:class:`~lald.bots.params.ExpertParams`), from ``params`` or from ``options``, the
    spec's ``key=value`` text or numbers."""

    name = "expert"
    version = "5"

    def __init__(self, seat: int, rules: Rules, rng: random.Random, params: ExpertParams | None = None,
                 **options: object) -> None:
        super().__init__(seat, rules, rng)
        p = self.params = params if params is not None else ExpertParams.parse(**options)
        if params is not None and options:
            raise TypeError("give the expert its params or its options, not both")
        self.path = kernel_path(p.kernel)
        self.worlds = p.worlds
        self.time_limit = p.time_limit
        self.exact = p.exact
        self.search_claims = p.claims
        self.prior = p.prior
        self.infer = p.infer
        self.min_worlds = p.min_worlds
        self.searched = 0
        self.weights: list[float] = []
        self.model = p.model
        habits = frozenset(TUNED_OFF if p.rollout != "plain" else ())
        if p.off is not None or p.on is not None:
            habits = frozenset(p.off or ()) | (frozenset(HABITS) - p.on if p.on else frozenset())
        rollout_params = level_params(rules, "3" if p.rollout == "v3" else "4")
        self.player = Player(rules, p.solve, p.nodes, habits, p.look, rollout_params)
        self.policy = self.player.policy
        # how the other seats are assumed to claim
        self.model_policy = HeuristicPolicy(rules, DROPPED, level_params(rules))
        self.capture_score = score_of(level_params(rules))
        self.kinds = capture_kinds(rules)
        self.dead_claims_any_time = rules.dead_claims.value == "any_time"

    # -- worlds -------------------------------------------------------------------------

    def _passed(self, k: Knowledge, acting: bool) -> list[int]:
        """The other seats that let the last claim window pass (all of them when this
        seat is about to act; when it is offered claims, those before it in the order)."""
        if acting:
            return k.others
        order = k.view.claim_order
        before = set(order[:order.index(self.seat)])
        return [s for s in k.others if s in before]

    def _constraints(self, k: Knowledge, acting: bool) -> tuple[list[int], list[int]]:
        """The seats the opponent model says hold no prial, and no dead rank."""
        if not self.model:
            return [], []
        view = k.view
        passed = self._passed(k, acting)
        capped: list[int] = []
        if self.rules.hand_sets:
            sets_passed = k.others if not view.foreplay or acting else passed
            capped = [s for s in sets_passed if s not in k.keeps_sets]
        holding = sum(1 for size in view.hand_sizes if size)
        at_once = not self.model_policy.survivor_hold or holding <= 2
        dead = [s for s in passed if s not in k.keeps_dead] if self.dead_claims_any_time and at_once else []
        return capped, dead

    def _plausible(self, k: Knowledge, hands: list[list[int]], capped: list[int], dead: list[int]) -> bool:
        """Whether the seats the model constrains hold no prial (``capped``) and no dead
        rank (``dead``; under the survivor's habits a seat keeps a dead rank that is its
        whole hand) in ``hands``."""
        verdict = compiled_plausible(k, hands, capped, dead, self.model_policy.survivor_hold)
        if verdict is not None:
            return verdict
        for s in capped:
            for c in hands[s]:
                if c >= 3:
                    return False
        if dead:
            live = [k.hand[r] + k.table[r] + sum(hands[s][r] for s in k.others) for r in range(NUM_RANKS)]
            keep_whole = self.model_policy.survivor_hold
            for s in dead:
                h = hands[s]
                for r in range(NUM_RANKS):
                    if h[r] and h[r] == live[r] and not (keep_whole and h[r] == k.sizes[s]):
                        return False
        return True

    def draw_world(self, k: Knowledge, capped: list[int], dead: list[int], tries: int = 24) -> World:
        """Hidden hands for ``k`` (and the ranks of unseen face-down sets): uniform among
        the consistent worlds, redrawn (up to ``tries`` times) while they break the
        opponent model."""
        drawn = compiled_draw_world(k, self.rng, tries, capped, dead, self.model_policy.survivor_hold)
        if drawn is not None:  # the same draws and world, in C
            return drawn
        for _ in range(tries):
            world, _ = sample(k, self.rng)
            if self._plausible(k, world[0], capped, dead):
                break
        return world

    def draw(self, k: Knowledge, capped: list[int], dead: list[int]) -> FastState:
        """A world to search in, as a fast state."""
        return k.world(self.draw_world(k, capped, dead)[0])

    def every_world(self, k: Knowledge, capped: list[int],
                    dead: list[int]) -> list[tuple[int, FastState]] | None:
        """Every world the seat cannot tell apart, with its weight (the number of card
        deals it stands for), once there are at most :attr:`exact` of them (None: more,
        or unseen face-down sets); the opponent model's worlds only, unless it rules out
        them all."""
        found = self.every_hands(k, capped, dead)
        return None if found is None else [(w, k.world(h)) for w, h in found]

    def every_hands(self, k: Knowledge, capped: list[int],
                    dead: list[int]) -> list[tuple[int, list[list[int]]]] | None:
        """:meth:`every_world`'s worlds as their hands (13 counts a seat)."""
        if not self.exact or k.hidden_sets:
            return None
        found = enumerate_hands(k, self.exact)
        if found is None:
            return None
        kept = [(w, h) for w, h in found if self._plausible(k, h, capped, dead)] or found
        self.rng.shuffle(kept)  # so that a search cut short by the time limit tries a fair share
        return kept

    def log_likelihood(self, k: Knowledge, hands: list[list[int]]) -> float:
        """How likely the other seats' captures so far are in a world with ``hands``, if
        each took its best-scored capture by the heuristic's scores but for a slip whose
        odds fall with the score given up: the log of the product over the captures of
        a softmax of the scores open then at temperature :attr:`infer` (0: a capture
        that was not the best counts a thousandth)."""
        ll = 0.0
        tau = self.infer
        score, kinds = self.capture_score, self.kinds
        for ch in k.choices:
            hand, table, won, since = hands[ch.seat], ch.table, ch.won, ch.since
            chosen = -inf
            values = []
            for r in range(NUM_RANKS):
                t = table[r]
                h = hand[r] + since[r]
                if not (t and h):
                    continue
                out = 4 - h - t - won[r]
                for kind in kinds.get((h, t), ()):
                    v = score(kind, h, t, out)
                    values.append(v)
                    if r == ch.rank and kind == ch.kind:
                        chosen = v
            if chosen == -inf:
                continue  # (not a capture this world allows: the world is judged elsewhere)
            top = max(values)
            if tau <= 0:
                ll += 0.0 if chosen >= top else -6.9
            else:
                ll += (chosen - top) / tau - log(sum(exp((v - top) / tau) for v in values))
        return ll

    # -- search -------------------------------------------------------------------------

    def evaluate(self, k: Knowledge, codes: list[int], acting: bool) -> list[float]:
        """The mean value of each code (:data:`PASS` included: this seat lets the open
        claims pass) over shared worlds: all of them, weighted, when few enough, else
        drawn until the worlds or the time run out."""
        return self.search(k, codes, acting)[0]

    def search(self, k: Knowledge, codes: list[int],
               acting: bool) -> tuple[list[float], list[list[float]], bool]:
        """:meth:`evaluate`'s means, with every world's value of every code and whether
        the worlds were all of them (so the means are exact)."""
        start = time.perf_counter()
        deadline = start + self.time_limit
        self.player.deadline = deadline
        capped, dead = self._constraints(k, acting)
        seat = self.seat
        values: list[list[float]] = [[] for _ in codes]
        exact = self.every_hands(k, capped, dead)
        context = self._search_context(k, codes)
        infer = self.infer >= 0 and bool(k.choices)
        solving = self.player.solve_cards
        weights: list[float] = []
        logs: list[float] = []
        count = 0
        while True:
            world: FastState | None = None
            if exact is not None:
                if count == len(exact) or count and time.perf_counter() > deadline:
                    break
                w, hands = exact[count]
            else:
                if count >= self.worlds or count and time.perf_counter() > deadline:
                    break
                if context is None:
                    w, world = 1, self.draw(k, capped, dead)
                    hands = world.hc
                else:
                    w, hands = 1, self.draw_world(k, capped, dead)[0]
            count += 1
            if solving and count == 2 and (time.perf_counter() - start) * self.min_worlds > self.time_limit:
                self.player.solve_cards = 0  # solves would leave too few worlds: roll out the rest
            weights.append(float(w))
            if infer:
                logs.append(self.log_likelihood(k, hands))
            found = None if context is None else world_values(
                context, hands, self.player.solve_cards, self.player.node_cap, deadline)
            if found is not None:  # the compiled kernel searched the world: the same values
                for i, value in enumerate(found):
                    values[i].append(value)
                continue
            if world is None:
                world = k.world(hands)
            for i, code in enumerate(codes):
                fs = world.copy()
                if code == PASS:
                    value = self.player.finish(fs, seat, passed=seat)
                else:
                    fs.apply(code)
                    value = self.player.finish(fs, seat)
                values[i].append(value)
        self.searched = count
        self.player.solve_cards = solving
        if infer:
            top = max(logs)
            weights = [w * exp(x - top) for w, x in zip(weights, logs, strict=True)]
        self.weights = weights
        weight = sum(weights)
        totals = [sum(w * v for w, v in zip(weights, vs, strict=True)) for vs in values]
        return [t / weight for t in totals], values, exact is not None and count == len(exact)

    def _search_context(self, k: Knowledge, codes: list[int]) -> object | None:
        """The compiled kernel's view of this decision (:func:`lald.bots.kernel.search_context`)
        when it can search the worlds: the roll-out is the heuristic level's on its tables,
        no look-ahead, and the worlds are this class's own draws (not the oracle's)."""
        tables = self.player.tables
        if tables is None or self.player.lookahead or type(self).draw is not ExpertBot.draw:
            return None
        return search_context(k.world(fill(k)), tables, self.seat, codes)

    def choose(self, k: Knowledge, codes: list[int], acting: bool, default: int) -> int:
        """The code of ``codes`` with the best mean value; but the heuristic's ``default``
        unless the best beats it by more than :attr:`prior` standard errors of their
        paired difference over the worlds (most choices are near-ties, where the best of
        a few noisy means is often only the luckiest)."""
        means, values, exact = self.search(k, codes, acting)
        top = max(means)
        best = self.rng.choice([c for c, m in zip(codes, means, strict=True) if m == top])
        if not self.prior or exact or best == default or default not in codes:
            return best
        b, d = values[codes.index(best)], values[codes.index(default)]
        if len(b) < 2:
            return default
        w = self.weights
        total = sum(w)
        diffs = [x - y for x, y in zip(b, d, strict=True)]
        mean = sum(wi * x for wi, x in zip(w, diffs, strict=True)) / total
        # the standard error of a weighted mean (uniform weights: the usual sd / sqrt(n))
        spread = (sum((wi * (x - mean)) ** 2 for wi, x in zip(w, diffs, strict=True)) / total ** 2
                  * len(b) / (len(b) - 1)) ** 0.5
        return best if top - means[codes.index(default)] > self.prior * spread else default

    def act(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        """The turn move with the best mean value (see :meth:`choose`)."""
        with self.path():
            return self._act(view, legal)

    def _act(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        table = mask_of(view.table)
        codes = list(dict.fromkeys(code_of(a, table) for a in legal))
        if len(codes) == 1:
            return legal[0]
        k = read(view)
        default = self.policy.turn(k.world(fill(k)), codes, k.outside())
        return choose_action(self.choose(k, codes, True, default), legal, table)

    def claim(self, view: PlayerView, claims: Sequence[Claim]) -> Claim | None:
        """Claim now or let pass, as the search prefers (``claims=own``: only on its own
        turn, and as the heuristic claims otherwise)."""
        with self.path():
            return self._claim(view, claims)

    def _claim(self, view: PlayerView, claims: Sequence[Claim]) -> Claim | None:
        k = read(view)
        table = mask_of(view.table)
        codes = list(dict.fromkeys(code_of(a, table) for a in claims))
        habit = self.policy.claim(k.world(fill(k)), self.seat, codes)
        if self.search_claims == "own" and (view.to_move != self.seat or view.foreplay):
            code = habit
        else:
            code = self.choose(k, [*codes, PASS], False, PASS if habit is None else habit)
            code = None if code == PASS else code
        return None if code is None else choose_action(code, claims, table)  # type: ignore[return-value]


def enumerate_hands(k: Knowledge, limit: int) -> list[tuple[int, list[list[int]]]] | None:
    """Every way to share the unknown cards out among the other hands (sizes and trails
    respected), as per-rank hands with the number of card deals each stands for, or None
    once there are more than ``limit`` (or unseen face-down sets, whose ranks this leaves
    out)."""
    if k.hidden_sets or len(k.others) > 1 and sum(k.unknown) > 12:
        return None  # more than 12 unknown cards in two hands or more: too many worlds to try
    others = k.others
    pool = list(k.unknown)
    found: list[tuple[int, list[list[int]]]] = []
    hands = [[0] * NUM_RANKS for _ in range(k.view.players)]
    hands[k.seat] = list(k.hand)
    ranks = [r for r in range(NUM_RANKS) if pool[r]]
    budget = [16 * limit]  # steps of the walk before giving up

    def fill_seat(i: int, j: int, need: int, weight: int) -> bool:
        """Seat ``others[i]`` takes ``need`` more cards from ranks ``ranks[j:]``; False
        once past the limit."""
        budget[0] -= 1
        if budget[0] < 0:
            return False
        s = others[i]
        if need == 0:
            if i + 1 == len(others):
                if any(pool[r] for r in ranks):
                    return True
                found.append((weight, [list(h) for h in hands]))
                return len(found) <= limit
            return fill_seat(i + 1, 0, k.sizes[others[i + 1]], weight)
        if j == len(ranks):
            return True
        r = ranks[j]
        top = 0 if k.forbidden[s] >> r & 1 else min(pool[r], need)
        left = sum(pool[q] for q in ranks[j + 1:])
        for c in range(top, -1, -1):
            if need - c > left:
                break
            hands[s][r], pool[r] = c, pool[r] - c
            ok = fill_seat(i, j + 1, need - c, weight * comb(pool[r] + c, c))
            hands[s][r], pool[r] = 0, pool[r] + c
            if not ok:
                return False
        return True

    if not others:
        return None
    if not fill_seat(0, 0, k.sizes[others[0]], 1):
        return None
    return found


_KINDS: dict[tuple[object, ...], dict[tuple[int, int], tuple[int, ...]]] = {}


def capture_kinds(rules: Rules) -> dict[tuple[int, int], tuple[int, ...]]:
    """The kinds of capture open on a rank with ``h`` cards in the mover's hand and ``t`` on
    the table, by ``(h, t)``, as the engine's play-out tables list them for ``rules``."""
    k = tables_for(rules)
    known = _KINDS.get(k.key)
    if known is None:
        n = k.n
        found: dict[tuple[int, int], set[int]] = {}
        for g, c in enumerate(k.counts):
            for capture in k.multi[0][g]:
                found.setdefault((c[0], c[n]), set()).add(capture[3] & 7)
        known = _KINDS[k.key] = {key: tuple(sorted(v)) for key, v in found.items()}
    return known
