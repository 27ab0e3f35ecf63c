"""A reference learner: sb3-contrib's MaskablePPO on lald's compiled tables.

One network learns both presets at five players: a multi-layer perceptron over the
451-number observation, its illegal actions masked out, trained by PPO on the one-seat
task (a random seat each deal, four ``random`` opponents played inside the tables) of
:class:`lald.rl.vector.sb3.SeatVecEnv`, alternating between a survivor and a last-capture
batch of tables every ``--chunk`` steps. Needs the ``train`` extra (PyTorch,
stable-baselines3, sb3-contrib, matplotlib)::

    python examples/train_ppo.py --steps 20000000 --minutes 80 --seed 0 --out runs/ppo
    LALD_PPO_POLICY=runs/ppo/policy.npz lald eval examples/ppo_policy.py

It stops at ``--steps`` learner steps or after ``--minutes`` of wall time, whichever
comes first, and says how many steps it took (with the same seed and that number of
``--steps`` on one thread, the run repeats). The output directory holds the SB3 model
(``model.zip``), the network's weights as numpy arrays (``policy.npz``, which
``examples/ppo_policy.py`` plays without PyTorch), the curve (``curve.jsonl``: the mean
chips a deal of the last 100 deals of each preset at each rollout; ``curve.png``) and
``run.json`` (the command, the steps, the time). docs/research.md ("Reference learners")
gives a run's figures.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

PRESETS = ("survivor", "last-capture")


def export(model: Any, path: Path) -> None:
    """The policy's layers as numpy arrays: ``w0, b0, w1, b1, ...`` of the hidden layers
    (tanh) and ``w_out, b_out`` of the action logits."""
    import torch

    arrays: dict[str, np.ndarray] = {}
    layers = [m for m in model.policy.mlp_extractor.policy_net if isinstance(m, torch.nn.Linear)]
    for i, layer in enumerate(layers):
        arrays[f"w{i}"] = layer.weight.detach().numpy().T.copy()
        arrays[f"b{i}"] = layer.bias.detach().numpy().copy()
    arrays["w_out"] = model.policy.action_net.weight.detach().numpy().T.copy()
    arrays["b_out"] = model.policy.action_net.bias.detach().numpy().copy()
    np.savez(path, **arrays)


def plot(curve: list[dict[str, Any]], path: Path) -> None:
    """Each preset's mean chips a deal against the training opponents, by steps."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 3.5))
    for preset in PRESETS:
        points = [(c["steps"], c["chips"]) for c in curve if c["preset"] == preset and c["chips"] is not None]
        if points:
            ax.plot(*zip(*points, strict=True), label=preset)
    ax.axhline(0, color="grey", linewidth=0.8, linestyle="--")
    ax.set_xlabel("learner steps")
    ax.set_ylabel("chips a deal, last 100 deals")
    ax.set_title("MaskablePPO against four random seats, 5 players", fontsize=10)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def main(argv: list[str] | None = None) -> None:
    """Train, export and draw, as the module's text says."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=20_000_000, help="learner steps at most")
    parser.add_argument("--minutes", type=float, default=60.0, help="wall minutes at most")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--tables", type=int, default=64, help="tables of each preset")
    parser.add_argument("--chunk", type=int, default=65_536, help="steps on one preset before the other")
    parser.add_argument("--out", type=Path, default=Path("runs/ppo"))
    args = parser.parse_args(argv)
    if args.steps < 1 or args.minutes <= 0 or args.tables < 1 or args.chunk < 1:
        parser.error("--steps, --minutes, --tables and --chunk must be positive")

    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.vec_env import VecMonitor

    from lald.rl.vector.sb3 import SeatVecEnv

    torch.set_num_threads(1)
    args.out.mkdir(parents=True, exist_ok=True)
    envs = []
    for i, preset in enumerate(PRESETS):
        env = SeatVecEnv(args.tables, preset, players=5, seat=None)
        env.seed(args.seed * 1_000_003 + i * 100_000_007)
        envs.append(VecMonitor(env))
    model = MaskablePPO(
        "MlpPolicy", envs[0], n_steps=128, batch_size=1024, n_epochs=4, gamma=1.0, gae_lambda=0.95,
        learning_rate=3e-4, ent_coef=0.01, clip_range=0.2, policy_kwargs={"net_arch": [256, 256]},
        seed=args.seed, device="cpu", verbose=0)
    curve: list[dict[str, Any]] = []
    start = time.monotonic()
    deadline = start + args.minutes * 60

    class Record(BaseCallback):  # type: ignore[misc]
        """After each rollout: the last 100 deals' mean chips of the preset played."""

        def __init__(self, preset: str) -> None:
            super().__init__()
            self.preset = preset

        def _on_step(self) -> bool:
            return time.monotonic() < deadline

        def _on_rollout_end(self) -> None:
            buffer = self.model.ep_info_buffer
            chips = float(np.mean([e["r"] for e in buffer])) if buffer else None
            curve.append({"steps": int(self.model.num_timesteps), "preset": self.preset, "chips": chips,
                          "seconds": round(time.monotonic() - start, 1)})

    turn = 0
    # each preset's tables carry on where they stopped: their last observations are kept
    # (SB3's set_env would deal them again, on fresh seeds)
    kept: list[tuple[Any, Any] | None] = [None, None]
    with (args.out / "curve.jsonl").open("w") as log:
        while model.num_timesteps < args.steps and time.monotonic() < deadline:
            preset = PRESETS[turn % 2]
            if turn:
                kept[(turn - 1) % 2] = (model._last_obs, model._last_episode_starts)
                model.set_env(envs[turn % 2], force_reset=kept[turn % 2] is None)
                if kept[turn % 2] is not None:
                    model._last_obs, model._last_episode_starts = kept[turn % 2]
            if model.ep_info_buffer is not None:
                model.ep_info_buffer.clear()  # the curve of each preset from its own deals
            done = len(curve)
            model.learn(min(args.chunk, args.steps - model.num_timesteps), callback=Record(preset),
                        reset_num_timesteps=False)
            for point in curve[done:]:
                log.write(json.dumps(point) + "\n")
            log.flush()
            last = curve[-1] if len(curve) > done else None
            print(f"{model.num_timesteps:>10,} steps  {time.monotonic() - start:7.0f} s  {preset:<12} "
                  f"{last['chips'] if last else float('nan'):+.3f} chips a deal", flush=True)
            turn += 1
    seconds = time.monotonic() - start
    model.save(args.out / "model.zip")
    export(model, args.out / "policy.npz")
    plot(curve, args.out / "curve.png")
    (args.out / "run.json").write_text(json.dumps({
        "command": " ".join(["python", *sys.argv]), "seed": args.seed, "steps": int(model.num_timesteps),
        "seconds": round(seconds), "steps_per_second": round(model.num_timesteps / seconds),
        "tables": args.tables, "chunk": args.chunk, "torch_threads": 1}, indent=2) + "\n")
    print(f"{model.num_timesteps:,} steps in {seconds:.0f} s; wrote policy.npz, model.zip and curve.png "
          f"in {args.out}")


if __name__ == "__main__":
    main()
