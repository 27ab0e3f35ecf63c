"""The report's document: what each reading is, the tables, the findings and the plots,
built once as a list of blocks (headings, paragraphs, tables, figures) that
:mod:`.page` writes as HTML and as Markdown."""

from __future__ import annotations

import platform
from collections.abc import Sequence
from typing import Any

from ...core import Scoring
from ..reading import describe, parse_reading
from ..sources import references, shared, source_items
from ..summary import BY_POSITION, MEASURES, SHARES, position_name
from .plots import Block, figures

_PCT = SHARES | {"forced_share", "out_of_turn_share"}


def cell(est: dict[str, Any] | None, pct: bool = False, signed: bool = False) -> str:
    """An estimate as text: ``mean [low, high]``."""
    if not est or est.get("mean") is None:
        return "–"
    m, lo, hi = est["mean"], est.get("low"), est.get("high")
    if pct:
        f = "{:+.1%}" if signed else "{:.1%}"
    else:
        size = max(abs(v) for v in (m, lo or 0, hi or 0))
        f = "{:+.2f}" if signed else ("{:.2f}" if size < 100 else "{:.1f}")
    text = f.format(m)
    if lo is None or hi is None:
        return text
    return f"{text} [{f.format(lo)}, {f.format(hi)}]"


# -- the document -----------------------------------------------------------------------


def _measure_table(entries: Sequence[dict[str, Any]], names: Sequence[str]) -> Block:
    heads = ["reading", *(MEASURES[n][1] for n in names)]
    rows = [[e["reading"], *(cell(e["measures"][n], pct=n in _PCT) for n in names)] for e in entries]
    return ("table", heads, rows)


def _position_table(entries: Sequence[dict[str, Any]], key: str, none: str | None = None,
                    signed: bool = False) -> Block:
    n = max(e["players"] for e in entries)
    heads = ["reading", *(position_name(p) for p in range(n))] + ([none] if none else [])
    rows = []
    for e in entries:
        vals = e["by_position"][key]
        pct = key != "chips" and key != "cards"
        row = [e["reading"], *(cell(vals[p], pct=pct, signed=signed) if p < len(vals) else ""
                               for p in range(n))]
        if none:
            row.append(cell(e["none"][key], pct=True))
        rows.append(row)
    return ("table", heads, rows)


def build(summary: dict[str, Any], run: dict[str, Any]) -> list[Block]:
    """The report as blocks."""
    setup = summary["setup"]
    sessions = setup["unit"] == "session"
    b: list[Block] = [("h", 1, "What each reading does to Laugh and Lie Down")]
    b.append(("p", f"The same {summary['deals']:,} deals were played under each reading "
                   f"({'whole sessions' if sessions else 'single deals, the deal passing to the left'}), "
                   "with the same cards in the same seats for readings with the same number of players "
                   "and the same bots, so the differences below come from the rules, not from the luck "
                   "of the cards: from the rules' mechanics and from how the bots answer them. A "
                   "difference between two readings does not say which of the rules in which they "
                   "differ makes it, nor whether it would appear under random play; `lald readings "
                   "--decompose A B --bots random --bots heuristic` measures what each rule "
                   "contributes. Every figure is a mean over the deals with its 95% interval in brackets."))
    b.append(("p", f"Command: `{run.get('command', 'lald readings')}`. Seed {setup['seed']}; bots "
                   f"{', '.join(setup['tables'])} (versions: "
                   f"{', '.join(f'{k} {v}' for k, v in setup['versions'].items())}). "
                   + (f"Commit {run['commit']}. " if run.get("commit") else "")
                   + f"Machine: {run.get('machine', platform.platform())}. "
                   + _took(run)
                   + (f" {run['note']}" if run.get("note") else "")))
    b.append(("h", 2, "The readings"))
    for text in setup["readings"]:
        reading = parse_reading(text)
        b.append(("h", 3, text))
        b.append(("p", " ".join(describe(reading.rules))))
        head, items = source_items(reading.rules, every=False)
        b.append(("p", "Source: " + head + " Where each of its rules comes from (the rules all four "
                       "texts give are listed once, under Sources):"))
        b.append(("list", items))
    b.append(("h", 3, "Sources"))
    b.append(("p", "Every reading plays these rules as all four texts give them:"))
    b.append(("list", shared()))
    b.append(("p", "The texts and works cited, as far as they are known (\"not known\" where they "
                   "do not say); docs/rules.md section 14 traces every value of every option:"))
    b.append(("list", references()))
    if summary.get("decomposition"):
        b.extend(_contributions(summary["decomposition"]))
    if summary.get("sweep"):
        b.extend(_sweep_blocks(summary["sweep"]))
    for table in summary["tables"]:
        entries = [e for e in table["readings"] if "measures" in e]
        if not entries:
            continue
        b.append(("h", 2, f"Tables of {table['table']} ({entries[0]['deals']:,} deals per reading)"))
        b.extend(_findings(table))
        b.append(("h", 3, "Length"))
        b.append(_measure_table(entries, ["turns", "actions", "forced", "forced_share", "branching"]))
        b.append(("p", "Spread of the length (standard deviation of turns per deal): "
                       + "; ".join(f"{e['reading']} {e['spread']['turns_sd']:.2f}" for e in entries) + "."))
        b.append(("h", 3, "How the deal unfolds"))
        b.append(_measure_table(entries, ["lie_downs", "survivor_last", "residue"]))
        b.append(("p", "Who survives (is the last to hold cards), by position counted from the dealer:"))
        b.append(_position_table(entries, "survivor"))
        b.append(("p", "Who makes the last capture:"))
        b.append(_position_table(entries, "last_capture", none="no capture"))
        b.append(("p", "Who lies down first:"))
        b.append(_position_table(entries, "first_lie_down", none="nobody"))
        b.append(("h", 3, "How often each rule acts"))
        b.append(_measure_table(entries, ["single", "sweep", "pair", "prial"]))
        b.append(_measure_table(entries, ["hand_set", "dead", "spotter", "out_of_turn_share",
                                          "table_mournivals", "trails"]))
        b.append(("h", 3, "Money"))
        b.append(("p", "Chips per deal by position, antes included (all zero under low-stakes, "
                       "where no chips move):"))
        b.append(_position_table(entries, "chips", signed=True))
        b.append(("p", "Cards won above the quota by position:"))
        b.append(_position_table(entries, "cards", signed=True))
        b.append(("p", "Who is paid the prize:"))
        b.append(_position_table(entries, "prize_to", none="nobody"))
        b.extend(_money_blocks(entries, table))
        b.append(_measure_table(entries, ["pot_change"]))
        if sessions:
            b.extend(_session_blocks(entries))
        b.append(("h", 3, "Fairness"))
        b.append(("p", "In the terms of the Ludii game-analysis system: balance is 1 minus the "
                       "largest gap between two positions' win rates (1 is perfectly even); outcome "
                       "uniformity is 1 minus the positions' mean variance of their rank in the deal "
                       "(first 1, last −1); a position's advantage is its deal win rate minus an "
                       "equal share. These count deal wins, not money: the deal's winner is most often "
                       "the player paid the prize, so a reading that moves the prize moves the balance "
                       "even where each position's chips barely change (see where the chips come "
                       f"from, above). They hold {players(table)}."))
        rows = [[e["reading"], cell(e["fairness"]["balance"]), cell(e["fairness"]["uniformity"])]
                + [cell(a, pct=True) for a in e["fairness"]["advantage"]] for e in entries]
        n = max(e["players"] for e in entries)
        b.append(("table", ["reading", "balance", "outcome uniformity",
                            *(f"advantage: {position_name(p)}" for p in range(n))], rows))
        if table["hero"] is not None:
            b.append(("h", 3, "Skill"))
            b.append(("p", f"One {table['hero']} among {table['field']}: its seat moves round the "
                           f"table from deal to deal, and the same deals are played by {table['field']} "
                           "alone, so its gain is what it wins more than the weaker bot would in the "
                           "same seat with the same cards."))
            rows = [[e["reading"], e["skill"]["metric"], cell(e["skill"]["gain"], signed=True),
                     cell(e["skill"]["win_gain"], pct=True)]
                    + ([cell(e["skill"].get("session_win_gain"), pct=True)] if sessions else [])
                    for e in entries]
            b.append(("table", ["reading", "metric", "gain per deal", "deal win rate gained",
                                *(["session win rate gained"] if sessions else [])], rows))
        b.extend(figures(table, sessions))
        b.extend(_difference_blocks(table))
    b.extend(_definitions())
    return b


_GROUPS = (("length and how the deal unfolds",
            ("turns", "lie_downs", "residue", "survivor_last", "sweep", "spotter")),
           ("money and fairness", ("chips_0", "chips_1", "win_0", "win_1")))


def _change_name(kind: str, rules: Sequence[str], d: dict[str, Any]) -> str:
    if kind == "total":
        return f"all rules: {d['target']} − {d['base']}"
    if kind == "remainder":
        return "all interactions (total − sum of single rules)"
    if kind == "interaction":
        return f"interaction of {rules[0]} and {rules[1]}"
    rule = next(r for r in d["rules"] if r["rule"] == rules[0])
    return f"{rule['rule']} alone ({rule['from']} → {rule['to']})"


def _contributions(d: dict[str, Any]) -> list[Block]:
    """The decomposition: what each rule contributes, mechanics or the bots' response."""
    from ..decompose import MEASURED

    out: list[Block] = [("h", 2, "What each rule contributes")]
    rules = "; ".join(f"{r['rule']} ({r['from']} → {r['to']}, played as `{r['reading']}`)"
                      for r in d["rules"])
    out.append(("p", f"{d['target']} differs from {d['base']} in {len(d['rules'])} rule(s): {rules}. "
                     f"Each was changed alone from {d['base']} and played on the same deals"
                     + (f", and each pair of them together ({len(d['pairs'])} pairs)" if d["pairs"] else
                        "" if len(d["rules"]) < 3 else ", pairs not played (too many rules differ)")
                     + ". A rule's contribution is its reading minus "
                     f"{d['base']}, deal by deal; a pair's interaction is what the pair does beyond the "
                     "two rules' own contributions; the remainder is what all the rules do together "
                     "beyond the sum of their contributions. Each figure is a paired difference per "
                     "deal with its 95% interval; * marks those real after Holm's correction over all "
                     "the decomposition's figures at that table."
                     + (f" Left out: {', '.join(d['left_out'])}, which act only in whole sessions "
                        "and change nothing in a single deal." if d["left_out"] else "")))
    random_table = d.get("random_table")
    out.append(("p", "Mechanics or the bots' response: a contribution that is real under random play "
                     "is the rule's mechanics (it acts whatever the players want, and random players' "
                     "mistakes included: a rule that only catches mistakes is mechanics here and nothing "
                     "between competent bots); one that is real only "
                     "when skilled bots play is the bots' strategic response (the rule changes what is "
                     "worth doing, and competent players answer it), so it depends on those bots."
                     + ("" if random_table else " No table of random bots was played, so the two "
                        "cannot be told apart here (add --bots random).")))
    for table, entries in d["tables"].items():
        index = {(e["kind"], tuple(e["rules"]), e["measure"]): e for e in entries}
        changes: list[tuple[str, tuple[str, ...]]] = [("total", ())]
        changes += [("rule", (r["rule"],)) for r in d["rules"]]
        inter = [tuple(p["rules"]) for p in d["pairs"]]
        real_inter = [k for k in inter if any(index.get(("interaction", k, m), {}).get("real")
                                              for m in MEASURED)]
        changes += [("interaction", k) for k in real_inter]
        if len(d["rules"]) > 1:
            changes.append(("remainder", ()))
        out.append(("h", 3, f"{table}"))
        if inter:
            out.append(("p", f"{len(real_inter)} of {len(inter)} pair interactions are real in some "
                             "measurement at this table; only those have a row (summary.json holds all)."))
        for title, group in _GROUPS:
            names = [n for n in group if any(m == n for _, _, m in index)]
            heads = ["change", *(MEASURED[n] for n in names)]
            rows = []
            for kind, key in changes:
                row = [_change_name(kind, key, d)]
                for n in names:
                    e = index.get((kind, key, n))
                    row.append("–" if e is None else
                               cell(e, pct=n.startswith("win_") or n in _PCT, signed=True)
                               + (" *" if e["real"] else ""))
                rows.append(row)
            out.append(("p", f"{table}: {title}, per deal:"))
            out.append(("table", heads, rows))
    verdict = d.get("verdict", {})
    lines = []
    for r in d["rules"]:
        mech = [MEASURED[k.split("|")[1]] for k, v in verdict.items() if k.startswith(r["rule"] + "|")
                and v == "mechanics"]
        resp = [MEASURED[k.split("|")[1]] for k, v in verdict.items() if k.startswith(r["rule"] + "|")
                and v in ("response", "real")]
        word = "bots' response" if random_table else "real (no random table)"
        where = [f"{MEASURED[k.split('|')[1]]} {_and_words([_between(t) for t in ts])}"
                 for k, ts in d.get("real_at", {}).items() if k.startswith(r["rule"] + "|") and ts]
        lines.append(f"{r['rule']} ({r['from']} → {r['to']}): mechanics in "
                     + (", ".join(mech) or "nothing measured")
                     + f"; {word} in " + (", ".join(resp) or "nothing measured") + "."
                     + (" Real: " + "; ".join(where) + "." if where else ""))
    out.append(("p", "Rule by rule (from the tables above), with the players between whom each "
                     "contribution is real:"))
    out.append(("list", lines))
    return out


def _between(table: str) -> str:
    """A table of one level, as the players it holds for: ``between heuristic bots``."""
    return players({"table": table, "hero": None})


def _and_words(words: Sequence[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def players(table: dict[str, Any]) -> str:
    """For which players a table's figures hold, in words.

    >>> players({"table": "random", "hero": None, "field": "random"})
    'between random players'
    >>> players({"table": "expert among heuristic", "hero": "expert", "field": "heuristic"})
    'with one expert bot among heuristic bots'
    """
    def who(level: str) -> str:
        return "random players" if level == "random" else f"{level} bots"

    if table.get("hero") is not None:
        return f"with one {who(table['hero'])[:-1]} among {who(table['field'])}"
    return f"between {who(table['table'])}" if table.get("table") else "between these bots"


def _chips(entry: dict[str, Any]) -> bool:
    """Whether the entry's reading plays for chips (not low-stakes' cards)."""
    return parse_reading(entry["reading"]).rules.scoring is Scoring.CHIPS


def _money_blocks(entries: Sequence[dict[str, Any]], table: dict[str, Any]) -> list[Block]:
    """Each position's chips per deal split into the prize, the pairs won by play, the
    dealer's residue and the ante (readings that play for chips)."""
    from ..money import PARTS

    chips = [e for e in entries if "money" in e and _chips(e)]
    if not chips:
        return []
    rows = []
    for e in chips:
        for p in range(e["players"]):
            rows.append([e["reading"], position_name(p), cell(e["by_position"]["chips"][p], signed=True),
                         *(cell(e["money"][k][p], signed=True) for k in PARTS)])
    return [("p", "Where each position's chips come from, per deal, " + players(table) + ": the prize, "
                  "the pairs it won by play, the residue (the cards left to the dealer at the end, "
                  "which count among the dealer's pairs) and its ante; the four add up to its chips. "
                  "A seat's edge in money is here, not in how often it wins the deal."),
            ("table", ["reading", "position", "chips", *PARTS.values()], rows)]


def _sweep_blocks(sweep: dict[str, Any]) -> list[Block]:
    """The sweep: the dealer's edge at each value of one option, where it vanishes, and its plot."""
    from ..sweep import figure

    name = sweep["option"]
    out: list[Block] = [("h", 2, f"The dealer's edge across {name}")]
    out.append(("p", f"Each reading was played at every value of {name} from {sweep['values'][0]} to "
                     f"{sweep['values'][-1]} on the same deals. The dealer's edge is the dealer's chips per "
                     "deal minus the mean of the other positions' chips, antes included; it vanishes "
                     "where its 95% interval covers zero."))
    for table, lines in sweep["tables"].items():
        rows = [[str(v), *(cell(line["points"][k]["edge"], signed=True) for line in lines)]
                for k, v in enumerate(sweep["values"])]
        out.append(("p", f"The dealer's edge per deal {_between(table)}:"))
        out.append(("table", [name, *(line["reading"] for line in lines)], rows))
        said = []
        for line in lines:
            cross = line["crossing"]
            said.append(f"{line['reading']}: the interval covers zero at "
                        + (", ".join(map(str, line["covers_zero"])) or "no value")
                        + "; the mean crosses zero "
                        + (f"at {name} {cross:g}" if cross is not None else "nowhere in the range") + ".")
        out.append(("list", said))
    out.extend(figure(sweep))
    return out


def _session_blocks(entries: Sequence[dict[str, Any]]) -> list[Block]:
    out: list[Block] = [("h", 3, "Sessions")]
    rows = []
    for e in entries:
        s = e.get("session") or {}
        if not s:
            continue
        rows.append([e["reading"], str(s["sessions"]), cell(s["below_zero"], pct=True),
                     cell(s["pot_final"], signed=True), cell(s["shared"], pct=True),
                     cell(s["tie_break_deals"]), cell(s["tie_break_any"], pct=True), cell(s["balance"])])
    out.append(("table", ["reading", "sessions", "pot goes below zero", "pot at the end", "shared wins",
                          "tie-break deals", "sessions with a tie-break", "session balance"], rows))
    n = max(e["players"] for e in entries)
    rows = [[e["reading"], *(cell(w, pct=True) for w in e["session"]["win"])] + [""] * (n - e["players"])
            for e in entries if e.get("session")]
    out.append(("p", "Session wins by position counted from the first dealer (a shared win counts "
                     "as a share):"))
    out.append(("table", ["reading", *(position_name(p) for p in range(n))], rows))
    rows = []
    for e in entries:
        if not e.get("session", {}).get("money") or not _chips(e):
            continue
        for stop in e["session"]["money"]:
            after = "whole session" if stop["deals"] == "whole" else f"after {stop['deals']}"
            rows.append([e["reading"], after, *(cell(c, signed=True) for c in stop["chips"]),
                         *([""] * (n - e["players"])), cell(stop["residue"][0], signed=True)])
    if rows:
        out.append(("p", "A session stopped early: each seat's chips after the first deals of a session, "
                         "counted from the first dealer (who deals the first deal, the next seat the "
                         "second, ...), and over the whole session with its tie-break deals, where "
                         "every seat has dealt once; the last column is the first dealer's chips from "
                         "residues. summary.json splits every seat's chips as above."))
        seats = ["first dealer", *(f"{position_name(p)} seat" for p in range(2, n))]
        seats.insert(1, "2nd seat")
        out.append(("table", ["reading", "deals played", *seats[:n],
                              "first dealer's residue"], rows))
    return out


_WORDS = {"turns": "turns", "lie_downs": "lie-downs", "residue": "cards left to the dealer",
          "survivor_last": "deals whose survivor made the last capture", "sweep": "sweeps",
          "spotter": "spotter claims", "hand_set": "hand sets", "dead": "dead-rank claims",
          "pair": "pair captures", "prial": "prial captures", "trails": "trails",
          "pot_change": "pot change per deal", "gain": "the stronger bot's gain",
          "chips_0": "the dealer's chips", "chips_1": "the eldest hand's chips"}


def _words(measure: str) -> str:
    """A compared measurement in words, whichever it is."""
    if measure in _WORDS:
        return _WORDS[measure]
    if measure.startswith("chips_"):
        return f"the {position_name(int(measure[6:]))} hand's chips"
    if measure in MEASURES:
        return MEASURES[measure][1]
    return measure


def _findings(table: dict[str, Any]) -> list[Block]:
    """Sentences for every real difference between readings with the same number of
    players (paired: the same deals), in the order of the full table; the real differences
    across player counts (Welch: other deals, and a table of another size, not one rule)
    are counted and left to the full table, and the sentence says so."""
    if not table["differences"]:
        return []
    real = [d for d in table["differences"] if d["real"] and d["paired"]]
    across = [d for d in table["differences"] if d["real"] and not d["paired"]]
    against = f"against {table['base']}" if table["base"] else "between each pair of readings"
    out: list[Block] = []
    if not real:
        out.append(("p", f"No paired difference {against} survives the correction for the number "
                         f"of comparisons {players(table)}."))
    else:
        lines = []
        by_pair: dict[tuple[str, str], list[dict[str, Any]]] = {}
        for d in real:
            by_pair.setdefault((d["a"], d["b"]), []).append(d)
        for (a, b), ds in by_pair.items():
            parts = [f"{_words(d['measure'])} {cell(d, pct=d['measure'] in _PCT, signed=True)}" for d in ds]
            lines.append(f"{a} against {b}: " + "; ".join(parts) + ".")
        out += [("p", f"What is real {players(table)}: every paired difference (the same deals "
                      f"under both readings) {against} that survives Holm's correction, per deal, "
                      "in every measurement compared:"), ("list", lines)]
    if across:
        out.append(("p", f"{len(across)} real difference(s) between readings with different numbers of "
                         "players are not listed here: they compare tables of another size on other deals "
                         "(Welch's unpaired test), not a rule changed on the same deals; the table of "
                         "differences below has them, marked Welch."))
    return out


def _took(run: dict[str, Any]) -> str:
    """The run's time, and the play's in all when it resumed saved results.

    >>> _took({"seconds": 600, "jobs": 2, "cpu": 1080})
    'It took 10.0 minutes on 2 process worker(s), the workers using 18.0 processor-minutes.'
    >>> _took({"seconds": 30, "jobs": 2, "cpu": 0, "cpu_total": 4000, "resumed": True})[44:]
    'resuming saved results: their play took 66.7 processor-minutes in all.'
    """
    if not run.get("seconds"):
        return ""
    text = (f"It took {run['seconds'] / 60:.1f} minutes on {run.get('jobs', 1)} "
            f"{run.get('backend', 'process')} worker(s)")
    cpu = run.get("cpu", 0.0)
    if run.get("resumed"):
        return text + (f", resuming saved results: their play took {run.get('cpu_total', cpu) / 60:.1f} "
                       "processor-minutes in all.")
    return text + (f", the workers using {cpu / 60:.1f} processor-minutes." if cpu else ".")


def _difference_blocks(table: dict[str, Any]) -> list[Block]:
    diffs = table["differences"]
    if not diffs:
        return []
    out: list[Block] = [("h", 3, "Differences between readings")]
    real = [d for d in diffs if d["real"]]
    out.append(("p", f"{len(real)} of {len(diffs)} differences are real after Holm's correction for "
                     f"{len(diffs)} comparisons. Paired: the same deals in both readings; unpaired (Welch): "
                     "readings with different numbers of players, which share no cards. Chips, the pot "
                     "and the hero's gain are compared only between readings that score alike: under "
                     "low-stakes no chips move, and the hero gains cards."))
    rows = [[d["a"], d["b"], f"{_words(d['measure'])} (`{d['measure']}`)", cell(d, signed=True),
             p_text(d["p_holm"]),
             "paired" if d["paired"] else "Welch"] for d in real]
    if rows:
        heads = ["reading", "against", "measure", "difference per deal", "Holm p", "kind"]
        out.append(("table", heads, rows))
    return out


#: Below it a p-value is shown as a bound: the paired t's tail is computed as one minus the
#: probability within, exact to about 1e-16, so a printed "4.7e-15" was the arithmetic's floor.
P_FLOOR = 1e-12


def p_text(p: float) -> str:
    """A p-value for people: two figures, or ``< 1e-12`` below what is computed exactly.

    >>> p_text(0.0312), p_text(4.7e-15), p_text(0.0)
    ('0.031', '< 1e-12', '< 1e-12')
    """
    return f"< {P_FLOOR:g}" if p < P_FLOOR else f"{p:.2g}"


def _definitions() -> list[Block]:
    items = [f"{name}: {words}" for name, (_, words) in MEASURES.items()]
    items += [f"by position, {name}: {words}" for name, words in BY_POSITION.items()]
    return [("h", 2, "What the measurements mean"),
            ("p", "Positions are counted from the dealer clockwise: the dealer, the eldest hand (who "
                  "moves first), and so on. A turn is a capture, a lie-down or a trail; claims are not "
                  "turns. Only the deals every session has are counted (tie-break deals are extra). "
                  "Intervals: Student's t for means, Wilson's for shares, the delta method for ratios; "
                  "differences: paired t on the same deals, Welch's otherwise; p-values corrected by "
                  "Holm's method within each table, and shown as < 1e-12 below that (they are not "
                  "computed exactly beyond)."),
            ("list", items)]
