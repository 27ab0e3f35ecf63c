"""A quick duplicate strength check between two levels (for development; the official
figures come from ``lald tournament``).

For every seeded deal, the candidate plays one seat against the baseline in all other
seats, once per seat (rotation), and the same deal is played by the baseline in every
seat; the candidate's gain is its chips minus the baseline's chips in the same seat of
the same deal.  Prints the mean gain per deal with a 95% interval.

    python -m lald.bots.strength CANDIDATE BASELINE [--deals N] [--preset P] [--players N]
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from collections.abc import Sequence

from ..core import Action, ClaimWindow, Rules, State
from . import Bot, make_bot


def play(state: State, bots: Sequence[Bot], clock: list[float] | None = None) -> State:
    """Play ``state`` to its end (the claim window, :class:`lald.core.ClaimWindow`, then the
    turn)."""
    window = ClaimWindow(state)
    while not state.over:
        ask = window.asking()
        seat = ask[0] if ask is not None else state.to_move
        assert seat is not None
        bot = bots[seat]
        if getattr(bot, "needs_state", False):
            bot.see(state)  # type: ignore[attr-defined]
        start = time.perf_counter()
        choice: Action | None = (bot.claim(state.view(seat), ask[1]) if ask is not None
                                 else bot.act(state.view(seat), window.turn()[1]))
        if clock is not None:
            clock.append(time.perf_counter() - start)
        if choice is None:
            window.let_pass(seat)
        else:
            window.apply(choice)
    return state


def duplicate(candidate: str, baseline: str, rules: Rules, deals: int, seed: int = 0) -> list[float]:
    """Per deal: the candidate's mean gain over the rotation of seats."""
    n = rules.players
    gains = []
    for d in range(deals):
        deal_seed = seed * 1_000_003 + d
        dealer = d % n

        def lineup(hero: int | None, deal_seed: int = deal_seed) -> list[Bot]:
            return [make_bot(candidate if s == hero else baseline, s, rules,
                             random.Random(deal_seed * 31 + s)) for s in range(n)]

        base = play(State.deal(rules, deal_seed, dealer), lineup(None)).result
        assert base is not None
        total = 0.0
        for hero in range(n):
            res = play(State.deal(rules, deal_seed, dealer), lineup(hero)).result
            assert res is not None
            total += _score(rules, res.chips, res.won, hero) - _score(rules, base.chips, base.won, hero)
        gains.append(total / n)
    return gains


def _score(rules: Rules, chips: tuple[int, ...], won: tuple[int, ...], seat: int) -> float:
    if rules.antes:
        return float(chips[seat])
    return float(won[seat] == max(won))


def interval(values: list[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95% interval."""
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else math.inf
    return mean, half


def main() -> None:
    """The command line."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("candidate")
    parser.add_argument("baseline")
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--preset", default="survivor")
    parser.add_argument("--players", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rules = Rules.make(args.preset, args.players)
    start = time.perf_counter()
    gains = duplicate(args.candidate, args.baseline, rules, args.deals, args.seed)
    mean, half = interval(gains)
    print(f"{args.candidate} vs {args.baseline} ({args.preset}, {args.players} players, {args.deals} "
          f"duplicate deals): {mean:+.3f} ± {half:.3f} chips per deal  [{time.perf_counter() - start:.0f} s]")


if __name__ == "__main__":
    main()
