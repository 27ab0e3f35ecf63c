"""The Gymnasium environment ``lald/Seat-v0``: one seat learns, :mod:`lald.bots` play the rest.

Importing this module registers the id.  The learner sees the shared observation and
chooses an action ID (:mod:`lald.bots.learned.encoding`) at its turns and at every claim window it is
polled in; the other seats are bots of the levels named in ``opponents`` (one spec for all,
or one per other seat, as ``lald tournament --bot`` reads them: ``"expert"``,
``"pimc:worlds=8"``, ...), and play between the learner's decisions as
:func:`lald.play.loop.step` has them play.  The reward is the learner's chips for the deal
(or for each deal of a session, with ``session=True``), paid when it ends; with
``zero_sum=True``, less the mean of every seat's (the chips need not add up to zero: at
three players, and at four under last-capture, the seats take about 3.8 and 2 chips a deal
from the signed pot).
``action_masks()`` gives the legal mask as maskable learners expect it (bool), and
``info["action_mask"]`` the int8 one.  An illegal action ends the episode with
``illegal_reward``.  ``history=K`` appends the latest K public actions to the observation
(claims included; ``encoding.history_block``), for learners without recurrence.  Bots
that stop on a time limit (``pimc``, ``expert`` by default) make
the environment depend on the machine's speed; give them ``worlds=N:time_limit=LARGE`` for
repeatable episodes.

>>> import gymnasium as gym
>>> env = gym.make("lald/Seat-v0", opponents="heuristic", players=4)
>>> obs, info = env.reset(seed=3)
>>> obs.shape, int(env.action_space.n), int(info["action_mask"].sum()) >= 1
((451,), 80, True)
>>> done = False
>>> while not done:
...     mask = env.unwrapped.action_masks()
...     obs, reward, terminated, truncated, info = env.step(int(mask.nonzero()[0][0]))
...     done = terminated or truncated
>>> isinstance(reward, float)
True
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any

import gymnasium as gym
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from ...bots import Bot
from ...bots.learned.encoding import (
    NUM_ACTIONS,
    Observation,
    as_action_id,
    check_history,
    observation_bounds,
    observe,
)
from ...core import Session, State
from ...play.spec import parse_spec
from ..deal import Deal, deal_rewards, make_rules
from .pettingzoo import deal_options
from .text import RGB_SHAPE, render_rgb, render_text

ENV_ID = "lald/Seat-v0"


class SeatEnv(gym.Env[Observation, int]):
    """One seat of Laugh and Lie Down against bots (make it with ``gym.make("lald/Seat-v0")``)."""

    metadata = {"render_modes": ["ansi", "human", "rgb_array"], "render_fps": 1}

    def __init__(self, preset: str = "survivor", players: int = 5, variants: Iterable[str] = (),
                 options: dict[str, Any] | None = None, seat: int | None = 0,
                 opponents: str | Sequence[str] = "heuristic", session: bool = False,
                 illegal_reward: float = -10.0, render_mode: str | None = None,
                 zero_sum: bool = False, history: int = 0) -> None:
        self.history = check_history(history)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"unknown render_mode {render_mode!r}: choose ansi, human or rgb_array")
        self.rules = make_rules(preset, players, variants, options)
        n = self.rules.players
        if seat is not None and not 0 <= seat < n:
            raise ValueError(f"there is no seat {seat}: seats are 0 to {n - 1} (or None: a random seat)")
        specs = [opponents] * (n - 1) if isinstance(opponents, str) else list(opponents)
        if len(specs) != n - 1:
            raise ValueError(f"name one opponent for all, or {n - 1} opponents, one per other seat")
        self.opponents = [parse_spec(s, self.rules) for s in specs]  # judged under these rules
        self.fixed_seat = seat
        self.seat = 0 if seat is None else seat
        self.session_mode = session
        self.illegal_reward = float(illegal_reward)
        self.zero_sum = zero_sum
        self.render_mode = render_mode
        low, high = observation_bounds(self.history)
        self.observation_space = spaces.Box(low, high, dtype=np.float32)
        self.action_space = spaces.Discrete(NUM_ACTIONS)  # type: ignore[assignment]
        self.deal: Deal | None = None
        self.session: Session | None = None
        self.bots: list[Bot | None] = []
        self.bot_seeds: list[int | None] = []
        self._ended = False

    # -- the episode --------------------------------------------------------------------

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[Observation, dict[str, Any]]:
        """A new deal (or session), played up to the learner's first decision.  A seed
        names the deal, as everywhere in lald: ``reset(seed=x)`` deals ``State.deal(rules, x,
        dealer=x % players)`` (a session: ``Session(rules, x)``), as table ``i`` of
        :class:`~lald.rl.vector.VectorSeatEnv` deals ``x + i`` and as Gymnasium's
        ``SyncVectorEnv`` seeds its ``i``-th environment ``x + i``; it seeds the environment's
        generator too (the bots, a random seat, the deals of later resets without a seed).
        ``options`` may name the deal otherwise: ``{"deal": SEED, "dealer": SEAT}``."""
        super().reset(seed=seed)
        deal_seed, dealer = deal_options(options, self.rules.players, self.session_mode)
        if seed is not None and deal_seed is None:
            deal_seed = int(seed) % (1 << 64)
            if dealer is None and not self.session_mode:
                dealer = deal_seed % self.rules.players
        rng, n = self.np_random, self.rules.players
        self.seat = int(rng.integers(n)) if self.fixed_seat is None else self.fixed_seat
        others = iter(self.opponents)
        #: The seed of each bot's generator this episode (the learner's seat: None).
        self.bot_seeds = [None if s == self.seat else int(rng.integers(1 << 62)) for s in range(n)]
        self.bots = [None if seed is None else next(others).make(s, self.rules, random.Random(seed))
                     for s, seed in enumerate(self.bot_seeds)]
        if deal_seed is None:
            deal_seed = int(rng.integers(1 << 62))
        if self.session_mode:
            self.session = Session(self.rules, deal_seed)
            state = self.session.start_deal()
        else:
            self.session = None
            if dealer is None:
                dealer = int(rng.integers(n))
            state = State.deal(self.rules, deal_seed, dealer=dealer)
        self.deal = Deal(state)
        reward, over = self._play_bots()
        while over:  # the deal ended before the learner had a choice: deal again
            state = State.deal(self.rules, int(rng.integers(1 << 62)), dealer=int(rng.integers(n)))
            self.deal = Deal(state)
            reward, over = self._play_bots()
        if self.render_mode == "human":
            self.render()
        return self._observation(), self._info()

    def step(self, action: int) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        """Play the learner's action ID, then the bots up to its next decision."""
        deal = self.deal
        if deal is None:
            raise RuntimeError("call reset() before step()")
        if self._ended:
            raise RuntimeError("the episode is over: call reset()")
        chosen = as_action_id(action)  # (not an ID at all: the caller's mistake, not a move)
        if chosen not in deal.legal:
            self._ended = True
            info = self._info()
            info["illegal_action"] = True
            return self._observation(), self.illegal_reward, True, False, info
        deal.step(chosen)
        reward, over = self._play_bots()
        if self.render_mode == "human":
            self.render()
        return self._observation(), reward, over, False, self._info()

    def _play_bots(self) -> tuple[float, bool]:
        """Let the bots decide until the learner must (or the episode ends); the learner's
        reward meanwhile and whether the episode is over."""
        self._ended = False
        reward = 0.0
        while True:
            deal = self.deal
            assert deal is not None
            if deal.over:
                reward += deal_rewards(deal.state, self.zero_sum)[self.seat]
                if self.session is None:
                    self._ended = True
                    return reward, True
                self.session.end_deal(deal.state)
                if self.session.over:
                    self._ended = True
                    return reward, True
                self.deal = Deal(self.session.start_deal())
                continue
            if deal.seat == self.seat:
                return reward, False
            assert deal.seat is not None
            bot = self.bots[deal.seat]
            assert bot is not None
            state = deal.state
            if getattr(bot, "needs_state", False):
                bot.see(state)  # type: ignore[attr-defined]
            view = state.view(deal.seat)
            if deal.deciding == "claim":
                deal.play(bot.claim(view, deal.claims))
            else:
                deal.play(bot.act(view, state.turn_actions()))

    def _observation(self) -> Observation:
        deal = self.deal
        assert deal is not None
        deciding = deal.deciding if deal.seat == self.seat and not self._ended else "none"
        return observe(deal.state, self.seat, deciding, self.history)

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The learner's legal actions as a bool array (all False once the episode ended)."""
        deal = self.deal
        mask = np.zeros(NUM_ACTIONS, bool)
        if deal is not None and not self._ended and deal.seat == self.seat:
            mask[list(deal.legal)] = True
        return mask

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.action_masks().astype(np.int8), "seat": self.seat}

    def render(self) -> Any:
        """The table as a spectator sees it, and who decides: text (``ansi``; printed under
        ``human``), or under ``rgb_array`` a picture (:func:`lald.rl.adapters.text.render_rgb`)."""
        if self.render_mode == "rgb_array":
            if self.deal is None:
                return np.zeros(RGB_SHAPE, np.uint8)
            return render_rgb(self.deal, self.session)
        text = "no deal yet: call reset()" if self.deal is None else render_text(self.deal, self.session)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""


gym.register(id=ENV_ID, entry_point="lald.rl.adapters.gymnasium:SeatEnv")
