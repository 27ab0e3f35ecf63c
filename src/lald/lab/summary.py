"""The readings' summary: every measurement of every reading at every table, as plain data
(``summary.json``, format ``lald-readings/1``), and the paired differences.

The per-deal measurements are those of :data:`MEASURES`; the positional ones
(:data:`BY_POSITION`) hold one estimate per position, counted from the dealer. Only the
deals a session always has count (tie-break deals are extra, not paired).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..core import Scoring
from .analysis import (
    Difference,
    Est,
    balance,
    histogram,
    holm,
    mean,
    paired_difference,
    rank_utilities,
    ratio,
    uniformity,
    welch_difference,
    wilson,
)
from .measure import COLUMN, FORMAT, SESSION_COLUMN, Plan, Row
from .money import by_position, by_session
from .reading import Reading

#: Per-deal measurements: name -> (section, words). Shares are proportions (Wilson);
#: the rest are means per deal (Student's t).
MEASURES: dict[str, tuple[str, str]] = {
    "turns": ("length", "turns per deal (captures, lie-downs and trails)"),
    "actions": ("length", "actions per deal (turns and claims)"),
    "forced": ("length", "forced turns per deal (only one legal choice)"),
    "forced_share": ("length", "share of turns that were forced"),
    "branching": ("length", "legal choices per turn (the branching factor)"),
    "lie_downs": ("unfolding", "lie-downs per deal"),
    "survivor_last": ("unfolding", "share of deals whose survivor also made the last capture"),
    "residue": ("unfolding", "cards left to the dealer at the end (the residue)"),
    "single": ("rules", "single captures per deal (one card takes one)"),
    "sweep": ("rules", "sweeps per deal (one card takes three)"),
    "pair": ("rules", "pair-on-pair captures per deal"),
    "prial": ("rules", "prial-on-single captures per deal"),
    "hand_set": ("rules", "hand sets per deal (prials and mournivals set aside)"),
    "dead": ("rules", "dead-rank claims per deal"),
    "spotter": ("rules", "spotter claims per deal (cards left on the table taken)"),
    "claims": ("rules", "claims per deal, all kinds"),
    "out_of_turn_share": ("rules", "share of claims made out of turn"),
    "table_mournivals": ("rules", "table mournivals to the dealer per deal"),
    "trails": ("rules", "trails per deal (modern laugh)"),
    "pot_change": ("money", "change of the pot per deal (its drift)"),
}
SHARES = {"survivor_last"}
RATIOS: dict[str, tuple[Callable[[Row], float], Callable[[Row], float]]] = {
    "forced_share": (lambda r: r[COLUMN["forced"]], lambda r: r[COLUMN["decisions"]]),
    "branching": (lambda r: r[COLUMN["choices"]], lambda r: r[COLUMN["decisions"]]),
    "out_of_turn_share": (lambda r: r[COLUMN["out_of_turn"]], lambda r: _claims(r)),
}

#: Measurements with one estimate per position: name -> words.
BY_POSITION: dict[str, str] = {
    "chips": "chips per deal, antes included",
    "cards": "cards won per deal above the quota",
    "win": "deal win rate (the best result of the deal; a tie shares)",
    "survivor": "share of deals survived (the last to hold cards)",
    "last_capture": "share of deals in which this position made the last capture",
    "prize_to": "share of deals in which this position was paid the prize",
    "lie_down": "share of deals in which this position lay down",
    "first_lie_down": "share of deals in which this position lay down first",
}

#: The measurements compared between readings.
COMPARED: tuple[str, ...] = (
    "turns", "actions", "forced", "lie_downs", "survivor_last", "residue", "single", "sweep", "pair",
    "prial", "hand_set", "dead", "spotter", "claims", "table_mournivals", "trails", "pot_change",
)


def _claims(r: Row) -> float:
    return float(r[COLUMN["hand_set"]] + r[COLUMN["dead"]] + r[COLUMN["spotter"]])


def value(r: Row, name: str) -> float:
    """A per-deal measurement of a stored row."""
    if name == "claims":
        return _claims(r)
    if name == "pot_change":
        return float(r[COLUMN["pot_after"]] - r[COLUMN["pot_before"]])
    return float(r[COLUMN[name]])


def _score(r: Row, reading: Reading, p: int) -> float:
    """What decides a deal's winner at position ``p``: chips, or cards under card count."""
    if reading.rules.scoring is Scoring.CARD_COUNT:
        return float(r[COLUMN[f"won_{p}"]])
    return float(r[COLUMN[f"chips_{p}"]])


def regular(rows: Sequence[Row]) -> list[Row]:
    """The rows of the deals every session has (not the tie-break deals), in order."""
    return [r for r in rows if not r[COLUMN["tie_break"]]]


def summarize_deals(reading: Reading, rows: Sequence[Row]) -> dict[str, Any]:
    """Every per-deal and positional measurement of one reading at one table."""
    n, quota = reading.players, reading.rules.quota
    rows = regular(rows)
    out: dict[str, Any] = {"deals": len(rows)}
    if not rows:
        return out
    measures: dict[str, Est] = {}
    for name in MEASURES:
        if name in RATIOS:
            fx, fy = RATIOS[name]
            measures[name] = ratio([fx(r) for r in rows], [fy(r) for r in rows])
        elif name in SHARES:
            measures[name] = wilson(sum(value(r, name) for r in rows), len(rows))
        else:
            measures[name] = mean(value(r, name) for r in rows)
    out["measures"] = {k: v.to_json() for k, v in measures.items()}
    turns = [int(r[COLUMN["turns"]]) for r in rows]
    out["spread"] = {"turns_sd": _sd(turns), "actions_sd": _sd([int(r[COLUMN["actions"]]) for r in rows]),
                     "turns_min": min(turns), "turns_max": max(turns)}
    out["histograms"] = {"turns": histogram(turns),
                         "actions": histogram(int(r[COLUMN["actions"]]) for r in rows),
                         "lie_downs": histogram(int(r[COLUMN["lie_downs"]]) for r in rows)}
    count = len(rows)
    pos: dict[str, list[dict[str, Any]]] = {}
    pos["chips"] = [mean(float(r[COLUMN[f"chips_{p}"]]) for r in rows).to_json() for p in range(n)]
    pos["cards"] = [mean(float(r[COLUMN[f"won_{p}"]] - quota) for r in rows).to_json() for p in range(n)]
    shares = [win_shares_of(r, reading) for r in rows]
    pos["win"] = [mean(s[p] for s in shares).to_json() for p in range(n)]
    for name in ("survivor", "last_capture", "prize_to"):
        pos[name] = [wilson(sum(1 for r in rows if r[COLUMN[name]] == p), count).to_json() for p in range(n)]
    lie = [_order(r) for r in rows]
    pos["lie_down"] = [wilson(sum(1 for o in lie if p in o), count).to_json() for p in range(n)]
    pos["first_lie_down"] = [wilson(sum(1 for o in lie if o and o[0] == p), count).to_json()
                             for p in range(n)]
    out["by_position"] = pos
    out["none"] = {
        "last_capture": wilson(sum(1 for r in rows if r[COLUMN["last_capture"]] is None), count).to_json(),
        "prize_to": wilson(sum(1 for r in rows if r[COLUMN["prize_to"]] is None), count).to_json(),
        "first_lie_down": wilson(sum(1 for o in lie if not o), count).to_json(),
    }
    bal, adv = balance(shares)
    utilities = [rank_utilities([_score(r, reading, p) for p in range(n)]) for r in rows]
    out["fairness"] = {"balance": bal.to_json(), "advantage": [a.to_json() for a in adv],
                       "uniformity": uniformity(utilities).to_json()}
    out["money"] = by_position(reading, rows)
    return out


def win_shares_of(r: Row, reading: Reading) -> list[float]:
    """The positions' shares of the deal's win."""
    from .analysis import win_shares

    return win_shares([_score(r, reading, p) for p in range(reading.players)])


def _order(r: Row) -> list[int]:
    text = r[COLUMN["lie_order"]]
    return [int(x) for x in text.split()] if text else []


def _sd(xs: Sequence[int]) -> float | None:
    if len(xs) < 2:
        return None
    m = math.fsum(xs) / len(xs)
    return float(f"{math.sqrt(math.fsum((x - m) ** 2 for x in xs) / (len(xs) - 1)):.8g}")


def summarize_sessions(reading: Reading, deals: Sequence[Row], sessions: Sequence[Row]) -> dict[str, Any]:
    """The session measurements: the pot deal by deal, how often it goes below zero, its
    drift, session winners by position, shared wins and tie-break deals."""
    n, length = reading.players, reading.rules.deals
    count = len(sessions)
    if not count:
        return {}
    pot_after: list[list[float]] = [[] for _ in range(length)]
    for r in regular(deals):
        pot_after[r[COLUMN["index"]]].append(float(r[COLUMN["pot_after"]]))
    wins = []
    for s in sessions:
        winners = [int(x) for x in s[SESSION_COLUMN["winners"]].split()]
        wins.append([1 / len(winners) if p in winners else 0.0 for p in range(n)])
    bal, adv = balance(wins)
    tie = [float(s[SESSION_COLUMN["tie_break_deals"]]) for s in sessions]
    return {
        "sessions": count,
        "pot_after_deal": [mean(v).to_json() for v in pot_after],
        "below_zero": wilson(sum(1 for s in sessions if s[SESSION_COLUMN["pot_min"]] < 0), count).to_json(),
        "pot_final": mean(float(s[SESSION_COLUMN["pot_final"]]) for s in sessions).to_json(),
        "win": [mean(w[p] for w in wins).to_json() for p in range(n)],
        "balance": bal.to_json(), "advantage": [a.to_json() for a in adv],
        "shared": wilson(sum(s[SESSION_COLUMN["shared"]] for s in sessions), count).to_json(),
        "tie_break_deals": mean(tie).to_json(),
        "tie_break_any": wilson(sum(1 for t in tie if t > 0), count).to_json(),
        "money": by_session(reading, deals, sessions),
    }


def _keyed(rows: Sequence[Row]) -> dict[tuple[int, int], Row]:
    return {(r[COLUMN["unit"]], r[COLUMN["index"]]): r for r in regular(rows)}


def hero_gain(reading: Reading, hero_rows: Sequence[Row], base_rows: Sequence[Row]) -> list[float]:
    """Per deal: what the hero won in its position (chips, or cards above the quota under
    card count) minus what the field's bot won there on the same deal."""
    base = _keyed(base_rows)
    out = []
    card_count = reading.rules.scoring is Scoring.CARD_COUNT
    col = "won" if card_count else "chips"
    for key, r in sorted(_keyed(hero_rows).items()):
        b = base.get(key)
        if b is None:
            continue
        p = r[COLUMN["hero"]]
        out.append(float(r[COLUMN[f"{col}_{p}"]] - b[COLUMN[f"{col}_{p}"]]))
    return out


def summarize_skill(reading: Reading, hero_rows: Sequence[Row], base_rows: Sequence[Row],
                    hero_sessions: Sequence[Row], base_sessions: Sequence[Row]) -> dict[str, Any]:
    """How much the reading rewards the hero's skill: its gain per deal over the field's
    bot in the same seat on the same deals, its deal win rate, and in sessions its
    session win rate, both against the field's bot in that seat."""
    gain = hero_gain(reading, hero_rows, base_rows)
    base = _keyed(base_rows)
    wins = []
    for key, r in sorted(_keyed(hero_rows).items()):
        b = base.get(key)
        if b is not None:
            p = r[COLUMN["hero"]]
            wins.append(win_shares_of(r, reading)[p] - win_shares_of(b, reading)[p])
    out: dict[str, Any] = {
        "metric": "cards" if reading.rules.scoring is Scoring.CARD_COUNT else "chips",
        "gain": mean(gain).to_json(),
        "win_gain": mean(wins).to_json(),
    }
    if hero_sessions:
        bs = {s[SESSION_COLUMN["session"]]: s for s in base_sessions}
        sw = []
        for s in hero_sessions:
            b = bs.get(s[SESSION_COLUMN["session"]])
            if b is None:
                continue
            p = s[SESSION_COLUMN["hero"]]
            hw = [int(x) for x in s[SESSION_COLUMN["winners"]].split()]
            bw = [int(x) for x in b[SESSION_COLUMN["winners"]].split()]
            sw.append((1 / len(hw) if p in hw else 0.0) - (1 / len(bw) if p in bw else 0.0))
        out["session_win_gain"] = mean(sw).to_json()
    return out


def differences(plan: Plan, rows: Mapping[tuple[int, int], Sequence[Row]], table: int,
                base: str | None) -> list[Difference]:
    """Reading against reading at one table, in every compared measure (and the hero's
    gain at a hero table), corrected together by Holm. ``base``: compare every reading
    with this one (None: every pair). Chips, the pot and the gain are compared only
    between readings that score alike (chips, or cards under ``low-stakes``)."""
    readings = plan.readings
    texts = [r.text for r in readings]
    if base is None:
        pairs = [(a, b) for a in range(len(readings)) for b in range(a + 1, len(readings))]
    else:
        bi = texts.index(base)
        pairs = [(a, bi) for a in range(len(readings)) if a != bi]
    t = plan.tables[table]
    base_table = plan.tables.index(t.base) if t.hero is not None else None
    raw: list[Difference] = []
    for a, b in pairs:
        ra, rb = _keyed(rows.get((a, table), [])), _keyed(rows.get((b, table), []))
        if not ra or not rb:
            continue
        same = readings[a].players == readings[b].players
        # money only between readings that score alike: under card count no chips move,
        # and a hero gains cards, not chips
        money = readings[a].rules.scoring is readings[b].rules.scoring
        names: list[tuple[str, Callable[[Row], float] | None]] = [
            (m, None) for m in COMPARED if money or m != "pot_change"]
        na, nb = readings[a].players, readings[b].players
        names += [(f"chips_{p}", None) for p in range(min(na, nb)) if money]
        series: list[tuple[str, list[float], list[float]]] = []
        keys = sorted(ra.keys() & rb.keys()) if same else []
        for name, _ in names:
            if name.startswith("chips_"):
                def f(r: Row, name: str = name) -> float:
                    return float(r[COLUMN[name]])
            else:
                def f(r: Row, name: str = name) -> float:
                    return value(r, name)
            if same:
                series.append((name, [f(ra[k]) for k in keys], [f(rb[k]) for k in keys]))
            else:
                series.append((name, [f(r) for r in ra.values()], [f(r) for r in rb.values()]))
        if base_table is not None and money:
            ga = hero_gain(readings[a], rows.get((a, table), []), rows.get((a, base_table), []))
            gb = hero_gain(readings[b], rows.get((b, table), []), rows.get((b, base_table), []))
            if ga and gb:
                series.append(("gain", ga, gb))
        for name, xs, ys in series:
            if same and len(xs) == len(ys):
                est, p = paired_difference(xs, ys)
            else:
                est, p = welch_difference(xs, ys)
            if math.isnan(p):
                continue
            raw.append(Difference(texts[a], texts[b], name, est, p, same))
    adjusted = holm([d.p for d in raw])
    return [dataclasses.replace(d, p_holm=q) for d, q in zip(raw, adjusted, strict=True)]


def summarize(plan: Plan, deals: int, rows: Mapping[tuple[int, int], Sequence[Row]],
              sessions: Mapping[tuple[int, int], Sequence[Row]], base: str | None) -> dict[str, Any]:
    """The whole summary (format ``lald-readings/1``)."""
    tables = []
    for ti, table in enumerate(plan.tables):
        per_reading = []
        for ri, reading in enumerate(plan.readings):
            entry: dict[str, Any] = {"reading": reading.text, "players": reading.players}
            entry.update(summarize_deals(reading, rows.get((ri, ti), [])))
            if plan.sessions:
                entry["session"] = summarize_sessions(reading, rows.get((ri, ti), []),
                                                      sessions.get((ri, ti), []))
            if table.hero is not None:
                bi = plan.tables.index(table.base)
                entry["skill"] = summarize_skill(reading, rows.get((ri, ti), []), rows.get((ri, bi), []),
                                                 sessions.get((ri, ti), []), sessions.get((ri, bi), []))
            per_reading.append(entry)
        diffs = differences(plan, rows, ti, base)
        tables.append({"table": table.name, "hero": table.hero.text if table.hero else None,
                       "field": table.field.text, "readings": per_reading,
                       "base": base, "differences": [d.to_json() for d in diffs]})
    return {"format": FORMAT, "setup": plan.identity(), "deals": deals, "tables": tables}


POSITION_NAMES = ("dealer", "eldest", "3rd", "4th", "5th")


def position_name(p: int) -> str:
    """Position ``p`` counted from the dealer, in words."""
    return POSITION_NAMES[p] if p < len(POSITION_NAMES) else f"{p + 1}th"
