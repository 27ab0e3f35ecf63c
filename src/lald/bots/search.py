"""Search bots: ``pimc`` (determinized sampling), ``expert`` (a better search on top of
it, :mod:`lald.bots.expert`) and ``oracle`` (the expert's search with every hand in
sight, a yardstick only).

Every candidate move is played out to the end of the deal on the fast path
(:mod:`lald.core.fast`) with the heuristic as roll-out policy for every seat, in worlds
drawn by :mod:`lald.bots.sampler`; the move with the best mean value for this seat
(chips under the active rules, prize included) is chosen.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterable, Sequence

from ..core import Action, Claim, PlayerView, Rules, State
from ..core.cards import mask_of
from ..core.codes import choose_action, code_of
from ..core.fast import FastState
from . import Bot
from .expert import ExpertBot as ExpertBot  # the expert lives in its own module
from .expert import kernel_path
from .heuristic import DROPPED, HeuristicPolicy, RolloutPolicy, level_params
from .knowledge import Knowledge, fill, read
from .params import number, whole
from .sampler import sample


class _Rollout(RolloutPolicy):
    """The heuristic's roll-out, and the value of a move after it."""

    def value_after(self, fs: FastState, code: int, seat: int) -> float:
        f = fs.copy()
        f.apply(code)
        return self.play(f).value(seat)


class PimcBot(Bot):
    """Perfect-information Monte Carlo: ``worlds`` sampled worlds (48 by default; version
    3 drew 24), or as many as ``time_limit`` seconds allow, every candidate rolled out
    once in each.  Roll-outs and claims play the ``heuristic`` level (its habits, without
    :data:`~lald.bots.heuristic.DROPPED`, and its tuned capture scores); ``heuristic=3``
    plays out with heuristic version 3 instead, as pimc version 3 did; ``kernel=python``
    decides on the pure-Python path (see :mod:`lald.bots.expert`)."""

    name = "pimc"
    version = "4"

    def __init__(self, seat: int, rules: Rules, rng: random.Random, worlds: int | str = 48,
                 time_limit: float | str = 0.25, heuristic: str = "4", kernel: str = "compiled") -> None:
        super().__init__(seat, rules, rng)
        self.path = kernel_path(kernel)
        self.worlds = whole("worlds", worlds, 1, "a whole number of worlds, at least 1")
        self.time_limit = number("time_limit", time_limit, 0, "a number of seconds above 0", above=True)
        params = level_params(rules, str(heuristic))
        self.rollout = _Rollout(rules, DROPPED, params)
        self.fallback = HeuristicPolicy(rules, DROPPED, params)

    def _worlds(self, k: Knowledge) -> Iterable[FastState]:
        deadline = time.perf_counter() + self.time_limit
        for i in range(self.worlds):
            if i and time.perf_counter() > deadline:
                return
            (hands, _), _ = sample(k, self.rng)
            yield k.world(hands)

    def evaluate(self, k: Knowledge, codes: list[int]) -> list[float]:
        """The mean value of each turn move in ``codes`` over the sampled worlds."""
        totals = [0.0] * len(codes)
        seat = self.seat
        count = 0
        for fs in self._worlds(k):
            count += 1
            for i, code in enumerate(codes):
                totals[i] += self.rollout.value_after(fs, code, seat)
        return [t / max(count, 1) for t in totals]

    def act(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        """The turn move with the best mean value over sampled worlds."""
        with self.path():
            return self._act(view, legal)

    def _act(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        table = mask_of(view.table)
        codes = list(dict.fromkeys(code_of(a, table) for a in legal))
        if len(codes) == 1:
            return legal[0]
        means = self.evaluate(read(view), codes)
        best = max(means)
        code = self.rng.choice([c for c, m in zip(codes, means, strict=True) if m == best])
        return choose_action(code, legal, table)

    def claim(self, view: PlayerView, claims: Sequence[Claim]) -> Claim | None:
        """Claims as the heuristic makes them (the search is spent on turn moves)."""
        k = read(view)
        fs = k.world(fill(k))
        table = mask_of(view.table)
        codes = list(dict.fromkeys(code_of(a, table) for a in claims))
        code = self.fallback.claim(fs, self.seat, codes)
        return None if code is None else choose_action(code, claims, table)  # type: ignore[return-value]


class OracleBot(ExpertBot):
    """The expert's search in the one true world: it sees every hand.  A yardstick for
    measurements, never an opponent in the menus.  It needs the true state: the loop
    that runs it calls :meth:`see` with the state before every decision."""

    name = "oracle"
    version = "3"
    needs_state = True

    def __init__(self, seat: int, rules: Rules, rng: random.Random, worlds: int | str = 1,
                 time_limit: float | str = 0.08, model: bool | int | str = False,
                 solve: int | str = 12, nodes: int | str = 1500) -> None:
        # the one true world: nothing to list or weigh, no noise to guard against, and
        # claims searched on its own turn only (as version 3 did)
        super().__init__(seat, rules, rng, worlds=worlds, time_limit=time_limit, model=model, solve=solve,
                         nodes=nodes, exact=0, claims="own", prior=0)
        self.state: State | None = None

    def see(self, state: State) -> None:
        """Be shown the true state of the deal (every hand)."""
        self.state = state

    def draw(self, k: Knowledge, capped: list[int], dead: list[int]) -> FastState:
        """The one true world."""
        if self.state is None:
            raise RuntimeError("the oracle needs the true state: call see(state) before each decision")
        return FastState.from_state(self.state)


def _describe(code: int, view: PlayerView) -> str:
    kind, rank = code & 7, code >> 3 & 15
    from ..core.cards import RANK_PLURALS
    from ..core.codes import SHAPES, TABLE_CLAIM, TRAIL

    name = RANK_PLURALS[rank]
    if kind < 4:
        play, take = SHAPES[kind]
        return f"take {take} {name} with {play}: {play + take} cards now"
    if kind == 4:
        return "no capture is possible: lie down"
    if kind == TRAIL:
        return f"no capture is possible: trail one of your {name}"
    if kind == TABLE_CLAIM:
        return f"claim the {name} on the table before anyone else does"
    return f"lay your {name} into your won pile"


def hint(view: PlayerView, legal: Sequence[Action]) -> tuple[Action | None, str]:
    """What the expert would do here, and why, in one line (for the terminal's hint key).

    ``legal`` may mix open claims and turn actions; the answer is None when the best is
    to let the claims pass and it is not this seat's turn."""
    bot = ExpertBot(view.seat, view.rules, random.Random(len(view.history)))
    claims = [a for a in legal if isinstance(a, Claim)]
    turns = [a for a in legal if not isinstance(a, Claim)]
    table = mask_of(view.table)
    if claims:
        choice = bot.claim(view, claims)
        if choice is not None:
            return choice, _describe(code_of(choice, table), view) + " (the search prefers it to waiting)"
        if not turns:
            return None, "let the claim pass for now: holding it is worth more"
    if not turns:
        raise ValueError("hint needs at least one legal action")
    k = read(view)
    codes = list(dict.fromkeys(code_of(a, table) for a in turns))
    if len(codes) == 1:
        return turns[0], _describe(codes[0], view) + " (the only move)"
    means = bot.evaluate(k, codes, acting=True)
    best = max(range(len(codes)), key=means.__getitem__)
    second = max((m for i, m in enumerate(means) if i != best), default=means[best])
    return (choose_action(codes[best], turns, table),
            f"{_describe(codes[best], view)}; worth {means[best]:+.1f} chips on average in sampled deals, "
            f"{means[best] - second:.1f} more than the next best")
