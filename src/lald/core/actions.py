"""Actions a seat takes, and the operations a deal's history is made of.

An *action* is what a player does: :class:`Capture`, :class:`Claim`, :class:`LieDown`,
:class:`Trail`.  Each has a JSON form (docs/record.md#actions) and a one-line text form::

    1: QS x QH QD QC      a capture: cards played, then cards taken
    1: claim 7S 7H        a claim
    2: lie down           lie down
    3: trail 4D           trail

>>> a = parse_action("1: QS x QH QD QC")
>>> a
Capture(seat=1, play=(Card.parse('QS'),), take=(Card.parse('QH'), Card.parse('QD'), Card.parse('QC')))
>>> a.kind
<CaptureKind.SWEEP: 'sweep'>
>>> str(a), a.to_json()["type"]
('1: QS x QH QD QC', 'capture')
>>> action_from_json({"seat": 3, "type": "trail", "card": "4d"})
Trail(seat=3, card=Card.parse('4D'))
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from enum import StrEnum, unique
from typing import Any

from .cards import Card, CardError, format_cards, parse_cards


class ActionSyntaxError(ValueError):
    """An action that cannot be read (as opposed to one that is read but illegal)."""


@unique
class CaptureKind(StrEnum):
    """The four captures of docs/rules.md#4-turns, by cards from hand and from table."""

    SINGLE = "single"
    """One card takes one."""
    SWEEP = "sweep"
    """One card takes all three on the table."""
    PAIR = "pair"
    """Two cards take two."""
    PRIAL = "prial"
    """Three cards take one."""


@unique
class ClaimKind(StrEnum):
    """The three claims of docs/rules.md#5-claims."""

    HAND_SET = "hand_set"
    """A prial (two of its three) or a mournival set aside from the hand."""
    DEAD = "dead"
    """All live cards of a rank laid down from the hand that holds them."""
    SPOTTER = "spotter"
    """All live cards of a rank taken from the table."""


@unique
class Status(StrEnum):
    """Where a seat stands in the deal."""

    PLAYING = "playing"
    """Holds cards and takes turns."""
    LAIN_DOWN = "lain_down"
    """Threw its hand on the table; out of play."""
    EMPTY = "empty"
    """Its hand is empty; out of play."""


_KINDS = {(1, 1): CaptureKind.SINGLE, (1, 3): CaptureKind.SWEEP,
          (2, 2): CaptureKind.PAIR, (3, 1): CaptureKind.PRIAL}


@dataclasses.dataclass(frozen=True, slots=True)
class Capture:
    """``seat`` plays ``play`` from its hand and takes ``take`` from the table."""

    seat: int
    play: tuple[Card, ...]
    take: tuple[Card, ...]

    @property
    def kind(self) -> CaptureKind | None:
        """The capture's kind by its card counts (None if no kind has those counts)."""
        return _KINDS.get((len(self.play), len(self.take)))

    def to_json(self) -> dict[str, Any]:
        """The record's form."""
        return {"seat": self.seat, "type": "capture",
                "play": [str(c) for c in self.play], "take": [str(c) for c in self.take]}

    def __str__(self) -> str:
        return f"{self.seat}: {format_cards(self.play)} x {format_cards(self.take)}"


@dataclasses.dataclass(frozen=True, slots=True)
class Claim:
    """``seat`` lays ``cards`` into its won pile (a hand set, dead rank or spotter claim)."""

    seat: int
    cards: tuple[Card, ...]

    def to_json(self) -> dict[str, Any]:
        """The record's form."""
        return {"seat": self.seat, "type": "claim", "cards": [str(c) for c in self.cards]}

    def __str__(self) -> str:
        return f"{self.seat}: claim {format_cards(self.cards)}"


@dataclasses.dataclass(frozen=True, slots=True)
class LieDown:
    """``seat`` cannot capture and throws its hand face up on the table."""

    seat: int

    def to_json(self) -> dict[str, Any]:
        """The record's form."""
        return {"seat": self.seat, "type": "lie_down"}

    def __str__(self) -> str:
        return f"{self.seat}: lie down"


@dataclasses.dataclass(frozen=True, slots=True)
class Trail:
    """``seat`` cannot capture and puts ``card`` face up on the table (modern laugh)."""

    seat: int
    card: Card

    def to_json(self) -> dict[str, Any]:
        """The record's form."""
        return {"seat": self.seat, "type": "trail", "card": str(self.card)}

    def __str__(self) -> str:
        return f"{self.seat}: trail {self.card}"


Action = Capture | Claim | LieDown | Trail
TURN_ACTIONS = (Capture, LieDown, Trail)

_ACTION_KEYS = {
    "capture": {"seat", "type", "play", "take"},
    "claim": {"seat", "type", "cards"},
    "lie_down": {"seat", "type"},
    "trail": {"seat", "type", "card"},
}


def _card_list(value: Any, key: str) -> tuple[Card, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ActionSyntaxError(f"'{key}' must be a list of cards")
    try:
        return parse_cards(value)
    except CardError as e:
        raise ActionSyntaxError(str(e)) from None


def action_from_json(obj: Any) -> Action:
    """Read an action object of the record; raise :class:`ActionSyntaxError`."""
    if not isinstance(obj, dict):
        raise ActionSyntaxError("an action must be a JSON object")
    kind = obj.get("type")
    if not isinstance(kind, str) or kind not in _ACTION_KEYS:
        raise ActionSyntaxError(
            f"unknown action type {kind!r}: choose capture, claim, lie_down or trail")
    keys = set(obj)
    if keys != _ACTION_KEYS[kind]:
        extra, missing = keys - _ACTION_KEYS[kind], _ACTION_KEYS[kind] - keys
        what = (f"unknown key {sorted(extra)[0]!r}" if extra
                else f"missing key {sorted(missing)[0]!r}")
        raise ActionSyntaxError(f"{what} in a {kind} action")
    seat = obj["seat"]
    if isinstance(seat, bool) or not isinstance(seat, int):
        raise ActionSyntaxError("'seat' must be a seat number")
    if kind == "capture":
        return Capture(seat, _card_list(obj["play"], "play"), _card_list(obj["take"], "take"))
    if kind == "claim":
        return Claim(seat, _card_list(obj["cards"], "cards"))
    if kind == "lie_down":
        return LieDown(seat)
    card = obj["card"]
    if not isinstance(card, str):
        raise ActionSyntaxError("'card' must be a card")
    try:
        return Trail(seat, Card.parse(card))
    except CardError as e:
        raise ActionSyntaxError(str(e)) from None


def parse_action(line: str) -> Action:
    """Read the text form ``SEAT: ...`` of an action."""
    head, sep, body = line.partition(":")
    head = head.strip()
    if not sep or not (head.isascii() and head.isdigit() and len(head) <= 9):
        raise ActionSyntaxError(f"bad action {line.strip()!r}: start with the seat, like '2: lie down'")
    seat = int(head)
    words = body.split()
    try:
        if words == ["lie", "down"]:
            return LieDown(seat)
        if len(words) == 2 and words[0] == "trail":
            return Trail(seat, Card.parse(words[1]))
        if words and words[0] == "claim":
            return Claim(seat, parse_cards(words[1:]))
        if "x" in words:
            i = words.index("x")
            return Capture(seat, parse_cards(words[:i]), parse_cards(words[i + 1:]))
    except CardError as e:
        raise ActionSyntaxError(f"bad action {line.strip()!r}: {e}") from None
    raise ActionSyntaxError(
        f"bad action {line.strip()!r}: write 'CARDS x CARDS', 'claim CARDS', 'lie down' or 'trail CARD'")


# -- the operations of a deal's history -------------------------------------------------


@dataclasses.dataclass(frozen=True, slots=True)
class TableMournival:
    """At the deal, four of a rank on the table went to the dealer's won pile."""

    dealer: int
    cards: tuple[Card, ...]


@dataclasses.dataclass(frozen=True, slots=True)
class Claimed:
    """A claim was made. ``cards`` is None in a view that may not see a face-down set."""

    seat: int
    cards: tuple[Card, ...] | None
    count: int
    kind: ClaimKind
    face_down: bool


@dataclasses.dataclass(frozen=True, slots=True)
class LaidDown:
    """A seat lay down; its hand went face up to the table."""

    seat: int
    cards: tuple[Card, ...]


@dataclasses.dataclass(frozen=True, slots=True)
class DealEnded:
    """The deal ended: the survivor's hand and the table went to the dealer."""

    survivor: int
    dealer: int
    hand: tuple[Card, ...]
    table: tuple[Card, ...]


#: A capture and a trail enter the history as the actions themselves.
Operation = TableMournival | Capture | Claimed | LaidDown | Trail | DealEnded


def last_taker(history: Sequence[Operation]) -> int | None:
    """The seat whose capture or claim was the last to take cards into a won pile, whose
    turn it was or not (None: no seat took any); a table mournival dealt to the dealer and
    the residue are taken by nobody.  The prize rule ``last_card`` pays it
    (docs/rules.md#6-the-end-of-a-deal)."""
    for op in reversed(history):
        if isinstance(op, Capture | Claimed):
            return op.seat
    return None
