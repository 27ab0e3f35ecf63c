"""The two vectorized environments on the tables of :mod:`lald.rl.vector.tables`:
:class:`VectorDeals` (self-play) and :class:`VectorSeatEnv` (Gymnasium's ``VectorEnv`` for
the one-seat task); see :mod:`lald.rl.vector`."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import gymnasium as gym
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from ...bots.learned.encoding import (
    CHIP_SCALE,
    LAYOUT,
    NUM_ACTIONS,
    PASS,
    check_history,
    observation_bounds,
    observation_size,
)
from ...core import Rules, Scoring
from ...core.rng import KeyedRandom
from ..deal import make_rules
from . import checks
from .tables import STREAM_KEY, Tables, make_tables
from .vecpy import AUTO_NEXT, AUTO_SAME, LEVEL_OF, MODE_ALL, MODE_SEAT, OPP_EXTERNAL, OPP_RANDOM

Observations = npt.NDArray[np.float32]
Masks = npt.NDArray[np.bool_]
Policy = Callable[[Observations, Masks], Any]
"""A batched policy: observations (k x 451) and legal masks (k x 80) in, k action IDs out."""


class _Base:
    """What both interfaces share: the rules, the tables, actions checked, seeds."""

    rules: Rules
    num_envs: int
    backend: str
    _t: Tables
    _secret_mode: bytes | bool | None
    _secret: bytes | None = None

    def _streams(self, seeds: npt.NDArray[np.uint64], fresh: bool
                 ) -> tuple[npt.NDArray[np.uint64], bytes | None]:
        """Each table's own stream's seed, and the secret its deals are keyed with (None:
        seeded deals); ``fresh``: a new secret when the environment draws its own."""
        if self._secret_mode is None:
            return seeds ^ np.uint64(STREAM_KEY), None
        if self._secret_mode is True:
            if fresh or self._secret is None:
                self._secret = secrets.token_bytes(32)
        elif isinstance(self._secret_mode, bytes):
            self._secret = self._secret_mode
        assert self._secret is not None
        key = self._secret
        return np.array([KeyedRandom(key, "stream", int(s)).next64() for s in seeds], np.uint64), key

    def _actions(self, actions: Any) -> npt.NDArray[np.int64]:
        a = np.asarray(actions)
        if a.shape != (self.num_envs,) or a.dtype.kind not in "iu":
            raise ValueError(f"actions: give one action ID per table, {self.num_envs} whole numbers "
                             f"from 0 to {NUM_ACTIONS - 1} (got shape {a.shape}, dtype {a.dtype})")
        return np.ascontiguousarray(a, np.int64)

    def deals(self) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.int8]]:
        """Each table's deal now: its seed and its dealer (``lald deal --seed S --dealer D``
        deals it).  The trainer's, never an agent's: a seed names every hand."""
        seeds = np.zeros(self.num_envs, np.uint64)
        dealers = np.zeros(self.num_envs, np.int8)
        self._t.deals(seeds, dealers, np.zeros(self.num_envs, np.int8))
        return seeds, dealers

    def random_actions(self) -> npt.NDArray[np.int64]:
        """A uniformly random legal action ID at each table (for exploration and
        benchmarks), drawn from each table's own stream."""
        out = np.empty(self.num_envs, np.int64)
        self._t.random_actions(out)
        return out

    def table(self, i: int) -> dict[str, Any]:
        """Table ``i`` as the engine holds it: hands, table and won piles as card masks,
        the seat to decide, the legal IDs, chips.  The trainer's, never an agent's."""
        if not checks.whole(i, 0, self.num_envs):
            raise ValueError(f"there is no table {i!r}: tables are 0 to {self.num_envs - 1}")
        return self._t.get(int(i))


# -- self-play ----------------------------------------------------------------------------------


class VectorDeals(_Base):
    """N tables where every seat acts: self-play, one action per table per step.

    ``step(actions)`` plays each table's action for the seat that decides there (a turn,
    or an answer to a claim window), and returns ``(observations, rewards, terminated,
    truncated, info)``: the observation (N x 451 float32) of the seat now to decide at each
    table, ``info["seat"]`` which seat that is and ``info["action_mask"]`` its legal IDs
    (N x 80 bool); ``rewards`` (N x players float64) what each seat of a table whose deal
    just ended was paid (the adapters' rewards: chips, or under ``low-stakes`` 1 to each
    seat with the most cards), and ``terminated`` those tables.  A table whose deal ended
    deals its next one at once, so the observation is already the new deal's.

    An illegal action ends that table's deal with ``illegal_reward`` to the seat that made
    it and nothing to the others (``info["illegal_action"]`` says where), as PettingZoo's
    ``env()`` does; with ``illegal_reward=None`` it is refused with a one-line
    IllegalActionError and no table changes.  Rules as the adapters take them: ``preset``,
    ``players`` (3 to 5), ``variants``, ``options``.  ``copy=False`` reuses the returned
    arrays at the next step (faster; copy what you keep).  ``backend``: ``"compiled"``,
    ``"python"`` or None (the compiled tables when loaded).  ``secret``: keyed deals (see
    the module's docstring).  ``zero_sum=True``: each seat's reward less the mean of the
    deal's (the chips add up to zero only at five players and at four under survivor).
    ``history=K``: each observation shows the latest K public actions after its 451
    numbers (claims included; :func:`~lald.bots.learned.encoding.history_block`), for
    learners without recurrence.
    """

    def __init__(self, num_envs: int, preset: str = "survivor", players: int = 5,
                 variants: Iterable[str] = (), options: dict[str, Any] | None = None, *,
                 illegal_reward: float | None = -10.0, copy: bool = True, backend: str | None = None,
                 secret: bytes | bool | None = None, session: bool = False,
                 render_mode: str | None = None, zero_sum: bool = False, history: int = 0) -> None:
        checks.no_session(session, render_mode)
        self._secret_mode = checks.secret_of(secret)
        self.num_envs = checks.table_count(num_envs)
        self.rules = make_rules(preset, players, variants, options)
        self.illegal_reward = None if illegal_reward is None else float(illegal_reward)
        self.zero_sum = zero_sum
        self.history = check_history(history)
        self.obs_size = observation_size(self.history)
        self.copy = copy
        self._t, self.backend = make_tables(self.rules, self.num_envs, MODE_ALL, backend=backend,
                                            history=self.history)
        low, high = observation_bounds(self.history)
        self.single_observation_space = spaces.Box(low, high, dtype=np.float32)
        self.single_action_space = spaces.Discrete(NUM_ACTIONS)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self._out = self._buffers()
        self._reset = False

    def _buffers(self) -> tuple[npt.NDArray[Any], ...]:
        n, p = self.num_envs, self.rules.players
        return (np.empty((n, self.obs_size), np.float32), np.empty((n, NUM_ACTIONS), np.bool_),
                np.empty(n, np.int8), np.empty((n, p), np.float64), np.empty(n, np.bool_),
                np.empty(n, np.bool_))

    def reset(self, *, seed: int | Sequence[int] | None = None, options: dict[str, Any] | None = None
              ) -> tuple[Observations, dict[str, Any]]:
        """Deal every table its first deal (see the module's docstring for ``seed`` and
        ``options={"deal": ..., "dealer": ...}``); the observations of the seats to
        decide and the info (``seat``, ``action_mask``)."""
        seeds, dealers = checks.first_deals(seed, options, self.num_envs, self.rules.players)
        rngs, key = self._streams(seeds, True)
        self._t.reset(seeds, dealers, rngs, np.zeros(self.num_envs, np.int8), None, self.num_envs, key)
        self._reset = True
        obs, mask, seats = self._out[0], self._out[1], self._out[2]
        self._t.masks(mask, seats)
        self._t.observe(np.full(self.num_envs, -1, np.int8), obs)
        if self.copy:
            obs, mask, seats = obs.copy(), mask.copy(), seats.copy()
        return obs, {"seat": seats, "action_mask": mask}

    def step(self, actions: Any) -> tuple[Observations, npt.NDArray[np.float64], npt.NDArray[np.bool_],
                                          npt.NDArray[np.bool_], dict[str, Any]]:
        """Play one action ID per table for the seat deciding there (see the class)."""
        if not self._reset:
            raise RuntimeError("call reset() before step()")
        a = self._actions(actions)
        out = self._buffers() if self.copy else self._out
        obs, mask, seats, rewards, done, flags = out
        try:
            self._t.step_all(a, obs, mask, seats, rewards, done, self.illegal_reward, flags)
        except LookupError as e:
            raise checks.refusal(self._t, e, "") from None
        if self.zero_sum:  # each seat less the mean (an illegal action's penalty stays as it is)
            paid = done & ~flags
            rewards[paid] -= rewards[paid].mean(axis=1, keepdims=True)
        truncated = np.zeros(self.num_envs, np.bool_)
        return obs, rewards, done, truncated, {"seat": seats, "action_mask": mask, "illegal_action": flags}

    def observe(self, seats: int | Sequence[int] | None = None) -> Observations:
        """Each table's observation of ``seats`` (one seat for all, one per table, or None:
        the seat to decide), with the deciding flags where that seat decides.  With every
        seat in turn it is what a centralized critic reads (then it holds every hand: the
        trainer's, never an agent's)."""
        if not self._reset:
            raise RuntimeError("call reset() first")
        p = self.rules.players
        which = [-1] * self.num_envs if seats is None else checks.per_table(
            seats, self.num_envs, "seats", 0, p, f"a seat from 0 to {p - 1}")
        obs = np.empty((self.num_envs, self.obs_size), np.float32)
        self._t.observe(np.array(which, np.int8), obs)
        return obs

    def state(self) -> Observations:
        """Every seat's observation at every table, N x players x 451 (seat 0 first, the
        deciding flags where that seat decides): a centralized critic's input, as
        PettingZoo's ``state()``.  It holds every hand: the trainer's, never an agent's."""
        return np.stack([self.observe(s) for s in range(self.rules.players)], axis=1)

    def action_masks(self) -> Masks:
        """The legal mask (N x 80 bool) of the seat to decide at each table."""
        mask = np.empty((self.num_envs, NUM_ACTIONS), np.bool_)
        self._t.masks(mask, np.empty(self.num_envs, np.int8))
        return mask

    def set_layout(self, i: int, hands: Sequence[Iterable[Any]], table: Iterable[Any],
                   dealer: int = 0) -> None:
        """Table ``i`` plays this layout as dealt (cards as the engine takes them, checked
        by ``State.from_layout``); when it ends, the table deals on from its seed."""
        from ...core import State
        from ...core.cards import mask_of

        if not self._reset:
            raise RuntimeError("call reset() first")
        if not checks.whole(i, 0, self.num_envs):
            raise ValueError(f"there is no table {i!r}: tables are 0 to {self.num_envs - 1}")
        hands = [list(h) for h in hands]
        table = list(table)
        state = State.from_layout(self.rules, hands, table, dealer)  # the engine checks it
        self._t.load(int(i), [mask_of(h) for h in hands], mask_of(table), state.dealer)

    def close(self) -> None:
        """Nothing to release."""


# -- one seat: Gymnasium's VectorEnv ----------------------------------------------------------


class VectorSeatEnv(_Base, VectorEnv[Observations, Any, Any]):
    """``lald/Seat-v0`` for N tables at once, as Gymnasium's ``VectorEnv``.

    At each table one seat learns (``seat``, or None: a random seat each episode, drawn
    from the table's stream; ``info["seat"]`` says which) and the others are the
    ``opponents``: ``"random"``, the ``random`` level's law (each of the engine's legal
    actions equally likely, passing on a claim as one choice), ``"greedy"`` or
    ``"heuristic"``, those levels of :mod:`lald.bots` (their choices, draws from the table's
    stream; :mod:`lald.rl.vector.opponents`), all played inside the tables;
    or a batched policy ``policy(observations, masks) -> action IDs`` of yours, asked for
    every opponent's decision of the tables waiting on one (k x 451 observations of the
    opponents' seats, k x 80 masks; a frozen copy of the learner, say; an answer that is
    not one legal ID per row is refused in one line, and the half-made step then waits for a
    reset).  The bots of
    :mod:`lald.bots` (``heuristic``, ``expert``) are ``lald/Seat-v0``'s, table by table.

    ``step(actions)`` plays the learners' action IDs and the opponents until each learner
    decides again, and returns Gymnasium's ``(observations, rewards, terminations,
    truncations, infos)``: rewards float64 (the learner's chips for the deal, paid when it
    ends; ``illegal_reward`` and the end for an illegal action, ``infos["illegal_action"]``),
    infos a dict of arrays with Gymnasium's ``_key`` masks: ``action_mask`` (N x 80 int8,
    as the adapter's; :meth:`action_masks` gives bools), ``seat``, ``illegal_action``.
    ``autoreset_mode``: next-step (the default: the step after an episode's end deals again
    and ignores that table's action), same-step (the next deal at once, the last
    observation in ``infos["final_obs"]``, the last info in ``infos["final_info"]``, as
    Gymnasium's own vector environments give them), or disabled (``reset(options={"reset_mask":
    ...})``; a table stepped after its end deals again as under next-step rather than
    refusing the batch).  The row of an episode that just ended masks ``pass`` alone (see
    :meth:`action_masks`).  Seeds, ``options={"deal", "dealer"}`` and the rules as :class:`VectorDeals`
    takes them; ``zero_sum=True`` and ``history`` as :class:`VectorDeals`.  Importing this module registers
    ``lald/VectorSeat-v0``:
    ``gymnasium.make_vec("lald/VectorSeat-v0", num_envs=N, ...)`` makes one.
    """

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}

    def __init__(self, num_envs: int = 1, preset: str = "survivor", players: int = 5,
                 variants: Iterable[str] = (), options: dict[str, Any] | None = None, *,
                 seat: int | None = 0, opponents: str | Policy = "random", illegal_reward: float = -10.0,
                 autoreset_mode: str | AutoresetMode = AutoresetMode.NEXT_STEP, copy: bool = True,
                 backend: str | None = None, secret: bytes | bool | None = None,
                 session: bool = False, render_mode: str | None = None, zero_sum: bool = False,
                 history: int = 0) -> None:
        checks.no_session(session, render_mode)
        self._secret_mode = checks.secret_of(secret)
        self.num_envs = checks.table_count(num_envs)
        self.rules = make_rules(preset, players, variants, options)
        self.zero_sum = zero_sum
        self.history = check_history(history)
        self.obs_size = observation_size(self.history)
        p = self.rules.players
        if seat is not None and not checks.whole(seat, 0, p):
            raise ValueError(f"there is no seat {seat!r}: seats are 0 to {p - 1} (or None: a random seat)")
        levels = {"random": OPP_RANDOM, **{name: code for code, name in LEVEL_OF.items()}}
        if isinstance(opponents, str):
            if opponents not in levels:
                raise ValueError(f"opponents={opponents!r}: the vectorized tables play {', '.join(levels)} "
                                 "or a batched policy(observations, masks); lald/Seat-v0 plays every bot "
                                 "of lald.bots")
            self.policy: Policy | None = None
        elif callable(opponents):
            self.policy = opponents
        else:
            raise ValueError(f"opponents: give {', '.join(levels)} or a batched policy(observations, masks) "
                             "-> action IDs")
        try:
            mode = (autoreset_mode if isinstance(autoreset_mode, AutoresetMode)
                    else AutoresetMode(autoreset_mode))
        except ValueError:
            raise ValueError(f"autoreset_mode={autoreset_mode!r}: choose "
                             f"{', '.join(m.value for m in AutoresetMode)}") from None
        self.autoreset_mode = mode
        self.metadata = {**self.metadata, "autoreset_mode": mode}
        # Disabled: the tables deal again only when reset, or when stepped after their end
        # (as next-step tables do) rather than refusing the whole batch.
        auto = {AutoresetMode.NEXT_STEP: AUTO_NEXT, AutoresetMode.SAME_STEP: AUTO_SAME,
                AutoresetMode.DISABLED: AUTO_NEXT}[mode]
        self.fixed_seat = seat
        self.illegal_reward = float(illegal_reward)
        self.copy = copy
        self._t, self.backend = make_tables(self.rules, self.num_envs, MODE_SEAT,
                                            levels[opponents] if isinstance(opponents, str) else OPP_EXTERNAL,
                                            auto,
                                            seat is None, backend, self.history)
        low, high = observation_bounds(self.history)
        self.single_observation_space = spaces.Box(low, high, dtype=np.float32)
        self.single_action_space = spaces.Discrete(NUM_ACTIONS)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        n = self.num_envs
        self._obs = np.empty((n, self.obs_size), np.float32)
        self._mask = np.zeros((n, NUM_ACTIONS), np.bool_)
        self._dummy = (np.empty(n, np.float64), np.empty(n, np.bool_))
        if self.policy is not None:
            self._wait = (np.empty((n, self.obs_size), np.float32), np.empty((n, NUM_ACTIONS), np.bool_),
                          np.empty(n, np.int64), np.empty(n, np.int8))
        self._ended = np.zeros(n, np.bool_)
        self._reset = False

    # -- the opponents -----------------------------------------------------------------------

    def _opponents(self, final: Any, final_mask: Any) -> None:
        """Ask the batched policy for every waiting opponent's decision until none waits."""
        if self.policy is None:
            return
        obs, mask, index, seats = self._wait
        while True:
            k = self._t.waiting(obs, mask, index, seats)
            if not k:
                return
            chosen = np.asarray(self.policy(obs[:k], mask[:k]))
            if chosen.shape != (k,) or chosen.dtype.kind not in "iu":
                raise ValueError(f"the opponents' policy must return {k} action IDs, one per row "
                                 f"(got shape {chosen.shape}, dtype {chosen.dtype})")
            try:
                self._t.answer(np.ascontiguousarray(index[:k]), np.ascontiguousarray(chosen, np.int64),
                               final, final_mask)
            except LookupError as e:
                raise checks.refusal(self._t, e, ", an opponent (the opponents' policy chose it)") from None

    def _opponents_or_stop(self, final: Any, final_mask: Any) -> None:
        """:meth:`_opponents`; if the policy fails, the step is half made: the environment
        then takes no step until it is reset."""
        try:
            self._opponents(final, final_mask)
        except BaseException:
            self._reset = False
            raise

    def _info(self, mask: Masks, illegal: npt.NDArray[np.bool_] | None = None) -> dict[str, Any]:
        seeds, dealers, learners = (np.empty(self.num_envs, np.uint64), np.empty(self.num_envs, np.int8),
                                    np.empty(self.num_envs, np.int8))
        self._t.deals(seeds, dealers, learners)
        every = np.ones(self.num_envs, np.bool_)
        info: dict[str, Any] = {"action_mask": mask.astype(np.int8), "_action_mask": every,
                                "seat": learners, "_seat": every.copy()}
        if illegal is not None:
            info["illegal_action"] = illegal
            info["_illegal_action"] = every.copy()
        return info

    def _less_the_mean(self, reward: npt.NDArray[np.float64], rows: npt.NDArray[np.bool_],
                       last: Observations) -> None:
        """``zero_sum``: the learner's reward less the mean of every seat's, read from the
        deal's last observation (the deal's chips are the balances, the tables playing
        single deals; under card-count scoring, the seats with the most won cards)."""
        if not rows.any():
            return
        p = self.rules.players
        if self.rules.scoring is Scoring.CARD_COUNT:
            won = np.rint(last[rows][:, LAYOUT["won_sizes"]][:, :p] * 52)
            total = (won == won.max(axis=1, keepdims=True)).sum(axis=1)
        else:
            total = np.rint(last[rows][:, LAYOUT["balances"]][:, :p] * CHIP_SCALE).sum(axis=1)
        reward[rows] -= total / p

    def _mark_ended(self, mask: Masks) -> None:
        """The rows of ended episodes not yet dealt again hold ``pass`` alone (see
        :meth:`action_masks`)."""
        if self._ended.any():
            mask[self._ended] = False
            mask[self._ended, PASS] = True

    def _outputs(self) -> tuple[Observations, Masks]:
        if self.copy:
            return np.empty_like(self._obs), np.empty_like(self._mask)
        return self._obs, self._mask

    # -- Gymnasium -------------------------------------------------------------------------------

    def reset(self, *, seed: int | Sequence[int] | None = None, options: dict[str, Any] | None = None
              ) -> tuple[Observations, dict[str, Any]]:
        """Deal every table (or those of ``options["reset_mask"]``) its first deal and play
        the opponents up to its learner's first decision."""
        if isinstance(seed, int) or seed is None:
            super().reset(seed=seed)
        options = dict(options or {})
        select = options.pop("reset_mask", None)
        if select is not None:
            select = np.asarray(select)
            if select.shape != (self.num_envs,) or select.dtype != np.bool_ or not select.any():
                raise ValueError(f"reset_mask: give a bool array of {self.num_envs}, at least one True")
            if not self._reset and not select.all():
                raise ValueError("the first reset deals every table: give no reset_mask")
            select = np.ascontiguousarray(select)
        seeds, dealers = checks.first_deals(seed, options, self.num_envs, self.rules.players)
        learners = np.full(self.num_envs, -1 if self.fixed_seat is None else self.fixed_seat, np.int8)
        rngs, key = self._streams(seeds, select is None)
        self._t.reset(seeds, dealers, rngs, learners, select, self.num_envs, key)
        self._reset = True
        obs, mask = self._outputs()
        if self.policy is None:
            self._t.start_seat(obs, mask, select)
        else:
            self._t.start_seat(None, None, select)
            self._opponents_or_stop(None, None)
            self._t.finish(obs, mask, *self._dummy)
        self._ended = np.zeros(self.num_envs, np.bool_) if select is None else self._ended & ~select
        self._mark_ended(mask)
        self._last_mask = mask
        return obs, self._info(mask)

    def step(self, actions: Any) -> tuple[Observations, npt.NDArray[np.float64], npt.NDArray[np.bool_],
                                          npt.NDArray[np.bool_], dict[str, Any]]:
        """The learners' action IDs; the opponents play until each learner decides again."""
        if not self._reset:
            raise RuntimeError("call reset() before step()")
        a = self._actions(actions)
        n = self.num_envs
        obs, mask = self._outputs()
        reward, term, illegal = np.empty(n, np.float64), np.empty(n, np.bool_), np.empty(n, np.bool_)
        same = self.autoreset_mode is AutoresetMode.SAME_STEP
        final = np.zeros((n, self.obs_size), np.float32) if same else None
        final_mask = np.zeros(n, np.bool_) if same else None
        if same:  # the learners' seats of the episodes that may end in this step
            learners = np.empty(n, np.int8)
            self._t.deals(np.empty(n, np.uint64), np.empty(n, np.int8), learners)
        try:
            self._t.step_seat(a, obs, mask, reward, term, illegal, final, final_mask, self.illegal_reward,
                              self.policy is None)
        except LookupError as e:  # pragma: no cover - an illegal action ends the episode instead
            raise checks.refusal(self._t, e, ", the learner") from None
        if self.policy is not None:
            self._opponents_or_stop(final, final_mask)
            self._t.finish(obs, mask, reward, term)
        if self.zero_sum:
            self._less_the_mean(reward, term & ~illegal, final if final is not None else obs)
        self._ended = term.copy() if not same else np.zeros(n, np.bool_)
        self._mark_ended(mask)
        self._last_mask = mask
        info = self._info(mask, illegal)
        if final is not None and final_mask is not None:
            info["final_obs"], info["_final_obs"] = final, final_mask
            ended = final_mask.copy()
            info["final_info"] = {"action_mask": np.zeros((n, NUM_ACTIONS), np.int8), "_action_mask": ended,
                                  "seat": np.where(ended, learners, 0).astype(np.int8), "_seat": ended.copy(),
                                  "illegal_action": illegal & ended, "_illegal_action": ended.copy()}
            info["_final_info"] = ended.copy()
        return obs, reward, term, np.zeros(n, np.bool_), info

    def action_masks(self) -> Masks:
        """The learners' legal actions (N x 80 bool).  Where an episode just ended (next-step
        and disabled autoreset) the row holds ``pass`` alone: the next step ignores that
        table's action, and a masked sampler (logits to -inf, then a softmax) still draws."""
        if not self._reset:
            return np.zeros((self.num_envs, NUM_ACTIONS), np.bool_)
        return self._last_mask.copy()

    def close_extras(self, **kwargs: Any) -> None:
        """Nothing to release."""


#: ``gymnasium.make_vec(VECTOR_ENV_ID, num_envs=N, ...)`` makes a :class:`VectorSeatEnv`.
VECTOR_ENV_ID = "lald/VectorSeat-v0"
gym.register(id=VECTOR_ENV_ID, vector_entry_point="lald.rl.vector:VectorSeatEnv")
