"""Which tables play: the compiled ``_vector.Tables`` (C, ``_vector.c``), checked at load
against the project's generators, or the pure :class:`~lald.rl.vector.vecpy.PyTables`
where they are not built, fail that check, or ``LALD_KERNEL=python`` asks for them; and
the compiled tables' arguments, every rule read from the engine."""

from __future__ import annotations

import os
from typing import Any, Protocol

import numpy as np

from ...bots.learned.encoding import CHIP_LIMIT, CHIP_SCALE, LAYOUT, observation_size, rules_features
from ...core import Rules
from ...core.codes import SHAPES
from ...core.engine.moves import captures_of
from ...core.rng import KeyedRandom, PortableRandom
from ...core.rules import (
    DeadClaims,
    HandSetTiming,
    NoCapture,
    PotRule,
    PrizeRule,
    Rounding,
    RulesError,
    Scoring,
)
from .opponents import heuristic_scores
from .vecpy import AUTO_NEXT, OPP_HEURISTIC, OPP_RANDOM, PyTables

#: XORed into a table's first deal seed to seed its own stream (the random opponents'
#: choices, a random learner seat, :meth:`VectorDeals.random_actions`), so that stream is
#: not the deal's shuffle.  With a secret the stream's seed is the first word of
#: ``KeyedRandom(secret, "stream", number)``.
STREAM_KEY = 0xD1B54A32D192ED03
MASK64 = (1 << 64) - 1


class Tables(Protocol):
    """What :mod:`lald.rl.vector` asks of its tables: the compiled ``_vector.Tables`` or
    :class:`~lald.rl.vector.vecpy.PyTables` (see them for each method)."""

    def reset(self, seeds: Any, dealers: Any, rng_seeds: Any, learners: Any, select: Any,
              stride: int, secret: bytes | None) -> None: ...
    def load(self, i: int, hands: list[int], table: int, dealer: int) -> None: ...
    def step_all(self, actions: Any, obs: Any, mask: Any, seats: Any, rewards: Any, done: Any,
                 illegal_reward: float | None, flags: Any) -> None: ...
    def step_seat(self, actions: Any, obs: Any, mask: Any, reward: Any, term: Any, illegal: Any,
                  final: Any, final_mask: Any, illegal_reward: float | None, finish: bool) -> None: ...
    def start_seat(self, obs: Any, mask: Any, select: Any) -> None: ...
    def waiting(self, obs: Any, mask: Any, index: Any, seats: Any) -> int: ...
    def answer(self, index: Any, actions: Any, final: Any, final_mask: Any) -> None: ...
    def finish(self, obs: Any, mask: Any, reward: Any, term: Any) -> None: ...
    def observe(self, seats: Any, obs: Any) -> None: ...
    def masks(self, mask: Any, seats: Any) -> None: ...
    def random_actions(self, out: Any) -> None: ...
    def deals(self, seeds: Any, dealers: Any, learners: Any) -> None: ...
    def get(self, i: int) -> dict[str, Any]: ...
    def weights(self, i: int) -> dict[int, int]: ...
    def bot_step(self, i: int) -> int: ...


_status: str | None = None
_compiled: Any = None


def _self_check(module: Any) -> bool:
    """Whether the compiled module deals and draws as :class:`PortableRandom` does."""
    for seed in (0, 1, 20260502, MASK64, 1 << 63):
        deck = list(range(52))
        PortableRandom(seed).shuffle(deck)
        if module.shuffle(seed) != deck:
            return False
        for secret in (bytes(range(16)), b"lald" * 40):
            deck = list(range(52))
            KeyedRandom(secret, "deal", seed).shuffle(deck)
            if module.shuffle(seed, secret) != deck:
                return False
        for bound in (1, 3, 5, 80, 1 << 40, MASK64):
            rng = PortableRandom(seed)
            if module.draws(seed, bound, 20) != [rng.below(bound) for _ in range(20)]:
                return False
    return True


def _load() -> None:
    global _status, _compiled
    _compiled = None
    if os.environ.get("LALD_KERNEL", "").strip().lower() == "python":
        _status = "python (LALD_KERNEL=python)"
        return
    try:
        from . import _vector
    except ImportError:
        _status = "python (the compiled tables are not built)"
        return
    try:
        ok = _self_check(_vector)
    except Exception as e:  # never fail: the pure tables play
        _status = f"python (self-check failed: {type(e).__name__})"
        return
    if not ok:
        _status = "python (self-check failed: deals or draws)"
        return
    _compiled = _vector
    _status = "compiled"


def backend_status() -> str:
    """Which tables play by default: ``"compiled"``, or ``"python (why)"``."""
    if _status is None:
        _load()
    assert _status is not None
    return _status


def _config(rules: Rules, history: int = 0) -> tuple[Any, ...]:
    """The compiled tables' arguments for ``rules`` after the mode: every rule read from
    the engine (the captures from its own move lists, ``lald.core.engine.moves.captures_of``)."""
    caps: list[int] = []
    weights: list[int] = []
    for h in range(5):
        for t in range(5):
            kinds, w = 0, [0, 0, 0, 0]
            for capture in captures_of(0, 0, (1 << h) - 1, (1 << t) - 1, rules.single_takes_three,
                                       rules.pair_on_pair, rules.prial_on_single):
                kind = SHAPES.index((len(capture.play), len(capture.take)))
                kinds |= 1 << kind
                w[kind] += 1
            caps.append(kinds)
            weights.extend(w)
    flags = [
        rules.players, rules.quota, rules.no_capture is NoCapture.LIE_DOWN, rules.hand_sets,
        rules.hand_set_timing is HandSetTiming.FOREPLAY_OR_OWN_TURN,
        rules.dead_claims is DeadClaims.ANY_TIME, rules.dead_claims is DeadClaims.OWN_TURN,
        rules.spotter_claims, rules.hand_sets_face_down, rules.table_mournival_to_dealer,
        rules.scoring is Scoring.CARD_COUNT, rules.prize_rule is PrizeRule.SURVIVOR, rules.prize,
        rules.ante_dealer, rules.ante_other, rules.rounding is Rounding.FLOOR,
    ]
    names = ("hand", "table", "won_seen", "hand_sizes", "won_sizes", "status", "present", "dealer",
             "to_move", "last_capture", "claims_first", "seat", "flags", "pot", "balances", "rules")
    layout = [observation_size(history)] + [LAYOUT[name].start for name in names]
    shapes = [x for shape in SHAPES for x in shape]
    block = np.array(rules_features(rules), np.float32)
    return ([int(f) for f in flags], layout, caps, weights, shapes, block, CHIP_SCALE, CHIP_LIMIT)


def make_tables(rules: Rules, count: int, mode: int, opponents: int = OPP_RANDOM,
                autoreset: int = AUTO_NEXT, random_seat: bool = False,
                backend: str | None = None, history: int = 0) -> tuple[Tables, str]:
    """``count`` tables of ``rules`` and the name of their kind: the compiled ones when
    they are loaded (``backend`` None) or asked for (``"compiled"``), else the pure ones
    (``"python"``); their observations show the latest ``history`` actions.  Rules the
    tables do not play yet are refused, compiled or pure, rather than played wrong;
    ``prials_face_up`` only the pure ones play (asked for the compiled ones, it is refused;
    left to the best loaded, the pure ones play it)."""
    if rules.prize_rule is PrizeRule.LAST_CARD:
        raise RulesError("prize_rule=last_card is not played by the vectorized tables yet: "
                         "play it on the engine (lald.rl.deal, the adapters)")
    if rules.pot_rule is PotRule.REAL:
        raise RulesError("pot_rule=real is not played by the vectorized tables yet: "
                         "play it on the engine (lald.rl.deal, the adapters)")
    if backend not in (None, "compiled", "python"):
        raise ValueError(f"unknown backend {backend!r}: choose compiled or python (or None: the best loaded)")
    status = backend_status()
    if backend == "compiled" and _compiled is None:
        raise ValueError(f"the compiled tables are not loaded: {status}")
    if backend == "compiled" and rules.prials_face_up:
        raise RulesError("prials_face_up is not played by the compiled tables yet: "
                         "the pure ones play it (backend='python', or None)")
    if backend != "python" and _compiled is not None and not rules.prials_face_up:
        scores = np.array(heuristic_scores(rules), np.float64) if opponents == OPP_HEURISTIC else None
        tables: Tables = _compiled.Tables(count, mode, opponents, autoreset, random_seat,
                                          *_config(rules, history), scores, history)
        return tables, "compiled"
    return PyTables(rules, count, mode, opponents, autoreset, random_seat, history), "python"
