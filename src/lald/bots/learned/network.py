"""The ``learned`` level: an action-value network trained by self-play, played with numpy.

``lald train`` (:mod:`lald.rl.training.train`, PyTorch) fits a network that scores a seat's
observation and one candidate action by the chips the seat can expect from the deal if it
takes that action (deep Monte-Carlo, as DouZero does: the targets are whole-deal
returns). This module is the network's other half, the one players need: it reads the
weights from a ``.npz`` file and computes the same numbers with numpy alone, so the
terminal and the web table play the level without PyTorch.

The network's input is the 451-number observation of :mod:`lald.bots.learned.encoding` with a few
counts derived from it (:func:`state_features`), and the candidate action as its ID
one-hot with its kind and the counts of its rank (:func:`action_features`). Three hidden
layers with ReLU, one output: the action's value. The level plays the legal ID of highest
value (turns and claim windows alike; ``pass`` is an action like the others).

>>> import random
>>> from lald.core import Rules, State
>>> from lald.play.loop import play_deal
>>> from lald.bots import make_bot
>>> rules = Rules.make()
>>> bots = [LearnedBot(0, rules, random.Random(0))]
>>> bots += [make_bot("heuristic", s, rules, random.Random(s)) for s in range(1, 5)]
>>> play_deal(State.deal(rules, seed=5), bots).over
True
"""

from __future__ import annotations

import json
import os
import random
import threading
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from types import TracebackType
from typing import Any

import numpy as np
import numpy.typing as npt

from ...core import Action, Claim, PlayerView, Rules
from ...core.cards import NUM_CARDS, NUM_RANKS
from ...core.rules import PrizeRule
from .. import Bot
from .encoding import (
    LAYOUT,
    MAX_PLAYERS,
    NUM_ACTIONS,
    OBS_SIZE,
    PASS,
    Deciding,
    Observation,
    action_id,
    legal_ids,
    observe_view,
)

Array = npt.NDArray[np.float32]

#: Numbers :func:`state_features` adds to the observation: per rank, the seat's cards, the
#: table's, those seen going into won piles, and those it has not seen (each / 4).
EXTRA_SIZE = 4 * NUM_RANKS
STATE_SIZE = OBS_SIZE + EXTRA_SIZE
#: The candidate action: its ID one-hot, its kind one-hot (single, sweep, pair, prial,
#: trail, claim, lie down, pass), and its rank's four counts from :func:`state_features`.
KIND_COUNT = 8
ACTION_SIZE = NUM_ACTIONS + KIND_COUNT + 4
#: The version of the input layout; a weights file names the one it was trained on.
FEATURES_VERSION = 1

_HAND = LAYOUT["hand"].start
_TABLE = LAYOUT["table"].start
_WON = LAYOUT["won_seen"]


def _kind_of(aid: int) -> int:
    return min(aid // NUM_RANKS, 6) if aid < PASS - 1 else (6 if aid == PASS - 1 else 7)


#: Per action ID: (kind, rank or -1).
_ACTION_KIND = np.array([_kind_of(a) for a in range(NUM_ACTIONS)], np.int64)
_ACTION_RANK = np.array([a % NUM_RANKS if a < 6 * NUM_RANKS else -1 for a in range(NUM_ACTIONS)], np.int64)


def state_features(obs: Observation) -> Array:
    """One observation (or a batch, rows) with its per-rank counts appended: the
    network's state input, ``STATE_SIZE`` numbers."""
    obs = np.asarray(obs, np.float32)
    lead = obs.shape[:-1]
    hand = obs[..., _HAND:_HAND + NUM_CARDS].reshape(*lead, NUM_RANKS, 4).sum(-1)
    table = obs[..., _TABLE:_TABLE + NUM_CARDS].reshape(*lead, NUM_RANKS, 4).sum(-1)
    won = obs[..., _WON].reshape(*lead, MAX_PLAYERS, NUM_RANKS, 4).sum((-1, -3))
    unseen = 4.0 - hand - table - won
    extra = np.concatenate([hand, table, won, unseen], -1) / 4.0
    return np.concatenate([obs, extra.astype(np.float32)], -1)


def action_features(state: Array, ids: Sequence[int] | npt.NDArray[np.int64]) -> Array:
    """The candidate actions ``ids`` of one state (``state_features`` of its observation)
    as rows of ``ACTION_SIZE`` numbers."""
    ids = np.asarray(ids, np.int64)
    out = np.zeros((len(ids), ACTION_SIZE), np.float32)
    rows = np.arange(len(ids))
    out[rows, ids] = 1.0
    out[rows, NUM_ACTIONS + _ACTION_KIND[ids]] = 1.0
    ranks = _ACTION_RANK[ids]
    ranked = ranks >= 0
    counts = state[OBS_SIZE:].reshape(4, NUM_RANKS)  # hand, table, won, unseen per rank
    out[ranked, NUM_ACTIONS + KIND_COUNT:] = counts[:, ranks[ranked]].T
    return out


class QNetwork:
    """The action-value network in numpy: ``values(state, ids)`` gives each candidate's
    expected chips. ``layers`` are (weight, bias) pairs, weights as (inputs, outputs); the
    first layer's weight has ``STATE_SIZE + ACTION_SIZE`` rows, the state's first."""

    def __init__(self, layers: Sequence[tuple[Array, Array]], meta: dict[str, Any] | None = None) -> None:
        if not layers or layers[0][0].shape[0] != STATE_SIZE + ACTION_SIZE or layers[-1][0].shape[1] != 1:
            raise ValueError("these weights are not an action-value network of lald's observation")
        self.layers = [(np.ascontiguousarray(w, np.float32), np.ascontiguousarray(b, np.float32))
                       for w, b in layers]
        first = self.layers[0][0]
        self._w_state, self._w_action = first[:STATE_SIZE], first[STATE_SIZE:]
        self.meta: dict[str, Any] = meta or {}

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> QNetwork:
        """The network saved in ``path`` (``.npz``, arrays ``w0, b0, w1, b1, ...`` and
        ``meta``, a JSON string); a ValueError in words if it cannot be read."""
        try:
            with np.load(path, allow_pickle=False) as data:
                count = sum(1 for k in data.files if k.startswith("w"))
                layers = [(data[f"w{i}"], data[f"b{i}"]) for i in range(count)]
                meta = json.loads(str(data["meta"])) if "meta" in data.files else {}
        except (OSError, KeyError, ValueError) as e:
            raise ValueError(f"cannot read the weights file {path}: {e}") from None
        if meta.get("features", FEATURES_VERSION) != FEATURES_VERSION:
            raise ValueError(f"the weights file {path} was made for another input layout "
                             f"(version {meta.get('features')}, this lald reads {FEATURES_VERSION})")
        return cls(layers, meta)

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the network as ``.npz`` (float32 arrays and the JSON ``meta``)."""
        arrays: dict[str, Any] = {}
        for i, (w, b) in enumerate(self.layers):
            arrays[f"w{i}"], arrays[f"b{i}"] = w, b
        arrays["meta"] = np.array(json.dumps({**self.meta, "features": FEATURES_VERSION}))
        np.savez_compressed(path, **arrays)

    def values(self, state: Array, ids: Sequence[int] | npt.NDArray[np.int64]) -> Array:
        """The value of each of ``ids`` in ``state`` (``state_features`` of one
        observation)."""
        ids = np.asarray(ids, np.int64)
        acts = action_features(state, ids)
        h = (state @ self._w_state)[None, :] + acts @ self._w_action + self.layers[0][1]
        np.maximum(h, 0.0, out=h)
        for w, b in self.layers[1:-1]:
            h = h @ w + b
            np.maximum(h, 0.0, out=h)
        w, b = self.layers[-1]
        out: Array = (h @ w + b)[:, 0]
        return out

    def best(self, obs: Observation, ids: Sequence[int]) -> int:
        """The ID of highest value among ``ids`` (the first of equals)."""
        ids = list(ids)
        if len(ids) == 1:
            return ids[0]
        return ids[int(np.argmax(self.values(state_features(obs), ids)))]


#: The shipped networks, one per preset (5 players), beside this module.
WEIGHTS_DIR = Path(__file__).with_name("weights")


def shipped_file(rules: Rules) -> Path:
    """The shipped weights for ``rules``: the preset's (survivor or last-capture), trained
    at five players; the prize to the last card plays on the last capture's, its nearest."""
    preset = "survivor" if rules.prize_rule is PrizeRule.SURVIVOR else "last-capture"
    return WEIGHTS_DIR / f"{preset}-5.npz"


@cache
def _load(path: str, mtime: float) -> QNetwork:
    return QNetwork.load(path)


def load_network(path: str | os.PathLike[str]) -> QNetwork:
    """The network in ``path``, read once per version of the file."""
    file = Path(path).expanduser()
    try:
        mtime = file.stat().st_mtime
    except OSError as e:
        raise ValueError(f"cannot read the weights file {path}: {e.strerror}") from None
    return _load(str(file.resolve()), mtime)


class _OneBlasThread:
    """The context of a decision: numpy's BLAS on one thread.  A forward pass is a few small
    matrix products, which BLAS's threads slow down (issue 35: the shipped level took 1.79 ms
    a decision on average and 28 ms at the 99th percentile with OpenBLAS's default threads,
    0.28 and 1.9 ms on one).  The setting is the process's, so decisions in several threads
    share it: the first in sets it, the last out restores the caller's.  Without
    threadpoolctl installed it does nothing."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._depth = 0
        self._libs: list[Any] | None = None
        self._saved: list[int] = []

    def __enter__(self) -> None:
        with self._lock:
            if self._depth == 0:
                if self._libs is None:
                    try:
                        from threadpoolctl import ThreadpoolController  # type: ignore[import-untyped]
                    except ImportError:
                        self._libs = []
                    else:
                        self._libs = list(ThreadpoolController().select(user_api="blas").lib_controllers)
                self._saved = [lib.num_threads for lib in self._libs]
                for lib, n in zip(self._libs, self._saved, strict=True):
                    if n != 1:
                        lib.set_num_threads(1)
            self._depth += 1

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        with self._lock:
            self._depth -= 1
            if self._depth == 0 and self._libs:
                for lib, n in zip(self._libs, self._saved, strict=True):
                    if n != 1:
                        lib.set_num_threads(n)


#: ``with one_blas_thread:`` around a decision that runs the network (LearnedBot, GuidedBot).
one_blas_thread = _OneBlasThread()


class LearnedBot(Bot):
    """Plays the legal action of highest learned value (``file=PATH`` for other weights
    than the shipped ones of the preset). With ``margin=CHIPS`` it plays the heuristic's
    choice unless another action's value is more than ``margin`` above that choice's
    (the learned values as a correction of the heuristic, not a replacement)."""

    name = "learned"
    version = "1"

    def __init__(self, seat: int, rules: Rules, rng: random.Random, file: str | None = None,
                 network: QNetwork | None = None, margin: str | float | None = None) -> None:
        super().__init__(seat, rules, rng)
        self.network = network if network is not None else load_network(file or shipped_file(rules))
        self.margin: float | None = None
        self.heuristic: Bot | None = None
        if margin is not None:
            try:
                self.margin = float(margin)
            except ValueError:
                raise ValueError(f"learned: margin={margin!r} is not a number of chips") from None
            from ..heuristic import HeuristicBot

            self.heuristic = HeuristicBot(seat, rules, rng)

    def _choose(self, view: PlayerView, deciding: Deciding, ids: dict[int, Any],
                heuristic: int | None = None) -> Any:
        if len(ids) == 1:
            return next(iter(ids.values()))
        keys = list(ids)
        values = self.network.values(state_features(observe_view(view, deciding)), keys)
        best = int(np.argmax(values))
        if heuristic is not None and self.margin is not None and heuristic in ids:
            if values[best] - values[keys.index(heuristic)] <= self.margin:
                return ids[heuristic]
        return ids[keys[best]]

    def _heuristic_id(self, view: PlayerView, legal: Sequence[Any], deciding: Deciding) -> int | None:
        if self.heuristic is None:
            return None
        table = sum(1 << c for c in view.table)
        if deciding == "turn":
            return action_id(self.heuristic.act(view, legal), table)
        choice = self.heuristic.claim(view, legal)
        return PASS if choice is None else action_id(choice, table)

    def act(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        """The turn action of highest value."""
        table = sum(1 << c for c in view.table)
        ids = legal_ids(list(legal), table)
        heuristic = self._heuristic_id(view, legal, "turn") if len(ids) > 1 else None
        with one_blas_thread:
            action: Action = self._choose(view, "turn", ids, heuristic)
        return action

    def claim(self, view: PlayerView, claims: Sequence[Claim]) -> Claim | None:
        """A claim of highest value, or None when passing is worth more."""
        table = sum(1 << c for c in view.table)
        ids: dict[int, Action | None] = dict(legal_ids(list(claims), table))
        ids[PASS] = None
        heuristic = self._heuristic_id(view, claims, "claim")
        with one_blas_thread:
            choice = self._choose(view, "claim", ids, heuristic)
        assert choice is None or isinstance(choice, Claim)
        return choice


__all__ = ["ACTION_SIZE", "LearnedBot", "QNetwork", "STATE_SIZE", "WEIGHTS_DIR", "action_features",
           "load_network", "one_blas_thread", "shipped_file", "state_features"]
