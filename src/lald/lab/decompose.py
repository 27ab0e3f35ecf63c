"""What each rule contributes: two readings taken apart rule by rule, on paired deals.

A *decomposition* of reading A into reading B plays, besides A and B, each rule (single
option) in which they differ changed alone from A, and, when few rules differ (at most
:data:`MAX_PAIR_RULES`), every pair of them changed together. On the same deals it then
measures, for each measurement of :data:`MEASURED`:

- the *total*, B minus A, deal by deal;
- each rule's *contribution*: A with that rule as B has it, minus A;
- each pair's *interaction*: the pair changed together, minus both rules changed alone,
  plus A (zero when the two rules' effects simply add up);
- the *remainder*: the total minus the sum of the rules' contributions (every
  interaction together; zero when the effects add up).

All are paired differences on the deals both sides played (Student's t), corrected
together by Holm's method within each table. Options that act only in whole sessions
(the tie-break and the session's length) change nothing in a single deal; a
decomposition of single deals leaves them out and says so.

Played with random bots and with skilled ones, a contribution tells *mechanics* (it
appears under random play: the rule itself does it, whatever players want, mistakes
included, for random players make every mistake) from the *bots' response* (it appears
only when skilled bots play: the rule changes what is worth doing, and competent players
answer it). Each rule says at which tables it is real (:func:`real_at`): a rule that acts
only on random players' mistakes is real between random players and not between
heuristic or expert bots.

>>> d = decompose("survivor", "last-capture")
>>> [name for name, _, _ in d.rules]
['prize_rule', 'single_takes_three', 'hand_set_timing', 'hand_sets_face_down', 'spotter_claims']
>>> d.singles["prize_rule"].text, d.left_out
('survivor:prize_rule=last_capture', ['tie_break'])
>>> len(d.pairs), len(d.readings())
(10, 17)
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections.abc import Mapping, Sequence
from typing import Any

from ..core import OPTION_NAMES, Rules, RulesError
from ..stats import Mean
from .analysis import Est, holm, p_value
from .measure import COLUMN, Row
from .reading import Reading, _value_text, parse_reading, reading_of
from .summary import regular, value, win_shares_of

#: At most this many differing rules are also changed two at a time (10 pairs for 5).
MAX_PAIR_RULES = 5

#: Options that act only across a whole session (tie-break deals, the session's length,
#: the first dealer): a single deal is the same under any of their values.
SESSION_ONLY: frozenset[str] = frozenset({"tie_break", "max_tie_cycles", "deals", "first_dealer"})

#: What a decomposition measures: name -> words.
MEASURED: dict[str, str] = {
    "turns": "turns per deal",
    "lie_downs": "lie-downs per deal",
    "residue": "cards left to the dealer",
    "survivor_last": "share of deals whose survivor made the last capture",
    "sweep": "sweeps per deal",
    "spotter": "spotter claims per deal",
    "chips_0": "the dealer's chips per deal",
    "chips_1": "the eldest hand's chips per deal",
    "win_0": "the dealer's deal win rate",
    "win_1": "the eldest hand's deal win rate",
}


@dataclasses.dataclass(frozen=True)
class Decomposition:
    """Reading ``base`` taken apart into reading ``target``, rule by rule."""

    base: Reading
    target: Reading
    rules: list[tuple[str, str, str]]
    """Each rule that differs (and acts in the unit of play): name, base's value, target's."""
    singles: dict[str, Reading]
    """Each rule changed alone from ``base``."""
    pairs: dict[tuple[str, str], Reading]
    """Each pair of rules changed together (when at most :data:`MAX_PAIR_RULES` differ)."""
    left_out: list[str]
    """Rules that differ but act only in whole sessions (left out of single deals)."""

    def readings(self) -> list[Reading]:
        """Every reading to play: base, target, the singles and the pairs, each once."""
        out: list[Reading] = []
        for r in (self.base, self.target, *self.singles.values(), *self.pairs.values()):
            if r.text not in [o.text for o in out]:
                out.append(r)
        return out

    def to_json(self) -> dict[str, Any]:
        """Plain data: what was changed, and which reading plays each change."""
        return {"base": self.base.text, "target": self.target.text,
                "rules": [{"rule": n, "from": a, "to": b, "reading": self.singles[n].text}
                          for n, a, b in self.rules],
                "pairs": [{"rules": list(k), "reading": r.text} for k, r in self.pairs.items()],
                "left_out": list(self.left_out)}


def decompose(base: str | Reading, target: str | Reading, sessions: bool = False,
              max_pair_rules: int = MAX_PAIR_RULES) -> Decomposition:
    """The decomposition of ``base`` into ``target``; ValueError (one line) when they cannot
    be compared deal by deal or do not differ."""
    a = base if isinstance(base, Reading) else parse_reading(base)
    b = target if isinstance(target, Reading) else parse_reading(target)
    if a.players != b.players:
        raise ValueError(f"decompose {a.text} into {b.text}: they have different numbers of players "
                         "and share no deals; decompose readings with the same number of players")
    differ = [n for n in OPTION_NAMES if getattr(a.rules, n) != getattr(b.rules, n)]
    left_out = [] if sessions else [n for n in differ if n in SESSION_ONLY]
    differ = [n for n in differ if n not in left_out]
    if not differ:
        raise ValueError(f"decompose {a.text} into {b.text}: they play the same rules"
                         + (" in a single deal (they differ only in " + ", ".join(left_out)
                            + "; add --sessions)" if left_out else ""))

    def changed(names: Sequence[str]) -> Reading:
        try:
            rules: Rules = a.rules.replace(**{n: _value_text(getattr(b.rules, n)) for n in names})
        except RulesError as e:  # pragma: no cover - both values are valid options
            raise ValueError(f"decompose {a.text} into {b.text}: {e}") from None
        return reading_of(rules)

    rules = [(n, _value_text(getattr(a.rules, n)), _value_text(getattr(b.rules, n))) for n in differ]
    singles = {n: changed([n]) for n in differ}
    pairs: dict[tuple[str, str], Reading] = {}
    if 2 < len(differ) <= max_pair_rules:  # with two rules, the pair is the target itself
        pairs = {(x, y): changed([x, y]) for x, y in itertools.combinations(differ, 2)}
    return Decomposition(a, b, rules, singles, pairs, left_out)


# -- the figures ------------------------------------------------------------------------


def _keyed(rows: Sequence[Row]) -> dict[tuple[int, int], Row]:
    return {(r[COLUMN["unit"]], r[COLUMN["index"]]): r for r in regular(rows)}


def _measure(r: Row, reading: Reading, name: str) -> float:
    if name.startswith("chips_"):
        return float(r[COLUMN[name]])
    if name.startswith("win_"):
        return win_shares_of(r, reading)[int(name[4:])]
    return value(r, name)


def _combination(terms: Sequence[tuple[float, dict[tuple[int, int], Row], Reading]],
                 name: str) -> tuple[Est, float]:
    """A signed sum of readings' measurements deal by deal, over the deals all played:
    its mean, paired interval and two-sided p-value."""
    keys = sorted(set.intersection(*(set(rows) for _, rows, _ in terms)))
    d = [math.fsum(c * _measure(rows[k], reading, name) for c, rows, reading in terms) for k in keys]
    m = Mean.of(d)
    if m.n < 2:
        return Est(m.mean, math.nan, math.nan, m.n), math.nan
    if m.sd == 0:
        return Est(m.mean, m.mean, m.mean, m.n), (1.0 if m.mean == 0 else 0.0)
    return Est(m.mean, m.low, m.high, m.n), p_value(m.mean / (m.sd / math.sqrt(m.n)), m.n - 1)


def contributions(d: Decomposition, rows: Mapping[str, Sequence[Row]]) -> list[dict[str, Any]]:
    """Every figure of the decomposition at one table (``rows``: reading text -> its rows):
    one entry per (kind, rule or pair, measurement), with its paired interval and its
    p-value corrected by Holm over all the entries."""
    keyed = {text: _keyed(rs) for text, rs in rows.items()}

    def term(c: float, reading: Reading) -> tuple[float, dict[tuple[int, int], Row], Reading]:
        return (c, keyed.get(reading.text, {}), reading)

    a, b = d.base, d.target
    wanted: list[tuple[str, list[str], list[tuple[float, dict[tuple[int, int], Row], Reading]]]] = []
    wanted.append(("total", [], [term(1, b), term(-1, a)]))
    for n, _, _ in d.rules:
        wanted.append(("rule", [n], [term(1, d.singles[n]), term(-1, a)]))
    for (x, y), r in d.pairs.items():
        wanted.append(("interaction", [x, y], [term(1, r), term(-1, d.singles[x]),
                                               term(-1, d.singles[y]), term(1, a)]))
    if len(d.rules) > 1:
        rest = [term(1, b), term(len(d.rules) - 1, a)] + [term(-1, d.singles[n]) for n, _, _ in d.rules]
        wanted.append(("remainder", [], rest))
    players = a.players
    out: list[dict[str, Any]] = []
    for kind, names, terms in wanted:
        if not all(t[1] for t in terms):
            continue
        for name in MEASURED:
            if (name.startswith(("chips_", "win_")) and int(name.split("_")[1]) >= players):
                continue
            est, p = _combination(terms, name)
            if math.isnan(p):
                continue
            out.append({"kind": kind, "rules": names, "measure": name, **est.to_json(), "p": p})
    adjusted = holm([e["p"] for e in out])
    for e, q in zip(out, adjusted, strict=True):
        e["p"] = float(f"{e['p']:.8g}") + 0.0
        e["p_holm"] = q
        e["real"] = q < 0.05
    return out


def real_at(by_table: Mapping[str, list[dict[str, Any]]]) -> dict[str, list[str]]:
    """For each rule and measurement (``"rule|measure"``), the tables at which its
    contribution is real, in the order played: for which players it holds."""
    out: dict[str, list[str]] = {}
    for table, entries in by_table.items():
        for e in entries:
            if e["kind"] == "rule":
                tables = out.setdefault(f"{e['rules'][0]}|{e['measure']}", [])
                if e["real"]:
                    tables.append(table)
    return out


def verdict(by_table: Mapping[str, list[dict[str, Any]]], random_table: str | None) -> dict[str, str]:
    """For each rule and measurement (``"rule|measure"``): ``mechanics`` when the rule's
    contribution is real under random play, ``response`` when it is real only at a table
    of skilled bots, ``none`` when at no table; without a random table nothing can be called
    mechanics, and a real contribution is ``real``."""
    out: dict[str, str] = {}
    for table, entries in by_table.items():
        for e in entries:
            if e["kind"] != "rule":
                continue
            key = f"{e['rules'][0]}|{e['measure']}"
            out.setdefault(key, "none")
            if e["real"] and table == random_table:
                out[key] = "mechanics"
            elif e["real"] and out[key] == "none":
                out[key] = "response"
    if random_table is None:  # no random play to tell the two apart
        return {k: ("real" if v != "none" else v) for k, v in out.items()}
    return out
