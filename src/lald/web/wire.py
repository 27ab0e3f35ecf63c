"""What goes on the wire, both ways: an engine view, legal actions and log lines as JSON
to the pages; what a page or a client sends, read as JSON of a sane shape.

Everything a recipient receives is built from ``state.view(seat)`` (``None`` for a
spectator) and the censored operations of that view, so a frame holds no card the
engine would not show that recipient.

>>> from lald.core import Rules, State
>>> s = State.deal(Rules.make(), seed=1)
>>> v = view_json(s.view(None))
>>> v["hand"], len(v["table"]), v["seat"]
([], 12, None)
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Sequence
from enum import StrEnum, unique
from typing import Any

from ..core import (
    Action,
    Capture,
    CaptureKind,
    Card,
    Claim,
    Claimed,
    LaidDown,
    LieDown,
    Operation,
    PlayerView,
    State,
    Trail,
)
from ..core.cards import CARDS
from ..i18n import Catalog
from ..narrate import glyphs

try:
    import orjson
except ImportError:  # the web extra brings it; without it, the standard library's encoder
    orjson = None  # type: ignore[assignment]


@unique
class Status(StrEnum):
    """Where a live table stands, as its summary, its frames and the database say it (a
    ``StrEnum``: each member is its word, so the wire's strings do not change)."""

    WAITING = "waiting"
    """No deal has started: the seats wait for their people."""
    PLAYING = "playing"
    """A deal is in play, or the session's next is to be started."""
    OVER = "over"
    """The session is over: every deal of its schedule is played."""
    CLOSED = "closed"
    """The host closed the table: no deal is played on."""

    @property
    def open(self) -> bool:
        """Whether a table of this status is still to be played (not over, not closed)."""
        return self in (Status.WAITING, Status.PLAYING)


#: Each card's canonical notation, by its number (``str(card)`` without the call).
CARD_TEXT: tuple[str, ...] = tuple(str(c) for c in CARDS)


def dumps(value: Any) -> str:
    """``value`` as compact JSON text, as ``json.dumps(value, ensure_ascii=False)`` reads
    back: with orjson when it is installed (several times faster: the frames of every
    action are encoded with it), else, or for what orjson refuses (a lone surrogate, an
    integer beyond 64 bits), with the standard library's encoder.

    >>> dumps({"a": [1, 2.5, None, "é"], 3: True}) == '{"a":[1,2.5,null,"é"],"3":true}'
    True
    """
    if orjson is not None:
        try:
            return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
        except TypeError:
            pass
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def view_json(v: PlayerView) -> dict[str, Any]:
    """The view as JSON: cards in canonical notation, no history (the log carries it)."""
    return {
        "seat": None if v.seat < 0 else v.seat,
        "dealer": v.dealer,
        "eldest": v.eldest,
        "to_move": v.to_move,
        "foreplay": v.foreplay,
        "over": v.over,
        "hand": [CARD_TEXT[c] for c in v.hand],
        "table": [CARD_TEXT[c] for c in v.table],
        "hand_sizes": list(v.hand_sizes),
        "won_sizes": list(v.won_sizes),
        "won_seen": [[CARD_TEXT[c] for c in pile] for pile in v.won_seen],
        "statuses": [str(s) for s in v.statuses],
        "last_capture": v.last_capture,
        "pot": v.pot,
        "balances": list(v.balances),
    }


def op_json(op: Operation) -> dict[str, Any]:
    """The structured form of a (censored) operation, for the page's highlights."""
    if isinstance(op, Capture):
        return {"kind": "sweep" if op.kind is CaptureKind.SWEEP else "capture", "seat": op.seat,
                "cards": [str(c) for c in op.play + op.take]}
    if isinstance(op, Claimed):
        return {"kind": "claim", "seat": op.seat,
                "cards": None if op.cards is None else [str(c) for c in op.cards]}
    if isinstance(op, LaidDown):
        return {"kind": "lie_down", "seat": op.seat, "cards": [str(c) for c in op.cards]}
    if isinstance(op, Trail):
        return {"kind": "trail", "seat": op.seat, "cards": [str(op.card)]}
    return {"kind": type(op).__name__.lower(), "seat": None, "cards": None}


def action_kinds(state: State, actions: list[Action]) -> list[str | None]:
    """What kind of move each action is, as the engine sees it, so the page can say in
    words what it does: a capture's kind (``single``, ``sweep``, ``pair``, ``prial``), a
    claim's (``hand_set``, ``dead``, ``spotter``), None for lying down and trailing.

    >>> from lald.core import Rules, State
    >>> s = State.deal(Rules.make(), seed=1)
    >>> legal = s.legal_actions(s.to_move)
    >>> len(action_kinds(s, legal)) == len(legal)
    True
    """
    out: list[str | None] = []
    for action in actions:
        kind: str | None = None
        if isinstance(action, Capture):
            kind = None if action.kind is None else str(action.kind)
        elif isinstance(action, Claim):
            op = state.clone().apply(action)
            kind = str(op.kind) if isinstance(op, Claimed) else None
        out.append(kind)
    return out


_CAPTURE_KINDS = frozenset({"single", "sweep", "pair", "prial"})
_CLAIM_KEYS = {"hand_set": "set", "dead": "dead", "spotter": "spot"}


def action_words(action: Action, kind: str | None, hand: Sequence[Card], catalog: Catalog) -> str:
    """A move as the table's buttons word it (the ``act_*`` keys, as the page's
    ``moveLabel`` does): ``kind`` is its :func:`action_kinds` word, ``hand`` the seat's
    hand (a lie-down lays it down).

    >>> from lald.core import parse_action
    >>> action_words(parse_action("1: 7S x 7D"), "single", [], Catalog("en"))
    '7♠ takes 7♦'
    """
    t = catalog.t
    if isinstance(action, Capture):
        word = kind if kind in _CAPTURE_KINDS else "single"
        return t(f"act_{word}", play=glyphs(action.play), take=glyphs(action.take))
    if isinstance(action, Claim):
        return t(f"act_claim_{_CLAIM_KEYS.get(kind or 'spotter', 'spot')}", cards=glyphs(action.cards))
    if isinstance(action, LieDown):
        return t("act_lie_down_count", cards=glyphs(hand), count=len(hand))
    assert isinstance(action, Trail)
    return t("act_trail", card=action.card.glyph)


# -- what comes in ------------------------------------------------------------------

MAX_DEPTH = 16
"""The deepest nesting of arrays and objects a message may have."""


class RequestError(ValueError):
    """A message or body that is not JSON of a sane shape; the message says why."""


class TooDeep(RequestError):
    """JSON nested deeper than a message may be (it is JSON, but not of a sane shape)."""


def _no_constant(name: str) -> Any:
    raise RequestError(f"{name} is not a number JSON allows")


def parse_json(text: str, max_depth: int = MAX_DEPTH) -> Any:
    """``text`` as JSON, refusing what no client of ours sends: nesting deeper than
    ``max_depth`` (:class:`TooDeep`), ``NaN`` and ``Infinity``, numbers too long to read.
    Raises :class:`RequestError`.

    A number keeps the kind it is written as: ``5.0`` is a fraction, not the whole number
    5, so a field that takes whole numbers refuses it, as a record does (the pages write
    every whole number as one).

    >>> parse_json('{"type": "ping", "v": 5, "w": 5.0}')
    {'type': 'ping', 'v': 5, 'w': 5.0}
    >>> parse_json("[" * 40 + "]" * 40)
    Traceback (most recent call last):
      ...
    lald.web.wire.TooDeep: the JSON is nested too deeply
    """
    if text.count("[") + text.count("{") > max_depth and depth(text) > max_depth:
        raise TooDeep("the JSON is nested too deeply")
    try:
        return json.loads(text, parse_constant=_no_constant)
    except RequestError:
        raise
    except (ValueError, RecursionError):
        raise RequestError("the text is not JSON") from None


_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)


def depth(text: str) -> int:
    """The deepest nesting of brackets outside strings (an upper bound if unbalanced)."""
    depth = deepest = 0
    for ch in re.sub(r"[^\[\]{}]", "", _STRING.sub("", text)):
        if ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


def shown(value: Any, limit: int = 40) -> str:
    """A value for a message, as short JSON."""
    try:
        text = json.dumps(value, ensure_ascii=True)
    except (TypeError, ValueError, RecursionError):
        text = type(value).__name__
    return text if len(text) <= limit else text[:limit - 1] + "…"


#: Characters a name may not hold: controls, lone surrogates (no text encoding holds
#: them), and the bidirectional controls that would make a name read as another.
_BAD_CATEGORIES = frozenset({"Cc", "Cs"})
_BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c")


def clean_text(value: str) -> bool:
    """Whether ``value`` is text a page can show and a database can store as it is."""
    return not any(c in _BIDI or unicodedata.category(c) in _BAD_CATEGORIES for c in value)
