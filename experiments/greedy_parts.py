"""Why greedy loses to random: greedy's capture order taken apart (docs/strength.md, §6).

Greedy takes the capture that takes most cards now (sweep 3, pair 2, single or prial 1
from the table; a tie goes to the one that spends fewest from the hand) and claims at
once.  Each variant below claims at once too and changes only the order of capture
kinds it prefers (ties among ranks at random); ``any`` prefers none, like random.  All
play one duplicate tournament together with ``random`` and ``greedy``:

    .venv/bin/python experiments/greedy_parts.py [--preset P] [--deals N]
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from lald.bots import LEVELS, BotFactory
from lald.bots.heuristic import GreedyBot
from lald.core import Action, Capture, PlayerView, Rules
from lald.play.spec import parse_specs
from lald.tournament import duplicate as tournament
from lald.tournament.report import difference_lines, summarize

#: Variant name: the capture kinds it prefers, best first (others after, all alike).
ORDERS = {
    "sweep>single": ("sweep", "single"),
    "sweep>single>pair": ("sweep", "single", "pair"),
    "single": ("single",),
    "any": (),
}


def _kind(action: Action) -> str:
    kind = action.kind if isinstance(action, Capture) else None
    return "none" if kind is None else kind.value


def variant(order: Sequence[str]) -> BotFactory:
    """Greedy with its capture order replaced by ``order``."""

    class Variant(GreedyBot):
        def act(self, view: PlayerView, legal: Sequence[Action]) -> Action:
            rank = {kind: i for i, kind in enumerate(order)}
            best = min(rank.get(_kind(a), len(order)) for a in legal)
            return self.rng.choice([a for a in legal if rank.get(_kind(a), len(order)) == best])

    return Variant


def main() -> None:
    """Run the tournament and print the lines against random."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--preset", default="survivor")
    parser.add_argument("--deals", type=int, default=5000)
    args = parser.parse_args()
    for name, order in ORDERS.items():
        LEVELS[f"greedy.{name}"] = variant(order)
    bots = ["random", "greedy", *(f"greedy.{name}" for name in ORDERS)]
    t = tournament.Tournament(Rules.make(args.preset), tuple(parse_specs(bots)))
    report = summarize(t, tournament.run(t, args.deals))  # in this process: the variants live here
    print(f"{args.deals} duplicate deals, {args.preset}")
    for row in report.rows:
        m = report.strength(row)
        print(f"{row.name:28} {m.mean:+.3f} ± {m.half:.3f}")
    print("\n".join(line for line in difference_lines(report) if line.startswith("random")))


if __name__ == "__main__":
    main()
