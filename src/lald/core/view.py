"""What one seat may know (RULES.md §9): the censored view bots and UIs draw from.

A :class:`PlayerView` is plain data; :meth:`State.view <lald.core.state.State.view>` makes it,
and :func:`censor` is how an operation looks to a seat that may not see all of it.

>>> from lald.core import Rules, State
>>> s = State.deal(Rules.make(), seed=1)
>>> v = s.view(2)
>>> v.hand == s.hand(2), v.hand_sizes, v.to_move
(True, (8, 8, 8, 8, 8), 1)
"""

from __future__ import annotations

import dataclasses

from .actions import Claimed, Operation, Status
from .cards import Card
from .rules import Rules
from .scoring import DealResult


@dataclasses.dataclass(frozen=True, slots=True)
class PlayerView:
    """Everything ``seat`` may know about the deal now, and nothing more."""

    seat: int
    rules: Rules
    dealer: int
    eldest: int
    to_move: int | None
    foreplay: bool
    over: bool
    hand: tuple[Card, ...]
    """The seat's own hand."""
    table: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    won_sizes: tuple[int, ...]
    won_seen: tuple[tuple[Card, ...], ...]
    """The won cards this seat has seen go into each pile (all but others' face-down sets)."""
    statuses: tuple[Status, ...]
    last_capture: int | None
    claim_order: tuple[int, ...]
    """The order open claims are offered in now (RULES.md §5.3)."""
    pot: int
    balances: tuple[int, ...]
    """Balances with this deal's chips so far (antes, and the settlement once over)."""
    history: tuple[Operation, ...]
    """The public history; others' face-down sets show only how many cards."""
    result: DealResult | None

    @property
    def players(self) -> int:
        """The number of seats."""
        return self.rules.players


def censor(op: Operation, seat: int | None) -> Operation:
    """``op`` as ``seat`` may see it (``None``: a spectator, who sees no face-down set)."""
    if isinstance(op, Claimed) and op.face_down and op.seat != seat:
        return dataclasses.replace(op, cards=None)
    return op
