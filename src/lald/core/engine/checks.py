"""Checking actions: whether an action is legal now, and if not, a sentence saying why.

:class:`Checks` is the part of :class:`~lald.core.engine.state.State` that verifies; the
state applies only what it accepts, so a rejected action changes nothing.
:func:`layout_masks` checks a deal laid out by hand (``State.from_layout``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from ..actions import Action, Capture, CaptureKind, Claim, LieDown, Trail
from ..cards import NIBBLE_COUNT, RANK_NAMES, Card, format_cards, mask_of
from ..rules import DeadClaims, HandSetTiming, NoCapture, Rules, SingleTakesThree
from .moves import CaptureInfo, nonzero, rank_plural


class IllegalActionError(ValueError):
    """An action the rules do not allow now; the message is a sentence for a player."""


class LayoutError(ValueError):
    """A deal layout (hands and table) that is not a deal of these rules."""


# Both are public as lald.core.IllegalActionError and lald.core.LayoutError.
IllegalActionError.__module__ = LayoutError.__module__ = "lald.core"


def layout_masks(rules: Rules, hands: Sequence[Iterable[Card]], table: Iterable[Card]) -> list[int]:
    """The card masks of a layout's hands, then of its table, if it is a deal of ``rules``:
    one hand a seat, each of its size, and no card twice (else :class:`LayoutError`)."""
    n = rules.players
    if len(hands) != n:
        raise LayoutError(f"the layout has {len(hands)} hands; {n} players need {n}")
    masks = []
    seen = 0
    for seat, hand in enumerate([*hands, table]):
        cards = list(hand)
        m = mask_of(cards)
        where = f"hand {seat}" if seat < n else "the table"
        if m.bit_count() != len(cards) or m & seen:
            dup = next(c for i, c in enumerate(cards) if c in cards[:i] or seen >> c & 1)
            raise LayoutError(f"card {dup} is dealt twice (in {where})")
        want = rules.hand_size if seat < n else rules.table_size
        if len(cards) != want:
            raise LayoutError(f"{where} has {len(cards)} cards; it must have {want}")
        seen |= m
        masks.append(m)
    return masks


class Checks:
    """Verification for :class:`~lald.core.engine.state.State` (the attributes are the state's)."""

    __slots__ = ()

    rules: Rules
    n: int
    hands: list[int]
    table_mask: int
    to_move: int | None
    foreplay: bool
    over: bool
    _live: int
    _capture_ids: dict[int, CaptureInfo]

    if TYPE_CHECKING:

        def _turn_actions(self, seat: int) -> list[Action]: ...  # State's

    def _windows(self, seat: int) -> tuple[bool, bool]:
        """Whether ``seat`` may now make hand sets, and dead-rank claims."""
        rules = self.rules
        own = seat == self.to_move
        hand_set = rules.hand_sets and (
            self.foreplay or (own and rules.hand_set_timing is HandSetTiming.FOREPLAY_OR_OWN_TURN))
        dead = rules.dead_claims is DeadClaims.ANY_TIME or (
            own and rules.dead_claims is DeadClaims.OWN_TURN)
        return hand_set, dead

    def can_capture(self, seat: int) -> bool:
        """Whether ``seat`` holds a card whose rank is on the table."""
        return bool(nonzero(self.hands[seat]) & nonzero(self.table_mask))

    def can(self, action: Action) -> bool:
        """Whether ``action`` is legal now."""
        try:
            self.verify(action)
        except IllegalActionError:
            return False
        return True

    def verify(self, action: Action) -> None:
        """Raise :class:`IllegalActionError` with a sentence if ``action`` is illegal now."""
        self._check(action)

    def _check_seat(self, seat: int) -> None:
        if self.over:
            raise IllegalActionError("the deal is over")
        if type(seat) is not int or not 0 <= seat < self.n:
            raise IllegalActionError(f"there is no seat {seat}: seats are 0 to {self.n - 1}")

    def _check_turn(self, seat: int) -> None:
        self._check_seat(seat)
        if seat != self.to_move:
            raise IllegalActionError(f"it is seat {self.to_move}'s turn, not seat {seat}'s")

    def _check_cards(self, cards: tuple[Card, ...], what: str) -> int:
        if not cards:
            raise IllegalActionError(f"{what} names no cards")
        m = mask_of(cards)
        if m.bit_count() != len(cards):
            dup = next(c for i, c in enumerate(cards) if c in cards[:i])
            raise IllegalActionError(f"{what} names {dup} twice")
        if m & ~(15 << (cards[0] & ~3)):
            a, b = sorted({c for c in cards}, key=lambda c: c.rank)[::len(cards) - 1][:2]
            raise IllegalActionError(f"{what} takes cards of one rank only: {a} and {b} differ")
        return m

    def _check(self, action: Action) -> tuple[int, ...]:
        """Check ``action``; return what applying it needs to know."""
        if type(action) is Capture:
            return self._check_capture(action)
        if type(action) is Claim:
            return self._check_claim(action)
        if isinstance(action, LieDown):
            self._check_turn(action.seat)
            if self.rules.no_capture is not NoCapture.LIE_DOWN:
                raise IllegalActionError(
                    "under the modern laugh a seat that cannot capture trails a card instead")
            self._check_no_capture(action.seat, "lie down")
            return ()
        if isinstance(action, Trail):
            self._check_turn(action.seat)
            if self.rules.no_capture is not NoCapture.TRAIL:
                raise IllegalActionError(
                    "a seat that cannot capture lies down; trailing is the modern-laugh variant")
            self._check_no_capture(action.seat, "trail")
            if not self.hands[action.seat] >> action.card & 1:
                raise IllegalActionError(f"seat {action.seat} does not hold {action.card}")
            return ()
        raise IllegalActionError(f"{action!r} is not an action")

    def _check_no_capture(self, seat: int, what: str) -> None:
        if not self.can_capture(seat):
            return
        caps = self._turn_actions(seat)
        if caps and isinstance(caps[0], Capture):
            raise IllegalActionError(
                f"seat {seat} can capture ({format_cards(caps[0].play)} takes "
                f"{format_cards(caps[0].take)}), so it may not {what}")

    def _check_capture(self, a: Capture) -> tuple[int, ...]:
        info = self._capture_ids.get(id(a))
        if info is not None:  # one of the engine's own capture objects: check its nibbles
            play, take, shift, h, t = info
            seat = a.seat
            if (seat == self.to_move and (self.hands[seat] >> shift) & 15 == h
                    and (self.table_mask >> shift) & 15 == t):
                return (play, take)
        seat, play_cards, take_cards = a.seat, a.play, a.take
        if seat == self.to_move and play_cards and take_cards:
            play = take = 0
            for c in play_cards:
                play |= 1 << c
            for c in take_cards:
                take |= 1 << c
            rank = take_cards[0] >> 2
            table = self.table_mask
            if (play.bit_count() == len(play_cards) and take.bit_count() == len(take_cards)
                    and not (play | take) & ~(15 << 4 * rank)
                    and not play & ~self.hands[seat] and not take & ~table):
                kind = a.kind
                rules = self.rules
                if (kind is CaptureKind.SINGLE and not (
                        rules.single_takes_three is SingleTakesThree.FORCED
                        and NIBBLE_COUNT[(table >> 4 * rank) & 15] == 3)
                        or kind is CaptureKind.SWEEP
                        and rules.single_takes_three is not SingleTakesThree.OFF
                        or kind is CaptureKind.PAIR and rules.pair_on_pair
                        or kind is CaptureKind.PRIAL and rules.prial_on_single):
                    return (play, take)
        return self._diagnose_capture(a)

    def _diagnose_capture(self, a: Capture) -> tuple[int, ...]:
        """The slow path of :meth:`_check_capture`: find what is wrong and say it."""
        seat = a.seat
        self._check_turn(seat)
        play = self._check_cards(a.play, "a capture") if a.play else 0
        take = self._check_cards(a.take, "a capture") if a.take else 0
        if not a.play or not a.take:
            raise IllegalActionError("a capture plays cards from the hand and takes cards from the table")
        self._check_cards(a.play + a.take, "a capture")
        rank = a.take[0].rank
        hand, table = self.hands[seat], self.table_mask
        if not (hand >> 4 * rank) & 15:
            raise IllegalActionError(
                f"seat {seat} cannot take {a.take[0]}: seat {seat} holds no {RANK_NAMES[rank]}")
        for c in a.play:
            if not hand >> c & 1:
                raise IllegalActionError(f"seat {seat} does not hold {c}")
        for c in a.take:
            if not table >> c & 1:
                raise IllegalActionError(f"{c} is not on the table")
        kind = a.kind
        rules = self.rules
        on_table = NIBBLE_COUNT[(table >> 4 * rank) & 15]
        if kind is None:
            raise IllegalActionError(
                f"{len(a.play)} played for {len(a.take)} is no capture: one card takes one "
                "(or all three), two take two, three take one")
        if kind is CaptureKind.SWEEP and rules.single_takes_three is SingleTakesThree.OFF:
            raise IllegalActionError(
                f"one card may not take three {rank_plural(rank)} under these rules "
                "(single_takes_three is off)")
        if (kind is CaptureKind.SINGLE and on_table == 3
                and rules.single_takes_three is SingleTakesThree.FORCED):
            raise IllegalActionError(
                f"with three {rank_plural(rank)} on the table one {RANK_NAMES[rank]} must take all "
                "three (single_takes_three is forced)")
        if kind is CaptureKind.PAIR and not rules.pair_on_pair:
            raise IllegalActionError("two cards may not take two under these rules (pair_on_pair is off)")
        if kind is CaptureKind.PRIAL and not rules.prial_on_single:
            raise IllegalActionError(
                "three cards may not take one under these rules (prial_on_single is off)")
        return (play, take)

    def _check_claim(self, a: Claim) -> tuple[int, ...]:
        seat = a.seat
        self._check_seat(seat)
        m = self._check_cards(a.cards, "a claim")
        rank = a.cards[0].rank
        name, plural = RANK_NAMES[rank], rank_plural(rank)
        hand, table = self.hands[seat], self.table_mask
        in_hand, on_table = m & hand == m, m & table == m
        if not in_hand and not on_table:
            if m & (hand | table):
                raise IllegalActionError("a claim takes cards from the hand or from the table, not both")
            c = next(c for c in a.cards if not (hand | table) >> c & 1)
            raise IllegalActionError(f"seat {seat} does not hold {c} and it is not on the table")
        shift = 4 * rank
        live = (self._live >> shift) & 15
        k = len(a.cards)
        if on_table:
            if not self.rules.spotter_claims:
                raise IllegalActionError("spotter claims from the table are off under these rules")
            if live != (m >> shift) & 15:
                raise IllegalActionError(
                    f"a spotter claim takes the {plural} only when all their live cards lie on the "
                    f"table, and as many as there are: here {NIBBLE_COUNT[live]} are live and "
                    f"{NIBBLE_COUNT[(table >> shift) & 15]} lie on the table")
            return (m, 0)
        hc = NIBBLE_COUNT[(hand >> shift) & 15]
        hand_set, dead = self._windows(seat)
        if k == 1:
            raise IllegalActionError("a claim lays down two cards or four, never one")
        if hc == 4:
            if k != 4:
                raise IllegalActionError("a mournival is set aside whole: all four cards")
            if hand_set:
                return (m, 1)
            if dead:
                return (m, 0)
            raise IllegalActionError(self._closed_window(seat, plural))
        if hc == 3:
            if k != 2:
                raise IllegalActionError(f"from a prial two {plural} are set aside, the third kept")
            if hand_set:
                return (m, 1)
            if not self.rules.hand_sets:
                raise IllegalActionError("hand sets are off under these rules")
            raise IllegalActionError(self._closed_window(seat, plural))
        if live != (hand >> shift) & 15:
            raise IllegalActionError(
                f"the other {plural} are still live: seat {seat} may lay down its pair of "
                f"{plural} only once no other {name} is live")
        if dead:
            return (m, 0)
        if self.rules.dead_claims is DeadClaims.OFF:
            raise IllegalActionError("dead-rank claims are off under these rules")
        raise IllegalActionError(
            f"seat {seat} may lay down its dead {plural} only on its own turn")

    def _closed_window(self, seat: int, plural: str) -> str:
        if not self.rules.hand_sets and self.rules.dead_claims is DeadClaims.OFF:
            return "hand sets and dead-rank claims are off under these rules"
        when = ("before the first turn" if self.rules.hand_set_timing is HandSetTiming.FOREPLAY
                else "before the first turn or on its own turn")
        return f"seat {seat} may set aside its {plural} only {when}"

    # -- applying -----------------------------------------------------------------------
