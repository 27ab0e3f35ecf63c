"""A masked policy gradient in numpy: one seat learns lald against four random bots.

The smallest learner that does what researchers do with lald: a linear softmax policy on
the 451-number observation, its illegal actions masked out, trained by REINFORCE (the
deal's chips as the return of every decision of the deal, less a running mean) on the
Gymnasium environment ``lald/Seat-v0``. It needs numpy and the ``rl`` extra, no deep
learning library, and on one core it beats ``random`` within a few minutes. The weights
go to an ``.npz`` file that ``examples/linear_policy.py`` plays as a bot level::

    python examples/train_pg.py --episodes 30000 --out linear_policy.npz
    LALD_LINEAR_POLICY=linear_policy.npz lald tournament --bot policy:file=examples/linear_policy.py \\
        --bot random --deals 2000

docs/research.md ("A first learner") gives a run's figures.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import gymnasium as gym
import numpy as np

import lald.rl.adapters.gymnasium  # noqa: F401  (registers lald/Seat-v0)
from lald.bots.learned.encoding import NUM_ACTIONS


def masked_softmax(logits: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """The policy's probabilities over the legal actions (zero elsewhere)."""
    z = np.where(mask, logits, -np.inf)
    z = np.exp(z - z.max())
    return z / z.sum()


def train(episodes: int, seed: int, lr: float, preset: str, players: int,
          report: int = 0) -> tuple[np.ndarray, np.ndarray, list[float]]:
    """Train; return the weights, the biases and the mean return of each block of
    ``report`` episodes (none if 0)."""
    rng = np.random.default_rng(seed)
    env = gym.make("lald/Seat-v0", preset=preset, players=players, opponents="random", seat=None)
    size = env.observation_space.shape[0]
    w = np.zeros((size, NUM_ACTIONS))
    b = np.zeros(NUM_ACTIONS)
    baseline, curve, block = 0.0, [], []
    obs, _ = env.reset(seed=seed)
    for episode in range(episodes):
        seen, grads, total, done = [], [], 0.0, False
        while not done:
            mask = env.unwrapped.action_masks()
            p = masked_softmax(obs @ w + b, mask)
            action = int(rng.choice(NUM_ACTIONS, p=p))
            g = -p
            g[action] += 1.0  # the gradient of log p[action] with respect to the logits
            seen.append(obs)
            grads.append(g)
            obs, reward, terminated, truncated, _ = env.step(action)
            total += float(reward)
            done = terminated or truncated
        advantage = total - baseline
        baseline += 0.01 * (total - baseline)
        x, g = np.asarray(seen), np.asarray(grads)
        w += lr * advantage * (x.T @ g)
        b += lr * advantage * g.sum(axis=0)
        obs, _ = env.reset()
        block.append(total)
        if report and (episode + 1) % report == 0:
            curve.append(float(np.mean(block)))
            block = []
    return w, b, curve


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--episodes", type=int, default=30_000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--lr", type=float, default=0.002)
    ap.add_argument("--preset", default="survivor")
    ap.add_argument("--players", type=int, default=5)
    ap.add_argument("--out", type=Path, default=Path("linear_policy.npz"))
    args = ap.parse_args()
    start = time.process_time()
    report = max(1, args.episodes // 10)
    w, b, curve = train(args.episodes, args.seed, args.lr, args.preset, args.players, report)
    np.savez(args.out, w=w, b=b)
    print(f"{args.episodes} episodes in {time.process_time() - start:.0f} processor seconds; "
          f"mean chips a deal per tenth of training: {', '.join(f'{c:+.2f}' for c in curve)}")
    print(f"weights in {args.out}: play them with LALD_LINEAR_POLICY={args.out} "
          "lald tournament --bot policy:file=examples/linear_policy.py --bot random")


if __name__ == "__main__":
    main()
