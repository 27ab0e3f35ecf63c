"""A deal as a sequence of one-seat decisions: the claim window, then the turn.

Claims may be made out of turn.  The adapters poll the engine's *claim window*
(:class:`lald.core.ClaimWindow`, the one every table drives): before every turn, the seats
that may claim are asked one at a time in the engine's claim order (clockwise from the left
of the seat that acted last), each choosing one of its claims or to pass; a claim is made
at once and the window opens again from the claimant's left; when every polled seat has
passed, the seat to move chooses its turn action.  The polled seat always has at least
two choices (a claim and ``pass``), the mover at least one.

>>> from lald.core import Rules, State
>>> deal = Deal(State.deal(Rules.make(), seed=1))
>>> deal.seat, deal.deciding, [ACTION_NAMES[i] for i in sorted(deal.legal)]
(0, 'claim', ['claim 8', 'pass'])
>>> while not deal.over:
...     _ = deal.step(min(deal.legal))
>>> deal.state.result.chips
(-3, -1, 6, 1, -3)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..bots.learned.encoding import ACTION_NAMES, PASS, Deciding, Mask, legal_ids, mask_of
from ..core import Action, Claim, ClaimWindow, IllegalActionError, Rules, Scoring, State


class Deal:
    """The engine's state with the claim window around it.

    ``seat`` is the seat to decide (None once the deal is over), ``deciding`` whether it
    answers a claim window (``"claim"``) or takes its turn (``"turn"``), ``legal`` the
    legal IDs with the engine action each stands for (``None`` for ``pass``), and
    ``claims`` the engine's own list of the polled seat's claims.
    """

    __slots__ = ("state", "seat", "deciding", "legal", "claims", "_window")

    def __init__(self, state: State) -> None:
        self.state = state
        self.seat: int | None = None
        self.deciding: Deciding = "none"
        self.legal: dict[int, Action | None] = {}
        self.claims: list[Claim] = []
        self._window = ClaimWindow(state)
        self._next()

    def copy(self) -> Deal:
        """An independent copy (the engine state cloned)."""
        c = Deal.__new__(Deal)
        c.state = self.state.clone()
        c.seat, c.deciding, c.legal, c.claims = self.seat, self.deciding, self.legal, self.claims
        c._window = self._window.copy(c.state)
        return c

    def __deepcopy__(self, memo: dict[int, object]) -> Deal:
        return self.copy()

    @property
    def over(self) -> bool:
        """Whether the deal has ended."""
        return self.state.over

    @property
    def window(self) -> tuple[int, ...]:
        """The seats still to be polled in the open claim window, the polled one first."""
        return tuple(seat for seat, _ in self._window.unanswered())

    def mask(self) -> Mask:
        """The int8 legal mask of the deciding seat."""
        return mask_of(self.legal)

    def _next(self) -> None:
        state = self.state
        ask = self._window.asking()
        if ask is not None:
            seat, claims = ask
            legal: dict[int, Action | None] = dict(legal_ids(claims, state.table_mask))
            legal[PASS] = None
            self.seat, self.deciding, self.legal, self.claims = seat, "claim", legal, claims
        elif state.over:
            self.seat, self.deciding, self.legal, self.claims = None, "none", {}, []
        else:
            self.seat, self.deciding, self.claims = state.to_move, "turn", []
            self.legal = dict(legal_ids(state.turn_actions(), state.table_mask))

    def step(self, action_id: int) -> Action | None:
        """Play ``action_id`` for the deciding seat; return the engine action it made
        (None for a pass). An ID that is not legal now raises IllegalActionError and
        changes nothing."""
        try:
            action = self.legal[action_id]
        except (KeyError, TypeError):
            raise IllegalActionError(self._illegal(action_id)) from None
        self.play(action)
        return action

    def play(self, action: Action | None) -> None:
        """Play an engine action (or None: pass) for the deciding seat, as a bot of
        :mod:`lald.bots` would hand it back (any suits)."""
        if action is None:
            if self.deciding != "claim":
                raise IllegalActionError("only a seat polled for its claims may pass")
            assert self.seat is not None
            self._window.let_pass(self.seat)
            self._next()
            return
        if action.seat != self.seat:
            raise IllegalActionError(f"seat {action.seat} is not the seat to decide (seat {self.seat} is)")
        if self.deciding == "claim" and action not in self.claims:
            raise IllegalActionError(f"{action} is not one of the open claims of seat {self.seat}")
        self._window.apply(action)
        self._next()

    def _illegal(self, action_id: object) -> str:
        if self.seat is None:
            return "the deal is over: no action is legal"
        if isinstance(action_id, int) and 0 <= action_id < len(ACTION_NAMES):
            name = ACTION_NAMES[action_id]
            choices = ", ".join(ACTION_NAMES[i] for i in sorted(self.legal))
            return f"action {action_id} ({name}) is not legal for seat {self.seat} now: choose {choices}"
        return (f"action {action_id!r} is not an action ID: "
                f"give a whole number from 0 to {len(ACTION_NAMES) - 1}")


def make_rules(preset: str = "survivor", players: int = 5, variants: Iterable[str] = (),
               options: dict[str, Any] | None = None) -> Rules:
    """The rules of an environment (as ``Rules.make`` reads them)."""
    return Rules.make(preset, players, tuple(variants), options)


def deal_rewards(state: State, zero_sum: bool = False) -> list[float]:
    """What each seat is paid when a deal ends: its chips, or under card-count scoring 1
    for each seat with the most won cards.  These need not add up to zero: at three players,
    and at four under last-capture, the prize does not balance the antes and the seats take
    the difference from the signed pot (docs/rules.md §7).  With ``zero_sum`` each is less
    the seats' mean, so that they do."""
    result = state.result
    assert result is not None
    if state.rules.scoring is Scoring.CARD_COUNT:
        paid = [1.0 if s in result.winners else 0.0 for s in range(state.n)]
    else:
        paid = [float(c) for c in result.chips]
    if zero_sum:
        mean = sum(paid) / state.n
        paid = [p - mean for p in paid]
    return paid
