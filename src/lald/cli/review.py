"""``lald review RECORD --seat N``: what the expert thinks of every decision a seat made."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any


def register(sub: Any) -> None:
    """Add ``review`` to the ``lald`` command."""
    from ..coach.review import DEFAULT_WORLDS
    from ..i18n import LANGUAGES

    p = sub.add_parser(
        "review", help="what the expert thinks of every decision a seat made in a finished deal",
        description="Review a seat's decisions in a finished deal, as a chess site reviews a game: "
                    "for each turn and claim window where the seat had a choice, the expert's "
                    "estimate of every choice (the seat's chips for the deal, with a 95% interval), "
                    "computed only from what the seat could know then; the move made, the best move "
                    "and the cost of the difference; then the chips lost and the three costliest "
                    "decisions, each with a reason. The same record and --seed give the same review.")
    p.add_argument("file", help="a finished deal's record (JSON or text notation); - reads standard input")
    p.add_argument("--seat", required=True, metavar="SEAT",
                   help="the seat whose decisions are reviewed: its number from 0, its name in the record "
                        "(the names given at the terminal's table, which its exported records keep), or "
                        "a default seat name (Anne, Ben, Cis, Dick, Eve in English; any language's)")
    p.add_argument("--json", action="store_true", help="print the review as one JSON object (docs/review.md)")
    p.add_argument("--seed", type=int, default=0, help="names the sampled deals (default 0)")
    p.add_argument("--worlds", type=int, default=DEFAULT_WORLDS, metavar="N",
                   help=f"sampled deals per decision (default {DEFAULT_WORLDS}; more is slower and surer)")
    p.add_argument("--lang", default=None, choices=LANGUAGES, help="en, de, pt or es (default: the locale's)")
    p.set_defaults(func=cmd_review)


def cmd_review(args: argparse.Namespace) -> None:
    """Review the record the arguments name and print the review."""
    from ..coach.review import MAX_WORLDS, review_deal
    from ..coach.words import review_json, review_lines
    from ..i18n import Catalog, detect_language
    from .args import fail, load_record, usage, with_guess

    lang = detect_language(args.lang)
    if not 1 <= args.worlds <= MAX_WORLDS:
        usage(f"--worlds {args.worlds}: use 1 to {MAX_WORLDS} sampled deals per decision")
    record, state = load_record(args.file)
    seat = seat_of(args.seat, state.n, record.names)
    if seat is None and args.seat.strip().isdigit():
        usage(f"--seat {args.seat.strip()}: there is no seat {args.seat.strip()}: "
              f"seats are 0 to {state.n - 1}")
    if seat is None:
        known = list(record.names or _names("en", state.n))
        usage("--seat: " + with_guess(f"there is no seat named {args.seat.strip()!r}: seats are 0 to "
                                       f"{state.n - 1}, or {', '.join(known)}", args.seat.strip(),
                                       known))
    args.seat = seat
    if not state.over:
        fail(f"the deal is not over (seat {state.to_move} is to move): a review needs a finished deal")
    catalog = Catalog(lang)
    try:
        if sys.stderr.isatty():
            review = _with_progress(state, args)
        else:
            review = review_deal(state, args.seat, seed=args.seed, worlds=args.worlds)
    except KeyboardInterrupt:
        print("lald: review interrupted", file=sys.stderr)
        raise SystemExit(130) from None
    if args.json:
        print(json.dumps(review_json(review, catalog, record.names), ensure_ascii=False))
    else:
        print("\n".join(review_lines(review, catalog, record.names)))


def _names(lang: str, players: int) -> list[str]:
    from ..i18n import Catalog

    names = [n.strip() for n in Catalog(lang).t("default_names").split(",")]
    return names[:players]


def seat_of(text: str, players: int, names: Sequence[str] | None = None) -> int | None:
    """The seat ``text`` names: a number from 0, a name the record gives its seats
    (``names``), or a seat's name at the terminal's table in any catalog language (any
    case); None if none."""
    from ..i18n import LANGUAGES

    text = text.strip()
    if text.isascii() and text.isdigit():
        return int(text) if int(text) < players else None
    for known in ([list(names)] if names else []) + [_names(lang, players) for lang in LANGUAGES]:
        folded = [n.casefold() for n in known]
        if text.casefold() in folded:
            return folded.index(text.casefold())
    return None


def _with_progress(state: Any, args: argparse.Namespace) -> Any:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from ..coach.review import review_deal

    columns = (TextColumn("decisions"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=Console(file=sys.stderr), transient=True) as progress:
        task = progress.add_task("review", total=None)

        def update(done: int, total: int) -> None:
            progress.update(task, completed=done, total=total)

        return review_deal(state, args.seat, seed=args.seed, worlds=args.worlds, progress=update)
