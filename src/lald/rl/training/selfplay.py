"""Self-play actors for deep Monte-Carlo: whole deals played by the network, every
decision recorded with the deal's final chips as its target.

An actor plays deals with the current :class:`~lald.bots.learned.network.QNetwork` (numpy; actors
never import PyTorch) in every seat, epsilon-greedy: with probability ``epsilon`` a
uniformly random legal ID, else the ID of highest value. A seat may instead be played by
the heuristic (``heuristic_share``, the chance per seat and deal), which is how training
starts from the heuristic's habits: a network fitted to the returns of the heuristic's
own play values each action by what follows it under that play, and playing the best of
those values improves on it. Every decision with more than one legal ID is recorded, by
whoever made it, as (state features, action features, seat); when the deal ends each
record gets its seat's chips.

The environment is swappable: an actor asks an :class:`Env` for the deciding seat, its
legal IDs, its observation and the heuristic's choice, and steps it by ID.
:class:`DealEnv` is the engine's claim window (:class:`lald.rl.deal.Deal`) with the fast
observation encoder; a vectorized environment can stand in for it.

Everything an actor does is named by its seed: the same weights and seed give the same
records, whichever process plays them (this is what makes training resume to the same
result).
"""

from __future__ import annotations

import hashlib
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np
import numpy.typing as npt

from ...bots import Bot, make_bot
from ...bots.expert import PASS as SEARCH_PASS
from ...bots.expert import ExpertBot, Player
from ...bots.knowledge import read
from ...bots.learned.encoding import PASS, Observation, action_id, observe
from ...bots.learned.network import ACTION_SIZE, STATE_SIZE, Array, QNetwork, action_features, state_features
from ...core import Rules, State
from ...core.codes import code_of
from ...core.fast import FastState
from ..deal import Deal


class Env(Protocol):
    """What an actor needs of a deal: the deciding seat, its legal IDs, its observation,
    the heuristic's choice, a step by ID, and the chips at the end."""

    @property
    def seat(self) -> int | None:
        """The seat to decide (None once the deal is over)."""

    def reset(self, rules: Rules, seed: int, dealer: int) -> None:
        """Deal the cards of ``seed`` with ``dealer`` dealing."""

    def legal(self) -> list[int]:
        """The deciding seat's legal IDs, in increasing order."""

    def observe(self) -> Observation:
        """The deciding seat's observation."""

    def heuristic(self) -> int:
        """The ID the heuristic would choose for the deciding seat."""

    def step(self, aid: int) -> None:
        """Play ``aid`` for the deciding seat."""

    def rollout_values(self, ids: Sequence[int]) -> list[float]:
        """The deciding seat's chips if it plays each of ``ids`` and the heuristic plays
        every seat from there to the end of this deal (the true one, every hand known)."""

    def world_values(self, ids: Sequence[int], worlds: int, seed: int) -> list[float]:
        """The deciding seat's mean chips if it plays each of ``ids``, over ``worlds``
        layouts of the hidden cards drawn from what the seat has seen (``seed`` names the
        draw), the heuristic playing every seat on from there in each: what a
        determinized search estimates, and nothing of the true deal's hidden cards."""

    def chips(self) -> Sequence[int]:
        """Each seat's chips from the finished deal."""


class DealEnv:
    """The engine's deal with the claim window (:class:`lald.rl.deal.Deal`)."""

    def __init__(self) -> None:
        self.deal: Deal | None = None
        self.bots: list[Bot] = []
        self.player: Player | None = None
        self.player_rules: Rules | None = None
        self.searchers: dict[tuple[int, int], ExpertBot] = {}

    @property
    def seat(self) -> int | None:
        assert self.deal is not None
        return self.deal.seat

    def reset(self, rules: Rules, seed: int, dealer: int) -> None:
        self.deal = Deal(State.deal(rules, seed, dealer=dealer))
        if len(self.bots) != rules.players or self.bots[0].rules != rules:
            self.bots = [make_bot("heuristic", s, rules, random.Random(s)) for s in range(rules.players)]
        for s, bot in enumerate(self.bots):
            bot.rng.seed(seed * 7 + s)

    def legal(self) -> list[int]:
        assert self.deal is not None
        return sorted(self.deal.legal)

    def observe(self) -> Observation:
        deal = self.deal
        assert deal is not None and deal.seat is not None
        return observe(deal.state, deal.seat, deal.deciding)

    def heuristic(self) -> int:
        deal = self.deal
        assert deal is not None and deal.seat is not None
        state, bot = deal.state, self.bots[deal.seat]
        view = state.view(deal.seat)
        if deal.deciding == "claim":
            claim = bot.claim(view, deal.claims)
            return PASS if claim is None else action_id(claim, state.table_mask)
        return action_id(bot.act(view, state.turn_actions()), state.table_mask)

    def step(self, aid: int) -> None:
        assert self.deal is not None
        self.deal.step(aid)

    def rollout_values(self, ids: Sequence[int]) -> list[float]:
        deal = self.deal
        assert deal is not None and deal.seat is not None
        if self.player is None or self.player_rules != deal.state.rules:
            self.player, self.player_rules = Player(deal.state.rules, solve_cards=0), deal.state.rules
        seat, table = deal.seat, deal.state.table_mask
        world = FastState.from_state(deal.state)
        out = []
        for aid in ids:
            fs = world.copy()
            action = deal.legal[aid]
            if action is None:  # pass: the rest of the window may claim, then the turn
                out.append(self.player.finish(fs, seat, passed=seat))
            else:
                fs.apply(code_of(action, table))
                out.append(self.player.finish(fs, seat))
        return out

    def world_values(self, ids: Sequence[int], worlds: int, seed: int) -> list[float]:
        deal = self.deal
        assert deal is not None and deal.seat is not None
        state, seat = deal.state, deal.seat
        if not self.searchers or next(iter(self.searchers.values())).rules != state.rules:
            self.searchers = {}
        searcher = self.searchers.get((seat, worlds))
        if searcher is None:
            # the expert's draw (its opponent model, every world once few are left) and its
            # roll-outs, cut by the number of worlds only (no clock: the values are named by
            # the seed alone), without exact end positions
            searcher = ExpertBot(seat, state.rules, random.Random(0), worlds=worlds, time_limit=1e9, solve=0)
            self.searchers[seat, worlds] = searcher
        searcher.rng.seed(seed)
        table = state.table_mask
        actions = [deal.legal[aid] for aid in ids]
        codes = [SEARCH_PASS if a is None else code_of(a, table) for a in actions]
        return searcher.evaluate(read(state.view(seat)), codes, deal.deciding == "turn")

    def chips(self) -> Sequence[int]:
        assert self.deal is not None and self.deal.state.result is not None
        return self.deal.state.result.chips


def derive_seed(*parts: object) -> int:
    """A 63-bit seed named by ``parts`` (the training seed, the round, the actor, ...)."""
    text = "/".join(str(p) for p in parts)
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big") >> 1


@dataclass
class Batch:
    """The records of some deals: state features, action features and target per
    decision, and what playing them cost."""

    states: Array
    actions: Array
    targets: Array
    deals: int = 0
    steps: int = 0
    seconds: dict[str, float] = field(default_factory=dict)

    @classmethod
    def join(cls, parts: Sequence[Batch]) -> Batch:
        """The records of ``parts`` one after another."""
        seconds: dict[str, float] = {}
        for p in parts:
            for k, v in p.seconds.items():
                seconds[k] = seconds.get(k, 0.0) + v
        return cls(np.concatenate([p.states for p in parts]), np.concatenate([p.actions for p in parts]),
                   np.concatenate([p.targets for p in parts]), sum(p.deals for p in parts),
                   sum(p.steps for p in parts), seconds)


@dataclass(frozen=True)
class ActorTask:
    """One actor's share of a round: the rules, the deals' seed, how many, and how to play."""

    rules: Rules
    seed: int
    deals: int
    epsilon: float
    heuristic_share: float
    targets: str = "return"
    """``return``: each record's target is the deal's chips for its seat (DouZero's
    deep Monte-Carlo); ``rollout``: every legal action of a decision is recorded, each with
    the chips of the heuristic's play-out after it in the true deal (:meth:`Env.rollout_values`);
    ``advantage``: the same less their mean over the decision's legal actions, so the network
    learns only how much better each action is than the others; ``worlds``: every legal
    action valued by its mean over ``worlds`` hidden layouts drawn from what the seat has
    seen (:meth:`Env.world_values`), less the decision's mean: targets that never see the
    true deal's hidden cards."""
    worlds: int = 32
    """The hidden layouts each decision's ``worlds`` targets are averaged over."""


def play(task: ActorTask, network: QNetwork, env: Env | None = None) -> Batch:
    """Play ``task.deals`` deals and return their records (see the module's text)."""
    env = env if env is not None else DealEnv()
    rng = random.Random(task.seed)
    n = task.rules.players
    states: list[Array] = []
    actions: list[Array] = []
    seats: list[int] = []
    targets: list[float] = []
    steps = 0
    t_net = t_heur = t_feat = t_roll = 0.0
    rollout = task.targets in ("rollout", "advantage", "worlds")
    centred = task.targets in ("advantage", "worlds")
    start = time.perf_counter()
    for _ in range(task.deals):
        env.reset(task.rules, rng.getrandbits(63), rng.randrange(n))
        by_heuristic = [rng.random() < task.heuristic_share for _ in range(n)]
        first = len(seats)
        while (seat := env.seat) is not None:
            ids = env.legal()
            steps += 1
            if len(ids) == 1:
                env.step(ids[0])
                continue
            t0 = time.perf_counter()
            state = state_features(env.observe())
            t_feat += time.perf_counter() - t0
            if rng.random() < task.epsilon:
                aid = ids[rng.randrange(len(ids))]
            elif by_heuristic[seat]:
                t0 = time.perf_counter()
                aid = env.heuristic()
                t_heur += time.perf_counter() - t0
            else:
                t0 = time.perf_counter()
                aid = ids[int(np.argmax(network.values(state, ids)))]
                t_net += time.perf_counter() - t0
            t0 = time.perf_counter()
            if rollout:
                states.extend([state] * len(ids))
                actions.extend(action_features(state, ids))
                t_feat += time.perf_counter() - t0
                t0 = time.perf_counter()
                if task.targets == "worlds":
                    values = env.world_values(ids, task.worlds, rng.getrandbits(63))
                else:
                    values = env.rollout_values(ids)
                if centred:  # the advantage of each action over the decision's mean
                    mean = sum(values) / len(values)
                    values = [v - mean for v in values]
                targets.extend(values)
                t_roll += time.perf_counter() - t0
            else:
                states.append(state)
                actions.append(action_features(state, [aid])[0])
                t_feat += time.perf_counter() - t0
                seats.append(seat)
            env.step(aid)
        if not rollout:
            chips = env.chips()
            targets.extend(float(chips[s]) for s in seats[first:])
    total = time.perf_counter() - start
    empty_s, empty_a = np.zeros((0, STATE_SIZE), np.float32), np.zeros((0, ACTION_SIZE), np.float32)
    return Batch(np.array(states, np.float32) if states else empty_s,
                 np.array(actions, np.float32) if actions else empty_a,
                 np.array(targets, np.float32), task.deals, steps,
                 {"network": t_net, "heuristic": t_heur, "features": t_feat, "rollouts": t_roll,
                  "total": total})


EnvFactory = Callable[[], Env]


def worker(tasks: object, results: object, env_factory: EnvFactory | None = None) -> None:
    """An actor process: take (weights, task) pairs from ``tasks``, put each batch on
    ``results``, stop at None. (Queues of :mod:`multiprocessing`.)"""
    env = env_factory() if env_factory is not None else DealEnv()
    while True:
        item = tasks.get()  # type: ignore[attr-defined]
        if item is None:
            return
        index, layers, task = item
        results.put((index, play(task, QNetwork(layers), env)))  # type: ignore[attr-defined]


Layers = list[tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]]

__all__ = ["ActorTask", "Batch", "DealEnv", "Env", "Layers", "derive_seed", "play", "worker"]
