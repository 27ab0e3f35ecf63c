"""The heuristic's claims against other ways of claiming, in duplicate play on the kernel.

The heuristic makes every claim from its hand at once (it sets prials and mournivals aside
and banks dead ranks the moment it may) and takes spotter pairs on its own turn.  Each
variant here changes one seat's claims only, in every deal at every seat in turn, against
four seats of the heuristic level (turns by its tuned capture scores); the gain is that
seat's chips less the heuristic's own in the same seat of the same deal:

- ``spotter_now``: take spotter pairs at once, out of turn too;
- ``keep_prials``: never set a prial aside (keep the three for captures);
- ``sets_own_turn``: set prials aside only on its own turn, not in another's window.

    .venv/bin/python experiments/claim_variants.py [--preset P] [--deals N]
"""

from __future__ import annotations

import argparse
import statistics

from lald.bots.heuristic import level_params
from lald.bots.kernel import _claim, tables
from lald.core import Rules, State
from lald.core.cards import NUM_RANKS
from lald.core.codes import HAND_CLAIM, TABLE_CLAIM
from lald.core.fast import FastState
from lald.core.fast.playout import ClaimChooser, scored_outcome
from lald.core.fast.tables import ClaimStep, tables_for


def variants(rules: Rules) -> dict[str, ClaimChooser]:
    k = tables_for(rules)

    def prial_set(step: ClaimStep) -> bool:
        return step[0] & 7 == HAND_CLAIM and k.counts[step[2]][step[0] >> 7] == 1

    def spotter_now(options: tuple[ClaimStep, ...], mover: int, order: tuple[int, ...]) -> ClaimStep | None:
        chosen, key = None, (len(order), True, NUM_RANKS)
        for step in options:
            mine = (order.index(step[0] >> 7), step[0] & 7 == TABLE_CLAIM, step[1])
            if mine < key:
                chosen, key = step, mine
        return chosen

    def keep_prials(options: tuple[ClaimStep, ...], mover: int, order: tuple[int, ...]) -> ClaimStep | None:
        return _claim(tuple(s for s in options if not prial_set(s)), mover, order)

    def sets_own_turn(options: tuple[ClaimStep, ...], mover: int, order: tuple[int, ...]) -> ClaimStep | None:
        return _claim(tuple(s for s in options if not (prial_set(s) and s[0] >> 7 != mover)), mover, order)

    return {"spotter_now": spotter_now, "keep_prials": keep_prials, "sets_own_turn": sets_own_turn}


def one_seat(seat: int, variant: ClaimChooser) -> ClaimChooser:
    """Claims by ``variant`` for ``seat``, by the heuristic for every other seat: the
    first seat in the claim order with a claim it wants makes it."""
    def choose(options: tuple[ClaimStep, ...], mover: int, order: tuple[int, ...]) -> ClaimStep | None:
        mine = variant(tuple(s for s in options if s[0] >> 7 == seat), mover, order)
        theirs = _claim(tuple(s for s in options if s[0] >> 7 != seat), mover, order)
        made = [s for s in (mine, theirs) if s is not None]
        return min(made, key=lambda s: order.index(s[0] >> 7)) if made else None
    return choose


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--preset", default="survivor")
    parser.add_argument("--deals", type=int, default=10000)
    args = parser.parse_args()
    rules = Rules.make(args.preset)
    h = tables(rules, level_params(rules))
    n = rules.players
    deals = [FastState.from_state(State.deal(rules, seed=1_000_000 + s, dealer=s % n))
             for s in range(args.deals)]
    base = [fs.copy().finish_as(scored_outcome(fs, h.best, h.others, _claim)).values() for fs in deals]
    for name, variant in variants(rules).items():
        diffs = [fs.copy().finish_as(scored_outcome(fs, h.best, h.others, one_seat(s, variant))).value(s)
                 - b[s] for fs, b in zip(deals, base, strict=True) for s in range(n)]
        half = 1.96 * statistics.stdev(diffs) / len(diffs) ** 0.5
        print(f"{args.preset}: {name} − heuristic {statistics.fmean(diffs):+.4f} ± {half:.4f} chips per "
              f"seat-deal ({args.deals} deals)")


if __name__ == "__main__":
    main()
