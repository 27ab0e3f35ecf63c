"""The heuristic's capture order, tuned item by item in duplicate play on the kernel.

On a rank, what a capture does is fixed by its kind and the rank's counts: the mover's
cards ``h``, the table's ``t`` and the other hands' ``out`` (live counts are 2 or 4).  In
the standard game that makes ten (kind, h, t, out) items, and a capture policy that reads
only what a seat may count is an order of them (a tie goes to the lowest rank).  This
searches that order directly: each round, each item's value is moved to every slot among
the other items' values (just above, equal, just below), and a move is kept if it gains
more than its standard error; a candidate plays one seat of every deal against four seats
of the opponents, at every seat in turn, and its gain is its chips minus the opponents'
own in the same seat of the same deal.  With ``--selfplay`` the opponents are, from the
second round on, the best order so far.  The winner is then measured on fresh deals, one
seat among four of the start (or ``--against``), and one start seat among four of it.

    .venv/bin/python experiments/tune_table.py [--preset P] [--deals N] [--rounds R] [--selfplay]
"""

from __future__ import annotations

import argparse
import statistics
from collections.abc import Callable

from tune_rollout import deal  # the same dealt positions, cached

from lald.bots.kernel import HEURISTIC, TUNED, HeuristicTables, Params, Score, heuristic_outcome, score_of
from lald.core import Rules
from lald.core.fast.tables import tables_for

KINDS = ("single", "sweep", "pair", "prial")
Item = tuple[int, int, int, int]
"""(kind, h, t, out)."""
Table = dict[Item, float]


def items(rules: Rules) -> list[Item]:
    """Every (kind, h, t, out) a capture of the kernel can have under ``rules``."""
    k = tables_for(rules)
    n = k.n
    seen: set[Item] = set()
    for m in range(n):
        for g, c in enumerate(k.counts):
            for capture in k.multi[m][g]:
                seen.add((capture[3] & 7, c[m], c[n], sum(c[:n]) - c[m]))
    return sorted(seen)


def from_params(rules: Rules, p: Params) -> Table:
    """The values the parametric score ``p`` gives every item."""
    score = score_of(p)
    return {item: score(*item) for item in items(rules)}


def as_score(table: Table, fallback: Score) -> Score:
    def score(kind: int, h: int, t: int, out: int) -> float:
        value = table.get((kind, h, t, out))
        return fallback(kind, h, t, out) if value is None else value
    return score


_CACHE: dict[tuple[object, ...], HeuristicTables] = {}


def policy(rules: Rules, table: Table) -> HeuristicTables:
    key = (id(rules), tuple(sorted(table.items())))
    if key not in _CACHE:
        if len(_CACHE) > 64:
            _CACHE.clear()
        _CACHE[key] = HeuristicTables(tables_for(rules), as_score(table, score_of(HEURISTIC)))
    return _CACHE[key]


def baseline(rules: Rules, seeds: range, opp: Table) -> dict[int, list[float]]:
    """Every seat's chips when ``opp`` plays every seat."""
    h = policy(rules, opp)
    return {seed: deal(rules, seed).copy().finish_as(heuristic_outcome(deal(rules, seed), policy=h)).values()
            for seed in seeds}


def gain(rules: Rules, cand: Table, seeds: range, opp: Table,
         base: dict[int, list[float]]) -> tuple[float, float]:
    """Mean chips per seat-deal of ``cand`` at one seat among ``opp``, less ``opp``'s own
    in that seat, and its standard error."""
    o, c = policy(rules, opp), policy(rules, cand)
    mixed = [o.mixed(c, [s]) for s in range(rules.players)]
    diffs = []
    for seed in seeds:
        fs = deal(rules, seed)
        for s in range(rules.players):
            diffs.append(fs.copy().finish_as(heuristic_outcome(fs, policy=mixed[s])).value(s) - base[seed][s])
    return statistics.fmean(diffs), statistics.stdev(diffs) / len(diffs) ** 0.5


def name(item: Item) -> str:
    kind, h, t, out = item
    return f"{KINDS[kind]} (hand {h}, table {t}, others {out})"


def search(rules: Rules, start: Table, seeds: range, rounds: int, selfplay: bool,
           log: Callable[[str], None]) -> Table:
    best, opp = dict(start), dict(start)
    for r in range(rounds):
        if selfplay:
            opp = dict(best)
        base = baseline(rules, seeds, opp)
        best_gain, _ = gain(rules, best, seeds, opp, base)
        improved = False
        for item in list(best):
            others = sorted({v for i, v in best.items() if i != item})
            slots = {o + d for o in others for d in (-0.05, 0.0, 0.05)} | {others[0] - 1, others[-1] + 1}
            top: tuple[float, float, Table] | None = None
            for value in sorted(slots):
                if abs(value - best[item]) < 1e-9:
                    continue
                trial = dict(best)
                trial[item] = round(value, 3)
                g, se = gain(rules, trial, seeds, opp, base)
                if g > best_gain + se and (top is None or g > top[0]):
                    top = (g, se, trial)
            if top is not None:
                best_gain, se, best = top
                improved = True
                log(f"round {r + 1}: {name(item)} = {best[item]:+.2f}: {best_gain:+.4f} ± {1.96 * se:.4f}")
        if not improved:
            break
    return best


def show(table: Table) -> str:
    return "\n".join(f"  {v:+6.2f}  {name(i)}" for i, v in sorted(table.items(), key=lambda x: -x[1]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--preset", default="survivor")
    parser.add_argument("--deals", type=int, default=3000)
    parser.add_argument("--check", type=int, default=20000)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--start", choices=("heuristic", "tuned"), default="tuned")
    parser.add_argument("--selfplay", action="store_true", help="tune against the best so far")
    args = parser.parse_args()
    rules = Rules.make(args.preset)
    old = from_params(rules, HEURISTIC)
    start = from_params(rules, TUNED[rules.prize_rule] if args.start == "tuned" else HEURISTIC)
    print(f"start:\n{show(start)}")
    best = search(rules, start, range(args.deals), args.rounds, args.selfplay, print)
    print(f"{args.preset}: tuned order\n{show(best)}")
    check = range(1_000_000, 1_000_000 + args.check)
    for label, cand, opp in (("tuned among heuristic v3", best, old), ("heuristic v3 among tuned", old, best),
                             ("tuned among start", best, start), ("start among tuned", start, best),
                             ("start among heuristic v3", start, old)):
        g, se = gain(rules, cand, check, opp, baseline(rules, check, opp))
        print(f"{label}: {g:+.4f} ± {1.96 * se:.4f} chips per seat-deal ({args.check} fresh deals)")


if __name__ == "__main__":
    main()
