"""Where the oracle's edge comes from: bots that see every hand at some decisions only.

The oracle (``lald.bots.search.OracleBot``) is the expert's search in the one true deal.
Each level here plays some of its decisions as the oracle and the others as ``pimc``
(``time_limit`` seconds a decision, no cap on worlds; 10 ms by default), so its gain
over pimc in a duplicate tournament is what seeing the hands is worth at those
decisions alone:

- ``part=turns``: the oracle's turn moves, pimc's claims (the heuristic's habit);
- ``part=claims``: the oracle's claims, searched in every window it is offered (the
  oracle level searches them on its own turn only), pimc's turn moves;
- ``part=late`` with ``cards=N``: the oracle once at most N cards are left in all the
  hands together, pimc before; ``part=early``: the oracle before, pimc after.

It registers the level ``parts`` and runs ``lald tournament`` in this process, so a
command reads like the tournament's (development only; ``--jobs 1``):

    .venv/bin/python experiments/oracle_parts.py --preset survivor --deals 400 --jobs 1 \\
        --bots heuristic,pimc:time_limit=0.01:worlds=10000,oracle,parts:part=turns,parts:part=claims
"""

from __future__ import annotations

import random
import sys
from collections.abc import Sequence

from lald.bots import LEVELS, Bot
from lald.bots.search import OracleBot, PimcBot
from lald.cli import main
from lald.core import Action, Claim, PlayerView, Rules, State

PARTS = ("turns", "claims", "late", "early")


class PartsBot(Bot):
    """The oracle at some decisions, pimc at the others (see the module's text)."""

    name = "parts"
    version = "1"
    needs_state = True

    def __init__(self, seat: int, rules: Rules, rng: random.Random, part: str = "turns",
                 cards: int | str = 16, time_limit: float | str = 0.01) -> None:
        super().__init__(seat, rules, rng)
        if part not in PARTS:
            raise ValueError(f"part={part}: choose {', '.join(PARTS)}")
        self.part = part
        self.cards = int(cards)
        self.oracle = OracleBot(seat, rules, rng)
        if part == "claims":
            self.oracle.search_claims = "all"
        limit = float(time_limit)
        self.pimc = PimcBot(seat, rules, rng, worlds=10_000, time_limit=limit)

    def see(self, state: State) -> None:
        """Be shown the true state (every hand)."""
        self.oracle.see(state)

    def _oracle(self, view: PlayerView, turn: bool) -> bool:
        left = sum(view.hand_sizes)
        return {"turns": turn, "claims": not turn, "late": left <= self.cards,
                "early": left > self.cards}[self.part]

    def act(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        """The oracle's move or pimc's, by the part."""
        return (self.oracle if self._oracle(view, True) else self.pimc).act(view, legal)

    def claim(self, view: PlayerView, claims: Sequence[Claim]) -> Claim | None:
        """The oracle's claim or pimc's, by the part."""
        return (self.oracle if self._oracle(view, False) else self.pimc).claim(view, claims)


if __name__ == "__main__":
    LEVELS["parts"] = PartsBot
    main(["tournament", *sys.argv[1:]])
