"""The bots the vectorized tables seat as opponents: ``greedy`` and ``heuristic``.

:class:`~lald.rl.vector.VectorSeatEnv` (``opponents="greedy"`` or ``"heuristic"``) plays
the other seats with the levels of :mod:`lald.bots.heuristic`, stepped inside the tables:
the compiled tables (``_vector.c``) choose in C what :class:`~lald.bots.heuristic.GreedyBot`
and :class:`~lald.bots.heuristic.HeuristicBot` choose, and the pure tables
(:mod:`lald.rl.vector.vecpy`) seat those very bots, as ``lald/Seat-v0`` does
(:func:`play_bot`).  ``tests/rl/vector/test_opponents.py`` holds the two to each other
move by move.

A bot draws (greedy among its best captures, the heuristic among equally scored moves)
from :class:`StreamRandom`: a :class:`random.Random` whose draws are the table's own
stream (:class:`~lald.core.rng.PortableRandom`), so that a seed names the opponents'
choices as it names the deals, and C draws them as Python does.

>>> from lald.core.rng import PortableRandom
>>> rng = StreamRandom(PortableRandom(7))
>>> rng.choice("abc") == "abc"[PortableRandom(7).below(3)]
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, TypeVar

from ...bots import Bot
from ...bots.heuristic import GreedyBot, HeuristicBot, HeuristicPolicy, SeatState
from ...bots.learned.encoding import PASS, action_id
from ...core import Rules
from ...core.codes import SHAPES, TRAIL, make_code
from ...core.rng import PortableRandom
from ..deal import Deal

if TYPE_CHECKING:
    from _typeshed import SupportsLenAndGetItem

T = TypeVar("T")

#: The levels the tables seat, by name.
LEVELS: dict[str, type[Bot]] = {"greedy": GreedyBot, "heuristic": HeuristicBot}


class StreamRandom(random.Random):
    """A :class:`random.Random` drawing from ``stream``: ``choice(seq)`` is
    ``seq[stream.below(len(seq))]``, ``random()`` the top 53 bits of a draw, and
    ``getrandbits(k)`` (so ``randrange``, ``shuffle``, ``sample``) the top ``k`` bits of
    one (k <= 64).  ``seed`` and the state functions are :class:`random.Random`'s and
    do not touch the stream."""

    def __init__(self, stream: PortableRandom) -> None:
        self.stream = stream
        super().__init__(0)

    def random(self) -> float:
        """A float in [0, 1) from one draw."""
        return (self.stream.next64() >> 11) * 2.0 ** -53

    def getrandbits(self, k: int) -> int:
        """``k`` random bits (0 <= k <= 64) from one draw."""
        if not 0 <= k <= 64:
            raise ValueError("getrandbits: 0 to 64 bits from one draw of the table's stream")
        return self.stream.next64() >> (64 - k) if k else 0

    def choice(self, seq: SupportsLenAndGetItem[T]) -> T:
        """An item of ``seq``, uniformly: ``seq[below(len(seq))]``."""
        if not len(seq):
            raise IndexError("cannot choose from an empty sequence")
        return seq[self.stream.below(len(seq))]


def seat_bots(level: str, rules: Rules, stream: PortableRandom) -> list[Bot]:
    """A bot of ``level`` for every seat, all drawing from ``stream``."""
    rng = StreamRandom(stream)
    return [LEVELS[level](seat, rules, rng) for seat in range(rules.players)]


def play_bot(bots: Sequence[Bot], deal: Deal) -> int:
    """The deciding seat's bot decides at ``deal`` (not over), as ``lald/Seat-v0`` plays
    its bots (the engine's action itself, any suits); the ID of its choice."""
    seat, state = deal.seat, deal.state
    assert seat is not None
    view = state.view(seat)
    table = state.table_mask
    if deal.deciding == "claim":
        claim = bots[seat].claim(view, deal.claims)
        deal.play(claim)
        return PASS if claim is None else action_id(claim, table)
    action = bots[seat].act(view, state.turn_actions())
    deal.play(action)
    return action_id(action, table)


def heuristic_scores(rules: Rules) -> list[float]:
    """The heuristic level's turn scores as the compiled tables read them: per capture kind,
    the seat's cards of the rank (0-4), the table's (0-4) and the cards of it the seat
    cannot place (0-4), the score :meth:`~lald.bots.heuristic.HeuristicPolicy.turn_scores`
    gives that capture; then a trail's, by the last.
    Under the level's habits they read nothing else (checked here)."""
    policy = HeuristicBot(0, rules, random.Random(0)).policy
    if policy.keep_sets or policy.survivor_hold or policy.last_capture_play:
        raise ValueError("the compiled heuristic plays the level's habits, which score a move "
                         "by its rank's counts alone")
    out: list[float] = []
    for kind in range(len(SHAPES)):
        for h in range(5):
            for t in range(5):
                out.extend(_score(policy, make_code(kind, 0, 0), h, t, unknown) for unknown in range(5))
    out.extend(_score(policy, make_code(TRAIL, 0, 0), 1, 0, unknown) for unknown in range(5))
    return out


def _score(policy: HeuristicPolicy, code: int, h: int, t: int, unknown: int) -> float:
    """The policy's score of ``code`` (rank 0) for a seat holding ``h`` cards of the rank
    with ``t`` on the table and ``unknown`` it cannot place."""
    probe = SeatState.__new__(SeatState)  # one seat's reading, rank 0 alone
    probe.to_move, probe.foreplay, probe.holding = 0, False, 2
    probe.hc = [[h] + [0] * 12, [0] * 13]
    probe.tc = [t] + [0] * 12
    probe.hs = [max(h, 1), 1]
    probe.hp = [int(h > 0), 0]
    probe.tp = int(t > 0)
    return policy.turn_scores(probe, [code], [unknown] + [0] * 12)[0]
