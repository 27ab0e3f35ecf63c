"""The moves that exist for given cards of one rank, made once and looked up.

The engine works on 52-bit card sets where rank ``r`` is the nibble at bit ``4r``; these
tables and bit helpers answer "which captures and claims do these nibbles allow" without
building objects per move.

>>> [str(c) for c in captures_of(1, 11, 0b0001, 0b1110, SingleTakesThree.CHOICE, True, True)]
['1: QS x QH', '1: QS x QD', '1: QS x QC', '1: QS x QH QD QC']
>>> bin(nonzero(0xF0F))
'0b100000001'
"""

from __future__ import annotations

from functools import cache
from itertools import combinations

from ..actions import Capture, Claim
from ..cards import CARDS, NUM_RANKS, RANK_PLURALS, Card
from ..rules import LAYOUTS, SingleTakesThree


@cache
def nibble_cards(rank: int, nibble: int) -> tuple[Card, ...]:
    return tuple(CARDS[4 * rank + i] for i in range(4) if nibble >> i & 1)


def captures_of(
    seat: int, rank: int, h: int, t: int, sweep: SingleTakesThree, pairs: bool, prials: bool
) -> tuple[Capture, ...]:
    """Every capture of ``rank`` with hand nibble ``h`` and table nibble ``t``."""
    hand, table = nibble_cards(rank, h), nibble_cards(rank, t)
    out: list[Capture] = []
    if not (len(table) == 3 and sweep is SingleTakesThree.FORCED):
        out += [Capture(seat, (x,), (y,)) for x in hand for y in table]
    if len(table) == 3 and sweep is not SingleTakesThree.OFF:
        out += [Capture(seat, (x,), table) for x in hand]
    if pairs and len(hand) >= 2 and len(table) >= 2:
        out += [Capture(seat, p, q) for p in combinations(hand, 2) for q in combinations(table, 2)]
    if prials and len(hand) >= 3:
        out += [Capture(seat, p, (y,)) for p in combinations(hand, 3) for y in table]
    return tuple(out)


def _claim_set(seat: int, rank: int, nibble: int) -> tuple[Claim, ...]:
    """The claims of the cards ``nibble`` of ``rank``: two of a prial (three ways), else all."""
    cards = nibble_cards(rank, nibble)
    if len(cards) == 3:
        return tuple(Claim(seat, p) for p in combinations(cards, 2))
    return (Claim(seat, cards),)


#: ``CLAIMS[seat][4 * rank + nibble]``: the claims of those cards, made once.
CLAIMS = [[_claim_set(seat, i >> 4, i & 15) if i & 15 else () for i in range(16 * NUM_RANKS)]
           for seat in range(max(LAYOUTS))]


def claims_of(seat: int, rank: int, nibble: int) -> tuple[Claim, ...]:
    return CLAIMS[seat][rank << 4 | nibble]


ONES = int("1" * NUM_RANKS, 16)  # bit 0 of every rank's nibble


def nonzero(m: int) -> int:
    """Bit 4r set where rank r's nibble of ``m`` is not empty."""
    m |= m >> 1
    m |= m >> 2
    return m & ONES


def at_least_three(m: int) -> int:
    """Bit 4r set where rank r's nibble of ``m`` holds three or four cards."""
    c = m - ((m >> 1) & (ONES * 5))
    c = (c & (ONES * 3)) + ((c >> 2) & (ONES * 3))
    return ((c >> 2) | (c >> 1 & c)) & ONES


def rank_plural(rank: int) -> str:
    return RANK_PLURALS[rank]


#: Captures by (seat, rank, hand nibble, table nibble), one table per capture options; and
#: for each capture in it, by ``id``: its card sets and the nibbles that make it legal (the
#: table keeps those objects alive, so their ids stay theirs).
CaptureInfo = tuple[int, int, int, int, int]
CAPTURE_TABLES: dict[tuple[SingleTakesThree, bool, bool],
                      tuple[dict[int, tuple[Capture, ...]], dict[int, CaptureInfo]]] = {}
