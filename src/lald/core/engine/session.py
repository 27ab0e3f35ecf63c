"""A session: deals in rotation, antes, the pot carried over, the ledger and the winner
(docs/rules.md#2-the-deal, docs/rules.md#7-settlement, docs/rules.md#8-the-session).

>>> from lald.core import Rules
>>> session = Session(Rules.make(players=3), seed=5)
>>> while not session.over:
...     deal = session.start_deal()
...     while not deal.over:
...         _ = deal.apply(deal.turn_actions()[0])
...     _ = session.end_deal(deal)
>>> len(session.results) >= 3, sum(session.balances) + session.pot
(True, 0)
"""

from __future__ import annotations

import dataclasses
from typing import Any

from ..actions import action_from_json
from ..cards import CARDS, NUM_CARDS, Card
from ..rng import KeyedRandom, PortableRandom
from ..rules import FirstDealer, Rules, Scoring, TieBreak
from ..scoring import DealResult
from .state import State


def cut_for_dealer(players: int, rng: PortableRandom) -> tuple[int, tuple[tuple[tuple[int, Card], ...], ...]]:
    """Every seat draws a card; the lowest rank deals; a tie redraws among the tied.

    Returns the dealer and each round of draws as ``(seat, card)`` pairs.
    """
    deck: list[int] = []
    contenders = list(range(players))
    rounds = []
    while True:
        draws = []
        for seat in contenders:
            if not deck:
                deck = list(range(NUM_CARDS))
                rng.shuffle(deck)
            draws.append((seat, CARDS[deck.pop()]))
        rounds.append(tuple(draws))
        low = min(card.rank for _, card in draws)
        contenders = [seat for seat, card in draws if card.rank == low]
        if len(contenders) == 1:
            return contenders[0], tuple(rounds)


@dataclasses.dataclass(frozen=True, slots=True)
class Standing:
    """A seat's place in the session."""

    seat: int
    balance: int
    deals_won: int
    cards_won: int


class Session:
    """Deals in rotation with a signed ledger: Σ balances + pot = 0 at every moment."""

    def __init__(self, rules: Rules, seed: int = 0, *, secret: bytes | None = None) -> None:
        """A session dealt from ``seed`` (each deal's seed the next SplitMix64 output, so
        one deal's seed gives the next ones), or, given a ``secret``, from it (each deal
        and the cut from its own :class:`KeyedRandom` stream: nothing dealt tells anything
        of another deal without the secret; the seed is then not used)."""
        self.rules = rules
        self.seed = seed
        self._secret = secret
        self._rng = PortableRandom(seed) if secret is None else KeyedRandom(secret, "cut")
        n = rules.players
        if rules.first_dealer is FirstDealer.CUT:
            self.first_dealer, self.cut = cut_for_dealer(n, self._rng)
        else:
            self.first_dealer, self.cut = 0, ()
        self.schedule: list[int] = [(self.first_dealer + i) % n for i in range(rules.deals)]
        self.balances: list[int] = [0] * n
        self.pot = 0
        self.results: list[DealResult] = []
        self.deals: list[State] = []
        self.tie_cycles = 0
        self.current: State | None = None
        self.over = False
        self.winners: tuple[int, ...] = ()

    @property
    def deal_number(self) -> int:
        """How many deals have been started (the current one included)."""
        return len(self.deals)

    def start_deal(self) -> State:
        """Deal the next deal, with the pot and balances carried in."""
        if self.over:
            raise ValueError("the session is over")
        if self.current is not None:
            raise ValueError("the current deal is not finished")
        dealer = self.schedule[len(self.deals)]
        if self._secret is None:
            state = State.deal(self.rules, self._rng.next64(), dealer=dealer, pot=self.pot,
                               balances=self.balances)
        else:
            rng = KeyedRandom(self._secret, "deal", len(self.deals))
            state = State.deal_from(self.rules, rng, dealer=dealer, pot=self.pot, balances=self.balances)
        self.current = state
        self.deals.append(state)
        return state

    def end_deal(self, state: State) -> DealResult:
        """Book a finished deal into the ledger; decide the session when it was the last."""
        if state is not self.current or state.result is None:
            raise ValueError("only the current deal, once over, can be booked")
        result = state.result
        for s, c in enumerate(result.chips):
            self.balances[s] += c
        self.pot = result.pot_after
        self.results.append(result)
        self.current = None
        if len(self.deals) == len(self.schedule):
            self._decide()
        return result

    def standings(self) -> list[Standing]:
        """Each seat's balance, deals won and cards won, best first."""
        n = self.rules.players
        deals_won, cards = [0] * n, [0] * n
        for r in self.results:
            for s in r.winners:
                deals_won[s] += 1
            for s in range(n):
                cards[s] += r.won[s]
        rows = [Standing(s, self.balances[s], deals_won[s], cards[s]) for s in range(n)]
        return sorted(rows, key=lambda row: (self._key(row), -row.seat), reverse=True)

    def _key(self, row: Standing) -> tuple[int, ...]:
        if self.rules.scoring is Scoring.CARD_COUNT:
            return (row.deals_won, row.cards_won)
        return (row.balance,)

    def _decide(self) -> None:
        rows = self.standings()
        best = self._key(rows[0])
        leaders = tuple(sorted(r.seat for r in rows if self._key(r) == best))
        if (len(leaders) > 1 and self.rules.tie_break is TieBreak.EXTRA_DEALS
                and self.tie_cycles < self.rules.max_tie_cycles):
            self.tie_cycles += 1
            self.schedule.extend(leaders)
            return
        self.over = True
        self.winners = leaders

    # -- saving and resuming ------------------------------------------------------------

    def snapshot(self) -> dict[str, Any]:
        """Plain data from which :meth:`restore` rebuilds this session exactly (a seeded
        session only: a secret is never written out)."""
        if self._secret is not None:
            raise ValueError("a session dealt from a secret has no snapshot")
        return {
            "rules": self.rules.spec(),
            "seed": self.seed,
            "deals": [[a.to_json() for a in d.actions] for d in self.deals],
        }

    @classmethod
    def restore(cls, data: dict[str, Any]) -> Session:
        """Rebuild a session by replaying every deal's actions through the engine."""
        spec = data["rules"]
        rules = Rules.make(spec.get("preset", "survivor"), spec.get("players", 5),
                           spec.get("variants", ()), spec.get("options", {}))
        session = cls(rules, data["seed"])
        for actions in data["deals"]:
            state = session.start_deal()
            for obj in actions:
                state.apply(action_from_json(obj))
            if state.over:
                session.end_deal(state)
        return session
