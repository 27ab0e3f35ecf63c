"""How much of the oracle's edge a bot gains, one seat against four heuristic seats.

Each run is a finished (or running) ``lald tournament --out DIR`` of one bot against four
seats of the heuristic, all on the same deals (the same ``--seed`` and ``--deals``), the
oracle's run first:

    H=heuristic,heuristic,heuristic,heuristic
    lald tournament --preset P --bots oracle,$H --deals 2000 --jobs 1 --out runs/oracle
    lald tournament --preset P --bots expert,$H --deals 2000 --jobs 1 --out runs/expert
    .venv/bin/python experiments/reading_share.py runs/oracle runs/expert

For every deal group it takes the first bot's chips less the heuristic seats' mean (over
the group's rotations), so the deals common to all runs are paired across them; it
prints each bot's gain over the heuristic, then each later bot's share of the oracle's
gain with a 95% interval (the delta method over the paired groups: the share ``R`` of
means ``a / b`` has the standard error of ``a - R b``, divided by ``b``) and the oracle's
lead over it.  Development only.
"""

from __future__ import annotations

import argparse
import json
import statistics
from pathlib import Path

from lald.core import Rules
from lald.play.spec import parse_specs
from lald.tournament.duplicate import Tournament


def gains(directory: Path) -> tuple[str, dict[int, float]]:
    """The first bot's name, and per deal group its chips less the other seats' mean."""
    ident = json.loads((directory / "tournament.json").read_text())
    r = ident["rules"]
    t = Tournament(Rules.make(r["preset"], r["players"], tuple(r["variants"]), r["options"]),
                   tuple(parse_specs([], [",".join(ident["bots"])])), ident["seed"], ident["timeout"])
    out: dict[int, float] = {}
    for line in (directory / "deals.jsonl").read_text().splitlines():
        try:
            group = json.loads(line)
        except ValueError:
            continue  # a line cut short by a stop
        diffs = []
        for lineup, rotation in zip(t.lineups(group["group"]), group["rotations"], strict=True):
            chips = rotation["chips"]
            mine = [c for s, c in enumerate(chips) if lineup[s] == 0]
            theirs = [c for s, c in enumerate(chips) if lineup[s] != 0]
            diffs.append(statistics.fmean(mine) - statistics.fmean(theirs))
        out[group["group"]] = statistics.fmean(diffs)
    return ident["bots"][0], out


def half_width(xs: list[float]) -> float:
    """The half-width of a 95% interval of the mean of ``xs``."""
    return float(1.96 * statistics.stdev(xs) / len(xs) ** 0.5)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("runs", nargs="+", type=Path, help="tournament directories, the oracle's first")
    args = p.parse_args()
    try:
        runs = [gains(d) for d in args.runs]
    except (OSError, ValueError, KeyError) as e:
        raise SystemExit(f"reading_share: not a tournament's directory ({e})") from None
    common = sorted(set.intersection(*(set(g) for _, g in runs)))
    if len(common) < 2:
        raise SystemExit("reading_share: the runs have fewer than two deal groups in common")
    print(f"{len(common)} deal groups in common")
    for name, g in runs:
        xs = [g[i] for i in common]
        print(f"  {name} − heuristic: {statistics.fmean(xs):+.3f} ± {half_width(xs):.3f}")
    oracle_name, oracle = runs[0]
    b = [oracle[i] for i in common]
    mb = statistics.fmean(b)
    for name, g in runs[1:]:
        a = [g[i] for i in common]
        share = statistics.fmean(a) / mb
        z = [x - share * y for x, y in zip(a, b, strict=True)]
        lead = [y - x for x, y in zip(a, b, strict=True)]
        spread = 100 * half_width(z) / abs(mb)
        print(f"  {name}'s share of {oracle_name}'s gain: {100 * share:.0f}% ± {spread:.0f}%;"
              f" {oracle_name} − {name}: {statistics.fmean(lead):+.3f} ± {half_width(lead):.3f}")


if __name__ == "__main__":
    main()
