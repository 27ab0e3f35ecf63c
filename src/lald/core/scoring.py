"""Settlement of a finished deal (docs/rules.md#7-settlement).

>>> from .rules import Rules
>>> r = settle(Rules.make(), won=(16, 12, 10, 8, 6), dealer=0, survivor=2,
...            last_capture=4, pot_before=0)
>>> r.pairs, r.chips, r.pot_after
((4, 2, 1, 0, -1), (1, 0, 4, -2, -3), 0)
"""

from __future__ import annotations

import dataclasses

from .rules import PotRule, PrizeRule, Rounding, Rules, Scoring


@dataclasses.dataclass(frozen=True, slots=True)
class DealResult:
    """What a finished deal gave each seat."""

    won: tuple[int, ...]
    """Won-pile sizes, the residue included."""
    survivor: int
    """The last seat that held cards."""
    last_capture: int | None
    """The seat of the last turn capture, if any."""
    prize_to: int | None
    """Who was paid the prize (None: nobody, or no chips are played for)."""
    pairs: tuple[int, ...] | None
    """Surplus pairs per seat, rounded (None under card-count scoring)."""
    antes: tuple[int, ...]
    """What each seat put in the pot before the deal."""
    chips: tuple[int, ...]
    """Each seat's change for the deal, antes included."""
    pot_before: int
    """The pot carried in, before the antes."""
    pot_after: int
    """The pot after settlement; it carries into the next deal."""
    winners: tuple[int, ...]
    """The seats with the most won cards (the deal's winners under card-count scoring)."""
    prize_paid: int = 0
    """The chips of the prize paid (less than the prize when a real pot ran short)."""
    taken: tuple[int, ...] = ()
    """What each seat took from the pot for its pairs above the quota (less than its pairs
    when a real pot ran short); empty under card-count scoring."""


def round_pairs(surplus: int, rounding: Rounding) -> int:
    """Half of ``surplus`` cards, rounded per ``rounding``.

    >>> [round_pairs(d, Rounding.TOWARD_ZERO) for d in (-3, -1, 1, 3)]
    [-1, 0, 0, 1]
    >>> [round_pairs(d, Rounding.FLOOR) for d in (-3, -1, 1, 3)]
    [-2, -1, 0, 1]
    """
    if rounding is Rounding.FLOOR or surplus >= 0:
        return surplus // 2
    return -((-surplus) // 2)


def settle(
    rules: Rules,
    won: tuple[int, ...],
    dealer: int,
    survivor: int,
    last_capture: int | None,
    pot_before: int,
    last_take: int | None = None,
) -> DealResult:
    """Settle a deal: pay-ins, then the prize, then pay-outs; the pot may go negative.

    ``last_take`` is the seat that last took cards by a capture or a claim, which the prize
    rule ``last_card`` pays (docs/rules.md#6-the-end-of-a-deal)."""
    n = rules.players
    best = max(won)
    winners = tuple(s for s in range(n) if won[s] == best)
    if rules.scoring is Scoring.CARD_COUNT:
        zeros = (0,) * n
        return DealResult(won, survivor, last_capture, None, None, zeros, zeros,
                          pot_before, pot_before, winners)
    antes = tuple(rules.ante_dealer if s == dealer else rules.ante_other for s in range(n))
    pairs = tuple(round_pairs(w - rules.quota, rules.rounding) for w in won)
    prize_to = {PrizeRule.SURVIVOR: survivor, PrizeRule.LAST_CAPTURE: last_capture,
                PrizeRule.LAST_CARD: last_take}[rules.prize_rule]
    prize = rules.prize if prize_to is not None else 0
    if rules.pot_rule is PotRule.REAL:
        # the English text's order: the prize, the shortfalls, then the surpluses from the
        # eldest round, each only while the pot holds chips (docs/rules.md#7-settlement)
        pot = pot_before + sum(antes)
        prize = min(prize, max(pot, 0))
        pot += -prize - sum(p for p in pairs if p < 0)
        paid = [0] * n
        for s in (seat % n for seat in range(dealer + 1, dealer + 1 + n)):
            if pairs[s] > 0:
                paid[s] = min(pairs[s], max(pot, 0))
                pot -= paid[s]
        taken = tuple(paid)
    else:
        taken = tuple(max(p, 0) for p in pairs)
    chips = tuple(
        min(pairs[s], 0) + taken[s] - antes[s] + (prize if s == prize_to else 0) for s in range(n)
    )
    pot_after = pot_before - sum(chips)
    return DealResult(won, survivor, last_capture, prize_to, pairs, antes, chips,
                      pot_before, pot_after, winners, prize, taken)
