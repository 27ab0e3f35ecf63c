"""Screen search bots on the same decisions, judged in the true deal (development only).

Plays deals with a lineup of bots and, at turn decisions picked at random among those
with a choice, keeps the true state.  Every candidate bot then decides at every kept
decision from the seat's view alone, and its choice is judged by the true deal: the
seat's value after the move when every seat plays on by the ``heuristic`` level
(``--judge heuristic``), or by the exact max-n solve once few cards are left and the
heuristic before (``--judge solve``); or by pimc's own judgement from the seat's view
with many worlds (``--judge reference``: low noise, but blind to what the opponent model
knows).  The candidates see the same decisions, so their
difference is paired: where two choose alike it is zero.  A judge that plays on by a
fixed policy favours choices that suit that policy, so the official figures still come
from ``lald tournament``; this only screens.

    .venv/bin/python experiments/judge.py --preset P --points N --lineup pimc:worlds=8 \\
        --bot expert:time_limit=0.01:worlds=10000 --bot pimc:time_limit=0.01:worlds=10000
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from collections.abc import Sequence

from lald.bots.expert import Player
from lald.bots.heuristic import DROPPED, RolloutPolicy, level_params
from lald.bots.knowledge import read
from lald.bots.search import PimcBot
from lald.core import Rules, State
from lald.core.cards import mask_of
from lald.core.codes import code_of
from lald.core.fast import FastState
from lald.play.loop import step
from lald.play.spec import BotSpec, parse_spec

REFERENCE = 600
"""Worlds of the ``reference`` judge."""

Point = tuple[State, int, list[int]]
"""The true state before a turn decision, the seat to move, its distinct turn codes."""


def points(rules: Rules, lineup: Sequence[BotSpec], count: int, seed: int, rate: float = 0.2) -> list[Point]:
    """``count`` turn decisions with a choice, from deals played by ``lineup`` (cycled
    over the seats)."""
    rng = random.Random(seed)
    out: list[Point] = []
    deal = 0
    while len(out) < count:
        state = State.deal(rules, 70_000 + 1000 * seed + deal, dealer=deal % rules.players)
        bots = [lineup[(s + deal) % len(lineup)].make(s, rules, random.Random(deal * 11 + s))
                for s in range(rules.players)]
        while not state.over and len(out) < count:
            mover = state.to_move
            if mover is not None and not state.open_claims() and rng.random() < rate:
                codes = FastState.from_state(state).turn_codes()
                if len(set(codes)) > 1:
                    out.append((state.clone(), mover, list(dict.fromkeys(codes))))
            step(state, bots)
        deal += 1
    return out


class Judge:
    """The value of each move at a decision: in the true deal, or (``reference``) by
    pimc's own judgement with :data:`REFERENCE` worlds drawn from the seat's view."""

    def __init__(self, rules: Rules, kind: str) -> None:
        self.rules = rules
        self.kind = kind
        self.rollout = RolloutPolicy(rules, DROPPED, level_params(rules))
        self.solver = Player(rules, solve_cards=12, node_cap=20_000) if kind == "solve" else None

    def values(self, point: Point) -> dict[int, float]:
        state, seat, codes = point
        if self.kind == "reference":
            judge = PimcBot(seat, self.rules, random.Random(7), worlds=REFERENCE, time_limit=1e9)
            return dict(zip(codes, judge.evaluate(read(state.view(seat)), codes), strict=True))
        fs = FastState.from_state(state)
        out = {}
        for code in codes:
            child = fs.copy()
            child.apply(code)
            if self.solver is not None:
                out[code] = self.solver.finish(child, seat)
            else:
                out[code] = self.rollout.play(child).value(seat)
        return out


def decide(spec: BotSpec, point: Point, rules: Rules, seed: int) -> tuple[int, float]:
    """The code the bot of ``spec`` plays at ``point``, and the seconds it took."""
    state, seat, _ = point
    bot = spec.make(seat, rules, random.Random(seed))
    if getattr(bot, "needs_state", False):
        bot.see(state)  # type: ignore[attr-defined]
    view = state.view(seat)
    legal = state.turn_actions()
    start = time.perf_counter()
    action = bot.act(view, legal)
    return code_of(action, mask_of(view.table)), time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--preset", default="survivor")
    parser.add_argument("--points", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--lineup", default="pimc:worlds=8", help="comma-separated bots that play the deals")
    parser.add_argument("--bot", action="append", required=True, help="a candidate (repeatable)")
    parser.add_argument("--judge", choices=("heuristic", "solve", "reference"), default="heuristic")
    args = parser.parse_args()
    rules = Rules.make(args.preset)
    lineup = [parse_spec(s) for s in args.lineup.split(",")]
    specs = [parse_spec(s) for s in args.bot]
    start = time.perf_counter()
    pts = points(rules, lineup, args.points, args.seed)
    judge = Judge(rules, args.judge)
    truth = [judge.values(p) for p in pts]
    print(f"{len(pts)} decisions ({args.preset}, deals by {args.lineup}, judged by {args.judge}) "
          f"in {time.perf_counter() - start:.0f} s")
    scores: list[list[float]] = []
    for spec in specs:
        got, times = [], []
        for i, p in enumerate(pts):
            code, seconds = decide(spec, p, rules, 1000 + i)
            got.append(truth[i][code] - max(truth[i].values()))
            times.append(seconds)
        scores.append(got)
        print(f"{spec.text}: regret {-statistics.fmean(got):.4f} chips per decision, "
              f"{1000 * statistics.median(times):.1f} ms median, {1000 * statistics.fmean(times):.1f} mean")
    for spec, got in zip(specs[1:], scores[1:], strict=True):
        diff = [a - b for a, b in zip(got, scores[0], strict=True)]
        half = 1.96 * statistics.stdev(diff) / math.sqrt(len(diff))
        print(f"{spec.text} − {specs[0].text}: {statistics.fmean(diff):+.4f} ± {half:.4f} chips per "
              f"decision, differ at {sum(d != 0 for d in diff)} of {len(diff)}")


if __name__ == "__main__":
    main()
