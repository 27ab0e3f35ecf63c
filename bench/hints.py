"""Hint speed: seconds for the expert's hint at one decision, one core.

Positions come from deals the heuristic plays (dealers rotate): every turn of every seat
where the moves do more than one thing, from the seat's view and legal actions alone, as
both tables ask for it (:func:`lald.coach.hints.advise`).  Each position is timed twice in
the same run:

* ``web``: the web table's budget (:class:`lald.web.settings.Settings`' ``hint_worlds``
  sampled deals and ``hint_seconds``), what a Hint button waits for;
* ``terminal``: the expert's own budget as it plays, the terminal's hint key.

Prints, per preset, the median, 90th percentile and maximum over the positions, the
median of the runs' medians (``--runs``), and the ratio of the web hint's median to the
terminal's.

    python bench/hints.py [--deals N] [--runs R] [--preset P]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import machine
from lald.bots import make_bot
from lald.coach.hints import advise
from lald.core import Action, Claim, PlayerView, Rules, State
from lald.core.cards import mask_of
from lald.core.codes import code_of
from lald.play.loop import play_deal
from lald.web.settings import Settings


def positions(rules: Rules, deals: int) -> list[tuple[PlayerView, list[Action], str]]:
    """Every turn with a real choice in ``deals`` heuristic deals: view, legal, seed."""
    found: list[tuple[PlayerView, list[Action], str]] = []
    for d in range(deals):
        seed = 2000 + d
        played = play_deal(State.deal(rules, seed, dealer=d % rules.players),
                           [make_bot("heuristic", s, rules, random.Random(seed * 31 + s))
                            for s in range(rules.players)])
        state = State.deal(rules, seed, dealer=d % rules.players)
        for action in played.actions:
            seat = state.to_move
            if not state.over and action.seat == seat and not isinstance(action, Claim):
                legal = state.legal_actions(seat)
                table = mask_of(state.table)
                if len({code_of(a, table) for a in legal if not isinstance(a, Claim)}) > 1:
                    found.append((state.view(seat), legal, f"bench/{seed}/{len(state.actions)}"))
            state.apply(action)
    return found


def timings(places: list[tuple[PlayerView, list[Action], str]], **budget: float) -> list[float]:
    """Seconds per hint at each position."""
    out = []
    for view, legal, seed in places:
        start = time.perf_counter()
        advise(view, legal, seed=seed, **budget)  # type: ignore[arg-type]
        out.append(time.perf_counter() - start)
    return out


def main() -> None:
    """The command line."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=4)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--preset", action="append", default=[])
    args = parser.parse_args()
    print(machine.line())
    web = Settings()
    print(f"hints at turns with a choice, {args.deals} heuristic deals per preset, {args.runs} runs; "
          f"web: {web.hint_worlds} worlds, {web.hint_seconds} s; terminal: the expert's own budget")
    for preset in args.preset or ["survivor", "last-capture"]:
        places = positions(Rules.make(preset), args.deals)
        medians: dict[str, list[float]] = {"web": [], "terminal": []}
        last: dict[str, list[float]] = {}
        for _ in range(args.runs):
            last["web"] = timings(places, worlds=web.hint_worlds, time_limit=web.hint_seconds)
            last["terminal"] = timings(places)
            for name, values in last.items():
                medians[name].append(statistics.median(values))
        for name, values in last.items():
            ordered = sorted(values)
            p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
            print(f"  {preset:12} {name:8} median {1000 * statistics.median(medians[name]):6.1f} ms "
                  f"(runs {', '.join(f'{1000 * m:.1f}' for m in medians[name])}); last run: "
                  f"p90 {1000 * p90:.1f} ms, max {1000 * ordered[-1]:.1f} ms, {len(values)} positions")
        ratio = statistics.median(medians["web"]) / statistics.median(medians["terminal"])
        print(f"  {preset:12} web / terminal {ratio:.1f}x")


if __name__ == "__main__":
    main()
