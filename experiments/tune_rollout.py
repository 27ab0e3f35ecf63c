"""The heuristic's capture scores, tuned by duplicate play (they are the level's since version 4).

Heuristic version 3's capture scores (:data:`lald.bots.kernel.HEURISTIC`) are a few round
numbers chosen by hand; this search found :data:`lald.bots.kernel.TUNED`, first the
expert's roll-out policy, now the ``heuristic`` level's own. Here they are the parameters
of a score (a bonus per capture kind, the ``deny`` bonus and malus, the ``safe_keep``
malus, and two new terms: the cards of the rank kept in the hand, the table cards of the
rank left for others), and a coordinate search tunes them: a candidate plays one seat of
every deal against four seats of the heuristic, in turn at every seat, on the fused
kernel, and its gain is its chips minus the heuristic's in the same seat of the same deal
(paired, so the luck of the cards cancels). With ``--selfplay`` the others play, from the
second round on, the best scores of the round before. The search uses one set of deals;
the winner is then measured on fresh deals, against four heuristic seats and as the four
others of one heuristic seat.

    .venv/bin/python experiments/tune_rollout.py [--preset P] [--deals N] [--check M] [--selfplay]
"""

from __future__ import annotations

import argparse
import statistics
from collections.abc import Callable

from lald.bots.kernel import HEURISTIC, Params, heuristic_outcome, tables
from lald.core import Rules, State
from lald.core.fast import FastState

BASE = HEURISTIC
STEPS: Params = {"single": 0.5, "sweep": 0.5, "pair": 0.5, "prial": 0.5, "deny": 0.3, "spread": 0.3,
                 "safe": 0.5, "keep": 0.5, "leave": 0.5}


def gain(rules: Rules, p: Params, seeds: range, opp: Params,
         base: dict[int, list[float]]) -> tuple[float, float]:
    """Mean chips per seat-deal of ``p`` at one seat against ``opp`` at the others, less
    ``opp``'s own in that seat (``base``), and its standard error."""
    ht = tables(rules, opp)
    cand = tables(rules, p)
    mixed = [ht.mixed(cand, [s]) for s in range(rules.players)]
    diffs = []
    for seed in seeds:
        fs = deal(rules, seed)
        for s in range(rules.players):
            value = fs.copy().finish_as(heuristic_outcome(fs, policy=mixed[s])).value(s)
            diffs.append(value - base[seed][s])
    return statistics.fmean(diffs), statistics.stdev(diffs) / len(diffs) ** 0.5


_DEALS: dict[tuple[int, int], FastState] = {}


def deal(rules: Rules, seed: int) -> FastState:
    """The position ``seed`` deals (dealer ``seed`` mod the players), made once."""
    key = (id(rules), seed)
    if key not in _DEALS:
        _DEALS[key] = FastState.from_state(State.deal(rules, seed=seed, dealer=seed % rules.players))
    return _DEALS[key]


def baseline(rules: Rules, seeds: range, opp: Params) -> dict[int, list[float]]:
    """Every seat's chips when ``opp`` plays every seat."""
    policy = tables(rules, opp)
    out = {}
    for seed in seeds:
        fs = deal(rules, seed)
        out[seed] = fs.copy().finish_as(heuristic_outcome(fs, policy=policy)).values()
    return out


def search(rules: Rules, seeds: range, rounds: int, selfplay: bool, log: Callable[[str], None]) -> Params:
    """Coordinate search from the heuristic's scores: each round, each parameter moved by
    a half, one, two or four steps either way, the best move kept if it gains more than
    its standard error.  The others play the heuristic, or (``selfplay``) from the second
    round on the best scores of the round before."""
    best = opp = dict(BASE)
    for r in range(rounds):
        if selfplay:
            opp = best
        base = baseline(rules, seeds, opp)
        best_gain, _ = gain(rules, best, seeds, opp, base)
        improved = False
        for name in BASE:
            top: tuple[float, float, Params] | None = None
            for factor in (-4, -2, -1, -0.5, 0.5, 1, 2, 4):
                trial = dict(best)
                trial[name] = round(trial[name] + factor * STEPS[name], 3)
                g, se = gain(rules, trial, seeds, opp, base)
                if g > best_gain + se and (top is None or g > top[0]):
                    top = (g, se, trial)
            if top is not None:
                best_gain, se, best = top
                improved = True
                log(f"round {r + 1}: {name} = {best[name]:+.2f}: {best_gain:+.4f} ± {1.96 * se:.4f}")
        if not improved:
            break
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--preset", default="survivor")
    parser.add_argument("--deals", type=int, default=3000)
    parser.add_argument("--check", type=int, default=20000)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--selfplay", action="store_true", help="tune against the best so far")
    args = parser.parse_args()
    rules = Rules.make(args.preset)
    best = search(rules, range(args.deals), args.rounds, args.selfplay, print)
    check = range(1_000_000, 1_000_000 + args.check)
    print(f"{args.preset}: tuned scores {best}")
    g, se = gain(rules, best, check, BASE, baseline(rules, check, BASE))
    print(f"on {args.check} fresh deals, tuned − heuristic at one seat among heuristics: "
          f"{g:+.4f} ± {1.96 * se:.4f} chips per seat-deal")
    g, se = gain(rules, BASE, check, best, baseline(rules, check, best))
    print(f"heuristic − tuned at one seat among tuned: {g:+.4f} ± {1.96 * se:.4f}")


if __name__ == "__main__":
    main()
