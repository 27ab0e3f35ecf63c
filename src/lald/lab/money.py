"""Where each seat's chips come from: its expected chips split into the prize, the pairs it
won by play, the dealer's residue and its ante, per deal by position and across a session,
whole or stopped early.

A seat's chips for a deal are its pairs plus the prize if it was paid, minus its ante
(docs/rules.md#7-settlement). The dealer's pairs hold the residue, the cards left at the
end (docs/rules.md#6-the-end-of-a-deal); its share is what those cards add to the
dealer's pairs, ``pairs(won) - pairs(won - residue)``, the rest being the pairs won by
play. So, deal by deal and seat by seat::

    chips = prize + pairs won by play + residue - ante

Over a whole session each seat deals once (the rules' ``deals``, one per player), so a
dealer's edge is shared out; a session stopped after fewer deals leaves it with the seats
that dealt. Seats in a session are counted from its first dealer.

>>> from .reading import parse_reading
>>> r = parse_reading("survivor").rules
>>> parts(r, chips=[1, 0, 4, -2, -3], won=[16, 12, 10, 8, 6], prize_to=2, residue=4)
[(0, 2, 2, -3), (0, 2, 0, -2), (5, 1, 0, -2), (0, 0, 0, -2), (0, -1, 0, -2)]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..core import Rules, Scoring
from ..core.scoring import round_pairs
from .analysis import mean
from .measure import COLUMN, SESSION_COLUMN, Row
from .reading import Reading

#: The parts of a seat's chips, in the order of :func:`parts`: name -> words.
PARTS: dict[str, str] = {
    "prize": "the prize",
    "pairs": "pairs won by play",
    "residue": "the dealer's residue",
    "ante": "the ante",
}


def parts(rules: Rules, chips: Sequence[int], won: Sequence[int], prize_to: int | None,
          residue: int) -> list[tuple[int, int, int, int]]:
    """Each position's chips for one deal (from the dealer) as (prize, pairs won by play,
    residue, ante); they add up to its chips."""
    if rules.scoring is Scoring.CARD_COUNT:
        return [(0, 0, 0, 0) for _ in chips]
    out = []
    for p, c in enumerate(chips):
        ante = -(rules.ante_dealer if p == 0 else rules.ante_other)
        prize = rules.prize if prize_to == p else 0
        pairs = c - prize - ante
        res = 0
        if p == 0 and residue:
            res = pairs - round_pairs(won[p] - residue - rules.quota, rules.rounding)
        out.append((prize, pairs - res, res, ante))
    return out


def _row_parts(r: Row, rules: Rules) -> list[tuple[int, int, int, int]]:
    n = rules.players
    return parts(rules, [r[COLUMN[f"chips_{p}"]] for p in range(n)],
                 [r[COLUMN[f"won_{p}"]] for p in range(n)], r[COLUMN["prize_to"]], r[COLUMN["residue"]])


def by_position(reading: Reading, rows: Sequence[Row]) -> dict[str, list[dict[str, Any]]]:
    """Per deal, each position's mean prize, pairs won by play, residue and ante, with
    their 95% intervals (only the deals every session has)."""
    rows = [r for r in rows if not r[COLUMN["tie_break"]]]
    split = [_row_parts(r, reading.rules) for r in rows]
    return {name: [mean(float(s[p][i]) for s in split).to_json() for p in range(reading.players)]
            for i, name in enumerate(PARTS)}


def by_session(reading: Reading, deals: Sequence[Row], sessions: Sequence[Row]) -> list[dict[str, Any]]:
    """Each seat's chips (counted from the session's first dealer) and their parts after
    1, 2, ... deals of a session (a session stopped early), and for the whole session,
    tie-break deals included (``"deals": "whole"``)."""
    rules, n = reading.rules, reading.players
    first = {s[SESSION_COLUMN["session"]]: s[SESSION_COLUMN["first_dealer"]] for s in sessions}
    stops: list[int | str] = [*range(1, rules.deals + 1), "whole"]
    # totals[session][stop] = per seat, [chips, prize, pairs, residue, ante]
    totals: dict[int, dict[int | str, list[list[float]]]] = {}
    for r in sorted(deals, key=lambda r: (r[COLUMN["unit"]], r[COLUMN["index"]])):
        unit = r[COLUMN["unit"]]
        if unit not in first:
            continue
        dealer = r[COLUMN["dealer"]]
        split = _row_parts(r, rules)
        per = totals.setdefault(unit, {s: [[0.0] * 5 for _ in range(n)] for s in stops})
        for p in range(n):
            seat = (dealer + p - first[unit]) % n  # counted from the first dealer
            values = [float(r[COLUMN[f"chips_{p}"]]), *map(float, split[p])]
            for stop in stops:
                if stop == "whole" or r[COLUMN["index"]] < int(stop):
                    for i, v in enumerate(values):
                        per[stop][seat][i] += v
    out = []
    for stop in stops:
        entry: dict[str, Any] = {"deals": stop}
        for i, name in enumerate(("chips", *PARTS)):
            entry[name] = [mean(t[stop][q][i] for t in totals.values()).to_json() for q in range(n)]
        out.append(entry)
    return out
