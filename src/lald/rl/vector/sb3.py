"""Stable-Baselines3's ``VecEnv`` on the compiled tables: the one-seat task of
:class:`~lald.rl.vector.VectorSeatEnv` for SB3's algorithms, with the masks that
sb3-contrib's ``MaskablePPO`` asks for.

SB3 steps its environments through ``VecEnv``: ``step_async(actions)`` then
``step_wait()`` giving ``(observations, rewards, dones, infos)``, an environment that is
done starting its next episode in the same step (its last observation in
``infos[i]["terminal_observation"]``), and ``env_method("action_masks")`` for the masks.
``make_vec_env("lald/Seat-v0", n_envs=N)`` gives that too, one Python environment a table
and the bots of :mod:`lald.bots` deciding for the opponents; :class:`SeatVecEnv` is N
tables in one call of the compiled tables (the same deals, observations, masks and
rewards as :class:`VectorSeatEnv`, which it wraps with same-step autoreset), at the speed
``bench/sb3.py`` measures.

>>> env = SeatVecEnv(4, players=3)
>>> env.seed(7)
[7, 8, 9, 10]
>>> obs = env.reset()
>>> obs.shape, np.stack(env.env_method("action_masks")).shape
((4, 451), (4, 80))
>>> obs, rewards, dones, infos = env.step(np.array([m.argmax() for m in env.env_method("action_masks")]))
>>> rewards.dtype, dones.shape, len(infos)
(dtype('float32'), (4,), 4)

Importing this module needs ``stable-baselines3`` (the ``train`` extra).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium.vector import AutoresetMode
from stable_baselines3.common.vec_env.base_vec_env import VecEnv, VecEnvIndices, VecEnvStepReturn

from .env import Masks, Policy, VectorSeatEnv


class SeatVecEnv(VecEnv):
    """``num_envs`` tables of the one-seat task as an SB3 ``VecEnv``.

    Every keyword of :class:`VectorSeatEnv` but the autoreset mode (``preset``,
    ``players``, ``variants``, ``options``, ``seat``, ``opponents``: ``"random"`` or a
    batched policy, ``illegal_reward``, ``backend``, ``zero_sum``).  ``seed(x)`` then
    ``reset()`` deals table ``i`` the deal ``x + i``, as ``VectorSeatEnv.reset(seed=x)``
    does; without a seed the tables draw theirs.  Rewards are float32, SB3's type.
    ``action_masks()`` (and ``env_method("action_masks")``, row by row) are the learners'
    legal actions now.
    """

    def __init__(self, num_envs: int = 8, preset: str = "survivor", players: int = 5,
                 variants: Iterable[str] = (), options: dict[str, Any] | None = None, *,
                 seat: int | None = 0, opponents: str | Policy = "random", illegal_reward: float = -10.0,
                 backend: str | None = None, zero_sum: bool = False) -> None:
        self.venv = VectorSeatEnv(num_envs, preset, players, variants, options, seat=seat,
                                  opponents=opponents, illegal_reward=illegal_reward,
                                  autoreset_mode=AutoresetMode.SAME_STEP, copy=False, backend=backend,
                                  zero_sum=zero_sum)
        self.render_mode = None
        super().__init__(self.venv.num_envs, self.venv.single_observation_space,
                         self.venv.single_action_space)
        self._actions: np.ndarray | None = None
        self._empty: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]

    # -- stepping -------------------------------------------------------------------------

    def reset(self) -> np.ndarray:
        """Deal every table (the deals ``x + i`` after ``seed(x)``) and return the learners'
        first observations."""
        first = self._seeds[0]
        obs, _ = self.venv.reset(seed=first)
        self._reset_seeds()
        self._reset_options()
        self.reset_infos = [{} for _ in range(self.num_envs)]
        return obs.copy()

    def step_async(self, actions: np.ndarray) -> None:
        """Keep the learners' action IDs for :meth:`step_wait`."""
        self._actions = np.asarray(actions).reshape(self.num_envs).astype(np.int64, copy=False)

    def step_wait(self) -> VecEnvStepReturn:
        """Play the kept actions: observations (the next deal's where one ended), rewards,
        dones, and per table an info dict (``terminal_observation`` where a deal ended,
        ``illegal_action`` where the learner's action was not legal)."""
        if self._actions is None:
            raise RuntimeError("call step_async(actions) before step_wait()")
        actions, self._actions = self._actions, None
        obs, reward, term, trunc, info = self.venv.step(actions)
        dones = term | trunc
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)] if dones.any() else self._empty
        if dones.any():
            final, illegal = info["final_obs"], info["illegal_action"]
            for i in np.flatnonzero(dones):
                infos[i] = {"terminal_observation": final[i].copy(), "TimeLimit.truncated": bool(trunc[i])}
                if illegal[i]:
                    infos[i]["illegal_action"] = True
        else:
            self._empty = [{} for _ in range(self.num_envs)]  # SB3 may keep or change the last ones
        return obs.copy(), reward.astype(np.float32), dones, infos

    def action_masks(self) -> Masks:
        """The learners' legal actions, ``num_envs`` x 80 bools."""
        return self.venv.action_masks()

    def close(self) -> None:
        """Close the tables."""
        self.venv.close()

    # -- SB3's attribute access, for the one environment that holds every table -------------

    def _indices(self, indices: VecEnvIndices) -> Sequence[int]:
        if indices is None:
            return range(self.num_envs)
        if isinstance(indices, int):
            return [indices]
        return list(indices)

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        """The tables' shared attribute, once per index (``render_mode`` is None)."""
        value = None if attr_name == "render_mode" else getattr(self.venv, attr_name)
        return [value for _ in self._indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        """Set an attribute of every table at once; a subset of tables is refused, since
        they share one environment."""
        if len(self._indices(indices)) != self.num_envs:
            raise ValueError(f"set_attr({attr_name!r}): the tables share one environment; set it for all")
        setattr(self.venv, attr_name, value)

    def env_method(self, method_name: str, *method_args: Any, indices: VecEnvIndices = None,
                   **method_kwargs: Any) -> list[Any]:
        """``action_masks`` row by row; any other method of the tables, called once and
        its answer given to each index."""
        rows = self._indices(indices)
        if method_name == "action_masks":
            masks = self.action_masks()
            return [masks[i] for i in rows]
        value = getattr(self.venv, method_name)(*method_args, **method_kwargs)
        return [value for _ in rows]

    def env_is_wrapped(self, wrapper_class: type[gym.Wrapper], indices: VecEnvIndices = None) -> list[bool]:
        """No table is wrapped by a Gymnasium wrapper."""
        return [False for _ in self._indices(indices)]
