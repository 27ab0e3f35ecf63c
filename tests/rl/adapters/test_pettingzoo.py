"""The PettingZoo AEC environment passes PettingZoo's own tests in every rules set, and
plays the engine's deals move for move."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest
from pettingzoo.test import api_test, render_test, seed_test

from lald.bots.learned.encoding import NUM_ACTIONS, PASS, observe
from lald.core import IllegalActionError, Rules, Session, State
from lald.core.rules import PRESET_NAMES, VARIANT_NAMES
from lald.rl.adapters.pettingzoo import env, raw_env
from lald.rl.deal import Deal

VARIANT_SETS = [c for k in range(len(VARIANT_NAMES) + 1) for c in itertools.combinations(VARIANT_NAMES, k)]
CONFIGS = [(p, n, v) for p in PRESET_NAMES for n in (3, 4, 5) for v in VARIANT_SETS]


def _name(c: tuple[str, int, tuple[str, ...]]) -> str:
    return f"{c[0]}-{c[1]}-{'+'.join(c[2]) or 'plain'}"


@pytest.mark.parametrize("config", CONFIGS, ids=_name)
def test_pettingzoo_api_test_and_seed_test(config: tuple[str, int, tuple[str, ...]]) -> None:
    """api_test with its 1,000 cycles (an episode, a deal, ends long before) for the wrapped
    and the raw environment, a whole session as one episode too, and seed_test."""
    preset, players, variants = config
    api_test(env(preset=preset, players=players, variants=variants), num_cycles=1000)
    api_test(raw_env(preset=preset, players=players, variants=variants), num_cycles=1000)
    api_test(env(preset=preset, players=players, variants=variants, session=True), num_cycles=1000)
    seed_test(lambda: env(preset=preset, players=players, variants=variants), num_cycles=500)


@pytest.mark.parametrize("config", CONFIGS, ids=_name)
def test_pettingzoo_render_test(config: tuple[str, int, tuple[str, ...]]) -> None:
    preset, players, variants = config

    def make(render_mode: str | None = None) -> object:
        return env(preset=preset, players=players, variants=variants, render_mode=render_mode)

    render_test(make, custom_tests={"ansi": lambda text: text.startswith(preset)})


def test_render_shows_no_hidden_card() -> None:
    e = raw_env(render_mode="ansi")
    e.reset(seed=3)
    assert e.deal is not None
    text = e.render()
    assert isinstance(text, str)
    for s in range(5):
        for card in e.deal.state.hand(s):
            assert str(card) not in text.split("table:")[0]


@pytest.mark.parametrize("config", CONFIGS[::5], ids=_name)
def test_the_aec_env_plays_the_engines_deal_move_for_move(config: tuple[str, int, tuple[str, ...]]) -> None:
    """The same deal and the same choices through the AEC env and through lald.core give
    the same actions, the same observations and the same chips."""
    preset, players, variants = config
    rules = Rules.make(preset, players, variants)
    for seed in range(4):
        e = raw_env(preset=preset, players=players, variants=variants)
        e.reset(options={"deal": seed, "dealer": seed % players})
        deal = Deal(State.deal(rules, seed, dealer=seed % players))
        rng = random.Random(seed)
        rewards = dict.fromkeys(e.possible_agents, 0.0)
        for agent in e.agent_iter():
            obs, reward, terminated, truncated, info = e.last()
            rewards[agent] += reward
            if terminated:
                e.step(None)
                continue
            assert agent == f"seat_{deal.seat}"
            assert np.array_equal(obs, observe(deal.state, deal.seat, deal.deciding))
            assert set(np.flatnonzero(info["action_mask"])) == set(deal.legal)
            choice = rng.choice(sorted(deal.legal))
            deal.step(choice)
            e.step(choice)
        assert deal.state.result is not None
        assert [rewards[a] for a in e.possible_agents] == [
            float(c) if rules.antes else float(s in deal.state.result.winners)
            for s, c in enumerate(deal.state.result.chips)]
        if rules.antes:
            result = deal.state.result
            assert sum(result.chips) == result.pot_before - result.pot_after


def test_a_session_episode_pays_each_deal_and_ends_with_the_session() -> None:
    e = raw_env(players=3, session=True)
    e.reset(seed=5)
    assert e.session is not None
    session: Session = e.session
    totals = dict.fromkeys(e.possible_agents, 0.0)
    rng = random.Random(1)
    for agent in e.agent_iter():
        _, reward, terminated, _, info = e.last()
        totals[agent] += reward
        e.step(None if terminated else int(rng.choice(np.flatnonzero(info["action_mask"]))))
    assert session.over and len(session.results) >= 3
    assert [totals[a] for a in e.possible_agents] == [float(b) for b in session.balances]


def test_raw_env_refuses_an_illegal_action_and_env_ends_the_episode() -> None:
    raw = raw_env()
    raw.reset(seed=2)
    mask = raw.infos[raw.agent_selection]["action_mask"]
    bad = int(np.flatnonzero(mask == 0)[0])
    before = raw.agent_selection, mask.copy()
    with pytest.raises(IllegalActionError, match="not legal"):
        raw.step(bad)
    after = raw.agent_selection, raw.infos[raw.agent_selection]["action_mask"]
    assert after[0] == before[0] and np.array_equal(after[1], before[1])
    wrapped = env(illegal_reward=-7.0)
    wrapped.reset(seed=2)
    agent = wrapped.agent_selection
    wrapped.step(bad)
    assert all(wrapped.terminations.values())
    assert wrapped.rewards[agent] == -7.0


def test_the_polled_seat_is_offered_pass_and_a_claim() -> None:
    e = raw_env(preset="survivor")
    seen = 0
    for seed in range(40):
        e.reset(seed=seed)
        assert e.deal is not None
        if e.deal.deciding == "claim":
            mask = e.infos[e.agent_selection]["action_mask"]
            assert mask[PASS] == 1 and mask.sum() >= 2 and mask.shape == (NUM_ACTIONS,)
            seen += 1
    assert seen > 3


@pytest.mark.parametrize("seed", range(6))
def test_render_is_the_same_for_deals_that_differ_only_in_hidden_hands(seed: int) -> None:
    """Seen before: render's last line listed the deciding seat's choices ("seat 3 answers
    the claim window: claim 7, pass"), which told what that seat held."""
    from lald.core import Rules, State
    from lald.rl.adapters.text import render_text
    from lald.rl.deal import Deal

    rules = Rules.make()
    a = State.deal(rules, seed=seed)
    hands = [list(a.hand(s)) for s in range(5)]
    b = State.from_layout(rules, hands[1:] + hands[:1], list(a.table), a.dealer)  # every hand moved on
    assert render_text(Deal(a)) == render_text(Deal(b))


def test_a_step_before_reset_after_the_end_or_of_no_action_id_is_refused_in_words() -> None:
    """Seen before: an AttributeError before reset, a KeyError after the end, and a 0-d
    array holding a legal ID (what a policy's argmax gives) refused as no action ID."""
    e = raw_env()
    with pytest.raises(RuntimeError, match="reset"):
        e.step(0)
    e.reset(seed=2)
    legal = int(np.flatnonzero(e.infos[e.agent_selection]["action_mask"])[0])
    e.step(np.array(legal))  # a 0-d integer array is an action ID
    for bad in (1.5, "3", None, [1], True):
        with pytest.raises(ValueError, match="not an action ID"):
            e.step(bad)
    while e.agents:
        agent = e.agent_selection
        if e.terminations[agent]:
            e.step(None)
        else:
            e.step(int(np.flatnonzero(e.infos[agent]["action_mask"])[0]))
    with pytest.raises(RuntimeError, match="over"):
        e.step(0)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_global_state_passes_pettingzoos_state_checks(players: int) -> None:
    from pettingzoo.test.state_test import test_state, test_state_space

    e = env(players=players)
    test_state_space(e)
    test_state(e, num_cycles=20)


def test_the_global_state_is_every_seats_observation_and_holds_every_hand() -> None:
    # For a centralized critic: the seats' observations one after another, so it tells
    # every hand apart (two deals that differ only in hidden hands have different states,
    # while the spectator's render and each other seat's observation cannot tell them).
    e = raw_env(players=4)
    e.reset(options={"deal": 11, "dealer": 0})
    deal = e.deal
    assert deal is not None
    state = e.state()
    assert state.shape == (4 * 451,) and e.state_space.contains(state)
    parts = np.split(state, 4)
    for s, part in enumerate(parts):
        assert np.array_equal(part, e.observe(f"seat_{s}"))
    for _ in range(12):
        e.step(int(e.action_mask(e.agent_selection).nonzero()[0][0]))
        assert np.array_equal(np.split(e.state(), 4)[1], e.observe("seat_1"))


def test_the_global_state_before_reset_is_refused_in_words() -> None:
    with pytest.raises(RuntimeError, match="call reset"):
        raw_env(players=3).state()
