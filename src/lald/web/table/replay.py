"""The replay viewer's data: a record replayed by the engine, one picture per step.

A record is the whole truth of a deal, so the viewer shows every hand.

>>> from lald.core import Rules
>>> from lald.record import Record
>>> frames = replay_frames(Record(rules=Rules.make(), seed=3))
>>> len(frames["steps"]), len(frames["steps"][0]["hands"][1])
(1, 8)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...core import IllegalActionError, State, cards_of
from ...i18n import Catalog
from ...narrate import default_names, describe, explain_settlement
from ...record import Record, RecordError


def _picture(state: State, lines: list[str], action: str | None) -> dict[str, Any]:
    return {
        "action": action,
        "lines": lines,
        "hands": [[str(c) for c in state.hand(s)] for s in range(state.n)],
        "table": [str(c) for c in state.table],
        "won": [[str(c) for c in cards_of(w)] for w in state.won],
        "statuses": [str(state.status(s)) for s in range(state.n)],
        "survivor": state.result.survivor if state.result is not None else None,
        "to_move": state.to_move,
        "over": state.over,
    }


def replay_frames(record: Record, lang: str = "en",
                  seat_names: Sequence[str | None] | None = None) -> dict[str, Any]:
    """Every step of ``record``: before the first action, then after each one. ``seat_names``
    (one per seat, None for a seat without one) name the players; "Seat n" otherwise."""
    catalog = Catalog(lang)
    state = record.start()
    default = default_names(state.n, catalog)
    given = seat_names if seat_names is not None and len(seat_names) == state.n else default
    names = [name or default[s] for s, name in enumerate(given)]
    steps = [_picture(state, [describe(op, names, catalog) for op in state.history], None)]
    for i, action in enumerate(record.actions):
        before = len(state.history)
        try:
            state.apply(action)
        except IllegalActionError as e:
            raise RecordError(str(e), i) from None
        lines = [describe(op, names, catalog) for op in state.history[before:]]
        if state.result is not None:
            balances = [b + c for b, c in zip(state.balances_before, state.result.chips, strict=True)]
            lines += explain_settlement(state.rules, state.result, state.dealer, names, balances, catalog)
        steps.append(_picture(state, lines, str(action)))
    return {"rules": record.rules.spec(), "dealer": record.dealer, "names": names, "steps": steps}
