"""``lald train``: deep Monte-Carlo self-play (DouZero's method) with PyTorch on the CPU.

The network (:class:`TorchQ`) scores a seat's state and one candidate action by the chips
the seat can expect from the deal; it is fitted by mean squared error to whole-deal
returns, which epsilon-greedy actors (:mod:`lald.rl.training.selfplay`, numpy only) collect by
playing the current network in every seat. Training goes in *rounds*: the actors play
``deals_per_round`` deals with the weights of the round's start (split in ``shards``
tasks, each named by the seed, the round and the shard, played by as many worker
processes as ``--actors`` says, or in this process), then the learner makes ``epochs``
passes over the round's records in shuffled mini-batches. Nothing else is random, so a
run stopped after any round and resumed from its checkpoint ends with the same weights
as one that never stopped, whatever the number of actor processes.

The first ``warm_rounds`` rounds are played by the heuristic in every seat (with the same
exploration): the network learns the value of each action under the heuristic's play,
and playing the best of those values is already a step above the heuristic. After them
each seat is played by the heuristic with chance ``heuristic_share`` and by the network
otherwise.

Every ``eval_every`` rounds the network plays a duplicate tournament against the
heuristic (``eval_deals`` deal groups, :mod:`lald.tournament`); the difference with its
95% interval goes into the curve (``curve.jsonl``, one JSON line per evaluation), which
``plot`` draws. The output directory holds ``checkpoint.pt`` (weights, optimizer, round,
curve), ``config.json``, each evaluated network as ``round-N.npz`` and the last one as
``final.npz``, in the numpy format the ``learned`` level reads.

PyTorch is imported by this module only: players and the server never import it.
"""

from __future__ import annotations

import dataclasses
import json
import multiprocessing
import os
import platform
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from ...bots.learned.network import ACTION_SIZE, STATE_SIZE, QNetwork
from ...core import Rules
from .selfplay import ActorTask, Batch, Layers, derive_seed, play, worker

CHECKPOINT = "checkpoint.pt"
CURVE = "curve.jsonl"
CONFIG = "config.json"


@dataclasses.dataclass(frozen=True)
class Config:
    """Everything that names a training run (the output directory and the number of
    rounds do not: a resumed run may be given more)."""

    preset: str = "survivor"
    players: int = 5
    seed: int = 1
    hidden: tuple[int, ...] = (512, 256, 256)
    lr: float = 3e-4
    batch: int = 512
    epochs: int = 1
    deals_per_round: int = 200
    shards: int = 4
    epsilon: float = 0.02
    warm_rounds: int = 300
    warm_epsilon: float = 0.1
    heuristic_share: float = 0.5
    eval_every: int = 25
    eval_deals: int = 200
    eval_seed: int = 7
    targets: str = "return"
    worlds: int = 32
    init: str = ""

    def rules(self) -> Rules:
        """The rules trained for."""
        return Rules.make(preset=self.preset, players=self.players)

    def to_json(self) -> dict[str, Any]:
        """The config as JSON data."""
        return {**dataclasses.asdict(self), "hidden": list(self.hidden)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Config:
        """The config :meth:`to_json` wrote."""
        return cls(**{**data, "hidden": tuple(data["hidden"])})


class TorchQ(nn.Module):
    """The action-value network: the state and action features side by side, ReLU
    hidden layers, one output (:class:`lald.bots.learned.network.QNetwork` is its numpy twin)."""

    def __init__(self, hidden: Sequence[int]) -> None:
        super().__init__()
        sizes = [STATE_SIZE + ACTION_SIZE, *hidden]
        layers: list[nn.Module] = []
        for a, b in zip(sizes, sizes[1:], strict=False):
            layers += [nn.Linear(a, b), nn.ReLU()]
        layers.append(nn.Linear(sizes[-1], 1))
        self.net = nn.Sequential(*layers)

    def forward(self, states: torch.Tensor, actions: torch.Tensor) -> torch.Tensor:
        """The value of each (state, action) row."""
        out: torch.Tensor = self.net(torch.cat([states, actions], -1)).squeeze(-1)
        return out

    def layers(self) -> Layers:
        """The weights as numpy (inputs, outputs) matrices and biases."""
        linears = [m for m in self.net if isinstance(m, nn.Linear)]
        return [(m.weight.detach().numpy().T.copy(), m.bias.detach().numpy().copy()) for m in linears]


def numpy_network(model: TorchQ, meta: dict[str, Any] | None = None) -> QNetwork:
    """The numpy network with ``model``'s weights."""
    return QNetwork(model.layers(), meta)


def git_commit() -> str:
    """The commit of the source tree this runs from (or "unknown"), with ``+changes`` when
    lald's files differ from it."""
    try:
        where = Path(__file__).parent
        out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                             cwd=where, timeout=10, check=False)
        changed = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no", "--", "."],
                                 capture_output=True, text=True, cwd=where.parent, timeout=10, check=False)
        commit = out.stdout.strip() or "unknown"
        return commit + "+changes" if commit != "unknown" and changed.stdout.strip() else commit
    except OSError:
        return "unknown"


class Actors:
    """Plays a round's tasks: in worker processes (``count`` of them, started with
    ``spawn`` so that they never hold PyTorch) or, with ``count`` 0, here."""

    def __init__(self, count: int) -> None:
        self.count = count
        self.procs: list[Any] = []
        if count:
            ctx = multiprocessing.get_context("spawn")
            self.tasks: Any = ctx.Queue()
            self.results: Any = ctx.Queue()
            self.procs = [ctx.Process(target=worker, args=(self.tasks, self.results), daemon=True)
                          for _ in range(count)]
            for p in self.procs:
                p.start()

    def run(self, layers: Layers, tasks: Sequence[ActorTask]) -> Batch:
        """Every task's records, in the tasks' order."""
        if not self.count:
            network = QNetwork(layers)
            return Batch.join([play(t, network) for t in tasks])
        for i, t in enumerate(tasks):
            self.tasks.put((i, layers, t))
        got: dict[int, Batch] = {}
        while len(got) < len(tasks):
            i, batch = self.results.get()
            got[i] = batch
        return Batch.join([got[i] for i in range(len(tasks))])

    def close(self) -> None:
        """Stop the worker processes."""
        for _ in self.procs:
            self.tasks.put(None)
        for p in self.procs:
            p.join(timeout=10)
            if p.is_alive():
                p.terminate()
        self.procs = []


def evaluate(network: QNetwork, rules: Rules, deals: int, seed: int, path: Path) -> dict[str, float]:
    """The network against the heuristic in a duplicate tournament of ``deals`` groups:
    learned − heuristic with its 95% half-width, and the network's chips a deal."""
    from ...play.spec import parse_specs
    from ...tournament import duplicate
    from ...tournament.report import summarize

    network.save(path)
    t = duplicate.Tournament(rules, tuple(parse_specs([f"learned:file={path}", "heuristic"])), seed=seed)
    report = summarize(t, duplicate.run(t, deals))
    diff = report.differences[0].diff  # bot 0 (learned) minus bot 1 (heuristic)
    return {"diff": diff.mean, "ci": diff.half, "chips": report.rows[0].chips.mean}


class Trainer:
    """A training run in ``out``: made fresh or resumed from its checkpoint."""

    def __init__(self, out: Path, config: Config, actors: int = 0, command: str = "") -> None:
        torch.set_num_threads(1)
        self.out = out
        out.mkdir(parents=True, exist_ok=True)
        self.config = config
        self.command = command
        torch.manual_seed(config.seed)
        self.model = TorchQ(config.hidden)
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=config.lr)
        self.round = 0
        self.deals = 0
        self.samples = 0
        self.seconds = 0.0
        self.curve: list[dict[str, Any]] = []
        self.commit = git_commit()
        self.timing = {"actors": 0.0, "network": 0.0, "heuristic": 0.0, "learner": 0.0, "eval": 0.0}
        ckpt = out / CHECKPOINT
        if ckpt.exists():
            self._resume(ckpt)
        else:
            if config.init:
                self._start_from(Path(config.init))
            (out / CONFIG).write_text(json.dumps(config.to_json(), indent=1) + "\n")
        self.actors = Actors(actors)

    def _start_from(self, path: Path) -> None:
        """Start from the weights of a saved network (``.npz``; a ValueError in words if
        they are not a network of this run's shape)."""
        from ...bots.learned.network import QNetwork

        layers = QNetwork.load(path).layers
        linears = [m for m in self.model.net if isinstance(m, nn.Linear)]
        shapes = [w.shape[1] for w, _ in layers[:-1]]
        if len(layers) != len(linears) or any(w.shape != m.weight.shape[::-1] for (w, _), m in
                                                zip(layers, linears, strict=False)):
            raise ValueError(f"{path} holds a network of hidden layers {','.join(map(str, shapes))}, "
                             f"not {','.join(map(str, self.config.hidden))}: give the same --hidden")
        with torch.no_grad():
            for (w, b), m in zip(layers, linears, strict=True):
                m.weight.copy_(torch.from_numpy(w.T.copy()))
                m.bias.copy_(torch.from_numpy(b.copy()))

    def _resume(self, path: Path) -> None:
        state = torch.load(path, weights_only=False)
        saved = Config.from_json(state["config"])
        if saved != self.config:
            raise ValueError(f"{self.out} holds another training run ({json.dumps(saved.to_json())}); "
                             "give another --out, or the same settings to resume it")
        self.model.load_state_dict(state["model"])
        self.optimizer.load_state_dict(state["optimizer"])
        self.round, self.deals, self.samples = state["round"], state["deals"], state["samples"]
        self.seconds, self.curve, self.timing = state["seconds"], state["curve"], state["timing"]
        self.commit = state.get("commit", self.commit)

    def save(self) -> None:
        """Write the checkpoint (atomically: a stop mid-write keeps the last one)."""
        tmp = self.out / (CHECKPOINT + ".tmp")
        torch.save({"config": self.config.to_json(), "model": self.model.state_dict(),
                    "optimizer": self.optimizer.state_dict(), "round": self.round, "deals": self.deals,
                    "samples": self.samples, "seconds": self.seconds, "curve": self.curve,
                    "timing": self.timing, "commit": self.commit}, tmp)
        os.replace(tmp, self.out / CHECKPOINT)

    def meta(self) -> dict[str, Any]:
        """What a saved network says of itself."""
        return {"preset": self.config.preset, "players": self.config.players, "round": self.round,
                "deals": self.deals, "samples": self.samples, "hours": round(self.seconds / 3600, 3),
                "config": self.config.to_json(), "command": self.command, "commit": self.commit,
                "python": platform.python_version(), "torch": torch.__version__}

    def tasks(self) -> list[ActorTask]:
        """This round's actor tasks."""
        c = self.config
        warm = self.round < c.warm_rounds
        share, epsilon = (1.0, c.warm_epsilon) if warm else (c.heuristic_share, c.epsilon)
        sizes = [c.deals_per_round // c.shards + (i < c.deals_per_round % c.shards) for i in range(c.shards)]
        return [ActorTask(c.rules(), derive_seed(c.seed, "round", self.round, "shard", i), size, epsilon,
                          share, c.targets, c.worlds) for i, size in enumerate(sizes) if size]

    def learn(self, batch: Batch) -> float:
        """``epochs`` passes over ``batch`` in shuffled mini-batches; the mean loss."""
        c = self.config
        rng = np.random.default_rng(derive_seed(c.seed, "batches", self.round))
        states = torch.from_numpy(batch.states)
        actions = torch.from_numpy(batch.actions)
        targets = torch.from_numpy(batch.targets)
        losses = []
        for _ in range(c.epochs):
            order = torch.from_numpy(rng.permutation(len(targets)))
            for at in range(0, len(order), c.batch):
                idx = order[at:at + c.batch]
                loss = nn.functional.mse_loss(self.model(states[idx], actions[idx]), targets[idx])
                self.optimizer.zero_grad()
                loss.backward()  # type: ignore[no-untyped-call]
                nn.utils.clip_grad_norm_(self.model.parameters(), 40.0)
                self.optimizer.step()
                losses.append(loss.item())
        return float(np.mean(losses)) if losses else 0.0

    def step(self) -> dict[str, Any]:
        """One round: the actors' deals, then the learner; an evaluation when due."""
        start = time.perf_counter()
        batch = self.actors.run(self.model.layers(), self.tasks())
        t_actors = time.perf_counter() - start
        loss = self.learn(batch)
        t_learn = time.perf_counter() - start - t_actors
        self.round += 1
        self.deals += batch.deals
        self.samples += len(batch.targets)
        self.timing["actors"] += t_actors
        self.timing["learner"] += t_learn
        self.timing["network"] += batch.seconds.get("network", 0.0)
        self.timing["heuristic"] += batch.seconds.get("heuristic", 0.0)
        info: dict[str, Any] = {"round": self.round, "loss": loss, "steps": batch.steps}
        if self.config.eval_every and self.round % self.config.eval_every == 0:
            t0 = time.perf_counter()
            path = self.out / f"round-{self.round}.npz"
            result = evaluate(numpy_network(self.model, self.meta()), self.config.rules(),
                              self.config.eval_deals, self.config.eval_seed, path)
            self.timing["eval"] += time.perf_counter() - t0
            info.update(result)
        self.seconds += time.perf_counter() - start
        if "diff" in info:
            point = {"round": self.round, "deals": self.deals, "samples": self.samples,
                     "hours": round(self.seconds / 3600, 4), "loss": loss,
                     "diff": info["diff"], "ci": info["ci"], "chips": info["chips"]}
            self.curve.append(point)
            with (self.out / CURVE).open("a") as f:
                f.write(json.dumps(point) + "\n")
        return info

    def final(self) -> QNetwork:
        """The network now, with its curve in its meta, saved as ``final.npz``."""
        network = numpy_network(self.model, {**self.meta(), "curve": self.curve})
        network.save(self.out / "final.npz")
        return network

    def close(self) -> None:
        """Stop the actors."""
        self.actors.close()


def train(out: Path, config: Config, rounds: int, hours: float | None = None, actors: int = 0,
          progress: Callable[[int, int, dict[str, Any]], None] | None = None, command: str = "") -> Trainer:
    """Train in ``out`` up to round ``rounds`` (or until ``hours`` of training in all,
    resumed runs counted), saving a checkpoint after every round."""
    trainer = Trainer(out, config, actors, command)
    try:
        if progress:
            progress(trainer.round, rounds, {})
        while trainer.round < rounds and (hours is None or trainer.seconds < hours * 3600):
            info = trainer.step()
            trainer.save()
            if progress:
                progress(trainer.round, rounds, info)
        trainer.final()
    finally:
        trainer.close()
    return trainer


def plot(out: Path, path: Path | None = None) -> Path:
    """Draw the curve of ``out`` (learned − heuristic with its interval, against hours and
    deals of training) as a PNG; return its path."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    points = [json.loads(line) for line in (out / CURVE).read_text().splitlines() if line.strip()]
    config = json.loads((out / CONFIG).read_text())
    path = path or out / "curve.png"
    fig, ax = plt.subplots(figsize=(7, 4))
    hours = [p["hours"] for p in points]
    diff = np.array([p["diff"] for p in points])
    ci = np.array([p["ci"] for p in points])
    ax.axhline(0.0, color="grey", lw=0.8)
    ax.fill_between(hours, diff - ci, diff + ci, alpha=0.25, label="95% interval")
    ax.plot(hours, diff, marker="o", ms=3, label="learned − heuristic")
    ax.set_xlabel("hours of training")
    ax.set_ylabel("chips a deal")
    ax.set_title(f"{config['preset']}, {config['players']} players, {config.get('targets', 'return')} "
                 f"targets: duplicate, {config['eval_deals']} deal groups an evaluation", fontsize=10)
    ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def command(args: Any, fail: Callable[[str], None]) -> None:
    """``lald train`` with its parsed flags (``lald.cli.train`` checks them): train or
    resume, with a progress bar (or a line per evaluation with ``--quiet``); ``fail``
    says what went wrong in one line and exits."""
    config = Config(args.preset, args.players, args.seed, args.hidden_sizes, args.lr, args.batch, args.epochs,
                    args.deals_per_round, args.shards, args.epsilon, args.warm_rounds, args.warm_epsilon,
                    args.heuristic_share, args.eval_every, args.eval_deals, args.eval_seed, args.targets,
                    args.worlds, str(Path(args.init).resolve()) if args.init else "")
    out = Path(args.out or f"runs/train-{args.preset}-{args.players}-s{args.seed}")
    if args.plot_only:
        if not (out / CURVE).exists():
            fail(f"{out} has no curve yet ({CURVE})")
        print(plot(out))
        return
    argv = sys.argv[2:] if len(sys.argv) > 1 and sys.argv[1] == "train" else sys.argv[1:]
    command_text = " ".join(["lald train", *argv])

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
            trainer = train(out, config, args.rounds, args.hours, args.actors, quiet, command_text)
        else:
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

            with Progress(TextColumn("rounds"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                          TextColumn("{task.description}"), console=Console()) as bar:
                task = bar.add_task("", total=args.rounds)

                def update(done: int, total: int, info: dict[str, Any]) -> None:
                    bar.update(task, completed=done, description=line(info) if info else "")
                    if "diff" in info:
                        bar.console.print(line(info))
                trainer = train(out, config, args.rounds, args.hours, args.actors, update, command_text)
    except ValueError as e:
        fail(str(e))
        return
    except KeyboardInterrupt:
        print(f"stopped; the same command resumes from {out / CHECKPOINT}", file=sys.stderr)
        raise SystemExit(130) from None
    print(f"{trainer.round} rounds, {trainer.deals:,} deals, {trainer.seconds / 3600:.2f} hours: "
          f"{out / 'final.npz'} (play it: --bot learned:file={out / 'final.npz'})")
    if trainer.curve:
        try:
            print(f"curve: {plot(out)}")
        except ImportError:
            print("curve: install matplotlib to draw it (lald train --plot-only)")


__all__ = ["Config", "command", "Trainer", "TorchQ", "evaluate", "numpy_network", "plot", "train"]
