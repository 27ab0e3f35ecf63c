"""The shared encoding: every legal action has an ID, every masked ID is legal, decoding
then encoding is the identity, the fast observation is the view's, and the claim window
polls exactly as lald.play.loop.step offers claims."""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence

import numpy as np
import pytest

from lald.bots import Bot
from lald.bots.learned.encoding import (
    ACTION_NAMES,
    LAYOUT,
    NUM_ACTIONS,
    OBS_SIZE,
    PASS,
    action_id,
    legal_ids,
    observation_bounds,
    observe,
    observe_view,
)
from lald.core import Action, Claim, PlayerView, Rules, State, cards_of
from lald.core.codes import action_of, code_of
from lald.core.rules import PRESET_NAMES, VARIANT_NAMES
from lald.play.loop import play_deal
from lald.rl.deal import Deal

VARIANT_SETS = [c for k in range(len(VARIANT_NAMES) + 1) for c in itertools.combinations(VARIANT_NAMES, k)]
CONFIGS = [(p, n, v) for p in PRESET_NAMES for n in (3, 4, 5) for v in VARIANT_SETS]


def _rules(config: tuple[str, int, tuple[str, ...]]) -> Rules:
    preset, players, variants = config
    return Rules.make(preset, players, variants)


def test_the_table_has_eighty_named_ids() -> None:
    assert NUM_ACTIONS == len(ACTION_NAMES) == 80
    assert ACTION_NAMES[0] == "single A" and ACTION_NAMES[77] == "claim K"
    assert ACTION_NAMES[PASS] == "pass" and len(set(ACTION_NAMES)) == 80


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: f"{c[0]}-{c[1]}-{'+'.join(c[2]) or 'plain'}")
def test_every_legal_action_has_an_id_and_every_masked_id_is_legal(
        config: tuple[str, int, tuple[str, ...]]) -> None:
    rules = _rules(config)
    low, high = observation_bounds()
    rng = random.Random(hash(config) & 0xFFFF)
    states = deals = 0
    while states < 1000:  # a thousand decision points in every rules set
        deals += 1
        deal = Deal(State.deal(rules, seed=rng.randrange(1 << 32), dealer=deals % rules.players))
        while not deal.over:
            state, seat = deal.state, deal.seat
            assert seat is not None
            claiming = deal.deciding == "claim"
            engine: Sequence[Action] = state.claims(seat) if claiming else state.turn_actions()
            assert engine, "the deciding seat always has an engine action"
            ids = {action_id(a, state.table_mask) for a in engine}
            expected = ids | ({PASS} if deal.deciding == "claim" else set())
            assert set(deal.legal) == expected
            mask = deal.mask()
            assert mask.dtype == np.int8 and set(np.flatnonzero(mask)) == expected
            for i, action in deal.legal.items():
                if action is None:
                    continue
                assert action in engine  # decoding gives a legal action of the engine ...
                assert action_id(action, state.table_mask) == i  # ... and encoding it gives the ID back
                # ... with the engine's canonical cards: the lowest suits
                code = code_of(action, state.table_mask)
                assert action == action_of(code, state.hands[seat], state.table_mask)
            for s in {seat, rng.randrange(rules.players)}:
                fast = observe(state, s, deal.deciding if s == seat else "none")
                slow = observe_view(state.view(s), deal.deciding if s == seat else "none")
                assert np.array_equal(fast, slow)
                assert fast.shape == (OBS_SIZE,) and (fast >= low).all() and (fast <= high).all()
            states += 1
            deal.step(rng.choice(sorted(deal.legal)))
        obs = observe(deal.state, 0)
        assert np.array_equal(obs, observe_view(deal.state.view(0)))


def test_the_observation_holds_no_hidden_card() -> None:
    """Two states that one seat cannot tell apart give it the same observation: swap two
    cards between other hands, and a face-down set's rank."""
    rules = Rules.make("last-capture")  # hand sets face down
    for seed in range(200):
        state = State.deal(rules, seed)
        hands = [list(cards_of(h)) for h in state.dealt_hands]
        a, b = hands[2][0], hands[3][0]
        hands[2][0], hands[3][0] = b, a
        twin = State.from_layout(rules, hands, cards_of(state.dealt_table))
        assert np.array_equal(observe(state, 0), observe(twin, 0))
        if a >> 2 != b >> 2:
            assert not np.array_equal(observe(state, 2), observe(twin, 2))
    # a face-down set: seat 1 sets a prial aside; what seat 0 sees does not say which rank
    seen: dict[int, bytes] = {}
    for seed in range(400):
        state = State.deal(rules, seed)
        sets = state.claims(1)
        if not sets or state.claims(0) or state.claims(2) or state.claims(3) or state.claims(4):
            continue
        state.apply(sets[0])
        obs = observe(state, 0)
        assert not obs[LAYOUT["won_seen"]][52:104].any()  # seat 1's set is not seen by seat 0
        assert obs[LAYOUT["won_sizes"]][1] > 0  # but its size is
        seen[sets[0].cards[0] >> 2] = obs[LAYOUT["hand"]].tobytes()
    assert len(seen) > 3


class _Scripted(Bot):
    """Chooses as the Deal test does: a uniform legal ID from a shared generator."""

    def __init__(self, seat: int, rules: Rules, rng: random.Random) -> None:
        super().__init__(seat, rules, rng)

    def act(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        table = sum(1 << c for c in view.table)
        ids = legal_ids(list(legal), table)
        return ids[self.rng.choice(sorted(ids))]

    def claim(self, view: PlayerView, claims: Sequence[Claim]) -> Claim | None:
        table = sum(1 << c for c in view.table)
        ids: dict[int, Action | None] = dict(legal_ids(list(claims), table))
        ids[PASS] = None
        choice = ids[self.rng.choice(sorted(ids))]
        assert choice is None or isinstance(choice, Claim)
        return choice


@pytest.mark.parametrize("config", CONFIGS[::3], ids=lambda c: f"{c[0]}-{c[1]}-{'+'.join(c[2]) or 'plain'}")
def test_claim_window_polls_as_sim_play_step(config: tuple[str, int, tuple[str, ...]]) -> None:
    """The same choices through the claim window and through lald.play.loop give the same
    actions move by move and the same chips: the window polls the same seats in the same
    order with the same claims."""
    rules = _rules(config)
    for seed in range(6):
        rng = random.Random(seed)
        deal = Deal(State.deal(rules, seed, dealer=seed % rules.players))
        while not deal.over:
            deal.step(rng.choice(sorted(deal.legal)))
        shared = random.Random(seed)
        bots = [_Scripted(s, rules, shared) for s in range(rules.players)]
        native = play_deal(State.deal(rules, seed, dealer=seed % rules.players), bots)
        assert native.actions == deal.state.actions
        assert native.result == deal.state.result


def test_an_illegal_id_is_refused_in_words_and_changes_nothing() -> None:
    from lald.core import IllegalActionError

    deal = Deal(State.deal(Rules.make(), seed=1))
    before = (deal.seat, dict(deal.legal), list(deal.state.actions))
    for bad in (0, 79 if deal.deciding == "turn" else 78, -1, 80, "x", None):
        with pytest.raises(IllegalActionError) as e:
            deal.step(bad)  # type: ignore[arg-type]
        text = str(e.value)
        assert "\n" not in text and ("not legal" in text or "not an action ID" in text)
    assert (deal.seat, dict(deal.legal), list(deal.state.actions)) == before
