"""How much does pimc lose to the luck of its sampled worlds? (docs/strength.md, §4)

Plays pimc tables and, at decision points picked at random among the turn moves with a
choice, lets pimc judge the candidates once with many worlds (the reference) and again,
with other seeds, with few.  The *regret* of a small search is the reference value of
the best candidate minus the reference value of the one it chose: chips per decision
lost to sampling noise alone, as pimc's own evaluation sees it (so it says nothing of
the evaluation's own errors, which only a stronger player could show).

    .venv/bin/python experiments/world_noise.py [--preset P] [--decisions N]
"""

from __future__ import annotations

import argparse
import random
import statistics
from collections.abc import Iterator

from lald.bots import make_bot
from lald.bots.knowledge import Knowledge, read
from lald.bots.search import PimcBot
from lald.core import Rules, State
from lald.core.fast import FastState
from lald.play.loop import step

REFERENCE = 400
BUDGETS = (4, 8, 16, 64)
REPEATS = 3


def decision_points(rules: Rules, rng: random.Random) -> Iterator[tuple[int, Knowledge, list[int]]]:
    """(seat, what it knows, its distinct turn moves) at random turns of pimc games."""
    deal = 0
    while True:
        state = State.deal(rules, 20_000 + deal, dealer=deal % rules.players)
        bots = [make_bot("pimc", s, rules, random.Random(deal * 7 + s)) for s in range(rules.players)]
        while not state.over:
            mover = state.to_move
            if mover is not None and not state.open_claims() and rng.random() < 0.15:
                codes = list(dict.fromkeys(FastState.from_state(state).turn_codes()))
                if len(codes) > 1:
                    yield mover, read(state.view(mover)), codes
            step(state, bots)
        deal += 1


def main() -> None:
    """Measure and print the regret per budget."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--preset", default="last-capture")
    parser.add_argument("--decisions", type=int, default=40)
    args = parser.parse_args()
    rules = Rules.make(args.preset)
    regret: dict[int, list[float]] = {w: [] for w in BUDGETS}
    spread = []
    points = decision_points(rules, random.Random(5))
    for _ in range(args.decisions):
        seat, k, codes = next(points)
        judge = PimcBot(seat, rules, random.Random(1), worlds=REFERENCE, time_limit=1e9)
        reference = judge.evaluate(k, codes)
        best = max(reference)
        spread.append(best - min(reference))
        for worlds in BUDGETS:
            for repeat in range(REPEATS):
                bot = PimcBot(seat, rules, random.Random(100 + repeat), worlds=worlds, time_limit=1e9)
                means = bot.evaluate(k, codes)
                regret[worlds].append(best - reference[means.index(max(means))])
    print(f"{args.decisions} decisions ({args.preset}); best minus worst candidate "
          f"{statistics.fmean(spread):.3f} chips on average by the {REFERENCE}-world reference")
    for worlds, values in regret.items():
        hits = sum(v == 0 for v in values) / len(values)
        print(f"{worlds:3} worlds: regret {statistics.fmean(values):.3f} chips per decision, "
              f"picks the reference's best {hits:.0%} of the time")


if __name__ == "__main__":
    main()
