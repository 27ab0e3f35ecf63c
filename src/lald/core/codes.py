"""Moves as small integers: the fast path's move *codes*, and their translation to and from
the engine's actions.

A code is ``kind | rank << 3 | seat << 7``, with the kinds :data:`SINGLE`, :data:`SWEEP`,
:data:`PAIR`, :data:`PRIAL`, :data:`LIE`, :data:`TRAIL`, :data:`HAND_CLAIM` (a hand set or
a dead-rank claim from the hand: two cards of a prial, else all the hand's cards of that
rank) and :data:`TABLE_CLAIM` (a spotter claim). Suits never matter in play, so a code
names a move up to the choice of suits: :func:`code_of` forgets them, :func:`action_of`
takes the lowest. :class:`~lald.core.fast.state.FastState`, its play-outs
(:mod:`lald.core.fast.playout`) and the bots think in codes; the engine checks actions.

>>> from lald.core import Rules, State
>>> s = State.deal(Rules.make(), seed=1)
>>> a = s.turn_actions()[0]
>>> c = code_of(a, s.table_mask)
>>> KIND_NAMES[code_kind(c)], code_seat(c), action_of(c, s.hands[a.seat], s.table_mask) == a
('single', 1, True)
"""

from __future__ import annotations

from collections.abc import Sequence

from .actions import Action, Capture, Claim, LieDown, Trail
from .cards import CARDS, NIBBLE_COUNT, NUM_RANKS, Card

SINGLE, SWEEP, PAIR, PRIAL, LIE, TRAIL, HAND_CLAIM, TABLE_CLAIM = range(8)
KIND_NAMES = ("single", "sweep", "pair", "prial", "lie_down", "trail", "hand_claim", "table_claim")

#: Cards (played from the hand, taken from the table) of each capture kind.
SHAPES = ((1, 1), (1, 3), (2, 2), (3, 1))

#: ``RANKS_OF[mask]``: the ranks whose bits are set in a 13-bit mask, lowest first.
RANKS_OF: tuple[tuple[int, ...], ...] = tuple(
    tuple(r for r in range(NUM_RANKS) if m >> r & 1) for m in range(1 << NUM_RANKS))

ALL_RANKS = (1 << NUM_RANKS) - 1


def counts(mask: int) -> list[int]:
    """The 13 per-rank counts of a card mask.

    >>> counts(0b1011 | 1 << 48)
    [3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]
    """
    return [NIBBLE_COUNT[mask >> 4 * r & 15] for r in range(NUM_RANKS)]


def presence(cnt: Sequence[int]) -> int:
    """The 13-bit mask of the ranks a count list holds."""
    m = 0
    for r, c in enumerate(cnt):
        if c:
            m |= 1 << r
    return m


def make_code(kind: int, rank: int, seat: int) -> int:
    """The code of a move."""
    return kind | rank << 3 | seat << 7


def code_kind(code: int) -> int:
    """The kind of a move code."""
    return code & 7


def code_rank(code: int) -> int:
    """The rank of a move code (0 for lying down)."""
    return code >> 3 & 15


def code_seat(code: int) -> int:
    """The seat of a move code."""
    return code >> 7


# -- translation to and from the engine's actions ---------------------------------------

_KIND_OF_SHAPE = {shape: kind for kind, shape in enumerate(SHAPES)}


def code_of(action: Action, table_mask: int) -> int:
    """The code of an engine action; ``table_mask`` is the table before it (to tell a
    spotter claim from a claim from the hand)."""
    seat = action.seat
    if type(action) is Capture:
        kind = _KIND_OF_SHAPE[len(action.play), len(action.take)]
        return make_code(kind, action.take[0] >> 2, seat)
    if type(action) is Claim:
        card = action.cards[0]
        kind = TABLE_CLAIM if table_mask >> card & 1 else HAND_CLAIM
        return make_code(kind, card >> 2, seat)
    if type(action) is LieDown:
        return make_code(LIE, 0, seat)
    assert isinstance(action, Trail)
    return make_code(TRAIL, action.card >> 2, seat)


def _cards(mask: int, rank: int, k: int) -> tuple[Card, ...]:
    cards = [CARDS[4 * rank + i] for i in range(4) if mask >> (4 * rank + i) & 1]
    return tuple(cards[:k])


def action_of(code: int, hand_mask: int, table_mask: int) -> Action:
    """An engine action for ``code``: the lowest suits of the seat's hand ``hand_mask``
    and of ``table_mask`` (every choice of suits is the same move in play)."""
    kind, rank, seat = code & 7, code >> 3 & 15, code >> 7
    if kind < LIE:
        play, take = SHAPES[kind]
        return Capture(seat, _cards(hand_mask, rank, play), _cards(table_mask, rank, take))
    if kind == LIE:
        return LieDown(seat)
    if kind == TRAIL:
        return Trail(seat, _cards(hand_mask, rank, 1)[0])
    if kind == HAND_CLAIM:
        held = _cards(hand_mask, rank, 4)
        return Claim(seat, held[:2] if len(held) == 3 else held)
    return Claim(seat, _cards(table_mask, rank, 4))


def choose_action(code: int, legal: Sequence[Action], table_mask: int) -> Action:
    """The first of ``legal`` whose code is ``code`` (what a bot that thinks in codes
    hands back to the engine)."""
    for action in legal:
        if code_of(action, table_mask) == code:
            return action
    raise ValueError(f"no legal action has code {code}")


__all__ = [
    "ALL_RANKS", "HAND_CLAIM", "KIND_NAMES", "LIE", "PAIR", "PRIAL", "RANKS_OF", "SHAPES", "SINGLE",
    "SWEEP", "TABLE_CLAIM", "TRAIL", "action_of", "choose_action", "code_kind", "code_of", "code_rank",
    "code_seat", "counts", "make_code", "presence",
]
