"""The ``guided`` level: the expert's search with the learned network beside it plays
legal moves, plays the network's move where the search is told to defer to it, and
refuses bad settings in words."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest

from lald.bots import Bot, find_level, make_bot
from lald.bots.expert import ExpertBot
from lald.bots.learned.guided import GuidedBot
from lald.bots.learned.network import LearnedBot
from lald.core import Action, Claim, PlayerView, Rules, State
from lald.play.loop import play_deal

FAST = {"worlds": "4", "time_limit": "0.05"}


class Both(Bot):
    """Plays ``a`` and records whether ``b`` would have made the same choice."""

    def __init__(self, a: Bot, b: Bot) -> None:
        super().__init__(a.seat, a.rules, a.rng)
        self.a, self.b = a, b
        self.same = self.decisions = 0

    def act(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        x, y = self.a.act(view, legal), self.b.act(view, legal)
        self.decisions += len(legal) > 1
        self.same += len(legal) > 1 and x == y
        return x

    def claim(self, view: PlayerView, claims: Sequence[Claim]) -> Claim | None:
        x, y = self.a.claim(view, claims), self.b.claim(view, claims)
        self.decisions += 1
        self.same += x == y
        return x


@pytest.mark.parametrize("preset", ["survivor", "last-capture"])
def test_the_level_plays_legal_moves(preset: str) -> None:
    rules = Rules.make(preset=preset)
    assert find_level("guided") is not None
    for seed in range(2):
        bots = [GuidedBot(s, rules, random.Random(s), top="2", blend="8", **FAST) if s % 2 == 0
                else make_bot("heuristic", s, rules, random.Random(s)) for s in range(rules.players)]
        state = play_deal(State.deal(rules, seed=seed), bots)  # an illegal move would raise
        assert state.over


@pytest.mark.parametrize("preset", ["survivor", "last-capture"])
def test_with_one_move_searched_it_plays_the_networks_move(preset: str) -> None:
    rules = Rules.make(preset=preset)
    seats = [Both(GuidedBot(s, rules, random.Random(s), top="1", **FAST),
                  LearnedBot(s, rules, random.Random(s))) for s in range(rules.players)]
    for seed in range(3):
        play_deal(State.deal(rules, seed=seed), list(seats))
    assert sum(b.decisions for b in seats) > 50
    assert all(b.same == b.decisions for b in seats)


class Recording(GuidedBot):
    """A guided bot that plays the move its search is told to beat."""

    def choose(self, k: object, codes: list[int], acting: bool, default: int) -> int:
        return default


class RecordingExpert(ExpertBot):
    """The expert, playing the move its search is told to beat (the heuristic's)."""

    def choose(self, k: object, codes: list[int], acting: bool, default: int) -> int:
        return default


@pytest.mark.parametrize("default", ["net", "heuristic"])
def test_the_move_to_beat_is_the_networks_or_the_experts(default: str) -> None:
    rules = Rules.make(preset="last-capture")
    seats = [Both(Recording(s, rules, random.Random(s), default=default, **FAST),
                  LearnedBot(s, rules, random.Random(s)) if default == "net"
                  else RecordingExpert(s, rules, random.Random(s)))
             for s in range(rules.players)]
    for seed in range(3):
        play_deal(State.deal(rules, seed=seed), list(seats))
    assert sum(b.decisions for b in seats) > 30
    assert all(b.same == b.decisions for b in seats)


def test_the_network_reads_its_own_play_from_the_captures() -> None:
    """Where the other seats play as the network, the world weighting (weigh=T) finds the
    true hidden hands likelier than worlds drawn at random from what the seat has seen:
    the evidence is read from the others' captures, not from the hidden cards."""
    from lald.bots.knowledge import read
    from lald.bots.learned.guided import Evidence
    from lald.bots.learned.network import load_network, shipped_file
    from lald.bots.sampler import sample
    from lald.core.codes import counts

    rules = Rules.make(preset="last-capture")
    network = load_network(shipped_file(rules))
    bots = [LearnedBot(s, rules, random.Random(s)) for s in range(rules.players)]
    gains = []
    for seed in range(8):
        state = State.deal(rules, seed=seed)
        turns = 0
        while not state.over:
            if state.open_claims():
                seat = state.open_claims()[0].seat
                claim = bots[seat].claim(state.view(seat), [c for c in state.open_claims() if c.seat == seat])
                if claim is None:
                    break
                state.apply(claim)
                continue
            view = state.view(state.to_move)
            k = read(view)
            turns += 1
            if k.choices and turns % 3 == 0:
                evidence = Evidence(k, network)
                rng = random.Random(seed)
                drawn = [evidence.log_likelihood(sample(k, rng)[0][0], 0.1) for _ in range(6)]
                true = evidence.log_likelihood([counts(h) for h in state.hands], 0.1)
                gains.append(true - sum(drawn) / len(drawn))
            state.apply(bots[state.to_move].act(view, state.turn_actions()))
    assert len(gains) >= 30
    assert sum(gains) / len(gains) > 0.3, sum(gains) / len(gains)  # nats: the true hands are likelier


def _reference_log_likelihood(evidence: Any, hands: list[list[int]], tau: float) -> float:
    """The likelihood as its definition reads: each capture's observation completed with
    the world's hand, scored by the network's own ``values``, its softmax at ``tau``."""
    from lald.bots.learned.encoding import LAYOUT
    from lald.bots.learned.network import state_features
    from lald.core.cards import NUM_CARDS, NUM_RANKS

    start = LAYOUT["hand"].start
    ll = 0.0
    for seat, template, taken, since, table in evidence.rows:
        obs = template.copy()
        hand = [hands[seat][r] + since[r] for r in range(NUM_RANKS)]
        for r in range(NUM_RANKS):
            for c in evidence.unseen[r][:hands[seat][r]]:
                obs[start + c] = 1.0
        assert obs[start:start + NUM_CARDS].sum() == sum(hand)
        ids = [kind * NUM_RANKS + r for r in range(NUM_RANKS) if hand[r] and table[r]
               for kind in evidence.kinds.get((hand[r], table[r]), ())]
        if taken not in ids:
            ll -= 6.9
        elif len(ids) > 1:
            v = evidence.network.values(state_features(obs), ids) / tau
            ll += float(v[ids.index(taken)] - v.max() - np.log(np.exp(v - v.max()).sum()))
    return ll


def test_the_weighing_computes_the_network_s_own_values_once_per_hand() -> None:
    """Evidence's first layer by the weights of the cards a world adds, and its shares
    kept per hand, give the likelihood the network's ``values`` give on the completed
    observations, world after world (a world seen again is answered from the shares)."""
    from lald.bots.knowledge import read
    from lald.bots.learned.guided import Evidence
    from lald.bots.learned.network import load_network, shipped_file
    from lald.bots.sampler import sample

    rules = Rules.make(preset="last-capture")
    network = load_network(shipped_file(rules))
    bots = [LearnedBot(s, rules, random.Random(s)) for s in range(rules.players)]
    compared = 0
    state = State.deal(rules, seed=11)
    rng = random.Random(11)
    while not state.over and compared < 120:
        if state.open_claims():
            state.apply(state.open_claims()[0])
            continue
        view = state.view(state.to_move)
        k = read(view)
        if k.choices and len(view.history) > 8:
            evidence = Evidence(k, network)
            worlds = [sample(k, rng)[0][0] for _ in range(10)]
            for tau in (0.1, 1.0):
                for hands in [*worlds, worlds[0]]:
                    fast = evidence.log_likelihood(hands, tau)
                    assert fast == pytest.approx(_reference_log_likelihood(evidence, hands, tau), abs=2e-3)
                    compared += 1
        state.apply(bots[state.to_move].act(view, state.turn_actions()))
    assert compared >= 60


def test_weighing_the_worlds_plays_legal_moves() -> None:
    rules = Rules.make(preset="last-capture")
    bots = [GuidedBot(s, rules, random.Random(s), weigh="0.25", **FAST) for s in range(rules.players)]
    state = play_deal(State.deal(rules, seed=4), list(bots))
    assert state.over
    assert any(b.evidence is not None and b.evidence.rows for b in bots)


def test_bad_settings_are_refused_in_words() -> None:
    rules = Rules.make()
    for params, words in (({"default": "x"}, "choose net or heuristic"), ({"top": "two"}, "whole number"),
                          ({"blend": "-1"}, "0 \\(off\\) or more"), ({"weigh": "hot"}, "temperature")):
        with pytest.raises(ValueError, match=words):
            GuidedBot(0, rules, random.Random(0), **params)
