"""The self-play actors (numpy only): records named by their seed, any environment that
speaks :class:`lald.rl.training.selfplay.Env`, and the three kinds of target."""

from __future__ import annotations

import numpy as np
import pytest

from lald.bots.learned.network import ACTION_SIZE, STATE_SIZE, QNetwork
from lald.core import Rules
from lald.rl.training.selfplay import ActorTask, DealEnv, play


def _network(seed: int = 0) -> QNetwork:
    rng = np.random.default_rng(seed)
    sizes = [STATE_SIZE + ACTION_SIZE, 16, 1]
    return QNetwork([(rng.normal(0, 0.1, (a, b)).astype(np.float32), np.zeros(b, np.float32))
                     for a, b in zip(sizes, sizes[1:], strict=False)])


class CountingEnv(DealEnv):
    """Another environment: the engine's, counting its steps."""

    def __init__(self) -> None:
        super().__init__()
        self.stepped = 0

    def step(self, aid: int) -> None:
        self.stepped += 1
        super().step(aid)


@pytest.mark.parametrize("targets", ["return", "advantage"])
def test_the_same_seed_gives_the_same_records_in_any_environment(targets: str) -> None:
    task = ActorTask(Rules.make(preset="last-capture"), 3, 3, 0.1, 0.5, targets)
    a = play(task, _network())
    env = CountingEnv()
    b = play(task, _network(), env)
    assert env.stepped == a.steps == b.steps
    for x, y in ((a.states, b.states), (a.actions, b.actions), (a.targets, b.targets)):
        assert np.array_equal(x, y)
    other = play(ActorTask(task.rules, 4, 3, 0.1, 0.5, targets), _network())
    assert not np.array_equal(other.targets, a.targets)


def test_return_targets_are_each_seats_chips() -> None:
    batch = play(ActorTask(Rules.make(), 1, 1, 0.0, 1.0, "return"), _network())
    assert batch.deals == 1 and len(batch.targets) == len(batch.states) > 10
    assert set(batch.targets.tolist()) <= set(range(-30, 31))  # whole chips of one deal
    assert (batch.actions[:, :80].sum(1) == 1).all()


def test_roll_out_targets_value_every_action_and_advantages_centre_them() -> None:
    rules = Rules.make()
    rollout = play(ActorTask(rules, 2, 2, 0.0, 1.0, "rollout"), _network())
    advantage = play(ActorTask(rules, 2, 2, 0.0, 1.0, "advantage"), _network())
    assert np.array_equal(rollout.states, advantage.states)
    # a decision's records are consecutive rows of one state, one per legal action
    new = np.r_[True, ~np.all(rollout.states[1:] == rollout.states[:-1], axis=1)]
    groups = np.cumsum(new) - 1
    assert groups.max() + 1 < len(groups)
    for g in range(groups.max() + 1):
        rows = groups == g
        ids = rollout.actions[rows, :80].argmax(1)
        assert len(set(ids.tolist())) == rows.sum() >= 2
        centred = rollout.targets[rows] - rollout.targets[rows].mean()
        np.testing.assert_allclose(advantage.targets[rows], centred, atol=1e-5)
    assert np.ptp(rollout.targets) > 0


def test_world_targets_see_what_the_seat_sees_and_never_the_hidden_cards() -> None:
    from lald.core import State
    from lald.rl.deal import Deal

    rules = Rules.make()
    for seed in range(50):
        state = State.deal(rules, seed, dealer=0)
        env = DealEnv()
        env.deal = Deal(state)
        seat, ids = env.seat, env.legal()
        assert seat is not None
        a, b = [s for s in range(rules.players) if s != seat][:2]
        hands = [list(state.hand(s)) for s in range(rules.players)]
        hands[a], hands[b] = hands[b], hands[a]  # the same view for the deciding seat, other hidden hands
        other = DealEnv()
        other.deal = Deal(State.from_layout(rules, hands, state.table, dealer=0))
        if other.seat != seat or other.legal() != ids or len(ids) < 2:
            continue
        assert np.array_equal(env.observe(), other.observe())
        if env.rollout_values(ids) == other.rollout_values(ids):
            continue  # (the true deals' play-outs happen to agree: no evidence either way)
        values = env.world_values(ids, 8, 5)
        assert values == other.world_values(ids, 8, 5)  # the hidden cards are drawn, not read
        assert values != env.world_values(ids, 8, 6)  # another draw, other worlds
        return
    pytest.fail("no deal gave two layouts with the same view and different play-outs")


def test_world_targets_are_centred_and_named_by_the_seed() -> None:
    task = ActorTask(Rules.make(), 2, 2, 0.0, 1.0, "worlds", 4)
    a, b = play(task, _network()), play(task, _network())
    assert np.array_equal(a.targets, b.targets) and len(a.targets) > 20
    new = np.r_[True, ~np.all(a.states[1:] == a.states[:-1], axis=1)]
    groups = np.cumsum(new) - 1
    for g in range(groups.max() + 1):
        assert abs(float(a.targets[groups == g].sum())) < 1e-4
    assert np.ptp(a.targets) > 0
