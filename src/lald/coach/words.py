"""A review (:mod:`lald.coach.review`) in words and as JSON, in any catalog language.

Every sentence comes from the catalogs (``src/lald/i18n/*.json``, the ``review_*`` keys),
so the terminal and the browser can show a review in English, German, Portuguese or
Spanish.  Numbers keep one decimal, written with the catalog's decimal sign
(``review_decimal``); shares are whole percentages.

>>> from lald.core import Capture, parse_cards
>>> from lald.i18n import Catalog
>>> move_text(Capture(1, parse_cards("9D"), parse_cards("9H")), Catalog("en"))
'9♦ takes 9♥'
>>> number(-0.25, Catalog("de")), number(1.04, Catalog("en"))
('-0,2', '+1.0')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..core import Action, Capture, CaptureKind, Card, Claim, LieDown, Rules, Scoring, Trail
from ..i18n import Catalog
from .review import FORMAT, Decision, Estimate, Review, Verdict

_CAPTURE_KEYS = {CaptureKind.SINGLE: "single", CaptureKind.SWEEP: "sweep",
                 CaptureKind.PAIR: "pair", CaptureKind.PRIAL: "prial"}


def glyphs(cards: Sequence[Card]) -> str:
    """Cards for people: ``Q♠ 10♥``."""
    return " ".join(c.glyph for c in cards)


def number(value: float, catalog: Catalog, sign: bool = True) -> str:
    """``value`` with one decimal and the catalog's decimal sign (``+`` shown unless
    ``sign`` is off)."""
    text = f"{value:+.1f}" if sign else f"{value:.1f}"
    if text in ("+0.0", "-0.0"):
        text = "0.0" if not sign else "+0.0"
    return text.replace(".", catalog.t("review_decimal"))


def seat_names(players: int, seat: int, catalog: Catalog, names: Sequence[str] | None = None) -> list[str]:
    """The names to use in sentences: ``names`` (default: the catalog's seat names)."""
    if names is not None:
        return list(names)
    return [catalog.t("seat_name", seat=s) for s in range(players)]


def move_text(action: Action | None, catalog: Catalog) -> str:
    """A choice as a short label: ``9♦ takes 9♥``, ``claim 7♠ 7♥``, ``let the claims pass``."""
    t = catalog.t
    if action is None:
        return t("review_move_pass")
    if isinstance(action, Capture):
        kind = action.kind or CaptureKind.SINGLE
        return t(f"review_move_{_CAPTURE_KEYS[kind]}", play=glyphs(action.play), take=glyphs(action.take))
    if isinstance(action, Claim):
        return t("review_move_claim", cards=glyphs(action.cards))
    if isinstance(action, Trail):
        return t("review_move_trail", card=action.card.glyph)
    assert isinstance(action, LieDown)
    return t("review_move_lie_down")


def _phrase(action: Action | None, catalog: Catalog, form: str) -> str:
    """The move made (``form`` ``did``) or another choice (``alt``) as part of a sentence."""
    t = catalog.t
    if action is None:
        return t(f"review_{form}_pass")
    if isinstance(action, Capture):
        return t(f"review_{form}_capture", play=glyphs(action.play), take=glyphs(action.take))
    if isinstance(action, Claim):
        return t(f"review_{form}_claim", cards=glyphs(action.cards))
    if isinstance(action, Trail):
        return t(f"review_{form}_trail", card=action.card.glyph)
    return t(f"review_{form}_lie_down")


def reason_text(decision: Decision, catalog: Catalog, names: Sequence[str] | None = None) -> str | None:
    """Why the best choice beat the move made, in one sentence (None if it was the best).

    ``names`` names the seats (default: the catalog's seat names)."""
    why = decision.reason
    if why is None:
        return None
    values: dict[str, Any] = {"did": _phrase(decision.made, catalog, "did"),
                              "alt": _phrase(decision.best, catalog, "alt")}
    for name, value in why.args:
        if name == "seat":
            assert isinstance(value, int)
            value = catalog.t("seat_name", seat=value) if names is None else names[value]
        elif isinstance(value, float):
            value = number(value, catalog, sign=False)
        values[name] = value
    return _sentence(catalog.t(why.key, **values))


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:]


def verdict_text(verdict: Verdict, catalog: Catalog) -> str:
    """The verdict's word."""
    return catalog.t(f"review_verdict_{verdict.value}")


def preset_text(preset: str, catalog: Catalog) -> str:
    """A preset's name in words (``review_preset_*``), never its identifier.

    >>> preset_text("last-capture", Catalog("en"))
    'last capture (the prize to the last capture)'
    """
    return catalog.t("review_preset_" + preset.replace("-", "_"))


def rules_text(rules: Rules, catalog: Catalog) -> str:
    """The rules reviewed, in words: the preset's (with its prize, where chips are played
    for), then each variant's.

    >>> rules_text(Rules.make("survivor", variants=["low-stakes"]), Catalog("en"))
    'survivor, low stakes (count cards, no chips)'
    """
    key = "review_preset_" + rules.preset.replace("-", "_")
    # no chips and no prize under card count: the preset's name alone
    words = [catalog.t(key + "_name" if rules.scoring is Scoring.CARD_COUNT else key)]
    words += [catalog.t("variant_" + v.replace("-", "_")) for v in rules.variants]
    return ", ".join(words)


def move_number(decision: Decision) -> int:
    """The decision's number as a person counts the deal's moves, from 1: the move made
    at a turn (or the move a claim window came before) is the deal's move of that number,
    as the replay viewer numbers its steps."""
    return decision.at + 1


def _interval(e: Estimate, catalog: Catalog) -> str:
    return catalog.t("review_interval", low=number(e.low, catalog), high=number(e.high, catalog))


def review_lines(review: Review, catalog: Catalog, names: Sequence[str] | None = None) -> list[str]:
    """The review as lines of text: a heading, every decision with each choice's value,
    then the summary with the three costliest decisions and why."""
    t = catalog.t
    n = review.rules.players
    who = seat_names(n, review.seat, catalog, names)
    lines = [t("review_title", name=who[review.seat], preset=rules_text(review.rules, catalog),
               players=n, worlds=review.worlds, seed=review.seed),
             t(f"review_unit_{review.unit}"), ""]
    for d in review.decisions:
        number_ = move_number(d)
        if d.verdict is Verdict.FORCED:
            lines.append(t("review_forced", number=number_, move=move_text(d.made, catalog)))
            continue
        lines.append(t(f"review_{d.kind.value}", number=number_))
        for option in d.options:
            marks = []
            if option.action == d.best:
                marks.append(t("review_mark_best"))
            if option.action == d.made:
                marks.append(t("review_mark_made"))
            line = t("review_option", value=number(option.value.mean, catalog),
                     interval=_interval(option.value, catalog), move=move_text(option.action, catalog))
            if marks:
                line += t("review_marks", marks=", ".join(marks))
            lines.append("    " + line)
        if d.verdict is Verdict.BEST:
            lines.append("    " + t("review_was_best"))
        else:
            cost = number(d.cost.mean, catalog, sign=False)
            lines.append("    " + t("review_cost", cost=cost, interval=_interval(d.cost, catalog),
                                      verdict=verdict_text(d.verdict, catalog)))
            why = reason_text(d, catalog, names)
            if why:
                lines.append("    " + why + ".")
    lines += ["", t("review_summary")]
    choices = review.choices
    counts = {v: sum(1 for d in choices if d.verdict is v) for v in Verdict}
    lines.append(t(f"review_lost_{review.unit}", lost=number(review.lost.mean, catalog, sign=False),
                   interval=_interval(review.lost, catalog)))
    lines.append(t("review_counts", count=len(choices), best=counts[Verdict.BEST], good=counts[Verdict.GOOD],
                   inaccuracy=counts[Verdict.INACCURACY], mistake=counts[Verdict.MISTAKE],
                   blunder=counts[Verdict.BLUNDER]))
    result = f"{review.result:+.0f}" if review.unit == "chips" else number(review.result, catalog)
    lines.append(t(f"review_result_{review.unit}", result=result))
    if not review.costliest:
        lines.append(t("review_none"))
        return lines
    lines.append(t("review_costliest"))
    for place, i in enumerate(review.costliest, 1):
        d = review.decisions[i]
        lines.append(t("review_costly", place=place, number=move_number(d),
                       cost=number(d.cost.mean, catalog, sign=False),
                       verdict=verdict_text(d.verdict, catalog),
                       reason=reason_text(d, catalog, names) or ""))
    return lines


def _estimate(e: Estimate) -> dict[str, float]:
    return e.to_json()


def decision_json(d: Decision, catalog: Catalog, names: Sequence[str] | None = None) -> dict[str, Any]:
    """One decision as JSON: the choices with their values, the cost, the verdict, the
    reason (its key and values, and its sentence in the catalog's language)."""
    reason = None
    if d.reason is not None:
        args = {name: list(v) if isinstance(v, tuple) else v for name, v in d.reason.args}
        reason = {"key": d.reason.key, "args": args, "text": reason_text(d, catalog, names)}
    return {
        "at": d.at,
        "kind": d.kind.value,
        "action": d.action_index,
        "made": None if d.made is None else d.made.to_json(),
        "best": None if d.best is None else d.best.to_json(),
        "verdict": d.verdict.value,
        "cost": _estimate(d.cost),
        "options": [{"action": None if o.action is None else o.action.to_json(), **_estimate(o.value)}
                    for o in d.options],
        "reason": reason,
    }


def review_json(review: Review, catalog: Catalog, names: Sequence[str] | None = None) -> dict[str, Any]:
    """The whole review as one JSON object (format ``lald-review/1``, docs/review.md)."""
    return {
        "format": FORMAT,
        "seat": review.seat,
        "rules": review.rules.spec(),
        "seed": review.seed,
        "worlds": review.worlds,
        "unit": review.unit,
        "result": round(review.result, 3),
        "lost": _estimate(review.lost),
        "costliest": list(review.costliest),
        "decisions": [decision_json(d, catalog, names) for d in review.decisions],
    }


__all__ = ["decision_json", "glyphs", "move_number", "move_text", "number", "preset_text", "reason_text",
           "review_json", "review_lines", "rules_text", "seat_names", "verdict_text"]
