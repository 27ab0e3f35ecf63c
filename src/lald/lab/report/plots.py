"""The readings report's plots (matplotlib, imported when a report is drawn): intervals per
reading, the length's distribution, the advantage of each position, the pot across a
session and the hero's gain, as PNG figures for :mod:`.report`. Lines use a palette that
colour-blind readers tell apart, and more readings than fit one plot are drawn as small
multiples.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

from ...core import Scoring
from ..reading import parse_reading
from ..summary import position_name

Block = tuple[Any, ...]
"""A block of the report's document: a heading, a paragraph, a table or a figure
(``("img", ...)``, made here)."""


def _figure(fig: Any) -> bytes:
    import warnings

    buf = io.BytesIO()
    with warnings.catch_warnings():  # long legends outside the data: the box below keeps them
        warnings.simplefilter("ignore", UserWarning)
        fig.tight_layout()
    fig.savefig(buf, format="png", dpi=90, metadata={"Software": None}, bbox_inches="tight")
    import matplotlib.pyplot as plt

    plt.close(fig)
    return buf.getvalue()


#: A palette for lines that colour-blind readers tell apart (Okabe and Ito), and the line
#: styles that keep a reading distinct once the colours repeat.
PALETTE = ("#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#000000", "#882255")
LINESTYLES = ("-", "--", ":", "-.")
#: At most this many lines share one plot; more are drawn as small multiples.
MAX_LINES = 6
#: The legends' and tick labels' size in points: readable on a phone, where a plot is
#: shown at its own size in a box that scrolls (about 11 pixels at 90 dots an inch).
LEGEND = 9


def hidden(series: dict[str, list[tuple[float, float]]], share: float = 0.02) -> list[tuple[str, str]]:
    """Pairs of lines of one plot that lie (almost) on one another: the same points, apart
    by at most ``share`` of the plot's height everywhere; the later one is hidden under the
    earlier. The captions say so, for a reader who sees one line where there are two.

    >>> hidden({"a": [(1, 0.0), (2, 5.0)], "b": [(1, 0.05), (2, 5.0)], "c": [(1, 3.0), (2, 1.0)]})
    [('b', 'a')]
    """
    ys = [y for points in series.values() for _, y in points]
    height = (max(ys) - min(ys)) if ys else 0.0
    names = list(series)
    out = []
    for j, b in enumerate(names):
        for a in names[:j]:
            pa, pb = dict(series[a]), dict(series[b])
            if pa.keys() == pb.keys() and all(abs(pa[x] - pb[x]) <= share * height for x in pa):
                out.append((b, a))
                break
    return out


def _said(pairs: Sequence[tuple[str, str]]) -> str:
    """The caption's sentence for lines that lie on one another ('' when there are none).

    >>> _said([("b", "a"), ("c", "a"), ("e", "d")])
    ' Lines that lie on one another, each group showing as one line: a, b and c; d and e.'
    """
    groups: list[list[str]] = []
    for b, a in pairs:
        group = next((g for g in groups if a in g), None)
        if group is None:
            groups.append([a, b])
        elif b not in group:
            group.append(b)
    if not groups:
        return ""
    words = ["{} and {}".format(", ".join(g[:-1]), g[-1]) for g in groups]
    return " Lines that lie on one another, each group showing as one line: " + "; ".join(words) + "."


def line_style(i: int) -> tuple[str, str]:
    """The (colour, line style) of the ``i``-th line of a figure: distinct for 32 lines.

    >>> line_style(0), line_style(8)
    (('#0072B2', '-'), ('#0072B2', '--'))
    """
    return PALETTE[i % len(PALETTE)], LINESTYLES[(i // len(PALETTE)) % len(LINESTYLES)]


def _panels(entries: Sequence[dict[str, Any]]) -> list[list[int]]:
    """The entries' indices split into panels of at most :data:`MAX_LINES`, keeping readings
    with the same number of players together where that fits."""
    if len(entries) <= MAX_LINES:
        return [list(range(len(entries)))]
    groups: dict[int, list[int]] = {}
    for i, e in enumerate(entries):
        groups.setdefault(e["players"], []).append(i)
    out: list[list[int]] = []
    for idx in groups.values():
        parts = -(-len(idx) // MAX_LINES)  # as even as they can be: 8 lines are 4 and 4
        size = -(-len(idx) // parts)
        out += [idx[k:k + size] for k in range(0, len(idx), size)]
    return out


def _same_as(entries: Sequence[dict[str, Any]], key: Any) -> list[str | None]:
    """For each entry, the first earlier reading whose line is the same (else None): its
    line lies exactly under that one's, and the legend says so."""
    seen: dict[str, str] = {}
    out: list[str | None] = []
    for e in entries:
        k = repr(key(e))
        out.append(seen.get(k))
        seen.setdefault(k, e["reading"])
    return out


def _multiples(count: int, height: float = 2.6) -> tuple[Any, list[Any]]:
    import matplotlib.pyplot as plt

    cols = 1 if count == 1 else 2
    rows = (count + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(11 if cols == 2 else 8.5, 0.6 + height * rows),
                             squeeze=False, sharex=True, sharey=True)
    flat = [ax for row in axes for ax in row]
    for ax in flat[count:]:
        ax.set_visible(False)
    return fig, flat[:count]


def figures(table: dict[str, Any], sessions: bool) -> list[Block]:
    """The table's figures: intervals per reading, the length's distribution, position
    advantage, the pot across a session, the hero's gain."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    entries = [e for e in table["readings"] if "measures" in e]
    if not entries:
        return []
    names = [e["reading"] for e in entries]
    ys = list(range(len(entries)))[::-1]
    slug = _slug(table["table"])
    out: list[Block] = []

    keys = [("turns", "turns per deal"), ("lie_downs", "lie-downs per deal"),
            ("residue", "cards left to the dealer"), ("survivor_last", "survivor made the last capture")]
    fig, axes = plt.subplots(1, 4, figsize=(12, 0.9 + 0.32 * len(entries)), sharey=True)
    for ax, (key, label) in zip(axes, keys, strict=True):
        ests = [e["measures"][key] for e in entries]
        means = [x["mean"] for x in ests]
        err = [[x["mean"] - (x["low"] if x["low"] is not None else x["mean"]) for x in ests],
               [(x["high"] if x["high"] is not None else x["mean"]) - x["mean"] for x in ests]]
        ax.errorbar(means, ys, xerr=err, fmt="o", capsize=3, markersize=4, color="tab:blue")
        ax.set_title(label, fontsize=9)
        ax.grid(axis="x", alpha=0.3)
    axes[0].set_yticks(ys, names, fontsize=LEGEND)
    out.append(("img", f"{slug}-intervals", _figure(fig),
                "Four measurements per reading, each point the mean over the deals and each bar its "
                "95% interval: bars that do not overlap mark readings that differ."))

    panels = _panels(entries)
    same = _same_as(entries, lambda e: e["histograms"]["turns"])
    fig, axes = _multiples(len(panels))
    under: list[tuple[str, str]] = []
    for ax, idx in zip(axes, panels, strict=True):
        shares: dict[str, list[tuple[float, float]]] = {}
        for i in idx:
            hist = entries[i]["histograms"]["turns"]
            shares[entries[i]["reading"]] = [(float(k), v / sum(hist.values())) for k, v in hist.items()]
        under += hidden(shares)
        for i in idx:
            e = entries[i]
            hist = e["histograms"]["turns"]
            xs = [int(k) for k in hist]
            total = sum(hist.values())
            colour, style = line_style(i)
            label = e["reading"] + (f" (the same as {same[i]})" if same[i] else "")
            ax.plot(xs, [hist[str(x)] / total for x in xs], drawstyle="steps-mid", linewidth=1.3,
                    color=colour, linestyle=style, label=label)
        ax.set_xlabel("turns in the deal")
        ax.set_ylabel("share of deals")
        ax.legend(fontsize=LEGEND, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
        ax.grid(alpha=0.3)
    out.append(("img", f"{slug}-length", _figure(fig),
                "How long deals are: the share of deals that last each number of turns, one line "
                "per reading (each its own colour and line style; a reading whose line lies exactly "
                "under another's says so in the legend; more than six readings are split into panels)."
                + _said(under)))

    def card_count(e: dict[str, Any]) -> bool:
        return parse_reading(e["reading"]).rules.scoring is Scoring.CARD_COUNT

    units = [(False, "chips per deal, antes included, 95% interval"),
             (True, "cards won above the quota per deal (low-stakes), 95% interval")]
    units = [(c, label) for c, label in units if any(card_count(e) == c for e in entries)]
    counts = [sum(1 for e in entries if card_count(e) == c) for c, _ in units]
    fig, axes = plt.subplots(len(units), 1, figsize=(8, 0.9 * len(units) + 0.32 * len(entries)),
                             squeeze=False, gridspec_kw={"height_ratios": counts})
    width = 0.8 / 5
    for ax, (cards, label) in zip([row[0] for row in axes], units, strict=True):
        part = [e for e in entries if card_count(e) == cards]
        py = list(range(len(part)))[::-1]
        for p in range(5):
            xs, ps, lo, hi = [], [], [], []
            for y, e in zip(py, part, strict=True):
                vals = e["by_position"]["cards" if cards else "chips"]
                if p < len(vals):
                    c = vals[p]
                    xs.append(c["mean"])
                    ps.append(y + (2 - p) * width)
                    lo.append(c["mean"] - (c["low"] if c["low"] is not None else c["mean"]))
                    hi.append((c["high"] if c["high"] is not None else c["mean"]) - c["mean"])
            if xs:
                ax.errorbar(xs, ps, xerr=[lo, hi], fmt="o", markersize=3, capsize=2, color=PALETTE[p],
                            label=position_name(p))
        ax.axvline(0, color="grey", linewidth=0.8, linestyle="--")
        ax.set_yticks(py, [e["reading"] for e in part], fontsize=LEGEND)
        ax.set_xlabel(label)
        ax.legend(fontsize=LEGEND, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
        ax.grid(axis="x", alpha=0.3)
    out.append(("img", f"{slug}-positions", _figure(fig),
                "What each position at the table wins per deal, from the dealer round to the last "
                "hand: points right of the dashed line win on average, left of it lose (chips; the "
                "readings that play for cards, low-stakes, on an axis of their own)."))

    if sessions and any(e.get("session") for e in entries):
        with_pot = [e for e in entries if e.get("session", {}).get("pot_after_deal")]
        panels = _panels(with_pot)
        same = _same_as(with_pot, lambda e: [x["mean"] for x in e["session"]["pot_after_deal"]])
        fig, axes = _multiples(len(panels))
        under = []
        for ax, idx in zip(axes, panels, strict=True):
            pots = {with_pot[i]["reading"]: [(float(k), x["mean"]) for k, x in
                                             enumerate(with_pot[i]["session"]["pot_after_deal"])]
                    for i in idx}
            under += hidden(pots)
            for i in idx:
                e = with_pot[i]
                pots = e["session"]["pot_after_deal"]
                xs = list(range(1, len(pots) + 1))
                colour, style = line_style(i)
                label = e["reading"] + (f" (the same as {same[i]})" if same[i] else "")
                ax.errorbar(xs, [x["mean"] for x in pots], yerr=_bars(pots), marker="o", markersize=3,
                            capsize=2, linewidth=1.2, color=colour, linestyle=style, label=label)
            ax.axhline(0, color="grey", linewidth=0.8, linestyle="--")
            ax.xaxis.set_major_locator(MaxNLocator(integer=True))
            ax.set_xlabel("deal of the session")
            ax.set_ylabel("pot after the deal (chips)")
            ax.legend(fontsize=LEGEND, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
            ax.grid(alpha=0.3)
        out.append(("img", f"{slug}-pot", _figure(fig),
                    "The pot after each deal of a session, on average with its 95% interval: a flat "
                    "line at zero is a pot that balances, a falling line one that runs into debt."
                    + _said(under)))

    if table["hero"] is not None:
        fig, ax = plt.subplots(figsize=(7, 0.9 + 0.32 * len(entries)))
        gains = [e["skill"]["gain"] for e in entries]
        ax.errorbar([g["mean"] for g in gains], ys,
                    xerr=[[g["mean"] - (g["low"] if g["low"] is not None else g["mean"]) for g in gains],
                          [(g["high"] if g["high"] is not None else g["mean"]) - g["mean"] for g in gains]],
                    fmt="o", capsize=3, color="tab:green")
        ax.axvline(0, color="grey", linewidth=0.8, linestyle="--")
        ax.set_yticks(ys, names, fontsize=LEGEND)
        ax.set_xlabel(f"{table['hero']}'s gain per deal over {table['field']} in its seat")
        ax.grid(axis="x", alpha=0.3)
        out.append(("img", f"{slug}-skill", _figure(fig),
                    f"How much each reading rewards skill: what {table['hero']} wins per deal more than "
                    f"{table['field']} would in the same seat on the same cards (chips; cards "
                    "under low-stakes)."))
    return out


def _bars(ests: Sequence[dict[str, Any]]) -> list[list[float]]:
    """Error bar lengths below and above each estimate (none where it has no interval)."""
    return [[e["mean"] - (e["low"] if e["low"] is not None else e["mean"]) for e in ests],
            [(e["high"] if e["high"] is not None else e["mean"]) - e["mean"] for e in ests]]


def _slug(text: str) -> str:
    return "".join(c if c.isalnum() else "-" for c in text).strip("-")
