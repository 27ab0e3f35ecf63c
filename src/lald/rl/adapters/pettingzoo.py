"""The PettingZoo AEC environment: every seat an agent, claims out of turn as claim windows.

Agents are ``seat_0`` .. ``seat_{n-1}``; the agent selected is the seat to decide (see
:mod:`lald.rl.deal`). Its observation is the shared 451-number vector
(:mod:`lald.bots.learned.encoding`) and ``infos[agent]["action_mask"]`` its int8 legal mask (all
zeros for an agent that is not deciding).  Rewards are the chips of the deal (the antes
included; under ``low-stakes`` scoring 1 to each seat with the most cards), paid when it
ends; with ``session=True`` an episode is a whole session and each deal pays as it ends.

:func:`env` treats an illegal action as PettingZoo's classic games do (their
``TerminateIllegalWrapper``): the episode ends with ``illegal_reward`` to the agent that
made it.  It does so itself rather than through PettingZoo's wrappers, whose attribute
forwarding took half the time of a step (bench/rl.py); :func:`raw_env` refuses an
illegal action with a one-line IllegalActionError and changes nothing.  Either refuses a
step before reset and a value that is no action ID.  ``history=K`` appends the latest K
public actions to each observation (claims included; ``encoding.history_block``), for
learners without recurrence.

>>> e = env(players=3, render_mode="ansi")
>>> e.reset(seed=1)
>>> obs, reward, terminated, truncated, info = e.last()
>>> obs.shape, int(info["action_mask"].sum()) > 0, e.agent_selection in e.agents
((451,), True, True)
>>> for agent in e.agent_iter():
...     obs, reward, terminated, truncated, info = e.last()
...     action = None if terminated else int(info["action_mask"].nonzero()[0][0])
...     e.step(action)
>>> sorted(e.rewards), e.agents
([], [])
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ...bots.learned.encoding import (
    NUM_ACTIONS,
    Mask,
    Observation,
    as_action_id,
    check_history,
    observation_bounds,
    observe,
)
from ...core import Session, State
from ..deal import Deal, deal_rewards, make_rules
from .text import render_text


def deal_options(options: dict[str, Any] | None, players: int,
                 session: bool) -> tuple[int | None, int | None]:
    """``reset``'s options, checked: the deal's seed (``deal``, a whole number from 0 to
    2**64 - 1) and its dealer (``dealer``, a seat; not in session mode, where the cut
    chooses); None where not given. A bad value is a ValueError in one line (seen before:
    3.7 taken as 3, a session's dealer ignored). Other keys are left alone: PettingZoo's
    own tests pass some."""
    options = dict(options or {})
    if session and "dealer" in options:
        raise ValueError("in session mode the cut chooses the first dealer: give only deal")
    got: list[int | None] = []
    for key, high, what in (("deal", 1 << 64, "a seed from 0 to 2**64 - 1"),
                            ("dealer", players, f"a seat from 0 to {players - 1}")):
        value = options.get(key)
        if value is None:
            got.append(None)
            continue
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not 0 <= value < high:
            raise ValueError(f"reset option {key}={value!r}: give {what}")
        got.append(int(value))
    return got[0], got[1]


class LaldEnv(AECEnv[str, Observation, int]):  # type: ignore[misc]
    """Laugh and Lie Down for PettingZoo (build it with :func:`env` or :func:`raw_env`)."""

    metadata: dict[str, Any] = {"name": "lald_v0", "render_modes": ["ansi", "human"],
                                "is_parallelizable": False, "render_fps": 1}

    def __init__(self, preset: str = "survivor", players: int = 5, variants: Iterable[str] = (),
                 options: dict[str, Any] | None = None, session: bool = False,
                 render_mode: str | None = None, illegal_reward: float | None = None,
                 zero_sum: bool = False, history: int = 0) -> None:
        super().__init__()
        self.history = check_history(history)
        self.illegal_reward = illegal_reward
        self.zero_sum = zero_sum
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"unknown render_mode {render_mode!r}: choose ansi or human")
        self.rules = make_rules(preset, players, variants, options)
        self.session_mode = session
        self.render_mode = render_mode
        self.possible_agents = [f"seat_{s}" for s in range(self.rules.players)]
        low, high = observation_bounds(self.history)
        self._obs_space = spaces.Box(low, high, dtype=np.float32)
        self._act_space = spaces.Discrete(NUM_ACTIONS)
        self.state_space = spaces.Box(np.tile(low, self.rules.players), np.tile(high, self.rules.players),
                                      dtype=np.float32)
        """The space of :meth:`state`: every seat's observation, one after another."""
        self.observation_spaces = {a: self._obs_space for a in self.possible_agents}
        self.action_spaces = {a: self._act_space for a in self.possible_agents}
        self.deal: Deal | None = None
        self.session: Session | None = None
        self._rng = np.random.default_rng()

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The same Box for every agent, preset and player count."""
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """Discrete(80): the action IDs of :mod:`lald.bots.learned.encoding`."""
        return self._act_space

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new deal (or session). A seed names the deal, as everywhere in lald:
        ``reset(seed=x)`` deals ``State.deal(rules, x, dealer=x % players)`` (a session:
        ``Session(rules, x)``) and seeds the generator of later resets without a seed.
        ``options`` may name the deal otherwise: ``{"deal": SEED, "dealer": SEAT}`` deals
        ``State.deal(rules, SEED, dealer=SEAT)``."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        deal_seed, dealer = deal_options(options, self.rules.players, self.session_mode)
        if seed is not None and deal_seed is None:
            deal_seed = int(seed) % (1 << 64)
            if dealer is None and not self.session_mode:
                dealer = deal_seed % self.rules.players
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        if deal_seed is None:
            deal_seed = int(self._rng.integers(1 << 62))
        if self.session_mode:
            self.session = Session(self.rules, deal_seed)
            state = self.session.start_deal()
        else:
            if dealer is None:
                dealer = int(self._rng.integers(self.rules.players))
            state = State.deal(self.rules, deal_seed, dealer=dealer)
        self.deal = Deal(state)
        self.infos = {a: {"action_mask": np.zeros(NUM_ACTIONS, np.int8)} for a in self.agents}
        self._select()

    def _select(self) -> None:
        deal = self.deal
        assert deal is not None and deal.seat is not None
        self.agent_selection = self.possible_agents[deal.seat]
        self.infos[self.agent_selection] = {"action_mask": deal.mask()}

    def observe(self, agent: str) -> Observation:
        """The agent's observation now."""
        deal = self.deal
        assert deal is not None, "call reset() first"
        seat = self.possible_agents.index(agent)
        return observe(deal.state, seat, deal.deciding if seat == deal.seat else "none", self.history)

    def state(self) -> Observation:
        """The global state, for a centralized critic during training: every seat's
        observation, seat 0 first, concatenated (each as :meth:`observe` gives it, so
        together they hold every hand). It is the trainer's, never an agent's: an agent
        that acts on it sees the others' cards."""
        deal = self.deal
        if deal is None:
            raise RuntimeError("call reset() before state()")
        return np.concatenate([observe(deal.state, s, deal.deciding if s == deal.seat else "none",
                                       self.history) for s in range(self.rules.players)])

    def action_mask(self, agent: str) -> Mask:
        """The agent's int8 legal mask (zeros unless it is the agent to decide)."""
        mask: Mask = self.infos[agent]["action_mask"]
        return mask

    def step(self, action: int | None) -> None:
        """Play the selected agent's action ID."""
        deal = self.deal
        if deal is None:
            raise RuntimeError("call reset() before step()")
        if not self.agents:
            raise RuntimeError("the episode is over: call reset()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        chosen = as_action_id(action)
        if self.illegal_reward is not None and chosen not in deal.legal:
            self._end_illegal(agent)
            return
        deal.step(chosen)
        self._cumulative_rewards[agent] = 0.0
        self.infos[agent] = {"action_mask": np.zeros(NUM_ACTIONS, np.int8)}
        for a in self.agents:
            self.rewards[a] = 0.0
        if deal.over:
            paid = deal_rewards(deal.state, self.zero_sum)
            for s, a in enumerate(self.possible_agents):
                self.rewards[a] = paid[s]
            if self.session is not None:
                self.session.end_deal(deal.state)
            if self.session is not None and not self.session.over:
                self.deal = Deal(self.session.start_deal())
            else:
                self.terminations = dict.fromkeys(self.agents, True)
                self._accumulate_rewards()
                if self.render_mode == "human":
                    self.render()
                return
        self._select()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _end_illegal(self, agent: str) -> None:
        """The episode ends: ``illegal_reward`` to ``agent``, nothing to the others."""
        assert self.illegal_reward is not None
        self._cumulative_rewards[agent] = 0.0
        self.terminations = dict.fromkeys(self.agents, True)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self.rewards[agent] = float(self.illegal_reward)
        self.infos[agent] = {"action_mask": np.zeros(NUM_ACTIONS, np.int8)}
        self._accumulate_rewards()
        self._deads_step_first()

    def render(self) -> str | None:
        """The table as a spectator sees it (no hidden card), and who decides."""
        if self.deal is None:
            text = "no deal yet: call reset()"
        else:
            text = render_text(self.deal, self.session)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""


def raw_env(**kwargs: Any) -> LaldEnv:
    """The environment that refuses an illegal action (IllegalActionError, nothing changed)."""
    kwargs.setdefault("illegal_reward", None)
    return LaldEnv(**kwargs)


def env(illegal_reward: float = -10.0, **kwargs: Any) -> LaldEnv:
    """The environment as PettingZoo's classic games come: an illegal action ends the
    episode with ``illegal_reward`` for its agent (keywords as :class:`LaldEnv`)."""
    return LaldEnv(illegal_reward=illegal_reward, **kwargs)
