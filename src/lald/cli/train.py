"""``lald train``: train a learned player by deep Monte-Carlo self-play (PyTorch on the CPU)."""

from __future__ import annotations

import argparse
import dataclasses
import sys
from pathlib import Path
from typing import Any

_DEFAULTS: dict[str, Any] = {
    "hidden": "512,256,256", "lr": 3e-4, "batch": 512, "epochs": 1, "deals_per_round": 200, "shards": 4,
    "epsilon": 0.02, "warm_rounds": 300, "warm_epsilon": 0.1, "heuristic_share": 0.5, "eval_every": 100,
    "eval_deals": 200, "eval_seed": 7,
}


def register(sub: Any) -> None:
    """Add ``train`` to the ``lald`` command."""
    p = sub.add_parser(
        "train", help="train a learned player by self-play (deep Monte-Carlo, needs lald[train])",
        description="Train an action-value network by deep Monte-Carlo self-play (DouZero's method) "
                    "for a preset and player count, with PyTorch on the CPU. Checkpoints after every "
                    "round; the same command resumes (to the same result). Writes curve.jsonl (the "
                    "network against the heuristic in duplicate deals, every --eval-every rounds), "
                    "curve.png and final.npz, the weights the 'learned' level plays "
                    "(--bot learned:file=OUT/final.npz).")
    p.add_argument("--preset", choices=("survivor", "last-capture"), default="survivor")
    p.add_argument("--players", type=int, choices=(3, 4, 5), default=5)
    p.add_argument("--seed", type=int, default=1, help="names every deal and batch (default 1)")
    p.add_argument("--out", default=None, metavar="DIR",
                   help="run directory (default runs/train-PRESET-N-sSEED)")
    p.add_argument("--rounds", type=int, default=100_000, help="stop after this many rounds in all")
    p.add_argument("--hours", type=float, default=None,
                   help="stop after this many hours of training in all")
    p.add_argument("--actors", type=int, default=0,
                   help="actor worker processes (default 0: the actors play in this process)")
    p.add_argument("--hidden", default=_DEFAULTS["hidden"], help="hidden layer sizes (default 512,256,256)")
    for name in ("lr", "epsilon", "warm_epsilon", "heuristic_share"):
        p.add_argument("--" + name.replace("_", "-"), type=float, default=_DEFAULTS[name])
    for name in ("batch", "epochs", "deals_per_round", "shards", "warm_rounds", "eval_every", "eval_deals",
                 "eval_seed"):
        p.add_argument("--" + name.replace("_", "-"), type=int, default=_DEFAULTS[name])
    p.add_argument("--targets", choices=("return", "rollout", "advantage"), default="return",
                   help="return: each decision's target is the deal's chips (deep Monte-Carlo, "
                        "DouZero's); rollout: every legal action is a sample, its target the chips of "
                        "the heuristic's play-out after it in the true deal; advantage: the same less "
                        "the decision's mean")
    p.add_argument("--plot-only", action="store_true", help="only draw OUT/curve.png from the run's curve")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=cmd_train)


def _fail(message: str) -> None:
    print(f"lald train: {message}", file=sys.stderr)
    raise SystemExit(2)


def cmd_train(args: argparse.Namespace) -> None:
    """Train (or resume) the run the flags describe."""
    try:
        from ..rl import train as tr
    except ImportError as e:
        _fail(f"training needs PyTorch: pip install 'lald[train]' ({e})")
        return
    try:
        hidden = tuple(int(x) for x in args.hidden.split(","))
    except ValueError:
        _fail(f"--hidden {args.hidden}: give layer sizes as whole numbers, e.g. 512,256,256")
        return
    config = tr.Config(args.preset, args.players, args.seed, hidden, args.lr, args.batch, args.epochs,
                       args.deals_per_round, args.shards, args.epsilon, args.warm_rounds, args.warm_epsilon,
                       args.heuristic_share, args.eval_every, args.eval_deals, args.eval_seed,
                       args.targets)
    problems = [f"--{f.name.replace('_', '-')} must be positive" for f in dataclasses.fields(config)
                if f.name in ("batch", "epochs", "deals_per_round", "shards", "eval_deals")
                and getattr(config, f.name) < 1]
    if min(hidden) < 1 or not 0 <= args.epsilon <= 1 or not 0 <= args.heuristic_share <= 1 or args.actors < 0:
        problems.append("layer sizes must be positive, --epsilon and --heuristic-share between 0 and 1, "
                        "--actors 0 or more")
    if problems:
        _fail(problems[0])
    out = Path(args.out or f"runs/train-{args.preset}-{args.players}-s{args.seed}")
    if args.plot_only:
        if not (out / tr.CURVE).exists():
            _fail(f"{out} has no curve yet ({tr.CURVE})")
        print(tr.plot(out))
        return
    _run(tr, out, config, args)


def _run(tr: Any, out: Path, config: Any, args: argparse.Namespace) -> None:
    command = "lald train " + " ".join(sys.argv[2:]) if len(sys.argv) > 1 else "lald train"

    def line(info: dict[str, Any]) -> str:
        text = f"round {info['round']}: loss {info['loss']:.3f}"
        if "diff" in info:
            text += f"; learned − heuristic {info['diff']:+.3f} ± {info['ci']:.3f} chips a deal"
        return text

    try:
        if args.quiet:
            def quiet(done: int, total: int, info: dict[str, Any]) -> None:
                if "diff" in info:
                    print(line(info), flush=True)
            trainer = tr.train(out, config, args.rounds, args.hours, args.actors, quiet, command)
        else:
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

            console = Console()
            with Progress(TextColumn("rounds"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                          TextColumn("{task.description}"), console=console) as bar:
                task = bar.add_task("", total=args.rounds)

                def update(done: int, total: int, info: dict[str, Any]) -> None:
                    bar.update(task, completed=done, description=line(info) if info else "")
                    if "diff" in info:
                        bar.console.print(line(info))
                trainer = tr.train(out, config, args.rounds, args.hours, args.actors, update, command)
    except ValueError as e:
        _fail(str(e))
        return
    except KeyboardInterrupt:
        print(f"stopped; the same command resumes from {out / tr.CHECKPOINT}", file=sys.stderr)
        raise SystemExit(130) from None
    print(f"{trainer.round} rounds, {trainer.deals:,} deals, {trainer.seconds / 3600:.2f} hours: "
          f"{out / 'final.npz'} (play it: --bot learned:file={out / 'final.npz'})")
    if trainer.curve:
        try:
            print(f"curve: {tr.plot(out)}")
        except ImportError:
            print("curve: install matplotlib to draw it (lald train --plot-only)")
