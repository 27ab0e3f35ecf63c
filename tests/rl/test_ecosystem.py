"""What the ecosystem's tools ask of lald's environments (issue 35, Friction): the render
modes Stable-Baselines3 and Gymnasium's wrappers ask for, one BLAS thread inside a learned
decision, masks a sampler accepts on the rows of ended episodes, one meaning of a seed,
Gymnasium's autoreset modes as its own vector environments keep them, and a zero-sum reward."""

from __future__ import annotations

import random
import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from gymnasium.vector import AutoresetMode, SyncVectorEnv

import lald.rl.adapters.gymnasium  # noqa: F401  (registers lald/Seat-v0)
from lald.bots.learned.encoding import NUM_ACTIONS, PASS
from lald.core import Rules, State, cards_of
from lald.rl.adapters.gymnasium import ENV_ID, SeatEnv
from lald.rl.adapters.text import RGB_SHAPE
from lald.rl.vector import VectorSeatEnv

# -- 1. render modes -----------------------------------------------------------------------------


def test_rgb_array_is_a_render_mode_and_draws_the_spectators_table() -> None:
    env = gym.make(ENV_ID, opponents="random", players=4, render_mode="rgb_array")
    env.reset(seed=3)
    first = env.render()
    assert isinstance(first, np.ndarray) and first.dtype == np.uint8 and first.shape == RGB_SHAPE
    mask = env.unwrapped.action_masks()  # type: ignore[attr-defined]
    env.step(int(np.flatnonzero(mask)[0]))
    second = env.render()
    assert isinstance(second, np.ndarray) and second.shape == first.shape
    check_env(gym.make(ENV_ID, opponents="random", render_mode="rgb_array").unwrapped, skip_render_check=True)
    # a list of frames, through Gymnasium's own RenderCollection
    frames = gym.make(ENV_ID, opponents="random", render_mode="rgb_array_list")
    frames.reset(seed=1)
    assert len(frames.render()) == 1


def test_the_rgb_picture_hides_what_a_spectator_cannot_see() -> None:
    """Two deals that differ by two hidden cards (swapped between two hands) draw the same."""
    rules = Rules.make(players=3)
    state = State.deal(rules, 5, dealer=0)
    h0, h1 = list(cards_of(state.hands[0])), list(cards_of(state.hands[1]))
    h0[0], h1[0] = h1[0], h0[0]
    other = State.from_layout(rules, [h0, h1, cards_of(state.hands[2])], cards_of(state.table_mask), 0)
    from lald.rl.adapters.text import render_rgb
    from lald.rl.deal import Deal

    assert np.array_equal(render_rgb(Deal(state), None), render_rgb(Deal(other), None))


def test_stable_baselines3_make_vec_env_makes_the_seat_env() -> None:
    env_util = pytest.importorskip("stable_baselines3.common.env_util")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        venv = env_util.make_vec_env(ENV_ID, n_envs=8, seed=0,
                                     env_kwargs={"players": 4, "opponents": "random"})
    obs = venv.reset()
    assert obs.shape == (8, 451)
    masks = np.stack(venv.env_method("action_masks"))
    obs, rewards, dones, infos = venv.step(masks.argmax(axis=1))
    assert obs.shape == (8, 451) and rewards.shape == (8,)
    assert venv.render_mode == "rgb_array"
    venv.close()


# -- 2. one BLAS thread inside a decision -------------------------------------------------------


@pytest.mark.parametrize("level", ["learned", "learned:margin=0.25", "guided:worlds=4:time_limit=60"])
def test_a_learned_decision_runs_on_one_blas_thread(level: str) -> None:
    threadpoolctl = pytest.importorskip("threadpoolctl")
    from lald.bots.learned.network import QNetwork
    from lald.play.loop import play_deal
    from lald.play.spec import parse_spec

    seen: list[int] = []
    values = QNetwork.values

    def spying(self: QNetwork, state: np.ndarray, ids: object) -> np.ndarray:
        seen.extend(i["num_threads"] for i in threadpoolctl.threadpool_info() if i["user_api"] == "blas")
        return values(self, state, ids)  # type: ignore[arg-type]

    rules = Rules.make(players=3)
    with threadpoolctl.threadpool_limits(limits=2, user_api="blas"):
        before = [i["num_threads"] for i in threadpoolctl.threadpool_info() if i["user_api"] == "blas"]
        QNetwork.values = spying  # type: ignore[method-assign]
        try:
            specs = [level, "heuristic", "heuristic"]
            bots = [parse_spec(spec).make(s, rules, random.Random(s)) for s, spec in enumerate(specs)]
            play_deal(State.deal(rules, seed=2), bots)
        finally:
            QNetwork.values = values  # type: ignore[method-assign]
        after = [i["num_threads"] for i in threadpoolctl.threadpool_info() if i["user_api"] == "blas"]
    assert seen and set(seen) == {1}
    assert after == before  # the caller's setting is left as it was


# -- 3. masks on the rows of ended episodes ---------------------------------------------------


def _sample(logits: np.ndarray, mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """What a masked sampler does: illegal logits to -inf, softmax, a draw (NaN raises)."""
    masked = np.where(mask, logits, -np.inf)
    with np.errstate(invalid="raise"):
        p = np.exp(masked - masked.max(axis=1, keepdims=True))
        p /= p.sum(axis=1, keepdims=True)
    return np.array([rng.choice(NUM_ACTIONS, p=row) for row in p])


@pytest.mark.parametrize("mode", ["NextStep", "Disabled"])
def test_the_rows_of_ended_episodes_have_a_mask_a_sampler_accepts(mode: str) -> None:
    env = VectorSeatEnv(16, players=4, autoreset_mode=mode)
    obs, info = env.reset(seed=3)
    rng = np.random.default_rng(0)
    ended = 0
    while ended < 10:
        masks = env.action_masks()
        assert masks.any(axis=1).all() and np.array_equal(masks, info["action_mask"].astype(bool))
        actions = _sample(rng.standard_normal((16, NUM_ACTIONS)), masks, rng)
        obs, reward, term, trunc, info = env.step(actions)
        for i in np.flatnonzero(term):
            ended += 1
            assert env.action_masks()[i].tolist() == [k == PASS for k in range(NUM_ACTIONS)]


# -- 4. seeds and autoreset ----------------------------------------------------------------------


def test_a_seed_names_the_first_deal_in_the_seat_env_as_in_the_vector_tables() -> None:
    n = 4
    vec = VectorSeatEnv(n, players=4, seat=None)
    vec.reset(seed=20)
    seeds, dealers = vec.deals()
    sync = SyncVectorEnv([lambda: gym.make(ENV_ID, players=4, opponents="random", seat=None)] * n)
    sync.reset(seed=20)
    for i, env in enumerate(sync.envs):
        seat: SeatEnv = env.unwrapped  # type: ignore[assignment]
        assert seat.deal is not None
        state = seat.deal.state
        assert (state.seed, state.dealer) == (int(seeds[i]), int(dealers[i])) == (20 + i, (20 + i) % 4)
        assert state.dealt_hands == State.deal(Rules.make(players=4), 20 + i, dealer=(20 + i) % 4).dealt_hands


def test_a_seed_names_the_deal_in_pettingzoo_too() -> None:
    from lald.rl.adapters.pettingzoo import raw_env

    env = raw_env(players=3)
    env.reset(seed=31)
    assert (env.deal.state.seed, env.deal.state.dealer) == (31, 31 % 3)


def test_disabled_autoreset_deals_again_at_the_tables_stepped_after_their_end() -> None:
    env = VectorSeatEnv(8, players=3, autoreset_mode="Disabled")
    env.reset(seed=5)
    while True:
        _, _, term, _, _ = env.step(env.random_actions())
        if term.any():
            break
    before = env.deals()[0]
    obs, reward, term2, _, info = env.step(env.random_actions())  # no refusal of the whole batch
    after = env.deals()[0]
    for i in np.flatnonzero(term):
        assert after[i] >= before[i] + 8 and reward[i] == 0.0 and not term2[i]
        assert info["action_mask"][i].any()


def test_same_step_autoreset_gives_final_info_as_gymnasiums_own_vector_envs() -> None:
    ours = VectorSeatEnv(6, players=4, autoreset_mode="SameStep")
    theirs = SyncVectorEnv([lambda: gym.make(ENV_ID, players=4, opponents="random") for _ in range(6)],
                           autoreset_mode=AutoresetMode.SAME_STEP)
    for env in (ours, theirs):
        env.reset(seed=1)
    seen: dict[str, set[str]] = {}
    for name, env in (("ours", ours), ("theirs", theirs)):
        for _ in range(500):
            masks = np.stack(env.call("action_masks")) if name == "theirs" else env.action_masks()
            _, _, term, _, info = env.step(masks.argmax(axis=1))
            if term.any():
                assert np.array_equal(info["_final_info"], term) and np.array_equal(info["_final_obs"], term)
                seen[name] = set(info["final_info"])
                for i in np.flatnonzero(term):
                    assert not info["final_info"]["action_mask"][i].any()
                break
    assert seen["ours"] >= seen["theirs"] >= {"action_mask", "_action_mask", "seat", "_seat"}


# -- 5. zero-sum rewards ------------------------------------------------------------------------


@pytest.mark.parametrize(("preset", "players", "into"), [("survivor", 3, True), ("last-capture", 4, True),
                                                         ("survivor", 4, False), ("last-capture", 5, False)])
def test_the_per_deal_rewards_are_zero_sum_only_where_the_pot_balances(preset: str, players: int,
                                                                        into: bool) -> None:
    """Chips, antes included, add up to what the pot paid out: at three players and at four
    under last-capture the seats take more than they put in (the signed pot goes below zero)."""
    from lald.rl.vector import VectorDeals

    env = VectorDeals(64, preset=preset, players=players)
    env.reset(seed=0)
    sums: list[float] = []
    while len(sums) < 200:
        _, rewards, done, _, _ = env.step(env.random_actions())
        sums.extend(rewards[done].sum(axis=1))
    assert (np.mean(sums) > 1.5) if into else (np.abs(sums).max() == 0)


@pytest.mark.parametrize("preset", ["survivor", "last-capture", "low-stakes"])
def test_zero_sum_rewards_add_up_to_zero_in_every_adapter(preset: str) -> None:
    from lald.rl.adapters.pettingzoo import env
    from lald.rl.deal import deal_rewards
    from lald.rl.vector import VectorDeals

    variants = ("low-stakes",) if preset == "low-stakes" else ()
    base = "survivor" if preset == "low-stakes" else preset
    rules = Rules.make(base, 3, variants)
    for seed in range(5):
        state = State.deal(rules, seed)
        from lald.bots import make_bot
        from lald.play.loop import play_deal

        state = play_deal(state, [make_bot("random", s, rules, random.Random(s)) for s in range(3)])
        raw, zero = deal_rewards(state), deal_rewards(state, zero_sum=True)
        assert abs(sum(zero)) < 1e-9 and np.allclose(np.subtract(raw, zero), sum(raw) / 3)
    # PettingZoo
    aec = env(preset=base, players=3, variants=variants, zero_sum=True)
    aec.reset(seed=2)
    total = 0.0
    for _agent in aec.agent_iter():
        _, reward, term, trunc, info = aec.last()
        total += reward
        aec.step(None if term or trunc else int(np.flatnonzero(info["action_mask"])[0]))
    assert abs(total) < 1e-9
    # the vector tables, every seat and one seat
    deals = VectorDeals(32, preset=base, players=3, variants=variants, zero_sum=True)
    deals.reset(seed=1)
    plain = VectorDeals(32, preset=base, players=3, variants=variants)
    plain.reset(seed=1)
    seats = [VectorSeatEnv(32, base, 3, variants, seat=s, zero_sum=z) for s in range(3)
             for z in (False, True)]
    for e in seats:
        e.reset(seed=1)
    ended = 0
    for _ in range(300):
        actions = deals.random_actions()
        _, r, done, _, _ = deals.step(actions)
        _, r0, _, _, _ = plain.step(actions)
        assert np.allclose(r[done].sum(axis=1), 0.0)
        assert np.allclose(r0[done] - r[done], r0[done].mean(axis=1, keepdims=True))
        ended += int(done.sum())
    assert ended > 50
    for s in range(3):
        raw_env_, zero_env = seats[2 * s], seats[2 * s + 1]
        for _ in range(100):
            actions = raw_env_.random_actions()
            assert np.array_equal(actions, zero_env.random_actions())  # the same streams
            _, r0, t0, _, i0 = raw_env_.step(actions)
            _, r1, t1, _, _ = zero_env.step(actions)
            assert np.array_equal(t0, t1)
            for i in np.flatnonzero(t0 & ~i0["illegal_action"]):
                table = raw_env_.table(i)
                if rules.antes:
                    paid = sum(table["chips"])
                else:  # low-stakes: 1 to each seat with the most won cards
                    won = [int(w).bit_count() for w in table["won"]]
                    paid = won.count(max(won))
                assert r1[i] == pytest.approx(r0[i] - paid / 3)


def test_the_seat_env_pays_zero_sum_rewards_when_asked() -> None:
    rules = Rules.make("survivor", 3)
    plain = SeatEnv(players=3, opponents="random", zero_sum=False)
    zero = SeatEnv(players=3, opponents="random", zero_sum=True)
    for seed in range(4):
        for e in (plain, zero):
            e.reset(seed=seed)
        done = False
        while not done:
            action = int(np.flatnonzero(plain.action_masks())[0])
            _, r0, done, _, _ = plain.step(action)
            _, r1, _, _, _ = zero.step(action)
        assert plain.deal is not None and plain.deal.state.result is not None
        chips = plain.deal.state.result.chips
        assert r1 == pytest.approx(r0 - sum(chips) / 3)
    del rules
