"""What one seat may know (docs/rules.md#12-what-a-player-may-see): the censored view bots and UIs
draw from.

A :class:`PlayerView` is plain data. :func:`view` makes it from a :class:`Deal` (what
:meth:`State.view <lald.core.engine.state.State.view>` hands it), and :func:`censor` is how an
operation looks to a seat that may not see all of it. :class:`Deal` lists every field a
view reads, so what a seat may learn is read from one place.

>>> from lald.core import Rules, State
>>> s = State.deal(Rules.make(), seed=1)
>>> v = s.view(2)
>>> v.hand == s.hand(2), v.hand_sizes, v.to_move
(True, (8, 8, 8, 8, 8), 1)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Protocol

from ..actions import Claimed, Operation, Status
from ..cards import Card, cards_of
from ..rules import Rules
from ..scoring import DealResult


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
    """The order open claims are offered in now (docs/rules.md#5-claims, who is asked first)."""
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


class Deal(Protocol):
    """Everything of a deal that a view is made from (:class:`~lald.core.engine.state.State` is
    one): the whole truth, of which :func:`view` passes on only what the seat may know."""

    rules: Rules
    n: int
    dealer: int
    eldest: int
    to_move: int | None
    foreplay: bool
    over: bool
    hands: list[int]
    table_mask: int
    won: list[int]
    face_down: list[int]
    last_capture: int | None
    balances_before: tuple[int, ...]
    history: list[Operation]
    result: DealResult | None

    @property
    def pot(self) -> int: ...

    def chips(self) -> tuple[int, ...]: ...

    def status(self, seat: int) -> Status: ...

    def claim_order(self) -> Sequence[int]: ...


def view(state: Deal, seat: int | None) -> PlayerView:
    """The view of ``seat`` (``None``: a spectator, who sees no hand)."""
    n = state.n
    chips = state.chips()
    hidden = [0 if s == seat else state.face_down[s] for s in range(n)]
    # Only a face-down claim puts cards face down (and they stay so for the deal): with
    # none in any pile, no operation has anything to hide from anyone.
    history = (tuple(state.history) if not any(state.face_down) else
               tuple(censor(op, seat) if isinstance(op, Claimed) else op for op in state.history))
    return PlayerView(
        seat=-1 if seat is None else seat,
        rules=state.rules,
        dealer=state.dealer,
        eldest=state.eldest,
        to_move=state.to_move,
        foreplay=state.foreplay,
        over=state.over,
        hand=() if seat is None else cards_of(state.hands[seat]),
        table=cards_of(state.table_mask),
        hand_sizes=tuple(h.bit_count() for h in state.hands),
        won_sizes=tuple(w.bit_count() for w in state.won),
        won_seen=tuple(cards_of(state.won[s] & ~hidden[s]) for s in range(n)),
        statuses=tuple(state.status(s) for s in range(n)),
        last_capture=state.last_capture,
        claim_order=tuple(state.claim_order()),
        pot=state.pot,
        balances=tuple(b + c for b, c in zip(state.balances_before, chips, strict=True)),
        history=history,
        result=state.result,
    )
