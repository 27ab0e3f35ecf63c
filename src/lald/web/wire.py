"""What goes on the wire: an engine view, legal actions and log lines as JSON.

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

from collections.abc import Sequence
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
from ..i18n import Catalog
from ..narrate import glyphs


def view_json(v: PlayerView) -> dict[str, Any]:
    """The view as JSON: cards in canonical notation, no history (the log carries it)."""
    return {
        "seat": None if v.seat < 0 else v.seat,
        "dealer": v.dealer,
        "eldest": v.eldest,
        "to_move": v.to_move,
        "foreplay": v.foreplay,
        "over": v.over,
        "hand": [str(c) for c in v.hand],
        "table": [str(c) for c in v.table],
        "hand_sizes": list(v.hand_sizes),
        "won_sizes": list(v.won_sizes),
        "won_seen": [[str(c) for c in pile] for pile in v.won_seen],
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
        return t("act_lie_down", cards=glyphs(hand))
    assert isinstance(action, Trail)
    return t("act_trail", card=action.card.glyph)
