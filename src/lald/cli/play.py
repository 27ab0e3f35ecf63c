"""``lald play``: a session at the terminal table (Textual), or ``--plain`` text.

Kept light: Textual is imported only when the full-screen table starts.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence
from typing import Any

from ..bots import FRIENDLY, level_of
from ..coach.hints import best_level, playable_levels
from ..core import Rules
from ..i18n import LANGUAGES, Catalog, detect_language
from ..tui.game import HUMAN, Game, SeatSpec, TableSettings
from ..tui.store import SaveError, Store, save_dir
from ..tui.words import default_names
from .args import fail, in_range, rules_arguments, rules_from_args, usage, with_guess


def register(subparsers: Any) -> None:
    """Add ``lald play`` to the command line."""
    p = subparsers.add_parser("play", help="play a session at the terminal table")
    rules_arguments(p)
    p.add_argument("--seat", action="append", default=[], metavar="N=KIND[:NAME]",
                   help="who plays seat N: human or a bot level, by the setup screen's name "
                        "(beginner, easy, medium, strong, expert) or the engine's (random, greedy, "
                        "heuristic, pimc, expert), optionally a name (e.g. 2=easy, 1=human:Ben); "
                        "default: seat 0 human, the others bots")
    p.add_argument("--seed", type=int, default=None, help="the session's seed (default: random)")
    p.add_argument("--lang", default=None, choices=LANGUAGES,
                   help="language of the table (default: from the locale)")
    p.add_argument("--online", metavar="URL",
                   help="play a web table's seat (or watch a table) from the terminal, as text: the "
                        "link the site gave, like http://cards.example.org/play#t=...")
    p.add_argument("--plain", action="store_true",
                   help="no full-screen table: lines of text and numbered choices on stdin")
    p.add_argument("--resume", nargs="?", const="", default=None, metavar="FILE",
                   help="resume a saved session (default: the latest save), in its language and "
                        "with its hints unless --lang or --hints says otherwise; a named FILE is "
                        "saved back to")
    p.add_argument("--save-dir", default=None, metavar="DIR",
                   help="where saves and exported records go (default: $LALD_SAVE_DIR, else "
                        "the user's data folder, e.g. ~/.local/share/lald/saves)")
    p.add_argument("--export", action="store_true", help="export every finished deal as a record")
    p.add_argument("--pace", type=in_range(float, 0, 60, "a number of seconds"), default=0.8,
                   metavar="SECONDS",
                   help="pause between bot moves (default 0.8; 0 is instant)")
    p.add_argument("--claim-window", type=in_range(float, 0, 600, "a number of seconds"), default=5.0,
                   metavar="SECONDS",
                   help="how long an out-of-turn claim is offered before play moves on "
                        "(default 5; 0 waits for an answer)")
    p.add_argument("--no-setup", action="store_true",
                   help="start at once with the flags' settings, skipping the setup screen")
    p.add_argument("--learn", action="store_true",
                   help="learn to play: a guided first deal that explains each rule as it comes, "
                        "then a normal session (the flags' settings) with hints on")
    p.add_argument("--hints", action="store_true",
                   help="show at every decision what the strongest bot would play and why")
    p.set_defaults(func=cmd_play)


def parse_seats(items: Sequence[str], rules: Rules, catalog: Catalog) -> list[SeatSpec]:
    """Seats from ``--seat`` flags over the default: seat 0 human, the others the best bot."""
    names = default_names(catalog, rules.players)
    level = best_level()
    seats = [SeatSpec(HUMAN if s == 0 else level, names[s]) for s in range(rules.players)]
    for item in items:
        head, sep, body = item.partition("=")
        if not sep or not (head.strip().isascii() and head.strip().isdigit()):
            raise ValueError(f"--seat {item!r}: write N=KIND, e.g. 2=expert or 1=human:Ben")
        seat = int(head)
        if not 0 <= seat < rules.players:
            raise ValueError(f"--seat {item!r}: seats are 0 to {rules.players - 1}")
        kind, _, name = body.partition(":")
        kind = level_of(kind.strip())
        if kind and kind != HUMAN and kind not in playable_levels():
            friendly = [name for name, level in FRIENDLY.items() if level in playable_levels()]
            known = [HUMAN, *playable_levels(), *friendly]
            raise ValueError(f"--seat {item!r}: " + with_guess(
                f"unknown bot level {kind!r}: choose {HUMAN}, {', '.join(playable_levels())} "
                f"(or {', '.join(friendly)})", kind, known))
        seats[seat] = SeatSpec(kind or seats[seat].kind, name.strip() or seats[seat].name)
    return seats


def warn(message: str) -> None:
    """One line on stderr; the game goes on."""
    print(f"lald play: {message}", file=sys.stderr)


def cmd_play(args: argparse.Namespace) -> None:
    """Run ``lald play``."""
    try:
        lang = detect_language(args.lang)
    except ValueError as e:
        fail(str(e))
    catalog = Catalog(lang)
    if args.online is not None:
        from ..tui.text.online import OnlineError, endpoint, run_online

        try:
            endpoint(args.online)
        except OnlineError as e:
            usage(f"--online: {e}")
        try:
            raise SystemExit(run_online(args.online, catalog, sys.stdin, sys.stdout))
        except OnlineError as e:
            fail(str(e))
    if args.learn and args.resume is not None:
        usage("--learn starts the lesson, a deal of its own: it cannot resume a saved session "
             "(run lald play --resume without --learn)")
    store = Store(save_dir(args.save_dir))
    if store.root.exists() and not store.root.is_dir():
        warn(f"the save folder {store.root} is a file, not a folder: saves go to {store.fallback}")
    if args.resume is not None:
        from pathlib import Path

        path = Path(args.resume) if args.resume else store.latest()
        if path is None:
            fail(f"no saved session in play in {store.root}")
        try:
            game = Store.load(path)
        except ValueError as e:
            fail(str(e))
        if args.resume:
            store.keep_in(game, path)  # saved back where it was resumed from
        if game.session.over:
            try:
                records = store.close(game)
            except SaveError as e:
                fail(f"the session saved in {path} is over, and {e}")
            fail(f"the session saved in {path} is over: its deals are kept as records in {records}")
        # the session's own language and hints, unless a flag says otherwise
        if args.lang is None and game.settings.lang is not None:
            catalog = Catalog(game.settings.lang)
        hints = args.hints or game.settings.hints
    else:
        rules = rules_from_args(args)
        try:
            seats = parse_seats(args.seat, rules, catalog)
        except ValueError as e:
            usage(str(e))
        try:
            seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1 << 32)
            game = Game.new(rules, seats, seed)
        except ValueError as e:
            fail(str(e))
        hints = args.hints
    game.settings = TableSettings(catalog.lang, hints)
    lesson = None
    if args.learn:
        from ..tui.lesson import LessonGame

        lesson = LessonGame(default_names(catalog, LessonGame.PLAYERS))
    if args.plain:
        from ..tui.text.plain import run_plain

        raise SystemExit(run_plain(lesson or game, catalog, sys.stdin, sys.stdout, store,
                                   args.export, hints=hints, after_lesson=game))
    from ..tui.fullscreen.app import TableApp

    app = TableApp(lesson or game, catalog, store, pace=args.pace, claim_window=args.claim_window,
                   setup=args.resume is None and not args.no_setup and lesson is None,
                   export=args.export, hints=hints, after_lesson=game if lesson else None)
    said = app.run()
    if said:
        print(said)
