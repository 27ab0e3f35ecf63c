"""History in the observation (``history=K``): the latest K public actions, claims included,
after the 451 numbers, the same in the encoding's two encoders, PettingZoo, Gymnasium and
the vectorized tables (compiled and pure, step for step); another seat's face-down set
shows its seat and that it went face down, never its rank; bad values are refused."""

from __future__ import annotations

import importlib.util
import random
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from lald.bots.learned.encoding import (
    HISTORY_SLOT,
    MAX_HISTORY,
    OBS_SIZE,
    observation_bounds,
    observation_size,
    observe,
    observe_view,
    public_actions,
)
from lald.core import Claimed, Rules, State
from lald.core.rules import PRESET_NAMES
from lald.rl import vector
from lald.rl.adapters.gymnasium import SeatEnv
from lald.rl.adapters.pettingzoo import raw_env
from lald.rl.vector import VectorDeals, VectorSeatEnv

BUILT = importlib.util.find_spec("lald.rl.vector._vector") is not None
needs_compiled = pytest.mark.skipif(
    not BUILT, reason="the compiled tables (lald.rl.vector._vector) are not built: "
    "python setup.py build_ext --inplace")


def _random_deals(rules: Rules, count: int, seed: int) -> Iterator[State]:
    """States along random play of ``count`` deals, every legal action (claims included)."""
    for k in range(count):
        state = State.deal(rules, seed + k)
        rng = random.Random(seed + k)
        while not state.over:
            yield state
            actions = [a for s in range(state.n) for a in state.claims(s)] + state.turn_actions()
            state.apply(rng.choice(actions))
        yield state


@pytest.mark.parametrize("preset", PRESET_NAMES)
@pytest.mark.parametrize("players", [3, 5])
def test_the_fast_encoder_shows_the_history_as_the_view_does(preset: str, players: int) -> None:
    rules = Rules.make(preset, players)
    for state in _random_deals(rules, 20, 40):
        for seat in range(players):
            for k in (1, 5, MAX_HISTORY):
                fast = observe(state, seat, "none", k)
                assert fast.shape == (observation_size(k),) == (OBS_SIZE + HISTORY_SLOT * k,)
                assert np.array_equal(fast, observe_view(state.view(seat), "none", k))
                assert np.array_equal(fast[:OBS_SIZE], observe(state, seat))


def test_the_history_holds_each_action_newest_first() -> None:
    """Slot 0 is the latest action: its seat from the observer, its kind and rank; a whole
    deal fits in MAX_HISTORY slots and the slots past it are zeros."""
    rules = Rules.make("survivor", 4)
    for state in _random_deals(rules, 10, 7):
        if not state.history:
            continue
        acts = public_actions(state.history, 2)
        assert len(acts) <= MAX_HISTORY
        block = observe(state, 2, "none", MAX_HISTORY)[OBS_SIZE:].reshape(MAX_HISTORY, HISTORY_SLOT)
        for j, (actor, kind, rank, down) in enumerate(reversed(acts)):
            slot = block[j]
            assert slot[(actor - 2) % 4] == 1 and slot[:5].sum() == 1
            assert slot[5 + kind] == 1 and slot[5:12].sum() == 1
            assert slot[12:25].sum() == (rank >= 0) and (rank < 0 or slot[12 + rank] == 1)
            assert slot[25] == down
        assert not block[len(acts):].any()
        low, high = observation_bounds(MAX_HISTORY)
        assert low.shape == high.shape == (observation_size(MAX_HISTORY),)


def test_another_seats_face_down_set_shows_no_rank() -> None:
    """A hand set claimed face down: its claimant sees its rank in the history, the other
    seats only that it went face down."""
    rules = Rules.make("survivor", 5, options={"hand_sets_face_down": "on"})
    found = 0
    for state in _random_deals(rules, 60, 100):
        last = state.history[-1] if state.history else None
        if not (isinstance(last, Claimed) and last.face_down):
            continue
        found += 1
        for seat in range(5):
            slot = observe(state, seat, "none", 1)[OBS_SIZE:]
            assert slot[25] == 1 and slot[5 + 5] == 1
            assert slot[12:25].sum() == (1 if seat == last.seat else 0)
    assert found >= 3


@pytest.mark.parametrize("k", [0, 8])
def test_pettingzoo_and_gymnasium_show_the_history(k: int) -> None:
    e = raw_env(players=4, history=k)
    e.reset(seed=3)
    assert e.observation_space("seat_0").shape == (observation_size(k),)
    for agent in e.agent_iter():
        obs, _reward, terminated, _truncated, info = e.last()
        assert e.deal is not None
        seat = int(agent.split("_")[1])
        deciding = "none" if terminated else e.deal.deciding
        assert np.array_equal(obs, observe(e.deal.state, seat, deciding, k))
        e.step(None if terminated else int(np.flatnonzero(info["action_mask"])[0]))
    g = SeatEnv(players=4, opponents="random", history=k)
    obs, _ = g.reset(seed=3)
    assert obs.shape == g.observation_space.shape == (observation_size(k),)


@pytest.mark.parametrize("bad", [-1, MAX_HISTORY + 1, 2.0, True, "8"])
def test_a_history_that_is_no_count_of_actions_is_refused(bad: object) -> None:
    for make in (lambda: raw_env(history=bad), lambda: SeatEnv(history=bad),
                 lambda: VectorDeals(2, history=bad), lambda: VectorSeatEnv(2, history=bad)):
        with pytest.raises(ValueError, match="history"):
            make()


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_the_vector_tables_show_the_history_as_pettingzoo_does(preset: str) -> None:
    """Self-play on the tables (whichever are loaded) beside PettingZoo's raw_env replaying
    each table's deal: the same observation, history included, at every step (face-down
    sets on)."""
    k = 12
    options = {"hand_sets_face_down": "on"}
    env = VectorDeals(3, preset, 5, options=options, history=k)
    obs, _info = env.reset(seed=21)
    assert obs.shape == (3, observation_size(k))

    def mirror(i: int) -> Any:
        seeds, dealers = env.deals()
        e = raw_env(preset=preset, players=5, options=options, history=k)
        e.reset(options={"deal": int(seeds[i]), "dealer": int(dealers[i])})
        return e

    mirrors = [mirror(i) for i in range(3)]
    for _ in range(400):
        for i, e in enumerate(mirrors):
            assert np.array_equal(obs[i], e.last()[0])
        actions = env.random_actions()
        obs, _rewards, done, _, _info = env.step(actions)
        for i in range(3):
            mirrors[i].step(int(actions[i]))
            if done[i]:
                mirrors[i] = mirror(i)


@needs_compiled
@pytest.mark.parametrize("preset", PRESET_NAMES)
@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("face_down", [False, True], ids=["face-up-sets", "face-down-sets"])
def test_the_compiled_tables_show_the_history_as_the_pure_ones(preset: str, players: int,
                                                               face_down: bool) -> None:
    if vector.backend_status() != "compiled":
        pytest.skip(f"the compiled tables do not play: {vector.backend_status()}")
    options = {"hand_sets_face_down": "on" if face_down else "off"}
    for k in (1, MAX_HISTORY):
        envs = [VectorSeatEnv(16, preset, players, options=options, seat=None, opponents="heuristic",
                              history=k, backend=b) for b in ("compiled", "python")]
        outs = [env.reset(seed=players) for env in envs]
        for _ in range(80):
            assert np.array_equal(outs[0][0], outs[1][0])
            actions = envs[0].random_actions()
            assert np.array_equal(actions, envs[1].random_actions())
            outs = [env.step(actions) for env in envs]
        deals = [VectorDeals(8, preset, players, options=options, history=k, backend=b)
                 for b in ("compiled", "python")]
        got = [d.reset(seed=9)[0] for d in deals]
        for _ in range(150):
            assert np.array_equal(got[0], got[1])
            assert np.array_equal(deals[0].state(), deals[1].state())
            actions = deals[0].random_actions()
            got = [d.step(actions)[0] for d in deals]
