"""The claim window: which seat is asked for which claims, when, and when the turn comes.

Claims may be made out of turn (docs/rules.md#5-claims). When lald runs a table, after every
action (and before the deal's first) it opens a *claim window*: the seats with open claims
are asked one at a time in the engine's claim order (clockwise from the left of the seat
that acted last, from the eldest before the first action), each taking one of its claims
or letting them pass; a claim is applied at once and the window opens again from the
claimant's left; when every seat asked has let its claims pass, the window closes and the
seat to move takes its turn.

Every table drives this one object: the tournament loop (:func:`lald.play.loop.step`), the
terminal (:class:`lald.tui.game.Game`), the web table (:class:`lald.web.table.tables.Table`) and
the research adapters (:class:`lald.rl.deal.Deal`), so that they offer the same claims at
the same moments. How long a person is given to answer is the face's (it has the clock);
whom the window asks, for which claims, and when it closes, are decided here.

People differ from bots in two ways, both decided here:

- a seat in ``people`` is asked only for claims it has not let pass in this deal (the
  terminal offers a person a claim once, when it opens; a bot is asked again at every
  window), and on its turn it is offered its open claims as well as its turn actions;
- a face whose people claim at will, whenever they like (the web table: the first claim to
  reach the server wins), does not wait for them: it names them in ``skip`` and asks the
  others; :meth:`ClaimWindow.fresh` says which of their claims opened at this moment.

>>> from lald.core import Rules, State
>>> window = ClaimWindow(State.deal(Rules.make(), seed=1))
>>> seat, claims = window.asking()
>>> seat, [str(c) for c in claims]
(0, ['0: claim 8S 8H', '0: claim 8S 8C', '0: claim 8H 8C'])
>>> window.let_pass(0)
>>> window.asking() is None, window.turn()[0]
(True, 1)
"""

from __future__ import annotations

from collections.abc import Collection, Iterable

from ..actions import Action, Claim, Operation
from .state import State

Ask = tuple[int, list[Claim]]
"""A seat asked in a claim window and the claims it is offered."""

Mark = tuple[frozenset[int], tuple[frozenset[Claim], ...]]
"""Where a window stands (:meth:`ClaimWindow.mark`): the seats that answered at this
moment, and the claims each person has let pass in the deal."""


class ClaimWindow:
    """The claim window around one deal's :class:`State`.

    Apply every action through :meth:`apply` (or call :meth:`open` after applying it to the
    state directly), so that the window opens again after it.
    """

    __slots__ = ("state", "people", "asks", "_answered", "_pos", "_passed", "_prior")

    def __init__(self, state: State, people: Iterable[int] = ()) -> None:
        self.state = state
        self.people: frozenset[int] = frozenset(people)
        """The seats people play (their passes are remembered for the deal)."""
        self.asks: list[Ask] = []
        """Every seat with open claims at this moment and its claims, in claim order."""
        self._answered: set[int] = set()
        self._pos = 0
        self._passed: list[frozenset[Claim]] = [frozenset()] * state.n
        self._prior: list[Ask] = []
        self.open()

    def open(self, anew: bool = False) -> None:
        """Open the window on the state as it is now (after an action, or at the start);
        ``anew``: as if no claim had been open a moment before (:meth:`fresh`)."""
        asks: list[Ask] = []
        for claim in self.state.open_claims():  # each seat's claims, seats in claim order
            if asks and asks[-1][0] == claim.seat:
                asks[-1][1].append(claim)
            else:
                asks.append((claim.seat, [claim]))
        self._prior = [] if anew else self.asks
        self.asks, self._answered, self._pos = asks, set(), 0

    def copy(self, state: State) -> ClaimWindow:
        """This window on ``state`` (a clone of its state)."""
        c = ClaimWindow.__new__(ClaimWindow)
        c.state, c.people, c.asks, c._prior = state, self.people, self.asks, self._prior
        c._answered, c._pos, c._passed = set(self._answered), self._pos, list(self._passed)
        return c

    # -- the window ---------------------------------------------------------------------

    def _waits_for(self, seat: int, claims: list[Claim]) -> bool:
        return seat not in self._answered and (
            seat not in self.people or not self._passed[seat].issuperset(claims))

    def asking(self, skip: Collection[int] = ()) -> Ask | None:
        """The seat asked now and the claims it is offered; None once the window is closed
        (the turn comes). ``skip``: seats not waited for (people who claim at will)."""
        asks = self.asks
        while self._pos < len(asks) and asks[self._pos][0] in self._answered:
            self._pos += 1
        for i in range(self._pos, len(asks)):
            seat, claims = asks[i]
            if seat not in skip and self._waits_for(seat, claims):
                return seat, claims
        return None

    def unanswered(self) -> list[Ask]:
        """The seats still to be asked at this moment (skipped ones included), in order."""
        return [(seat, claims) for seat, claims in self.asks if self._waits_for(seat, claims)]

    def let_pass(self, seat: int) -> None:
        """``seat`` lets the claims it was offered pass for now (a person: for the deal,
        until a claim it has not let pass opens)."""
        self._answered.add(seat)
        if seat in self.people:
            for s, claims in self.asks:
                if s == seat:
                    self._passed[seat] = self._passed[seat].union(claims)

    def turn(self) -> tuple[int, list[Action]]:
        """The seat to move and what its turn offers it: its turn actions, and a person
        its open claims too. Only while the deal is not over."""
        state = self.state
        mover = state.to_move
        assert mover is not None and not state.over
        if mover in self.people:
            return mover, state.legal_actions(mover)
        return mover, state.turn_actions()

    def apply(self, action: Action) -> Operation:
        """Apply ``action`` (checked by the engine) and open the window again."""
        op = self.state.apply(action)
        self.open()
        return op

    def fresh(self, seats: Collection[int]) -> frozenset[Claim]:
        """The claims of ``seats`` open now that were not open a moment before (the web
        table holds its bots back for a person given one)."""
        prior = {c for seat, claims in self._prior if seat in seats for c in claims}
        return frozenset(c for seat, claims in self.asks if seat in seats for c in claims
                         if c not in prior)

    def forget(self, seats: Collection[int]) -> None:
        """Count the open claims of ``seats`` as fresh (a person has just taken the seat)."""
        self._prior = [(seat, claims) for seat, claims in self._prior if seat not in seats]

    # -- going back ---------------------------------------------------------------------

    @property
    def passed(self) -> tuple[frozenset[Claim], ...]:
        """The claims each person has let pass in this deal."""
        return tuple(self._passed)

    def mark(self) -> Mark:
        """Where the window stands now, to come back to with :meth:`rewind`."""
        return frozenset(self._answered), tuple(self._passed)

    def rewind(self, state: State, mark: Mark) -> None:
        """Stand at ``mark`` again, on ``state`` (the deal rebuilt to that moment)."""
        self.state = state
        self.open(anew=True)
        answered, passed = mark
        self._answered, self._passed = set(answered), list(passed)
