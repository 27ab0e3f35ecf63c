"""``lald train``: train a learned player by deep Monte-Carlo self-play (PyTorch on the CPU)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

_DEFAULTS: dict[str, Any] = {
    "hidden": "512,256,256", "lr": 5e-4, "batch": 512, "epochs": 1, "deals_per_round": 100, "shards": 4,
    "epsilon": 0.02, "warm_rounds": 50, "warm_epsilon": 0.1, "heuristic_share": 0.5, "eval_every": 100,
    "eval_deals": 200, "eval_seed": 7,
}
_HELP = {
    "lr": "Adam's learning rate", "epsilon": "chance of a random legal action at each decision",
    "warm_epsilon": "the same in the warm-start rounds",
    "heuristic_share": "chance that a seat of a deal is played by the heuristic after the warm start",
    "batch": "mini-batch size", "epochs": "passes over each round's records",
    "deals_per_round": "deals the actors play per round", "shards": "actor tasks per round",
    "warm_rounds": "first rounds played by the heuristic in every seat",
    "eval_every": "rounds between evaluations against the heuristic (0: none)",
    "eval_deals": "duplicate deal groups per evaluation", "eval_seed": "names the evaluation's deals",
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
    p.add_argument("--preset", choices=("survivor", "last-capture"), default="survivor",
                   help="the rules trained for (default survivor)")
    p.add_argument("--players", type=int, choices=(3, 4, 5), default=5, help="seats at the table (default 5)")
    p.add_argument("--seed", type=int, default=1, help="names every deal and batch (default 1)")
    p.add_argument("--out", default=None, metavar="DIR",
                   help="run directory (default runs/train-PRESET-N-sSEED)")
    p.add_argument("--rounds", type=int, default=100_000, help="stop after this many rounds in all")
    p.add_argument("--hours", type=float, default=None,
                   help="stop after this many hours of training in all")
    p.add_argument("--actors", type=int, default=0,
                   help="actor worker processes (default 0: the actors play in this process)")
    p.add_argument("--hidden", default=_DEFAULTS["hidden"], help="hidden layer sizes (default 512,256,256)")
    for name, kind in (("lr", float), ("epsilon", float), ("warm_epsilon", float), ("heuristic_share", float),
                       ("batch", int), ("epochs", int), ("deals_per_round", int), ("shards", int),
                       ("warm_rounds", int), ("eval_every", int), ("eval_deals", int), ("eval_seed", int)):
        p.add_argument("--" + name.replace("_", "-"), type=kind, default=_DEFAULTS[name],
                       help=f"{_HELP[name]} (default {_DEFAULTS[name]})")
    p.add_argument("--targets", choices=("return", "rollout", "advantage", "worlds"), default="advantage",
                   help="return: each decision's target is the deal's chips (DouZero's deep "
                        "Monte-Carlo); rollout: every legal action is a sample, its target the chips of "
                        "the heuristic's play-out after it in the true deal; advantage: the same less "
                        "the decision's mean (the default); worlds: every legal action valued by its mean "
                        "over --worlds layouts of the hidden cards drawn from what the seat has seen, "
                        "less the decision's mean (never the true deal's hidden cards)")
    p.add_argument("--worlds", type=int, default=32,
                   help="hidden layouts each decision's worlds targets are averaged over (default 32)")
    p.add_argument("--init", default=None, metavar="FILE.npz",
                   help="start a new run from these weights (a network of the same --hidden)")
    p.add_argument("--plot-only", action="store_true", help="only draw OUT/curve.png from the run's curve")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=cmd_train)


def _fail(message: str) -> None:
    print(f"lald train: {message}", file=sys.stderr)
    raise SystemExit(2)


#: The entry-point group through which the research extra gives ``lald train`` its trainer
#: (``lald.rl.training.train:command``): nothing outside ``lald.rl`` imports it.
TRAINERS = "lald.trainers"


def cmd_train(args: argparse.Namespace) -> None:
    """Check the flags, then train (or resume) with the installed trainer."""
    try:
        hidden = tuple(int(x) for x in args.hidden.split(","))
    except ValueError:
        _fail(f"--hidden {args.hidden}: give layer sizes as whole numbers, e.g. 512,256,256")
        return
    if not hidden or min(hidden) < 1:
        _fail("--hidden: layer sizes must be positive")
    if args.init and not Path(args.init).is_file():
        _fail(f"--init {args.init}: no such weights file")
    for name in ("batch", "epochs", "deals_per_round", "shards", "eval_deals", "worlds"):
        if getattr(args, name) < 1:
            _fail(f"--{name.replace('_', '-')} must be positive")
    for name in ("epsilon", "warm_epsilon", "heuristic_share"):
        if not 0 <= getattr(args, name) <= 1:
            _fail(f"--{name.replace('_', '-')} must be between 0 and 1")
    if args.actors < 0 or args.warm_rounds < 0 or args.eval_every < 0 or not args.lr > 0:
        _fail("--actors, --warm-rounds and --eval-every must be 0 or more, --lr positive")
    from importlib.metadata import entry_points

    found = [e for e in entry_points(group=TRAINERS) if e.name == "dmc"]
    try:
        if not found:
            raise ImportError("no trainer is installed")
        command = found[0].load()
    except ImportError as e:
        _fail(f"training needs PyTorch: pip install 'lald[train]' ({e})")
        return
    args.hidden_sizes = hidden
    command(args, _fail)
