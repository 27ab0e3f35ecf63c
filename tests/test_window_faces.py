"""The claim window is one rule (docs/rules.md#5-claims, who is asked first), and every table
drives the one :class:`lald.core.ClaimWindow`: the same seeded deals, the same bots' decisions,
played through the tournament loop (:mod:`lald.play.loop`), the research adapters
(:mod:`lald.rl.deal`), the terminal (:mod:`lald.tui.game`) and the web table
(:mod:`lald.web.table.tables`), offer the same claims to the same seats at the same moments."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable, Sequence

import pytest

from lald.bots import Bot
from lald.core import Action, Claim, PlayerView, Rules, Session, State
from lald.play.loop import play_deal
from lald.rl.deal import Deal
from lald.store import SeatData, Store, TableData
from lald.tui.game import Game, SeatSpec
from lald.web.settings import Settings
from lald.web.table.journal import Journal
from lald.web.table.tables import Table

Offer = tuple[int, int, str, tuple[str, ...]]
"""One question a table put to a seat: the moment (the length of the deal's public history),
the seat, ``claim`` or ``turn``, and what it was offered."""


class Scripted(Bot):
    """Decides from what it sees alone (never from its generator, which the web table
    reseeds), so that every table it sits at gets the same decisions; notes every
    question it is asked."""

    def __init__(self, seat: int, rules: Rules, seed: int, offers: list[Offer]) -> None:
        super().__init__(seat, rules, random.Random(0))
        self.seed, self.offers = seed, offers

    def _rng(self, view: PlayerView, options: Sequence[Action]) -> random.Random:
        return random.Random(f"{self.seed}/{self.seat}/{len(view.history)}/{','.join(map(str, options))}")

    def act(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        self.offers.append((len(view.history), self.seat, "turn", tuple(map(str, legal))))
        return self._rng(view, legal).choice(legal)

    def claim(self, view: PlayerView, claims: Sequence[Claim]) -> Claim | None:
        self.offers.append((len(view.history), self.seat, "claim", tuple(map(str, claims))))
        options: list[Claim | None] = [None, None, *claims]
        return self._rng(view, claims).choice(options)


def _bots(rules: Rules, seed: int) -> tuple[list[Bot], list[Offer]]:
    offers: list[Offer] = []
    return [Scripted(s, rules, seed, offers) for s in range(rules.players)], offers


def _first_deal(rules: Rules, seed: int) -> State:
    return Session(rules, seed).start_deal()


def by_loop(rules: Rules, seed: int) -> tuple[list[Offer], State]:
    bots, offers = _bots(rules, seed)
    return offers, play_deal(_first_deal(rules, seed), bots)


def by_adapters(rules: Rules, seed: int) -> tuple[list[Offer], State]:
    bots, offers = _bots(rules, seed)
    deal = Deal(_first_deal(rules, seed))
    while not deal.over:
        assert deal.seat is not None
        view = deal.state.view(deal.seat)
        if deal.deciding == "claim":
            deal.play(bots[deal.seat].claim(view, deal.claims))
        else:
            deal.play(bots[deal.seat].act(view, deal.state.turn_actions()))
    return offers, deal.state


def by_terminal(rules: Rules, seed: int) -> tuple[list[Offer], State]:
    bots, offers = _bots(rules, seed)
    game = Game(Session(rules, seed), [SeatSpec("random", f"bot {s}") for s in range(rules.players)],
                bots=dict(enumerate(bots)))
    state = game.start_deal()
    while game.advance() is not None:
        pass
    return offers, state


def by_web(rules: Rules, seed: int) -> tuple[list[Offer], State]:
    bots, offers = _bots(rules, seed)

    async def run() -> State:
        seats = [SeatData(s, "", False, "random", None, True) for s in range(rules.players)]
        data = TableData("t", 0.0, {"rules": rules.spec()}, seed, 0, "waiting", seats)
        table = Table(data, Journal(Store("sqlite://"), threaded=False),
                      Settings(bot_delay=0.0, claim_window=0.0, threaded_bots=False))
        table.bots = list(bots)
        table.next_deal()
        state = table.state
        assert state is not None
        while not state.over:
            _, step = table.plan()
            assert step is not None
            await step()
        return state

    return offers, asyncio.run(run())


FACES: dict[str, Callable[[Rules, int], tuple[list[Offer], State]]] = {
    "loop": by_loop, "adapters": by_adapters, "terminal": by_terminal, "web": by_web}

RULES = [Rules.make("survivor", 5), Rules.make("last-capture", 4), Rules.make("survivor", 3),
         Rules.make("survivor", 4, options={"dead_claims": "own_turn"}),
         Rules.make("survivor", 5, ("modern-laugh",), {"hand_set_timing": "foreplay"})]


@pytest.mark.parametrize("rules", RULES,
                         ids=lambda r: f"{r.preset}-{r.players}-{r.dead_claims}-{r.hand_set_timing}")
def test_every_face_offers_the_same_claims_at_the_same_moments(rules: Rules) -> None:
    claims_seen = 0
    for seed in range(40):
        runs = {face: play(rules, seed) for face, play in FACES.items()}
        offers, state = runs["loop"]
        claims_seen += sum(1 for o in offers if o[2] == "claim")
        for face, (other, end) in runs.items():
            assert other == offers, f"{face} differs from the loop at seed {seed}"
            assert end.actions == state.actions, face
    assert claims_seen > 20
