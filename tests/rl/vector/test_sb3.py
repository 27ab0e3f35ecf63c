"""Stable-Baselines3's ``VecEnv`` on the compiled tables (``lald.rl.vector.sb3``): SB3's own
wrappers and algorithms run on it, and it plays exactly the tables of ``VectorSeatEnv``."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("stable_baselines3")

from gymnasium.vector import AutoresetMode  # noqa: E402
from stable_baselines3 import PPO  # noqa: E402
from stable_baselines3.common.vec_env import VecCheckNan, VecEnv, VecMonitor, VecNormalize  # noqa: E402

from lald.rl.vector import VectorSeatEnv  # noqa: E402
from lald.rl.vector.sb3 import SeatVecEnv  # noqa: E402


def _legal(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return np.argmax(rng.random(masks.shape) * masks, axis=1)


def test_it_is_the_vector_seat_env_with_same_step_autoreset_in_sb3s_shape() -> None:
    ours, theirs = SeatVecEnv(6, "last-capture"), VectorSeatEnv(6, "last-capture",
                                                               autoreset_mode=AutoresetMode.SAME_STEP)
    ours.seed(11)
    obs = ours.reset()
    expected, _ = theirs.reset(seed=11)
    np.testing.assert_array_equal(obs, expected)
    rng, ended = np.random.default_rng(0), 0
    for _ in range(200):
        masks = np.stack(ours.env_method("action_masks"))
        np.testing.assert_array_equal(masks, theirs.action_masks())
        actions = _legal(masks, rng)
        obs, rewards, dones, infos = ours.step(actions)
        t_obs, t_rewards, t_term, t_trunc, t_info = theirs.step(actions)
        np.testing.assert_array_equal(obs, t_obs)
        np.testing.assert_array_equal(rewards, t_rewards.astype(np.float32))
        np.testing.assert_array_equal(dones, t_term | t_trunc)
        assert isinstance(infos, list) and len(infos) == 6
        for i in range(6):
            if dones[i]:
                ended += 1
                np.testing.assert_array_equal(infos[i]["terminal_observation"], t_info["final_obs"][i])
                assert infos[i]["TimeLimit.truncated"] is False
            else:
                assert "terminal_observation" not in infos[i] and rewards[i] == 0
    assert ended > 6


def test_sb3s_wrappers_take_it() -> None:
    env = VecNormalize(VecCheckNan(VecMonitor(SeatVecEnv(4, players=4)), raise_exception=True))
    assert isinstance(env.unwrapped, VecEnv) and env.num_envs == 4
    env.seed(3)
    obs = env.reset()
    assert obs.shape == (4, 451)
    rng, episodes = np.random.default_rng(1), 0
    for _ in range(120):
        masks = np.stack(env.env_method("action_masks"))
        _, rewards, dones, infos = env.step(_legal(masks, rng))
        episodes += sum("episode" in info for info in infos)
        assert rewards.dtype == np.float32
    assert episodes > 0  # VecMonitor saw whole deals end
    assert env.get_attr("render_mode") == [None] * 4
    assert env.env_is_wrapped(VecMonitor) == [False] * 4
    env.close()


def test_the_same_seed_gives_the_same_deals() -> None:
    runs = []
    for _ in range(2):
        env = SeatVecEnv(3)
        env.seed(5)
        obs = [env.reset()]
        for _ in range(30):
            obs.append(env.step(np.argmax(env.action_masks(), axis=1))[0])
        runs.append(np.stack(obs))
    np.testing.assert_array_equal(runs[0], runs[1])


def test_maskable_ppo_learns_on_it_and_plays_only_legal_actions() -> None:
    sb3_contrib = pytest.importorskip("sb3_contrib")
    from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported

    env = SeatVecEnv(4, seat=None)
    assert is_masking_supported(env)
    model = sb3_contrib.MaskablePPO("MlpPolicy", env, n_steps=32, batch_size=64, n_epochs=1, seed=0,
                                    device="cpu", policy_kwargs={"net_arch": [16]})
    model.learn(256)
    assert model.num_timesteps >= 256
    obs = env.reset()
    for _ in range(40):
        masks = get_action_masks(env)
        actions, _ = model.predict(obs, action_masks=masks, deterministic=True)
        assert masks[np.arange(4), actions].all()
        obs, _, _, infos = env.step(actions)
        assert not any(info.get("illegal_action") for info in infos)


def test_sb3s_plain_ppo_runs_on_it_and_an_illegal_action_ends_the_deal() -> None:
    env = SeatVecEnv(2, illegal_reward=-5.0)
    PPO("MlpPolicy", env, n_steps=16, batch_size=32, n_epochs=1, seed=0, device="cpu",
        policy_kwargs={"net_arch": [8]}).learn(32)
    env.seed(0)
    env.reset()
    illegal = np.argmin(env.action_masks(), axis=1)  # a masked-out ID at each table
    _, rewards, dones, infos = env.step(illegal)
    assert dones.all() and (rewards == -5.0).all() and all(info["illegal_action"] for info in infos)


def test_a_subset_of_tables_cannot_be_set_apart() -> None:
    env = SeatVecEnv(3)
    env.set_attr("illegal_reward", -3.0)
    assert env.get_attr("illegal_reward", indices=[0, 2]) == [-3.0, -3.0]
    with pytest.raises(ValueError, match="share one environment"):
        env.set_attr("illegal_reward", -1.0, indices=[1])
